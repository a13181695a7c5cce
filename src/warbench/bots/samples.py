"""Candidates valued on common samples (the search bots' shared arithmetic).

A candidate's values are kept by sample number: sample ``k`` is one seed, met by
every candidate still in, so two candidates are compared on the same luck.
"""

from __future__ import annotations

import math
from collections.abc import Mapping


def mean_value(values: Mapping[int, float]) -> float:
    """The mean of a candidate's sample values (none yet: the lowest)."""
    return sum(values.values()) / len(values) if values else -math.inf


def paired_lead(better: Mapping[int, float], worse: Mapping[int, float]) -> float:
    """How many standard errors ``better`` leads ``worse`` by on their shared samples
    (0 with fewer than two; infinite when every shared sample differs the same way)."""
    diffs = [better[k] - worse[k] for k in better if k in worse]
    if len(diffs) < 2:
        return 0.0
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    if var == 0.0:
        return math.inf if mean > 0 else (-math.inf if mean < 0 else 0.0)
    return mean / math.sqrt(var / len(diffs))


__all__ = ["mean_value", "paired_lead"]
