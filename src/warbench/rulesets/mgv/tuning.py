"""Check MGV's combat stand-ins (``data/combat.toml``) against the design intent of 1.5.

Run ``warbench tune mgv`` (about 3 minutes on two cores; ``warbench tune mgv --help``
for the knobs: trials, games, seed, worker processes). It prints:

1. **One attack**: for each weapon, a light, a medium and a heavy target
   (``data/vehicles.toml``: L35, K817, J90) and a few ranges, the expected hits
   of one attack and the chances of 0 and of 3 or more hits. Kinetic: the exact
   2D6 table with the close range band; photon: the exact table folded over the
   stand-in range estimate model (a player's unaided guess), so ranging errors
   and disasters count; missile: the sealed split played at equilibrium with
   every hit counting one.
2. **Whole damage** on real hit logs (``hitlog``, the 5.2 placement rules): one
   target (L35, K817, J90, K900) takes attack after attack of one weapon until
   it is destroyed or :data:`CAP` attacks are made; its owner places every
   group with ``default_placement``; its defence falls with surface damage as
   the log says; a base with B hits rolls for sudden death (1.6,
   ``combat.sudden_death``) after every attack that hit it. The attacker stands
   dead ahead (``front``), dead astern (``rear``: the rear arc, S hits count
   as P hits) or anywhere, drawn afresh for each attack (``any``: attackers
   from all round, as in a game). Missile splits of both sides are drawn from
   the equilibrium of the game whose payoff is the hits the current log can
   take (:class:`Takes`, the approach of the greedy bot's missile payoff).
   Printed: the mean circles marked by the 1st, 2nd, ... attack on a target
   still standing (front), and the attacks to immobilise (speed track gone,
   4.0) and to destroy: median [10th-90th percentile], ``>N`` past the cap.
3. **Verdicts**, one per intent line of 1.5, measured on those numbers (a few
   use one more attack on a target worn by :data:`WORN_BY` kinetic attacks
   from anywhere).
4. Unless ``--games 0``: the hits lost in greedy-vs-greedy games of the three
   scenarios (:func:`count_losses`), for the 5.2 taper question: kinetic and
   photon groups need surface hits of their own to go deeper (X+1 counts one
   group's hits), so once every surface circle facing the attacker is marked
   they place nothing.

The exit status is 1 if a verdict fails.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from warbench.bots import make_bot
from warbench.bots.matrix import MatrixSolution, draw, solve_zero_sum
from warbench.core.game import Game
from warbench.rulesets.mgv import combat, space
from warbench.rulesets.mgv.data import rules, vehicles
from warbench.rulesets.mgv.hitlog import (
    HitGroup,
    HitLog,
    HullLayout,
    Kind,
    apply_placement,
    default_placement,
    placeable,
)

Split = tuple[int, int, int]
WeaponName = Literal["kinetic", "missile", "photon"]
RANGES = (3.0, 6.0, 12.0, 24.0)
ATTACKS = (3, 4, 5)
TARGETS = {"light": "L35", "medium": "K817", "heavy": "J90", "big": "K900"}
SINGLE_SHOT = ("light", "medium", "heavy")
WHOLE_RANGES: dict[WeaponName, tuple[float, ...]] = {
    "kinetic": (3.0, 12.0),
    "missile": (12.0,),  # range plays no part in missile fire
    "photon": (6.0, 12.0, 24.0),
}
APPROACHES = ("front", "rear", "any")
CAP = 30
"""Attacks on one target at most, per trial."""
SHOWN = 6
"""Attacks whose mean marks are printed."""
WORN_BY = 6
"""Kinetic attacks (4 at 12in, from anywhere) that wear a target for the missile and photon
verdicts."""


# == 1. one attack ==========================================================================
@dataclass(frozen=True)
class Hull:
    """A target model as its hit log sees it."""

    size: str
    key: str
    title: str
    defence: int
    layout: HullLayout
    p_cost: float

    @property
    def counts(self) -> Split:
        lay = self.layout
        return (lay.surface, lay.core, lay.heart)

    def defence_now(self, log: HitLog) -> int:
        return log.defence(self.defence, vehicles().meta.surface_per_defence)

    def immobile(self, log: HitLog) -> bool:
        return log.immobile(vehicles().meta.speed, self.p_cost)


def hulls() -> dict[str, Hull]:
    models = vehicles().models
    out = {}
    for size, key in TARGETS.items():
        m = models[key]
        layout = HullLayout.of(m.hull.surface, m.hull.core, m.hull.heart)
        out[size] = Hull(size, key, m.title, m.defence, layout, m.p_cost)
    return out


@dataclass(frozen=True)
class Line:
    """One attack's hits: the expected number, the chances of none and of 3 or more."""

    expected: float
    none: float
    three_plus: float
    note: str = ""

    def cell(self) -> str:
        return f"{self.expected:4.2f} {self.none:4.2f} {self.three_plus:4.2f}"


def _line(dist: Mapping[int, float] | Mapping[int, Fraction], note: str = "") -> Line:
    expected = sum(k * float(p) for k, p in dist.items())
    three = sum(float(p) for k, p in dist.items() if k >= 3)
    return Line(expected, float(dist.get(0, 0.0)), three, note)


def kinetic_line(attack: int, target: Hull, range_: float) -> Line:
    return _line(combat.kinetic_distribution(attack, target.defence, 0, range_))


def photon_line(attack: int, range_: float) -> Line:
    shot = combat.photon_at_range(attack, range_)  # the target plays no part
    return _line(shot.hits, f"disaster {shot.disaster:.2f}")


