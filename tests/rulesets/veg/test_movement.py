"""Movement on the core (legs of MOV), Attacks During Movement (optional), stacks, and
the Infantry notes (V.E.G., Basic Rules Extensions and Special Unit Notes)."""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction

ADM = {"attack_during_movement": True}


def test_a_unit_spends_its_mov_in_legs(veg):
    """Core (stand-in): MOV is spent hex by hex, in as many legs as the player likes."""
    units = [("red", "M", "gun", "0501"), ("red", "N", "gun", "0901"), ("blue", "E", "gun", "1010")]
    game = veg.new_game(units)
    assert veg.reach(game, "M")["0504"] == 0
    game.apply("move M 0502", "red")
    assert veg.reach(game, "M")["0504"] == 0 and max(veg.reach(game, "M").values()) == 1
    game.apply("move M 0503", "red")
    game.apply("move M 0504", "red")
    with pytest.raises(IllegalAction, match="no movement points left"):
        game.apply("move M 0505", "red")


def test_movement_points_come_back_each_movement_phase(veg):
    """Core (stand-in): each movement phase a unit has its full MOV again."""
    game = veg.new_game([("red", "M", "gun", "0501"), ("blue", "E", "gun", "1010")])
    game.apply("move M 0502", "red")
    veg.skip_to(game, "blue", "move")
    veg.skip_to(game, "red", "move")
    assert game.state.turn == 2 and game.state.units["M"].mp == 3


def test_enemy_units_neither_block_nor_stop_movement(veg):
    """Core (stand-in): no zones of control; units pass through enemies' hexes."""
    game = veg.new_game([("red", "M", "gun", "0501"), ("blue", "E", "gun", "0502")])
    assert veg.reach(game, "M")["0504"] == 0


# -- attacks during movement --------------------------------------------------------


def test_attacks_during_movement_need_the_optional_rule(veg):
    """Optional Rule, Attacks During Movement: off unless the scenario turns it on."""
    units = [("red", "A", "gun", "0505"), ("blue", "T", "gun", "0507")]
    game = veg.new_game(units)
    assert not any(a.startswith("attack") for a in veg.legal(game))
    with pytest.raises(IllegalAction) as err:
        game.apply("attack A T", "red")
    assert str(err.value).endswith(
        "attacks come in the attack phase: option `attack_during_movement` "
        "(optional rule Attacks During Movement; set it to `true` to allow)"
    )
    game = veg.new_game(units, options=ADM)
    assert "attack A T" in veg.legal(game)


def test_a_unit_may_attack_at_any_point_of_its_movement_and_move_on(veg):
    """Attacks During Movement: declare an attack mid-move, then carry on with the MP left."""
    units = [("red", "A", "gun", "0501"), ("blue", "T", "gun", "0506")]
    game = veg.new_game(units, dice=[1, 6], options=ADM)
    game.apply("move A 0503", "red")
    game.apply("attack A T", "red")
    assert veg.events(game, "attack")
    assert game.state.units["A"].mp == 1
    game.apply("move A 0504", "red")
    assert veg.where(game, "A") == "0504"


def test_a_unit_that_attacked_during_movement_may_not_attack_in_the_attack_phase(veg):
    """Attacks During Movement: that unit gets no second attack in the regular attack phase."""
    units = [
        ("red", "A", "gun", "0505"),
        ("blue", "T", "gun", "0507"),
        ("red", "B", "gun", "0901"),
        ("blue", "U", "gun", "0902"),
    ]
    game = veg.new_game(units, dice=[1, 6], options=ADM)
    game.apply("attack A T", "red")
    veg.skip_to(game, "red", "attack")
    assert veg.legal(game) == ["attack B U", "end"]
    with pytest.raises(IllegalAction, match="already attacked this turn"):
        game.apply("attack A T", "red")


