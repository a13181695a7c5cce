"""Scenario [options]: the rulings with two reasonable readings, one flag each.

fired_units, hold_and_melee, hedgerow, los_along_edge, first_initiative_tie
(the last is tested in test_initiative.py).
"""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction
from warbench.geometry.hexgrid import Hex


def _fired_then_moved(mw, fired_units=None):
    """R (code A) fires at T and misses, then steps next to it in A's movement."""
    options = {"fired_units": fired_units} if fired_units else None
    game = mw.started_game(
        [("red", "R", "bowA", "0501"), ("red", "F", "foot", "0701"), ("blue", "T", "foot", "0503")],
        dice=[1],
        options=options,
    )
    game.apply("fire R T", "red")
    mw.skip_to(game, "move_a")
    return game


@pytest.mark.parametrize("option", [None, "free"])
def test_fired_units_free_is_the_default_a_unit_may_fire_move_and_melee(mw, option):
    """Ruling 7, fired_units = "free" (default): UNIT ACTIONS lists missile fire,
    movement and melee as the actions a unit may take in a turn and forbids no
    combination, so a unit that fired may still move and attack in melee."""
    game = _fired_then_moved(mw, option)
    game.apply("move R 0502", "red")
    assert mw.where(game, "R") == "0502"
    assert [str(a) for a in game.legal_actions("red")] == ["attack R T", "pass"]
    game.dice.extend([6, 5])  # CS 1 against CS 3 needs 10+: 11 succeeds
    game.apply("attack R T", "red")
    assert game.state.units["T"].disrupted


def test_fired_units_no_melee_option_a_unit_that_fired_may_move_not_melee(mw):
    """Option fired_units = "no_melee" (ruling 7's earlier default): the fire marker
    lasts to the next initiative, so the unit may move but not make a melee attack."""
    game = _fired_then_moved(mw, "no_melee")
    game.apply("move R 0502", "red")
    assert mw.where(game, "R") == "0502"
    assert game.state.step == "select"  # no attack offered
    with pytest.raises(IllegalAction):
        game.apply("attack R T", "red")


def test_fired_units_no_melee_leaves_units_that_did_not_fire_free(mw):
    """Option fired_units = "no_melee": only the units that fired lose their melee."""
    game = _fired_then_moved(mw, "no_melee")
    game.apply("move F 0602", "red")  # next to T at 0503
    assert game.state.step == "attack"


def test_fired_units_hold_keeps_a_unit_that_fired_in_place(mw):
    """Option fired_units = "hold": a unit that fired neither moves nor melees that turn."""
    game = _fired_then_moved(mw, "hold")
    with pytest.raises(IllegalAction, match="must hold"):
        game.apply("move R 0502", "red")
    assert not any(str(a).startswith("move R") for a in game.legal_actions("red"))
    game.apply("move F 0702", "red")  # others move as usual
    assert mw.where(game, "F") == "0702"


def test_hold_and_melee_true_lets_a_unit_that_stays_put_attack(mw):
    """Ruling, hold_and_melee = true (default): "after a unit moves" includes a move of
    no hexes, so a unit already adjacent may attack without moving."""
    game = mw.started_game([("red", "A", "foot", "0505"), ("blue", "D", "foot", "0506")])
    mw.skip_to(game, "move_a")
    game.apply("move A 0505", "red")
    assert [str(a) for a in game.legal_actions("red")] == ["attack A D", "pass"]


def test_hold_and_melee_false_needs_a_real_move_before_an_attack(mw):
    """Option hold_and_melee = false: only a unit that entered a hex may attack."""
    options = {"hold_and_melee": False}
    game = mw.started_game(
        [("red", "A", "foot", "0505"), ("red", "B", "foot", "0404"), ("blue", "D", "foot", "0506")],
        options=options,
    )
    mw.skip_to(game, "move_a")
    game.apply("move A 0505", "red")
    assert game.state.step == "select"
    game.apply("move B 0405", "red")  # enters a hex next to D
    assert [str(a) for a in game.legal_actions("red")] == ["attack B D", "pass"]


def _hedge_cost(mw, kind, option):
    game = mw.started_game(
        [("red", "U", kind, "0505"), ("blue", "E", "foot", "1010")],
        hexsides={"hedgerow": ["0505/0506"]},
        options={"hedgerow": option},
    )
    return mw.reach_mp(game, "U").get("0506")


def test_hedgerow_as_printed_is_the_default(mw):
    """Option hedgerow = "as_printed" (default): infantry n/a, cavalry +2."""
    assert _hedge_cost(mw, "foot1", "as_printed") is None
    assert _hedge_cost(mw, "horse1", "as_printed") == 3


def test_hedgerow_swapped_reads_infantry_plus_two_cavalry_n_a(mw):
    """Option hedgerow = "swapped": the row read the other way round."""
    assert _hedge_cost(mw, "foot1", "swapped") == 3
    assert _hedge_cost(mw, "horse1", "swapped") is None


