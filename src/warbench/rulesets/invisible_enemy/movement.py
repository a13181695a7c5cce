"""4.0-4.6 Movement: the Control roll, legs and their costs, traps, base intervals, towing.

A side names a unit (one attempt a turn, 4.0); it rolls on the Control table
(:func:`control_roll`) unless it carries an automatic move marker; then its
bases move one at a time (``move``) or its engineers act (7.0,
:mod:`.engineering`). Costs (4.2, 4.4; numbers in ``data/rules.toml``):

- turning: under 45 degrees free, 45-90 1", 91-180 2", each change priced alone
  (ruling 31 a); a leg drifting off the facing: forward to 30 degrees 1 per inch,
  diagonal 2, sideways 3, reverse 2, no backward diagonal;
- terrain: the 1.5 chart's cost per inch; a base 2/3 damaged pays 2; a towing
  engineer pays at least 2 (4.4 Tow); where several apply the worst counts,
  never more than 3 (ruling 30 a);
- a demolition engineer *ploughs* through obstacles of high and medium
  sensitivity on every move, and low ones too when it says so (``engineer E1
  plough X,Y``, ruling 52; minefields, encrypted surface and MEK-Lok among them,
  low obstacles all, unless the scenario's ``plough_mines`` is false, when only
  the 7.0 actions clear them): 1, 2 or 3 per inch instead of the chart, impassable
  ones included, leaving a 1" lane along its centre's track (the rest of each
  obstacle stays, ruling 33 a); it rolls for no trap in what it ploughs.

Along the move, in the order met: a trap roll (1D6, trapped at or above the
chart's number) in the middle of each crossing of a trap feature; the
minefield stand-in (``rules.toml [minefield]``); contamination rolls near live
fungus towers and contaminated bases (:mod:`.fungus`). A trapped or
contaminated base stops there (short of a friend it was passing); a base
destroyed by a mine is removed.

Base intervals (4.5): a unit's active, uncontaminated bases fall into groups
chained by the side's interval (centre to centre); the largest group is in
network (a tie: the group holding the unit's first-listed base); the others'
bases are stranded unless a friendly network base is within its support range.
Network bases are never stranded. Stranded bases may not move or turn; they
still fire. A move may not strand a base of the unit that was not stranded.

Towing (4.4): an engineer with a tow (:mod:`.engineering`) pays at least 2 per
inch; the towed base follows, set right behind the engineer's rear with its
facing, and the tow ends (one move). A towed base that was trapped is dragged
free. Only its final place is checked (it must fit there).
"""

from __future__ import annotations

import itertools
import math
import weakref
from dataclasses import replace
from functools import cache

import shapely
import shapely.ops

from warbench.core.game import Resolution
from warbench.errors import IllegalAction, MoveRefused
from warbench.geometry.table import (
    ANGLE_TOLERANCE,
    Figure,
    Leg,
    MoveResult,
    MoveRules,
    Point,
    Scene,
    Terrain,
    along,
    centre_distance,
    heading,
    normalize_angle,
    overlapping,
    segment_distance,
    turn_angle,
)
from warbench.geometry.table.movement import reach_distance, turning_cost
from warbench.rulesets.invisible_enemy import charts, fungus
from warbench.rulesets.invisible_enemy.actions import Move, Unit
from warbench.rulesets.invisible_enemy.data import rules, terrain_chart
from warbench.rulesets.invisible_enemy.state import Base, State
from warbench.rulesets.kit.eye import emit_move, refuse_problem
from warbench.rulesets.kit.eye import path as eye_path
from warbench.rulesets.kit.rulings import cite_ruling
from warbench.rulesets.kit.table.moves import driven_path, leave_by, own_base

RULINGS = "warbench.rulesets.invisible_enemy"
"""Where ``data/rulings.toml`` lives: refusals caused by a ruling cite it from there."""

PLOUGH_KEEP = frozenset({"minefield", "encrypted", "mek_lok"})
"""Low kinds a demolition engineer also clears with a 7.0 action; it ploughs them only
with ``plough`` and only while the scenario's ``plough_mines`` holds (ruling 52)."""
PLOUGHABLE = ("high", "medium", "low")
PLOUGHED = ("high", "medium")
"""What a demolition engineer ploughs on every move: never dearer than the chart (4.4,
1.5). Low obstacles cost it 3 an inch, more than mildew or slime: it ploughs them only
when it says so (``engineer E1 plough X,Y``, ruling 52)."""


# -- rules of a move -------------------------------------------------------------------------
@cache
def move_rules(may_leave_table: bool, damaged: bool = False, towing: bool = False) -> MoveRules:
    """4.2, 4.4: the turning bands, the direction costs (2/3 damaged 2 per inch, towing at
    least 2, the worst counting, capped at 3); friends may be passed (the 45-degree bump)."""
    data = rules()
    floor = data.data.clearing.tow if towing else 0.0
    cap = data.data.movement.cap

    def cost(drift: float) -> float | None:
        rate = data.direction_cost(drift, damaged=damaged)
        return None if rate is None else min(max(rate, floor), cap)

    return MoveRules(
        turning=data.turning,
        direction_cost=cost,
        pass_through="friends",
        may_leave_table=may_leave_table,
    )


