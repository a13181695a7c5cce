"""Per-figure results kept across actions, each dropped only when an action may alter it.

``State.caches`` holds what is worked out for one version of the state and is
emptied by every change. On a large table most of that work (a figure's
movement candidates, its attacks, its skill rolls) does not depend on what one
action changed, so it is kept here, in ``State.kept``, per figure, together with
the region it depends on: a circle (centre and radius) around the figure, or several
circles (a figure's moves: one around each end it tried).

Changes are not reported by the rules: when a kept result is asked for at a
new version, :meth:`Memo.sync` compares every figure with a snapshot of it
(place, mount, rider, items, flags) and the rest of the state (items, destroyed
features, tasks done) with its own. Then:

- a figure that changed loses all its kept results;
- every kept result one of whose circles meets the old or new base of a figure that
  changed is dropped (sight lines, ranges and end spots lie inside the circle,
  so this holds with figures blocking sight too), except that a figure whose
  flags alone changed (moved, attacked, skilled: read only for the figure
  itself) drops no other figure's results, and a kind kept as depending on
  enemies only (:meth:`Memo.per_figure`'s ``foes_only``) is not dropped for a
  change to a figure of its own figure's side;
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
Region = tuple[float, ...]
"""Circles, each as centre x, centre y, radius, one after another (usually one)."""


FLAGS = slice(3, 6)
"""Where a snapshot holds the figure's flags (moved, attacked, skilled)."""


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


def _flags_only(old: Snapshot | None, new: Snapshot) -> bool:
    """Whether only the flags differ between two snapshots of a figure."""
    return (
        old is not None
        and old[: FLAGS.start] == new[: FLAGS.start]
        and (old[FLAGS.stop :] == new[FLAGS.stop :])
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
        self.foes_only: set[Any] = set()
        """The kinds of :attr:`tables` that a change to a friend never alters."""

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
        clone.foes_only = set(self.foes_only)
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
        # The old and new bases of the figures whose place, mount, rider or items
        # changed, by side (a change of flags alone alters only the figure's own results).
        places: list[tuple[str, Region]] = []
        sides: set[str] = set()
        for fid in changed:
            old = old_snaps.get(fid)
            if _flags_only(old, snaps[fid]):
                continue
            side = state.figs[fid].side
            sides.add(side)
            for snap in (old, snaps[fid]):
                if snap is None:
                    continue
                geo = snap[-1]
                places.append((side, (geo.x, geo.y, geo.base.bounding_radius)))
        gone = set(changed)
        figs = state.figs
        for kind, table in self.tables.items():
            foes_only = kind in self.foes_only
            drop = [
                fid
                for fid, (region, _) in table.items()
                if fid in gone
                or any(
                    _meets(region, px, py, pr)
                    for side, (px, py, pr) in places
                    if not (foes_only and side == figs[fid].side)
                )
            ]
            for fid in drop:
                del table[fid]
        for key in [k for k, (deps, _) in self.sides.items() if deps & sides]:
            del self.sides[key]

    def per_figure(
        self, kind: Any, fig: Fig, make: Callable[[], tuple[Region, T]], foes_only: bool = False
    ) -> T:
        """The kept ``kind`` result of ``fig``, or ``make()`` (its region and the result).

        ``foes_only``: the result depends on no figure of ``fig``'s side but ``fig``
        itself (whose own change always drops it), so their changes keep it."""
        if foes_only:
            self.foes_only.add(kind)
        table = self.tables.setdefault(kind, {})
        found = table.get(fig.id)
        if found is None:
            found = make()
            table[fig.id] = found
        value: T = found[1]
        return value

    def kept(self, kind: Any, fig: Fig) -> Any | None:
        """The kept ``kind`` result of ``fig``, or None if there is none."""
        found = self.tables.get(kind, {}).get(fig.id)
        return None if found is None else found[1]

    def keep(self, kind: Any, fig: Fig, region: Region, value: Any, foes_only: bool) -> None:
        """Keep ``value`` as ``fig``'s ``kind`` result, depending on ``region`` (and, with
        ``foes_only``, on no figure of ``fig``'s side but ``fig``: see :meth:`per_figure`)."""
        if foes_only:
            self.foes_only.add(kind)
        self.tables.setdefault(kind, {})[fig.id] = (region, value)

    def per_side(self, key: Any, depends: frozenset[str], make: Callable[[], T]) -> T:
        """A kept result that a change to a figure of any side in ``depends`` drops."""
        found = self.sides.get(key)
        if found is None:
            found = (depends, make())
            self.sides[key] = found
        value: T = found[1]
        return value


def _meets(region: Region, px: float, py: float, pr: float) -> bool:
    """Whether a circle of the region meets the circle (px, py, pr)."""
    for k in range(0, len(region), 3):
        if math.hypot(region[k] - px, region[k + 1] - py) <= region[k + 2] + pr:
            return True
    return False


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