def equilibrium_hits(att: int, dfn: int) -> dict[int, float]:
    """Total hits when both sides play the equilibrium of the every-hit-counts-one game."""
    game = combat.missile_game(att, dfn, combat.total_hits)
    out: dict[int, float] = {}
    for i, p in enumerate(game.row):
        for j, q in enumerate(game.column):
            if p * q < 1e-12:
                continue
            for hits, chance in combat.missile_distribution(
                combat.splits(att)[i], combat.splits(dfn)[j]
            ).items():
                out[sum(hits)] = out.get(sum(hits), 0.0) + p * q * float(chance)
    return out


def missile_line(attack: int, target: Hull) -> Line:
    dice = combat.missile_dice(attack), combat.block_dice(target.defence)
    return _line(equilibrium_hits(*dice))


def single_shot_table(tgt: Mapping[str, Hull]) -> None:
    print("1. One attack: expected hits, P(0), P(3+) (attacker unmodified)")
    header = "".join(f"{f'{r:g}in':>17}" for r in RANGES)
    print(f"{'weapon':8}{'att':>4} {'target':16}{header}")
    for weapon in combat.WEAPONS:
        for attack in ATTACKS:
            for size in SINGLE_SHOT:
                t = tgt[size]
                cells, notes = [], []
                for r in RANGES:
                    if weapon == "kinetic":
                        line = kinetic_line(attack, t, r)
                    elif weapon == "photon":
                        line = photon_line(attack, r)
                        notes.append(line.note.split()[-1])
                    else:
                        line = missile_line(attack, t)
                    cells.append(f"{line.cell():>17}")
                label = f"{size} {t.key} d{t.defence}"
                tail = f"  disaster {'/'.join(notes)}" if notes else ""
                print(f"{weapon:8}{attack:>4} {label:16}{''.join(cells)}{tail}")
        print()


# == 2. whole damage on hit logs ==============================================================
Roll = Callable[[str, int], tuple[int, ...]]


def roller(rng: random.Random) -> Roll:
    """A ``roll(purpose, n)`` callable over a seeded stream."""

    def roll(purpose: str, n: int) -> tuple[int, ...]:
        return tuple(rng.randint(1, 6) for _ in range(n))

    return roll


_PLAIN: dict[str, Kind] = {"s": "S", "c": "P", "h": "B"}


@dataclass(frozen=True)
class Takes:
    """Missile payoff: how many of the hits (surface, core, heart) the log can take.

    The hits a maximal placement places (5.2, rule 7: the rest are lost). Missile
    hits ignore the far side and a rear-arc S hit is still one mark, so only the
    marked circles matter: ``log`` holds them with plain kinds, and equal logs
    share one game. Hits beyond a layer's unmarked circles are lost whatever the
    placement, so a triple is capped first.
    """

    layout: HullLayout
    log: HitLog
    core_rule: Literal["a", "b"] = "a"

    @staticmethod
    def of(layout: HullLayout, log: HitLog, core_rule: Literal["a", "b"] = "a") -> Takes:
        plain = HitLog(tuple((cid, _PLAIN[cid[0]]) for cid, _ in log.marks))
        return Takes(layout, plain, core_rule)

    def __call__(self, hits: Split) -> float:
        fs, fc, fh = self.free()
        s, c, h = min(hits[0], fs), min(hits[1], fc), min(hits[2], fh)
        return s + self.interior(c, h)[s]

    def signature(self) -> tuple[Any, ...]:
        """Everything :meth:`__call__` reads: the free circles per layer and the interior
        hits for every capped core and heart count."""
        fs, fc, fh = self.free()
        return (
            fs,
            fc,
            fh,
            tuple(self.interior(c, h) for c in range(fc + 1) for h in range(fh + 1)),
        )

    def free(self) -> Split:
        lay, log = self.layout, self.log
        return (
            len(log.unmarked("surface", lay)),
            len(log.unmarked("core", lay)),
            len(log.unmarked("heart", lay)),
        )

    def interior(self, core: int, heart: int) -> tuple[int, ...]:
        """Core and heart hits placed alongside 0, 1, ... surface hits (every surface hit
        finds a circle, and more of them only open more interior circles: the count
        never falls, so equal ends fill the range between them)."""
        key = (self, core, heart)
        found = _INTERIOR.get(key)
        if found is None:
            top = self.free()[0]
            values: dict[int, int] = {}

            def at(s: int) -> int:
                if s not in values:
                    group = HitGroup.missile(s, core, heart, core_rule=self.core_rule)
                    values[s] = placeable(self.layout, self.log, group) - s
                return values[s]

            def fill(lo: int, hi: int) -> None:
                if hi - lo <= 1:
                    return
                if at(lo) == at(hi):
                    values.update(dict.fromkeys(range(lo + 1, hi), at(lo)))
                    return
                mid = (lo + hi) // 2
                at(mid)
                fill(lo, mid)
                fill(mid, hi)

            at(0)
            at(top)
            fill(0, top)
            found = _INTERIOR[key] = tuple(values[s] for s in range(top + 1))
        return found


_INTERIOR: dict[tuple[Takes, int, int], tuple[int, ...]] = {}
_GAMES: dict[Any, MatrixSolution] = {}


def missile_equilibrium(att: int, dfn: int, takes: Takes) -> MatrixSolution:
    """The split game against this log, solved once per distinct payoff function: logs
    whose :meth:`Takes.signature` agree take the same hits, so share one game."""
    key = (att, dfn, takes)
    solution = _GAMES.get(key)
    if solution is None:
        shape = (att, dfn, takes.signature())
        solution = _GAMES.get(shape)
        if solution is None:
            solution = _GAMES[shape] = solve_zero_sum(combat.missile_payoffs(att, dfn, takes))
        _GAMES[key] = solution
    return solution


@dataclass(frozen=True)
class Weapon:
    kind: WeaponName
    attack: int
    range_: float

    def label(self) -> str:
        where = "" if self.kind == "missile" else f"{self.range_:g}in"
        return f"{self.kind} {self.attack} {where}".strip()


