"""Unit values from play: randomised mirrored battles and a logistic model of who wins.

A calibration plays a ruleset's arena (``Ruleset.arena``, or any two-sided
scenario with as many pieces a side): every battle puts a random unit type
(``Ruleset.unit_kinds``) in each of the arena's slots, or leaves a slot empty
(so force sizes vary and a unit's absolute worth shows), and is played twice
on the same dice seed with the two forces trading sides. The result of each
game (a win 1, a draw 1/2, a loss 0 for the first side) is fitted by a
logistic model on the difference in each type's count between the sides, with
an intercept for the side played (:func:`warbench.sim.stats.fit_logistic`).
A type's coefficient is its worth in log-odds of winning; scaled so that the
worths of all fielded types add up to their printed costs, it reads as points.
Intervals come from a bootstrap over the battles (both games of a battle
resampled together). The same seed gives the same values whatever the number
of workers or the backend.

:func:`fairness` answers "which side should get how many more points": a
balance run of a scenario gives its first side's score, whose log-odds over
the points-per-log-odds of the calibration is the points it is ahead; a few
substitutions of unit types (chosen on the fitted values) close the gap, and a
balance run of the adjusted scenario checks the result.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from warbench.bots import check_bot, make_bot
from warbench.core import registry
from warbench.core.loader import load_scenario
from warbench.core.ruleset import Ruleset, UnitKind
from warbench.errors import ScenarioError, WarbenchError
from warbench.scenario.model import Scenario
from warbench.sim.backends import check_backend, run_jobs
from warbench.sim.balance import BalanceReport, Running, balance
from warbench.sim.runner import MAX_WORKERS, bot_seeds, game_seed, play_game
from warbench.sim.stats import fit_logistic, logit, percentile, wilson

EMPTY_SHARE = 0.25
"""The chance a slot is left empty in a calibration battle (force sizes vary)."""
BOOTSTRAP = 200
"""Resamples of the battles behind each interval."""
MAX_CALIBRATION_PAIRS = 50_000
"""Battles in one calibration (each kept in memory)."""

Forces = dict[str, tuple[str | None, ...]]
"""Each side's unit type key per slot (None: the slot is empty)."""


@dataclass(frozen=True, slots=True)
class Arena:
    """A two-sided scenario read for calibration: its slots and the types they may take."""

    scenario: Scenario
    slots: dict[str, tuple[str, ...]]
    """Each side's piece ids, in file order."""
    kinds: dict[str, dict[str, UnitKind]]
    """The unit types each side may field, by key."""
    allowed: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    """The types each slot may take (the scenario still valid with it there), per side
    and slot; filled by :func:`check_slots` (every type until then)."""

    def slot_kinds(self, side: str, index: int) -> tuple[str, ...]:
        if side in self.allowed:
            return self.allowed[side][index]
        return tuple(sorted(self.kinds[side]))

    @property
    def mirrored(self) -> bool:
        """Whether the forces can trade sides (as many slots and the same types)."""
        a, b = self.scenario.sides
        return len(self.slots[a]) == len(self.slots[b]) and set(self.kinds[a]) == set(self.kinds[b])


def read_arena(scenario: Scenario) -> Arena:
    """The arena's slots and unit types; a clear error where it cannot be one."""
    ruleset: Ruleset[Any] = registry.get(scenario.ruleset)
    if len(scenario.sides) != 2:
        raise WarbenchError(
            f"{scenario.id} has {len(scenario.sides)} sides; a calibration plays two"
        )
    pieces = ruleset.pieces(ruleset.initial_state(scenario))
    kinds = {side: ruleset.unit_kinds(scenario, side) for side in scenario.sides}
    if pieces is None or any(k is None for k in kinds.values()):
        raise WarbenchError(f"{ruleset.info.name} cannot recast its forces for a calibration")
    slots = {side: tuple(p.id for p in pieces if p.side == side) for side in scenario.sides}
    for side, ids in slots.items():
        if not ids:
            raise WarbenchError(f"{scenario.id}: side {side} has no pieces to recast")
    return Arena(
        scenario,
        slots,
        {side: {k.key: k for k in found or ()} for side, found in kinds.items()},
    )


