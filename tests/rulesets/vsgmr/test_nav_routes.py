"""The cheaper ``np.unique`` of sorted values (:func:`nav._runs`) that a mesh's clearance
tests use gives what ``np.unique`` gives."""

from __future__ import annotations

import numpy as np

from warbench.rulesets.vsgmr.nav import _runs


def test_runs_is_unique_of_sorted_values() -> None:
    rng = np.random.default_rng(3)
    for n in (1, 2, 7, 60, 400):
        for _ in range(50):
            values = np.sort(rng.integers(0, 25, n)).astype(np.intp)
            want, want_which = np.unique(values, return_inverse=True)
            got, which = _runs(values)
            assert got.tolist() == want.tolist()
            assert which.tolist() == want_which.tolist()
