"""MORALE: leaders rally disrupted units in the Morale phase.

Red is player A. Its leader L stands at 0501; the unit U to rally at 0503
(distance 2) unless told otherwise. Blue's unit waits far away.
"""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction


def _rally_game(mw, roll=None, unit="foot", at="0503", leader="chief", disrupted=("U",), extra=()):
    units = [
        ("red", "L", leader, "0501"),
        ("red", "U", unit, at),
        ("blue", "E", "foot", "1010"),
        *extra,
    ]
    # After the last rally possible the next turn's initiative is rolled: 6 and 1.
    game = mw.started_game(units, dice=([] if roll is None else [roll]) + [6, 1])
    mw.disrupt(game, *disrupted)
    mw.skip_to(game, "morale")
    return game


def _rally(mw, roll, leader_id="L", unit_id="U", **kw):
    game = _rally_game(mw, roll, **kw)
    game.apply(f"rally {leader_id} {unit_id}", "red")
    return game, mw.last(game, "rally").data


@pytest.mark.parametrize(("roll", "ok"), [(2, False), (3, True), (6, True)])
def test_rally_succeeds_when_the_roll_exceeds_the_distance(mw, roll, ok):
    """MORALE: one die; success if the result is greater than the leader-unit distance."""
    game, rally = _rally(mw, roll)
    assert rally["distance"] == 2
    assert rally["success"] is ok
    assert game.state.units["U"].disrupted is not ok


def test_a_rallied_unit_returns_to_normal_status(mw):
    """MORALE: when a unit is rallied it goes from disrupted to normal."""
    game, _ = _rally(mw, 5)
    assert game.state.units["U"].disrupted is False
    assert mw.where(game, "U") == "0503"


@pytest.mark.parametrize(
    ("unit", "roll", "ok"), [("plus", 2, True), ("minus", 3, False), ("minus", 4, True)]
)
def test_unit_morale_modifies_the_rally_roll(mw, unit, roll, ok):
    """MORALE: a "+" unit adds 1 to the rally roll, a "-" unit subtracts 1."""
    _, rally = _rally(mw, roll, unit=unit)
    assert rally["success"] is ok


def test_a_rally_roll_of_one_always_fails(mw):
    """MORALE: regardless of modifiers a 1 fails ("+" unit adjacent: 1 + 1 > 1 still fails)."""
    game, rally = _rally(mw, 1, unit="plus", at="0502")
    assert rally["distance"] == 1
    assert rally["success"] is False
    assert game.state.units["U"].disrupted is True


def test_rally_has_no_range_limit_beyond_the_roll(mw):
    """MORALE: only the roll limits the distance: a "+" unit 6 hexes off rallies on a 6."""
    _, rally = _rally(mw, 6, unit="plus", at="0507")
    assert rally["distance"] == 6
    assert rally["success"] is True


def test_each_leader_may_attempt_one_rally_per_morale_phase(mw):
    """MORALE: a leader gets one rally attempt, on one unit."""
    extra = [("red", "V", "foot", "0601"), ("red", "K", "chief", "0701")]
    game = _rally_game(mw, 2, extra=extra, disrupted=("U", "V"))
    game.apply("rally L U", "red")
    assert game.waiting_for() == ("red",)  # K may still rally
    with pytest.raises(IllegalAction, match="already tried a rally"):
        game.apply("rally L V", "red")


def test_only_leaders_may_rally(mw):
    """MORALE (and UNITS, "!" marks a leader): an ordinary unit cannot rally."""
    game = _rally_game(mw, extra=[("red", "F", "foot", "0601")])
    with pytest.raises(IllegalAction, match="not a leader"):
        game.apply("rally F U", "red")


def test_only_disrupted_units_may_be_rallied(mw):
    """MORALE: rallying turns a disrupted unit normal; a normal one needs none."""
    game = _rally_game(mw, extra=[("red", "F", "foot", "0601")])
    with pytest.raises(IllegalAction, match="not disrupted"):
        game.apply("rally L F", "red")


def test_disrupted_leader_may_not_rally_other_units(mw):
    """MORALE: a disrupted leader cannot rally anyone but itself."""
    game = _rally_game(mw, disrupted=("L", "U"))
    assert [str(a) for a in game.legal_actions("red")] == ["rally L L", "end"]
    with pytest.raises(IllegalAction, match="may only rally itself"):
        game.apply("rally L U", "red")


@pytest.mark.parametrize(("roll", "ok"), [(1, False), (2, True), (6, True)])
def test_disrupted_leader_rallies_itself_on_any_roll_but_one(mw, roll, ok):
    """MORALE: a disrupted leader may rally itself on any roll other than a 1."""
    game, rally = _rally(mw, roll, "L", "L", disrupted=("L",))
    assert rally["success"] is ok
    assert game.state.units["L"].disrupted is not ok


def test_leader_rallying_another_leader_adds_one(mw):
    """MORALE: a leader rallying another leader adds 1 (a 2 then beats distance 2)."""
    game, rally = _rally(mw, 2, unit="chief")
    assert rally["success"] is True
    assert "leader rallying a leader" in mw.last(game, "rally").text


def test_rally_only_in_the_morale_phase(mw):
    """MORALE / SEQUENCE: rallies happen in the Morale phase only."""
    game = mw.started_game(
        [("red", "L", "chief", "0501"), ("red", "U", "foot", "0503"), ("blue", "E", "foot", "1010")]
    )
    mw.disrupt(game, "U")
    mw.skip_to(game, "move_a")
    with pytest.raises(IllegalAction, match="move a unit or end"):
        game.apply("rally L U", "red")


def test_player_a_rallies_before_player_b(mw):
    """MORALE (ruling): in the Morale phase player A's leaders go first, then B's."""
    units = [
        ("red", "L", "chief", "0501"),
        ("red", "U", "foot", "0503"),
        ("blue", "K", "chief", "1001"),
        ("blue", "V", "foot", "1003"),
    ]
    game = mw.started_game(units, dice=[5, 5, 6, 1], a="blue")  # blue is player A
    mw.disrupt(game, "U", "V")
    mw.skip_to(game, "morale")
    assert game.waiting_for() == ("blue",)
    assert game.legal_actions("red") == []
    game.apply("rally K V", "blue")  # K has no rally left: B's turn comes by itself
    assert game.waiting_for() == ("red",)
    game.apply("rally L U", "red")
    assert [e.data["leader"] for e in mw.events(game, "rally")] == ["K", "L"]
