"""The odds as a small table for a board (``odds_table``): a column per outcome, a row for
the attack and one per group of side effects with every outcome (V.E.G.'s spillover on each
other unit in the hex), other side effects as notes."""

from __future__ import annotations

from fractions import Fraction

from warbench.core.odds import OddsResult, odds_table


def test_spillover_rows_and_notes() -> None:
    result = OddsResult(
        {"destroy": Fraction(13, 18), "wound": Fraction(1, 9), "none": Fraction(1, 6)},
        {
            "spillover on BV1 destroy": Fraction(5, 18),
            "spillover on BV1 wound": Fraction(5, 36),
            "spillover on BV1 none": Fraction(7, 12),
            "attacker_disrupted": Fraction(1, 6),
        },
    )
    table = odds_table(result)
    assert table == {
        "columns": ["", "destroy", "wound", "none"],
        "rows": [
            ["the attack", "72.2%", "11.1%", "16.7%"],
            ["spillover on BV1", "27.8%", "13.9%", "58.3%"],
        ],
        "notes": ["attacker disrupted: 16.7%"],
    }


def test_a_single_outcome_is_no_table() -> None:
    assert odds_table(OddsResult({"done": Fraction(1)})) is None
