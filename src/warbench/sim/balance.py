"""Balance runs: paired seeds with the bots trading seats, and statistics you can trust.

Every dice seed is played once per seating: with bots ``A, B`` on a two-sided
scenario, game ``(pair, 0)`` seats ``A`` on the first side and ``B`` on the
second, game ``(pair, 1)`` the other way round, on the same seed (the bots'
own seeds follow the side). With one bot there is one seating; with as many
bots as sides, every rotation of them. So a side's luck with the dice is
shared by both bots, and a bot's result is not its seat's.

Each game is played through the engine (or the ruleset's playout, replayed
for its turns), keeping the winner, how it ended, its length, the side that
had the initiative first (``Ruleset.initiative``), each side's standing at the
end of every turn (``Ruleset.standing``), what settled it (``Outcome.decided_by``),
every piece's removal with its cause (the events' generic ``cause``) and the
ruleset's own tallies of the game (``Ruleset.tallies``). :func:`summarise` turns
them into the report: win rates with Wilson 95% intervals, by side and by bot,
draws, the first player's share, length percentiles, reasons and what decided
the games, the mean standing by turn, lead changes and comebacks, removals by
cause and the tallies per game. :func:`balance` plays pairs
until every interval is as narrow as asked (``precision``) or the games run
out, and the same seed gives the same report whatever the number of workers.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from warbench.bots import check_bot, make_bot
from warbench.core import registry
from warbench.core.events import Event
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.outcome import DECIDED_BY
from warbench.core.ruleset import CAUSE, KILLER
from warbench.errors import WarbenchError
from warbench.scenario.model import Scenario
from warbench.sim.backends import check_backend, run_jobs
from warbench.sim.runner import MAX_ACTIONS, MAX_WORKERS, bot_seeds, game_seed
from warbench.sim.stats import Share, share, spread

MAX_BALANCE_GAMES = 200_000
"""Games in one balance run (each keeps its standings by turn in memory)."""
BATCH_PAIRS = 8
"""Pairs of seeds played between two looks at the intervals under ``precision``."""
UNSTATED = "unstated"
"""The cause counted for a removal event that names none (a ruleset to fix)."""
UNFINISHED = "unfinished"


@dataclass(frozen=True, slots=True)
class GameDetail:
    """What a balance run keeps of one game."""

    pair: int
    seating: int
    seed: int
    bots: dict[str, str]
    """The bot of each side in this game."""
    winner: str | None
    reason: str
    decided_by: str
    """What settled the game (:data:`~warbench.core.outcome.DecidedBy`)."""
    turns: int
    actions: int
    first: str | None
    """The side that had the initiative first (None where the ruleset has none)."""
    standings: tuple[dict[str, float], ...]
    """Each side's standing at the end of each turn (the last: at the game's end)."""
    pieces: tuple[tuple[str, str, float, bool], ...] = ()
    """Each piece's id, type, cost and whether it was still its side's at the end."""
    kills: tuple[tuple[str, str], ...] = ()
    """(credited piece, removed piece) of every removal the rules credited to a piece."""
    removals: tuple[tuple[str, str], ...] = ()
    """(removed piece, cause) of every piece taken out of its side's hands, credited or
    not, in order (a piece counts once: the first removal event naming it)."""
    tallies: dict[str, float] = field(default_factory=dict)
    """The ruleset's own counts of the game (``Ruleset.tallies``)."""


def seatings(sides: Sequence[str], bots: Sequence[str]) -> list[dict[str, str]]:
    """The seatings a seed is played with: one bot everywhere, or every rotation of as
    many bots as sides.

    >>> seatings(["a", "b"], ["greedy", "mcts"])
    [{'a': 'greedy', 'b': 'mcts'}, {'a': 'mcts', 'b': 'greedy'}]
    >>> seatings(["a", "b", "c"], ["random"])
    [{'a': 'random', 'b': 'random', 'c': 'random'}]
    """
    if len(bots) == 1:
        return [dict.fromkeys(sides, bots[0])]
    if len(bots) != len(sides):
        raise WarbenchError(
            f"give one bot, or one per side ({len(sides)}: {', '.join(sides)}), not {len(bots)}"
        )
    n = len(bots)
    return [{side: bots[(i + k) % n] for i, side in enumerate(sides)} for k in range(n)]