def test_units_joining_an_attack_during_movement_are_spent_for_the_attack_phase(veg):
    """Attacks During Movement (ruling 7): every unit of such an attack, joiners too,
    gets no second attack in the regular attack phase."""
    units = [
        ("red", "A", "gun", "0505"),
        ("red", "B", "gun", "0505"),
        ("blue", "T", "heavy_tank", "0507"),
        ("red", "C", "gun", "0901"),
        ("blue", "V", "gun", "0902"),
    ]
    game = veg.new_game(units, dice=[1, 6], options=ADM)
    game.apply("attack A T", "red")
    game.apply("join B", "red")
    game.apply("roll", "red")
    assert veg.alive(game, "T")
    veg.skip_to(game, "red", "attack")
    assert game.state.turn == 1
    assert veg.legal(game) == ["attack C V", "end"]
    with pytest.raises(IllegalAction, match="B has already attacked this turn"):
        game.apply("attack B T", "red")


def test_during_movement_only_units_in_the_attackers_hex_may_combine(veg):
    """Attacks During Movement: others combine only if they are in the same hex."""
    units = [
        ("red", "A", "gun", "0505"),
        ("red", "B", "gun", "0505"),
        ("red", "C", "gun", "0504"),
        ("blue", "T", "gun", "0507"),
    ]
    game = veg.new_game(units, dice=[1, 6], options=ADM)
    game.apply("attack A T", "red")
    assert veg.legal(game) == ["join B", "roll"]
    with pytest.raises(IllegalAction, match="only units in A's hex may combine"):
        game.apply("join C", "red")
    game.apply("join B", "red")
    game.apply("roll", "red")
    assert veg.last(game, "attack").data["att"] == 6


def test_a_stack_moving_together_may_combine_fire_on_the_way(veg):
    """Attacks During Movement: units moving together in a stack move and fire together."""
    units = [
        {"side": "red", "id": "S", "type": "gun", "at": "0501", "count": 2},
        ("blue", "T", "heavy_tank", "0506"),
        ("blue", "E", "gun", "1010"),
    ]
    game = veg.new_game(units, dice=[6, 1], options=ADM)
    game.apply("move Sa+Sb 0503", "red")
    assert veg.where(game, "Sa") == veg.where(game, "Sb") == "0503"
    assert game.state.units["Sa"].mp == game.state.units["Sb"].mp == 1
    game.apply("attack Sa T", "red")
    game.apply("join Sb", "red")
    game.apply("roll", "red")
    assert not veg.alive(game, "T")
    game.apply("move Sa+Sb 0504", "red")
    assert veg.where(game, "Sb") == "0504"


def test_a_stack_moves_whole(veg):
    """Stacks moving together (ruling): a stack move takes every unit that can move in the
    hex; the refusal says that units may move one at a time instead."""
    units = [{"side": "red", "id": "S", "type": "gun", "at": "0501", "count": 3}]
    game = veg.new_game([*units, ("blue", "E", "gun", "1010")])
    assert "move Sa+Sb+Sc 0502" in veg.legal(game)
    with pytest.raises(IllegalAction, match="a stack moves whole: move Sa\\+Sb\\+Sc") as err:
        game.apply("move Sa+Sb 0502", "red")
    assert "move them one at a time (move Sa 0502, ...)" in str(err.value)
    game.apply("move Sa 0502", "red")
    game.apply("move Sb 0502", "red")
    assert veg.where(game, "Sa") == veg.where(game, "Sb") == "0502"


def test_stack_members_each_pay_their_own_mp(veg):
    """Stacks: each unit of a stack pays its own costs (ruling); all must reach the hex."""
    units = [
        ("red", "W", "walker", "0501"),
        ("red", "G", "gun", "0501"),
        ("blue", "E", "gun", "1010"),
    ]
    game = veg.new_game(units, hexes={"woods": ["0502"]})
    before = {u: game.state.units[u].mp for u in ("W", "G")}
    game.apply("move W+G 0502", "red")
    assert veg.where(game, "W") == veg.where(game, "G") == "0502"
    together = {u: before[u] - game.state.units[u].mp for u in ("W", "G")}
    alone = veg.new_game(units, hexes={"woods": ["0502"]})
    alone.apply("move W 0502", "red")
    alone.apply("move G 0502", "red")
    assert together == {u: before[u] - alone.state.units[u].mp for u in ("W", "G")}
    assert together["W"] != together["G"], "a walker and a gun pay different costs for woods"


