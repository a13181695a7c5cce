"""MELEE COMBAT: the table, the modifiers, results, doubles and the advance.

The attacker A stands at 0504 and the defender D at 0506 unless told
otherwise; A steps into 0505 in player A's Movement/Combat and attacks.
"""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction

MELEE_TABLE = [
    [8, 9, 10, 11, 12],
    [7, 8, 9, 10, 11],
    [6, 7, 8, 9, 10],
    [5, 6, 7, 8, 9],
    [4, 5, 6, 7, 8],
]


def _attack(mw, dice, attacker="foot", defender="foot", extra=(), disrupted=(), **kw):
    """Player A (red) moves A next to D and attacks with the two dice given."""
    units = [("red", "A", attacker, "0504"), ("blue", "D", defender, "0506"), *extra]
    game = mw.started_game(units, dice=list(dice), **kw)
    mw.disrupt(game, *disrupted)
    mw.skip_to(game, "move_a")
    game.apply("move A 0505", "red")
    game.apply("attack A D", "red")
    return game


@pytest.mark.parametrize("att", range(1, 6))
@pytest.mark.parametrize("dfn", range(1, 6))
def test_melee_table_gives_the_two_dice_total_needed(mw, att, dfn):
    """MELEE COMBAT, the table: attacker CS (row) against defender CS (column)."""
    game = _attack(mw, [1, 2], attacker=f"cs{att}", defender=f"cs{dfn}")
    assert mw.last(game, "melee").data["needed"] == MELEE_TABLE[att - 1][dfn - 1]


@pytest.mark.parametrize(("dice", "success"), [((4, 2), False), ((4, 3), True), ((6, 5), True)])
def test_cs_3_against_cs_2_needs_seven_or_more(mw, dice, success):
    """MELEE COMBAT: two dice against the table; CS 3 vs CS 2 succeeds on 7+."""
    game = _attack(mw, dice, attacker="cs3", defender="cs2")
    melee = mw.last(game, "melee").data
    assert melee["needed"] == 7
    assert melee["success"] is success
    assert game.state.units["D"].disrupted is success


@pytest.mark.parametrize(
    ("defender", "modifier"), [("plus", -1), ("chief", -1), ("minus", 1), ("foot", 0)]
)
def test_defender_morale_modifies_the_melee_roll(mw, defender, modifier):
    """MELEE COMBAT: defender "+" or "!" -1 to the roll, "-" +1, "=" nothing."""
    # CS 3 vs CS 3 needs 8: a roll of 7 or 8 sits on the edge.
    for dice in ((3, 4), (3, 5)):
        game = _attack(mw, dice, defender=defender)
        melee = mw.last(game, "melee").data
        assert sum(melee["modifiers"]) == modifier
        assert melee["success"] is (sum(dice) + modifier >= 8)


def test_disrupted_attacker_subtracts_one(mw):
    """MELEE COMBAT: a disrupted unit subtracts 1 from its attack rolls."""
    game = _attack(mw, (3, 5), disrupted=["A"])
    melee = mw.last(game, "melee").data
    assert melee["modifiers"] == [-1]
    assert melee["success"] is False  # 8 - 1 against 8+


def test_successful_attack_disrupts_the_defender(mw):
    """MELEE COMBAT: success disrupts the defender."""
    game = _attack(mw, (6, 5))
    assert game.state.units["D"].disrupted is True
    assert mw.where(game, "D") == "0506"


def test_successful_attack_on_a_disrupted_defender_removes_it(mw):
    """MELEE COMBAT: a defender already disrupted is removed from the game."""
    game = _attack(mw, (6, 5), disrupted=["D"], extra=[("blue", "X", "foot", "1010")])
    assert mw.where(game, "D") is None
    assert mw.last(game, "removed").data["unit"] == "D"


def test_failed_attack_changes_nothing_without_doubles(mw):
    """MELEE COMBAT: a failed attack has no effect on either unit (no doubles)."""
    game = _attack(mw, (1, 2))
    assert not game.state.units["D"].disrupted
    assert not game.state.units["A"].disrupted


@pytest.mark.parametrize(("dice", "success"), [((3, 3), False), ((4, 4), True)])
def test_doubles_disrupt_the_attacker_win_or_lose(mw, dice, success):
    """MELEE COMBAT: on doubles the attacker is disrupted, whether it won or not."""
    game = _attack(mw, dice)
    assert mw.last(game, "melee").data["success"] is success
    assert game.state.units["A"].disrupted is True
    assert game.state.units["D"].disrupted is success


def test_doubles_do_not_affect_an_already_disrupted_attacker(mw):
    """MELEE COMBAT: an already disrupted attacker is unaffected by doubles (not removed)."""
    game = _attack(mw, (5, 5), disrupted=["A"])
    assert mw.where(game, "A") == "0505"
    assert game.state.units["A"].disrupted is True
    assert not any("doubles" in e.text for e in mw.events(game, "disrupted"))


