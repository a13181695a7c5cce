"""MISSILE FIRE: range, line of sight, the missile chart, modifiers and results.

The firer R stands at 0501 and fires down column 05 (a line through hex
centres) at the target T, ``range`` hexes away.
"""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction, NotYourDecision
from warbench.geometry.hexgrid import Hex

CHART = {
    "A": [2, 3, 4, 5, 6],
    "B": [3, 4, 5, 6],
    "C": [4, 5, 6],
    "D": [5, 6],
    "E": [6],
}


def _target_hex(distance: int) -> str:
    return f"05{1 + distance:02d}"


def _shoot(mw, roll, code="A", distance=1, target="foot", extra=(), disrupted=(), **kw):
    """Red (player A) fires R at T in its Missile Fire phase with one scripted die."""
    units = [
        ("red", "R", f"bow{code}", "0501"),
        ("blue", "T", target, _target_hex(distance)),
        *extra,
    ]
    game = mw.started_game(units, dice=[roll], **kw)
    mw.disrupt(game, *disrupted)
    assert game.state.phase_name == "missile_a"
    game.apply("fire R T", "red")
    return game


def _problem(mw, code="A", distance=1, target="foot", extra=(), **kw):
    units = [
        ("red", "R", f"bow{code}", "0501"),
        ("blue", "T", target, _target_hex(distance)),
        *extra,
    ]
    game = mw.started_game(units, **kw)
    state = game.state
    return game.ruleset.fire_problem(state, state.units["R"], state.units["T"])


@pytest.mark.parametrize("code", "ABCDE")
@pytest.mark.parametrize("distance", range(1, 7))
def test_missile_chart_roll_needed_by_code_and_range(mw, code, distance):
    """MISSILE FIRE, the chart: the lowest roll that hits; a dash means no attack."""
    row = CHART[code]
    if distance <= len(row):
        game = _shoot(mw, 1, code, distance)
        assert mw.last(game, "missile").data["needed"] == row[distance - 1]
    else:
        assert "beyond code" in _problem(mw, code, distance)


@pytest.mark.parametrize(("roll", "hit"), [(3, False), (4, True), (5, True), (6, True)])
def test_code_b_at_range_two_hits_on_four_to_six(mw, roll, hit):
    """MISSILE FIRE (worked example): code B at 2 hexes hits on a 4, 5 or 6."""
    game = _shoot(mw, roll, "B", 2)
    assert mw.last(game, "missile").data["hit"] is hit


def test_range_counts_the_target_hex_but_not_the_firers(mw):
    """MISSILE FIRE: an adjacent target is at range 1 (code E fires 1 hex, not 2)."""
    assert _problem(mw, "E", 1) is None
    assert "2 hexes away" in _problem(mw, "E", 2)


@pytest.mark.parametrize(
    ("target", "modifier"), [("plus", -1), ("chief", -1), ("minus", 1), ("foot", 0)]
)
def test_target_morale_modifies_the_missile_roll(mw, target, modifier):
    """MISSILE FIRE: target "+" or "!" -1, "-" +1, "=" nothing."""
    for roll in (4, 5):  # code A at range 3 needs 4
        game = _shoot(mw, roll, "A", 3, target=target)
        missile = mw.last(game, "missile").data
        assert sum(missile["modifiers"]) == modifier
        assert missile["hit"] is (roll + modifier >= 4)


def test_disrupted_attacker_subtracts_one_from_its_missile_roll(mw):
    """MISSILE FIRE: a disrupted attacker subtracts 1."""
    game = _shoot(mw, 4, "A", 3, disrupted=["R"])
    missile = mw.last(game, "missile").data
    assert missile["modifiers"] == [-1]
    assert missile["hit"] is False


def test_higher_attacker_adds_one_and_higher_target_subtracts_one(mw):
    """MISSILE FIRE: attacker higher +1; defender higher -1."""
    up = _shoot(mw, 3, "A", 3, elevation={1: ["0501"]})
    assert mw.last(up, "missile").data["modifiers"] == [1]
    assert mw.last(up, "missile").data["hit"] is True
    down = _shoot(mw, 4, "A", 3, elevation={1: ["0504"]})
    assert mw.last(down, "missile").data["modifiers"] == [-1]
    assert mw.last(down, "missile").data["hit"] is False


def test_natural_one_always_misses(mw):
    """MISSILE FIRE: a roll of 1 misses whatever the modifiers (here +2 against 2+)."""
    game = _shoot(mw, 1, "A", 1, target="minus", elevation={1: ["0501"]})
    missile = mw.last(game, "missile").data
    assert sum(missile["modifiers"]) == 2
    assert missile["hit"] is False
    assert not game.state.units["T"].disrupted


