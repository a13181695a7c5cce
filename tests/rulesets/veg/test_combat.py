"""Combat, ATT x, Spillover Effect and Combining Attacks (V.E.G., Basic Rules Extensions).

Every attack rolls the attacker's die, then the defender's (the stand-in core:
ATT + 1d6 against DEF + 1d6). Results: beating the defence by the margin (1 in
V.E.G.) or more destroys; falling one short wounds (stand-in table).
"""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction

GUNS = [("red", "A", "gun", "0505"), ("blue", "T", "gun", "0507")]


def test_an_attack_succeeds_when_it_beats_the_defence_by_one(veg):
    """Combat: V.E.G. attacks need to roll only 1 higher than the defender, not 2."""
    game = veg.new_game(GUNS, dice=[4, 3])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")  # 3 + 4 = 7 against 3 + 3 = 6: beats it by 1
    assert veg.last(game, "attack").data["difference"] == 1
    assert veg.last(game, "attack").data["result"] == "destroy"
    assert not veg.alive(game, "T")


def test_the_core_margin_of_two_is_replaced_by_one(veg):
    """Combat: the same roll that destroys in V.E.G. only wounds on the bare core."""
    core = veg.new_game(GUNS).state.setup.world.core
    assert core.margin == 1
    assert core.result(1) == "destroy"
    assert core.result(0) == "wound"
    assert core.result(-1) == "none"


def test_a_tie_wounds_and_a_lower_roll_does_nothing(veg):
    """Combat (stand-in result table): one short of the margin wounds, less does nothing."""
    game = veg.new_game(GUNS, dice=[3, 3])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    assert game.state.units["T"].wounded and veg.alive(game, "T")
    game = veg.new_game(GUNS, dice=[2, 3])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    assert not game.state.units["T"].wounded and veg.alive(game, "T")


def test_att_x_units_may_not_initiate_attacks(veg):
    """Combat: a unit rated ATT x has no offensive capability, in the attack phase and
    (optional rule) during movement, where the others' attacks are listed."""
    units = [
        ("red", "P", "hover_pc", "0505"),
        ("red", "A", "gun", "0404"),
        ("blue", "T", "gun", "0505"),
    ]
    game = veg.new_game(units, options={"attack_during_movement": True})
    assert "attack A T" in veg.legal(game)
    assert not any(a.startswith("attack P") for a in veg.legal(game))
    with pytest.raises(IllegalAction, match="ATT x and may not attack"):
        game.apply("attack P T", "red")
    game = veg.new_game(units)
    veg.skip_to(game, "red", "attack")
    assert veg.legal(game) == ["attack A T", "end"]
    with pytest.raises(IllegalAction, match="ATT x and may not attack"):
        game.apply("attack P T", "red")


def test_att_x_units_cannot_join_a_combined_attack(veg):
    """Combat: an ATT x unit has no ATT to combine (ruling: it may not join)."""
    game = veg.new_game(
        [
            ("red", "A", "gun", "0505"),
            ("red", "B", "gun", "0504"),
            ("red", "P", "hover_pc", "0506"),
            ("blue", "T", "gun", "0507"),
        ]
    )
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    assert "join P" not in veg.legal(game)
    with pytest.raises(IllegalAction, match="ATT x"):
        game.apply("join P", "red")


def test_attack_range_is_the_units_rng(veg):
    """Units rated RNG n attack targets up to n hexes away (range 0: its own hex)."""
    game = veg.new_game(
        [("red", "A", "gun", "0501"), ("blue", "T", "gun", "0505"), ("blue", "U", "gun", "0504")]
    )
    veg.skip_to(game, "red", "attack")
    assert veg.legal(game) == ["attack A U", "end"]
    with pytest.raises(IllegalAction, match="4 hexes away, beyond A's range 3"):
        game.apply("attack A T", "red")


# -- spillover ----------------------------------------------------------------------


