"""3.0 Barrages: markers set down by hand, deflections, and the phase 6 strikes.

Rulings (docs/rules/invisible-enemy.md): a base rolls once for each marker whose
3" radius holds its centre (12a); a Type 1 marker is dodged by a base whose
centre is beyond 3" at phase 6, the one measure the text gives for every strike
(11a); a deflection tags one enemy marker, -1, one per marker (9a); flank
support is a friendly base within 1" (edge to edge) on the target's left or
right, 45-135 degrees off its facing (13a); the blast is blocked only by
impervious terrain on the line from the marker to the base's centre (14a); what
of a feature lies within its sensitivity's reach is cleared and the rest stays,
in pieces if the cut splits it (15a). Each base is removed as soon as it is destroyed (3.0).
"""

from __future__ import annotations

import math

import shapely

from warbench.core.game import Resolution
from warbench.errors import IllegalAction
from warbench.geometry.table import CIRCLE_SEGMENTS, Point, bearing, edge_distance
from warbench.rulesets.invisible_enemy import fungus
from warbench.rulesets.invisible_enemy.actions import Barrage, Deflect
from warbench.rulesets.invisible_enemy.charts import FUNGUS_TOWER, area_needs
from warbench.rulesets.invisible_enemy.data import rules, terrain_chart
from warbench.rulesets.invisible_enemy.space import tower_centre
from warbench.rulesets.invisible_enemy.state import Base, Marker, MarkerKind, State


def placeable(state: State, side: str) -> MarkerKind | None:
    """The kind of marker ``side`` may set down now, or None."""
    net = state.networks[side]
    if state.step == "mark1":
        return "type1" if net.type1 else "type2" if net.type2 else None
    if state.step == "mark2":
        return "type2" if net.type2 else None
    return None


def check_place(state: State, side: str, action: Barrage) -> MarkerKind:
    net = state.networks[side]
    table = state.setup.table
    x, y = action.at
    if not (0.0 <= x <= table.width and 0.0 <= y <= table.height):
        raise IllegalAction(action, "a marker goes on the table")
    if state.step == "tie":
        return "tie"
    if action.type2 or state.step == "mark2" or not net.type1:
        if not net.type2:
            if state.step == "mark2" and net.type1:
                raise IllegalAction(action, "Type 1 markers may not be placed after movement (3.0)")
            raise IllegalAction(action, "you hold no Type 2 marker")
        return "type2"
    return "type1"


def place(state: State, side: str, action: Barrage, res: Resolution, kind: MarkerKind) -> Marker:
    """Set a marker down where it is put; it never moves again (3.0)."""
    net = state.networks[side]
    if kind == "type1":
        net.type1 -= 1
    elif kind == "type2":
        net.type2 -= 1
    marker = Marker(state.new_marker_id(), side, kind, action.at)
    state.markers.append(marker)
    label = {"type1": "Type 1", "type2": "Type 2", "tie": "free"}[kind]
    res.emit(
        "marker",
        f"{side} sets down a {label} barrage marker {marker.id} at "
        f"{action.at[0]:g},{action.at[1]:g}",
        side=side,
        marker=marker.id,
        type=kind,
        at=list(action.at),
    )
    return marker


def lose_type1(state: State, res: Resolution) -> None:
    """3.0: Type 1 markers not placed when the initiative dice are rolled are lost."""
    for side in state.setup.sides:
        net = state.networks[side]
        if net.type1:
            res.emit(
                "lost", f"{side} loses {net.type1} unplaced Type 1 barrage(s) (3.0)", side=side
            )
            net.type1 = 0


def deflectable(state: State, side: str) -> list[Marker]:
    """Enemy markers on the table that ``side`` may still tag (ruling 9a: one each)."""
    return [m for m in state.markers if m.side != side and not m.deflected]