def test_attack_comes_after_the_unit_moves(mw):
    """MELEE COMBAT: the option to attack follows a unit's move; no attack without one."""
    game = mw.started_game([("red", "A", "foot", "0505"), ("blue", "D", "foot", "0506")])
    mw.skip_to(game, "move_a")
    with pytest.raises(IllegalAction):
        game.apply("attack A D", "red")
    game.apply("move A 0505", "red")  # holding in place is its move (option hold_and_melee)
    assert game.state.step == "attack"
    assert [str(a) for a in game.legal_actions("red")] == ["attack A D", "pass"]


def test_only_the_unit_that_just_moved_may_attack(mw):
    """MELEE COMBAT: it is the unit that moved that has the option of attacking."""
    game = mw.started_game(
        [("red", "A", "foot", "0504"), ("red", "B", "foot", "0606"), ("blue", "D", "foot", "0506")]
    )
    mw.skip_to(game, "move_a")
    game.apply("move A 0505", "red")
    with pytest.raises(IllegalAction, match="only A"):
        game.apply("attack B D", "red")


def test_melee_only_against_an_adjacent_enemy(mw):
    """MELEE COMBAT: the target must be an opposing unit in an adjacent hex."""
    game = mw.started_game(
        [("red", "A", "foot", "0504"), ("blue", "D", "foot", "0506"), ("blue", "F", "foot", "0508")]
    )
    mw.skip_to(game, "move_a")
    game.apply("move A 0505", "red")
    assert [str(a) for a in game.legal_actions("red")] == ["attack A D", "pass"]
    with pytest.raises(IllegalAction, match="not adjacent"):
        game.apply("attack A F", "red")


def test_one_attack_per_move_then_the_unit_is_done(mw):
    """MELEE COMBAT: after its attack the unit has had its move and its option to attack."""
    game = _attack(mw, (1, 2))
    assert game.state.step == "select"
    with pytest.raises(IllegalAction):
        game.apply("attack A D", "red")
    with pytest.raises(IllegalAction, match="already moved"):
        game.apply("move A 0504", "red")


def test_declining_the_attack_is_allowed(mw):
    """MELEE COMBAT: the attack is an option; ``pass`` declines it."""
    game = mw.started_game([("red", "A", "foot", "0504"), ("blue", "D", "foot", "0506")])
    mw.skip_to(game, "move_a")
    game.apply("move A 0505", "red")
    game.apply("pass", "red")
    assert game.state.step == "select"
    assert not mw.events(game, "melee")


# -- the advance ----------------------------------------------------------------------------


def test_attacker_may_advance_into_the_hex_of_a_unit_it_eliminated(mw):
    """MELEE COMBAT: after eliminating a unit the attacker may move into the vacated hex."""
    game = _attack(mw, (6, 5), disrupted=["D"], extra=[("blue", "X", "foot", "1010")])
    assert game.state.step == "advance"
    assert [str(a) for a in game.legal_actions("red")] == ["advance A", "pass"]
    game.apply("advance A", "red")
    assert mw.where(game, "A") == "0506"


def test_advance_is_optional(mw):
    """MELEE COMBAT: the advance is an option; ``pass`` stays put."""
    game = _attack(mw, (6, 5), disrupted=["D"], extra=[("blue", "X", "foot", "1010")])
    game.apply("pass", "red")
    assert mw.where(game, "A") == "0505"
    assert game.state.step == "select"


def test_no_advance_when_the_defender_is_only_disrupted(mw):
    """MELEE COMBAT: the advance follows an elimination only."""
    game = _attack(mw, (6, 5))
    assert game.state.step == "select"
    with pytest.raises(IllegalAction):
        game.apply("advance A", "red")


def test_no_advance_into_terrain_the_attacker_could_not_enter(mw):
    """MELEE COMBAT: subject to terrain; a cavalry unit may not advance into a forest."""
    game = _attack(
        mw,
        (6, 5),
        attacker="horse",
        disrupted=["D"],
        extra=[("blue", "X", "foot", "1010")],
        hexes={"forest": ["0506"]},
    )
    assert mw.where(game, "D") is None
    assert game.state.step == "select"
    assert "advance A" not in [str(a) for a in game.legal_actions("red")]


def test_advance_ignores_mp_and_zones_of_control(mw):
    """MELEE COMBAT (ruling): the advance is not movement: no MP needed and an enemy
    zone of control does not stop it."""
    units = [
        ("red", "A", "foot2", "0502"),
        ("blue", "D", "foot", "0505"),
        ("blue", "X", "foot", "0605"),  # its ZOC covers 0505
    ]
    game = mw.started_game(units, dice=[6, 5])
    mw.disrupt(game, "D")
    mw.skip_to(game, "move_a")
    game.apply("move A 0504", "red")  # both of its MP
    game.apply("attack A D", "red")
    game.apply("advance A", "red")
    assert mw.where(game, "A") == "0505"


def test_an_attacker_disrupted_by_its_own_doubles_may_still_advance(mw):
    """MELEE COMBAT (ruling): doubles disrupt the attacker, but nothing in the text takes
    its advance away."""
    game = _attack(mw, (5, 5), disrupted=["D"], extra=[("blue", "X", "foot", "1010")])
    assert mw.where(game, "D") is None
    assert game.state.units["A"].disrupted is True
    game.apply("advance A", "red")
    assert mw.where(game, "A") == "0506"
