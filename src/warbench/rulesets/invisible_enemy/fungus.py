"""1.5 chart note 2: fungus towers, contamination and the hunting "zombie" bases.

Numbers are ``data/rules.toml [fungus]``. Readings (docs/rules/invisible-enemy.md):

- A live tower infects a base whose centre comes within 3" of the tower's centre
  (the centroid of its feature) during a move, from outside that reach: one 1D6
  roll at the first point of approach, by the base's side; 4 or more
  contaminates it. A base that starts a move already that close does not roll
  for that tower again.
- A contaminated base stops where it was infected and never fires, moves under
  its side's control, is repaired or recovered again. From the next turn it is a
  *vector*: it infects as a tower does, but at 1" edge to edge (bases cannot
  get their centres within 1" without overlapping), and every (base, vector)
  pair rolls at most once a turn (``State.exposed``).
- At the end of the movement phase every vector hunts, in the order the
  scenario lists the bases: straight toward the closest active uncontaminated
  base of either side, up to its speed, stopping 0.9" (edge to edge) short, or
  where the table, an obstacle or an enemy of its old side bars the line. A
  hunter rolls for no trap or minefield (no one drives it). Then every clean
  base within 1" of a vector that has not yet rolled against it this turn rolls.
- A tower is killed (no longer live) at one third of its hull (3 x hits >=
  hull, as :func:`charts.damage_band` rounds) and removed at its full hull.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from warbench.core.game import Resolution
from warbench.geometry.table import Figure, MoveResult, Point, centre_distance, edge_distance
from warbench.rulesets.invisible_enemy.data import rules
from warbench.rulesets.invisible_enemy.space import tower_centre
from warbench.rulesets.invisible_enemy.state import Base, State
from warbench.rulesets.kit.eye import path

TOUCH_GAP = 1e-6


@dataclass(frozen=True, slots=True)
class Approach:
    """A source of contamination met ``distance`` inches along a move."""

    distance: float
    source: str
    tower: bool


def live_towers(state: State) -> list[str]:
    """Towers that can infect: live and still standing."""
    return [
        t.id
        for t in state.towers.values()
        if t.live and not t.destroyed and not state.terrain.feature(t.id).destroyed
    ]


def vectors(state: State) -> list[Base]:
    """Contaminated bases that spread it: infected in an earlier turn and still on the table."""
    return [b for b in state.active() if b.contaminated and b.contaminated < state.turn]


def _contact_reach(a: Figure, b: Figure) -> float:
    """Centre distance at which two bases come within the vector's reach edge to edge."""
    reach = rules().data.fungus.zombie_reach
    return reach + a.base.bounding_radius + b.base.bounding_radius


def _entries(result: MoveResult, centre: Point, reach: float) -> list[float]:
    """Distances along the move at which its centre comes within ``reach`` of ``centre``
    from outside (0.0 first if it starts inside)."""
    found: list[float] = []
    offset = 0.0
    inside = math.dist(result.start.at, centre) <= reach
    if inside:
        found.append(0.0)
    for leg in result.legs:
        if leg.length <= 0.0:
            continue
        (x0, y0), (x1, y1) = leg.start, leg.end
        dx, dy = (x1 - x0) / leg.length, (y1 - y0) / leg.length
        fx, fy = x0 - centre[0], y0 - centre[1]
        b = fx * dx + fy * dy
        c = fx * fx + fy * fy - reach * reach
        disc = b * b - c
        if disc >= 0.0 and not inside:
            t0 = -b - math.sqrt(disc)
            if 0.0 < t0 <= leg.length:
                found.append(offset + t0)
        inside = math.dist(leg.end, centre) <= reach
        offset += leg.length
    return found


def approaches(state: State, base: Base, result: MoveResult) -> list[Approach]:
    """Every contamination roll the move calls for, in the order it meets them: live towers
    it comes within reach of from outside, vectors it comes within 1" of (or starts within
    1" of) that it has not rolled against this turn."""
    data = rules().data.fungus
    out: list[Approach] = []
    for tower_id in live_towers(state):
        hits = [d for d in _entries(result, tower_centre(state, tower_id), data.infect_reach) if d]
        if hits:
            out.append(Approach(hits[0], tower_id, True))
    for vector in vectors(state):
        if vector.id == base.id or (base.id, vector.id) in state.exposed:
            continue
        hits = _entries(result, vector.geo.at, _contact_reach(base.geo, vector.geo))
        if hits:
            out.append(Approach(hits[0], vector.id, False))
    return sorted(out, key=lambda a: (a.distance, not a.tower, a.source))