def breach_edge(state: State, side: str) -> str | None:
    """The edge ``side`` breaks out by, if the scenario is its breach."""
    victory = state.setup.victory
    return victory.edge if victory.kind == "breach" and victory.side == side else None


def _off_by(state: State, figure: Figure, edge: str) -> bool:
    """The base's centre has crossed ``edge`` (it leaves the table there)."""
    return state.setup.table.past_edge(figure.at, edge)


def ploughs(state: State, base: Base) -> bool:
    """A demolition engineer clears obstacles as it moves (4.4)."""
    return base.role == "engineer" and state.units[base.unit].mission == "E"


_PLOUGHED: weakref.WeakKeyDictionary[
    Terrain, dict[tuple[bool, bool], tuple[Terrain | None, frozenset[str]]]
] = weakref.WeakKeyDictionary()
"""Each layout's terrain as a demolition engineer ploughs through it, by ``low`` and the
scenario's ``plough_mines`` (None: the layout itself): a layout never changes (a changed
table has a new one, ``State.clear``, ``State.cut``), so neither does its ploughed form,
and keeping it with the layout lets it and its tracks serve every plan on that layout."""


def _terrain_for(state: State, base: Base, low: bool = False) -> tuple[Terrain, frozenset[str]]:
    """The terrain as ``base`` moves through it, and the features it ploughs (``low``: the
    low sensitivity ones too, an engineer's ``plough``)."""
    if not ploughs(state, base):
        return state.terrain, frozenset()
    mines = state.setup.options.plough_mines
    layout = state.terrain
    known = _PLOUGHED.get(layout)
    if known is None:
        known = _PLOUGHED[layout] = {}
    found = known.get((low, mines))
    if found is None:
        kinds = terrain_chart().kinds
        rates = rules().data.clearing
        changed = []
        sensitivities = PLOUGHABLE if low else PLOUGHED
        for f in layout.features:
            kind = kinds.get(f.kind)
            kept = f.kind in PLOUGH_KEEP and not (low and mines)
            if f.destroyed or kind is None or kept or kind.barrier:
                continue
            if kind.sensitivity in sensitivities:
                rate = float(getattr(rates, str(kind.sensitivity)))
                changed.append(replace(f, move_cost=rate, impassable=False))
        # (The layout itself is not kept as its own value: that would keep it alive.)
        found = known[(low, mines)] = (
            layout.replaced(*changed) if changed else None,
            frozenset(f.id for f in changed),
        )
    terrain, ploughed = found
    return (layout if terrain is None else terrain), ploughed


def _scene_for(state: State, base: Base, low: bool = False) -> Scene:
    terrain, ploughed = _terrain_for(state, base, low)
    scene = state.scene()
    if not ploughed:
        return scene
    # The ploughed table of this scene, kept while the scene is the state's (its caches
    # serve every plan of the engineer, as the scene's serve the other bases').
    key = ("plough-scene", low)
    found = state.plans.get(key)
    if found is None or found[0] is not scene or found[1] is not terrain:
        found = state.plans[key] = (scene, terrain, Scene(scene.table, terrain, scene.figures))
    ploughing: Scene = found[2]
    return ploughing


def _rules_for(state: State, base: Base) -> MoveRules:
    return move_rules(*_rule_args(state, base))


def _rule_args(state: State, base: Base) -> tuple[bool, bool, bool]:
    """:func:`move_rules`' arguments for ``base``: what its rules of a move depend on."""
    return (
        breach_edge(state, base.side) is not None,
        base.damage == "2/3",
        _tow(state, base) is not None,
    )


def _tow(state: State, engineer: Base) -> Base | None:
    return state.tow_of(engineer)


def towed_by(state: State, base: Base) -> Base | None:
    """The engineer towing ``base``, if any."""
    # state.active() spelt out, its test after the cheaper one (the same first match):
    # asked of every base at every plan, when hardly any base tows.
    for other in state.bases.values():
        if (
            other.towing == base.id
            and not (other.destroyed or other.exited)
            and other.id != base.id
            and _tow(state, other) is base
        ):
            return other
    return None


def behind(state: State, engineer: Figure, towed: Base) -> Figure:
    """Where a towed base stands: touching the engineer's rear, facing as it does (4.4)."""
    gap = rules().data.engineering.tow_gap
    back = engineer.base.bounding_radius + towed.geo.base.bounding_radius + gap
    rad = math.radians(engineer.facing)
    at = (engineer.x - back * math.cos(rad), engineer.y - back * math.sin(rad))
    return towed.geo.moved_to(at, engineer.facing)