def _edge_los(mw, option, **kw):
    """0102 to 0302 runs exactly along the hexside between 0201 and 0202."""
    options = {"los_along_edge": option} if option else None
    game = mw.started_game(
        [("red", "X", "foot", "1001"), ("blue", "Y", "foot", "1010"), *kw.pop("extra", [])],
        options=options,
        **kw,
    )
    return game.ruleset.line_of_sight(game.state, Hex.from_label("0102"), Hex.from_label("0302"))


def test_los_along_a_hexside_both_option_is_blocked_only_if_both_sides_block(mw):
    """Option los_along_edge = "both": a line along a hexside is open while one of the
    two hexes is open (sight may pass on either side)."""
    option = "both"
    assert _edge_los(mw, option, hexes={"forest": ["0201"]}) is True
    assert _edge_los(mw, option, extra=[("red", "M", "foot", "0202")]) is True
    assert _edge_los(mw, option, hexes={"forest": ["0201", "0202"]}) is False
    both_units = [("red", "M", "foot", "0202"), ("blue", "N", "foot", "0201")]
    assert _edge_los(mw, option, extra=both_units) is False
    mixed = _edge_los(mw, option, hexes={"forest": ["0201"]}, extra=[("red", "M", "foot", "0202")])
    assert mixed is False


@pytest.mark.parametrize("option", [None, "either"])
def test_los_along_a_hexside_either_is_the_default_and_blocks_if_one_side_blocks(mw, option):
    """Ruling 6, los_along_edge = "either" (default): MISSILE FIRE blocks a line that
    crosses any part of a blocking hex; a line along a hexside touches both hexes."""
    assert _edge_los(mw, option, hexes={"forest": ["0201"]}) is False
    assert _edge_los(mw, option, extra=[("red", "M", "foot", "0202")]) is False
    assert _edge_los(mw, option) is True


def test_los_along_a_hexside_hedgerow_touching_the_line_at_a_corner(mw):
    """Option los_along_edge: a hedgerow on 0102/0201 meets the line 0102-0302 only at
    the corner where the line leaves 0102. "both": the line may pass on the 0202 side,
    open; "either": the line counts as passing through 0201 too, so it crosses it."""
    hedge = {"hedgerow": ["0102/0201"]}
    assert _edge_los(mw, "both", hexsides=hedge) is True
    assert _edge_los(mw, "either", hexsides=hedge) is False


def test_los_along_a_hexside_both_option_passes_beside_a_hedgerow_on_that_hexside(mw):
    """Option los_along_edge = "both" (ruling, a doubt in docs/rules/miniwars.md): sight
    passing on one side of the hexside 0201/0202 is not stopped by a hedgerow on it."""
    assert _edge_los(mw, "both", hexsides={"hedgerow": ["0201/0202"]}) is True


def test_los_along_the_map_border_has_only_its_on_map_route(mw):
    """Ruling (docs/rules/miniwars.md): 0101-0301 runs along the map's top border,
    between 0201 and a hex off the map; there is no route off the map, so a forest in
    0201 blocks the line under either option."""
    game = mw.started_game(
        [("red", "X", "foot", "1010"), ("blue", "Y", "foot", "0909")], hexes={"forest": ["0201"]}
    )
    a, b = Hex.from_label("0101"), Hex.from_label("0301")
    assert game.ruleset.line_of_sight(game.state, a, b) is False
    clear = mw.started_game([("red", "X", "foot", "1010"), ("blue", "Y", "foot", "0909")])
    assert clear.ruleset.line_of_sight(clear.state, a, b) is True
    strict = mw.started_game(
        [("red", "X", "foot", "1010"), ("blue", "Y", "foot", "0909")],
        hexes={"forest": ["0201"]},
        options={"los_along_edge": "either"},
    )
    assert strict.ruleset.line_of_sight(strict.state, a, b) is False
    open_strict = mw.started_game(
        [("red", "X", "foot", "1010"), ("blue", "Y", "foot", "0909")],
        options={"los_along_edge": "either"},
    )
    assert open_strict.ruleset.line_of_sight(open_strict.state, a, b) is True


def test_fire_along_the_open_map_border_is_allowed_under_either_option(mw):
    """Missile Fire with option los_along_edge = either: the off-map side of a line
    along the border is no route, so on an empty map the shot is offered."""
    game = mw.started_game(
        [("red", "X", "bowA", "0101"), ("blue", "Y", "foot", "0301")],
        options={"los_along_edge": "either"},
    )
    assert game.state.phase_name == "missile_a"
    assert [str(a) for a in game.legal_actions("red")] == ["fire X Y", "end"]


def test_los_along_a_hexside_either_option_is_blocked_by_a_hedgerow_on_that_hexside(mw):
    """Option los_along_edge = "either" / THE MAP (Hedgerow blocks LOS): the line 0102-0302
    runs along the hexside 0201/0202; read strictly it passes through both hexes, so it
    runs along, and crosses, a hedgerow standing on that hexside."""
    assert _edge_los(mw, "either", hexsides={"hedgerow": ["0201/0202"]}) is False