def play_detail(scenario: Scenario, seed: int, bots: Mapping[str, str]) -> GameDetail:
    """One game to the end with these bots, and what a balance run keeps of it."""
    ruleset = registry.get(scenario.ruleset)
    seeds = bot_seeds(scenario, seed)
    fast = ruleset.playout(scenario, seed, bots, seeds)
    game = Game(scenario, seed)
    if fast is not None:
        choices: Iterator[tuple[str, Any]] = iter(fast.actions)
        players = None
    else:
        choices = iter(())
        players = {side: make_bot(bots[side], s) for side, s in seeds.items()}
    standings: list[dict[str, float]] = []
    at_start = {p.id: p for p in ruleset.pieces(game.state) or ()}
    first: str | None = ruleset.initiative(game.state)
    turn = game.turn
    for _ in range(MAX_ACTIONS):
        waiting = game.waiting_for()
        if not waiting:
            break
        if players is None:
            side, action = next(choices)
        else:
            side = waiting[0]
            action = players[side].choose(game.seat(side), side)
        game.apply(action, side)
        if first is None:
            first = ruleset.initiative(game.state)
        if game.turn != turn:
            standings.append(dict(ruleset.standing(game.state) or {}))
            turn = game.turn
    else:
        raise WarbenchError(f"game with seed {seed} did not end within {MAX_ACTIONS} actions")
    at_end = {p.id: p.alive for p in ruleset.pieces(game.state) or ()}
    final = dict(ruleset.standing(game.state) or {})
    if not standings or standings[-1] != final:
        standings.append(final)
    outcome = game.outcome
    kills, removals = _removals(game.events, ruleset.removal_kinds, set(at_start))
    return GameDetail(
        pair=-1,
        seating=-1,
        seed=seed,
        bots=dict(bots),
        winner=outcome.winner if outcome else None,
        reason=outcome.reason if outcome else UNFINISHED,
        decided_by=outcome.decided_by if outcome else UNFINISHED,
        turns=game.turn,
        actions=len(game.actions),
        first=first,
        standings=tuple(standings),
        pieces=tuple((p.id, p.kind, p.cost, at_end.get(p.id, False)) for p in at_start.values()),
        kills=kills,
        removals=removals,
        tallies=dict(ruleset.tallies(scenario, game.events)),
    )