def test_modifiers_can_put_a_hit_out_of_reach(mw):
    """MISSILE FIRE: modifiers apply to the roll; a 6 - 1 misses a 6+ shot."""
    game = _shoot(mw, 6, "A", 5, target="plus")
    assert mw.last(game, "missile").data["hit"] is False


def test_a_missile_hit_disrupts_the_target(mw):
    """MISSILE FIRE: units hit are immediately disrupted."""
    game = _shoot(mw, 6)
    assert game.state.units["T"].disrupted is True
    assert mw.where(game, "T") == "0502"


def test_a_missile_hit_on_a_disrupted_target_removes_it(mw):
    """MISSILE FIRE: an already disrupted unit hit is removed from the game."""
    game = _shoot(mw, 6, disrupted=["T"], extra=[("blue", "X", "foot", "1010")])
    assert mw.where(game, "T") is None
    assert mw.last(game, "removed").data["unit"] == "T"


@pytest.mark.parametrize("terrain", ["forest", "town"])
def test_target_in_terrain_that_blocks_sight_cannot_be_fired_at(mw, terrain):
    """MISSILE FIRE: if the target is in LOS-blocking terrain the attack cannot occur."""
    problem = _problem(mw, "A", 2, hexes={terrain: ["0503"]})
    assert problem is not None and terrain in problem


@pytest.mark.parametrize("terrain", ["forest", "town"])
def test_firing_from_terrain_that_blocks_sight_is_allowed(mw, terrain):
    """MISSILE FIRE: the firer's own hex blocking sight has no effect."""
    assert _problem(mw, "A", 2, hexes={terrain: ["0501"]}) is None


def test_blocking_terrain_between_stops_the_fire(mw):
    """MISSILE FIRE: a line crossing any part of a blocking hex is not open."""
    assert "no line of sight" in _problem(mw, "A", 3, hexes={"forest": ["0503"]})


@pytest.mark.parametrize("side", ["red", "blue"])
def test_all_units_block_line_of_sight(mw, side):
    """MISSILE FIRE: every unit, friend or foe, blocks the line."""
    extra = [(side, "M", "foot", "0503")]
    assert "no line of sight" in _problem(mw, "A", 3, extra=extra)


def test_line_crossing_a_corner_of_a_blocking_hex_is_blocked(mw):
    """MISSILE FIRE: "crosses any part of a hex": a clipped hex counts (0101 to 0504)."""
    crossed = [
        h.label
        for step in Hex.from_label("0101").hexes_crossed_to(Hex.from_label("0504"))
        for h in step
    ]
    middle = crossed[1:-1]
    assert middle
    for label in middle:
        game = mw.started_game(
            [("red", "R", "bowA", "0101"), ("blue", "T", "foot", "0504")], hexes={"forest": [label]}
        )
        assert (
            game.ruleset.line_of_sight(game.state, Hex.from_label("0101"), Hex.from_label("0504"))
            is False
        )


def _issue_los(mw, firer, target, blockers, option=None, units=()):
    game = mw.started_game(
        [("red", "R", "bowA", firer), ("blue", "T", "foot", target), *units],
        hexes={"forest": list(blockers)},
        options={"los_along_edge": option} if option else None,
    )
    return game.ruleset.line_of_sight(game.state, Hex.from_label(firer), Hex.from_label(target))


def test_line_along_a_hexside_is_blocked_by_a_blocker_on_one_side(mw):
    """MISSILE FIRE, ruling 6 (default "either"): 0305 to 0505 runs exactly along the
    hexside 0404/0405, so it crosses part of both; forest in 0404 alone blocks it."""
    assert _issue_los(mw, "0305", "0505", []) is True
    assert _issue_los(mw, "0305", "0505", ["0404"]) is False
    assert _issue_los(mw, "0305", "0505", ["0405"]) is False
    assert _issue_los(mw, "0305", "0505", ["0404"], option="both") is True


