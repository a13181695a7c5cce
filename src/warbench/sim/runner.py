"""Run many bot-vs-bot games and gather the results.

Game ``i`` of a run with master seed ``S`` always gets the same seed (derived
from ``S`` and ``i``), and its bots get seeds derived from that; results are
gathered in game order. So the same seed gives the same results whatever the
number of workers.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warbench.bots import Bot, check_bot, make_bot
from warbench.core import registry
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.saves import write_record
from warbench.errors import WarbenchError, excerpt
from warbench.scenario.model import Scenario
from warbench.sim.backends import check_backend, run_jobs

MAX_ACTIONS = 200_000
"""A game that runs longer than this is a ruleset bug, not a long game."""


def game_seed(master: int, index: int, salt: str = "game") -> int:
    """A 63-bit seed derived from a master seed and an index (stable across runs).

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
    True
    """
    digest = hashlib.sha256(f"{salt}:{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What a simulation keeps of one game."""

    index: int
    seed: int
    winner: str | None
    reason: str
    turns: int
    actions: int


@dataclass(slots=True)
class SimResult:
    """Statistics of a batch of games."""

    scenario: str
    games: int
    seed: int
    bots: dict[str, str]
    wins: dict[str, int]
    draws: int
    mean_turns: float
    seconds: float
    reasons: dict[str, int] = field(default_factory=dict)
    mean_actions: float = 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def win_rate(self, side: str) -> float:
        return self.wins.get(side, 0) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "games": self.games,
            "seed": self.seed,
            "bots": dict(self.bots),
            "wins": dict(self.wins),
            "draws": self.draws,
            "win_rates": {side: self.win_rate(side) for side in self.wins},
            "mean_turns": self.mean_turns,
            "mean_actions": self.mean_actions,
            "reasons": dict(self.reasons),
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
        }


def bot_seeds(scenario: Scenario, seed: int) -> dict[str, int]:
    """The seed of each side's bot in the game of seed ``seed``."""
    return {side: game_seed(seed, i, "bot") for i, side in enumerate(scenario.sides)}


def play_game(scenario: Scenario, seed: int, bots: Mapping[str, str]) -> Game:
    """Play one game to the end with the named bots (sides not named: random)."""
    game = Game(scenario, seed)
    players = {
        side: make_bot(bots.get(side, "random"), bot_seed)
        for side, bot_seed in bot_seeds(scenario, seed).items()
    }
    return play_on(game, players)


def play_on(game: Game, players: Mapping[str, Bot]) -> Game:
    """Play ``game`` on to its end, each side by its bot in ``players`` (with the garbage
    collector as :func:`collecting_for_games` sets it)."""
    with collecting_for_games():
        for _ in range(MAX_ACTIONS):
            waiting = game.waiting_for()
            if not waiting:
                return game
            side = waiting[0]
            game.apply(players[side].choose(game.seat(side), side), side)
    raise WarbenchError(
        f"a game of {game.scenario.id} (seed {game.seed}) did not end within {MAX_ACTIONS} actions"
    )


YOUNG_COLLECTIONS = 10_000
"""Allocations between two collections of the garbage collector's youngest generation
while bots play (Python's default is 700)."""


@contextlib.contextmanager
def collecting_for_games() -> Iterator[None]:
    """The garbage collector's youngest generation collected every
    :data:`YOUNG_COLLECTIONS` allocations instead of every 700, until the block ends.

    A game allocates a great many containers that live for an action or a few (moves,
    sight lines, scores) while the rulesets' per-set-up caches grow. At Python's
    default many of the short-lived ones are still alive at a young collection, are
    promoted, and bring on full collections that walk the caches again: 6% of a
    random-bot game of vsgmr/street and 11% of a greedy one of vsgmr/relic (measured
    with ``gc.callbacks``). Collected less often, most of them are gone by then.
    Nothing else changes: cycles are still collected, a little later."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], YOUNG_COLLECTIONS), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def score_for(game: Game, side: str) -> float:
    """``side``'s score of a finished game: 1 a win, 1/2 a draw (no winner), 0 a loss."""
    winner = game.outcome.winner if game.outcome is not None else None
    return 0.5 if winner is None else (1.0 if winner == side else 0.0)


_worker_scenarios: dict[str, Scenario] = {}