def _fits(state: State, figure: Figure, absent: set[str]) -> bool:
    if not state.setup.table.contains_bounds(figure.bounds):
        return False
    core, radius = figure.solid
    if state.terrain.movement_obstacles(core, radius):
        return False
    return not any(overlapping(figure, b.geo) for b in state.active() if b.id not in absent)


# -- 4.5 base intervals -------------------------------------------------------------------
def _stranded_ids(
    state: State, unit_id: str, where: dict[str, Figure | None] | None = None
) -> frozenset[str]:
    """Bases of ``unit_id`` stranded, with the positions ``where`` overrides (None: gone).

    As the table stands (no overrides) it is remembered until the table changes
    (``State.touched``), like the move plans that ask it."""
    if where:
        return _stranded_now(state, unit_id, where)
    key = ("stranded", unit_id)
    found: frozenset[str] | None = state.plans.get(key)
    if found is None:
        found = state.plans[key] = _stranded_now(state, unit_id, {})
    return found


def _stranded_now(state: State, unit_id: str, where: dict[str, Figure | None]) -> frozenset[str]:

    def geo(b: Base) -> Figure | None:
        return where.get(b.id, b.geo)

    left: list[tuple[Base, Figure, float, float]] = []
    for b in state.unit_bases(unit_id):
        if not b.contaminated and (g := where.get(b.id, b.geo)) is not None:
            left.append((b, g, g.x, g.y))
    if not left:
        return frozenset()
    placed = left[:]  # in the unit's order (the tie-break below)
    side = state.units[unit_id].side
    setup = state.setup.side_setups[side]
    groups: list[list[tuple[Base, Figure]]] = []
    interval = setup.interval + 1e-9
    while left:
        chain = [left.pop(0)]
        i = 0
        while i < len(chain):
            _, _, hx, hy = chain[i]
            # centre_distance spelt out (the same sum): asked of every pair, many times
            rest: list[tuple[Base, Figure, float, float]] = []
            for m in left:
                (chain if math.hypot(m[2] - hx, m[3] - hy) <= interval else rest).append(m)
            left = rest
            i += 1
        if not groups and not left:
            return frozenset()  # one group: it is the main one, and no base is cut off
        groups.append([(b, g) for b, g, _, _ in chain])
    order = {b.id: n for n, (b, _, _, _) in enumerate(placed)}
    main = max(groups, key=lambda g: (len(g), -min(order[b.id] for b, _ in g)))
    reach = charts.network_range(setup.tech)
    relays = [
        g
        for b in state.active(side)
        if b.role == "network" and not b.contaminated and (g := geo(b)) is not None
    ]
    # 4.5 "unit/formation": a base of another unit of the same formation (a scenario's
    # units name theirs) within the interval keeps a cut-off base in contact too.
    formation = state.units[unit_id].formation
    mates = [
        g
        for b in state.active(side)
        if formation
        and b.unit != unit_id
        and state.units[b.unit].formation == formation
        and not b.contaminated
        and (g := geo(b)) is not None
    ]

    def in_contact(g: Figure) -> bool:
        x, y = g.x, g.y
        return any(math.hypot(r.x - x, r.y - y) <= reach + 1e-9 for r in relays) or any(
            math.hypot(m.x - x, m.y - y) <= interval for m in mates
        )

    return frozenset(
        b.id
        for group in groups
        if group is not main
        for b, g in group
        if b.role != "network" and not in_contact(g)
    )


def stranded(state: State, base: Base) -> bool:
    """4.5: cut off from the larger part of its unit and from every network base."""
    if not base.active or base.contaminated:
        return False
    return base.id in _stranded_ids(state, base.unit)


# -- 4.0 attempts and the Control roll ------------------------------------------------------
def _can_move(state: State, base: Base, strand: frozenset[str]) -> bool:
    return (
        base.active
        and not base.contaminated
        and not base.trapped
        and base.id not in strand
        and towed_by(state, base) is None
    )


def _has_anything(state: State, unit_id: str) -> bool:
    """A base of the unit could move, or an engineer of it could act, in a new activation."""
    from warbench.rulesets.invisible_enemy.engineering import base_options

    strand = _stranded_ids(state, unit_id)
    for b in state.unit_bases(unit_id):
        if _can_move(state, b, strand):
            return True
        if b.role == "engineer" and base_options(state, b, fresh=True):
            return True
    return False


def attemptable(state: State, side: str) -> list[str]:
    """Units of ``side`` that may still try to move this turn (ids, in scenario order)."""
    return [
        u.id
        for u in state.units.values()
        if u.side == side and u.attempted_turn != state.turn and _has_anything(state, u.id)
    ]


