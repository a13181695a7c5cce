"""Candidate actions of Invisible Enemy for bots (``RulesetInfo.exhaustive_actions`` is False).

On an open table a move may end anywhere and a marker may go anywhere, so
``legal_actions`` lists a sensible, legal sample: a person may type any legal
action. Every candidate listed is legal (the conformance suite applies them).
Markers are listed at points aimed where the side sees the enemy by eye
(:mod:`warbench.rulesets.kit.eye`), so no listed marker and no bot's marker is placed
by measuring (3.0), and ``list`` tells nothing the view does not.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache, cached_property, partial
from typing import TYPE_CHECKING

from warbench.core.actions import Action
from warbench.core.sampling import Group, lazily
from warbench.errors import IllegalAction, MoveRefused
from warbench.geometry.table import Point, heading, segment_distance, turn_angle
from warbench.rulesets.invisible_enemy import barrage, engineering, fire, movement
from warbench.rulesets.invisible_enemy.actions import (
    DONE,
    PASS,
    Barrage,
    Buy,
    Deflect,
    Destruct,
    Fire,
    Move,
    Unit,
)
from warbench.rulesets.invisible_enemy.charts import action_costs, self_destruct
from warbench.rulesets.invisible_enemy.data import rules
from warbench.rulesets.invisible_enemy.state import Base, State
from warbench.rulesets.kit.eye import Seen
from warbench.rulesets.kit.eye import seen as seen_by_eye

if TYPE_CHECKING:
    from warbench.rulesets.invisible_enemy.rules import InvisibleEnemyRules

MAX_AIMS = 14
"""Barrage points listed at most."""
MOVE_FRACTIONS = (1.0, 0.5)
"""Straight moves toward a goal: the full allowance, and half of it."""
FACE_SHORTEN = (1.0, 0.75, 0.5)
"""A move turned toward the enemy at its end: the leg as it was, else shortened so the
turn fits the allowance (4.2)."""
ESCAPE_SPARE = (0.5, 0.2)
"""Inches beyond a barrage marker's radius a move out of it aims for (3.0)."""


def candidates(ruleset: InvisibleEnemyRules, state: State, side: str) -> Sequence[Action]:
    if not ruleset.asked(state, side):
        return []
    step = state.step
    if step == "buy":
        return _buys(state, side)
    if step in ("mark1", "mark2", "tie"):
        out: list[Action] = []
        for aim in aims(state, side):
            action = Barrage(aim)
            if action not in out:
                out.append(action)
        return out if step == "tie" else [*out, DONE]
    if step == "deflect":
        return [*(Deflect(m.id) for m in barrage.deflectable(state, side)), DONE]
    if step == "activate":
        units: list[Action] = [Unit(u) for u in movement.attemptable(state, side)]
        return [*units, PASS, *_destructs(state, side)]
    if step == "unit":
        return [*_moves(state, side), *engineering.options(state, side), DONE]  # as unit_groups
    if step == "last":
        return [*_destructs(state, side), DONE]
    if step in ("fire_a", "fire_b"):
        return [*_shots(state, side, step), DONE]
    return []