def roll_infection(state: State, base: Base, source: str, res: Resolution) -> bool:
    """One contamination roll of ``base`` near ``source`` (a tower or a vector): 1D6,
    contaminated on 4 or more (1.5 note 2)."""
    need = rules().data.fungus.infect_on
    if source in state.bases:
        state.exposed.append((base.id, source))
        what = f"within 1in of contaminated {source}"
    else:
        what = f"near fungus tower {source}"
    (die,) = res.roll(f"contamination of {base.id} {what} ({need}+, 1.5 note 2)", 1, base.side)
    if die < need:
        res.emit(
            "clean",
            f"{base.id} escapes contamination {what} ({die}, needed {need})",
            base=base.id,
            source=source,
            die=die,
            needs=need,
        )
        return False
    base.contaminated = state.turn
    state.touched()
    res.emit(
        "contaminated",
        f"{base.id} is contaminated {what} ({die}, needed {need}): it stops and never "
        "fires again; from next turn it hunts the nearest base",
        base=base.id,
        source=source,
        die=die,
        needs=need,
        cause="contamination",
    )
    return True


def start_turn(state: State, res: Resolution) -> None:
    """A new turn: the exposure rolls start afresh, last turn's infected become vectors."""
    state.exposed = []
    fresh = [b.id for b in state.active() if b.contaminated == state.turn - 1 > 0]
    if fresh:
        res.emit(
            "vectors",
            f"contaminated {', '.join(fresh)} now hunt and spread it (1.5 note 2)",
            bases=fresh,
        )


def prey(state: State, hunter: Base) -> Base | None:
    """The closest active clean base of either side (ties: scenario order)."""
    found = [b for b in state.active() if b.id != hunter.id and not b.contaminated]
    if not found:
        return None
    return min(found, key=lambda b: edge_distance(hunter.geo, b.geo))


def zombies_move(state: State, res: Resolution) -> None:
    """End of the movement phase: each vector hunts, then the contact rolls."""
    for hunter in vectors(state):
        if hunter.active:
            _hunt(state, hunter, res)
    for vector in vectors(state):
        for base in state.active():
            if (
                base.contaminated
                or (base.id, vector.id) in state.exposed
                or edge_distance(base.geo, vector.geo)
                > rules().data.fungus.zombie_reach + TOUCH_GAP
            ):
                continue
            roll_infection(state, base, vector.id, res)


def _hunt(state: State, hunter: Base, res: Resolution) -> None:
    from warbench.rulesets.invisible_enemy.movement import move_rules

    target = prey(state, hunter)
    data = rules().data.fungus
    if target is None or edge_distance(hunter.geo, target.geo) <= data.zombie_reach:
        return
    gap = centre_distance(hunter.geo, target.geo)
    stop = gap - hunter.geo.base.bounding_radius - target.geo.base.bounding_radius - data.hunt_to
    scene = state.scene()
    rules_ = move_rules(False, hunter.damage == "2/3")
    reach = scene.reach_along(hunter.id, target.geo.at, hunter.model.speed, rules=rules_)
    distance = min(reach.distance, stop)
    (x0, y0), (x1, y1) = hunter.geo.at, target.geo.at
    while distance > 0.05:
        to = (x0 + (x1 - x0) / gap * distance, y0 + (y1 - y0) / gap * distance)
        result = scene.plan_move(hunter.id, [to], allowance=hunter.model.speed, rules=rules_)
        if result.legal:
            hunter.geo = result.end
            hunter.moved_turn = state.turn
            state.touched()
            eye, measuring = rules().data.eye, state.setup.options.measuring
            how_far = "" if measuring == "eye" else f': {distance:.1f}"'  # 3.0: by eye
            res.emit(
                "hunt",
                f"contaminated {hunter.id} hunts {target.id}{how_far} toward it",
                base=hunter.id,
                target=target.id,
                path=path(result.path, eye, measuring),
                facing=eye.heading(result.end.facing) if measuring == "eye" else result.end.facing,
            )
            return
        distance -= 0.1


def damage_tower(state: State, tower_id: str, hits: int, res: Resolution) -> None:
    """Hull hits on a fungus tower: killed (no longer live) at one third of its hull,
    removed from the table at its full hull (1.5 note 2)."""
    tower = state.towers[tower_id]
    if tower.destroyed or hits <= 0:
        return
    tower.hits = min(tower.hull, tower.hits + hits)
    if tower.live and 3 * tower.hits >= tower.hull:
        tower.live = False
        res.emit(
            "tower_killed",
            f"fungus tower {tower_id} is killed ({tower.hits}/{tower.hull}): it infects no more",
            tower=tower_id,
        )
    if tower.destroyed:
        state.clear(tower_id)
        res.emit(
            "tower_destroyed",
            f"fungus tower {tower_id} is destroyed and removed",
            tower=tower_id,
        )


__all__ = [
    "Approach",
    "approaches",
    "damage_tower",
    "live_towers",
    "prey",
    "roll_infection",
    "start_turn",
    "vectors",
    "zombies_move",
]