def check_attempt(state: State, side: str, action: Unit) -> None:
    unit = state.units.get(action.unit)
    if unit is None:
        raise IllegalAction(action, f"there is no unit {action.unit}")
    if unit.side != side:
        raise IllegalAction(action, f"{unit.id} is not yours")
    if unit.attempted_turn == state.turn:
        raise IllegalAction(
            action,
            f"{unit.id} has already tried to move this turn: one Control roll a turn, "
            f"passed or failed (4.0, {cite_ruling(RULINGS, 36)})",
        )
    if not _has_anything(state, unit.id):
        raise IllegalAction(
            action,
            f"{unit.id} has nothing that can move or act: every base is destroyed, "
            "contaminated, trapped, stranded or under tow (4.0, 4.5)",
        )


def network_support(state: State, unit_id: str) -> bool:
    """A friendly network base within its support range of a base of the unit (4.0)."""
    unit = state.units[unit_id]
    reach = charts.network_range(state.setup.side_setups[unit.side].tech)
    relays = [b for b in state.active(unit.side) if b.role == "network" and not b.contaminated]
    return any(
        centre_distance(r.geo, b.geo) <= reach + 1e-9
        for r in relays
        for b in state.unit_bases(unit_id)
    )


def control_roll(state: State, unit_id: str, res: Resolution) -> bool:
    """4.0: 1D6 on the Control table for the side's network status (+1 with a network
    base in range); a unit that fails may not move or turn this turn but still fires."""
    unit = state.units[unit_id]
    side = unit.side
    status = state.networks[side].status
    support = network_support(state, unit_id)
    needs = charts.control_needs(status, support)
    faces: list[int] = []

    def roll(purpose: str, n: int) -> tuple[int, ...]:
        got = res.roll(f"{unit_id} {purpose} (4.0)", n, side)
        faces.extend(got)
        return got

    passed = charts.control(status, support, roll)
    with_net = " with a network base in range" if support else ""
    verdict = "passes: its bases may move" if passed else "fails: it may not move or turn"
    res.emit(
        "control",
        f"{unit_id} {verdict} (rolled {faces[0]}, needed {needs}+ at {status}%{with_net})",
        unit=unit_id,
        passed=passed,
        die=faces[0],
        needs=needs,
        status=status,
        network=support,
    )
    return passed


# -- which bases may move --------------------------------------------------------------------
def movable_bases(state: State, unit_id: str) -> list[Base]:
    """Bases of the unit that may still move in this activation."""
    strand = _stranded_ids(state, unit_id)
    return [
        b
        for b in state.unit_bases(unit_id)
        if b.id not in state.moved and _can_move(state, b, strand)
    ]


def can_continue(state: State) -> bool:
    """Whether a base of the current unit may still move or act this activation."""
    from warbench.rulesets.invisible_enemy.engineering import base_options

    if state.current is None:
        return False
    if movable_bases(state, state.current):
        return True
    return any(
        b.role == "engineer" and base_options(state, b) for b in state.unit_bases(state.current)
    )


# -- planning --------------------------------------------------------------------------------
def plan(state: State, side: str, action: Move, low: bool = False) -> tuple[Base, MoveResult]:
    """Check a move without changing anything; IllegalAction says why it is refused
    (``low``: a demolition engineer ploughing low obstacles too, 4.4).

    Remembered until the table changes (``State.touched``).
    """
    key = ("move", side, action, low, state.turn, state.current, tuple(state.moved))
    found = state.plans.get(key)
    if found is None:
        try:
            found = _plan(state, side, action, low)
        except IllegalAction as exc:
            found = exc
        state.plans[key] = found
    if isinstance(found, IllegalAction):
        raise MoveRefused(action, found.reason_given, getattr(found, "kind", ""))
    result: tuple[Base, MoveResult] = found
    return result


def _plan(state: State, side: str, action: Move, low: bool) -> tuple[Base, MoveResult]:
    base: Base = own_base(state.bases, action.base, side, action)
    if base.unit != state.current:
        moving = f"{state.current} is moving" if state.current else "no unit is moving"
        raise IllegalAction(action, f"{base.id} is not of the moving unit ({moving}, 4.0)")
    if base.id in state.moved:
        raise IllegalAction(action, f"{base.id} has already moved or acted this activation")
    if base.contaminated:
        raise IllegalAction(action, f"{base.id} is contaminated: it moves only to hunt (1.5)")
    if base.trapped:
        raise IllegalAction(action, f"{base.id} is trapped: an engineer must free it (1.5)")
    tower = towed_by(state, base)
    if tower is not None:
        raise IllegalAction(action, f"{base.id} is under tow by {tower.id}: it moves with it")
    if stranded(state, base):
        raise IllegalAction(
            action,
            f"{base.id} is stranded: cut off from its unit and network, it may not "
            f"move or turn (4.5, {cite_ruling(RULINGS, 35)})",
        )
    towed = _tow(state, base)
    edge = breach_edge(state, side)
    result = _drive(state, base, action, [towed.id] if towed else [], low)
    refuse_problem(action, result, state.bases, state.setup.options.measuring, side)
    exits = result.off_table
    if exits and (edge is None or not _off_by(state, result.end, edge)):
        but = f" except by the {edge} edge" if edge else ""
        raise MoveRefused(action, f"{base.id} may not leave the table{but}", "table_edge")
    where: dict[str, Figure | None] = {base.id: None if exits else result.end}
    if towed is not None and not exits:
        spot = behind(state, result.end, towed)
        if not _fits(state, spot, {base.id, towed.id}):
            raise MoveRefused(
                action, f"{towed.id} would not fit behind {base.id} at the end of the tow (4.4)"
            )
        where[towed.id] = spot
    before = _stranded_ids(state, base.unit)
    after = _stranded_ids(state, base.unit, where)
    cut = [b for b in state.unit_bases(base.unit) if b.id in after and b.id not in before]
    if cut:
        interval = state.setup.side_setups[side].interval
        names = ", ".join(b.id for b in cut)
        raise MoveRefused(
            action,
            f"the move would strand {names}: the bases of {base.unit} must stay within "
            f'{interval:g}" of each other (4.5, {cite_ruling(RULINGS, 35)})',
            "interval",
        )
    return base, result


