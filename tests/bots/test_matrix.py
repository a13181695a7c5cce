"""Zero-sum matrix games for bots' sealed choices (issue 9 asks greedy to play MGV's
missile split as a mixed strategy): known games, and the minimax theorem on random ones."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warbench.bots.matrix import draw, solve_zero_sum


def test_matching_pennies_is_fair_and_played_half_and_half() -> None:
    solution = solve_zero_sum([[1, -1], [-1, 1]])
    assert solution.value == pytest.approx(0.0, abs=1e-9)
    assert solution.row == pytest.approx((0.5, 0.5))
    assert solution.column == pytest.approx((0.5, 0.5))


def test_a_saddle_point_is_played_pure() -> None:
    solution = solve_zero_sum([[3, 5], [1, 2]])  # row 0 dominates; column 0 is the reply
    assert solution.value == pytest.approx(3.0)
    assert solution.row == pytest.approx((1.0, 0.0))
    assert solution.column == pytest.approx((1.0, 0.0))


def test_a_dominated_choice_gets_no_weight_in_a_mixed_game() -> None:
    solution = solve_zero_sum([[2, -1], [-1, 1], [-2, -3]])
    assert solution.row[2] == pytest.approx(0.0, abs=1e-9)
    assert solution.value == pytest.approx(1 / 5)
    assert solution.row[:2] == pytest.approx((2 / 5, 3 / 5))


def test_a_row_or_column_game_and_bad_matrices() -> None:
    assert solve_zero_sum([[4, 7, 1]]).value == pytest.approx(1.0)
    for bad in ([], [[]], [[1, 2], [3]], [[float("nan")]], [[float("inf")]]):
        with pytest.raises(ValueError):
            solve_zero_sum(bad)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda m: st.integers(1, 5).flatmap(
            lambda n: st.lists(
                st.lists(st.integers(-9, 9), min_size=n, max_size=n), min_size=m, max_size=m
            )
        )
    )
)
def test_each_strategy_guarantees_the_value_against_every_reply(payoff: list[list[int]]) -> None:
    """The minimax theorem: the row strategy earns at least the value against every column,
    and the column strategy concedes at most the value against every row."""
    solution = solve_zero_sum(payoff)
    columns = range(len(payoff[0]))
    for j in columns:
        earned = sum(p * payoff[i][j] for i, p in enumerate(solution.row))
        assert earned >= solution.value - 1e-6
    for row in payoff:
        conceded = sum(q * row[j] for j, q in enumerate(solution.column))
        assert conceded <= solution.value + 1e-6
    assert sum(solution.row) == pytest.approx(1.0)
    assert sum(solution.column) == pytest.approx(1.0)


def test_draw_follows_the_strategy() -> None:
    rng = random.Random(7)
    counts = [0, 0, 0]
    for _ in range(6000):
        counts[draw((0.5, 0.0, 0.5), rng)] += 1
    assert counts[1] == 0
    assert abs(counts[0] - 3000) < 200