def bearing_of(approach: str, rng: random.Random) -> tuple[float, bool]:
    """Where the attacker stands, seen from the target's front, and whether in its rear arc."""
    if approach == "front":
        return 0.0, False
    if approach == "rear":
        return 180.0, True
    bearing = rng.uniform(0.0, 360.0)
    off_front = abs((bearing + 180.0) % 360.0 - 180.0)
    return bearing, off_front >= 180.0 - rules().data.rear_arc.half_angle


def attack_group(
    weapon: Weapon,
    hull: Hull,
    log: HitLog,
    approach: str,
    rng: random.Random,
    roll: Roll,
) -> tuple[HitGroup, bool]:
    """One attack's group of hits on the target, and whether it was a photon disaster."""
    bearing, rear = bearing_of(approach, rng)
    if weapon.kind == "kinetic":
        defence = hull.defence_now(log)
        hits = combat.resolve_kinetic(weapon.attack, defence, roll, 0, weapon.range_)
        return HitGroup.direct("kinetic", hits, bearing=bearing, rear=rear), False
    if weapon.kind == "photon":
        error = abs(combat.photon_estimate(weapon.range_, rng) - weapon.range_)
        shot = combat.resolve_photon(weapon.attack, error, roll)
        return HitGroup.direct("photon", shot.hits, bearing=bearing, rear=rear), shot.disaster
    own, theirs = combat.missile_dice(weapon.attack), combat.block_dice(hull.defence_now(log))
    game = missile_equilibrium(own, theirs, Takes.of(hull.layout, log))
    split = combat.splits(own)[draw(game.row, rng)]
    block = combat.splits(theirs)[draw(game.column, rng)]
    s, c, h = combat.resolve_missile(split, block, roll)
    return HitGroup.missile(s, c, h, bearing=bearing, rear=rear), False


def nothing_placeable(weapon: Weapon, hull: Hull, log: HitLog, bearing: float | None) -> bool:
    """No kinetic or photon hit from ``bearing`` (from anywhere: None) can find a circle,
    so further attacks only roll (asked of the placement rules themselves)."""
    bearings = (bearing,) if bearing is not None else tuple(float(b) for b in range(0, 360, 15))
    kind: Literal["kinetic", "photon"] = "photon" if weapon.kind == "photon" else "kinetic"
    probe = [HitGroup.direct(kind, 1, bearing=b) for b in bearings]
    return all(placeable(hull.layout, log, group) == 0 for group in probe)


@dataclass
class Trial:
    """Repeated attacks on one target."""

    placed: list[tuple[str, ...]] = field(default_factory=list)
    """The circles each attack made marked."""
    marks: list[int] = field(default_factory=list)
    """How many circles each attack marked."""
    deep: list[int] = field(default_factory=list)
    """Of those, core and heart circles."""
    scored: list[int] = field(default_factory=list)
    """How many hits each attack scored (the rest of them were lost)."""
    disasters: int = 0
    immobile_at: int | None = None
    destroyed_at: int | None = None
    log: HitLog = field(default_factory=HitLog)


def attack_once(
    weapon: Weapon,
    hull: Hull,
    trial: Trial,
    approach: str,
    rng: random.Random,
    roll: Roll,
) -> None:
    """One more attack on the trial's target: placement, defence, sudden death (1.6)."""
    log = trial.log
    group, disaster = attack_group(weapon, hull, log, approach, rng, roll)
    circles = default_placement(hull.layout, log, group)
    log = trial.log = apply_placement(log, group, circles)
    n = len(trial.marks) + 1
    trial.placed.append(circles)
    trial.marks.append(len(circles))
    trial.deep.append(sum(1 for c in circles if c[0] != "s"))
    trial.scored.append(group.total)
    trial.disasters += disaster
    if trial.immobile_at is None and hull.immobile(log):
        trial.immobile_at = n
    if log.destroyed(hull.layout) or (
        group.total > 0 and log.b_hits > 0 and combat.sudden_death(log.b_hits, roll)
    ):
        trial.destroyed_at = n


def run_trial(
    weapon: Weapon,
    hull: Hull,
    approach: str,
    rng: random.Random,
    attacks: int = CAP,
    start: HitLog | None = None,
) -> Trial:
    roll = roller(rng)
    trial = Trial(log=start if start is not None else HitLog())
    fixed = {"front": 0.0, "rear": 180.0}.get(approach)
    for _ in range(attacks):
        attack_once(weapon, hull, trial, approach, rng, roll)
        if trial.destroyed_at is not None:
            break
        stuck = (
            weapon.kind != "missile"
            and trial.log.b_hits == 0
            and nothing_placeable(weapon, hull, trial.log, fixed)
        )
        if stuck:  # nothing can be placed from here: the further attacks only roll
            for _ in range(attacks - len(trial.marks)):
                group, disaster = attack_group(weapon, hull, trial.log, approach, rng, roll)
                trial.placed.append(())
                trial.marks.append(0)
                trial.deep.append(0)
                trial.scored.append(group.total)
                trial.disasters += disaster
            break
    return trial


@dataclass
class Run:
    weapon: Weapon
    hull: Hull
    approach: str
    trials: list[Trial]

    def by_attack(self, k: int, deep: bool = False) -> float | None:
        """Mean circles (or deep circles) the k-th attack (from 0) marks on a standing target."""
        seen = [
            (t.deep if deep else t.marks)[k]
            for t in self.trials
            if len(t.marks) > k and (t.destroyed_at is None or t.destroyed_at > k)
        ]
        return statistics.fmean(seen) if seen else None

    def first(self, n: int) -> list[int]:
        """Circles marked by the first ``n`` attacks together, per trial."""
        return [sum(t.marks[:n]) for t in self.trials]

    def to(self, what: str) -> list[float]:
        return [
            math.inf if getattr(t, what) is None else float(getattr(t, what)) for t in self.trials
        ]

    def lost_share(self, n: int = SHOWN) -> float:
        """Share of the hits of the first ``n`` attacks that found no circle."""
        scored = sum(sum(t.scored[:n]) for t in self.trials)
        lost = scored - sum(sum(t.marks[:n]) for t in self.trials)
        return lost / scored if scored else 0.0

    def disaster_rate(self) -> float:
        """Photon disasters per attack made."""
        attacks = sum(len(t.marks) for t in self.trials)
        return sum(t.disasters for t in self.trials) / attacks if attacks else 0.0