def test_spillover_attacks_every_other_unit_in_the_hex_at_minus_three(veg):
    """Spillover Effect: the other units in the defender's hex undergo attacks at -3 ATT."""
    units = [
        ("red", "A", "gun", "0505"),
        ("blue", "T", "gun", "0507"),
        ("blue", "U", "gun", "0507"),
        ("blue", "V", "gun", "0507"),
    ]
    game = veg.new_game(units, dice=[1, 6, 6, 1, 6, 2])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    attacks = veg.events(game, "attack")
    assert [e.data["target"] for e in attacks] == ["T", "U", "V"]
    assert [e.data["att"] for e in attacks] == [3, 0, 0]
    # main: 3+1 vs 3+6 misses; U: 0+6 vs 3+1 = +2 destroys; V: 0+6 vs 3+2 = +1 destroys.
    assert [e.data["result"] for e in attacks] == ["none", "destroy", "destroy"]
    assert veg.alive(game, "T") and not veg.alive(game, "U") and not veg.alive(game, "V")


def test_each_spillover_attack_has_its_own_attack_and_defence_roll(veg):
    """Spillover Effect: each unit in the hex undergoes a separate attack, separately rolled."""
    units = [("red", "A", "gun", "0505")] + [("blue", f"T{i}", "gun", "0507") for i in range(3)]
    game = veg.new_game(units, dice=[1, 6, 2, 2, 3, 3])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T0", "red")
    rolls = [e for e in veg.events(game, "roll") if "attack" in e.data["purpose"]]
    assert len(rolls) == 6  # two dice per attack, three attacks
    assert [e.data["side"] for e in rolls] == ["red", "blue"] * 3


def test_spillover_also_strikes_the_attackers_own_units_in_that_hex(veg):
    """Spillover Effect: "any unit" in the hex (ruling: friends too; option spillover_hits)."""
    units = [
        ("red", "A", "gun", "0505"),
        ("red", "F", "gun", "0507"),
        ("blue", "T", "gun", "0507"),
    ]
    game = veg.new_game(units, dice=[1, 6, 6, 1])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    game.apply("roll", "red")  # F could have joined: it stands with T
    assert [e.data["target"] for e in veg.events(game, "attack")] == ["T", "F"]
    assert not veg.alive(game, "F")


def test_spillover_hits_only_enemies_under_the_option(veg):
    """Ruling alternative: option spillover_hits = "enemies" spares the attacker's own units."""
    units = [
        ("red", "A", "gun", "0505"),
        ("red", "F", "gun", "0507"),
        ("blue", "T", "gun", "0507"),
    ]
    game = veg.new_game(units, dice=[1, 6], options={"spillover_hits": "enemies"})
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    game.apply("roll", "red")
    assert [e.data["target"] for e in veg.events(game, "attack")] == ["T"]


def test_two_squads_attacking_at_range_zero_each_undergo_the_spillover(veg):
    """Spillover Effect, ruling 2 (default "all"): the squads firing stand in the target's
    hex, so each undergoes its own spillover attack: ATT 1+1 +1+1 (range 0) -3 = 1
    against DEF 1 destroys on 15 of the 36 rolls (scripted: Ia destroyed, Ib unharmed)."""
    units = [
        {"side": "red", "id": "I", "type": "infantry", "at": "0505", "count": 2},
        ("blue", "T", "gun", "0505"),
    ]
    game = veg.new_game(units, dice=[6, 1, 2, 1, 1, 6])
    veg.skip_to(game, "red", "attack")
    game.apply("attack Ia T", "red")
    game.apply("join Ib", "red")
    game.apply("roll", "red")
    attacks = veg.events(game, "attack")
    assert [e.data["target"] for e in attacks] == ["T", "Ia", "Ib"]
    assert [e.data["att"] for e in attacks] == [4, 1, 1]
    assert not veg.alive(game, "Ia") and veg.alive(game, "Ib")


