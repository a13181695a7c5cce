"""Least-cost reach over dense integer hex indices: the simulation hot path.

The same search as :func:`warbench.geometry.hexgrid.reachable`, but on small
integers instead of :class:`Hex` values, with a bucket queue (costs are small
whole numbers) and byte masks for blocked hexes and stops.

:class:`Adjacency` holds a movement table in both forms; :meth:`Adjacency.reach`
runs the C kernel (``_reach.c``, built by ``setup.py`` where a compiler is
present) or, failing that, :func:`reach_indexed` in Python. Both give the
same answers (``tests/geometry/test_fastpath.py``).

>>> adj = [[(1, 1)], [(0, 1), (2, 2)], [(1, 2)]]
>>> reach_indexed(0, 3, adj, bytes(3), bytes(3)) == {0: 0, 1: 1, 2: 3}
True
>>> reach_indexed(0, 3, adj, bytes(3), bytes([0, 1, 0])) == {0: 0, 1: 1}
True
"""

from __future__ import annotations

import importlib
from array import array
from types import ModuleType

_kernel: ModuleType | None
try:
    _kernel = importlib.import_module("warbench.geometry._reach")
except ImportError:  # no C compiler at install time: the Python search serves
    _kernel = None


def reach_indexed(
    start: int,
    budget: int,
    adjacency: list[list[tuple[int, int]]],
    blocked: bytes,
    stops: bytes,
) -> dict[int, int]:
    """Every index reachable from ``start`` within ``budget`` -> least cost.

    ``adjacency[i]`` lists ``(j, cost)`` for each hex ``j`` that may be entered
    from ``i``; costs are whole numbers >= 1. ``blocked[j]`` non-zero: never
    entered. ``stops[j]`` non-zero: entered but not left (``start`` excepted).
    """
    limit = budget + 1
    best: list[int] = [limit] * len(adjacency)
    best[start] = 0
    reached: list[int] = [start]
    buckets: list[list[int]] = [[] for _ in range(limit)]
    buckets[0].append(start)
    for cost in range(limit):
        bucket = buckets[cost]
        k = 0
        while k < len(bucket):
            here = bucket[k]
            k += 1
            if best[here] != cost or (here != start and stops[here]):
                continue  # a stale entry, or a zone of control: no further
            for there, step in adjacency[here]:
                total = cost + step
                if total < best[there] and not blocked[there]:
                    if best[there] == limit:
                        reached.append(there)
                    best[there] = total
                    buckets[total].append(there)
    return {i: best[i] for i in reached}


class Adjacency:
    """A movement table: for each hex index, ``(neighbour index, cost)`` pairs.

    >>> table = Adjacency([[(1, 1)], [(0, 1), (2, 2)], [(1, 2)]])
    >>> table.reach(0, 3, bytes(3), bytes(3)) == {0: 0, 1: 1, 2: 3}
    True
    """

    __slots__ = ("_costs", "_degree", "_targets", "steps")

    def __init__(self, steps: list[list[tuple[int, int]]]) -> None:
        self.steps = steps
        self._degree = max((len(s) for s in steps), default=0) or 1
        targets = array("i", [-1]) * (len(steps) * self._degree)
        costs = array("i", [0]) * (len(steps) * self._degree)
        for i, row in enumerate(steps):
            for e, (j, cost) in enumerate(row):
                if cost < 0:
                    raise ValueError(f"negative step cost {cost} from {i} to {j}")
                targets[i * self._degree + e] = j
                costs[i * self._degree + e] = cost
        self._targets = targets
        self._costs = costs

    def __len__(self) -> int:
        return len(self.steps)

    def reach(
        self, start: int, budget: int, blocked: bytes, stops: bytes, *, native: bool = True
    ) -> dict[int, int]:
        """:func:`reach_indexed` on this table, in C when the kernel is built."""
        if native and _kernel is not None:
            found: dict[int, int] = _kernel.reach(
                start, budget, self._degree, self._targets, self._costs, blocked, stops
            )
            return found
        return reach_indexed(start, budget, self.steps, blocked, stops)


def native_kernel() -> bool:
    """Whether the C kernel was built and is in use."""
    return _kernel is not None