def simulate(
    weapon: Weapon,
    hull: Hull,
    approach: str,
    trials: int,
    seed: int,
    starts: Sequence[HitLog] = (),
    attacks: int = CAP,
) -> Run:
    rng = random.Random(f"{seed}:{weapon.label()}:{hull.key}:{approach}:{len(starts)}")
    out = []
    for i in range(trials):
        start = starts[i % len(starts)] if starts else None
        out.append(run_trial(weapon, hull, approach, rng, attacks, start))
    return Run(weapon, hull, approach, out)


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def spread(values: Sequence[float], cap: int = CAP) -> str:
    """``median [p10-p90]`` of attack counts (``>cap`` where not reached within the cap)."""

    def show(v: float) -> str:
        return f">{cap}" if math.isinf(v) else f"{v:g}"

    reached = sum(1 for v in values if not math.isinf(v)) / len(values)
    med = quantile(values, 0.5)
    if math.isinf(med):
        return "never" if reached == 0 else f">{cap} ({reached:.0%})"
    return f"{show(med)} [{show(quantile(values, 0.1))}-{show(quantile(values, 0.9))}]"


@dataclass(frozen=True)
class Job:
    """One run to make: ``trials`` targets of size ``size`` under ``weapon`` from ``approach``,
    each starting from ``starts`` (cycled; none: a fresh log) for at most ``attacks``."""

    tag: str
    weapon: Weapon
    size: str
    approach: str
    trials: int
    seed: int
    starts: tuple[HitLog, ...] = ()
    attacks: int = CAP


def _work(jobs: Sequence[Job]) -> list[Run]:
    tgt = hulls()
    return [
        simulate(j.weapon, tgt[j.size], j.approach, j.trials, j.seed, j.starts, j.attacks)
        for j in jobs
    ]


def run_jobs(jobs: Sequence[Job], workers: int) -> dict[tuple[str, Weapon, str, str], Run]:
    """Every job's run, by (tag, weapon, size, approach): jobs of one weapon kind and target
    go to one process (they share its caches of missile games), the biggest first."""
    batches: dict[tuple[str, str], list[Job]] = {}
    for job in jobs:
        batches.setdefault((job.weapon.kind, job.size), []).append(job)

    def cost(batch: list[Job]) -> float:
        return sum(j.trials * (3 if j.weapon.kind == "missile" else 1) for j in batch)

    ordered = sorted(batches.values(), key=cost, reverse=True)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_work, ordered))
    else:
        results = [_work(batch) for batch in ordered]
    return {
        (j.tag, j.weapon, j.size, j.approach): run
        for batch, runs in zip(ordered, results, strict=True)
        for j, run in zip(batch, runs, strict=True)
    }


@dataclass
class Study:
    """Every run of the whole-damage tuning, by weapon, target, approach."""

    runs: dict[tuple[str, Weapon, str, str], Run] = field(default_factory=dict)
    worn: dict[str, tuple[HitLog, ...]] = field(default_factory=dict)
    """Logs of targets worn by :data:`WORN_BY` kinetic attacks (4 at 12in), by size."""

    def get(self, kind: WeaponName, attack: int, range_: float, size: str, how: str) -> Run:
        """A run; ``how``: an approach (front, rear, any) or one attack from anywhere on a
        ``fresh`` or ``worn`` target."""
        tag, approach = ("main", how) if how in APPROACHES else (how, "any")
        return self.runs[(tag, Weapon(kind, attack, range_), size, approach)]


WEAR = Weapon("kinetic", 4, 12.0)
EXTRA: tuple[tuple[str, Weapon, str], ...] = (
    # (tag, weapon, size): one attack on a fresh ("fresh") or worn ("worn") target
    ("fresh", Weapon("missile", 4, 12.0), "light"),
    ("fresh", Weapon("missile", 4, 12.0), "heavy"),
    ("worn", Weapon("missile", 4, 12.0), "light"),
    ("worn", Weapon("missile", 4, 12.0), "heavy"),
    ("worn", WEAR, "light"),
    ("worn", WEAR, "heavy"),
    ("worn", Weapon("photon", 5, 6.0), "heavy"),
    ("worn", Weapon("kinetic", 5, 3.0), "heavy"),
    ("worn", Weapon("missile", 5, 12.0), "heavy"),
)


def whole_damage(
    tgt: Mapping[str, Hull], trials: int, missile_trials: int, seed: int, workers: int
) -> Study:
    jobs = [
        Job("main", Weapon(kind, attack, range_), size, approach, n, seed)
        for kind in combat.WEAPONS
        for attack in ATTACKS
        for range_ in WHOLE_RANGES[kind]
        for size in tgt
        for approach in APPROACHES
        for n in [missile_trials if kind == "missile" else trials]
    ]
    jobs += [Job("wear", WEAR, size, "any", trials, seed + 1, (), WORN_BY) for size in tgt]
    jobs += [Job("main", Weapon("kinetic", 3, 6.0), "light", "any", trials, seed)]
    study = Study(run_jobs(jobs, workers))
    for size in tgt:
        run = study.runs[("wear", WEAR, size, "any")]
        study.worn[size] = tuple(t.log for t in run.trials if t.destroyed_at is None)
    extra = []
    for tag, weapon, size in EXTRA:
        starts = study.worn[size] if tag == "worn" else (HitLog(),)
        n = missile_trials if weapon.kind == "missile" else trials
        extra.append(Job(tag, weapon, size, "any", n, seed + 2, starts, 1))
    study.runs.update(run_jobs(extra, workers))
    return study


