"""MGV hulls, hit logs and the placement of hits (1.5, 4.0, "5.2 Applying Damage").

Pure bookkeeping: no game state, no dice, no data files. The hull counts, the
speed track, the cost of a P hit and the defence step come in as arguments
(they live in ``data/vehicles.toml``); the only numbers here are the text's own
placement limits (six unmarked surface circles, the far side beyond 90 degrees).
``docs/rules/mgv.md`` ("5.2 Applying Damage", "The placement rules, numbered")
fixes the readings this module implements; the rule numbers 1-7 below are its.

A *layout* places a hull's circles: surface ``s1..``, core ``c1..``, heart
``h1..``, each layer evenly round the hull, angles counter-clockwise from the
vehicle's front. A *log* is the set of marked circles with the kind each counts
as (S, P, B). A *group* is one attack's hits on one target; the target's owner
places it, and :func:`check_placement` says whether a placement obeys the rules.

>>> layout = HullLayout.of(8, 3, 1)
>>> log = HitLog()
>>> shot = HitGroup.direct("kinetic", 3, bearing=0.0)
>>> default_placement(layout, log, shot)
('s1', 's2', 's3')
>>> check_placement(layout, log, shot, ("s1", "s5", "s8"))
's5 is on the far side from the attacker'
>>> describe(apply_placement(log, shot, ("s1", "s2", "s3")), layout)
'S 3/8, P 0/3, B 0/1'
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, Literal, cast

Layer = Literal["surface", "core", "heart"]
Kind = Literal["S", "P", "B"]
Weapon = Literal["kinetic", "photon", "missile"]
CoreRule = Literal["a", "b"]

LAYERS: tuple[Layer, ...] = ("surface", "core", "heart")
PREFIXES: dict[Layer, str] = {"surface": "s", "core": "c", "heart": "h"}
KINDS: tuple[Kind, ...] = ("S", "P", "B")
WEAPONS: tuple[Weapon, ...] = ("kinetic", "photon", "missile")

OUTSIDE_IN = 6
"""Hits go below the surface only once this many or fewer surface circles are
unmarked ("5.2 Applying Damage", outside-in)."""

FAR_SIDE = 90.0
"""A circle more than this many degrees from the attacker's bearing is on the far
side, where kinetic and photon hits may not go ("5.2 Applying Damage")."""

_HAIR = 1e-9
_ID = re.compile(r"([sch])([1-9][0-9]*)")
_LAYER_OF_PREFIX: dict[str, Layer] = {"s": "surface", "c": "core", "h": "heart"}
_KINDS_ON: dict[Layer, tuple[Kind, ...]] = {
    "surface": ("S", "P"),
    "core": ("P",),
    "heart": ("B",),
}


# --------------------------------------------------------------------------- layout


@dataclass(frozen=True, slots=True)
class Circle:
    """One circle of a hull.

    ``angle`` is the circle's direction from the hull's centre, degrees
    counter-clockwise from the front (``None`` for a lone heart circle, which
    sits at the centre). ``sector`` is the arc it owns, ``(start, end)`` with
    ``end - start = 360 / n`` centred on the angle (``start`` may be negative:
    ``s1`` of eight owns ``(-22.5, 22.5)``); ``None`` at the centre.
    ``adjoins``: the circles of the layer just outside that this one adjoins
    (empty for surface circles); ``inner``: the circles of the layer just inside
    that adjoin this one; ``neighbours``: its ring neighbours in its own layer.
    """

    id: str
    layer: Layer
    index: int
    angle: float | None
    sector: tuple[float, float] | None
    adjoins: tuple[str, ...]
    inner: tuple[str, ...]
    neighbours: tuple[str, ...]


_Arc = tuple[Fraction, Fraction] | None


def _arcs(count: int, layer: Layer) -> list[_Arc]:
    """Exact sectors of a layer; a lone interior circle is the centre (``None``)."""
    if layer == "heart" or (count == 1 and layer != "surface"):
        return [None] * count
    width = Fraction(360, count)
    return [((i * width) - width / 2, (i * width) + width / 2) for i in range(count)]


def _overlap(a: _Arc, b: _Arc) -> Fraction:
    """Length of arc shared by two sectors (a centre circle shares everything)."""
    if a is None or b is None:
        return Fraction(360)
    shared = Fraction(0)
    for turn in (-360, 0, 360):
        lo, hi = max(a[0], b[0] + turn), min(a[1], b[1] + turn)
        if hi > lo:
            shared += hi - lo
    return shared


def _ring(count: int, index: int) -> tuple[int, ...]:
    """Ring neighbours (1-based) of circle ``index`` among ``count``."""
    if count == 1:
        return ()
    if count == 2:
        return (3 - index,)
    return (count if index == 1 else index - 1, 1 if index == count else index + 1)


@cache
def _build(surface: int, core: int, heart: int) -> tuple[Circle, ...]:
    counts = {"surface": surface, "core": core, "heart": heart}
    arcs = {layer: _arcs(counts[layer], layer) for layer in LAYERS}

    def name(layer: Layer, i: int) -> str:
        return f"{PREFIXES[layer]}{i + 1}"

    adjoins: dict[str, list[str]] = {}
    inner: dict[str, list[str]] = {}
    for outer, layer in itertools.pairwise(LAYERS):
        for i, arc in enumerate(arcs[layer]):
            for j, outer_arc in enumerate(arcs[outer]):
                if _overlap(arc, outer_arc) > 0:  # touching at an edge is not adjoining
                    adjoins.setdefault(name(layer, i), []).append(name(outer, j))
                    inner.setdefault(name(outer, j), []).append(name(layer, i))
    circles = []
    for layer in LAYERS:
        n = counts[layer]
        for i, arc in enumerate(arcs[layer]):
            cid = name(layer, i)
            circles.append(
                Circle(
                    id=cid,
                    layer=layer,
                    index=i + 1,
                    angle=None if arc is None else float(i * Fraction(360, n)),
                    sector=None if arc is None else (float(arc[0]), float(arc[1])),
                    adjoins=tuple(adjoins.get(cid, ())),
                    inner=tuple(inner.get(cid, ())),
                    neighbours=tuple(name(layer, k - 1) for k in _ring(n, i + 1)),
                )
            )
    return tuple(circles)


def _angle_between(a: float, b: float) -> float:
    """Smaller angle between two directions, 0..180 degrees."""
    d = (a - b) % 360.0
    return min(d, 360.0 - d)


@dataclass(frozen=True)
class HullLayout:
    """The circles of a hull with ``surface``, ``core`` and ``heart`` circles.

    Circle i of a layer of n sits at ``(i - 1) * 360 / n`` degrees and owns the
    sector of width ``360 / n`` centred there; a heart of one sits at the
    centre, a heart of two at 0 and 180 (design notes, "Hull, hit log and hit
    kinds"). An interior circle adjoins every circle of the layer just outside
    whose sector overlaps its own (by more than an edge: exact arithmetic).
    Equal counts give equal layouts; :meth:`of` hands out one cached instance.

    >>> layout = HullLayout.of(8, 3, 1)
    >>> layout.circle("c1").adjoins
    ('s1', 's2', 's8')
    >>> layout.circle("h1").adjoins, layout.circle("h1").angle
    (('c1', 'c2', 'c3'), None)
    >>> layout.circle("s2").angle, layout.circle("s2").sector
    (45.0, (22.5, 67.5))
    """

    surface: int
    core: int
    heart: int
    circles: tuple[Circle, ...] = field(init=False, repr=False, compare=False)
    _by_id: Mapping[str, Circle] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for layer in LAYERS:
            value = getattr(self, layer)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"a hull needs at least one {layer} circle, not {value!r}")
        circles = _build(self.surface, self.core, self.heart)
        object.__setattr__(self, "circles", circles)
        object.__setattr__(self, "_by_id", {c.id: c for c in circles})

    @staticmethod
    def of(surface: int, core: int, heart: int) -> HullLayout:
        """The layout for these counts (one shared instance per counts)."""
        return _layout(surface, core, heart)

    def __contains__(self, cid: object) -> bool:
        return cid in self._by_id

    def circle(self, cid: str) -> Circle:
        """The circle ``cid``; ValueError naming the hull's ids if there is none."""
        try:
            return self._by_id[cid]
        except (KeyError, TypeError):
            raise ValueError(f"{cid!s} is not a circle of this hull ({self.span()})") from None

    def count(self, layer: Layer) -> int:
        return cast(int, getattr(self, layer))

    def ids(self, layer: Layer | None = None) -> tuple[str, ...]:
        """Circle ids, outside-in and by number (of one layer if given)."""
        return tuple(c.id for c in self.circles if layer is None or c.layer == layer)

    def span(self) -> str:
        """The hull's ids in short: ``s1-s8, c1-c3, h1``."""
        parts = []
        for layer in LAYERS:
            p, n = PREFIXES[layer], self.count(layer)
            parts.append(f"{p}1" if n == 1 else f"{p}1-{p}{n}")
        return ", ".join(parts)

    def order(self, cid: str) -> tuple[int, int]:
        """Sort key of the canonical order: surface, core, heart, each by number."""
        c = self.circle(cid)
        return (LAYERS.index(c.layer), c.index)

    def far_side(self, cid: str, bearing: float) -> bool:
        """Whether ``cid`` lies more than 90 degrees from ``bearing`` (rule 3).

        A centre circle is never on the far side.
        """
        angle = self.circle(cid).angle
        return angle is not None and _angle_between(angle, bearing) > FAR_SIDE + _HAIR


@cache
def _layout(surface: int, core: int, heart: int) -> HullLayout:
    return HullLayout(surface, core, heart)


# --------------------------------------------------------------------------- hit log


def _layer_of(cid: str) -> Layer:
    """The layer a circle id names (``s``, ``c``, ``h``); ValueError for a non-id."""
    if not isinstance(cid, str) or not _ID.fullmatch(cid):
        raise ValueError(f"{cid!r} is not a circle id (s1.., c1.., h1..)")
    return _LAYER_OF_PREFIX[cid[0]]


@dataclass(frozen=True)
class HitLog:
    """The marked circles of one base and the kind each counts as.

    Immutable, hashable and independent of the hull: a circle's layer is its
    id's letter; queries that need the hull's counts take its
    :class:`HullLayout`. ``marks`` is kept in canonical order (surface, core,
    heart, by number). Surface marks are S (or P for a rear-arc S hit, 5.2),
    core marks P, heart marks B.

    >>> log = HitLog().with_marks({"s1": "S", "s2": "P", "c1": "P"})
    >>> log.counts(), log.p_hits, log.marked("surface")
    ({'S': 1, 'P': 2, 'B': 0}, 2, ('s1', 's2'))
    >>> log.speed(8.0, 1.0), log.defence(3, 2), log.destroyed(HullLayout.of(8, 3, 1))
    (6.0, 2, False)
    """

    marks: tuple[tuple[str, Kind], ...] = ()
    _kinds: Mapping[str, Kind] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kinds: dict[str, Kind] = {}
        for mark in self.marks:
            if not (isinstance(mark, tuple) and len(mark) == 2):
                raise ValueError(f"a mark is (circle, kind), not {mark!r}")
            cid, kind = mark
            layer = _layer_of(cid)
            if kind not in _KINDS_ON[layer]:
                allowed = " or ".join(_KINDS_ON[layer])
                raise ValueError(f"{cid} is a {layer} circle: its mark is {allowed}, not {kind!r}")
            if cid in kinds:
                raise ValueError(f"{cid} is marked twice")
            kinds[cid] = kind
        ordered = tuple(sorted(kinds.items(), key=lambda m: _id_key(m[0])))
        object.__setattr__(self, "marks", ordered)
        object.__setattr__(self, "_kinds", kinds)

    def with_marks(self, marks: Mapping[str, str]) -> HitLog:
        """This log plus ``marks`` (circle -> kind), as written: no placement rules.

        For pre-damaged bases in scenarios and for tests; play goes through
        :func:`apply_placement`. Refuses a circle marked already.
        """
        for cid in marks:
            if cid in self._kinds:
                raise ValueError(f"{cid} is marked already")
        added = tuple((cid, cast(Kind, kind)) for cid, kind in marks.items())
        return HitLog(self.marks + added)

    def kind(self, cid: str) -> Kind | None:
        """The kind of the mark on ``cid``, or None if it is unmarked."""
        return self._kinds.get(cid)

    def is_marked(self, cid: str) -> bool:
        return cid in self._kinds

    def __len__(self) -> int:
        return len(self.marks)

    def counts(self) -> dict[Kind, int]:
        """Marks per kind: ``{"S": .., "P": .., "B": ..}``."""
        out: dict[Kind, int] = dict.fromkeys(KINDS, 0)
        for _, kind in self.marks:
            out[kind] += 1
        return out

    @property
    def s_hits(self) -> int:
        return self.counts()["S"]

    @property
    def p_hits(self) -> int:
        """P hits: every core mark and every rear-arc surface mark (4.0, 5.2)."""
        return self.counts()["P"]

    @property
    def b_hits(self) -> int:
        return self.counts()["B"]

    def marked(self, layer: Layer) -> tuple[str, ...]:
        """The marked circles of ``layer``, by number."""
        prefix = PREFIXES[layer]
        return tuple(cid for cid, _ in self.marks if cid[0] == prefix)

    def unmarked(self, layer: Layer, layout: HullLayout) -> tuple[str, ...]:
        """The unmarked circles of ``layer`` of the hull ``layout``, by number."""
        return tuple(c for c in layout.ids(layer) if c not in self._kinds)

    def unmarked_count(self, layout: HullLayout) -> int:
        """How many circles of the hull ``layout`` are unmarked, of every layer."""
        return sum(1 for c in layout.circles if c.id not in self._kinds)

    def destroyed(self, layout: HullLayout) -> bool:
        """Every heart circle of the hull is marked (the base is destroyed, 1.6)."""
        return not self.unmarked("heart", layout)

    def speed(self, base_speed: float, p_cost: float) -> float:
        """Movement allowance: ``base_speed`` less ``p_cost`` per P hit, never below 0 (4.0)."""
        return max(0.0, base_speed - self.p_hits * p_cost)

    def immobile(self, base_speed: float, p_cost: float) -> bool:
        """The speed track is used up: the base may not move (black marker, 4.0)."""
        return self.speed(base_speed, p_cost) <= 0.0

    def defence(self, base: int, surface_per_defence: int) -> int:
        """Defence rating: ``base`` less 1 per ``surface_per_defence`` marked surface
        circles (of either kind), never below 1 (5.2)."""
        if surface_per_defence < 1:
            raise ValueError("surface_per_defence is a count of circles: 1 or more")
        return max(1, base - len(self.marked("surface")) // surface_per_defence)

    def fits(self, layout: HullLayout) -> None:
        """ValueError if a mark names a circle the hull ``layout`` does not have."""
        for cid, _ in self.marks:
            if cid not in layout:
                raise ValueError(
                    f"the log marks {cid}, not a circle of this hull ({layout.span()})"
                )

    def to_json(self) -> dict[str, str]:
        """The marks, circle -> kind, in canonical order."""
        return dict(self.marks)

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> HitLog:
        """The log :meth:`to_json` wrote; ValueError for anything else."""
        if not isinstance(data, Mapping):
            raise ValueError("a hit log maps circles to kinds")
        return HitLog(tuple((k, v) for k, v in data.items()))


# --------------------------------------------------------------------------- groups


@dataclass(frozen=True)
class HitGroup:
    """One attack's hits on one target.

    Kinetic and photon groups carry a total ``hits``; missile groups typed
    counts ``surface``, ``core``, ``heart`` (the dice colours). ``bearing``:
    where the attacker is, seen from the target's front, degrees
    counter-clockwise (normalised to 0..360). ``rear``: the attacker is in the
    target's rear arc, so the group's surface marks count as P hits.
    ``core_rule``: the missile core rule chosen before the game, "a" (balance)
    or "b" (eat).
    """

    weapon: Weapon
    hits: int = 0
    surface: int = 0
    core: int = 0
    heart: int = 0
    bearing: float = 0.0
    rear: bool = False
    core_rule: CoreRule = "a"

    def __post_init__(self) -> None:
        if self.weapon not in WEAPONS:
            raise ValueError(f"weapon is kinetic, photon or missile, not {self.weapon!r}")
        for name in ("hits", "surface", "core", "heart"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} is a count of hits: 0 or more, not {value!r}")
        if self.weapon == "missile" and self.hits:
            raise ValueError("missile hits are typed: give surface, core and heart")
        if self.weapon != "missile" and (self.surface or self.core or self.heart):
            raise ValueError(f"{self.weapon} hits are not typed: give hits")
        if self.core_rule not in ("a", "b"):
            raise ValueError(f"the missile core rule is a or b, not {self.core_rule!r}")
        bearing = float(self.bearing)
        if not math.isfinite(bearing):
            raise ValueError("the bearing is a direction in degrees")
        object.__setattr__(self, "bearing", bearing % 360.0 + 0.0)
        object.__setattr__(self, "rear", bool(self.rear))

    @staticmethod
    def direct(weapon: Weapon, hits: int, *, bearing: float, rear: bool = False) -> HitGroup:
        """A kinetic or photon group."""
        if weapon == "missile":
            raise ValueError("a missile group is HitGroup.missile(surface, core, heart, ...)")
        return HitGroup(weapon, hits=hits, bearing=bearing, rear=rear)

    @staticmethod
    def missile(
        surface: int,
        core: int,
        heart: int,
        *,
        bearing: float = 0.0,
        rear: bool = False,
        core_rule: CoreRule = "a",
    ) -> HitGroup:
        return HitGroup(
            "missile",
            surface=surface,
            core=core,
            heart=heart,
            bearing=bearing,
            rear=rear,
            core_rule=core_rule,
        )

    @property
    def total(self) -> int:
        """All the group's hits."""
        return self.hits + self.surface + self.core + self.heart

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"weapon": self.weapon, "bearing": self.bearing, "rear": self.rear}
        if self.weapon == "missile":
            out.update(
                surface=self.surface, core=self.core, heart=self.heart, core_rule=self.core_rule
            )
        else:
            out["hits"] = self.hits
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> HitGroup:
        keys = {"weapon", "hits", "surface", "core", "heart", "bearing", "rear", "core_rule"}
        unknown = set(data) - keys
        if unknown:
            raise ValueError(f"unknown hit group keys: {', '.join(sorted(unknown))}")
        return HitGroup(**dict(data))


# --------------------------------------------------------------------------- placement


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _violation(
    layout: HullLayout, log: HitLog, group: HitGroup, circles: Sequence[str]
) -> str | None:
    """The first of rules 1-6 that placing ``circles`` breaks, or None.

    The circles are read outside-in: surface first, then core, then heart; a
    circle that relies on another of its own layer (missile core rule b) may
    come in any order. The result does not depend on the order given.
    """
    seen: set[str] = set()
    for cid in circles:
        if cid not in layout:
            return f"{cid!s} is not a circle of this hull ({layout.span()})"
        if cid in seen:
            return f"{cid} is named twice"
        if log.is_marked(cid):
            return f"{cid} is marked already"
        seen.add(cid)
    by_layer = {layer: [c for c in circles if layout.circle(c).layer == layer] for layer in LAYERS}
    surface, core, heart = by_layer["surface"], by_layer["core"], by_layer["heart"]
    marked_s = set(log.marked("surface")) | set(surface)
    marked_c = set(log.marked("core"))
    direct = group.weapon != "missile"
    if direct:
        if len(circles) > group.hits:
            return f"{_plural(len(circles), 'circle')} named for {_plural(group.hits, 'hit')}"
        for cid in circles:  # rule 3
            if layout.far_side(cid, group.bearing):
                return f"{cid} is on the far side from the attacker"
        left = len(log.unmarked("surface", layout)) - len(surface)
        near_left = len(_near_open(layout, log, group, "surface")) - len(surface)
        if (core or heart) and left > OUTSIDE_IN and near_left > 0:  # rule 4
            first = (core or heart)[0]
            return (
                f"{first} may not be marked while {left} surface circles are unmarked, "
                f"{near_left} of them facing the attacker (outside-in: six or fewer first, "
                "or none left facing the attacker)"
            )
        for cid in core:  # rule 2
            if not marked_s.intersection(layout.circle(cid).adjoins):
                return f"{cid} does not adjoin a marked surface circle"
        marked_c |= set(core)
    else:
        for layer in LAYERS:
            named, allowed = len(by_layer[layer]), getattr(group, layer)
            if named > allowed:
                hits = _plural(allowed, f"{layer} hit")
                return f"{_plural(named, f'{layer} circle')} named for {hits}"
        if group.core_rule == "a":  # rule 6 (a)
            for cid in core:
                if not marked_s.intersection(layout.circle(cid).adjoins):
                    return f"{cid} does not adjoin a marked surface circle"
            if core and len(marked_c) + len(core) > len(marked_s):
                return (
                    f"core marks ({len(marked_c) + len(core)}) would outnumber marked "
                    f"surface circles ({len(marked_s)}) (core rule a)"
                )
            marked_c |= set(core)
        else:  # rule 6 (b): eat round beneath intact surface
            pending = list(core)
            progress = True
            while pending and progress:
                progress = False
                for cid in list(pending):
                    c = layout.circle(cid)
                    if marked_s.intersection(c.adjoins) or marked_c.intersection(c.neighbours):
                        marked_c.add(cid)
                        pending.remove(cid)
                        progress = True
            if pending:
                return (
                    f"{pending[0]} does not adjoin a marked surface circle "
                    f"or neighbour a marked core circle"
                )
    for cid in heart:  # rule 2 (and 6)
        if not marked_c.intersection(layout.circle(cid).adjoins):
            return f"{cid} does not adjoin a marked core circle"
    if direct:  # rule 5, counting the marks already on the attacker's side
        near_s, near_c = _near_marks(layout, log, group)
        near_s_left = len(_near_open(layout, log, group, "surface")) - len(surface)
        near_c_left = len(_near_open(layout, log, group, "core")) - len(core)
        if core and len(surface) + near_s < len(core) + 1 and near_s_left > 0:
            return (
                f"the taper needs at least {_plural(len(core) + 1, 'surface hit')} above "
                f"{_plural(len(core), 'core hit')} (this group's and those already marked "
                "on the side facing the attacker), or every surface circle facing it marked"
            )
        if heart and len(core) + near_c < len(heart) + 1 and near_c_left > 0:
            return (
                f"the taper needs at least {_plural(len(heart) + 1, 'core hit')} above "
                f"{_plural(len(heart), 'heart hit')} (this group's and those already marked "
                "on the side facing the attacker), or every core circle facing it marked"
            )
    return None


def _near_open(layout: HullLayout, log: HitLog, group: HitGroup, layer: Layer) -> list[str]:
    """Unmarked circles of ``layer`` on the side facing the attacker (rule 3's near side)."""
    return [c for c in log.unmarked(layer, layout) if not layout.far_side(c, group.bearing)]


def _near_marks(layout: HullLayout, log: HitLog, group: HitGroup) -> tuple[int, int]:
    """Surface and core circles already marked on the side facing the attacker.

    Rule 5 reading: a group's damage tapers inward counting the holes already
    there where it strikes (docs/rules/mgv.md, ruling 3), so direct fire can
    reach the core through earlier damage instead of being lost on it.
    """
    near = [c for c, _ in log.marks if not layout.far_side(c, group.bearing)]
    return (
        sum(1 for c in near if c[0] == "s"),
        sum(1 for c in near if c[0] == "c"),
    )


@dataclass(frozen=True)
class _Plan:
    """The interior part of a maximal placement and what it asks of the surface.

    ``needs``: sets of surface circles each of which must get one of the group's
    marks (so that every core circle of the plan is reachable); ``surface``:
    how many surface marks the group makes with this plan.
    """

    core: tuple[str, ...]
    heart: tuple[str, ...]
    needs: frozenset[frozenset[str]]
    surface: int


@dataclass(frozen=True)
class _Analysis:
    best: int
    candidates: tuple[str, ...]
    """Surface circles the group may mark, by number."""
    plans: tuple[_Plan, ...]
    """Every interior choice of a maximal placement, owner's preference first."""


def _min_cover(needs: frozenset[frozenset[str]]) -> int:
    """Fewest circles that meet every set in ``needs`` (a tiny hitting set)."""
    return len(_covers(needs, 1)[0]) if needs else 0


@lru_cache(maxsize=8192)
def _covers(needs: frozenset[frozenset[str]], cap: int) -> tuple[frozenset[str], ...]:
    """Up to ``cap`` smallest hitting sets of ``needs``, in a fixed order."""
    if not needs:
        return (frozenset(),)
    if not all(needs):
        raise ValueError("a need no circle can meet")
    # drop needs that contain another need: meeting the smaller meets them
    sets = sorted(needs, key=lambda s: (len(s), sorted(s, key=_id_key)))
    kept = [s for s in sets if not any(t < s for t in sets)]
    found: list[frozenset[str]] = []
    seen: set[frozenset[str]] = set()

    def search(chosen: frozenset[str], budget: int) -> None:
        if len(found) >= cap:
            return
        open_ = [s for s in kept if not (s & chosen)]
        if not open_:
            if chosen not in seen:
                seen.add(chosen)
                found.append(chosen)
            return
        # lower bound: pairwise disjoint open needs each take a circle of their own
        disjoint: list[frozenset[str]] = []
        for s in open_:
            if all(not (s & t) for t in disjoint):
                disjoint.append(s)
        if len(disjoint) > budget:
            return
        for cid in sorted(open_[0], key=_id_key):
            search(chosen | {cid}, budget - 1)

    size = 0
    while not found:
        size += 1
        search(frozenset(), size)
    return tuple(found)


def _id_key(cid: str) -> tuple[int, int]:
    return ("sch".index(cid[0]), int(cid[1:]))


def _needs_for_core(
    layout: HullLayout,
    core: Sequence[str],
    marked_s: frozenset[str],
    marked_c: frozenset[str],
    candidates: frozenset[str],
    eat: bool,
) -> frozenset[frozenset[str]] | None:
    """What the group's surface marks must meet so that ``core`` is reachable
    (None if it never is). Without ``eat`` each core circle needs an adjoining
    marked surface circle; with it (missile rule b) each run of core circles
    not touching a marked core circle needs one."""
    if eat:
        groups: list[set[str]] = []
        todo = set(core)
        while todo:
            start = min(todo, key=_id_key)
            comp, stack, anchored = set(), [start], False
            while stack:
                cid = stack.pop()
                if cid in comp:
                    continue
                comp.add(cid)
                for n in layout.circle(cid).neighbours:
                    if n in marked_c:
                        anchored = True
                    elif n in todo and n not in comp:
                        stack.append(n)
            todo -= comp
            if not anchored:
                groups.append(comp)
    else:
        groups = [{cid} for cid in core]
    needs: set[frozenset[str]] = set()
    for comp in groups:
        outer = {s for cid in comp for s in layout.circle(cid).adjoins}
        if outer & marked_s:
            continue
        usable = frozenset(outer & candidates)
        if not usable:
            return None
        needs.add(usable)
    return frozenset(needs)


@lru_cache(maxsize=4096)
def _analyse(layout: HullLayout, log: HitLog, group: HitGroup) -> _Analysis:
    direct = group.weapon != "missile"

    def open_(layer: Layer) -> list[str]:
        return [
            c
            for c in log.unmarked(layer, layout)
            if not (direct and layout.far_side(c, group.bearing))  # rule 3
        ]

    cand_s, cand_c, cand_h = open_("surface"), open_("core"), open_("heart")
    candidates = frozenset(cand_s)
    marked_s = frozenset(log.marked("surface"))
    marked_c = frozenset(log.marked("core"))
    unmarked_s = len(log.unmarked("surface", layout))
    plans: list[_Plan] = []

    if direct:
        n = group.hits
        near_s, near_c = _near_marks(layout, log, group)
        found: list[tuple[_Plan, int]] = []  # plan with the most surface marks, the fewest
        for kc in range(0, min(len(cand_c), n) + 1):  # rule 5 bounds the surface marks below
            for core in itertools.combinations(cand_c, kc):
                needs = _needs_for_core(layout, core, marked_s, marked_c, candidates, False)
                if needs is None:
                    continue
                reach = marked_c | set(core)
                # rule 5: c >= h + 1, unless the group marks every core circle left near
                taper = kc + near_c - 1 if kc < len(cand_c) else len(cand_h)
                top = min(len(cand_h), n - kc, taper)
                for kh in range(0, max(0, top) + 1):
                    for heart in itertools.combinations(cand_h, kh):
                        if not all(reach.intersection(layout.circle(h).adjoins) for h in heart):
                            continue
                        lo = _min_cover(needs)
                        # rules 4 and 5 are met, too, once every near surface circle is marked
                        if kc or kh:
                            lo = max(lo, min(unmarked_s - OUTSIDE_IN, len(cand_s)))  # rule 4
                        if kc:
                            lo = max(lo, min(kc + 1 - near_s, len(cand_s)))  # rule 5: s >= c + 1
                        hi = min(n - kc - kh, len(cand_s))
                        if lo <= hi:
                            found.append((_Plan(core, heart, needs, hi), lo))
        best = max(p.surface + len(p.core) + len(p.heart) for p, _ in found)
        for plan, lo in found:  # a maximal placement's plan makes best - kc - kh surface marks
            k = best - len(plan.core) - len(plan.heart)
            if lo <= k <= plan.surface:
                plans.append(_Plan(plan.core, plan.heart, plan.needs, k))
    else:
        s_star = min(group.surface, len(cand_s))
        eat = group.core_rule == "b"
        options: list[tuple[int, _Plan]] = []
        for kc in range(0, min(len(cand_c), group.core) + 1):
            if kc and not eat and len(marked_c) + kc > len(marked_s) + s_star:
                break  # rule 6 (a): core marks never outnumber marked surface circles
            for core in itertools.combinations(cand_c, kc):
                needs = _needs_for_core(layout, core, marked_s, marked_c, candidates, eat)
                if needs is None or _min_cover(needs) > s_star:
                    continue
                reach = marked_c | set(core)
                for kh in range(0, min(len(cand_h), group.heart) + 1):
                    for heart in itertools.combinations(cand_h, kh):
                        if all(reach.intersection(layout.circle(h).adjoins) for h in heart):
                            options.append((s_star + kc + kh, _Plan(core, heart, needs, s_star)))
        best = max(t for t, _ in options)
        plans = [p for t, p in options if t == best]
    plans.sort(key=lambda p: (len(p.heart), len(p.core), [_id_key(c) for c in p.core + p.heart]))
    return _Analysis(best, tuple(cand_s), tuple(plans))


def check_placement(
    layout: HullLayout, log: HitLog, group: HitGroup, circles: Sequence[str]
) -> str | None:
    """None if the owner may place ``group`` on exactly ``circles``, else why not.

    Rules 1-7 of the design notes ("Placement rules", from "5.2 Applying
    Damage"). The circles are read outside-in (surface, then core, then heart),
    so the order they are given in does not matter. Rule 7: a placement that
    places fewer hits than some legal placement could is refused.
    """
    log.fits(layout)
    reason = _violation(layout, log, group, tuple(circles))
    if reason is not None:
        return reason
    best = _analyse(layout, log, group).best
    placed = len(circles)
    if placed < best:
        return f"{_plural(best, 'hit')} could be placed but " + (
            "none were" if placed == 0 else f"only {placed} {'was' if placed == 1 else 'were'}"
        )
    return None


def apply_placement(
    log: HitLog, group: HitGroup, circles: Sequence[str], layout: HullLayout | None = None
) -> HitLog:
    """``log`` with the group placed on ``circles``: surface marks S (P from the
    rear arc), core marks P, heart marks B.

    Call it after :func:`check_placement` accepted the placement; given the
    ``layout`` it checks again and raises ValueError with the reason. Either
    way it refuses a circle marked already or named twice, so a circle is
    never marked twice.
    """
    if layout is not None:
        reason = check_placement(layout, log, group, circles)
        if reason is not None:
            raise ValueError(reason)
    kinds: dict[Layer, Kind] = {
        "surface": "P" if group.rear else "S",
        "core": "P",
        "heart": "B",
    }
    marks: dict[str, str] = {}
    for cid in circles:
        if cid in marks:
            raise ValueError(f"{cid} is named twice")
        marks[cid] = kinds[_layer_of(cid)]
    return log.with_marks(marks)


def placeable(layout: HullLayout, log: HitLog, group: HitGroup) -> int:
    """How many of the group's hits a maximal placement places (the rest are lost)."""
    log.fits(layout)
    return _analyse(layout, log, group).best


class _Owner:
    """How a sensible owner ranks placements: protect the vehicle.

    Fewest heart hits, then fewest core hits; then the fewest unmarked interior
    circles left reachable (a core circle adjoining a marked surface circle, a
    heart circle adjoining a marked core circle); then surface damage in as few
    clusters as possible; then by number. Surface circles beyond the smallest
    cover of a plan's needs are added greedily: fewest newly reachable core
    circles, beside old holes, nearest them, facing the attacker, by number.
    """

    def __init__(self, layout: HullLayout, log: HitLog, group: HitGroup) -> None:
        self.log = log
        self.group = group
        self.layout = layout
        self.marked_s = frozenset(log.marked("surface"))
        self.marked_c = frozenset(log.marked("core"))
        self.ring = self.layout.ids("surface")

    def exposure(self, surface: frozenset[str], core: frozenset[str]) -> int:
        lay = self.layout
        hit_s, hit_c = self.marked_s | surface, self.marked_c | core
        return sum(
            1
            for c in lay.ids("core")
            if c not in hit_c and hit_s.intersection(lay.circle(c).adjoins)
        ) + sum(
            1 for h in self.log.unmarked("heart", lay) if hit_c.intersection(lay.circle(h).adjoins)
        )

    def runs(self, surface: frozenset[str]) -> int:
        hit = self.marked_s | surface
        n = len(self.ring)
        flags = [cid in hit for cid in self.ring]
        if all(flags):
            return 1
        return sum(1 for i in range(n) if flags[i] and not flags[i - 1])

    def key(self, plan: _Plan, surface: frozenset[str]) -> tuple[Any, ...]:
        placed = sorted(surface | set(plan.core) | set(plan.heart), key=_id_key)
        return (
            len(plan.heart),
            len(plan.core),
            self.exposure(surface, frozenset(plan.core)),
            self.runs(surface),
            [_id_key(c) for c in placed],
        )

    def pad(self, plan: _Plan, cover: frozenset[str], candidates: Sequence[str]) -> frozenset[str]:
        """``cover`` grown to ``plan.surface`` circles, one best circle at a time."""
        chosen = set(cover)
        lay, core = self.layout, set(plan.core)
        n = len(self.ring)
        while len(chosen) < plan.surface:
            hit = self.marked_s | chosen
            positions = [i for i, cid in enumerate(self.ring) if cid in hit]

            def rank(
                cid: str, hit: frozenset[str] = hit, positions: list[int] = positions
            ) -> tuple[Any, ...]:
                c = lay.circle(cid)
                new = sum(
                    1
                    for inner in c.inner
                    if inner not in self.marked_c
                    and inner not in core
                    and not hit.intersection(lay.circle(inner).adjoins)
                )
                i = c.index - 1
                gap = min((min((i - j) % n, (j - i) % n) for j in positions), default=0)
                beside = sum(1 for nb in c.neighbours if nb in hit)
                off = _angle_between(c.angle or 0.0, self.group.bearing)
                return (new, -beside, gap, off, c.index)

            chosen.add(min((c for c in candidates if c not in chosen), key=rank))
        return frozenset(chosen)

    def best_for(self, plan: _Plan, candidates: Sequence[str]) -> tuple[tuple[Any, ...], Placement]:
        """The owner's pick for ``plan``: each of a few smallest covers of its
        needs, grown greedily; the best of those."""
        best: tuple[tuple[Any, ...], Placement] | None = None
        for cover in _covers(plan.needs, _COVERS_TRIED):
            surface = self.pad(plan, cover, candidates)
            key = self.key(plan, surface)
            if best is None or key < best[0]:
                best = (key, _canonical(surface | set(plan.core) | set(plan.heart)))
        assert best is not None
        return best


Placement = tuple[str, ...]
_COVERS_TRIED = 8


@lru_cache(maxsize=4096)
def _best_for(
    layout: HullLayout, log: HitLog, group: HitGroup, plan: _Plan
) -> tuple[tuple[Any, ...], Placement]:
    return _Owner(layout, log, group).best_for(plan, _analyse(layout, log, group).candidates)


def _canonical(circles: set[str] | frozenset[str]) -> Placement:
    return tuple(sorted(circles, key=_id_key))


def default_placement(layout: HullLayout, log: HitLog, group: HitGroup) -> Placement:
    """The legal maximal placement a sensible owner picks (deterministic).

    Among the maximal placements (rule 7): fewest heart hits, then fewest core
    hits (surface before core when free to choose), then the fewest unmarked
    interior circles left reachable (surface holes kept together and next to
    old ones), then fewest separate clusters of surface holes, then circles
    facing the attacker. Returned in canonical order.
    """
    log.fits(layout)
    analysis = _analyse(layout, log, group)
    first = analysis.plans[0]
    keep = [
        p
        for p in analysis.plans
        if (len(p.heart), len(p.core)) == (len(first.heart), len(first.core))
    ]
    return min(_best_for(layout, log, group, p) for p in keep)[1]


def placements(
    layout: HullLayout, log: HitLog, group: HitGroup, limit: int = 12
) -> list[Placement]:
    """Up to ``limit`` distinct legal maximal placements, each in canonical order.

    The default comes first; then each other choice of interior circles with
    the owner's best surface circles for it (fewest heart, then core hits
    first); then the further surface choices of each, taken in turn, by
    number. With a ``limit`` large enough every maximal placement is listed;
    the search prunes, so it stops as soon as ``limit`` are found.
    """
    log.fits(layout)
    if limit < 1:
        return []
    analysis = _analyse(layout, log, group)
    out: list[Placement] = [default_placement(layout, log, group)]
    seen = set(out)

    def add(placement: Placement) -> bool:
        if placement not in seen:
            seen.add(placement)
            out.append(placement)
        return len(out) >= limit

    if len(out) >= limit:
        return out
    for plan in analysis.plans:
        if add(_best_for(layout, log, group, plan)[1]):
            return out
    streams = [_variants(plan, analysis.candidates) for plan in analysis.plans]
    while streams:
        for stream in list(streams):
            nxt = next(stream, None)
            if nxt is None:
                streams.remove(stream)
            elif add(nxt):
                return out
    return out


def _variants(plan: _Plan, candidates: Sequence[str]) -> Iterator[Placement]:
    """Every placement of ``plan``, by number: each choice of ``plan.surface`` of
    the ``candidates`` that meets every need (a pruned search, lazily)."""
    interior = set(plan.core) | set(plan.heart)
    k = plan.surface
    last = {need: max(candidates.index(c) for c in need) for need in plan.needs}

    def search(i: int, chosen: list[str], open_: list[frozenset[str]]) -> Iterator[Placement]:
        slots = k - len(chosen)
        if slots == 0:
            if not open_:
                yield _canonical(set(chosen) | interior)
            return
        if len(candidates) - i < slots or any(last[need] < i for need in open_):
            return
        c = candidates[i]
        yield from search(i + 1, [*chosen, c], [need for need in open_ if c not in need])
        yield from search(i + 1, chosen, open_)

    yield from search(0, [], sorted(plan.needs, key=lambda s: sorted(s, key=_id_key)))


# --------------------------------------------------------------------------- text


def parse_circles(text: str, layout: HullLayout | None = None) -> Placement:
    """Circle ids from text such as ``"s3 s4 c2"`` (spaces or commas; any case).

    Refuses a word that is not a circle id, a circle the ``layout`` (if given)
    does not have, and a circle named twice.

    >>> parse_circles("S3, s4 c2")
    ('s3', 's4', 'c2')
    >>> parse_circles("s9", HullLayout.of(8, 3, 1))
    Traceback (most recent call last):
    ...
    ValueError: s9 is not a circle of this hull (s1-s8, c1-c3, h1)
    """
    out: list[str] = []
    for word in re.split(r"[\s,]+", text.strip()):
        if not word:
            continue
        cid = word.lower()
        if not _ID.fullmatch(cid):
            shown = word if len(word) <= 20 and word.isprintable() else repr(word[:20])
            raise ValueError(
                f"{shown} is not a circle: circles are s1.. (surface), c1.. (core), h1.. (heart)"
            )
        if layout is not None:
            layout.circle(cid)
        if cid in out:
            raise ValueError(f"{cid} is named twice")
        out.append(cid)
    return tuple(out)


def describe(log: HitLog, layout: HullLayout | None = None) -> str:
    """One line for views: marked circles per layer, named by the hit kind.

    ``S`` counts marked surface circles, ``P`` marked core circles, ``B``
    marked heart circles, each out of the layer's circles when the hull's
    ``layout`` is given; rear-arc surface marks (which count as P hits) are
    added to P as ``+n rear``.

    >>> log = HitLog().with_marks({"s1": "S", "s2": "P", "c1": "P"})
    >>> describe(log, HullLayout.of(12, 5, 2))
    'S 2/12, P 1/5 +1 rear, B 0/2'
    >>> describe(log)
    'S 2, P 1 +1 rear, B 0'
    >>> describe(HitLog().with_marks({"s1": "S", "c1": "P", "h1": "B"}), HullLayout.of(6, 2, 1))
    'S 1/6, P 1/2, B 1/1, destroyed'
    """
    rear = sum(1 for cid in log.marked("surface") if log.kind(cid) == "P")
    parts = []
    for kind, layer in zip(KINDS, LAYERS, strict=True):
        text = f"{kind} {len(log.marked(layer))}"
        if layout is not None:
            text += f"/{layout.count(layer)}"
        if layer == "core" and rear:
            text += f" +{rear} rear"
        parts.append(text)
    if layout is not None and log.destroyed(layout):
        parts.append("destroyed")
    return ", ".join(parts)