def test_a_stack_may_be_typed_in_any_order(veg):
    """Stacks (parsing): ``move Sc+Sa+Sb`` is the listed ``move Sa+Sb+Sc`` action."""
    units = [{"side": "red", "id": "S", "type": "gun", "at": "0501", "count": 3}]
    game = veg.new_game([*units, ("blue", "E", "gun", "1010")])
    action = game.parse("move Sc+Sa+Sb 0502")
    assert action in game.legal_actions() and str(action) == "move Sa+Sb+Sc 0502"
    game.apply("move Sc+Sa+Sb 0502", "red")
    assert all(veg.where(game, u) == "0502" for u in ("Sa", "Sb", "Sc"))


def test_a_unit_named_twice_in_a_stack_move_is_refused(veg):
    """Stacks: an action built in code naming a unit twice is refused, not a crash."""
    from warbench.geometry.hexgrid import Hex
    from warbench.rulesets.cgme.actions import Move

    units = [{"side": "red", "id": "S", "type": "gun", "at": "0501", "count": 2}]
    game = veg.new_game([*units, ("blue", "E", "gun", "1010")])
    with pytest.raises(IllegalAction, match="Sa is named twice"):
        game.apply(Move(("Sa", "Sa"), Hex.from_label("0502")), "red")
    assert veg.where(game, "Sa") == "0501"


ENCLOSED = ["0604", "0605", "0506", "0405", "0404"]
"""Open water round 0505 but for its north side, 0504."""


@pytest.mark.parametrize(
    ("kind", "to", "others", "water", "cause"),
    [
        ("gun", "0505", [], [], "the cheapest way costs 4 MP and M has 3 MP left"),
        ("gun", "0502", [], ["0502"], "gun (Wheeled, tracked units) may not enter open_water"),
        ("gun", "0505", [], [*ENCLOSED, "0504"], "no way leads there for gun (terrain in the way)"),
        (
            "gun",
            "0503",
            ["0503"],
            [],
            (
                "the hex is full (stacking limit 5 units, both sides count: "
                "ruling 1, option `stacking_limit`)"
            ),
        ),
        (
            "gun",
            "0505",
            ["0504"],
            ENCLOSED,
            "full hexes block every way there (stacking: ruling 1, option `stacking_limit`)",
        ),
        (
            "truck",
            "0601",
            [],
            [],
            "Transport truck may only travel on roads, and 0601 is not on one",
        ),
    ],
    ids=["mp", "terrain", "no-way", "full-hex", "full-hexes-on-the-way", "road-bound"],
)
def test_a_move_out_of_reach_is_refused_with_its_cause(veg, kind, to, others, water, cause):
    """Movement: "cannot reach" names why: too few MP, terrain the unit's class may not
    enter, no way through the terrain, a full hex, full hexes on every way, road-bound."""
    start = "0501" if to != "0505" or not water else "0502"
    units = [
        ("red", "M", kind, start),
        *[("blue", f"E{h}{i}", "gun", h) for h in others for i in range(5)],
        ("blue", "F", "gun", "1010"),
    ]
    game = veg.new_game(
        units,
        hexes={"open_water": water} if water else None,
        roads=[["0501", "0502", "0503"]] if kind == "truck" else None,
    )
    with pytest.raises(IllegalAction, match=f"M cannot reach {to}: ") as err:
        game.apply(f"move M {to}", "red")
    assert cause in str(err.value)


# -- infantry -----------------------------------------------------------------------


def test_an_infantry_counter_of_several_squads_is_several_units(veg):
    """Infantry: counters group squads for ease of play, but each squad is a unit."""
    units = [{"side": "red", "id": "I", "type": "infantry", "at": "0505", "count": 3}]
    game = veg.new_game([*units, ("blue", "E", "gun", "1010")])
    assert [u for u in game.state.units if u.startswith("I")] == ["Ia", "Ib", "Ic"]
    assert all(veg.where(game, u) == "0505" for u in ("Ia", "Ib", "Ic"))


