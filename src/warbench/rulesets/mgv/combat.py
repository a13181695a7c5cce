"""MGV fire resolution (5.0-5.3, "5.1 Modifiers", 1.6 sudden death) as pure functions.

The numbers are the stand-in combat chart of ``data/combat.toml`` (the text's
chart is missing; each table says why it is what it is). Nothing here touches
a game state: the engine passes the ratings, the modifier total and a ``roll``
callable ``(purpose, n) -> n results of 1D6`` (a wrapper around its
``Resolution.roll``, so every die is logged with its purpose); tests pass
scripted dice. Every resolve function has an exact distribution beside it
(``Fraction``s summing to 1), which the odds command, bots and tests read.

How the modified attack value (5.1 Modifiers) enters each weapon:

* kinetic (5.1 Kinetic Fire): the column of the 2D6 table is attack +
  modifiers - defence, shifted by the close range band, clamped to the table;
* missile (5.2 Missile Fire): the attacker's dice are counted from attack +
  modifiers (doubled for a wing pair); each side splits its dice among surface,
  core and heart; per colour, hits = the attacker's score - the defender's
  blocks, never below 0;
* photon (5.3 Photon Fire): the effective value attack + modifiers (the
  ranging error included) is the column of the photon table; the defence
  rating plays no part; a ranging error at or beyond the disaster limit scores
  nothing and feeds hits back onto the firer.

>>> ranging_penalty(1.75), ranging_penalty(0.5)
(-3, 0)
>>> interception_penalty(5), interception_penalty(6)
(-1, -2)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product
from typing import Literal, TypeAlias

import numpy as np
from pydantic import Field, model_validator

from warbench.bots.matrix import MatrixSolution, solve_zero_sum
from warbench.core.dice import sum_distribution
from warbench.rulesets.kit.datafiles import DataModel, StandIn, data_file

Weapon = Literal["kinetic", "missile", "photon"]
WEAPONS: tuple[Weapon, ...] = ("kinetic", "missile", "photon")
Roll: TypeAlias = Callable[[str, int], tuple[int, ...]]
"""``roll(purpose, n)``: n results of 1D6, logged with their purpose."""
Split: TypeAlias = tuple[int, int, int]
"""Dice (or hits) per colour: surface, core, heart (5.2 Missile Fire)."""
COLOURS = ("surface", "core", "heart")
EPSILON = 1e-9
"""Inches: a measured error this close above a half-inch boundary counts as on it."""


# -- the data --------------------------------------------------------------------------------
_Model = DataModel
_StandIn = StandIn


class ModifierSpec(_Model):
    """One line of the modifier list (5.1 Modifiers): ``amount`` per ``per`` units."""

    label: str
    amount: int
    per: float = Field(default=1.0, gt=0)
    weapons: tuple[Weapon, ...]
    cite: str
    stand_in: bool = False
    reason: str = ""


class ModifierTable(_Model):
    stand_in: bool
    source: str
    target_fired: ModifierSpec
    target_moved: ModifierSpec
    beacon: ModifierSpec
    cover: ModifierSpec
    ranging: ModifierSpec
    interception: ModifierSpec
    off_line: ModifierSpec


def _check_columns(columns: Mapping[int, tuple[int, ...]], dice: int) -> None:
    """Contiguous columns, one entry per total, never fewer hits for a higher roll or column."""
    keys = sorted(columns)
    if keys != list(range(keys[0], keys[-1] + 1)):
        raise ValueError("columns must be contiguous whole numbers")
    rows = 5 * dice + 1
    previous: tuple[int, ...] | None = None
    for key in keys:
        column = columns[key]
        if len(column) != rows:
            raise ValueError(f"column {key} needs {rows} entries (totals {dice} to {6 * dice})")
        if any(h < 0 for h in column) or list(column) != sorted(column):
            raise ValueError(f"column {key}: hits must be 0 or more and rise with the roll")
        if previous is not None and any(a < b for a, b in zip(column, previous, strict=True)):
            raise ValueError(f"column {key} gives fewer hits than the column before it")
        previous = column


class RangeBand(_Model):
    up_to: float = Field(gt=0)
    shift: int
    label: str


class KineticRange(_StandIn):
    enabled: bool
    bands: tuple[RangeBand, ...]

    @model_validator(mode="after")
    def _ascending(self) -> KineticRange:
        limits = [band.up_to for band in self.bands]
        if limits != sorted(set(limits)):
            raise ValueError("range bands must be in ascending order of up_to")
        return self


class Kinetic(_StandIn):
    dice: int = Field(ge=1, le=4)
    columns: dict[int, tuple[int, ...]]
    range: KineticRange

    @model_validator(mode="after")
    def _table(self) -> Kinetic:
        _check_columns(self.columns, self.dice)
        return self


Scoring: TypeAlias = Literal["totals", "successes"]
"""How missile dice score (5.2): each colour's pip total hits and blocks (the
text), or each die of a set face scores or blocks one (an option)."""


class MissileTotals(_Model):
    """The allotment when pip totals score: one die per so many points."""

    attack_points_per_die: int = Field(ge=1, le=6)
    defence_base_dice: int = Field(ge=0, le=6)
    defence_points_per_die: int = Field(ge=1, le=6)


class MissileSuccesses(_Model):
    """The allotment and faces when each die scores or blocks one."""

    attack_dice_per_point: int = Field(ge=1, le=6)
    defence_dice_per_point: int = Field(ge=1, le=6)
    hit_on: int = Field(ge=2, le=6)
    block_on: int = Field(ge=2, le=6)


class Missile(_StandIn):
    scoring: Scoring
    """The default; a scenario's ``missile_scoring`` option picks the other."""
    wing_factor: int = Field(ge=1, le=4)
    totals: MissileTotals
    successes: MissileSuccesses