def whole_damage_table(study: Study, tgt: Mapping[str, Hull]) -> None:
    print(
        f"2. Whole damage, {CAP} attacks at most on one target. 1-{SHOWN}: mean circles the k-th "
        "attack marks on a target still standing,\n   attacker dead ahead; lost: share of the "
        f"hits of those {SHOWN} attacks that find no circle. Attacks to immobilise (speed track "
        "gone) and to destroy:\n"
        "   median [10th-90th percentile], front (never immobilised from there: only core "
        "circles count as P hits), rear arc, from anywhere."
    )
    ks = "".join(f"{k:>5}" for k in range(1, SHOWN + 1))
    heads = ("front kill", "rear immob", "rear kill", "any immob", "any kill")
    print(f"{'weapon':15}{'target':6}{ks} {'lost':>5}" + "".join(f"{h:>14}" for h in heads))
    for kind in combat.WEAPONS:
        for attack in ATTACKS:
            for range_ in WHOLE_RANGES[kind]:
                weapon = Weapon(kind, attack, range_)
                for size in tgt:
                    front, rear, anyw = (study.runs[("main", weapon, size, a)] for a in APPROACHES)
                    marks = [front.by_attack(k) for k in range(SHOWN)]
                    cells = "".join("     " if v is None else f"{v:5.2f}" for v in marks)
                    counts = (
                        front.to("destroyed_at"),
                        rear.to("immobile_at"),
                        rear.to("destroyed_at"),
                        anyw.to("immobile_at"),
                        anyw.to("destroyed_at"),
                    )
                    print(
                        f"{weapon.label():15}{tgt[size].key:6}{cells} {front.lost_share():5.0%}"
                        + "".join(f"{spread(c):>14}" for c in counts)
                    )
        print()


# == 3. verdicts ==============================================================================
@dataclass(frozen=True)
class Verdict:
    text: str
    passed: bool
    detail: str