def test_spillover_spares_the_units_firing_under_the_option(veg):
    """Ruling 2, option spillover_hits = "not_attackers": the units making the attack take
    no spillover, but another friendly unit in the hex (not firing) still does."""
    units = [
        {"side": "red", "id": "I", "type": "infantry", "at": "0505", "count": 3},
        ("blue", "T", "gun", "0505"),
    ]
    game = veg.new_game(units, dice=[6, 1, 6, 1], options={"spillover_hits": "not_attackers"})
    veg.skip_to(game, "red", "attack")
    game.apply("attack Ia T", "red")
    game.apply("join Ib", "red")
    game.apply("roll", "red")
    assert [e.data["target"] for e in veg.events(game, "attack")] == ["T", "Ic"]
    assert veg.alive(game, "Ia") and veg.alive(game, "Ib") and not veg.alive(game, "Ic")


def test_a_destroy_on_a_stack_of_three_squads_kills_one_and_the_others_take_spillover(veg):
    """Infantry: a Destroy against 3 infantry kills one; the others undergo spillover."""
    units = [
        ("red", "A", "gun", "0505"),
        {"side": "blue", "id": "I", "type": "infantry", "at": "0507", "count": 3},
    ]
    # main: 3+6 vs 1+1 destroys Ia; spillover 0+1 vs 1+6 and 0+2 vs 1+6 do nothing.
    game = veg.new_game(units, dice=[6, 1, 1, 6, 2, 6])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A Ia", "red")
    assert [veg.alive(game, u) for u in ("Ia", "Ib", "Ic")] == [False, True, True]
    assert [e.data["target"] for e in veg.events(game, "attack")] == ["Ia", "Ib", "Ic"]


def test_spillover_comes_with_a_failed_attack_too(veg):
    """Spillover Effect: the other units undergo an attack "at the same time", hit or miss."""
    units = [
        ("red", "A", "gun", "0505"),
        ("blue", "T", "gun", "0507"),
        ("blue", "U", "gun", "0507"),
    ]
    game = veg.new_game(units, dice=[1, 6, 1, 6])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    assert len(veg.events(game, "attack")) == 2


def test_spillover_causes_no_further_spillover_and_hazards_none(veg):
    """Ruling: a spillover attack (or a hazard's) does not spill over again."""
    units = [("red", "A", "gun", "0505")] + [("blue", f"T{i}", "gun", "0507") for i in range(4)]
    game = veg.new_game(units, dice=[1, 6] * 4)
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T0", "red")
    assert len(veg.events(game, "attack")) == 4


def test_hazards_cause_no_spillover(veg):
    """Ruling 3: a hazard attacks every unit in its hex on its own, so it spills over
    onto nobody: two units staying in a crater undergo one hazard attack each."""
    units = [
        ("red", "H", "heavy_tank", "0505"),
        ("red", "K", "heavy_tank", "0505"),
        ("blue", "E", "gun", "1010"),
    ]
    # H(8 - 5) = 3 against DEF 5: 3+1 against 5+6 and 3+1 against 5+6 do nothing.
    game = veg.new_game(units, hexes={"crater": ["0505"]}, dice=[1, 6, 1, 6])
    attacks = veg.events(game, "attack")  # red's first hazard phase has passed
    assert [(e.data["target"], e.data["cause"]) for e in attacks] == [
        ("H", "hazard"),
        ("K", "hazard"),
    ]


def test_an_attack_message_gives_base_modifiers_and_total(veg):
    """Narration: ATT and DEF read as base, each modifier, then the total (as the odds
    do), so that a modifier is never shown as if added to a total that holds it."""
    units = [
        ("red", "I", "infantry", "0505"),
        ("blue", "J", "infantry", "0505"),
        ("blue", "E", "gun", "1010"),
    ]
    # The attack on J, then the spillover on I (the attacker's own unit is in the hex).
    game = veg.new_game(units, hexes={"city": ["0505"]}, dice=[1, 6, 1, 6])
    veg.skip_to(game, "red", "attack")
    game.apply("attack I J", "red")
    main, spill = veg.events(game, "attack")
    assert "ATT 1 +1 (I: infantry at range 0) = 2 against DEF 1 +4 (in city) = 5," in main.text
    assert (main.data["att"], main.data["dfn"]) == (2, 5)
    assert "ATT 2 -3 (spillover) = -1 against DEF 1 +4 (in city) = 5," in spill.text
    assert spill.data["att"] == -1


