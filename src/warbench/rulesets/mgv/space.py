"""Where MGV bases stand relative to each other: arcs, sight, cover, range, bearing.

All ranges are centre post to centre post (5.0: sight is measured from the
centre post of each base); intervening bases do not block sight (a ruling: the
text names only terrain as blocking, 1.4).
"""

from __future__ import annotations

from dataclasses import dataclass

from warbench.geometry.table import Feature, Figure, bearing, centre_distance, in_arc
from warbench.rulesets.mgv.data import rules
from warbench.rulesets.mgv.state import Base, State

BETWEEN_REACH = 1.0
"""Stand-in: a base is "between" fungus towers (1.4 cover "between") when two
towers stand within this many inches of its base."""
HUGGING_REACH = 0.05
"""Inches: a base this close to a feature is touching ("hugging") it."""


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """Whether a mount may fire at a target now, and how (5.0)."""

    allowed: bool
    off_line: bool
    reason: str


def line_of_fire(state: State, shooter: Base, target: Base, weapon: str) -> LineOfFire:
    """5.0 Arcs of fire: K and P within 30 degrees with sight; C also off-line.

    Remembered until the table changes (``State.touched``).
    """
    key = (shooter.id, target.id, weapon)
    found: LineOfFire | None = state.lines.get(key)
    if found is None:
        found = state.lines[key] = _line_of_fire(state, shooter, target, weapon)
    return found


def _line_of_fire(state: State, shooter: Base, target: Base, weapon: str) -> LineOfFire:
    data = rules().data
    geo, tgeo = shooter.geo, target.geo
    in_main = in_arc(geo, tgeo, data.arc_half_angle)
    # Sight is looked at only where it decides something: in the main arc.
    sight = in_main and state.scene().sight(geo, tgeo, figures_block=False).centre_clear
    if weapon != "missile":
        if not in_main:
            return LineOfFire(False, False, f"{target.id} is outside the 60-degree arc (5.0)")
        if not sight:
            return LineOfFire(False, False, f"no line of sight to {target.id} (5.0)")
        return LineOfFire(True, False, "")
    if sight:
        return LineOfFire(True, False, "")
    if in_arc(geo, tgeo, data.arc_half_angle + data.missile_off_line):
        return LineOfFire(True, True, "")
    return LineOfFire(False, False, f"{target.id} is outside the missile's 120-degree arc (5.0)")


def range_to(shooter: Base, target: Base) -> float:
    """Centre post to centre post, inches (5.0; the photon range, 5.3)."""
    return centre_distance(shooter.geo, target.geo)


def attacker_bearing(target: Base, shooter: Base) -> float:
    """Where the shooter is, seen from the target's front, degrees in (-180, 180]."""
    return bearing(target.geo, shooter.geo)


def from_rear(target: Base, shooter: Base) -> bool:
    """5.2: the shooter stands in the target's rear arc (stand-in width, data)."""
    half = rules().data.rear_arc.half_angle
    return abs(attacker_bearing(target, shooter)) >= 180.0 - half


def _nearer_shooter(state: State, feature: Feature, shooter: Figure, target: Figure) -> bool:
    """The feature is not behind the target: part of it is nearer the shooter."""
    gap = state.setup.terrain.distance_to(shooter.at, feature.id)
    return gap < centre_distance(shooter, target)


def cover(state: State, shooter: Base, target: Base) -> tuple[int, tuple[str, ...]]:
    """Cover classes applying to ``target`` against ``shooter`` (1.4) and the features giving it.

    Ruling: the best cover applies, not a sum (a base hugs one face at a time).
    "Hugging" is touching a feature that is not behind the target; fungus
    towers also cover a base between two of them (stand-in reach).
    """
    kinds = state.setup.kinds
    terrain = state.setup.terrain
    best, where = 0, ""
    near = terrain.features_touching(target.geo, reach=BETWEEN_REACH)
    towers = [f for f in near if "between" in kinds[f.id].cover_when]
    for feature in near:
        kind = kinds[feature.id]
        if kind.cover <= best:
            continue
        touching = terrain.distance_to(target.geo, feature.id) <= HUGGING_REACH
        hugging = (
            "hugging" in kind.cover_when
            and touching
            and _nearer_shooter(state, feature, shooter.geo, target.geo)
        )
        between = "between" in kind.cover_when and len(towers) >= 2
        if hugging or between:
            best, where = kind.cover, feature.id
    return best, ((where,) if where else ())