def apply_deflect(state: State, side: str, action: Deflect, res: Resolution) -> None:
    net = state.networks[side]
    if not net.deflections:
        raise IllegalAction(action, "you have no barrage deflection this turn (2.0)")
    marker = next((m for m in state.markers if m.id == action.marker), None)
    if marker is None:
        raise IllegalAction(action, f"there is no marker {action.marker} on the table")
    if marker.side == side:
        raise IllegalAction(action, f"{marker.id} is your own barrage")
    if marker.deflected:
        raise IllegalAction(action, f"{marker.id} is already deflected")
    net.deflections -= 1
    marker.deflected = 1
    res.emit(
        "deflect",
        f"{side} deflects barrage {marker.id} (-1 to its rolls)",
        side=side,
        marker=marker.id,
    )


def flank_supported(state: State, base: Base) -> bool:
    """3.0: a friendly base within 1" to either flank (ruling 13a); a contaminated base is
    no one's friend (1.5 note 2)."""
    reach = rules().data.barrage.flank_reach
    for other in state.active(base.side):
        if other.id == base.id or other.contaminated:
            continue
        if edge_distance(base.geo, other.geo) > reach + 1e-9:
            continue
        off = abs(bearing(base.geo, other.geo))
        if 45.0 <= off <= 135.0:
            return True
    return False


def _blocked(state: State, at: Point, to: Point) -> bool:
    """3.0: the blast is blocked by impervious terrain between the marker and the target."""
    kinds = terrain_chart().kinds
    line = shapely.LineString([at, to]) if at != to else shapely.Point(at)
    for feature in state.terrain.active:
        if kinds[feature.kind].sensitivity != "impervious":
            continue
        if shapely.intersects(feature.geometry, line):
            return True
    return False


def in_radius(state: State, marker: Marker) -> list[Base]:
    """Bases whose centre is within the barrage radius of ``marker`` and not shielded."""
    radius = rules().data.barrage.radius
    mx, my = marker.at
    return [
        b
        for b in state.active()
        if math.hypot(b.geo.x - mx, b.geo.y - my) <= radius + 1e-9
        and not _blocked(state, marker.at, b.geo.at)
    ]


def towers_in_radius(state: State, marker: Marker) -> list[str]:
    radius = rules().data.barrage.radius
    out = []
    for tower in state.towers.values():
        if tower.destroyed:
            continue
        cx, cy = tower_centre(state, tower.id)
        if math.hypot(cx - marker.at[0], cy - marker.at[1]) <= radius + 1e-9 and not _blocked(
            state, marker.at, (cx, cy)
        ):
            out.append(tower.id)
    return out


def strike(state: State, marker: Marker, res: Resolution) -> list[str]:
    """One barrage on its own: a 2D6 roll for every base (and tower) in its radius, then
    the terrain (the per-marker reading of ruling 12)."""
    destroyed = [
        base.id
        for base in in_radius(state, marker)
        if base.active and _roll_base(state, base, marker, res)
    ]
    for tower_id in towers_in_radius(state, marker):
        _roll_tower(state, tower_id, marker, res)
    _clear_terrain(state, marker, res)
    return destroyed


def strike_together(state: State, markers: list[Marker], res: Resolution) -> list[str]:
    """3.0 phase 6 as written: one 2D6 roll for each base (and tower) within 3" of any of
    ``markers``, in the order the markers were set down; the marker it is rolled for is
    the first undeflected one that reaches it, else the first (ruling 12). Then each
    marker clears its terrain."""
    destroyed: list[str] = []
    reaching: dict[tuple[str, str], list[Marker]] = {}  # ("base" | "tower", id): markers
    for marker in markers:
        for base in in_radius(state, marker):
            reaching.setdefault(("base", base.id), []).append(marker)
        for tower_id in towers_in_radius(state, marker):
            reaching.setdefault(("tower", tower_id), []).append(marker)
    for (kind, target), found in reaching.items():  # in the order first reached
        marker = next((m for m in found if not m.deflected), found[0])
        if kind == "base":
            hit = state.bases[target]
            if hit.active and _roll_base(state, hit, marker, res):
                destroyed.append(hit.id)
        elif not state.towers[target].destroyed:
            _roll_tower(state, target, marker, res)
    for marker in markers:
        _clear_terrain(state, marker, res)
    return destroyed