def check_slots(arena: Arena) -> Arena:
    """The arena with the types each slot may hold: those the scenario accepts there
    (a V.E.G. truck only on a road); where the forces trade sides, the types both
    sides' slot of that number accept."""
    ruleset = registry.get(arena.scenario.ruleset)
    allowed: dict[str, list[tuple[str, ...]]] = {}
    for side, slots in arena.slots.items():
        allowed[side] = []
        for slot in slots:
            fits = []
            for key in sorted(arena.kinds[side]):
                try:
                    ruleset.recast(arena.scenario, {slot: key})
                except (ScenarioError, WarbenchError):
                    continue
                fits.append(key)
            allowed[side].append(tuple(fits))
    if arena.mirrored:
        a, b = arena.scenario.sides
        both = [tuple(k for k in x if k in y) for x, y in zip(allowed[a], allowed[b], strict=True)]
        allowed = {a: list(both), b: list(both)}
    for side, per_slot in allowed.items():
        if not any(per_slot):
            raise WarbenchError(f"{arena.scenario.id}: no unit type fits a slot of {side}")
    return replace(arena, allowed={side: tuple(v) for side, v in allowed.items()})


def draw_forces(arena: Arena, rng: random.Random) -> tuple[Forces, Forces | None]:
    """A battle: random forces for the first seating and, if the arena is mirrored,
    the same forces traded between the sides for the second."""
    a, b = arena.scenario.sides

    def one(side: str) -> tuple[str | None, ...]:
        while True:
            force = tuple(
                None if rng.random() < EMPTY_SHARE or not keys else rng.choice(keys)
                for keys in (arena.slot_kinds(side, i) for i in range(len(arena.slots[side])))
            )
            if any(k is not None for k in force):
                return force

    first = {a: one(a), b: one(b)}
    if not arena.mirrored:
        return first, None
    return first, {a: first[b], b: first[a]}


def _valid_forces(
    arena: Arena, ruleset: Ruleset[Any], rng: random.Random, tries: int = 100
) -> tuple[Forces, Forces | None]:
    """Forces drawn until the arena accepts them together (bases of other sizes may
    overlap a neighbour, a wing may not mix classes): a scenario error in a battle
    is the draw's, not the game's."""
    for _ in range(tries):
        first, second = draw_forces(arena, rng)
        try:
            for forces in (first, second):
                if forces is not None:
                    ruleset.recast(arena.scenario, changes_for(arena, forces))
        except (ScenarioError, WarbenchError):
            continue
        return first, second
    raise WarbenchError(
        f"{arena.scenario.id}: {tries} random forces in a row were not valid scenarios"
    )


def changes_for(arena: Arena, forces: Forces) -> dict[str, str | None]:
    """The recast that puts ``forces`` in the arena's slots."""
    return {
        slot: key
        for side, keys in forces.items()
        for slot, key in zip(arena.slots[side], keys, strict=True)
    }


@dataclass(frozen=True, slots=True)
class Battle:
    """One calibration game."""

    pair: int
    seating: int
    seed: int
    forces: Forces
    winner: str | None


_worker_arenas: dict[str, Arena] = {}


def _arena(ref: str) -> Arena:
    arena = _worker_arenas.get(ref)
    if arena is None:
        arena = _worker_arenas[ref] = read_arena(load_scenario(ref))
    return arena


def play_winner(scenario: Scenario, seed: int, bots: Mapping[str, str]) -> str | None:
    """The winner of one game with these bots (the ruleset's playout where it has one)."""
    ruleset = registry.get(scenario.ruleset)
    fast = ruleset.playout(scenario, seed, bots, bot_seeds(scenario, seed))
    if fast is not None:
        return fast.winner
    outcome = play_game(scenario, seed, bots).outcome
    return outcome.winner if outcome else None


def _play_battle(job: tuple[str, int, int, int, Forces, str]) -> Battle:
    ref, master, pair, seating, forces, bot = job
    arena = _arena(ref)
    ruleset = registry.get(arena.scenario.ruleset)
    scenario = ruleset.recast(arena.scenario, changes_for(arena, forces))
    seed = game_seed(master, pair, "calibrate")
    winner = play_winner(scenario, seed, dict.fromkeys(scenario.sides, bot))
    return Battle(pair, seating, seed, forces, winner)