def verdicts(study: Study, tgt: Mapping[str, Hull]) -> list[Verdict]:
    out: list[Verdict] = []

    def per_attack(run: Run, n: int = 3) -> float:
        return statistics.fmean(run.first(n)) / n

    def killed(run: Run) -> float:
        return statistics.fmean(1.0 if t.destroyed_at == 1 else 0.0 for t in run.trials)

    def reach(run: Run, layer: str) -> float:
        """Share of single attacks that marked a circle of ``layer`` (c, h)."""
        return statistics.fmean(
            1.0 if any(c[0] == layer for c in t.placed[0]) else 0.0 for t in run.trials
        )

    # -- kinetic ---------------------------------------------------------------------------
    on_medium = {k: study.get(k, 4, 12.0, "medium", "any") for k in combat.WEAPONS}
    three = {k: r.first(3) for k, r in on_medium.items()}
    cv = {k: statistics.pstdev(v) / statistics.fmean(v) for k, v in three.items()}
    out.append(
        Verdict(
            "kinetic: most predictable (circles marked by the first 3 attacks, 4 vs K817 at "
            "12in from anywhere: the smallest relative spread)",
            cv["kinetic"] < min(cv["photon"], cv["missile"]),
            ", ".join(
                f"{k} {statistics.fmean(v):.1f} sd {statistics.pstdev(v):.2f}"
                for k, v in three.items()
            ),
        )
    )
    rate = {k: per_attack(r) for k, r in on_medium.items()}
    gone = {
        k: [min(a, b) for a, b in zip(r.to("immobile_at"), r.to("destroyed_at"), strict=True)]
        for k, r in on_medium.items()
    }
    out.append(
        Verdict(
            "kinetic: relatively effective against average vehicles (4 vs K817 at 12in from "
            "anywhere: circles per attack over the first 3, at least 0.8 of the best weapon's; "
            f"attacks to put it out of the fight, immobilised or destroyed, within {CAP})",
            rate["kinetic"] >= 0.8 * max(rate.values())
            and not math.isinf(quantile(gone["kinetic"], 0.5)),
            "circles per attack "
            + ", ".join(f"{k} {v:.2f}" for k, v in rate.items())
            + "; out of the fight "
            + ", ".join(f"{k} {spread(v)}" for k, v in gone.items()),
        )
    )
    close, far = (study.get("kinetic", 4, r, "medium", "any") for r in (3.0, 12.0))
    c3, f3 = per_attack(close), per_attack(far)
    out.append(
        Verdict(
            "kinetic: excellent at close range (4 vs K817 from anywhere, 3in vs 12in: circles "
            "per attack over the first 3)",
            c3 >= 1.5 * f3,
            f"{c3:.2f} vs {f3:.2f}; lost hits {close.lost_share():.0%} vs {far.lost_share():.0%}",
        )
    )
    big_deep = max(
        study.get("kinetic", a, r, size, "any").by_attack(0, deep=True) or 0.0
        for a in ATTACKS
        for r in WHOLE_RANGES["kinetic"]
        for size in ("heavy", "big")
    )
    k5 = study.get("kinetic", 5, 3.0, "heavy", "worn")
    out.append(
        Verdict(
            "kinetic: no big strikes against large vehicles (core/heart circles of a first attack "
            f"on a fresh J90 or K900, any rating and range: none; 5 at 3in on a J90 worn by "
            f"{WORN_BY}: a core hit through old holes is no big strike, the heart stays rare)",
            big_deep == 0.0 and reach(k5, "h") <= 0.05,
            f"{big_deep:.2f} deep circles; on the worn J90 P(core) {reach(k5, 'c'):.2f}, "
            f"P(heart) {reach(k5, 'h'):.2f}",
        )
    )
    # -- every weapon: sustained fire from one bearing finishes every model (ruling 17) ----
    never = [
        f"{weapon} {attack} {r:g}in {tgt[size].key}"
        for weapon in ("kinetic", "photon")
        for attack in ATTACKS
        for r in WHOLE_RANGES[weapon]
        for size in tgt
        if all(t.destroyed_at is None for t in study.get(weapon, attack, r, size, "front").trials)
    ]
    front_lost = max(
        study.get(weapon, attack, r, size, "front").lost_share()
        for weapon in ("kinetic", "photon")
        for attack in ATTACKS
        for r in WHOLE_RANGES[weapon]
        for size in tgt
    )
    out.append(
        Verdict(
            "kinetic and photon: sustained fire from dead ahead destroys every model (some "
            f"trial within {CAP} attacks, every rating, range and target)",
            not never,
            f"never destroyed: {', '.join(never) or 'none'}; most hits lost in the first "
            f"{SHOWN} attacks of one row: {front_lost:.0%}",
        )
    )
    # -- missile ----------------------------------------------------------------------------
    rows, ok = [], True
    for size in ("light", "heavy"):
        fresh = study.get("missile", 4, 12.0, size, "fresh")
        worn = study.get("missile", 4, 12.0, size, "worn")
        kin = study.get("kinetic", 4, 12.0, size, "worn")
        f, w, kw = (r.by_attack(0) or 0.0 for r in (fresh, worn, kin))
        fd, wd, kd = (r.by_attack(0, deep=True) or 0.0 for r in (fresh, worn, kin))
        ok = (
            ok
            and wd >= 0.5
            and (wd >= 1.5 * kd or killed(worn) >= 0.5)
            and (size != "heavy" or w >= 2 * f)
        )
        rows.append(
            f"{tgt[size].key} {f:.2f} ({fd:.2f} deep, destroyed {killed(fresh):.2f}) -> "
            f"{w:.2f} ({wd:.2f} deep, destroyed {killed(worn):.2f}); kinetic 4 on the worn "
            f"one {kw:.2f} ({kd:.2f} deep)"
        )
    out.append(
        Verdict(
            "missile: devastating against damaged vehicles (4 at 12in, one attack on a fresh "
            f"target -> on one worn by {WORN_BY} kinetic attacks: circles (core+heart) at least "
            "half a circle, and 1.5 times kinetic's or destroying it half the time)",
            ok,
            ";\n        ".join(rows),
        )
    )
    m_run = study.get("missile", 4, 12.0, "heavy", "fresh")
    m_first, m_deep = m_run.by_attack(0) or 0.0, m_run.by_attack(0, deep=True) or 0.0
    k_first = study.get("kinetic", 4, 12.0, "heavy", "any").by_attack(0) or 0.0
    m3 = per_attack(study.get("missile", 4, 12.0, "heavy", "any"))
    k3 = per_attack(study.get("kinetic", 4, 12.0, "heavy", "any"))
    out.append(
        Verdict(
            "missile: near useless against large undamaged vehicles (4 vs a fresh J90: first "
            "attack at most 0.6 of kinetic 4's at 12in, no core or heart)",
            m_first <= 0.6 * k_first and m_deep < 0.05,
            f"missile {m_first:.2f} ({m_deep:.2f} deep) vs kinetic {k_first:.2f}; over the "
            f"first 3 attacks {m3:.2f} vs {k3:.2f} per attack",
        )
    )
    # -- photon -----------------------------------------------------------------------------
    first = {s: study.get("photon", 4, 12.0, s, "any").by_attack(0) or 0.0 for s in tgt}
    kfirst = {s: study.get("kinetic", 4, 12.0, s, "any").by_attack(0) or 0.0 for s in tgt}
    p_ratio, k_ratio = first["big"] / first["light"], kfirst["big"] / kfirst["light"]
    out.append(
        Verdict(
            "photon: hits regardless of armour (4 at 12in, first attack: circles on a K900 / "
            "on an L35, photon at least 0.85 and well above kinetic's)",
            p_ratio >= 0.85 and p_ratio > k_ratio + 0.2,
            f"photon {first['big']:.2f}/{first['light']:.2f} = {p_ratio:.2f}; kinetic "
            f"{kfirst['big']:.2f}/{kfirst['light']:.2f} = {k_ratio:.2f}",
        )
    )
    p5 = study.get("photon", 5, 6.0, "heavy", "worn")
    m5 = study.get("missile", 5, 12.0, "heavy", "worn")

    def blow(run: Run, deep: bool) -> float:
        """Share of first attacks marking 2+ core/heart circles (deep) or 5+ circles."""
        return statistics.fmean(
            1.0 if (t.deep[0] >= 2 if deep else t.marks[0] >= 5) else 0.0 for t in run.trials
        )

    on_fresh = {
        "photon": study.get("photon", 5, 6.0, "heavy", "front"),
        "kinetic": study.get("kinetic", 5, 3.0, "heavy", "front"),
        "missile": study.get("missile", 5, 12.0, "heavy", "front"),
    }
    big = {k: blow(r, False) for k, r in on_fresh.items()}
    deep2 = {k: blow(r, True) for k, r in (("photon", p5), ("kinetic", k5), ("missile", m5))}
    out.append(
        Verdict(
            "photon: sometimes the only chance of serious damage on a powerful MGV (5-rated, one "
            "attack: 5+ circles on a fresh J90, where only photon does it; 2+ core/heart "
            f"circles on a J90 worn by {WORN_BY} kinetic attacks, which photon can do too; "
            "photon at 6in, kinetic at 3in, missile)",
            min(big["photon"], deep2["photon"]) >= 0.03
            and big["kinetic"] == 0.0
            and big["photon"] > big["missile"],
            "fresh: "
            + ", ".join(f"{k} {v:.2f}" for k, v in big.items())
            + "; worn: "
            + ", ".join(f"{k} {v:.2f}" for k, v in deep2.items())
            + f" (photon P(heart) {reach(p5, 'h'):.3f}, destroys {killed(p5):.3f})",
        )
    )
    runs = {r: study.get("photon", 4, r, "medium", "any") for r in (12.0, 24.0)}
    d12, d24 = (runs[r].disaster_rate() for r in (12.0, 24.0))
    hits24 = per_attack(runs[24.0])
    feedback = combat.combat_data().photon.disaster.feedback_hits
    out.append(
        Verdict(
            "photon: missing by too much is disastrous (4 vs K817, 12in and 24in: disasters "
            "per attack; at 24in the firer's feedback hits against the target's circles)",
            d24 > 0 and d12 <= d24 and d24 * feedback >= 0.25 * hits24,
            f"{d12:.2f} / {d24:.2f}; at 24in {d24 * feedback:.2f} feedback hits per attack "
            f"for {hits24:.2f} circles",
        )
    )
    cells, ok = [], True
    for r in (6.0, 12.0):
        p = study.get("photon", 3, r, "light", "any")
        k = study.get("kinetic", 3, r, "light", "any")
        pp, kk = per_attack(p), per_attack(k)
        ok = ok and pp < kk
        cells.append(f"{r:g}in photon {pp:.2f} vs kinetic {kk:.2f}")
    out.append(
        Verdict(
            "photon: least efficient against light targets (3 vs L35 from anywhere: circles per "
            "attack over the first 3, photon below kinetic)",
            ok,
            "; ".join(cells),
        )
    )
    return out


