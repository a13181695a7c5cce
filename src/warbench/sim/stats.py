"""Small statistics for batches of games: Wilson score intervals and percentiles."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True, slots=True)
class Share:
    """A proportion with its Wilson 95% interval (``low`` .. ``high``)."""

    count: int
    trials: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.count / self.trials if self.trials else 0.0

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_json(self) -> dict[str, float | int]:
        return {
            "count": self.count,
            "trials": self.trials,
            "rate": self.rate,
            "low": self.low,
            "high": self.high,
        }


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of ``successes`` in ``trials``; the
    whole 0..1 when there are no trials.

    >>> [round(x, 3) for x in wilson(6, 10)]
    [0.313, 0.832]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    low = 0.0 if successes == 0 else max(0.0, (centre - spread) / scale)
    high = 1.0 if successes == trials else min(1.0, (centre + spread) / scale)
    return low, high


def share(successes: int, trials: int) -> Share:
    """``successes`` of ``trials`` with its Wilson 95% interval."""
    low, high = wilson(successes, trials)
    return Share(successes, trials, low, high)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) of ``values``, linearly interpolated (numpy's
    default method).

    >>> percentile([1, 2, 3, 4], 50)
    2.5
    """
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    at = (len(ordered) - 1) * q / 100
    lo = math.floor(at)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (at - lo)


SPREAD = (0, 5, 25, 50, 75, 95, 100)
"""The percentiles a length distribution reports (0 and 100: the least and the most)."""


def spread(values: Sequence[float]) -> dict[str, float]:
    """``min``, ``p5`` .. ``p95``, ``max`` and ``mean`` of ``values`` (all 0 if none)."""
    if not values:
        return dict.fromkeys(["min", "p5", "p25", "p50", "p75", "p95", "max", "mean"], 0.0)
    out: dict[str, float] = {}
    for q in SPREAD:
        key = "min" if q == 0 else "max" if q == 100 else f"p{q}"
        out[key] = percentile(values, q)
    out["mean"] = sum(values) / len(values)
    return out
