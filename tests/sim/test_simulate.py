"""Batch play: reproducible by seed whatever the workers, with replayable records."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import pytest

from warbench.bots import make_bot
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.replay import replay_record
from warbench.core.saves import read_record
from warbench.errors import WarbenchError
from warbench.sim import SimResult, game_seed, play_game, simulate
from warbench.sim.runner import YOUNG_COLLECTIONS, play_on

BRIDGE = "miniwars/bridge"
BOTS = {"guards": "greedy", "vanguard": "random"}


def _comparable(result: SimResult) -> dict[str, Any]:
    data = result.to_json()
    for timing in ("seconds", "games_per_second"):
        data.pop(timing)
    return data


def test_the_same_seed_gives_the_same_results_with_one_worker_or_two() -> None:
    one = simulate(BRIDGE, games=6, bots=BOTS, seed=17, workers=1)
    two = simulate(BRIDGE, games=6, bots=BOTS, seed=17, workers=2)
    assert _comparable(one) == _comparable(two)
    assert sum(one.wins.values()) + one.draws == 6


def test_the_same_seed_gives_the_same_results_run_after_run() -> None:
    first = simulate(BRIDGE, games=4, bots={}, seed=3)
    assert _comparable(first) == _comparable(simulate(BRIDGE, games=4, bots={}, seed=3))


def test_game_seeds_are_stable_and_distinct() -> None:
    seeds = [game_seed(5, i) for i in range(100)]
    assert seeds == [game_seed(5, i) for i in range(100)]
    assert len(set(seeds)) == 100
    assert all(0 <= s < 2**63 for s in seeds)
    assert game_seed(5, 0) != game_seed(6, 0)
    assert game_seed(5, 0, "bot") != game_seed(5, 0)


def test_play_game_plays_to_the_end_with_random_for_sides_not_named() -> None:
    game = play_game(load_scenario(BRIDGE), seed=1, bots={"guards": "greedy"})
    assert game.is_over
    assert game.outcome is not None


def test_record_dir_gets_one_replayable_record_per_game(tmp_path: Path) -> None:
    games = 3
    result = simulate(BRIDGE, games=games, bots=BOTS, seed=8, record_dir=tmp_path)
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == [f"game-{i:05d}.json" for i in range(games)]
    winners: dict[str | None, int] = {}
    for index, path in enumerate(files):
        record = read_record(path)
        assert record["seed"] == game_seed(8, index)
        assert record["bots"] == BOTS
        replayed = replay_record(record, str(path))
        assert replayed.digest() == record["digest"]
        assert replayed.is_over
        assert replayed.outcome is not None
        assert replayed.outcome.to_json() == record["outcome"]
        winner = replayed.outcome.winner
        winners[winner] = winners.get(winner, 0) + 1
    assert winners.pop(None, 0) == result.draws
    assert winners == {side: n for side, n in result.wins.items() if n}


def test_the_json_summary_has_the_documented_keys() -> None:
    result = simulate(BRIDGE, games=2, bots={}, seed=1)
    data = result.to_json()
    assert {
        "scenario",
        "games",
        "seed",
        "wins",
        "draws",
        "mean_turns",
        "games_per_second",
    } <= set(data)
    assert data["scenario"] == BRIDGE
    assert data["games"] == 2
    assert data["seed"] == 1
    assert set(data["wins"]) == {"guards", "vanguard"}
    assert sum(data["wins"].values()) + data["draws"] == 2
    assert 1 <= data["mean_turns"] <= 8
    assert data["games_per_second"] > 0
    assert data["bots"] == {"guards": "random", "vanguard": "random"}
    json.dumps(data)


def test_progress_is_reported_after_every_game() -> None:
    seen: list[int] = []
    simulate(BRIDGE, games=3, bots={}, seed=1, progress=seen.append)
    assert seen == [1, 2, 3]


def test_an_unknown_side_is_refused_listing_the_sides() -> None:
    with pytest.raises(WarbenchError, match="no side pirates in miniwars/bridge") as caught:
        simulate(BRIDGE, games=1, bots={"pirates": "random"})
    assert "guards" in str(caught.value) and "vanguard" in str(caught.value)


def test_an_unknown_bot_is_refused_listing_the_bots() -> None:
    listed = "unknown bot 'genius'; bots: easy, normal, hard, random"
    with pytest.raises(WarbenchError, match=listed):
        simulate(BRIDGE, games=1, bots={"guards": "genius"})


@pytest.mark.parametrize(
    ("games", "workers", "problem"),
    [(0, 1, "at least one game"), (-1, 1, "at least one game"), (1, 0, "1 to 256 workers")],
)
def test_a_batch_needs_a_game_and_a_worker(games: int, workers: int, problem: str) -> None:
    with pytest.raises(WarbenchError, match=problem):
        simulate(BRIDGE, games=games, bots={}, workers=workers)


def test_an_unknown_scenario_is_refused() -> None:
    with pytest.raises(WarbenchError, match="no scenario"):
        simulate("miniwars/atlantis", games=1, bots={})


@pytest.mark.parametrize("scenario", [BRIDGE, "veg/crater-field"])
def test_records_do_not_change_the_results(scenario: str, tmp_path: Path) -> None:
    """With --record-dir the games are the same as without (played fast, then replayed)."""
    sides = load_scenario(scenario).sides
    bots = {sides[0]: "greedy", sides[1]: "random"}
    plain = simulate(scenario, games=6, bots=bots, seed=4)
    recorded = simulate(scenario, games=6, bots=bots, seed=4, record_dir=tmp_path)
    assert _comparable(plain) == _comparable(recorded)
    assert len(list(tmp_path.iterdir())) == 6


def test_an_error_in_a_worker_process_reaches_the_caller_as_itself(
    duel: Any, tmp_path: Path
) -> None:
    """Errors are pickled back from the workers (IllegalAction has two arguments)."""
    path = tmp_path / "faulty.toml"
    path.write_text('ruleset = "test-duel"\nsides = ["ann", "bob"]\nfaulty = true\n', "utf-8")
    with pytest.raises(WarbenchError) as one:
        simulate(str(path), games=2, bots={}, seed=3, workers=1)
    with pytest.raises(WarbenchError) as two:
        simulate(str(path), games=2, bots={}, seed=3, workers=2)
    assert type(one.value) is type(two.value) and str(one.value) == str(two.value)


def test_too_many_games_for_one_run_are_refused_before_anything_is_built() -> None:
    with pytest.raises(WarbenchError, match="at most 1,000,000 games"):
        simulate(BRIDGE, games=10**9, bots={})


def test_bots_play_with_young_collections_less_often_and_the_setting_is_put_back() -> None:
    seen: list[int] = []

    class Watching:
        def __init__(self, seed: int) -> None:
            self.bot = make_bot("random", seed)

        def choose(self, seat: Any, side: str) -> Any:
            seen.append(gc.get_threshold()[0])
            return self.bot.choose(seat, side)

    scenario = load_scenario("vsgmr/street")
    before = gc.get_threshold()
    players: Any = {side: Watching(i) for i, side in enumerate(scenario.sides)}
    game = play_on(Game(scenario, 3), players)
    assert game.is_over
    assert seen and set(seen) == {max(before[0], YOUNG_COLLECTIONS)}
    assert gc.get_threshold() == before