def legs_cost(state: State, base: Base, legs: list[Leg]) -> float:
    """What ``legs`` cost ``base`` as the rules plan them (4.4 directions, terrain),
    whether or not the move is legal: the ``toward X,Y`` clip's measure."""
    towed = _tow(state, base)
    return (
        _scene_for(state, base)
        .plan_move(
            base.id,
            legs,
            allowance=base.model.speed,
            rules=_rules_for(state, base),
            ignore=[towed.id] if towed else [],
        )
        .cost
    )


def _drive(
    state: State, base: Base, action: Move, ignore: list[str], low: bool = False
) -> MoveResult:
    """Plan the move's legs. Without a final facing the base faces where it goes. With
    one, each leg in turn is driven whichever way costs less: turning to face its way,
    or keeping the facing it has (forward diagonal, sideways or reverse, 4.4); a tie
    turns. (This reading lets a base back up or sidestep when that is cheaper, as a
    player would.) A leg written with its own facing (``X,Y@F``, or ``reverse 1``) is
    driven holding that facing, whatever the cost."""
    scene = _scene_for(state, base, low)
    args = _rule_args(state, base)
    memo = _DRIVEN.get(scene.terrain)
    if memo is None:
        memo = _DRIVEN[scene.terrain] = {}
    key: tuple[object, ...] = (
        scene.table,
        base.geo,
        base.model.speed,
        args,
        action,
        (*ignore,),
        low,
    )
    key += _in_reach(scene, base.geo, action.path)
    found = memo.get(key)
    if found is None:
        if len(memo) >= DRIVEN_KEPT:
            memo.clear()
        found = memo[key] = _drive_now(scene, base, action, move_rules(*args), ignore)
    return found


DRIVEN_KEPT = 4096
"""At most this many driven moves are kept per layout (:data:`_DRIVEN`); then all are
forgotten at once (each is worked out again when asked: the same answer)."""
IN_REACH_MARGIN = 0.5
"""Inches beyond the two bases' bounding circles within which a figure's centre counts as
near a move (:func:`_in_reach`): generous, as a figure farther off can touch nothing."""

_DRIVEN: weakref.WeakKeyDictionary[Terrain, dict[tuple[object, ...], MoveResult]] = (
    weakref.WeakKeyDictionary()
)
"""Each layout's driven moves (:func:`_drive`), by everything the answer depends on: the
table, the mover as it stands, its allowance and rules, the move, the figures it leaves
out, and every figure near enough to the move's path to touch the mover anywhere along
it (a figure farther off can neither stop nor block it: the planner meets figures only
where their bases overlap the mover's). A pure function of its key, so it serves any
state that asks with the same key: a side's seen copy (:mod:`.view`) is answered from
its own inputs, the bases it sees by eye where it sees them, never from the exact ones."""


def _in_reach(scene: Scene, mover: Figure, path: tuple[Point, ...]) -> tuple[Figure, ...]:
    """The figures of ``scene`` (the mover aside) whose bases could touch ``mover``'s
    anywhere along ``path`` (from where it stands; turning in place at its corners): each
    whose centre lies within both bounding radii and :data:`IN_REACH_MARGIN` of the path."""
    points = [mover.at, *path]
    segments = list(itertools.pairwise(points)) or [(mover.at, mover.at)]
    reach = mover.base.bounding_radius + IN_REACH_MARGIN
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    near: list[Figure] = []
    for other in scene.figures:
        limit = reach + other.base.bounding_radius
        x, y = other.x, other.y
        # Outside the path's box widened by the limit: surely farther than the limit.
        if x < x0 - limit or x > x1 + limit or y < y0 - limit or y > y1 + limit:
            continue
        if other.id == mover.id:
            continue
        p = (x, y)
        if any(segment_distance(p, a, b) <= limit for a, b in segments):
            near.append(other)
    return tuple(near)


