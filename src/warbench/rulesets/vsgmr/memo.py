"""Per-figure results kept across actions, each dropped only when an action may alter it.

``State.caches`` holds what is worked out for one version of the state and is
emptied by every change. On a large table most of that work (a figure's
movement candidates, its attacks, its skill rolls) does not depend on what one
action changed, so it is kept here, in ``State.kept``, per figure, together with
the region it depends on: a circle (centre and radius) around the figure.

Changes are not reported by the rules: when a kept result is asked for at a
new version, :meth:`Memo.sync` compares every figure with a snapshot of it
(place, mount, rider, items, flags) and the rest of the state (items, destroyed
features, tasks done) with its own. Then:

- a figure that changed loses all its kept results;
- every kept result whose circle meets the old or new base of a figure that
  changed is dropped (sight lines, ranges and end spots lie inside the circle,
  so this holds with figures blocking sight too);
- a change to the items, the destroyed features or the tasks done, or to very
  many figures at once (a new round), drops everything.

So a kept result is always the one a fresh computation would give; the tests
in ``tests/rulesets/vsgmr/test_kept.py`` check it after every action of
random games.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from warbench.rulesets.vsgmr.state import Fig, State

T = TypeVar("T")

MANY = 48
"""More figures than this changed at once: forget everything (cheaper than checking)."""

Snapshot = tuple[Any, ...]
Region = tuple[float, float, float]
"""A circle: centre x, centre y, radius."""


def _snapshot(state: State, fig: Fig) -> Snapshot:
    body = state.figs[fig.mount].geo if fig.where == "mounted" and fig.mount else fig.geo
    return (
        fig.where,
        fig.mount,
        fig.rider,
        fig.moved,
        fig.attacked,
        fig.skilled,
        tuple(fig.items),
        fig.geo,
        body,
    )


def _world(state: State) -> Snapshot:
    return (
        frozenset(state.destroyed),
        frozenset(state.tasks_done),
        tuple((i.id, i.at, i.carrier, i.locked, i.gone) for i in state.items.values()),
    )


class Memo:
    """The kept results of one state, and the snapshots they were checked against."""

    def __init__(self) -> None:
        self.version = -1
        self.world: Snapshot | None = None
        self.snaps: dict[str, Snapshot] = {}
        self.tables: dict[Any, dict[str, tuple[Region, Any]]] = {}
        self.sides: dict[Any, tuple[frozenset[str], Any]] = {}
        """Results per side (or other key) with the sides whose change drops them."""

    def clear(self) -> None:
        self.tables.clear()
        self.sides.clear()

    def copy(self) -> Memo:
        """The kept results for a copy of the state (``VSGMR.copy_state``): the tables are
        copied, their results shared (they are never changed in place, only dropped)."""
        clone = Memo()
        clone.version = self.version
        clone.world = self.world
        clone.snaps = dict(self.snaps)
        clone.tables = {kind: dict(table) for kind, table in self.tables.items()}
        clone.sides = dict(self.sides)
        return clone

    def sync(self, state: State) -> None:
        """Bring the kept results up to the state's version (see the module docstring)."""
        if self.version == state.version:
            return
        self.version = state.version
        world = _world(state)
        snaps = {fid: _snapshot(state, f) for fid, f in state.figs.items()}
        if world != self.world:
            self.world = world
            self.snaps = snaps
            self.clear()
            return
        old_snaps = self.snaps
        self.snaps = snaps
        changed = [fid for fid, s in snaps.items() if old_snaps.get(fid) != s]
        if not changed:
            return
        if len(changed) > MANY:
            self.clear()
            return
        places: list[Region] = []
        sides: set[str] = set()
        for fid in changed:
            sides.add(state.figs[fid].side)
            for snap in (old_snaps.get(fid), snaps[fid]):
                if snap is None:
                    continue
                geo = snap[-1]
                places.append((geo.x, geo.y, geo.base.bounding_radius))
        gone = set(changed)
        for table in self.tables.values():
            drop = [
                fid
                for fid, ((x, y, r), _) in table.items()
                if fid in gone or any(math.hypot(x - px, y - py) <= r + pr for px, py, pr in places)
            ]
            for fid in drop:
                del table[fid]
        for key in [k for k, (deps, _) in self.sides.items() if deps & sides]:
            del self.sides[key]

    def per_figure(self, kind: Any, fig: Fig, make: Callable[[], tuple[Region, T]]) -> T:
        """The kept ``kind`` result of ``fig``, or ``make()`` (its region and the result)."""
        table = self.tables.setdefault(kind, {})
        found = table.get(fig.id)
        if found is None:
            found = make()
            table[fig.id] = found
        value: T = found[1]
        return value

    def per_side(self, key: Any, depends: frozenset[str], make: Callable[[], T]) -> T:
        """A kept result that a change to a figure of any side in ``depends`` drops."""
        found = self.sides.get(key)
        if found is None:
            found = (depends, make())
            self.sides[key] = found
        value: T = found[1]
        return value


def memo(state: State) -> Memo:
    """The state's kept results, brought up to its version."""
    found: Memo | None = state.kept.get("memo")
    if found is None:
        found = Memo()
        state.kept["memo"] = found
    found.sync(state)
    return found


def widest(state: State) -> float:
    """The largest bounding radius of any figure of the set-up (bases never change)."""
    key = "widest_base"
    cache = state.setup.caches
    found: float | None = cache.get(key)
    if found is None:
        found = max((p.figure.base.bounding_radius for p in state.setup.placements), default=0.0)
        cache[key] = found
    return found