def test_an_unmodified_attack_message_gives_the_ratings_alone(veg):
    """Narration: without modifiers ATT and DEF are the ratings."""
    game = veg.new_game(GUNS, dice=[4, 3])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    assert (
        "A attack T: ATT 3 against DEF 3, beats it by 1: destroy" in veg.last(game, "attack").text
    )


# -- combining -------------------------------------------------------------------------


def test_units_combine_their_att_into_one_attack(veg):
    """Combining Attacks: several units may add up their ATT and attack as one."""
    units = [
        ("red", "A", "gun", "0505"),
        ("red", "B", "gun", "0504"),
        ("red", "C", "gun", "0506"),
        ("blue", "T", "heavy_tank", "0507"),
    ]
    game = veg.new_game(units, dice=[1, 6])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    assert veg.legal(game) == ["join B", "join C", "roll"]
    game.apply("join B", "red")
    game.apply("join C", "red")
    game.apply("roll", "red")
    attack = veg.last(game, "attack")
    assert attack.data["att"] == 9 and attack.data["dfn"] == 5
    assert all(game.state.units[u].attacked for u in "ABC")


def test_a_unit_joins_only_an_attack_it_could_make_itself(veg):
    """Combining Attacks: each unit combining must have the target within its range."""
    units = [
        ("red", "A", "gun", "0505"),
        ("red", "B", "gun", "0501"),
        ("red", "C", "gun", "0504"),
        ("blue", "T", "gun", "0507"),
    ]
    game = veg.new_game(units)
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    assert veg.legal(game) == ["join C", "roll"]
    with pytest.raises(IllegalAction, match="beyond B's range"):
        game.apply("join B", "red")


def test_an_attack_nobody_could_join_is_rolled_at_once(veg):
    """Combining Attacks: with no one to combine, the attack resolves when declared."""
    game = veg.new_game(GUNS, dice=[1, 6])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    assert game.state.attack is None
    assert len(veg.events(game, "attack")) == 1


def test_each_unit_attacks_once_per_turn(veg):
    """Core (stand-in): a unit attacks (or joins an attack) once per turn."""
    others = [
        ("blue", "U", "gun", "0508"),
        ("red", "B", "gun", "0902"),
        ("blue", "V", "gun", "0901"),
    ]
    game = veg.new_game(GUNS + others, dice=[1, 6])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    with pytest.raises(IllegalAction, match="already attacked this turn"):
        game.apply("attack A U", "red")
    assert veg.legal(game) == ["attack B V", "end"]


def test_combined_attacks_may_be_switched_off(veg):
    """Core option combined_attacks = false: every attack is a single unit's."""
    units = [*GUNS, ("red", "B", "gun", "0504")]
    game = veg.new_game(units, dice=[1, 6], options={"combined_attacks": False})
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    assert game.state.attack is None


def test_a_wounded_unit_wounded_again_is_destroyed(veg):
    """Core (stand-in): a Wound on a wounded unit destroys it."""
    game = veg.new_game([*GUNS, ("red", "B", "gun", "0504")], dice=[3, 3, 3, 2])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    game.apply("roll", "red")  # 6 vs 6: wounded
    assert game.state.units["T"].wounded
    game.apply("attack B T", "red")  # 3 + 3 vs (3 - 1) + 2: beats it by 2 -> destroy anyway
    assert not veg.alive(game, "T")


def test_a_wound_lowers_att_def_and_mov_by_one(veg):
    """Core (stand-in): a wounded unit has -1 ATT, -1 DEF, -1 MOV."""
    game = veg.new_game([*GUNS, ("blue", "W", "gun", "0510")], dice=[3, 3])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    unit = game.state.units["T"]
    rules = game.ruleset
    assert (rules.att(game.state, unit), rules.dfn(game.state, unit)) == (2, 2)
    veg.skip_to(game, "blue", "move")
    assert unit.mp == 2