def _removals(
    events: Sequence[Event], kinds: frozenset[str], pieces: set[str]
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The credited kills (credited, removed) and every removal (removed, cause) of a
    game's events: the first event of one of ``kinds`` naming a piece (under ``unit``,
    ``base`` or ``figure``) removes it; its :data:`KILLER` and :data:`CAUSE` say by whom
    and how."""
    kills: list[tuple[str, str]] = []
    removals: list[tuple[str, str]] = []
    gone: set[str] = set()
    for event in events:
        if event.kind not in kinds:
            continue
        data = event.data
        victim = next((data[k] for k in ("unit", "base", "figure") if k in data), None)
        if not isinstance(victim, str) or victim not in pieces or victim in gone:
            continue
        gone.add(victim)
        cause = data.get(CAUSE)
        removals.append((victim, cause if isinstance(cause, str) and cause else UNSTATED))
        credit = data.get(KILLER)
        if isinstance(credit, str) and credit in pieces:
            kills.append((credit, victim))
    return tuple(kills), tuple(removals)


@dataclass(slots=True)
class Running:
    """The running estimate a progress bar shows: games played of those planned (at most,
    under ``precision``), and the wins so far."""

    games: int
    planned: int
    wins: dict[str, int]
    draws: int

    def add(self, detail: GameDetail) -> None:
        self.games += 1
        if detail.winner is None:
            self.draws += 1
        else:
            self.wins[detail.winner] = self.wins.get(detail.winner, 0) + 1

    def text(self) -> str:
        """``red 52.0% ±4.1, blue ..., draws ...`` (the Wilson half-widths)."""
        parts = []
        for name, count in [*self.wins.items(), ("draws", self.draws)]:
            s = share(count, self.games)
            parts.append(f"{name} {100 * s.rate:.1f}% ±{100 * s.half_width:.1f}")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class KindStats:
    """How one unit type did over a balance run."""

    fielded: int
    """Pieces of the type over all games (a piece a game)."""
    survived: Share
    kills: int
    """Removals the rules credited to pieces of the type."""
    cost: float
    """Their points over all games."""
    destroyed: float
    """The points of the pieces they removed."""

    @property
    def kills_per_piece(self) -> float:
        return self.kills / self.fielded if self.fielded else 0.0

    @property
    def value_per_cost(self) -> float:
        """Points removed per point fielded (0 when the type costs nothing)."""
        return self.destroyed / self.cost if self.cost else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "fielded": self.fielded,
            "survived": self.survived.to_json(),
            "kills": self.kills,
            "kills_per_piece": self.kills_per_piece,
            "cost": self.cost,
            "value_destroyed": self.destroyed,
            "value_destroyed_per_cost": self.value_per_cost,
        }


def _kinds(details: Sequence[GameDetail]) -> dict[str, KindStats]:
    """Per unit type: pieces fielded and surviving, kills and points removed by them."""
    fielded: dict[str, int] = {}
    alive: dict[str, int] = {}
    kills: dict[str, int] = {}
    cost: dict[str, float] = {}
    destroyed: dict[str, float] = {}
    for d in details:
        kind_of = {pid: (kind, price) for pid, kind, price, _ in d.pieces}
        for _, kind, price, left in d.pieces:
            fielded[kind] = fielded.get(kind, 0) + 1
            alive[kind] = alive.get(kind, 0) + left
            cost[kind] = cost.get(kind, 0.0) + price
        for credited, victim in d.kills:
            kind = kind_of[credited][0]
            kills[kind] = kills.get(kind, 0) + 1
            destroyed[kind] = destroyed.get(kind, 0.0) + kind_of[victim][1]
    return {
        kind: KindStats(
            fielded[kind],
            share(alive[kind], fielded[kind]),
            kills.get(kind, 0),
            cost[kind],
            destroyed.get(kind, 0.0),
        )
        for kind in sorted(fielded)
    }


@dataclass(slots=True)
class BalanceReport:
    """The statistics of a balance run (see the module docstring)."""

    scenario: str
    sides: tuple[str, ...]
    bots: tuple[str, ...]
    seed: int
    games: int
    pairs: int
    seconds: float
    by_side: dict[str, Share]
    draws: Share
    by_bot: dict[str, Share]
    """Each bot's wins over the games it played (every seat; empty with one bot)."""
    first_player: Share | None
    """Games won by the side that had the initiative first, of the games one was known."""
    turns: dict[str, float]
    actions: dict[str, float]
    reasons: dict[str, int]
    score_by_turn: list[dict[str, float]]
    """Mean standing of each side at the end of each turn, over the games that got there."""
    reached: list[int]
    """How many games got to the end of each turn."""
    lead_changes: float
    """Mean times per game the side ahead on standing changed from one turn to the next."""
    comebacks: Share | None
    """Decided games won by a side that was behind on standing at half time."""
    by_kind: dict[str, KindStats] = field(default_factory=dict)
    """Per unit type (as the scenario names it), over every game."""
    decided_by: dict[str, Share] = field(default_factory=dict)
    """Games by what settled them: every kind of :data:`DECIDED_BY`, in that order."""
    removals: int = 0
    """Pieces taken out of their side's hands, over every game."""
    causes: dict[str, Share] = field(default_factory=dict)
    """Removals by cause (of all removals), the commonest first."""
    tallies: dict[str, dict[str, float]] = field(default_factory=dict)
    """Each of the ruleset's tallies per game: least, percentiles, most and mean."""
    precision: float | None = None
    details: list[GameDetail] = field(default_factory=list, repr=False)

    @property
    def widest(self) -> float:
        """The widest half-interval of the side and draw shares (what precision bounds)."""
        return max([s.half_width for s in self.by_side.values()] + [self.draws.half_width])

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "sides": list(self.sides),
            "bots": list(self.bots),
            "seed": self.seed,
            "games": self.games,
            "pairs": self.pairs,
            "seconds": self.seconds,
            "precision": self.precision,
            "widest_half_interval": self.widest,
            "wins_by_side": {side: s.to_json() for side, s in self.by_side.items()},
            "draws": self.draws.to_json(),
            "wins_by_bot": {bot: s.to_json() for bot, s in self.by_bot.items()},
            "first_player": None if self.first_player is None else self.first_player.to_json(),
            "turns": dict(self.turns),
            "actions": dict(self.actions),
            "reasons": dict(self.reasons),
            "score_by_turn": [
                {"turn": t + 1, "games": n, "mean": dict(m)}
                for t, (m, n) in enumerate(zip(self.score_by_turn, self.reached, strict=True))
            ],
            "lead_changes": self.lead_changes,
            "comebacks": None if self.comebacks is None else self.comebacks.to_json(),
            "unit_types": {kind: k.to_json() for kind, k in self.by_kind.items()},
            "decided_by": {kind: s.to_json() for kind, s in self.decided_by.items()},
            "removals": self.removals,
            "removals_by_cause": {cause: s.to_json() for cause, s in self.causes.items()},
            "tallies": {name: dict(t) for name, t in self.tallies.items()},
        }