def _drive_now(
    scene: Scene, base: Base, action: Move, rules_: MoveRules, ignore: list[str]
) -> MoveResult:
    """:func:`_drive`'s answer worked out."""

    def run(legs: list[Leg]) -> MoveResult:
        return scene.plan_move(
            base.id,
            legs,
            allowance=base.model.speed,
            rules=rules_,
            final_facing=action.facing,
            ignore=ignore,
        )

    path = list(action.path)
    given = action.legs()
    if action.facing is None or not path:
        return run(given)
    chosen: list[Leg] = []
    facing = base.geo.facing
    here = base.geo.at
    best = run(given)
    if (
        len(given) == 1
        and given[0].facing is None
        and _holding_dearer(best, facing, action.facing, rules_)
    ):
        return best  # what the loop below would choose, without planning the leg held
    for i, point in enumerate(path):
        rest = given[i + 1 :]
        held = given[i].facing
        if held is not None:  # written X,Y@F: the player chose the facing
            chosen.append(given[i])
            facing, here = held, point
            continue
        turned = best if i == 0 else run([*chosen, Leg(point), *rest])
        kept = run([*chosen, Leg(point, facing), *rest])
        if (kept.problem is not None, kept.cost) < (turned.problem is not None, turned.cost):
            chosen.append(Leg(point, facing))
            best = kept
        else:
            chosen.append(Leg(point))
            best = turned
            if math.dist(here, point) > 0.0:
                facing = heading(here, point)
        here = point
    return best


def _holding_dearer(turned: MoveResult, facing: float, final: float, rules_: MoveRules) -> bool:
    """Whether :func:`_drive`'s one leg, driven turned (``turned``: legal), surely beats
    it driven holding ``facing`` (the base's), both ending turned to ``final``: the held
    plan's cost is worked out here
    as the planner would (the same track pieces, crossings and final turn, the same
    sums in the same order), and it is no less; or the held plan breaks a rule (a
    direction or a turn not allowed) the turned one does not. False when unsure."""
    start = turned.start
    legs = turned.legs
    if turned.problem is not None or len(legs) != 1 or start.facing != facing:
        return False
    leg = legs[0]
    drift = abs(turn_angle(start.facing, heading(start.at, leg.end)))
    rate = 1.0
    if rules_.direction_cost is not None:
        allowed = rules_.direction_cost(drift)
        if allowed is None:
            return True  # driven that way the leg is not allowed at all
        rate = allowed
    costs = [
        sum(p.length * max(p.cost, rate) for p in leg.pieces) + sum(c.cost for c in leg.crossings)
    ]
    angle = turn_angle(start.facing, normalize_angle(final))
    if abs(angle) > ANGLE_TOLERANCE:
        turn = turning_cost(rules_, angle)
        if turn is None:
            return True  # the turn at the end is more than the turning table allows
        costs.append(turn)
    return sum(costs) >= turned.cost


