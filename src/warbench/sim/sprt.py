"""A sequential test for paired games: the pentanomial generalised SPRT of chess testing.

Bot strength is measured as chess engines measure it (Fishtest): games come in
pairs, the same seed twice with the seats swapped, so the luck of the dice and
the seat cancels within a pair. A pair scores 0, 1/2, 1, 3/2 or 2 points for the
tested bot (a win 1, a draw 1/2); the five counts are the *pentanomial*. The test
weighs H0 (the bot's expected score per game is ``p0``) against H1 (``p1``) with
the generalised log-likelihood ratio: the pairs' log-likelihood under the likeliest
pentanomial whose mean is ``p1``, less that under the likeliest whose mean is ``p0``
(the maximum-likelihood GSPRT of Fishtest, which stays sane with few pairs where
the normal approximation ``n (p1 - p0) (2 m - p0 - p1) / (2 v)`` does not). It
stops when the LLR leaves ``[log(beta / (1 - alpha)),
log((1 - beta) / alpha)]``: above, H1 is accepted; below, H0. In between nothing
is decided, and a ladder that runs out of budget says so.

>>> test = Sprt()
>>> round(test.lower, 3), round(test.upper, 3)
(-2.944, 2.944)
>>> test.verdict(Pentanomial((0, 0, 0, 0, 20)))
'H1'
>>> test.verdict(Pentanomial((0, 2, 4, 2, 0))) is None
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Literal

PAIR_POINTS: Final = (0.0, 0.5, 1.0, 1.5, 2.0)
"""What a pair can score for the tested bot, the pentanomial's five classes."""
PRIOR: Final = 1e-3
"""A pseudo-count added to each class when the variance is taken (as Fishtest does), so
a run of identical pairs has a small variance rather than none."""

Verdict = Literal["H0", "H1"]


@dataclass(frozen=True, slots=True)
class Pentanomial:
    """How many pairs scored 0, 1/2, 1, 3/2 and 2 points for the tested bot."""

    counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    def add(self, points: float) -> Pentanomial:
        """These counts with one more pair of ``points`` (0, 0.5, 1, 1.5 or 2)."""
        doubled = points * 2
        index = round(doubled)
        if abs(doubled - index) > 1e-9 or not 0 <= index <= 4:
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {points!r}")
        counts = list(self.counts)
        counts[index] += 1
        return Pentanomial((counts[0], counts[1], counts[2], counts[3], counts[4]))

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def score(self) -> float:
        """The tested bot's mean score per game (0.5 before any pair)."""
        if not self.pairs:
            return 0.5
        return sum(c * p for c, p in zip(self.counts, PAIR_POINTS, strict=True)) / (2 * self.pairs)

    def variance(self) -> float:
        """The variance of a pair's mean score (points / 2), with :data:`PRIOR` added."""
        weights = [c + PRIOR for c in self.counts]
        total = sum(weights)
        values = [p / 2 for p in PAIR_POINTS]
        mean = sum(w * x for w, x in zip(weights, values, strict=True)) / total
        return sum(w * (x - mean) ** 2 for w, x in zip(weights, values, strict=True)) / total

    def standard_error(self) -> float:
        """The standard error of :attr:`score`."""
        return math.sqrt(self.variance() / self.pairs) if self.pairs else math.inf


@dataclass(frozen=True, slots=True)
class Sprt:
    """The test: H0 score ``p0`` against H1 ``p1``, error rates ``alpha`` and ``beta``."""

    p0: float = 0.5
    p1: float = 0.6
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, penta: Pentanomial) -> float:
        """The generalised log-likelihood ratio of H1 against H0 after these pairs: the
        pairs' log-likelihood under the likeliest pentanomial of mean ``p1`` less that
        under the likeliest of mean ``p0`` (each found as in :func:`_constrained`)."""
        if not penta.pairs:
            return 0.0
        weights = [c + PRIOR for c in penta.counts]
        total = sum(weights)
        freqs = [w / total for w in weights]
        values = [p / 2 for p in PAIR_POINTS]
        one = _constrained(freqs, values, self.p1)
        zero = _constrained(freqs, values, self.p0)
        return penta.pairs * sum(
            f * (math.log(a) - math.log(b)) for f, a, b in zip(freqs, one, zero, strict=True)
        )

    def normal_llr(self, penta: Pentanomial) -> float:
        """The normal approximation, n (p1 - p0) (2 m - p0 - p1) / (2 v): close to
        :meth:`llr` once the pairs are many, degenerate while they are few."""
        spread = self.p1 - self.p0
        return penta.pairs * spread * (2 * penta.score - self.p0 - self.p1) / (2 * penta.variance())

    def verdict(self, penta: Pentanomial) -> Verdict | None:
        """``"H1"`` or ``"H0"`` once the LLR leaves the bounds, else None (not decided)."""
        value = self.llr(penta)
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None


def _constrained(freqs: list[float], values: list[float], mean: float) -> list[float]:
    """The distribution over ``values`` of mean ``mean`` likeliest for observed ``freqs``
    (all positive): p_i = f_i / (1 + l (x_i - mean)), l the root of
    sum f_i (x_i - mean) / (1 + l (x_i - mean)) = 0, found by bisection."""
    shifts = [x - mean for x in values]
    top, bottom = max(shifts), min(shifts)
    if top <= 0 or bottom >= 0:
        raise ValueError(f"a mean of {mean} lies outside the scores {values}")
    lo, hi = -1 / top, -1 / bottom  # where every 1 + l (x_i - mean) stays positive
    lo, hi = lo + 1e-12 * (hi - lo), hi - 1e-12 * (hi - lo)
    for _ in range(200):
        mid = (lo + hi) / 2
        slope = sum(f * d / (1 + mid * d) for f, d in zip(freqs, shifts, strict=True))
        if slope > 0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2
    return [f / (1 + lam * d) for f, d in zip(freqs, shifts, strict=True)]


__all__ = ["PAIR_POINTS", "Pentanomial", "Sprt", "Verdict"]
