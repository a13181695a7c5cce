"""Where Invisible Enemy bases and towers stand for direct fire: range, arcs, line of fire.

Range is centre to centre of the bases (5.0); a fungus tower's centre is the
centroid of its feature. Arcs are measured from each base's own facing (ruling
27): 22.5 degrees either side for K and P, 30 for C (``data/rules.toml``
``[arcs]``). The line of fire is the straight segment from the firer's centre
to the target's centre, on a flat table (ruling 20).

The 1.5 weapon blocks on that segment (ruling 19(a)):

- a 100% feature stops fire (the scenario maps it to ``blocks_los = "yes"``),
  except one a base stands in: that base fires out of it, and is fired at
  with cover;
- a 50% feature (``"beyond"``, reach 1") covers a target within 1" behind it
  (-3, 5.1); a firer within 1" of it fires across it uncovered; when neither
  end is within 1" it stops K and P fire. C fire goes round 50% features
  (ruling 26(a)) but a target within 1" behind one is still covered.

Bases on the segment (ruling 26(a)): for K and P every base of another unit
blocks, friend or foe (the segment meets its base); the firer's own unit-mates
do not, unless option ``unit_mates_block``; C passes a loose unit, one whose
every base is more than 1" edge to edge from each of its unit-mates (a lone base
counts as loose), and is stopped by any other (a packed unit).
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from itertools import combinations

import shapely

from warbench.geometry.table import (
    EPS,
    TOUCH,
    Figure,
    Point,
    RoundBase,
    Terrain,
    centre_distance,
    in_arc,
)
from warbench.geometry.table.terrain import LOS_BEYOND, LOS_NO
from warbench.rulesets.invisible_enemy.charts import network_range
from warbench.rulesets.invisible_enemy.data import rules
from warbench.rulesets.invisible_enemy.state import Base, State

WEAPON_NAMES = {"K": "kinetic weapon", "P": "photon weapon", "C": "chemical weapon"}
RANGE_SLACK = 1e-9


@dataclass(frozen=True, slots=True)
class Aim:
    """Something direct fire may be aimed at (or a firer's own place): a base or a tower.

    ``footprint`` and ``radius``: the base is every point within ``radius`` of
    ``footprint`` (a round base: its centre and radius; a tower: its feature, 0).
    """

    id: str
    centre: Point
    footprint: shapely.Geometry
    radius: float
    defence: int
    hull: int
    hits: int
    base: Base | None = None
    feature: str | None = None
    """A tower's own feature (it neither blocks nor covers fire at the tower)."""


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """Whether a base has a line of fire to a target (5.0, 1.5), and whether it is covered."""

    allowed: bool
    reason: str
    cover: bool


@dataclass(frozen=True, slots=True)
class Ground:
    """The terrain on a segment of fire: the first feature stopping it, those covering the
    target, and the 50% features C fire went round."""

    blocked: str | None
    cover: tuple[str, ...]
    around: tuple[str, ...]


def base_aim(base: Base) -> Aim:
    geo = base.geo
    footprint, radius = _footprint(geo)
    return Aim(
        base.id,
        geo.at,
        footprint,
        radius,
        base.model.defence,
        base.model.hull,
        base.hits,
        base=base,
    )


def _footprint(geo: Figure) -> tuple[shapely.Geometry, float]:
    if isinstance(geo.base, RoundBase):
        return shapely.Point(geo.x, geo.y), geo.base.radius
    return geo.outline, 0.0


_CENTRES: weakref.WeakKeyDictionary[Terrain, dict[str, Point]] = weakref.WeakKeyDictionary()
"""Each layout's tower centres, worked out once: a layout never changes (a cut or
cleared feature makes a new one, ``State.cut``, ``State.clear``)."""


def tower_centre(state: State, tower_id: str) -> Point:
    """The centroid of the tower's feature: its centre for range and fire (1.5 note 2)."""
    layout = state.terrain
    known = _CENTRES.get(layout)
    if known is None:
        known = _CENTRES[layout] = {}
    found = known.get(tower_id)
    if found is None:
        c = shapely.centroid(layout.feature(tower_id).geometry)
        found = known[tower_id] = (float(c.x), float(c.y))
    return found


def aim(state: State, target_id: str) -> Aim | None:
    """The base on the table or the tower standing with this id, or None."""
    base = state.bases.get(target_id)
    if base is not None:
        return base_aim(base) if base.active else None
    tower = state.towers.get(target_id)
    if tower is None or tower.destroyed:
        return None
    feature = state.terrain.feature(tower.id)
    if feature.destroyed:
        return None
    return Aim(
        tower.id,
        tower_centre(state, tower.id),
        feature.geometry,
        0.0,
        rules().data.fungus.defence,
        tower.hull,
        tower.hits,
        feature=tower.id,
    )


def distance(a: Aim, b: Aim) -> float:
    """Centre to centre (5.0)."""
    return math.hypot(b.centre[0] - a.centre[0], b.centre[1] - a.centre[1])


def gap(a: Aim, b: Aim) -> float:
    """Edge to edge; 0 when touching or overlapping."""
    return max(0.0, float(shapely.distance(a.footprint, b.footprint)) - a.radius - b.radius)


# -- terrain (1.5 weapon block) --------------------------------------------------------------
def _touches(place: Aim, geometry: shapely.Geometry, core: shapely.Geometry, reach: float) -> bool:
    """Whether ``place`` stands in the feature, or within ``reach`` of it (a 50% feature)."""
    away = float(shapely.distance(place.footprint, geometry)) - place.radius
    inside = away < -EPS if place.radius > 0.0 else bool(shapely.intersects(place.footprint, core))
    return inside or (reach >= 0.0 and away <= reach + TOUCH)


def terrain_line(state: State, eye: Aim, target: Aim, chemical: bool = False) -> Ground:
    """The 1.5 weapon blocks on the segment from ``eye``'s centre to ``target``'s (module doc)."""
    t = state.terrain
    if eye.centre == target.centre or not len(t.active):
        return Ground(None, (), ())
    segment = shapely.LineString([eye.centre, target.centre])
    idx = t.tree.query(segment)
    if len(idx):
        idx = idx[t.los_mode[idx] != LOS_NO]
    if len(idx):
        idx = idx[shapely.intersects(t.pieces.core[idx], segment)]
    blocked: str | None = None
    cover: list[str] = []
    around: list[str] = []
    for i in sorted(int(k) for k in idx):
        feature = t.active[i]
        if feature.id in (eye.feature, target.feature):
            continue
        beyond = int(t.los_mode[i]) == LOS_BEYOND
        reach = feature.beyond_reach if beyond else -1.0
        geometry, core = t.geoms[i], t.pieces.core[i]
        if _touches(target, geometry, core, reach):
            cover.append(feature.id)
        elif _touches(eye, geometry, core, reach):
            continue
        elif beyond and chemical:
            around.append(feature.id)
        elif blocked is None:
            blocked = feature.id
    return Ground(blocked, tuple(cover), tuple(around))


def covered(state: State, source: Aim, target: Aim) -> bool:
    """6.0 (ruling 39): a self-destruct blast is resolved as direct fire with the target's
    cover; terrain between the blast and the target covers it (-3) but never shields it."""
    ground = terrain_line(state, source, target)
    return bool(ground.cover) or ground.blocked is not None


def cover_against(state: State, source: Base, target: Base) -> bool:
    """:func:`covered` between two bases (the blast of ``source`` on ``target``)."""
    return covered(state, base_aim(source), base_aim(target))


# -- bases in the way (5.0 Line of Fire) -------------------------------------------------------
def bases_between(state: State, eye: Aim, target: Aim) -> list[Base]:
    """Bases other than the two ends whose base the centre-to-centre segment meets, nearest
    the firer first."""
    p, q = eye.centre, target.centre
    if p == q:
        return []
    segment = shapely.LineString([p, q])
    index = state.scene().index
    found: list[tuple[float, str]] = []
    for i in index.near_segment(p, q, 0.0, exclude={eye.id, target.id}).tolist():
        figure = index.figures[i]
        core, radius = figure.solid
        if float(shapely.distance(segment, core)) < radius - EPS:
            found.append((centre_distance(figure.at, p), figure.id))
    return [state.bases[fid] for _, fid in sorted(found)]


def loose(state: State, unit_id: str) -> bool:
    """5.0: every base of the unit more than 1" (edge to edge) from each of its unit-mates."""
    bases = state.unit_bases(unit_id)
    return all(
        gap(base_aim(a), base_aim(b)) > rules().data.fire.loose_gap
        for a, b in combinations(bases, 2)
    )


# -- the line of fire --------------------------------------------------------------------------
def line_of_fire(state: State, shooter: Base, target_id: str) -> LineOfFire:
    """Sight and bases in the way from ``shooter`` to the target (not range or arc: see
    :func:`refusal`). Remembered until the table changes (``State.touched``)."""
    key = ("fire", shooter.id, target_id)
    found: LineOfFire | None = state.lines.get(key)
    if found is None:
        found = state.lines[key] = _line_of_fire(state, shooter, target_id)
    return found


def _line_of_fire(state: State, shooter: Base, target_id: str) -> LineOfFire:
    target = aim(state, target_id)
    if target is None:
        return LineOfFire(
            False, f"there is no base or fungus tower {target_id} on the table", False
        )
    eye = base_aim(shooter)
    chemical = shooter.weapon == "C"
    ground = terrain_line(state, eye, target, chemical)
    if ground.blocked is not None:
        feature = state.terrain.feature(ground.blocked)
        name = f"{feature.label or feature.kind} {feature.id}"
        if feature.blocks_los == "beyond":
            why = (
                f"{name} (50% weapon block) stops the fire of {shooter.id} at {target_id}: "
                f'neither of them is within 1" of it (1.5)'
            )
        else:
            why = f"{name} (100% weapon block) stops the fire of {shooter.id} at {target_id} (1.5)"
        return LineOfFire(False, why, False)
    mates_block = state.setup.options.unit_mates_block
    for other in bases_between(state, eye, target):
        if other.unit == shooter.unit and not mates_block:
            continue  # 5.0: fire may not pass *other* units; its own unit does not block
        if not chemical:
            return LineOfFire(
                False,
                f"{other.id} stands between {shooter.id} and {target_id}: K and P fire may "
                "not pass another unit, friend or foe (5.0)",
                False,
            )
        if not loose(state, other.unit):
            return LineOfFire(
                False,
                f"{other.id} stands between {shooter.id} and {target_id} and its unit "
                f'{other.unit} is packed (bases within 1" of each other): C fire passes only '
                "a loose unit (5.0)",
                False,
            )
    return LineOfFire(True, "", bool(ground.cover))


def refusal(state: State, shooter: Base, target_id: str) -> str | None:
    """Why ``shooter`` may not fire at the target now (range, arc, line of fire), or None.

    Targets are enemy bases, contaminated bases of either side (1.5 note 2: both
    sides must destroy them) and fungus towers (1.5 note 2).
    """
    # A base's centre is read off it: its whole Aim (a footprint) is for the line of fire.
    base = state.bases.get(target_id)
    centre: Point
    if base is not None:
        if not base.active:
            return f"there is no base or fungus tower {target_id} on the table"
        if base.id == shooter.id:
            return f"{shooter.id} may not fire at itself"
        if base.side == shooter.side and not base.contaminated:
            return (
                f"{target_id} is a friendly base: only contaminated friends are targets "
                "(1.5 note 2)"
            )
        centre = base.geo.at
    else:
        target = aim(state, target_id)
        if target is None:
            return f"there is no base or fungus tower {target_id} on the table"
        centre = target.centre
    weapon = shooter.weapon
    name = WEAPON_NAMES.get(weapon, weapon)
    reach = shooter.model.range
    far = centre_distance(shooter.geo, centre)
    if far > reach + RANGE_SLACK:
        return (
            f'{target_id} is {far:.1f}" away, beyond the {reach:g}" range of '
            f"{shooter.id}'s {name} (5.0, centre to centre)"
        )
    half = rules().arc(weapon)
    if not in_arc(shooter.geo, centre, half):
        return f"{target_id} is outside the {2 * half:g}-degree arc of {shooter.id}'s {name} (5.0)"
    line = line_of_fire(state, shooter, target_id)
    return None if line.allowed else line.reason


# -- network support (4.0) -------------------------------------------------------------------
def network_support(state: State, base: Base) -> bool:
    """A friendly network base (itself included) within its network range of ``base``
    (4.0: +1 on the Control table), centre to centre."""
    reach = network_range(state.setup.side_setups[base.side].tech)
    return any(
        other.role == "network"
        and not other.contaminated
        and centre_distance(other.geo, base.geo) <= reach + RANGE_SLACK
        for other in state.active(base.side)
    )


__all__ = [
    "WEAPON_NAMES",
    "Aim",
    "Ground",
    "LineOfFire",
    "aim",
    "base_aim",
    "bases_between",
    "cover_against",
    "covered",
    "distance",
    "gap",
    "line_of_fire",
    "loose",
    "network_support",
    "refusal",
    "terrain_line",
    "tower_centre",
]