# -- moving ----------------------------------------------------------------------------------
def apply_move(state: State, side: str, action: Move, res: Resolution, low: bool = False) -> None:
    """Make the move (``low``: an engineer's ``plough``, low obstacles ploughed too)."""
    base, result = plan(state, side, action, low)
    terrain, ploughed = _terrain_for(state, base, low)
    towed = _tow(state, base)
    kinds = terrain_chart().kinds

    def trap_of(fid: str) -> int | None:
        kind = kinds.get(terrain.feature(fid).kind)
        return None if kind is None or fid in ploughed else kind.trap

    events: list[tuple[float, int, str, str]] = []
    for c in along.crossings(terrain, result, lambda f: trap_of(f) is not None):
        events.append((c.middle, 0, "trap", c.feature))
    mines = along.crossings(  # a minefield it ploughs is cleared ahead of it (ruling 52)
        terrain, result, lambda f: terrain.feature(f).kind == "minefield" and f not in ploughed
    )
    for c in mines:
        events.append((c.middle, 1, "mine", c.feature))
    for a in fungus.approaches(state, base, result):
        events.append((a.distance, 2, "fungus", a.source))
    events.sort()

    end = result.end
    travelled = sum(leg.length for leg in result.legs)
    stopped = False
    absent = {base.id, towed.id} if towed else {base.id}
    friends = [b.geo for b in state.active(side) if b.id not in absent]
    for distance, _, what, source in events:
        if what == "trap":
            need = trap_of(source) or 7
            exact = kinds[terrain.feature(source).kind].trap_only
            shown = f"{need}" if exact else f"{need}+"
            (die,) = res.roll(f"trap roll in {source} ({shown}, 1.5)", 1, side)
            if (die != need) if exact else (die < need):
                continue
            end, travelled = along.rest_at(result, distance, friends)
            base.trapped = True
            res.emit(
                "trapped",
                f"{base.id} is trapped in {source} (rolled {die}, {shown}): immobilised",
                base=base.id,
                feature=source,
                die=die,
                needs=need,
            )
        elif what == "mine":
            needs = charts.area_needs(base.model.defence)
            total = sum(res.roll(f"minefield {source} strikes {base.id} (stand-in)", 2, side))
            if total < needs:
                res.emit(
                    "mine_miss",
                    f"{base.id} crosses minefield {source} unharmed ({total}, needed {needs})",
                    base=base.id,
                    feature=source,
                )
                continue
            at, facing = along.point_along(result, distance)
            end, travelled = base.geo.moved_to(at, facing), distance
            text = f"minefield {source} destroys {base.id} ({total}, needed {needs}; stand-in)"
            state.destroy(base, res, text, touch=False, feature=source, cause="minefield")
        else:
            if not fungus.roll_infection(state, base, source, res):
                continue
            end, travelled = along.rest_at(result, distance, friends)
        stopped = True
        break

    base.geo = end
    base.moved_turn = state.turn
    state.moved.append(base.id)
    leave_by(state, base, end.at, breach_edge(state, side), stopped, "breaks out by", res)
    path = driven_path(result, travelled, stopped, end.at)
    spent = along.spent_until(result, travelled) if stopped else result.cost
    spend = (travelled, base.model.speed, spent)
    eye, measuring = rules().data.eye, state.setup.options.measuring
    emit_move(res, base.id, path, end.facing, spend, eye, measuring)
    if ploughed:
        _clear_ploughed(state, base, result, travelled, ploughed, res)
    if towed is not None:
        base.towing = None
        if base.active and not base.exited:
            spot = behind(state, end, towed)
            if _fits(state, spot, {base.id, towed.id}):
                towed.geo = spot
                towed.trapped = False
                towed.moved_turn = state.turn
                res.emit(
                    "towed",
                    f"{base.id} tows {towed.id} behind it; the tow ends (4.4)",
                    base=towed.id,
                    engineer=base.id,
                    path=eye_path([towed.geo.at], rules().data.eye, state.setup.options.measuring),
                    facing=spot.facing,
                )
    state.touched()


def _clear_ploughed(
    state: State,
    base: Base,
    result: MoveResult,
    travelled: float,
    ploughed: frozenset[str],
    res: Resolution,
) -> None:
    """4.4: the engineer clears a lane 1" wide along its centre's track through the
    obstacles it ploughs; the rest of each stays (ruling 33)."""
    data = rules().data.clearing
    points = [*along.path_until(result, travelled), along.point_along(result, travelled)[0]]
    points = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    if len(points) < 2:
        return
    lane = shapely.buffer(
        shapely.LineString(points), data.lane / 2, cap_style="flat", join_style="round"
    )
    met = [f.id for f in state.terrain.active if f.id in ploughed]
    cut = state.cut(lane, met, data.crumbs)
    if not cut:
        return
    res.emit(
        "cleared",
        f'{base.id} ploughs a {data.lane:g}" lane through {", ".join(cut)} (4.4)',
        base=base.id,
        features=cut,
    )


# -- for bots --------------------------------------------------------------------------------
MOST_GOALS = 5
"""The most places :func:`goals` gives (a work spot, the unit's middle, a lane, the edge
and a relay)."""


def goals(state: State, base: Base) -> list[Point]:
    """Extra places worth moving toward: the middle of the unit (keeps intervals), the
    breach edge straight ahead, the nearest friendly network base, and for a demolition
    engineer a spot within reach of the nearest obstacle only it can clear (7.0)."""
    out: list[Point] = []
    work = _work_spot(state, base)
    if work is not None:
        out.append(work)
    mates = [b for b in state.unit_bases(base.unit) if b.id != base.id and not b.contaminated]
    if mates:
        out.append(
            (sum(b.geo.x for b in mates) / len(mates), sum(b.geo.y for b in mates) / len(mates))
        )
    edge = breach_edge(state, base.side)
    if edge is not None:
        lane = _lane_entry(state, base, edge)
        if lane is not None:
            out.append(lane)
        table = state.setup.table
        past = base.geo.base.bounding_radius + 0.5
        out.append(
            {
                "north": (base.geo.x, table.height + past),
                "south": (base.geo.x, -past),
                "east": (table.width + past, base.geo.y),
                "west": (-past, base.geo.y),
            }[edge]
        )
    # state.active(side) spelt out, the role first (the same list): asked of every
    # movable base at every decision of a unit.
    side = base.side
    relays = [
        b
        for b in state.bases.values()
        if b.role == "network"
        and b.side == side
        and not (b.destroyed or b.exited)
        and b.id != base.id
        and not b.contaminated
    ]
    if relays:
        out.append(min(relays, key=lambda r: centre_distance(r.geo, base.geo)).geo.at)
    return out


TRAPS = frozenset({"minefield"})
"""Hazards a breaching base would rather not cross: minefields and every kind that traps."""


