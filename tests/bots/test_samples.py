"""The search bots' arithmetic on common samples (bots/samples.py)."""

from __future__ import annotations

import math

import pytest

from warbench.bots.samples import mean_value, paired_lead


def test_a_candidate_with_no_values_yet_ranks_lowest() -> None:
    assert mean_value({}) == -math.inf
    assert mean_value({0: 1.0, 3: 0.0}) == 0.5


def test_the_lead_is_counted_on_shared_samples_only_in_standard_errors() -> None:
    better = {0: 1.0, 1: 1.0, 2: 0.0, 3: 1.0, 9: 0.0}
    worse = {0: 0.0, 1: 1.0, 2: 0.0, 3: 0.0, 7: 1.0}
    # Differences on samples 0-3: 1, 0, 0, 1; mean 0.5, sd 0.577, SE 0.289.
    assert paired_lead(better, worse) == pytest.approx(0.5 / (math.sqrt(1 / 3) / 2))


def test_too_few_shared_samples_lead_nowhere_and_a_sure_lead_is_infinite() -> None:
    assert paired_lead({0: 1.0}, {0: 0.0}) == 0.0
    assert paired_lead({0: 1.0, 1: 1.0}, {0: 0.0, 1: 0.0}) == math.inf
    assert paired_lead({0: 0.0, 1: 0.0}, {0: 1.0, 1: 1.0}) == -math.inf
    assert paired_lead({0: 0.5, 1: 0.5}, {0: 0.5, 1: 0.5}) == 0.0