def _buys(state: State, side: str) -> list[Action]:
    """A handful of sensible purchase plans within the side's points."""
    points = state.networks[side].points
    costs = action_costs()
    units = [u for u in movement.attemptable(state, side)]
    plans: list[tuple[tuple[str, str | None], ...]] = [()]
    autos = tuple(("auto", u) for u in units)
    plans.append(autos[: points // costs["automatic_move"]])
    plans.append((("type1", None),) * (points // costs["type1_barrage"]))
    plans.append((("deflect", None),))
    for key, name in (
        ("suppress75", "suppress_75"),
        ("suppress50", "suppress_50"),
        ("suppress25", "suppress_25"),
        ("die", "enemy_loses_die"),
    ):
        if costs[name] <= points:
            rest = points - costs[name]
            plans.append(((key, None), *autos[: rest // costs["automatic_move"]]))
    out: list[Action] = []
    seen: set[str] = set()
    for plan in plans:
        action = Buy(plan)
        total = sum(costs[_cost_key(k)] for k, _ in plan)
        if total > points or str(action) in seen:
            continue
        seen.add(str(action))
        out.append(action)
    return out


def _cost_key(key: str) -> str:
    from warbench.rulesets.invisible_enemy.actions import COST_KEY

    return COST_KEY[key]


def aims(state: State, side: str) -> list[Point]:
    """Points worth a barrage: each enemy base, the middle of each close enemy pair, the
    middle of the enemy force and of the table (a marker may go anywhere, 3.0).

    The enemy bases are where the side sees them, by eye (``rules.toml [eye]``) unless
    the scenario measures freely: aiming at their exact places would let a person read
    them back from ``list`` (issue 24)."""
    table = state.setup.table
    eye, measuring = rules().data.eye, state.setup.options.measuring
    foes = seen_by_eye(state.active(state.other(side)), eye, measuring, side)
    enemies = [foe.geo.at for foe in foes]
    points: list[Point] = []
    for x, y in enemies:
        points.append((round(x, 1), round(y, 1)))
    for i, (ax, ay) in enumerate(enemies):
        for bx, by in enemies[i + 1 :]:
            if math.hypot(ax - bx, ay - by) <= 3.0:
                points.append((round((ax + bx) / 2, 1), round((ay + by) / 2, 1)))
    if enemies:
        cx = sum(x for x, _ in enemies) / len(enemies)
        cy = sum(y for _, y in enemies) / len(enemies)
        points.append((round(cx, 1), round(cy, 1)))
    points.append((round(table.width / 2, 1), round(table.height / 2, 1)))
    out: list[Point] = []
    for x, y in points:
        if 0.0 <= x <= table.width and 0.0 <= y <= table.height and (x, y) not in out:
            out.append((x, y))
    return out[:MAX_AIMS]


def _destructs(state: State, side: str) -> list[Action]:
    """Self-destructs worth listing: bases with an enemy (or a contaminated base) inside
    their blast (6.0). Any base may be typed; a blast that reaches no one is no plan."""
    out: list[Action] = []
    # Whom a blast would be worth reaching: enemies and contaminated bases.
    marks = [
        (other.id, other.geo.x, other.geo.y)
        for other in state.active()
        if other.side != side or other.contaminated
    ]
    for base in fire.destructible(state, side):
        reach = _blast_range(fire.speed_rating(base), base.model.defence) + 1e-9
        x, y = base.geo.x, base.geo.y
        for oid, ox, oy in marks:
            # centre_distance spelt out (the same sum): asked of every pair at every
            # decision; a gap wider than the reach along x or y alone is surely out of it.
            dx, dy = ox - x, oy - y
            if abs(dx) > reach or abs(dy) > reach or oid == base.id:
                continue
            if math.hypot(dx, dy) <= reach:
                out.append(Destruct(base.id))
                break
    return out


@cache
def _blast_range(speed: int, defence: int) -> float:
    """The reach of a self-destruct blast (6.0), from the fixed charts."""
    return self_destruct(speed, defence).range


def _moves(state: State, side: str) -> list[Action]:
    """Moves of one base at a time, the unit's first that has any (as MGV lists them):
    straight toward the nearest enemy and each of :func:`movement.goals`, full and
    half way, facing the way it went; and a turn in place to face the nearest enemy
    (the way to leave a base where it is and move the next). A person may move the
    bases in any order."""
    for moves in _base_moves(state, side):
        found = moves.all()
        if found:
            return found
    return []


def action_groups(
    ruleset: InvisibleEnemyRules, state: State, side: str
) -> list[Group[Action]] | None:
    """The unit step's list in parts for a bot that draws one action
    (:mod:`warbench.core.sampling`): the first base's candidate moves one by one, each
    planned only when drawn; the next base's, which count only if the first has none;
    the engineers' work and ``done``. None in other steps."""
    if state.step != "unit":
        return None
    works = engineering.options(state, side)
    bases = _base_moves(state, side)
    moves: list[Group[Action]] = bases[0].groups() if bases else []
    if len(bases) > 1:
        moves.append((_BaseMoves.most(state), _later_bases(bases)))
    return [*moves, (len(works), works), (1, (DONE,))]


def _base_moves(state: State, side: str) -> list[_BaseMoves]:
    unit = state.current
    if unit is None:
        return []
    eye, measuring = rules().data.eye, state.setup.options.measuring
    enemies = seen_by_eye(state.active(state.other(side)), eye, measuring, side)
    return [_BaseMoves(state, base, enemies) for base in movement.movable_bases(state, unit)]


def _later_bases(bases: list[_BaseMoves]) -> Iterator[Action]:
    """The moves of the first base after the first that has any, if the first has none."""
    if bases[0].any():
        return
    for moves in bases[1:]:
        found = moves.all()
        if found:
            yield from found
            return


SAME_LINE = 0.02
"""Inches: a candidate's end (rounded to the hundredth) lies this near the line of its
straight move, so one farther from another candidate's line cannot be that one's."""


class _BaseMoves:
    """One base's candidate moves in :func:`_moves`' order, each planned on its own when
    first asked for: the straight moves (toward each goal, full and half way, and out
    of each marker's reach), each kept move again turned to face the nearest enemy,
    and a turn in place. A move equal to an earlier kept one is left out; to know, a
    candidate asks only the earlier ones whose line its end lies on."""

    def __init__(self, state: State, base: Base, enemies: list[Seen]) -> None:
        self.state, self.base = state, base
        self.nearest = (
            min(enemies, key=lambda e: math.hypot(e.geo.x - base.geo.x, e.geo.y - base.geo.y))
            if enemies
            else None
        )
        goals = [] if self.nearest is None else [self.nearest.geo.at]
        more = movement.goals(state, base)
        assert len(more) <= movement.MOST_GOALS, "a bound of unit_groups would not hold"
        goals.extend(more)
        # Each straight move: how to plan it and the far end of the line it keeps to.
        self.lines: list[Point] = []
        self.makes: list[Callable[[], Move | None]] = []
        for goal in goals:
            for fraction in MOVE_FRACTIONS:
                self.lines.append(goal)
                self.makes.append(partial(_toward, state, base, goal, fraction))
        for marker in state.markers:
            self.lines.append(_escape_line(state, base, marker.at))
            self.makes.append(partial(_out_of_reach, state, base, marker.at))
        self.kept_: dict[int, Move | None] = {}
        self.faced: dict[int, Move | None] = {}

    @staticmethod
    def most(state: State) -> int:
        """At most this many moves for any base: every goal :func:`movement.goals` can
        give and the nearest enemy, full and half way, the markers, each turned, and
        the turn in place."""
        straight = (movement.MOST_GOALS + 1) * len(MOVE_FRACTIONS) + len(state.markers)
        return 2 * straight + 1

    def _on_line(self, j: int, at: Point) -> bool:
        return segment_distance(at, self.base.geo.at, self.lines[j]) <= SAME_LINE

    def kept(self, i: int) -> Move | None:
        """Straight move ``i``, or None if it is illegal or an earlier kept one."""
        if i not in self.kept_:
            move = self.makes[i]()
            self.kept_[i] = None if self._repeats(i, move, self.kept) else move
        return self.kept_[i]

    def facing(self, i: int) -> Move | None:
        """Straight move ``i`` turned toward the nearest enemy, unless an earlier one is
        the same move."""
        if i not in self.faced:
            move = self.kept(i)
            found = None
            if move is not None and self.nearest is not None:
                found = _facing_toward(self.state, move, self.nearest.geo.at)
            self.faced[i] = None if self._repeats(i, found, self.facing) else found
        return self.faced[i]

    def _repeats(self, i: int, move: Move | None, earlier: Callable[[int], Move | None]) -> bool:
        """Whether candidate ``i``'s ``move`` is one an earlier candidate gives
        (``earlier``), asking only those whose line its end lies on."""
        if move is None:
            return False
        end = move.path[-1]
        return any(self._on_line(j, end) and earlier(j) == move for j in range(i))

    @cached_property
    def turned(self) -> Move | None:
        """Turning in place to face the nearest enemy, if it is a turn and legal."""
        if self.nearest is None:
            return None
        face = round(heading(self.base.geo.at, self.nearest.geo.at), 1) % 360.0
        if abs(turn_angle(self.base.geo.facing, face)) < 1.0:
            return None
        move = Move(self.base.id, (), face)
        return move if _is_legal(self.state, move) else None

    def any(self) -> bool:
        return self.turned is not None or any(
            self.kept(i) is not None for i in range(len(self.makes))
        )

    def all(self) -> list[Action]:
        straight = range(len(self.makes))
        found: list[Action] = [m for m in (self.kept(i) for i in straight) if m is not None]
        found.extend(m for m in (self.facing(i) for i in straight) if m is not None)
        turn = self.turned
        if turn is not None:
            found.append(turn)
        return found

    def groups(self) -> list[Group[Action]]:
        straight = range(len(self.makes))
        return [
            *((1, lazily(partial(_listed, partial(self.kept, i)))) for i in straight),
            *((1, lazily(partial(_listed, partial(self.facing, i)))) for i in straight),
            (1, lazily(partial(_listed, lambda: self.turned))),
        ]


def _listed(make: Callable[[], Move | None]) -> list[Action]:
    """``make()`` as a list: none or one."""
    found = make()
    return [] if found is None else [found]


def _facing_toward(state: State, move: Move, foe: Point) -> Move | None:
    """``move`` ending turned toward ``foe`` (where the side sees the nearest enemy): the
    arcs of fire are narrow (5.0), so a base that ends a move looking away shoots no one.
    If the turn at the end costs more than the allowance has left, the leg is shortened."""
    if not move.path or move.facing is not None:
        return None
    base = state.bases[move.base]
    end = move.path[-1]
    if math.hypot(foe[0] - end[0], foe[1] - end[1]) < 0.5:
        return None
    face = round(heading(end, foe), 1) % 360.0
    if abs(turn_angle(heading(base.geo.at, end), face)) < 1.0:
        return None  # it already faces that way
    tries = (
        Move(
            base.id,
            (
                (
                    round(base.geo.x + (end[0] - base.geo.x) * share, 2),
                    round(base.geo.y + (end[1] - base.geo.y) * share, 2),
                ),
            ),
            face,
        )
        for share in FACE_SHORTEN
    )
    return _first_legal(state, base, tries)


def _first_legal(state: State, base: Base, tries: Iterable[Move]) -> Move | None:
    """The first of ``tries`` the rules allow ``base`` (4.4), or None."""
    for action in tries:
        try:
            movement.plan(state, base.side, action)
        except IllegalAction:
            continue
        return action
    return None


def _out_of_reach(state: State, base: Base, at: Point) -> Move | None:
    """A straight move that takes ``base`` out of the radius of the barrage marker at
    ``at`` (3.0: a base that moves out of a marker's reach is not struck by it), if it
    stands inside and its allowance carries it out; None otherwise."""
    tries = (Move(base.id, (goal,)) for goal in _escapes(state, base, at))
    return _first_legal(state, base, tries)


def _escapes(state: State, base: Base, at: Point) -> list[Point]:
    """Where :func:`_out_of_reach` tries to go: just past the marker's radius, straight
    away from its centre (none if the base stands outside it)."""
    radius = rules().data.barrage.radius
    dx, dy = base.geo.x - at[0], base.geo.y - at[1]
    dist = math.hypot(dx, dy)
    if dist > radius:
        return []
    if dist < 1e-6:
        rad = math.radians(base.geo.facing)
        dx, dy, dist = math.cos(rad), math.sin(rad), 1.0
    table = state.setup.table
    goals = (
        (
            round(at[0] + dx / dist * (radius + spare), 2),
            round(at[1] + dy / dist * (radius + spare), 2),
        )
        for spare in ESCAPE_SPARE
    )
    return [g for g in goals if 0.0 <= g[0] <= table.width and 0.0 <= g[1] <= table.height]


def _escape_line(state: State, base: Base, at: Point) -> Point:
    """The far end of the line :func:`_out_of_reach`'s moves keep to (the base's own
    place when it has none)."""
    return max(
        _escapes(state, base, at), key=lambda g: math.dist(g, base.geo.at), default=base.geo.at
    )


def _is_legal(state: State, action: Move) -> bool:
    try:
        movement.plan(state, state.bases[action.base].side, action)
    except IllegalAction:
        return False
    return True


def _toward(state: State, base: Base, goal: Point, fraction: float) -> Move | None:
    """A straight move toward ``goal``: as far as the allowance goes on open ground,
    or, if terrain or a turn makes that too dear, as far as it really reaches."""
    dx, dy = goal[0] - base.geo.x, goal[1] - base.geo.y
    dist = math.hypot(dx, dy)
    if dist < 0.5:
        return None
    for reach in (base.model.speed, None):
        if reach is None:
            reach = movement.reach(state, base, goal)
        step = min(reach * fraction, dist - 0.1)
        if step < 0.25:
            return None
        end = (round(base.geo.x + dx / dist * step, 2), round(base.geo.y + dy / dist * step, 2))
        action = Move(base.id, (end,))
        try:
            movement.plan(state, base.side, action)
        except MoveRefused as exc:
            if exc.kind == "allowance":
                continue
            return None
        except IllegalAction:
            return None
        return action
    return None


def _shots(state: State, side: str, step: str) -> list[Action]:
    out: list[Action] = []
    for shooter in fire.shooters(state, side, step):
        for target in fire.targets(state, shooter):
            if _dead_tower(state, target):
                continue
            out.append(Fire((shooter.id,), target))
            if fire.may_rake(state, shooter, target):
                out.append(Fire((shooter.id,), target, rake=True))
    if step == "fire_b":
        out.extend(b for b in fire.batteries(state, side) if not _dead_tower(state, b.target))
    return out


def _dead_tower(state: State, target: str) -> bool:
    """A dead tower infects no one and is a mere obstacle (1.5 note 2): no shot at it is a
    plan, alone or massed."""
    tower = state.towers.get(target)
    return tower is not None and not tower.live


__all__ = ["aims", "candidates"]
