"""Balance runs (issue 14): paired seeds with the bots trading seats, the same report on any
number of workers, intervals that hold their rates, precision-driven stopping, and a clear
error for bad input."""

from __future__ import annotations

from typing import Any

import pytest

from warbench.core import registry
from warbench.core.loader import load_scenario
from warbench.core.outcome import DECIDED_BY
from warbench.errors import WarbenchError
from warbench.sim.balance import balance, seatings
from warbench.sim.runner import game_seed
from warbench.sim.stats import share, spread, wilson


def _without_time(report: Any) -> dict[str, Any]:
    data = report.to_json()
    data.pop("seconds")
    return data


def test_every_seed_is_played_in_both_seatings_with_the_bots_swapped() -> None:
    report = balance("miniwars/bridge", ["greedy", "random"], pairs=6, seed=4)
    assert report.games == 12 and report.pairs == 6
    by_pair: dict[int, list[Any]] = {}
    for d in report.details:
        by_pair.setdefault(d.pair, []).append(d)
    for pair, games in by_pair.items():
        assert [g.seating for g in games] == [0, 1]
        assert {g.seed for g in games} == {game_seed(4, pair)}
        first, second = games
        assert first.bots == {"guards": "greedy", "vanguard": "random"}
        assert second.bots == {"guards": "random", "vanguard": "greedy"}
    # Each bot played every game once, on either side.
    assert {b: s.trials for b, s in report.by_bot.items()} == {"greedy": 12, "random": 12}
    assert report.by_bot["greedy"].count > report.by_bot["random"].count


def test_the_same_seed_gives_the_same_report_on_any_number_of_workers() -> None:
    one = balance("miniwars/bridge", ["greedy", "random"], pairs=5, seed=9, workers=1)
    two = balance("miniwars/bridge", ["greedy", "random"], pairs=5, seed=9, workers=2)
    assert _without_time(one) == _without_time(two)


def test_the_report_adds_up_and_every_interval_holds_its_rate() -> None:
    report = balance("vsgmr/street", ["greedy"], pairs=4, seed=2)
    data = report.to_json()
    wins = sum(s["count"] for s in data["wins_by_side"].values())
    assert wins + data["draws"]["count"] == data["games"] == 4
    assert sum(data["reasons"].values()) == 4
    for s in [*data["wins_by_side"].values(), data["draws"]]:
        assert s["low"] <= s["rate"] <= s["high"] and s["trials"] == 4
    turns = data["turns"]
    assert turns["min"] <= turns["p50"] <= turns["max"]
    # Table games are played through the engine: the standing by turn and the side
    # named to act first come from the ruleset's hooks.
    assert data["first_player"] is not None and data["first_player"]["trials"] == 4
    by_turn = data["score_by_turn"]
    assert by_turn[0]["games"] == 4 and set(by_turn[0]["mean"]) == {"red", "blue"}
    assert [t["games"] for t in by_turn] == sorted((t["games"] for t in by_turn), reverse=True)


def test_three_sides_three_bots_every_rotation() -> None:
    assert seatings(["r", "b", "g"], ["x", "y", "z"]) == [
        {"r": "x", "b": "y", "g": "z"},
        {"r": "y", "b": "z", "g": "x"},
        {"r": "z", "b": "x", "g": "y"},
    ]
    with pytest.raises(WarbenchError, match="one per side"):
        seatings(["r", "b", "g"], ["x", "y"])