def _roll_base(state: State, base: Base, marker: Marker, res: Resolution) -> bool:
    """The Area Weapons roll for ``base`` by ``marker``; whether it destroyed it."""
    flank = flank_supported(state, base)
    needs = area_needs(
        base.model.defence, no_flank_support=not flank, deflected=marker.deflected > 0
    )
    total = sum(res.roll(f"barrage {marker.id} on {base.id} (3.0)", 2, marker.side))
    if total < needs:
        res.emit(
            "barrage_miss",
            f"barrage {marker.id} misses {base.id} ({total}, needed {needs})",
            base=base.id,
            marker=marker.id,
        )
        return False
    text = f"barrage {marker.id} destroys {base.id} ({total}, needed {needs})"
    state.destroy(base, res, text, marker=marker.id, cause="barrage")
    return True


def _roll_tower(state: State, tower_id: str, marker: Marker, res: Resolution) -> None:
    tower = state.towers[tower_id]
    needs = area_needs(FUNGUS_TOWER, deflected=marker.deflected > 0)
    total = sum(res.roll(f"barrage {marker.id} on {tower_id} (3.0)", 2, marker.side))
    if total >= needs:  # destroyed outright: its full hull, then fungus's own removal
        res.emit(
            "barrage_tower",
            f"barrage {marker.id} destroys fungus tower {tower_id} ({total}, needed {needs})",
            tower=tower_id,
        )
        fungus.damage_tower(state, tower_id, tower.hull - tower.hits, res)


def disc(at: Point, radius: float) -> shapely.Geometry:
    """The ground within ``radius`` of ``at``: a polygon round the circle (so it holds all
    of it: the table geometry's circles are drawn inside theirs)."""
    n = CIRCLE_SEGMENTS
    outer = radius / math.cos(math.pi / n)
    ring = [
        (
            at[0] + outer * math.cos(2 * math.pi * (k + 0.5) / n),
            at[1] + outer * math.sin(2 * math.pi * (k + 0.5) / n),
        )
        for k in range(n)
    ]
    return shapely.Polygon(ring)


def _clear_terrain(state: State, marker: Marker, res: Resolution) -> None:
    """3.0 Terrain Effects: what of a low, medium or high sensitivity feature lies within
    2", 3" or 4" of the centrepoint is cleared; the rest of it stays (ruling 15)."""
    data = rules().data
    reach = data.barrage.clears
    kinds = terrain_chart().kinds
    point = shapely.Point(marker.at)
    within: dict[float, list[str]] = {}
    for feature in state.terrain.active:
        sens = kinds[feature.kind].sensitivity
        if sens not in reach:
            continue
        if shapely.distance(point, feature.geometry) < reach[sens]:
            within.setdefault(reach[sens], []).append(feature.id)
    cut: list[str] = []
    for radius, ids in within.items():
        cut += state.cut(disc(marker.at, radius), ids, data.clearing.crumbs)
    if cut:
        gone = [f for f in cut if state.terrain.feature(f).destroyed]
        left = [f for f in cut if f not in gone]
        said = [*(f"{f} (all of it)" for f in gone), *(f"part of {f}" for f in left)]
        res.emit(
            "cleared",
            f"barrage {marker.id} clears {', '.join(said)} (3.0)",
            marker=marker.id,
            features=cut,
        )


def resolve_all(state: State, res: Resolution, kinds: tuple[MarkerKind, ...]) -> None:
    """Strike with every marker of ``kinds`` on the table, in the order set down, and lift them."""
    markers = [m for m in state.markers if m.kind in kinds]
    if state.setup.options.barrage_rolls == "per_marker":
        for marker in markers:
            strike(state, marker, res)
    else:
        strike_together(state, markers, res)
    for marker in markers:
        state.markers.remove(marker)


__all__ = [
    "apply_deflect",
    "check_place",
    "deflectable",
    "disc",
    "flank_supported",
    "in_radius",
    "lose_type1",
    "place",
    "placeable",
    "resolve_all",
    "strike",
    "strike_together",
]