def _hazards(terrain: Terrain) -> shapely.Geometry:
    kinds = terrain_chart().kinds
    shapes = [
        f.geometry
        for f in terrain.features
        if not f.destroyed
        and (f.kind in TRAPS or ((kind := kinds.get(f.kind)) is not None and kind.trap is not None))
    ]
    return shapely.union_all(shapes) if shapes else shapely.Point()


def _lane_entry(state: State, base: Base, edge: str) -> Point | None:
    """For a breaching combat base (not an engineer): the mouth of the nearest lane
    cleared through hazardous ground (what barrages and engineers took away of the
    set-up's minefields and trapping terrain, 3.0, 4.4, 7.0), on its near side and in
    line with it, so that the straight run to the edge from there crosses none of it."""
    if base.role == "engineer":
        return None
    across = edge in ("east", "west")
    sign = 1.0 if edge in ("east", "north") else -1.0
    here = base.geo.x if across else base.geo.y
    best: tuple[float, Point] | None = None
    for (x0, y0, x1, y1), mid in _lanes(state.setup.terrain, state.terrain):
        near = (x0 if sign > 0 else x1) if across else (y0 if sign > 0 else y1)
        if (near - here) * sign < 0.0:
            continue  # already past its mouth
        back = near - sign * (base.geo.base.bounding_radius + 0.3)
        spot = (back, mid[1]) if across else (mid[0], back)
        gap = math.dist(spot, base.geo.at)
        if best is None or gap < best[0]:
            best = (gap, (round(spot[0], 2), round(spot[1], 2)))
    return None if best is None else best[1]


Lane = tuple[tuple[float, float, float, float], Point]
_LANES: weakref.WeakKeyDictionary[Terrain, weakref.WeakKeyDictionary[Terrain, list[Lane]]] = (
    weakref.WeakKeyDictionary()
)
"""The lanes of each layout (:func:`_lanes`), by the set-up's layout and then the table's
as it stands: both never change (a changed table has a new layout, ``State.clear``,
``State.cut``), so neither do the lanes."""


def _lanes(setup: Terrain, layout: Terrain) -> list[Lane]:
    """The lanes cleared through hazardous ground (what of the set-up's minefields and
    trapping terrain ``layout`` no longer holds), each as its bounds and centroid; slivers
    (under half an inch across) left out."""
    known = _LANES.get(setup)
    if known is None:
        known = _LANES[setup] = weakref.WeakKeyDictionary()
    found = known.get(layout)
    if found is None:
        found = known[layout] = []
        cleared = shapely.difference(_hazards(setup), _hazards(layout))
        if not shapely.is_empty(cleared):
            for part in shapely.get_parts(cleared):
                x0, y0, x1, y1 = part.bounds
                if min(x1 - x0, y1 - y0) < 0.5:
                    continue  # a sliver, not a lane
                mid = shapely.get_coordinates(shapely.centroid(part))[0]
                found.append(((x0, y0, x1, y1), (float(mid[0]), float(mid[1]))))
    return found


def _work_spot(state: State, base: Base) -> Point | None:
    """Half an inch short of the nearest minefield, encrypted surface or MEK-Lok, for an
    engineer of a demolition unit not already within reach of one."""
    if base.role != "engineer" or state.units[base.unit].mission != "E":
        return None
    here = shapely.Point(base.geo.at)
    best: tuple[float, Point] | None = None
    for feature in state.terrain.active:
        if feature.kind not in PLOUGH_KEEP:
            continue
        gap = float(shapely.distance(here, feature.geometry))
        if best is None or gap < best[0]:
            near = shapely.ops.nearest_points(feature.geometry, here)[0]
            best = (gap, (float(near.x), float(near.y)))
    if best is None:
        return None
    gap, (nx, ny) = best
    back = base.geo.base.bounding_radius + 0.5
    if gap <= back + 0.5 or gap <= 0.0:
        return None
    x = nx + (base.geo.x - nx) * back / gap
    y = ny + (base.geo.y - ny) * back / gap
    return (round(x, 2), round(y, 2))


def reach(state: State, base: Base, goal: Point, low: bool = False) -> float:
    """Inches ``base`` can get straight toward ``goal`` with its allowance (``low``:
    ploughing low obstacles too)."""
    towed = _tow(state, base)
    scene = _scene_for(state, base, low)
    got = reach_distance(
        scene,
        scene.figure(base.id),
        goal,
        base.model.speed,
        rules=_rules_for(state, base),
        ignore=[towed.id] if towed else [],
    )
    return float(got)


__all__ = [
    "apply_move",
    "attemptable",
    "behind",
    "breach_edge",
    "can_continue",
    "check_attempt",
    "control_roll",
    "goals",
    "movable_bases",
    "move_rules",
    "network_support",
    "plan",
    "ploughs",
    "reach",
    "stranded",
    "towed_by",
]