class Disaster(_StandIn):
    from_error: float = Field(gt=0)
    effect: Literal["feedback"]
    feedback_hits: int = Field(ge=0)
    feedback_layer: Literal["surface", "core", "heart"]


class Estimate(_StandIn):
    bias: float
    sigma_at_zero: float = Field(ge=0)
    sigma_per_inch: float = Field(ge=0)
    sigma_max: float = Field(gt=0)
    round_to: float = Field(gt=0)


class Photon(_StandIn):
    dice: int = Field(ge=1, le=4)
    columns: dict[int, tuple[int, ...]]
    disaster: Disaster
    estimate: Estimate

    @model_validator(mode="after")
    def _table(self) -> Photon:
        _check_columns(self.columns, self.dice)
        if min(self.columns) != 1:
            raise ValueError("photon columns start at effective value 1")
        return self


class SuddenDeath(_StandIn):
    dice: int = Field(ge=1, le=4)
    destroyed_on: tuple[int, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _falls(self) -> SuddenDeath:
        if list(self.destroyed_on) != sorted(self.destroyed_on, reverse=True):
            raise ValueError("the threshold may only fall with more B hits")
        return self


class CombatData(_Model):
    """The whole of ``data/combat.toml``."""

    modifiers: ModifierTable
    kinetic: Kinetic
    missile: Missile
    photon: Photon
    sudden_death: SuddenDeath


combat_data = data_file("warbench.rulesets.mgv", "combat.toml", CombatData)
"""The combat chart stand-ins, validated once."""


# -- dice --------------------------------------------------------------------------------------


def _roll_total(roll: Roll, purpose: str, dice: int) -> int:
    return sum(roll(purpose, dice))


# -- modifiers (5.1 Modifiers) ----------------------------------------------------------------
def ranging_penalty(error_inches: float | Fraction) -> int:
    """The modifier for a photon ranging error (5.1 Modifiers): -1 per full 1/2".

    Partial half-inches do not count (1 3/4" is -3) and a guess within 1/2" has
    no penalty, so an error of exactly k half-inches costs k - 1; an error a
    hair (under a billionth of an inch, measurement noise) past a boundary
    counts as on it.

    >>> [ranging_penalty(e) for e in (0, 0.25, 0.5, 0.51, 1.0, 1.75, 2.0)]
    [0, 0, 0, -1, -1, -3, -3]
    """
    spec = combat_data().modifiers.ranging
    error = abs(float(error_inches))
    steps = math.ceil(error / spec.per - EPSILON) - 1 if error > 0 else 0
    return spec.amount * max(0, steps)


def interception_penalty(points: int) -> int:
    """The modifier for interception points (5.1 Modifiers): -1 per full 3 points."""
    spec = combat_data().modifiers.interception
    return spec.amount * int(max(0, points) // spec.per)


@dataclass(frozen=True, slots=True)
class ModifierTerm:
    """One modifier as it applies to one attack: its amount, or why it is ignored."""

    key: str
    label: str
    amount: int
    applies: bool
    cite: str

    def __str__(self) -> str:
        if not self.applies:
            return f"{self.label}: ignored for this weapon ({self.cite})"
        return f"{self.label}: {self.amount:+d} ({self.cite})"


@dataclass(frozen=True, slots=True)
class Modifiers:
    """The situation of one attack, as the modifier list sees it (5.1 Modifiers).

    ``total()`` is what is added to the basic attack value; ``explanation()``
    lists each modifier present, with its amount or the reason it is ignored
    (the text: effects that do not apply to the fire case being rolled are
    ignored), for players.
    """

    weapon: Weapon
    target_fired: bool = False
    target_moved: bool = False
    beacon: bool = False
    cover: int = 0
    """Cover classes applying to the target."""
    ranging_error: float | Fraction | None = None
    """Inches between the photon guess and the true range (None: no guess)."""
    interception: int = 0
    """Interception points screening the target."""
    off_line: bool = False
    """A missile fired beyond 30 degrees of the centreline (5.0)."""

    def terms(self) -> list[ModifierTerm]:
        table = combat_data().modifiers
        out: list[ModifierTerm] = []

        def add(key: str, spec: ModifierSpec, amount: int, label: str) -> None:
            applies = self.weapon in spec.weapons
            out.append(ModifierTerm(key, label, amount if applies else 0, applies, spec.cite))

        if self.target_fired:
            add("target_fired", table.target_fired, table.target_fired.amount, "target fired")
        if self.target_moved:
            spec = table.target_moved
            add("target_moved", spec, spec.amount, spec.label)
        if self.beacon:
            add("beacon", table.beacon, table.beacon.amount, table.beacon.label)
        if self.cover:
            spec = table.cover
            add("cover", spec, spec.amount * self.cover, f"{spec.label} x{self.cover}")
        if self.ranging_error is not None:
            spec = table.ranging
            shown = f'{spec.label} {abs(float(self.ranging_error)):g}"'
            add("ranging", spec, ranging_penalty(self.ranging_error), shown)
        if self.interception:
            spec = table.interception
            shown = f"{self.interception} {spec.label}"
            add("interception", spec, interception_penalty(self.interception), shown)
        if self.off_line:
            add("off_line", table.off_line, table.off_line.amount, table.off_line.label)
        return out

    def total(self, ranging: bool = True) -> int:
        """The sum of the modifiers that apply (without the ranging error if asked)."""
        return sum(t.amount for t in self.terms() if t.applies and (ranging or t.key != "ranging"))

    def explanation(self) -> list[str]:
        return [str(term) for term in self.terms()]


# -- kinetic (5.1 Kinetic Fire) ----------------------------------------------------------------
def range_shift(range_inches: float | None) -> int:
    """The kinetic column shift of the close range band (0 beyond the bands, or for None)."""
    spec = combat_data().kinetic.range
    if range_inches is None or not spec.enabled:
        return 0
    for band in spec.bands:
        if range_inches <= band.up_to + EPSILON:
            return band.shift
    return 0


def kinetic_column(
    attack: int, defence: int, modifier: int = 0, range_inches: float | None = None
) -> int:
    """The column: attack + modifiers - defence + the range shift, clamped to the table."""
    columns = combat_data().kinetic.columns
    raw = attack + modifier - defence + range_shift(range_inches)
    return max(min(columns), min(max(columns), raw))


def _kinetic_row(column: int) -> tuple[int, ...]:
    return combat_data().kinetic.columns[column]


def resolve_kinetic(
    attack: int,
    defence: int,
    roll: Roll,
    modifier: int = 0,
    range_inches: float | None = None,
) -> int:
    """Roll 2D6 on the kinetic table: the number of hits."""
    data = combat_data().kinetic
    column = kinetic_column(attack, defence, modifier, range_inches)
    total = _roll_total(roll, f"kinetic, column {column:+d}", data.dice)
    return _kinetic_row(column)[total - data.dice]


def kinetic_distribution(
    attack: int, defence: int, modifier: int = 0, range_inches: float | None = None
) -> dict[int, Fraction]:
    """Exact chances of each number of kinetic hits."""
    data = combat_data().kinetic
    row = _kinetic_row(kinetic_column(attack, defence, modifier, range_inches))
    return _table_distribution(row, data.dice)


def _table_distribution(row: Sequence[int], dice: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for total, chance in sum_distribution(dice).items():
        hits = row[total - dice]
        out[hits] = out.get(hits, Fraction(0)) + chance
    return dict(sorted(out.items()))


# -- missile (5.2 Missile Fire) ----------------------------------------------------------------
def missile_dice(
    attack: int, modifier: int = 0, wing: bool = False, scoring: Scoring | None = None
) -> int:
    """The attacker's dice from the modified attack value, doubled for a wing pair.

    Totals: one die per ``attack_points_per_die`` points, a part point rounding
    up; successes: ``attack_dice_per_point`` dice per point.
    """
    data = combat_data().missile
    factor = data.wing_factor if wing else 1
    value = max(0, attack + modifier)
    if _scoring(scoring) == "totals":
        return -(-value // data.totals.attack_points_per_die) * factor
    return data.successes.attack_dice_per_point * value * factor


def block_dice(defence: int, scoring: Scoring | None = None) -> int:
    """The defender's block dice, from its current defence rating."""
    data = combat_data().missile
    value = max(0, defence)
    if _scoring(scoring) == "totals":
        if not value:
            return 0
        return data.totals.defence_base_dice + value // data.totals.defence_points_per_die
    return data.successes.defence_dice_per_point * value


def _scoring(scoring: Scoring | None) -> Scoring:
    return combat_data().missile.scoring if scoring is None else scoring


def max_score(dice: int, scoring: Scoring | None = None) -> int:
    """The most one colour's ``dice`` can score: every pip, or every die."""
    return 6 * dice if _scoring(scoring) == "totals" else dice


@cache
def splits(n_dice: int) -> list[Split]:
    """Every way to divide ``n_dice`` among surface, core and heart, most surface first.

    >>> splits(2)
    [(2, 0, 0), (1, 1, 0), (1, 0, 1), (0, 2, 0), (0, 1, 1), (0, 0, 2)]
    """
    if n_dice < 0:
        raise ValueError("a split needs 0 or more dice")
    return [
        (s, c, n_dice - s - c) for s in range(n_dice, -1, -1) for c in range(n_dice - s, -1, -1)
    ]


def _check_split(split: Sequence[int], who: str) -> Split:
    if len(split) != 3 or any(n < 0 for n in split):
        raise ValueError(f"{who} split needs three counts of 0 or more (surface, core, heart)")
    return (split[0], split[1], split[2])


def _score(dice: Iterable[int], scoring: Scoring, at_least: int) -> int:
    """Pip total (totals) or dice showing ``at_least`` or more (successes)."""
    if scoring == "totals":
        return sum(dice)
    return sum(1 for face in dice if face >= at_least)


def resolve_missile(
    att_split: Sequence[int],
    def_split: Sequence[int],
    roll: Roll,
    scoring: Scoring | None = None,
) -> Split:
    """Roll both splits; per colour, hits = the attacker's score - the defender's blocks, >= 0.

    Dice are rolled colour by colour, the attacker's first, then the defender's.
    """
    how = _scoring(scoring)
    faces = combat_data().missile.successes
    attack = _check_split(att_split, "the attacker's")
    block = _check_split(def_split, "the defender's")
    scores = [
        _score(roll(f"missile attack, {colour}", n), how, faces.hit_on) if n else 0
        for colour, n in zip(COLOURS, attack, strict=True)
    ]
    blocks = [
        _score(roll(f"missile blocks, {colour}", n), how, faces.block_on) if n else 0
        for colour, n in zip(COLOURS, block, strict=True)
    ]
    s, c, h = (max(0, a - b) for a, b in zip(scores, blocks, strict=True))
    return (s, c, h)


@cache
def _binomial(n: int, success: Fraction) -> tuple[Fraction, ...]:
    return tuple(math.comb(n, k) * success**k * (1 - success) ** (n - k) for k in range(n + 1))


@cache
def _pip_totals(n: int) -> tuple[Fraction, ...]:
    """Exact chances of each pip total 0..6n of ``n`` dice (index = total)."""
    out = [Fraction(1)]
    for _ in range(n):
        nxt = [Fraction(0)] * (len(out) + 6)
        for total, p in enumerate(out):
            if p:
                for face in range(1, 7):
                    nxt[total + face] += p / 6
        out = nxt
    return tuple(out)


def _score_distribution(n: int, scoring: Scoring, at_least: int) -> tuple[Fraction, ...]:
    if scoring == "totals":
        return _pip_totals(n)
    return _binomial(n, Fraction(7 - at_least, 6))


@cache
def colour_distribution(
    attack_dice: int, block_dice_: int, scoring: Scoring | None = None
) -> tuple[Fraction, ...]:
    """Exact chances of 0, 1, ... hits in one colour: max(0, score - blocks)."""
    how = _scoring(scoring)
    faces = combat_data().missile.successes
    scores = _score_distribution(attack_dice, how, faces.hit_on)
    blocks = _score_distribution(block_dice_, how, faces.block_on)
    out = [Fraction(0)] * len(scores)
    for a, pa in enumerate(scores):
        if pa:
            for b, pb in enumerate(blocks):
                if pb:
                    out[max(0, a - b)] += pa * pb
    return tuple(out)


def missile_distribution(
    att_split: Sequence[int], def_split: Sequence[int], scoring: Scoring | None = None
) -> dict[Split, Fraction]:
    """Exact chances of each (surface, core, heart) hit count for fixed splits."""
    attack = _check_split(att_split, "the attacker's")
    block = _check_split(def_split, "the defender's")
    per_colour = [
        colour_distribution(a, b, _scoring(scoring)) for a, b in zip(attack, block, strict=True)
    ]
    out: dict[Split, Fraction] = {}
    for (s, ps), (c, pc), (h, ph) in product(*(enumerate(p) for p in per_colour)):
        chance = ps * pc * ph
        if chance:
            out[(s, c, h)] = chance
    return out


def total_hits(hits: Split) -> float:
    """The plain payoff: every hit counts one, whatever its colour."""
    return float(sum(hits))


@lru_cache(maxsize=4096)
def _colour_floats(attack_dice: int, block_dice_: int, scoring: Scoring) -> np.ndarray:
    floats = np.array([float(p) for p in colour_distribution(attack_dice, block_dice_, scoring)])
    floats.flags.writeable = False  # shared by every caller through the cache
    return floats


def missile_payoffs(
    att_dice: int,
    def_dice: int,
    value: Callable[[Split], float] = total_hits,
    scoring: Scoring | None = None,
) -> list[list[float]]:
    """Expected ``value`` of the hits for every attacker split (rows) and defender split."""
    how = _scoring(scoring)
    rows, columns = splits(att_dice), splits(def_dice)
    top = max_score(att_dice, how)
    size = top + 1
    table = np.zeros((size, size, size))
    for s, c, h in product(range(size), repeat=3):
        if s + c + h <= top:
            table[s, c, h] = value((s, c, h))
    out: list[list[float]] = []
    for a_s, a_c, a_h in rows:
        cut = table[: max_score(a_s, how) + 1, : max_score(a_c, how) + 1, : max_score(a_h, how) + 1]
        # Contract the heart axis once per defender heart count, then the rest.
        by_heart = {d: cut @ _colour_floats(a_h, d, how) for d in range(def_dice + 1)}
        line = []
        for d_s, d_c, d_h in columns:
            ps, pc = _colour_floats(a_s, d_s, how), _colour_floats(a_c, d_c, how)
            line.append(float(ps @ by_heart[d_h] @ pc))
        out.append(line)
    return out


@lru_cache(maxsize=1024)
def _cached_game(
    att_dice: int, def_dice: int, value: Callable[[Split], float], scoring: Scoring
) -> MatrixSolution:
    return solve_zero_sum(missile_payoffs(att_dice, def_dice, value, scoring))


def missile_game(
    att_dice: int,
    def_dice: int,
    value: Callable[[Split], float] = total_hits,
    scoring: Scoring | None = None,
) -> MatrixSolution:
    """The sealed split as a zero-sum game (the attacker maximises the expected value).

    Rows are ``splits(att_dice)``, columns ``splits(def_dice)``; a bot plays
    ``splits(att_dice)[draw(solution.row, rng)]`` (``warbench.bots.matrix.draw``).
    ``value`` is what a hit triple is worth against the target (for instance
    the hits its log can actually take, weighted); games are cached by dice
    counts, ``value`` (pass the same function object to hit the cache) and scoring.
    """
    if att_dice < 0 or def_dice < 0:
        raise ValueError("dice counts are 0 or more")
    how = _scoring(scoring)
    try:
        return _cached_game(att_dice, def_dice, value, how)
    except TypeError:  # an unhashable value: solve without the cache
        return solve_zero_sum(missile_payoffs(att_dice, def_dice, value, how))


def photon_disaster(error_inches: float | Fraction) -> bool:
    """Whether the ranging error is at or beyond the disaster limit (stand-in, 1.5)."""
    return abs(float(error_inches)) >= combat_data().photon.disaster.from_error - EPSILON


def photon_value(attack: int, error_inches: float | Fraction = 0, modifier: int = 0) -> int:
    """The effective value: attack + the other modifiers + the ranging penalty."""
    return attack + modifier + ranging_penalty(error_inches)


@dataclass(frozen=True, slots=True)
class PhotonResult:
    """One photon shot: hits on the target, and the feedback hits of a disaster."""

    hits: int
    effective: int
    disaster: bool
    feedback_hits: int = 0


def resolve_photon(
    attack: int, error_inches: float | Fraction, roll: Roll, modifier: int = 0
) -> PhotonResult:
    """Fire a photon weapon whose guess was ``error_inches`` out.

    ``modifier`` is every modifier but the ranging error, which this function
    adds from ``error_inches`` (``Modifiers.total(ranging=False)``). A disaster
    or an effective value of 0 or less rolls no dice.
    """
    data = combat_data().photon
    effective = photon_value(attack, error_inches, modifier)
    if photon_disaster(error_inches):
        return PhotonResult(0, effective, True, data.disaster.feedback_hits)
    if effective <= 0:
        return PhotonResult(0, effective, False)
    column = min(effective, max(data.columns))
    total = _roll_total(roll, f"photon, effective value {effective}", data.dice)
    return PhotonResult(data.columns[column][total - data.dice], effective, False)


def photon_distribution(
    attack: int, error_inches: float | Fraction = 0, modifier: int = 0
) -> dict[int, Fraction]:
    """Exact chances of each number of photon hits on the target (a disaster scores 0)."""
    data = combat_data().photon
    effective = photon_value(attack, error_inches, modifier)
    if photon_disaster(error_inches) or effective <= 0:
        return {0: Fraction(1)}
    return _table_distribution(data.columns[min(effective, max(data.columns))], data.dice)


def estimate_sigma(true_range: float) -> float:
    """The spread (log-normal sigma) of an unaided guess at ``true_range`` inches."""
    spec = combat_data().photon.estimate
    return min(spec.sigma_max, spec.sigma_at_zero + spec.sigma_per_inch * max(0.0, true_range))


def photon_estimate(true_range: float, rng: random.Random) -> float:
    """A player's unaided range guess (the stand-in model), to the quarter inch.

    guess = true range x exp(N(bias, sigma(range))), rounded to ``round_to``.
    """
    spec = combat_data().photon.estimate
    factor = math.exp(rng.gauss(spec.bias, estimate_sigma(true_range)))
    return round(true_range * factor / spec.round_to) * spec.round_to


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def estimate_distribution(true_range: float) -> list[tuple[float, float]]:
    """Chances of each guess of the estimate model: (guess, chance), rounding included.

    Floats (the log-normal is not rational): guesses within 8 sigma of the
    median, renormalised so the chances sum to 1.
    """
    spec = combat_data().photon.estimate
    step = spec.round_to
    sigma = estimate_sigma(true_range)
    median = max(0.0, true_range) * math.exp(spec.bias)
    if median <= 0 or sigma == 0:
        return [(round(median / step) * step, 1.0)]

    def below(edge: float) -> float:  # P(true range x factor < edge)
        if edge <= 0:
            return 0.0
        return _normal_cdf(math.log(edge / median) / sigma)

    low = math.floor(median * math.exp(-8 * sigma) / step)
    high = math.ceil(median * math.exp(8 * sigma) / step)
    out = []
    for k in range(max(0, low), high + 1):
        guess = k * step
        chance = below(guess + step / 2) - below(guess - step / 2)
        if chance > 0:
            out.append((guess, chance))
    whole = sum(p for _, p in out)
    return [(guess, p / whole) for guess, p in out]


@dataclass(frozen=True, slots=True)
class PhotonAtRange:
    """A photon shot with the estimate model's guess: hit chances and the disaster chance."""

    hits: dict[int, float]
    disaster: float

    @property
    def expected(self) -> float:
        return sum(h * p for h, p in self.hits.items())


def photon_at_range(attack: int, true_range: float, modifier: int = 0) -> PhotonAtRange:
    """The estimate model's guess (5.3) folded into the photon table (floats)."""
    hits: dict[int, float] = {}
    disaster = 0.0
    for guess, chance in estimate_distribution(true_range):
        error = abs(guess - true_range)
        if photon_disaster(error):
            disaster += chance
        for h, p in photon_distribution(attack, error, modifier).items():
            hits[h] = hits.get(h, 0.0) + chance * float(p)
    return PhotonAtRange(dict(sorted(hits.items())), disaster)


# -- sudden death (1.6) ------------------------------------------------------------------------
def sudden_death_threshold(b_hits: int) -> int | None:
    """The 2D6 total at which a base with ``b_hits`` B hits is destroyed (None: no roll)."""
    if b_hits <= 0:
        return None
    table = combat_data().sudden_death.destroyed_on
    return table[min(b_hits, len(table)) - 1]


def sudden_death(b_hits: int, roll: Roll) -> bool:
    """Roll for sudden death (1.6): True if the base is destroyed. No B hits, no roll."""
    threshold = sudden_death_threshold(b_hits)
    if threshold is None:
        return False
    dice = combat_data().sudden_death.dice
    return _roll_total(roll, f"sudden death, {b_hits} B hit(s)", dice) >= threshold


def sudden_death_chance(b_hits: int) -> Fraction:
    threshold = sudden_death_threshold(b_hits)
    if threshold is None:
        return Fraction(0)
    dice = combat_data().sudden_death.dice
    return sum(
        (p for total, p in sum_distribution(dice).items() if total >= threshold), Fraction(0)
    )