def _leader(standing: Mapping[str, float]) -> str | None:
    """The side with the highest standing, None on a tie at the top."""
    if not standing:
        return None
    top = max(standing.values())
    ahead = [s for s, v in standing.items() if v >= top - 1e-9]
    return ahead[0] if len(ahead) == 1 else None


def summarise(
    scenario: str,
    sides: Sequence[str],
    bots: Sequence[str],
    seed: int,
    details: Sequence[GameDetail],
    seconds: float,
    precision: float | None = None,
) -> BalanceReport:
    """The report of a balance run from its games (in any order: they are taken in
    seed and seating order, so the sums do not depend on which worker ended first)."""
    details = sorted(details, key=lambda d: (d.pair, d.seating))
    games = len(details)
    wins = dict.fromkeys(sides, 0)
    draws = 0
    reasons: dict[str, int] = {}
    decided: dict[str, int] = dict.fromkeys(DECIDED_BY, 0)
    causes: dict[str, int] = {}
    tallies: dict[str, list[float]] = {}
    bot_wins: dict[str, int] = {}
    bot_games: dict[str, int] = {}
    first_known = first_won = 0
    totals: list[dict[str, float]] = []
    reached: list[int] = []
    changes = 0
    behind = decided_halves = 0
    for d in details:
        if d.winner is None:
            draws += 1
        else:
            wins[d.winner] = wins.get(d.winner, 0) + 1
        reasons[d.reason] = reasons.get(d.reason, 0) + 1
        decided[d.decided_by] = decided.get(d.decided_by, 0) + 1
        for _, cause in d.removals:
            causes[cause] = causes.get(cause, 0) + 1
        for name, value in d.tallies.items():
            tallies.setdefault(name, []).append(value)
        for side, bot in d.bots.items():
            bot_games[bot] = bot_games.get(bot, 0) + 1
            if d.winner == side:
                bot_wins[bot] = bot_wins.get(bot, 0) + 1
        if d.first is not None:
            first_known += 1
            first_won += d.winner == d.first
        for t, standing in enumerate(d.standings):
            if t == len(totals):
                totals.append(dict.fromkeys(sides, 0.0))
                reached.append(0)
            reached[t] += 1
            for side in sides:
                totals[t][side] += standing.get(side, 0.0)
        leaders = [_leader(s) for s in d.standings]
        known = [x for x in leaders if x is not None]
        changes += sum(1 for a, b in itertools.pairwise(known) if a != b)
        if d.winner is not None and len(d.standings) >= 2:
            half = d.standings[(len(d.standings) - 1) // 2]
            decided_halves += 1
            top = max(half.values(), default=0.0)
            behind += half.get(d.winner, 0.0) < top - 1e-9
    distinct = list(dict.fromkeys(bots))
    return BalanceReport(
        scenario=scenario,
        sides=tuple(sides),
        bots=tuple(bots),
        seed=seed,
        games=games,
        pairs=len({d.pair for d in details}),
        seconds=seconds,
        by_side={side: share(wins.get(side, 0), games) for side in sides},
        draws=share(draws, games),
        by_bot=(
            {b: share(bot_wins.get(b, 0), bot_games.get(b, 0)) for b in distinct}
            if len(distinct) > 1
            else {}
        ),
        first_player=share(first_won, first_known) if first_known else None,
        turns=spread([float(d.turns) for d in details]),
        actions=spread([float(d.actions) for d in details]),
        reasons=dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        score_by_turn=[
            {s: v / n for s, v in t.items()} for t, n in zip(totals, reached, strict=True)
        ],
        reached=reached,
        lead_changes=changes / games if games else 0.0,
        comebacks=share(behind, decided_halves) if decided_halves else None,
        by_kind=_kinds(details),
        decided_by={kind: share(n, games) for kind, n in decided.items()},
        removals=sum(causes.values()),
        causes={
            cause: share(n, sum(causes.values()))
            for cause, n in sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))
        },
        tallies={name: spread(values) for name, values in tallies.items()},
        precision=precision,
        details=list(details),
    )