def test_line_through_hex_corners_is_blocked_by_the_hexes_it_touches(mw):
    """MISSILE FIRE, ruling 6: 0205 to 0707 (range 5) goes from 0306 into 0406 through
    a corner of 0405, and from 0506 into 0606 through a corner of 0507. A corner is
    part of the hex, so under the default "either" each touched forest blocks; under
    "both" the line may pass on the other side of each corner, so one alone does not,
    but the two (one on each side of the line) do."""
    firer, target = "0205", "0707"
    assert Hex.from_label(firer).distance(Hex.from_label(target)) == 5
    assert _issue_los(mw, firer, target, []) is True
    assert _issue_los(mw, firer, target, ["0405", "0507"]) is False
    assert _issue_los(mw, firer, target, ["0405"]) is False
    assert _issue_los(mw, firer, target, ["0507"]) is False
    assert _issue_los(mw, firer, target, ["0405"], option="both") is True
    assert _issue_los(mw, firer, target, ["0507"], option="both") is True
    assert _issue_los(mw, firer, target, ["0405", "0507"], option="both") is False
    # A unit standing in a touched hex blocks the same way (All units block).
    assert _issue_los(mw, firer, target, [], units=[("red", "M", "foot", "0405")]) is False


def test_a_shot_through_a_forest_corner_is_not_offered(mw):
    """MISSILE FIRE: code A reaches range 5 (needs 6); with forest touching the line at
    a corner the shot 0205 -> 0707 is refused, so red's fire phase passes by itself."""
    game = mw.started_game(
        [("red", "R", "bowA", "0205"), ("blue", "T", "foot", "0707")],
        hexes={"forest": ["0405"]},
    )
    state = game.state
    problem = game.ruleset.fire_problem(state, state.units["R"], state.units["T"])
    assert problem is not None and "no line of sight" in problem
    assert state.phase_name != "missile_a"
    clear = mw.started_game([("red", "R", "bowA", "0205"), ("blue", "T", "foot", "0707")])
    assert [str(a) for a in clear.legal_actions("red")] == ["fire R T", "end"]


def test_each_unit_fires_once_per_turn(mw):
    """MISSILE FIRE / INITIATIVE: a unit that fired carries a marker until the next initiative."""
    game = mw.started_game(
        [("red", "R", "bowA", "0501"), ("red", "S", "bowA", "0601"), ("blue", "T", "foot", "0503")],
        dice=[2],
    )
    game.apply("fire R T", "red")
    assert game.state.units["R"].fired is True
    with pytest.raises(IllegalAction, match="already fired"):
        game.apply("fire R T", "red")
    assert "fire S T" in [str(a) for a in game.legal_actions("red")]  # any or all may fire


def test_only_units_with_a_missile_code_may_fire(mw):
    """MISSILE FIRE (and UNITS): only units with a letter after their CS fire."""
    game = mw.started_game(
        [("red", "R", "bowA", "0501"), ("red", "F", "foot", "0601"), ("blue", "T", "foot", "0503")]
    )
    with pytest.raises(IllegalAction, match="no missile weapon"):
        game.apply("fire F T", "red")


def test_fire_happens_only_in_the_sides_own_missile_phase(mw):
    """MISSILE FIRE / SEQUENCE: player B may not fire in Player A Missile Fire, and no
    one fires during Movement/Combat."""
    game = mw.started_game(
        [("red", "R", "bowA", "0501"), ("blue", "T", "bowA", "0503")], dice=[1, 1]
    )
    with pytest.raises(NotYourDecision):
        game.apply("fire T R", "blue")
    game.apply("end", "red")
    assert game.state.phase_name == "missile_b"
    with pytest.raises(NotYourDecision):
        game.apply("fire R T", "red")
    game.apply("end", "blue")
    with pytest.raises(IllegalAction, match="move a unit or end"):
        game.apply("fire T R", "blue")


def test_fire_at_a_friendly_unit_is_refused(mw):
    """MISSILE FIRE: fire is an attack on an opposing unit."""
    game = mw.started_game(
        [("red", "R", "bowA", "0501"), ("red", "F", "foot", "0601"), ("blue", "T", "foot", "0503")]
    )
    with pytest.raises(IllegalAction, match="your own unit"):
        game.apply("fire R F", "red")


def test_a_hedgerow_on_the_firers_own_hexside_blocks_the_line(mw):
    """MISSILE FIRE with THE MAP (hedgerow blocks sight), a ruling: the firer's own
    blocking terrain has no effect, but a hedgerow is on a hexside, between the
    firer and the target, not the firer's terrain; so it blocks."""
    game = mw.started_game(
        [("red", "X", "bowA", "0505"), ("blue", "Y", "foot", "0502")],
        hexsides={"hedgerow": ["0505/0504"]},
    )
    a, b = Hex.from_label("0505"), Hex.from_label("0502")
    assert game.ruleset.line_of_sight(game.state, a, b) is False
