"""Fixtures of the table-geometry tests: a table, and the turning tables of the texts.

The turning tables are test data taken from the rules texts (MGV 4.0 and
Invisible Enemy 4.2); the rulesets that own them do not exist yet.
"""

from __future__ import annotations

import pytest

from warbench.geometry.table import Table, TurnBand, TurningTable


@pytest.fixture
def table() -> Table:
    """The standard 6' x 4' table (VSGMR I: a table of roughly 4 by 6 feet)."""
    return Table(72, 48)


@pytest.fixture
def mgv_turning() -> TurningTable:
    """MGV 4.0: each 45 degrees of facing change, or part of it, costs 1/2"."""
    return TurningTable.from_pairs([(45, 0.5), (90, 1.0), (135, 1.5), (180, 2.0)])


@pytest.fixture
def ie_turning() -> TurningTable:
    """Invisible Enemy 4.2: under 45 degrees free, 45-90 costs 1", 91-180 costs 2"."""
    return TurningTable((TurnBand(45, 0.0, inclusive=False), TurnBand(90, 1.0), TurnBand(180, 2.0)))