_worker_scenarios: dict[str, Scenario] = {}


def _play_job(job: tuple[str, int, int, int, dict[str, str]]) -> GameDetail:
    ref, master, pair, seating, bots = job
    scenario = _worker_scenarios.get(ref)
    if scenario is None:
        scenario = _worker_scenarios[ref] = load_scenario(ref)
    seed = game_seed(master, pair)
    return replace(play_detail(scenario, seed, bots), pair=pair, seating=seating)


def balance(
    scenario_ref: str,
    bots: Sequence[str],
    pairs: int = 100,
    seed: int = 0,
    workers: int = 1,
    precision: float | None = None,
    max_games: int = 10_000,
    progress: Callable[[Running], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> BalanceReport:
    """Play ``pairs`` seeds in every seating (or, with ``precision``, until every
    share's half-interval is at most that, up to ``max_games``) and report."""
    if not 1 <= workers <= MAX_WORKERS:
        raise WarbenchError(f"balance takes 1 to {MAX_WORKERS} workers, not {workers}")
    if pairs < 1:
        raise WarbenchError("balance needs at least one pair of games")
    if precision is not None and not 0.0 < precision < 0.5:
        raise WarbenchError(f"--precision is a half-width between 0 and 0.5, not {precision:g}")
    if not 1 <= max_games <= MAX_BALANCE_GAMES:
        raise WarbenchError(f"balance plays 1 to {MAX_BALANCE_GAMES:,} games, not {max_games:,}")
    if not bots:
        raise WarbenchError("name at least one bot")
    check_backend(backend, address)
    scenario = load_scenario(scenario_ref)
    _worker_scenarios[scenario_ref] = scenario
    info = registry.get(scenario.ruleset).info
    for name in dict.fromkeys(bots):
        make_bot(name, 0)  # an unknown bot or a bad option fails here, before any game
        check_bot(name, info)
    seats = seatings(scenario.sides, bots)
    details: list[GameDetail] = []
    started = time.perf_counter()
    planned_games = len(seats) * pairs if precision is None else max_games
    running = Running(0, planned_games, dict.fromkeys(scenario.sides, 0), 0)

    def report() -> BalanceReport:
        return summarise(
            scenario.id,
            scenario.sides,
            bots,
            seed,
            details,
            time.perf_counter() - started,
            precision,
        )

    def jobs(first: int, count: int) -> list[tuple[str, int, int, int, dict[str, str]]]:
        return [
            (scenario_ref, seed, pair, k, seating)
            for pair in range(first, first + count)
            for k, seating in enumerate(seats)
        ]

    if precision is None:
        planned: Iterable[list[tuple[str, int, int, int, dict[str, str]]]] = [jobs(0, pairs)]
    else:
        planned = _batches(jobs, len(seats), max_games)
    for batch in planned:
        for detail in run_jobs(_play_job, batch, len(batch), workers, backend, address):
            details.append(detail)
            running.add(detail)
            if progress is not None:
                progress(running)
        if precision is not None and report().widest <= precision:
            break
    return report()


def _batches(
    jobs: Callable[[int, int], list[tuple[str, int, int, int, dict[str, str]]]],
    per_pair: int,
    max_games: int,
) -> Iterator[list[tuple[str, int, int, int, dict[str, str]]]]:
    """Batches of :data:`BATCH_PAIRS` pairs until ``max_games`` games are planned."""
    first = 0
    while first * per_pair < max_games:
        count = min(BATCH_PAIRS, (max_games - first * per_pair) // per_pair or 1)
        yield jobs(first, count)
        first += count