def test_precision_plays_until_every_interval_is_narrow_enough() -> None:
    report = balance("miniwars/bridge", ["greedy"], precision=0.12, max_games=400, seed=1)
    assert report.widest <= 0.12
    assert report.games < 400
    capped = balance("miniwars/bridge", ["greedy"], precision=0.01, max_games=24, seed=1)
    assert capped.games == 24 and capped.widest > 0.01


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"bots": ["nosuch"]}, "unknown bot"),
        ({"bots": ["greedy"], "precision": 0.7}, "half-width"),
        ({"bots": ["greedy"], "workers": 0}, "workers"),
        ({"bots": ["greedy", "random", "mcts"]}, "one per side"),
    ],
)
def test_bad_input_is_one_clear_error(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(WarbenchError, match=words):
        balance("miniwars/bridge", pairs=1, **kwargs)


def test_wilson_and_spread() -> None:
    low, high = wilson(50, 100)
    assert low < 0.5 < high and abs((0.5 - low) - (high - 0.5)) < 1e-12
    assert share(0, 10).low == 0.0 and share(10, 10).high == 1.0
    s = spread([1.0, 2.0, 3.0, 4.0, 5.0])
    assert (s["min"], s["p50"], s["max"], s["mean"]) == (1.0, 3.0, 5.0, 3.0)


@pytest.mark.parametrize(
    "scenario_id",
    [
        "miniwars/bridge",
        "cgme/skirmish",
        "veg/tank-battle",
        "vsgmr/street",
        "mgv/clear",
        "invisible-enemy/company",
    ],
)
def test_removals_are_credited_to_pieces_and_counted_by_type(scenario_id: str) -> None:
    """Every ruleset names the piece a removal is credited to (``credit`` in its
    removed/destroyed/defeated events); a balance run counts them per unit type."""
    report = balance(scenario_id, ["greedy"], pairs=3, seed=5)
    kills = [k for d in report.details for k in d.kills]
    assert kills, "three greedy games and no removal credited to a piece"
    for d in report.details:
        ids = {pid for pid, _, _, _ in d.pieces}
        assert all(by in ids and victim in ids for by, victim in d.kills)
        lost = {pid for pid, _, _, alive in d.pieces if not alive}
        assert {victim for _, victim in d.kills} <= lost
    kinds = report.by_kind
    pieces = len(report.details[0].pieces)
    assert sum(k.fielded for k in kinds.values()) == pieces * report.games
    assert sum(k.kills for k in kinds.values()) == len(kills)
    for k in kinds.values():
        assert k.survived.low <= k.survived.rate <= k.survived.high
        assert k.value_per_cost >= 0.0
    assert set(report.to_json()["unit_types"]) == set(kinds)
    # Every removal (credited or not) is counted once, by the cause its event names, in
    # the ruleset's own words; every game was decided in one of the shared kinds.
    known = set(registry.get(load_scenario(scenario_id).ruleset).kill_causes)
    removals = [cause for d in report.details for _, cause in d.removals]
    assert report.removals == len(removals) == sum(s.count for s in report.causes.values())
    assert set(removals) <= known, f"causes outside the ruleset's words: {set(removals) - known}"
    for d in report.details:
        removed = [victim for victim, _ in d.removals]
        assert len(removed) == len(set(removed))
        assert {victim for _, victim in d.kills} <= set(removed)
    assert list(report.decided_by) == list(DECIDED_BY)
    assert sum(s.count for s in report.decided_by.values()) == report.games
    assert {d.decided_by for d in report.details} <= set(DECIDED_BY)


@pytest.mark.parametrize(
    ("scenario_id", "tallies"),
    [
        ("mgv/clear", {"hits scored", "hits lost", "hits on wrecks"}),
        (
            "invisible-enemy/company",
            {
                "california: turns without action points",
                "australia: turns without action points",
                "a base contaminated (1 = yes: the mean is the share of games)",
                "lanes cleared or ploughed by engineers",
            },
        ),
    ],
)
def test_kill_causes_decisions_and_tallies_in_the_report(
    scenario_id: str, tallies: set[str]
) -> None:
    """Issue 25: the shares of removals by cause add up to every removal, the decided-by
    counts to the games, and the ruleset's tallies come per game with their mean."""
    report = balance(scenario_id, ["greedy"], pairs=2, seed=3)
    data = report.to_json()
    by_cause = data["removals_by_cause"]
    assert data["removals"] > 0
    assert sum(s["count"] for s in by_cause.values()) == data["removals"]
    assert abs(sum(s["rate"] for s in by_cause.values()) - 1.0) < 1e-9
    known = set(registry.get(load_scenario(scenario_id).ruleset).kill_causes)
    assert set(by_cause) <= known
    assert sum(s["count"] for s in data["decided_by"].values()) == data["games"] == 2
    assert set(data["tallies"]) == tallies
    for name, t in data["tallies"].items():
        values = [d.tallies[name] for d in report.details]
        assert t["mean"] == pytest.approx(sum(values) / len(values))
        assert t["min"] <= t["mean"] <= t["max"]
    if scenario_id == "mgv/clear":
        assert 0 <= data["tallies"]["hits lost"]["mean"] <= data["tallies"]["hits scored"]["mean"]