def _run_one(job: tuple[str, int, int, dict[str, str], str | None]) -> GameSummary:
    ref, master, index, bots, record_dir = job
    scenario = _worker_scenarios.get(ref)
    if scenario is None:
        scenario = _worker_scenarios[ref] = load_scenario(ref)
    seed = game_seed(master, index)
    # A ruleset may play the whole game at once (the same game, faster).
    ruleset = registry.get(scenario.ruleset)
    fast = ruleset.playout(scenario, seed, bots, bot_seeds(scenario, seed))
    if fast is not None and record_dir is None:
        return GameSummary(index, seed, fast.winner, fast.reason, fast.turns, len(fast.actions))
    if fast is not None:
        # A record needs the engine's events and state: replay the playout's
        # actions (no bot thinking), which also checks each one is legal.
        game = Game(scenario, seed)
        for side, action in fast.actions:
            game.apply(action, side)
    else:
        game = play_game(scenario, seed, bots)
    if record_dir is not None:
        record = game.record({"bots": {side: bots.get(side, "random") for side in scenario.sides}})
        write_record(record, Path(record_dir) / _record_name(index), new=True)
    outcome = game.outcome
    return GameSummary(
        index,
        seed,
        outcome.winner if outcome else None,
        outcome.reason if outcome else "unfinished",
        game.turn,
        len(game.actions),
    )


def simulate(
    scenario_ref: str,
    games: int,
    bots: Mapping[str, str],
    seed: int = 0,
    workers: int = 1,
    record_dir: Path | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> SimResult:
    """Play ``games`` games of a scenario and return the statistics (on ``backend``:
    see :mod:`warbench.sim.backends`)."""
    if games < 1:
        raise WarbenchError("simulate needs at least one game")
    if games > MAX_GAMES:
        raise WarbenchError(f"simulate plays at most {MAX_GAMES:,} games in one run, not {games:,}")
    if not 1 <= workers <= MAX_WORKERS:
        raise WarbenchError(f"simulate takes 1 to {MAX_WORKERS} workers, not {workers}")
    workers = min(workers, games)
    check_backend(backend, address)
    if record_dir is not None and address is not None:
        raise WarbenchError(
            "--record-dir writes each record where its game is played: on a Ray cluster "
            "that is another machine; keep records with the local backend or a local Ray"
        )
    scenario = load_scenario(scenario_ref)
    _worker_scenarios[scenario_ref] = scenario
    unknown = sorted(set(bots) - set(scenario.sides))
    if unknown:
        raise WarbenchError(
            f"no side {', '.join(unknown)} in {scenario.id}; sides: {', '.join(scenario.sides)}"
        )
    for name in set(bots.values()):
        make_bot(name, 0)  # fail early on an unknown bot name
        check_bot(name, registry.get(scenario.ruleset).info)
    assigned = {side: bots.get(side, "random") for side in scenario.sides}
    folder = str(record_dir) if record_dir is not None else None
    if record_dir is not None:
        _check_record_dir(record_dir, games)
    jobs = ((scenario_ref, seed, i, assigned, folder) for i in range(games))
    started = time.perf_counter()
    summaries: list[GameSummary] = []
    for summary in run_jobs(_run_one, jobs, games, workers, backend, address):
        summaries.append(summary)
        if progress is not None:
            progress(len(summaries))
    seconds = time.perf_counter() - started
    summaries.sort(key=lambda s: s.index)
    wins = {side: 0 for side in scenario.sides}
    reasons: dict[str, int] = {}
    draws = 0
    for s in summaries:
        if s.winner is None:
            draws += 1
        else:
            wins[s.winner] += 1
        reasons[s.reason] = reasons.get(s.reason, 0) + 1
    return SimResult(
        scenario=scenario.id,
        games=games,
        seed=seed,
        bots=assigned,
        wins=wins,
        draws=draws,
        mean_turns=sum(s.turns for s in summaries) / games,
        seconds=seconds,
        reasons=reasons,
        mean_actions=sum(s.actions for s in summaries) / games,
    )


MAX_GAMES = 1_000_000
"""Games in one run (each keeps a summary in memory); run more in several batches."""
MAX_WORKERS = 256
"""More worker processes than this is a typo, not a plan (they are forked at once)."""


def _record_name(index: int) -> str:
    return f"game-{index:05d}.json"


def _check_record_dir(folder: Path, games: int) -> None:
    """Refuse a record folder that already holds records this run would write over."""
    names = {p.name for p in folder.glob("game-*.json")} if folder.is_dir() else set()
    taken = sorted(int(n[5:-5]) for n in names if n[5:-5].isdigit() and int(n[5:-5]) < games)
    if taken:
        raise WarbenchError(
            f"{excerpt(str(folder), 200)} already holds {_record_name(taken[0])} "
            f"({len(taken)} of this run's {games} records): give an empty or new folder"
        )
