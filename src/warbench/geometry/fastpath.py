"""Least-cost reach over dense integer hex indices: the simulation hot path.

The same search as :func:`warbench.geometry.hexgrid.reachable`, but on small
integers instead of :class:`Hex` values, with a bucket queue (costs are small
whole numbers) and byte masks for blocked hexes and stops. Written in the
subset of Python that mypyc compiles, so it can be built as a C extension;
uncompiled it is still correct, only slower.

>>> adj = [[(1, 1)], [(0, 1), (2, 2)], [(1, 2)]]
>>> reach_indexed(0, 3, adj, bytes(3), bytes(3)) == {0: 0, 1: 1, 2: 3}
True
>>> reach_indexed(0, 3, adj, bytes(3), bytes([0, 1, 0])) == {0: 0, 1: 1}
True
"""

from __future__ import annotations


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
