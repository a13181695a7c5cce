"""Where a unit may go on one leg of its movement, and by which path.

A unit spends its MOV in legs (``move U HEX``, several per phase). Each leg
goes to any hex the unit can reach with the MP it has left, along the path
the engine picks: the fewest hazard hexes entered, then the most MP left,
then the most regular MP left (they may still earn road bonus points). A
player who wants another path moves in shorter legs.

Two searches give the same answers where both apply:

- the least-cost C kernel (:mod:`warbench.geometry.fastpath`) when no hazard
  and no road bonus can be met on this leg, which is most moves;
- a search over (hex, regular MP, bonus MP, road MP toward the next bonus)
  with the hazard count as the cost to minimise, otherwise. Road steps pay
  from regular MP first (they count toward the bonus; bonus MP never do) and
  other steps from bonus MP first, the order a player would choose.
"""

from __future__ import annotations

from dataclasses import dataclass

from warbench.geometry.hexgrid import Hex
from warbench.rulesets.cgme.board import Board

Key = tuple[int, int, int, int]
"""A search state: (hex index, regular MP, bonus MP, road MP toward the next bonus)."""


@dataclass(slots=True)
class Reach:
    """One leg's destinations: for each hex index, hazards entered and the state on arrival."""

    start: Key
    ends: dict[int, tuple[int, Key]]
    prev: dict[Key, Key] | None
    """Predecessor of each search state; None when no hazard can lie on any path."""
    dests: tuple[int, ...] = ()
    """The destination indices in index order (the order moves are listed in)."""
    dest_hexes: tuple[Hex, ...] | None = None
    """The same as hexes, filled in by the first caller that needs them."""

    def __post_init__(self) -> None:
        self.dests = tuple(sorted(self.ends))

    def path(self, dest: int) -> list[int]:
        """Hex indices from the start to ``dest`` (start and ``dest`` included)."""
        key = self.ends[dest][1]
        if self.prev is None:
            return [self.start[0], dest]
        out = [key[0]]
        while key != self.start:
            key = self.prev[key]
            out.append(key[0])
        out.reverse()
        return out


def pay(cost: int, road: bool, r: int, b: int, k: int, every: int) -> Key | None:
    """Resources after paying ``cost`` MP: (0, regular, bonus, road count); None if short.

    >>> pay(1, True, 3, 0, 2, 3)   # the third MP along the road earns a bonus point
    (0, 2, 1, 0)
    >>> pay(1, False, 2, 1, 0, 3)  # off the road the bonus point goes first
    (0, 2, 0, 0)
    """
    if cost > r + b:
        return None
    if road and every:
        regular = min(cost, r)
        r -= regular
        b -= cost - regular
        k += regular
        if k >= every:
            b += k // every
            k %= every
    else:
        spent = min(cost, b)
        b -= spent
        r -= cost - spent
    return (0, r, b, k)


def search(
    board: Board,
    move_class: str,
    road_only: bool,
    start: int,
    r: int,
    b: int,
    k: int,
    every: int,
    blocked: bytes,
) -> Reach:
    """Every hex one leg may end in from ``start`` with these resources."""
    budget = r + b
    steps = board.road_steps[move_class] if road_only else board.steps[move_class]
    start_key = (start, r, b, k)
    no_hazard = board.to_hazard[start] > budget
    no_bonus = every == 0 or r + k < every or board.to_road[start] > budget
    if no_hazard and no_bonus:
        costs = board.adjacency[(move_class, road_only)].reach(start, budget, blocked, board.empty)
        ends: dict[int, tuple[int, Key]] = {}
        for j, cost in costs.items():
            if j != start:
                spent = min(cost, b)
                ends[j] = (0, (j, r - (cost - spent), b - spent, k))
        return Reach(start_key, ends, None)
    hazard = board.hazard_flag
    best: dict[Key, int] = {start_key: 0}
    prev: dict[Key, Key] = {}
    frontier = [start_key]
    while frontier:
        nxt: list[Key] = []
        for key in frontier:
            here, kr, kb, kk = key
            hz = best[key]
            for j, cost, road in steps[here]:
                if blocked[j] or cost > kr + kb:
                    continue
                # pay() inlined: this loop is the hot path of a simulation.
                if road and every:
                    regular = cost if cost < kr else kr
                    nk = kk + regular
                    nb = kb - (cost - regular)
                    if nk >= every:
                        nb += nk // every
                        nk %= every
                    new = (j, kr - regular, nb, nk)
                else:
                    spent = cost if cost < kb else kb
                    new = (j, kr - (cost - spent), kb - spent, kk)
                total = hz + hazard[j]
                old = best.get(new)
                if old is None or total < old:
                    best[new] = total
                    prev[new] = key
                    nxt.append(new)
        frontier = nxt
    chosen: dict[int, tuple[int, Key]] = {}
    for key, hz in best.items():
        j = key[0]
        if j == start:
            continue
        have = chosen.get(j)
        if have is None or _better(hz, key, have[0], have[1]):
            chosen[j] = (hz, key)
    return Reach(start_key, chosen, prev)


def _better(hz: int, key: Key, old_hz: int, old: Key) -> bool:
    """Fewest hazards, then most MP left, then most regular MP, then most road MP."""
    mine = (hz, -(key[1] + key[2]), -key[1], -key[3])
    theirs = (old_hz, -(old[1] + old[2]), -old[1], -old[3])
    return mine < theirs
