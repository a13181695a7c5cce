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


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of ``successes`` in ``trials``; the
    whole 0..1 when there are no trials. ``successes`` may be fractional (a draw
    counted as half a win).

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


def fit_logistic(
    features: Sequence[Sequence[float]], outcomes: Sequence[float], ridge: float = 0.01
) -> list[float]:
    """The coefficients of a logistic model ``P(y=1) = 1 / (1 + exp(-x·b))`` fitted by
    Newton's method (iteratively reweighted least squares), with an L2 penalty of
    ``ridge`` on every coefficient but the first (the intercept, a column of ones the
    caller includes). Outcomes may be fractions (a draw as 0.5). The penalty keeps a
    column that never varies at 0 and a perfectly separated one finite.

    >>> b = fit_logistic([[1, 1], [1, 1], [1, 1], [1, -1], [1, -1], [1, -1]],
    ...                  [1, 1, 0, 0, 0, 1], ridge=0.0)
    >>> [round(x, 3) for x in b]
    [0.0, 0.693]
    """
    import numpy as np

    x = np.asarray(features, dtype=float)
    y = np.asarray(outcomes, dtype=float)
    penalty = np.full(x.shape[1], ridge)
    penalty[0] = 0.0
    beta = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        w = p * (1.0 - p)
        gradient = x.T @ (y - p) - penalty * beta
        hessian = x.T @ (x * w[:, None]) + np.diag(penalty) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return [float(v) for v in beta]


def logit(p: float) -> float:
    """``log(p / (1 - p))``.

    >>> logit(0.5)
    0.0
    """
    return math.log(p / (1.0 - p))