def test_infantry_counters_split_and_combine_at_any_time(veg):
    """Infantry: squads on a counter can be separated or merged whenever the player likes."""
    units = [{"side": "red", "id": "I", "type": "walker", "at": "0505", "count": 3}]
    game = veg.new_game([*units, ("blue", "E", "gun", "1010")])
    game.apply("move Ia 0507", "red")  # split off one squad
    game.apply("move Ib+Ic 0506", "red")  # the rest move as one counter
    game.apply("move Ib 0507", "red")  # split again mid-move, joining Ia
    assert [veg.where(game, u) for u in ("Ia", "Ib", "Ic")] == ["0507", "0507", "0506"]
    game.apply("move Ic 0507", "red")  # combine all three
    assert "move Ia+Ib+Ic 0508" in veg.legal(game)


def test_infantry_get_plus_one_att_attacking_units_at_range_zero(veg):
    """Infantry: an infantry attack at range 0 gets +1 ATT."""
    units = [("red", "I", "infantry", "0505"), ("blue", "T", "gun", "0505")]
    game = veg.new_game(units, dice=[1, 6, 1, 6])  # then I's own spillover (any unit in the hex)
    veg.skip_to(game, "red", "attack")
    game.apply("attack I T", "red")
    attack = veg.events(game, "attack")[0]
    assert attack.data["att"] == 2
    assert "infantry at range 0" in attack.text


def test_the_range_zero_bonus_needs_range_zero(veg):
    """Infantry: at range 1 there is no bonus."""
    units = [("red", "I", "infantry", "0505"), ("blue", "T", "gun", "0506")]
    game = veg.new_game(units, dice=[1, 6])
    veg.skip_to(game, "red", "attack")
    game.apply("attack I T", "red")
    assert veg.last(game, "attack").data["att"] == 1


def test_the_range_zero_bonus_is_per_infantry_unit_in_a_combined_attack(veg):
    """Infantry: each infantry unit at range 0 adds its +1 to a combined attack."""
    units = [
        {"side": "red", "id": "I", "type": "infantry", "at": "0505", "count": 2},
        ("red", "G", "gun", "0505"),
        ("blue", "T", "gun", "0505"),
    ]
    game = veg.new_game(units, dice=[1, 6] * 4)  # the attack, then spillover on Ia, Ib, G
    veg.skip_to(game, "red", "attack")
    game.apply("attack Ia T", "red")
    game.apply("join Ib", "red")
    game.apply("join G", "red")
    game.apply("roll", "red")
    assert veg.events(game, "attack")[0].data["att"] == 1 + 1 + 3 + 2


def test_vehicles_get_no_range_zero_bonus(veg):
    """Infantry: the +1 is the infantry's, not every unit's."""
    units = [("red", "G", "gun", "0505"), ("blue", "T", "gun", "0505")]
    game = veg.new_game(units, dice=[1, 6, 1, 6])
    veg.skip_to(game, "red", "attack")
    game.apply("attack G T", "red")
    assert veg.events(game, "attack")[0].data["att"] == 3


def test_moves_and_attacks_are_drawn_as_paths_and_lines(veg):
    """Annotations: a leg is drawn as its path, an attack as a line from each attacker."""
    units = [("red", "A", "gun", "0501"), ("red", "B", "gun", "0508"), ("blue", "T", "gun", "0506")]
    game = veg.new_game(units, dice=[1, 6], options=ADM)
    events = game.apply("move A 0503", "red")
    marks = game.ruleset.annotations(game.state, events, None)
    # No hazard or road bonus near: the least-cost kernel gives no intermediate hexes.
    assert marks == [{"kind": "path", "points": ["0501", "0503"], "side": "red", "label": "A"}]
    events = game.apply("attack A T", "red")
    if game.state.attack is not None:
        events = game.apply("roll", "red")
    marks = game.ruleset.annotations(game.state, events, None)
    assert {"kind": "sight", "from": "0503", "to": "0506", "clear": True, "label": "none"} in marks
