"""Small two-player zero-sum games, solved for bots by linear programming (scipy).

A sealed simultaneous choice (MGV's missile dice split, where the attacker and
the defender each divide their dice among three colours at once) is such a
game: a fixed choice is exploitable, so a bot plays the mixed strategy of the
game's equilibrium and draws its choice from it with its own seeded stream.

>>> rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
>>> solution = solve_zero_sum(rps)
>>> round(solution.value, 9) + 0.0
0.0
>>> [round(p, 6) for p in solution.row]
[0.333333, 0.333333, 0.333333]
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

MAX_SIZE = 2_000
"""Rows or columns of a game this module solves (a bot's game is far smaller)."""


@dataclass(frozen=True, slots=True)
class MatrixSolution:
    """The value of the game to the row player, and both players' equilibrium strategies.

    The row player (who maximises the payoff) can guarantee ``value`` with
    ``row``; the column player (who minimises it) can hold it to ``value``
    with ``column``.
    """

    value: float
    row: tuple[float, ...]
    column: tuple[float, ...]


def solve_zero_sum(payoff: Sequence[Sequence[float]]) -> MatrixSolution:
    """Solve the zero-sum game whose payoffs to the row player are ``payoff[i][j]``.

    Raises ValueError for an empty, ragged, too large or non-finite matrix.
    """
    matrix = _matrix(payoff)
    value, row, column = _maximin(matrix)
    if column is None:  # pragma: no cover - HiGHS reports the duals
        minus_value, column, _ = _maximin(-matrix.T)
        if not math.isclose(value, -minus_value, rel_tol=1e-6, abs_tol=1e-6):
            raise ValueError(f"the two linear programs disagree ({value} vs {-minus_value})")
    return MatrixSolution(value, row, column)


def _maximin(
    matrix: np.ndarray,
) -> tuple[float, tuple[float, ...], tuple[float, ...] | None]:
    """The row player's best guarantee, a strategy reaching it, and the column player's.

    Variables: the strategy x (m of them, at least 0) and the value v (free);
    maximise v such that every column j pays at least v: v - x . A[:, j] <= 0.
    The duals of those constraints, normalised, are an optimal strategy of the
    column player (LP duality), so one program solves the game.
    """
    # scipy.optimize costs a fifth of a second to import: only a game that is solved pays it
    from scipy.optimize import linprog

    rows, columns = matrix.shape
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    bound_by_columns = np.hstack([-matrix.T, np.ones((columns, 1))])
    sums_to_one = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    result = linprog(
        cost,
        A_ub=bound_by_columns,
        b_ub=np.zeros(columns),
        A_eq=sums_to_one,
        b_eq=np.ones(1),
        bounds=[(0.0, None)] * rows + [(None, None)],
        method="highs",
    )
    if not result.success:  # pragma: no cover - a finite matrix game always has a solution
        raise ValueError(f"the matrix game could not be solved: {result.message}")
    strategy = np.clip(result.x[:rows], 0.0, None)
    strategy = strategy / strategy.sum()
    duals = getattr(getattr(result, "ineqlin", None), "marginals", None)
    column = None
    if duals is not None:
        weights = np.clip(-np.asarray(duals, dtype=float), 0.0, None)
        if weights.sum() > 1e-9:
            column = tuple(float(p) for p in weights / weights.sum())
    return float(result.x[-1]), tuple(float(p) for p in strategy), column


def _matrix(payoff: Sequence[Sequence[float]]) -> np.ndarray:
    rows = [list(row) for row in payoff]
    if not rows or not rows[0]:
        raise ValueError("a matrix game needs at least one row and one column")
    if any(len(row) != len(rows[0]) for row in rows):
        raise ValueError("every row of a matrix game has the same number of columns")
    if len(rows) > MAX_SIZE or len(rows[0]) > MAX_SIZE:
        raise ValueError(f"a matrix game here has at most {MAX_SIZE} rows and columns")
    matrix = np.array(rows, dtype=float)
    if not np.isfinite(matrix).all():
        raise ValueError("a matrix game's payoffs are finite numbers")
    return matrix


def draw(strategy: Sequence[float], rng: random.Random) -> int:
    """An index drawn with the probabilities of ``strategy``, from the bot's own stream.

    >>> draw((0.0, 1.0, 0.0), random.Random(1))
    1
    """
    pick = rng.random()
    total = 0.0
    for index, probability in enumerate(strategy):
        total += probability
        if pick < total:
            return index
    return max(range(len(strategy)), key=lambda i: strategy[i])  # rounding left a sliver