@dataclass(frozen=True, slots=True)
class KindValue:
    """What a calibration found one unit type worth."""

    key: str
    name: str
    cost: float
    """Its printed (or stand-in) points."""
    fielded: int
    """Times it stood in a slot, over every game."""
    worth: float
    """Log-odds of winning one more of it brings (the model's coefficient)."""
    points: float
    """The worth in points (scaled so all fielded types add up to their printed costs)."""
    low: float
    high: float
    """The 95% bootstrap interval of ``points``."""

    @property
    def disagrees(self) -> bool:
        """Whether the printed cost lies outside the interval."""
        return not self.low <= self.cost <= self.high

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "printed": self.cost,
            "fielded": self.fielded,
            "log_odds": self.worth,
            "points": self.points,
            "low": self.low,
            "high": self.high,
            "printed_outside_interval": self.disagrees,
        }


@dataclass(slots=True)
class Calibration:
    """The values a calibration fitted, with what it played."""

    ruleset: str
    arena: str
    bot: str
    seed: int
    games: int
    pairs: int
    seconds: float
    kinds: list[KindValue]
    points_per_log_odds: float
    """Points that move the log-odds of winning by one, near an even fight."""
    side_advantage: float
    """The first side's log-odds of winning with equal forces (the model's intercept)."""
    spearman: float | None
    """Rank correlation of the fitted values with the printed costs (None under 3 types)."""
    dropped: int = 0
    """Bootstrap resamples whose worths did not add up to a positive total (left out)."""
    battles: list[Battle] = field(default_factory=list, repr=False)

    def value(self, key: str) -> float | None:
        """A type's fitted points, None if it was not fielded."""
        return next((k.points for k in self.kinds if k.key == key), None)

    def disagreements(self, count: int = 3) -> list[KindValue]:
        """The types whose printed cost lies furthest outside their interval."""

        def distance(k: KindValue) -> float:
            return max(k.low - k.cost, k.cost - k.high, 0.0) / max(k.cost, 1.0)

        return sorted((k for k in self.kinds if k.disagrees), key=distance, reverse=True)[:count]

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "arena": self.arena,
            "bot": self.bot,
            "seed": self.seed,
            "games": self.games,
            "pairs": self.pairs,
            "seconds": self.seconds,
            "points_per_log_odds": self.points_per_log_odds,
            "side_advantage_log_odds": self.side_advantage,
            "spearman": self.spearman,
            "bootstrap_dropped": self.dropped,
            "unit_types": [k.to_json() for k in self.kinds],
            "disagree_most": [k.key for k in self.disagreements()],
        }


def _design(
    arena: Arena, battles: Sequence[Battle], keys: Sequence[str]
) -> tuple[list[list[float]], list[float]]:
    a, b = arena.scenario.sides
    index = {k: i + 1 for i, k in enumerate(keys)}
    rows: list[list[float]] = []
    outcomes: list[float] = []
    for battle in battles:
        row = [1.0] + [0.0] * len(keys)
        for side, sign in ((a, 1.0), (b, -1.0)):
            for key in battle.forces[side]:
                if key is not None:
                    row[index[key]] += sign
        rows.append(row)
        outcomes.append(0.5 if battle.winner is None else float(battle.winner == a))
    return rows, outcomes


def _scaled(beta: Sequence[float], costs: Sequence[float]) -> tuple[list[float], float] | None:
    """The worths in points and the points per log-odds, None when they add up to
    nothing positive (the battles did not tell the types apart)."""
    total = sum(beta[1:])
    if total <= 1e-9:
        return None
    scale = sum(costs) / total
    return [w * scale for w in beta[1:]], scale