# == 4. hits lost in play (the 5.2 taper question) ============================================
SCENARIOS = ("mgv/clear", "mgv/gauntlet", "mgv/strike")
MAX_ACTIONS = 20_000


@dataclass
class Losses:
    """Hits scored and lost in play, by weapon (``feedback``: a photon disaster's hits)."""

    games: int = 0
    scored: Counter[str] = field(default_factory=Counter)
    lost: Counter[str] = field(default_factory=Counter)
    groups: Counter[str] = field(default_factory=Counter)
    empty: int = 0
    """Kinetic and photon groups that placed nothing because the near side was full."""
    near_full: int = 0
    """Kinetic and photon hits lost in those groups."""
    interior_open: int = 0
    """Of those, hits lost while outside-in allowed interior hits (six or fewer unmarked
    surface circles) and an unmarked core circle facing the attacker adjoined a marked
    surface circle."""
    recoverable: int = 0
    """Kinetic and photon hits lost that a taper counting the log's own marked surface
    circles facing the attacker would have placed (:func:`log_taper_places`)."""
    games_hit: int = 0
    """Games with at least one kinetic or photon group lost to a full near side."""
    mismatches: int = 0
    """Logs this count rebuilt that differ from the game's (should stay 0)."""
    wrecked: int = 0
    """Hits of groups whose target an earlier group of the same fire destroyed (overkill,
    left out of the scored and lost columns)."""

    def add(self, other: Losses) -> None:
        for name in ("games", "empty", "near_full", "interior_open", "recoverable", "wrecked"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.games_hit += other.games_hit
        self.mismatches += other.mismatches
        self.scored.update(other.scored)
        self.lost.update(other.lost)
        self.groups.update(other.groups)


def log_taper_places(layout: HullLayout, log: HitLog, group: HitGroup) -> int:
    """Hits of a kinetic or photon group a reading of the X+1 taper that counts the log's
    marked surface circles facing the attacker would place.

    Worked out with the implemented rules: up to ``hits + 1`` of those circles
    (nearest the attacker first) are taken off the log and the group gets as
    many extra hits, which can only go back onto them (or other open circles
    facing the attacker); the group's own surface count then includes them.
    """
    near = [c for c in log.marked("surface") if not layout.far_side(c, group.bearing)]
    near.sort(
        key=lambda c: abs(((layout.circle(c).angle or 0.0) - group.bearing + 180) % 360 - 180)
    )
    k = min(len(near), group.hits + 1)
    if k == 0:
        return placeable(layout, log, group)
    off = set(near[:k])
    kept = HitLog(tuple(m for m in log.marks if m[0] not in off))
    more = HitGroup.direct(group.weapon, group.hits + k, bearing=group.bearing, rear=group.rear)
    return placeable(layout, kept, more) - k


def count_losses(scenario: str, seed: int) -> Losses:
    """Play one greedy-vs-greedy game and count its hits that find no circle."""
    game = Game.start(scenario, seed)
    bots = {side: make_bot("greedy", seed * 7 + i) for i, side in enumerate(game.scenario.sides)}
    logs = {b.id: b.log for b in game.state.bases.values()}
    layouts = {b.id: b.layout for b in game.state.bases.values()}
    out = Losses(games=1)
    attacks: dict[int, tuple[str, str, str]] = {}
    groups: dict[tuple[int, str], HitGroup] = {}
    feedback = combat.combat_data().photon.disaster.feedback_hits
    hit = False
    for _ in range(MAX_ACTIONS):
        waiting = game.waiting_for()
        if not waiting:
            break
        side = waiting[0]
        events = game.apply(bots[side].choose(game.seat(side), side), side)
        state = game.state
        for ev in events:
            if ev.kind == "declare":
                number = int(ev.data["attack"])
                if number == 1:
                    attacks.clear()
                    groups.clear()
                attacks[number] = (ev.data["shooters"][0], ev.data["target"], ev.data["weapon"])
            elif ev.kind == "attack":
                number = int(ev.data["attack"])
                shooter, target, weapon = attacks[number]
                s_base, t_base = state.bases[shooter], state.bases[target]
                bearing = space.attacker_bearing(t_base, s_base)
                rear = space.from_rear(t_base, s_base)
                if weapon == "missile":
                    s, c, h = ev.data["layers"]
                    rule = state.setup.options.core_rule
                    group = HitGroup.missile(s, c, h, bearing=bearing, rear=rear, core_rule=rule)
                else:
                    direct: Literal["kinetic", "photon"] = (
                        "photon" if weapon == "photon" else "kinetic"
                    )
                    hits = int(ev.data["hits"])
                    group = HitGroup.direct(direct, hits, bearing=bearing, rear=rear)
                groups[(number, weapon)] = group
                if "disaster" in ev.text and feedback:
                    groups[(number, "feedback")] = HitGroup.direct("photon", feedback, bearing=0.0)
            elif ev.kind == "hits":
                # the event names its attack and weapon: groups are placed in any order
                weapon = str(ev.data["weapon"])
                group = groups[(int(ev.data["attack"]), weapon)]
                target = str(ev.data["base"])
                # overkill (hits on a base already destroyed, or left over by the group
                # that destroyed it): the hull's rules played no part
                wreck = int(ev.data.get("wreck", 0))
                out.wrecked += wreck
                circles = tuple(ev.data["circles"])
                if not circles and wreck:
                    continue
                layout, before = layouts[target], logs[target]
                lost = group.total - len(circles) - wreck
                assert lost == int(ev.data["lost"]), (ev.data, group)
                out.groups[weapon] += 1
                out.scored[weapon] += group.total - wreck
                out.lost[weapon] += lost
                if lost and weapon in ("kinetic", "photon"):
                    full = all(
                        before.is_marked(c) or layout.far_side(c, group.bearing)
                        for c in layout.ids("surface")
                    )
                    if full:
                        hit = True
                        out.empty += 1
                        out.near_full += lost
                        open_ = len(before.unmarked("surface", layout)) <= 6 and any(
                            not before.is_marked(c)
                            and not layout.far_side(c, group.bearing)
                            and any(before.is_marked(s) for s in layout.circle(c).adjoins)
                            for c in layout.ids("core")
                        )
                        out.interior_open += lost if open_ else 0
                    alt = log_taper_places(layout, before, group)
                    out.recoverable += max(0, alt - len(circles))
                logs[target] = apply_placement(before, group, circles)
        out.mismatches += sum(1 for b in state.bases.values() if logs[b.id] != b.log)
        for b in state.bases.values():  # keep in step whatever happened
            logs[b.id] = b.log
    out.games_hit = int(hit)
    return out


def lost_in_play(games: int, seed: int, workers: int) -> dict[str, Losses]:
    jobs = [(scenario, seed * 1000 + i) for scenario in SCENARIOS for i in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            found = list(pool.map(_count, jobs))
    else:
        found = [_count(job) for job in jobs]
    out = {scenario: Losses() for scenario in SCENARIOS}
    for (scenario, _), losses in zip(jobs, found, strict=True):
        out[scenario].add(losses)
    return out


def _count(job: tuple[str, int]) -> Losses:
    return count_losses(*job)


def lost_table(found: Mapping[str, Losses], seed: int) -> None:
    games = next(iter(found.values())).games
    print(
        f"\n4. Hits lost in play ({games} greedy-vs-greedy games per scenario, seed {seed}): "
        "lost / scored hits by weapon;\n   K+P groups that placed nothing with the near side "
        "full (hits, of which with the interior open); hits a log-counting taper would place;\n"
        "   hits that struck a wreck (an earlier group of the fire destroyed the target)"
    )
    print(
        f"{'scenario':14}{'kinetic':>14}{'photon':>14}{'missile':>14}{'feedback':>12}"
        f"{'empty groups':>14}{'near full':>11}{'open':>6}{'log taper':>11}{'games':>7}"
        f"{'wrecks':>8}"
    )
    whole = Losses()
    for scenario, losses in found.items():
        whole.add(losses)
        _lost_row(scenario, losses)
    _lost_row("all", whole)
    if whole.mismatches:
        print(f"   (rebuilt logs differed from the game's {whole.mismatches} times)")


def _lost_row(name: str, losses: Losses) -> None:
    def share(weapon: str) -> str:
        scored, lost = losses.scored[weapon], losses.lost[weapon]
        return f"{lost}/{scored} {lost / scored:4.0%}" if scored else "-"

    direct = losses.groups["kinetic"] + losses.groups["photon"]
    print(
        f"{name:14}{share('kinetic'):>14}{share('photon'):>14}{share('missile'):>14}"
        f"{share('feedback'):>12}{f'{losses.empty}/{direct}':>14}{losses.near_full:>11}"
        f"{losses.interior_open:>6}{losses.recoverable:>11}"
        f"{f'{losses.games_hit}/{losses.games}':>7}{losses.wrecked:>8}"
    )


# == main ======================================================================================
def main(argv: Sequence[str] | None = None) -> int:
    """``warbench tune mgv [ARGS]``: print the study; exit status 1 if a verdict fails."""
    parser = argparse.ArgumentParser(prog="warbench tune mgv", description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=500, help="targets per kinetic/photon run")
    parser.add_argument("--missile-trials", type=int, default=300, help="targets per missile run")
    parser.add_argument("--games", type=int, default=6, help="games per scenario (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="processes for the runs")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    tgt = hulls()
    single_shot_table(tgt)
    study = whole_damage(tgt, args.trials, args.missile_trials, args.seed, args.workers)
    whole_damage_table(study, tgt)
    checks = verdicts(study, tgt)
    print("3. Verdicts (1.5):")
    for check in checks:
        print(f"  [{'ok' if check.passed else 'CHECK'}] {check.text}:\n        {check.detail}")
    if args.games:
        lost_table(lost_in_play(args.games, args.seed, args.workers), args.seed)
    print(f"\n({time.perf_counter() - began:.0f} s)")
    return 0 if all(c.passed for c in checks) else 1