def fit(
    arena: Arena,
    battles: Sequence[Battle],
    bot: str,
    seed: int,
    seconds: float,
) -> Calibration:
    """Fit the values of a calibration's battles (in any order)."""
    from scipy.stats import spearmanr

    battles = sorted(battles, key=lambda x: (x.pair, x.seating))
    fielded: dict[str, int] = {}
    for battle in battles:
        for force in battle.forces.values():
            for key in force:
                if key is not None:
                    fielded[key] = fielded.get(key, 0) + 1
    every = {k: v for side in arena.scenario.sides for k, v in arena.kinds[side].items()}
    keys = [k for k in sorted(every) if fielded.get(k)]
    costs = [every[k].cost for k in keys]
    rows, outcomes = _design(arena, battles, keys)
    beta = fit_logistic(rows, outcomes)
    scaled = _scaled(beta, costs)
    if scaled is None:
        raise WarbenchError(
            f"{len(battles)} games did not tell the unit types apart (their worths add up to "
            "nothing): play more pairs, or a bot that plays its units (greedy)"
        )
    points, scale = scaled
    pairs = sorted({x.pair for x in battles})
    by_pair: dict[int, list[int]] = {}
    for i, battle in enumerate(battles):
        by_pair.setdefault(battle.pair, []).append(i)
    rng = random.Random(game_seed(seed, 0, "bootstrap"))
    samples: list[list[float]] = []
    dropped = 0
    for _ in range(BOOTSTRAP):
        chosen = [i for _ in pairs for i in by_pair[rng.choice(pairs)]]
        again = _scaled(
            fit_logistic([rows[i] for i in chosen], [outcomes[i] for i in chosen]), costs
        )
        if again is None:
            dropped += 1
        else:
            samples.append(again[0])
    kinds = []
    for j, key in enumerate(keys):
        values = sorted(s[j] for s in samples)
        low, high = _interval(values) if values else (-math.inf, math.inf)
        kinds.append(
            KindValue(
                key,
                every[key].name,
                every[key].cost,
                fielded[key],
                beta[j + 1],
                points[j],
                low,
                high,
            )
        )
    kinds.sort(key=lambda k: -k.points)
    rho: float | None = None
    if len(keys) >= 3 and len(set(costs)) > 1:
        rho = float(spearmanr(costs, points).statistic)
    return Calibration(
        ruleset=arena.scenario.ruleset,
        arena=arena.scenario.id,
        bot=bot,
        seed=seed,
        games=len(battles),
        pairs=len(pairs),
        seconds=seconds,
        kinds=kinds,
        points_per_log_odds=scale,
        side_advantage=beta[0],
        spearman=rho,
        dropped=dropped,
        battles=list(battles),
    )


def _interval(values: Sequence[float]) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of ``values``."""
    return percentile(values, 2.5), percentile(values, 97.5)


def calibrate(
    ruleset_name: str,
    arena_ref: str | None = None,
    bot: str = "greedy",
    pairs: int = 200,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Calibration:
    """Play ``pairs`` randomised battles (twice each where the arena is mirrored) in
    ``arena_ref`` (the ruleset's own arena by default) and fit the unit values."""
    ruleset = registry.get(ruleset_name)
    if not 1 <= workers <= MAX_WORKERS:
        raise WarbenchError(f"calibrate takes 1 to {MAX_WORKERS} workers, not {workers}")
    if not 1 <= pairs <= MAX_CALIBRATION_PAIRS:
        raise WarbenchError(f"calibrate plays 1 to {MAX_CALIBRATION_PAIRS:,} pairs, not {pairs:,}")
    check_backend(backend, address)
    ref = arena_ref or ruleset.arena
    if ref is None:
        raise WarbenchError(f"{ruleset.info.name} has no calibration arena; give one (--arena)")
    scenario = load_scenario(ref)
    if registry.get(scenario.ruleset) is not ruleset:
        raise WarbenchError(
            f"{scenario.id} is a {scenario.ruleset} scenario, not {ruleset.info.name}"
        )
    arena = check_slots(read_arena(scenario))
    _worker_arenas[ref] = arena
    make_bot(bot, 0)
    check_bot(bot, ruleset.info)
    rng = random.Random(game_seed(seed, 0, "forces"))
    jobs: list[tuple[str, int, int, int, Forces, str]] = []
    for pair in range(pairs):
        first, second = _valid_forces(arena, ruleset, rng)
        jobs.append((ref, seed, pair, 0, first, bot))
        if second is not None:
            jobs.append((ref, seed, pair, 1, second, bot))
    started = time.perf_counter()
    battles: list[Battle] = []
    for battle in run_jobs(_play_battle, jobs, len(jobs), workers, backend, address):
        battles.append(battle)
        if progress is not None:
            progress(len(battles), len(jobs))
    return fit(arena, battles, bot, seed, time.perf_counter() - started)


# -- fairness ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    """One substitution of a fairness adjustment."""

    piece: str
    side: str
    before: str
    after: str | None
    """The new type's key, None where the piece is taken out."""
    points: float
    """What it moves the first side's points by (fitted values; printed for unfitted types)."""


@dataclass(frozen=True, slots=True)
class Round:
    """One balance run of a fairness search and the changes it led to."""

    played: str
    """The scenario played: the original, then the adjusted file."""
    report: BalanceReport
    score: tuple[float, float, float]
    """The first side's score (a win 1, a draw 1/2) with its 95% interval."""
    ahead: float
    """Points the first side is ahead, estimated from the score (0 when even)."""
    changes: tuple[Change, ...]
    """The substitutions made after this run (none after the last)."""

    @property
    def even(self) -> bool:
        return self.score[1] <= 0.5 <= self.score[2]


@dataclass(slots=True)
class Fairness:
    """How far a scenario is from even, and adjustments checked by play."""

    scenario: str
    sides: tuple[str, str]
    rounds: list[Round]
    written: Path | None
    """The adjusted scenario (None when nothing was changed)."""

    @property
    def changes(self) -> list[Change]:
        return [c for r in self.rounds for c in r.changes]

    def to_json(self) -> dict[str, Any]:
        first, _ = self.sides
        return {
            "scenario": self.scenario,
            "first_side": first,
            "rounds": [
                {
                    "played": r.played,
                    "games": r.report.games,
                    "score": _score_json(r.score),
                    "even": r.even,
                    "points_ahead": r.ahead,
                    "changes": [
                        {
                            "piece": c.piece,
                            "side": c.side,
                            "from": c.before,
                            "to": c.after,
                            "points": c.points,
                        }
                        for c in r.changes
                    ],
                    "report": r.report.to_json(),
                }
                for r in self.rounds
            ],
            "adjusted_scenario": None if self.written is None else str(self.written),
        }


def _score_json(score: tuple[float, float, float]) -> dict[str, float]:
    return {"rate": score[0], "low": score[1], "high": score[2]}


def first_score(report: BalanceReport) -> tuple[float, float, float]:
    """The first side's score (wins plus half the draws, per game) with a 95% interval
    (Wilson's, on the half-counted draws)."""
    first = report.sides[0]
    games = report.games
    points = report.by_side[first].count + report.draws.count / 2
    if not games:
        return 0.5, 0.0, 1.0
    low, high = wilson(points, games)
    return points / games, low, high


def _piece_value(calibration: Calibration, kind: UnitKind) -> float:
    fitted = calibration.value(kind.key)
    return kind.cost if fitted is None else fitted


def plan_changes(
    scenario: Scenario,
    calibration: Calibration,
    ahead: float,
    most: int = 3,
    made: Mapping[str, str | None] | None = None,
) -> list[Change]:
    """Up to ``most`` substitutions, on top of ``made`` (earlier ones, kept), that bring
    the first side's lead in points (on the fitted values; printed costs for types the
    calibration did not field) closest to nothing. A piece may become another type its
    side already fields, or (on the side ahead) be taken out; each change is kept only
    if it moves at least a quarter of the cheapest type's cost, brings the lead closer
    to nothing and leaves a valid scenario."""
    ruleset = registry.get(scenario.ruleset)
    made = dict(made or {})
    current_scenario = ruleset.recast(scenario, made) if made else scenario
    pieces = ruleset.pieces(ruleset.initial_state(current_scenario)) or []
    first = scenario.sides[0]
    catalogue = {
        side: {k.key: k for k in ruleset.unit_kinds(scenario, side) or ()}
        for side in scenario.sides
    }
    key_of: dict[str, str] = {}
    for p in pieces:
        match = next((k for k in catalogue[p.side].values() if k.name == p.kind), None)
        if match is not None:
            key_of[p.id] = match.key
    fielded = {
        side: [catalogue[side][key_of[p.id]] for p in pieces if p.side == side and p.id in key_of]
        for side in scenario.sides
    }
    own = {side: list({k.key: k for k in kinds}.values()) for side, kinds in fielded.items()}
    costs = [k.cost for kinds in catalogue.values() for k in kinds.values() if k.cost > 0]
    least = 0.25 * min(costs, default=1.0)  # a change must move at least this much
    changes: list[Change] = []
    gap = ahead
    for _ in range(most):
        best: tuple[float, Change] | None = None
        for p in pieces:
            if p.id in made or p.id not in key_of:
                continue
            current = catalogue[p.side][key_of[p.id]]
            sign = 1.0 if p.side == first else -1.0
            options: list[UnitKind | None] = list(own[p.side])
            if sign * gap > 0:
                options.append(None)
            for option in options:
                if option is not None and option.key == current.key:
                    continue
                new_value = 0.0 if option is None else _piece_value(calibration, option)
                delta = sign * (new_value - _piece_value(calibration, current))
                left = abs(gap + delta)
                if abs(delta) < least or left >= abs(gap) - 1e-9:
                    continue
                if best is None or left < best[0]:
                    change = Change(
                        p.id, p.side, current.key, option.key if option else None, delta
                    )
                    best = (left, change)
        if best is None:
            break
        trial = {**made, best[1].piece: best[1].after}
        try:
            ruleset.recast(scenario, trial)
        except (ScenarioError, WarbenchError):
            key_of.pop(best[1].piece)
            continue
        made = trial
        changes.append(best[1])
        gap += best[1].points
    return changes


def _nearest_even(score: tuple[float, float, float]) -> float:
    """The end of the score's interval nearest an even 1/2 (the cautious estimate)."""
    rate, low, high = score
    return low if rate > 0.5 else high


def fairness(
    scenario_ref: str,
    calibration: Calibration,
    out: Path,
    bot: str = "greedy",
    pairs: int = 100,
    seed: int = 0,
    workers: int = 1,
    most: int = 3,
    rounds: int = 3,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[Running], None] | None = None,
) -> Fairness:
    """Balance ``scenario_ref``; while its first side's score is uneven (0.5 outside the
    interval), turn the score into points ahead (the log-odds of the interval's end
    nearest 1/2, times the points per log-odds: the calibration's at first, then the
    scenario's own as measured by the last round's changes), make up to ``most``
    substitutions, write the adjusted scenario to ``out`` and balance it again, for
    at most ``rounds`` rounds of changes."""
    import tomli_w

    scenario = load_scenario(scenario_ref)
    if scenario.ruleset != calibration.ruleset:
        raise WarbenchError(
            f"{scenario.id} is a {scenario.ruleset} scenario; "
            f"the values are {calibration.ruleset}'s"
        )
    if len(scenario.sides) != 2:
        raise WarbenchError(f"{scenario.id} has {len(scenario.sides)} sides; fairness weighs two")
    if out.exists():
        raise WarbenchError(f"{out} exists: give a new file for the adjusted scenario (--out)")
    ruleset = registry.get(scenario.ruleset)
    slope = calibration.points_per_log_odds
    made: dict[str, str | None] = {}
    done: list[Round] = []
    played = scenario_ref
    written: Path | None = None
    previous: tuple[float, float] | None = None  # (log-odds, points changed since)
    for number in range(rounds + 1):
        report = balance(
            played, [bot], pairs, seed, workers, progress=progress, backend=backend, address=address
        )
        score = first_score(report)
        if score[1] <= 0.5 <= score[2]:
            done.append(Round(played, report, score, 0.0, ()))
            break
        odds = logit(_nearest_even(score))
        if previous is not None:
            moved = odds - previous[0]
            if moved * previous[1] > 0 and abs(moved) > 0.05:
                slope = previous[1] / moved  # the scenario's own points per log-odds
        ahead = odds * slope
        changes = [] if number == rounds else plan_changes(scenario, calibration, ahead, most, made)
        done.append(Round(played, report, score, ahead, tuple(changes)))
        if not changes:
            break
        made.update({c.piece: c.after for c in changes})
        adjusted = ruleset.recast(scenario, made)
        lines = [f"# {scenario.id}, adjusted for fairness by warbench calibrate:"]
        for r in done:
            for c in r.changes:
                lines.append(f"#   {c.piece} ({c.side}): {c.before} -> {c.after or 'taken out'}")
        out.write_text("\n".join(lines) + "\n" + tomli_w.dumps(dict(adjusted.raw)), "utf-8")
        written = out
        played = str(out)
        previous = (odds, sum(c.points for c in changes))
    a, b = scenario.sides
    return Fairness(scenario.id, (a, b), done, written)
