"""Movement along straight legs with turns: costs, remaining allowance, legality.

A move is a start figure and a list of :class:`Leg`\\ s, each a straight line to a
point. By default a base faces where it goes, so the facing changes (a *turn*)
before any leg that heads elsewhere; a leg may instead keep a given facing
(backing up, sidestepping), and the move may end with a final facing.

Costs (inches of allowance):

- A leg costs, for each stretch of its centre's track, the stretch's length
  times the worst of: the movement cost of the areas it is inside (the worst
  applies where areas overlap, see :meth:`Terrain.track`) and the ruleset's
  :attr:`MoveRules.direction_cost` for the angle between facing and travel.
  Crossing a crossable barrier adds its ``crossing_cost`` each time.
- A turn costs what the ruleset's turning table says for its size (the
  smallest angle between the two facings, 0-180). MGV: each 45 degrees or part
  of it costs 1/2" (``TurningTable.from_pairs([(45, .5), (90, 1), (135, 1.5),
  (180, 2)])``); VSGMR: turns are free (:data:`FREE_TURNS`).

Legality (the first problem along the path is reported, with a reason):

- the base must stay on the table (unless ``may_leave_table``);
- no part of the base may overlap an impassable feature or an uncrossable
  barrier at any moment of a leg (the swept area is checked) or after a turn;
- it may not overlap another figure's base during a leg unless
  :attr:`MoveRules.pass_through` allows it (figures it overlapped at the start
  may always be left), and may not *end* on one unless named in ``may_end_on``;
- the turning table and the direction cost may refuse a turn or a direction;
- the total cost may not exceed the allowance.

A point or facing that is not a finite number, or a point more than
:data:`FAR_OFF_TABLE` inches beyond the table's edge, is refused before anything
is costed (kind ``"coordinates"``): no move goes there, and shapely's arithmetic
would only turn it into noise.

Refusals name the caller's legs: "leg 1" is the first of the legs given (even
one to where the base already stands), whatever turns come before it. Steps
number turns and legs together (:attr:`TurnStep.index`, :attr:`LegStep.index`);
:attr:`LegStep.leg`, :attr:`TurnStep.leg` and :attr:`MoveProblem.leg` give the
caller's leg (counted from 0).

Turns are checked at the facings before and after, not through the rotation's
sweep (a long rectangle pivoting next to a wall may clip it on the way round).

>>> from warbench.geometry.table.core import Table
>>> from warbench.geometry.table.figures import Figure
>>> from warbench.geometry.table.scene import Scene
>>> mgv = TurningTable.from_pairs([(45, 0.5), (90, 1.0), (135, 1.5), (180, 2.0)])
>>> scene = Scene(Table(24, 24))
>>> result = scene.plan_move(
...     Figure("L63", 5.0, 5.0, facing=90.0), [(5.0, 7.0), (7.0, 9.0)],
...     allowance=8.0, rules=MoveRules(turning=mgv), final_facing=315.0)
>>> [round(s.cost, 3) for s in result.steps], round(result.remaining, 3), result.legal
([2.0, 0.5, 2.828, 1.0], 1.672, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

import shapely

from warbench.geometry.table.core import (
    ANGLE_TOLERANCE,
    EPS,
    TOUCH,
    Point,
    Table,
    TableGeometryError,
    heading,
    normalize_angle,
    turn_angle,
)
from warbench.geometry.table.fan import end_overlaps, leg_hits
from warbench.geometry.table.features import Feature
from warbench.geometry.table.figures import Figure, RoundBase, overlapping
from warbench.geometry.table.sweep import first_contact, swept
from warbench.geometry.table.terrain import Crossing, TrackPiece

if TYPE_CHECKING:
    from warbench.geometry.table.scene import FigureRef, Scene

__all__ = [
    "DEFAULT_RULES",
    "FAR_OFF_TABLE",
    "FREE_TURNS",
    "Leg",
    "LegStep",
    "MoveProblem",
    "MoveResult",
    "MoveRules",
    "PassThrough",
    "ProblemKind",
    "Reach",
    "TurnBand",
    "TurnStep",
    "TurningTable",
    "plan_move",
    "reach_along",
    "reach_distance",
    "turning_cost",
]

PassThrough = Literal["none", "friends", "all"]
ProblemKind = Literal[
    "coordinates",
    "turn",
    "direction",
    "table_edge",
    "impassable",
    "barrier",
    "figure",
    "end_overlap",
    "allowance",
]
COST_TOLERANCE: Final[float] = 1e-9
"""Rounding of irrational lengths in the planner's own sums."""
ALLOWANCE_TOLERANCE: Final[float] = 0.01
"""A move may overspend its allowance by a hundredth of an inch: a point typed to two
decimals cannot hit an irrational length exactly, and no tape measures finer (so a
move that costs 8.004" of 8" is taken, not refused as "8.00 but only 8.00")."""
TURN_TOLERANCE: Final[float] = 0.5
"""Degrees (exclusive) a turn may go past an inclusive turning band's limit and still cost it
(a leg typed toward a point turns 45.3 degrees where the player meant 45)."""
FAR_OFF_TABLE: Final[float] = 10_000.0
"""Inches beyond the table's edge past which a leg's point is refused as absurd.

Hundreds of yards: far beyond any allowance (a base may still aim a little off
the table, VSGMR II.2), yet small enough that coordinates keep their precision.
"""


# -- turning tables ----------------------------------------------------------------------


@dataclass(frozen=True)
class TurnBand:
    """Turns up to ``up_to`` degrees (``inclusive`` or strictly below) cost ``cost`` inches."""

    up_to: float
    cost: float
    inclusive: bool = True


@dataclass(frozen=True)
class TurningTable:
    """A ruleset's turning costs: the first band a turn's size fits decides its cost.

    A turn smaller than :data:`ANGLE_TOLERANCE` is no turn and costs nothing; a turn
    within :data:`TURN_TOLERANCE` past an inclusive band's limit costs that band; a
    turn beyond the last band is not allowed (``cost`` returns None). Invisible
    Enemy's table ("under 45 free, 45-90 1", 91-180 2"") needs an exclusive band:
    ``TurningTable((TurnBand(45, 0, inclusive=False), TurnBand(90, 1), TurnBand(180, 2)))``.

    >>> mgv = TurningTable.from_pairs([(45, 0.5), (90, 1.0), (135, 1.5), (180, 2.0)])
    >>> mgv.cost(10.0), mgv.cost(45.0), mgv.cost(60.0), mgv.cost(-180.0)
    (0.5, 0.5, 1.0, 2.0)
    """

    bands: tuple[TurnBand, ...]

    def __post_init__(self) -> None:
        previous = 0.0
        for band in self.bands:
            if not (0.0 < band.up_to <= 180.0) or band.up_to < previous:
                raise TableGeometryError(
                    "turning bands need increasing limits between 0 and 180 degrees"
                )
            if band.cost < 0.0 or not math.isfinite(band.cost):
                raise TableGeometryError("a turning cost cannot be negative")
            previous = band.up_to

    @classmethod
    def from_pairs(cls, pairs: Iterable[Sequence[float]]) -> TurningTable:
        """From ``(max_angle_degrees, cost_inches)`` pairs, each limit inclusive."""
        return cls(tuple(TurnBand(float(a), float(c)) for a, c in pairs))

    def cost(self, angle: float) -> float | None:
        """Inches to turn by ``angle`` degrees (either way); None if not allowed."""
        size = abs(angle)
        if size <= ANGLE_TOLERANCE:
            return 0.0
        for band in self.bands:
            if band.inclusive and size < band.up_to + TURN_TOLERANCE:
                return band.cost
            if not band.inclusive and size < band.up_to - ANGLE_TOLERANCE:
                return band.cost
        return None

    def __call__(self, angle: float) -> float | None:
        return self.cost(angle)

    def to_list(self) -> list[list[Any]]:
        """Plain data: ``[[up_to, cost], ...]`` (a third item ``false`` for exclusive bands)."""
        return [[b.up_to, b.cost] if b.inclusive else [b.up_to, b.cost, False] for b in self.bands]

    @classmethod
    def from_list(cls, rows: Iterable[Sequence[Any]]) -> TurningTable:
        """The inverse of :meth:`to_list` (what a ruleset's data file holds)."""
        bands = []
        for row in rows:
            if len(row) not in (2, 3):
                raise TableGeometryError(f"a turning band is [up_to, cost(, inclusive)], not {row}")
            inclusive = bool(row[2]) if len(row) == 3 else True
            bands.append(TurnBand(float(row[0]), float(row[1]), inclusive))
        return cls(tuple(bands))


FREE_TURNS: Final[TurningTable] = TurningTable((TurnBand(180.0, 0.0),))
"""Turning is free (VSGMR: a figure may change direction at any time)."""

TurnCost = TurningTable | Callable[[float], float | None]
"""A turning table, or any function from a turn's size in degrees to inches (None: refused)."""


@dataclass(frozen=True)
class MoveRules:
    """How a ruleset moves figures.

    ``turning``: the turning table (or function). ``direction_cost``: given the
    angle (0-180) between the base's facing and its direction of travel, the
    cost per inch (Invisible Enemy: reverse 2, sideways 3), or None if the base
    may not move that way; None means every direction costs 1.
    ``pass_through``: whose bases a moving base may cross during a leg (it
    never ends on one). ``may_leave_table``: a base may go (partly) off the
    table; the result says so (VSGMR: it is then gone for good).
    """

    turning: TurnCost = FREE_TURNS
    direction_cost: Callable[[float], float | None] | None = None
    pass_through: PassThrough = "none"
    may_leave_table: bool = False


DEFAULT_RULES: Final[MoveRules] = MoveRules()
"""Free turns, every direction costs 1, no passing through figures, stay on the table."""


@dataclass(frozen=True)
class Leg:
    """A straight move of the base's centre to ``to``.

    ``facing`` None: the base faces where it goes (turning first if needed).
    A number: the base turns to that facing first and keeps it while moving
    (moving backwards or sideways; a leg to where it already is just turns).
    """

    to: Point
    facing: float | None = None


# -- results -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnStep:
    """A change of facing at ``at``: from ``before`` to ``after`` (``angle`` signed, + left).

    ``leg``: the caller's leg it turns for (from 0), None for the final facing.
    """

    index: int
    leg: int | None
    at: Point
    before: float
    after: float
    angle: float
    cost: float


@dataclass(frozen=True)
class LegStep:
    """A straight leg: its track pieces through terrain, barriers crossed, and its cost.

    ``leg`` is the caller's leg (from 0: its position in the legs given;
    ``index`` counts turns too). ``drift`` is the angle between facing and
    travel (0 forward, 180 reverse); ``rate`` the per-inch cost that direction
    adds (the worst of it and the terrain applies on each piece).
    """

    index: int
    leg: int
    start: Point
    end: Point
    facing: float
    length: float
    drift: float
    rate: float
    pieces: tuple[TrackPiece, ...]
    crossings: tuple[Crossing, ...]
    cost: float

    def point_at(self, along: float) -> Point:
        """The centre's position ``along`` inches into the leg."""
        if self.length == 0.0:
            return self.start
        f = min(max(along / self.length, 0.0), 1.0)
        return (
            self.start[0] + f * (self.end[0] - self.start[0]),
            self.start[1] + f * (self.end[1] - self.start[1]),
        )

    def spend(self, budget: float) -> float:
        """How far into this leg ``budget`` inches of allowance carry the base."""
        spent = 0.0
        events: list[tuple[float, float, float]] = []  # (start, end, rate) or a lump at start
        for piece in self.pieces:
            events.append((piece.start, piece.end, max(piece.cost, self.rate)))
        for c in self.crossings:
            events.append((c.at, c.at, c.cost))
        events.sort(key=lambda e: (e[0], e[1] - e[0]))
        for start, end, rate in events:
            if end == start:  # a barrier crossing, paid on reaching it
                if spent + rate > budget + COST_TOLERANCE:
                    return start
                spent += rate
                continue
            need = (end - start) * rate
            if spent + need > budget + COST_TOLERANCE:
                return start + (budget - spent) / rate if rate > 0 else end
            spent += need
        return self.length


Step = TurnStep | LegStep


class MoveProblem:
    """Why a move is illegal: what (``kind``), where (``step``, ``at``) and a human reason.

    ``blocker`` is the id of the feature or figure in the way, if any. ``leg`` is
    the caller's leg it concerns (from 0), None for the final facing or the end.

    Compared, hashed and shown as a frozen dataclass of those six fields. A problem
    made with :meth:`later` works out ``at`` and ``reason`` when first read (where
    a base first meets an obstacle is solved exactly, and a bot listing moves asks
    only which kind of problem stops one).
    """

    __slots__ = ("_at", "_make", "_reason", "blocker", "kind", "leg", "step")

    def __init__(
        self,
        kind: ProblemKind,
        step: int,
        at: Point,
        reason: str,
        blocker: str | None = None,
        leg: int | None = None,
    ) -> None:
        self.kind = kind
        self.step = step
        self._at = at
        self._reason = reason
        self.blocker = blocker
        self.leg = leg
        self._make: Callable[[], tuple[Point, str]] | None = None

    @classmethod
    def later(
        cls,
        kind: ProblemKind,
        step: int,
        make: Callable[[], tuple[Point, str]],
        blocker: str | None = None,
        leg: int | None = None,
    ) -> MoveProblem:
        """A problem whose ``at`` and ``reason`` are ``make()``, asked once when first read."""
        problem = cls(kind, step, (0.0, 0.0), "", blocker, leg)
        problem._make = make
        return problem

    def _made(self) -> None:
        if self._make is not None:
            self._at, self._reason = self._make()
            self._make = None

    @property
    def at(self) -> Point:
        self._made()
        return self._at

    @property
    def reason(self) -> str:
        self._made()
        return self._reason

    def _fields(self) -> tuple[Any, ...]:
        return (self.kind, self.step, self.at, self.reason, self.blocker, self.leg)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, MoveProblem)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        kind, step, at, reason, blocker, leg = self._fields()
        return (
            f"MoveProblem(kind={kind!r}, step={step!r}, at={at!r}, reason={reason!r}, "
            f"blocker={blocker!r}, leg={leg!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:  # copied and pickled with its fields worked out
        return (MoveProblem, self._fields())


@dataclass(frozen=True)
class MoveResult:
    """A planned move: every step with its cost, the end position, and the first problem."""

    start: Figure
    end: Figure
    steps: tuple[Step, ...]
    cost: float
    allowance: float
    problem: MoveProblem | None
    off_table: bool = False

    @property
    def legal(self) -> bool:
        return self.problem is None

    @property
    def remaining(self) -> float:
        """Allowance left (negative if overspent)."""
        return self.allowance - self.cost

    @property
    def legs(self) -> tuple[LegStep, ...]:
        return tuple(s for s in self.steps if isinstance(s, LegStep))

    @property
    def turns(self) -> tuple[TurnStep, ...]:
        return tuple(s for s in self.steps if isinstance(s, TurnStep))

    @property
    def path(self) -> list[Point]:
        """The centre's waypoints, start included (for drawing)."""
        return [self.start.at, *(leg.end for leg in self.legs if leg.length > 0.0)]


@dataclass(frozen=True)
class Reach:
    """How far a base gets along one leg: ``distance`` inches, ending at ``figure``.

    ``stopped_by`` says why it stopped short: "allowance", or a problem kind
    ("impassable", "barrier", "figure", "table_edge", ...); None if it arrived.
    """

    distance: float
    figure: Figure
    cost: float
    stopped_by: str | None
    reason: str = ""


# -- planning ----------------------------------------------------------------------------


def _fmt(point: Point) -> str:
    return f"({point[0]:.2f}, {point[1]:.2f})"


def _table_exit(table: Table, figure: Figure, end: Point, slack: float = TOUCH) -> float | None:
    """Fraction of the way to ``end`` at which the base first goes ``slack`` past an edge."""
    xmin, ymin, xmax, ymax = figure.bounds
    dx, dy = end[0] - figure.x, end[1] - figure.y
    first: float | None = None
    for low, high, delta, limit in ((xmin, xmax, dx, table.width), (ymin, ymax, dy, table.height)):
        for value, direction in ((low, -1.0), (high, 1.0)):
            bound = -slack if direction < 0 else limit + slack
            past = value < bound if direction < 0 else value > bound
            if past:
                return 0.0
            if delta * direction > 0.0:
                t = (bound - value) / delta
                if t < 1.0 and (first is None or t < first):
                    first = max(t, 0.0)
    return first


class _Planner:
    """One move's bookkeeping: the scene, the rules and the problems found so far."""

    def __init__(
        self,
        scene: Scene,
        mover: Figure,
        rules: MoveRules,
        ignore: Collection[str],
        may_end_on: Collection[str],
        checks: bool = True,
    ) -> None:
        self.scene = scene
        self.rules = rules
        self.mover = mover
        self.problems: list[tuple[int, float | Callable[[], float], MoveProblem]] = []
        self.absent = {mover.id, *ignore}
        self._started_on: frozenset[str] | None = None
        self.end_ok = set(may_end_on)
        self.checks = checks
        """Whether the base is tested where it goes (see :func:`plan_move`'s ``checks``)."""

    @property
    def started_on(self) -> frozenset[str]:
        """The figures the base started on: it may always leave them (a rider getting off
        its mount). Worked out when first asked (never, when every figure may be passed)."""
        started = self._started_on
        if started is None:
            kept = self.scene.started_on
            key = (self.mover, frozenset(self.absent))
            started = kept.get(key)
            if started is None:
                started = kept[key] = frozenset(f.id for f in self._overlapping(self.mover))
            self._started_on = started
        return started

    def passable(self, other: Figure) -> bool:
        """May the moving base cross ``other`` during a leg?"""
        mode = self.rules.pass_through
        if mode == "all" or other.id in self.started_on:
            return True
        return mode == "friends" and other.side == self.mover.side

    def _overlapping(self, figure: Figure) -> list[Figure]:
        """Figures present for this move whose bases overlap ``figure``'s."""
        index = self.scene.index
        prepared = end_overlaps(self.scene, figure)
        if prepared is not None:  # the end of a leg of a fan (see fan.py)
            absent = self.absent
            return [f for f in map(index.figures.__getitem__, prepared) if f.id not in absent]
        x0, y0, x1, y1 = figure.bounds
        found = []
        for i in index.in_box_list(x0, y0, x1, y1):
            other = index.figures[i]
            if other.id not in self.absent and overlapping(figure, other):
                found.append(other)
        return found

    def problem(self, step: int, along: float | Callable[[], float], problem: MoveProblem) -> None:
        """Note a problem ``along`` inches into step ``step`` (a function: asked only if
        another problem of the same step makes the order depend on it)."""
        self.problems.append((step, along, problem))

    def first_problem(self) -> MoveProblem | None:
        """The problem met first: the earliest step, and in it the least ``along`` (the
        first noted of equals)."""
        problems = self.problems
        if not problems:
            return None
        step = min(p[0] for p in problems)
        same = [p for p in problems if p[0] == step]
        if len(same) == 1:
            return same[0][2]

        def along(p: tuple[int, float | Callable[[], float], MoveProblem]) -> float:
            value = p[1]
            return value if isinstance(value, float | int) else value()

        known = [p for p in same if isinstance(p[1], float | int)]
        later = [p[1] for p in same if isinstance(p[1], _Contact)]
        if known and len(known) + len(later) == len(same):
            # A contact comes no nearer than its gap at the start (less the reach): a
            # problem met before every such bound is met first, contacts unsolved.
            least = min(along(p) for p in known)
            if all(least < c.bound() - BOUND_MARGIN for c in later):
                return min(known, key=along)[2]
            # Else the area swept up to that problem says, for each contact, whether the
            # base surely meets it before or surely after (solving none): a single one
            # surely before, every other surely after, is met first.
            sides = [c.side_of(least) for c in later]
            if 0 not in sides:
                before = [p for p in same if isinstance(p[1], _Contact) and p[1].side_of(least) < 0]
                if not before:
                    return min(known, key=along)[2]
                if len(before) == 1:
                    return before[0][2]
        return min(same, key=along)[2]

    def turning_cost(self, angle: float) -> float | None:
        return turning_cost(self.rules, angle)

    def check_static(self, step: int, leg: int | None, figure: Figure, what: str) -> None:
        """A base standing (after a turn): table, terrain, figures in the way."""
        table = self.scene.table
        if not self.rules.may_leave_table and not table.contains_bounds(figure.bounds):
            self.problem(
                step,
                0.0,
                MoveProblem(
                    "table_edge",
                    step,
                    figure.at,
                    f"{what} at {_fmt(figure.at)} is off the table",
                    leg=leg,
                ),
            )
        core, radius = figure.solid
        for feature in self.scene.terrain.movement_obstacles(core, radius):
            kind: ProblemKind = "impassable" if feature.impassable else "barrier"
            self.problem(
                step,
                0.0,
                MoveProblem(
                    kind,
                    step,
                    figure.at,
                    f"{what} at {_fmt(figure.at)} overlaps {_name(feature.id, feature.kind)}",
                    feature.id,
                    leg,
                ),
            )
        if self.rules.pass_through == "all":
            return  # every figure may be passed (and so overlapped while turning)
        for other in self._overlapping(figure):
            if not self.passable(other):
                self.problem(
                    step,
                    0.0,
                    MoveProblem(
                        "figure",
                        step,
                        figure.at,
                        f"{what} at {_fmt(figure.at)} overlaps figure {other.id!r}",
                        other.id,
                        leg,
                    ),
                )

    def check_leg(self, step: int, leg: int, figure: Figure, end: Point, length: float) -> None:
        """A base moving straight from ``figure.at`` to ``end``: the swept area's problems.

        ``step`` orders the problems; ``leg`` (the caller's) is what the messages name.
        """
        if not self.rules.may_leave_table:
            t = _table_exit(self.scene.table, figure, end)
            if t is not None:
                at = _lerp(figure.at, end, t)
                self.problem(
                    step,
                    t * length,
                    MoveProblem(
                        "table_edge",
                        step,
                        at,
                        f"leg {leg + 1} takes the base off the table at {_fmt(at)}",
                        leg=leg,
                    ),
                )
        prepared = leg_hits(self.scene, figure, end)
        if prepared is not None:  # a round base: worked out with a fan's legs (fan.py) or now
            obstacles, hits = prepared
            for feature in obstacles:
                self._contact(step, leg, figure, end, length, feature)
            if self.rules.pass_through == "all":
                return
            figures = self.scene.index.figures
            for i in hits:
                other = figures[i]
                if other.id not in self.absent and not self.passable(other):
                    self._contact(step, leg, figure, end, length, other)
            return
        core, radius = swept(figure, end)
        for feature in self.scene.terrain.movement_obstacles(core, radius):
            self._contact(step, leg, figure, end, length, feature)
        if self.rules.pass_through == "all":
            return
        index = self.scene.index
        pad = figure.base.bounding_radius
        for i in index.near_segment(figure.at, end, pad, exclude=self.absent):
            other = index.figures[int(i)]
            if self.passable(other):
                continue
            other_core, other_radius = other.solid
            if float(shapely.distance(core, other_core)) < radius + other_radius - EPS:
                self._contact(step, leg, figure, end, length, other)

    def _contact(
        self, step: int, leg: int, figure: Figure, end: Point, length: float, what: Feature | Figure
    ) -> None:
        """A leg runs into ``what`` (a feature or a figure): the problem, with where the base
        first meets it solved only when asked (its place, its reason, or its order among
        other problems of the leg)."""
        along = _Contact(figure, end, length, what)
        t = along.t

        if isinstance(what, Figure):
            kind: ProblemKind = "figure"

            def made() -> tuple[Point, str]:
                at = _lerp(figure.at, end, t())
                return at, (
                    f"leg {leg + 1} runs into figure {what.id!r} at {_fmt(at)} "
                    f"(moving through it is not allowed)"
                )

        else:
            if what.impassable:
                kind = "impassable"
                why = f"{_name(what.id, what.kind)}, which is impassable"
            else:
                kind = "barrier"
                why = f"{_name(what.id, what.kind)}, a barrier that cannot be crossed"

            def made() -> tuple[Point, str]:
                at = _lerp(figure.at, end, t())
                return at, (
                    f"leg {leg + 1} runs into {why} (contact at {_fmt(at)}, "
                    f'{t() * length:.2f}" along the leg)'
                )

        self.problem(step, along, MoveProblem.later(kind, step, made, what.id, leg))

    def check_end(self, step: int, figure: Figure) -> None:
        for other in self._overlapping(figure):
            if other.id not in self.end_ok:
                self.problem(
                    step,
                    0.0,
                    MoveProblem(
                        "end_overlap",
                        step,
                        figure.at,
                        f"the move ends at {_fmt(figure.at)} on top of figure {other.id!r}",
                        other.id,
                    ),
                )


BOUND_MARGIN: Final[float] = 1e-9
"""Inches a known problem must come before a contact's lower bound to be first unsolved."""
SURE: Final[float] = 1e-7
"""Inches of margin by which a swept area decides, unsolved, whether a contact comes
before or after a known problem (:meth:`_Contact.side_of`)."""


class _Contact:
    """Where a base moving to ``end`` first meets ``what`` (a feature or a figure), as
    inches along the leg: solved exactly when called, once; :meth:`bound` is a cheap
    lower bound."""

    __slots__ = ("_sides", "_t", "end", "figure", "length", "what")

    def __init__(self, figure: Figure, end: Point, length: float, what: Feature | Figure) -> None:
        self.figure = figure
        self.end = end
        self.length = length
        self.what = what
        self._t: float | None = None
        self._sides: dict[float, int] = {}

    def _obstacle(self) -> tuple[shapely.Geometry, float]:
        what = self.what
        return what.solid if isinstance(what, Figure) else (what.geometry, 0.0)

    def t(self) -> float:
        """The fraction of the leg (:func:`first_contact`)."""
        if self._t is None:
            what = self.what
            core, radius = self._obstacle()
            edges = what.core_edges if isinstance(what, Figure) else what.edges
            self._t = first_contact(self.figure, self.end, core, radius, edges)
        return self._t

    def __call__(self) -> float:
        return self.t() * self.length

    def side_of(self, along: float) -> int:
        """-1 if the base surely meets the obstacle before ``along`` inches into the leg,
        1 if surely after, 0 if too close to tell without solving (remembered per
        ``along``).

        Surely: the area the base sweeps up to :data:`SURE` inches short of ``along``
        comes within the reach by more than :data:`SURE` (or up to as far past it stays
        out of it by that much). What :meth:`t` solves is the place where the swept
        area first comes within the reach; a margin a hundred million times what the
        arithmetic of either can get wrong keeps their answers on the same side.
        """
        known = self._sides.get(along)
        if known is not None:
            return known
        obstacle, obstacle_radius = self._obstacle()
        reach = self.figure.solid[1] + obstacle_radius - EPS  # first_contact's
        side = 0
        if along - SURE > 0.0 and self._gap(along - SURE, obstacle) < reach - SURE:
            side = -1
        elif along + SURE < self.length and self._gap(along + SURE, obstacle) > reach + SURE:
            side = 1
        self._sides[along] = side
        return side

    def _gap(self, along: float, obstacle: shapely.Geometry) -> float:
        """How near the area the base sweeps in the first ``along`` inches comes to
        ``obstacle`` (the obstacle's core: its radius is the caller's)."""
        core, _ = swept(self.figure, _lerp(self.figure.at, self.end, along / self.length))
        return float(shapely.distance(core, obstacle))

    def bound(self) -> float:
        """No more than :meth:`__call__`: the moving base comes no nearer to the obstacle
        than it was at the start, less the distance it has gone."""
        core, radius = self.figure.solid
        obstacle, obstacle_radius = self._obstacle()
        return float(shapely.distance(core, obstacle)) - (radius + obstacle_radius - EPS)


def turning_cost(rules: MoveRules, angle: float) -> float | None:
    """What a turn of ``angle`` degrees costs under ``rules`` (None: not allowed), as a
    plan charges it."""
    turning = rules.turning
    return turning.cost(angle) if isinstance(turning, TurningTable) else turning(abs(angle))


def _name(feature_id: str, kind: str) -> str:
    return f"{kind} {feature_id!r}" if kind else f"feature {feature_id!r}"


def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


def _as_leg(leg: Leg | Point | Sequence[float]) -> Leg:
    if isinstance(leg, Leg):
        return leg
    if len(leg) != 2:
        raise TableGeometryError(f"a leg is a point (x, y) or a Leg, not {leg!r}")
    return Leg((float(leg[0]), float(leg[1])))


def _absurd(
    table: Table, start: Figure, legs: Sequence[Leg], final: float | None
) -> MoveProblem | None:
    """The first point or facing no move could mean (see :data:`FAR_OFF_TABLE`), if any."""
    for n, leg in enumerate(legs):
        x, y = float(leg.to[0]), float(leg.to[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            why = f"leg {n + 1} goes to ({x:g}, {y:g}): a point needs finite coordinates"
        elif (
            min(x, y) < -FAR_OFF_TABLE
            or x > table.width + FAR_OFF_TABLE
            or y > table.height + FAR_OFF_TABLE
        ):
            why = (
                f"leg {n + 1} goes to ({x:g}, {y:g}), "
                f'more than {FAR_OFF_TABLE:g}" off the table: no move goes that far'
            )
        elif leg.facing is not None and not math.isfinite(leg.facing):
            why = f"leg {n + 1} asks for a facing of {leg.facing}, not a number of degrees"
        else:
            continue
        return MoveProblem("coordinates", 0, start.at, why, leg=n)
    if final is not None and not math.isfinite(final):
        why = f"the final facing {final} is not a number of degrees"
        return MoveProblem("coordinates", 0, start.at, why)
    return None


def plan_move(
    scene: Scene,
    figure: FigureRef,
    legs: Iterable[Leg | Point | Sequence[float]],
    *,
    allowance: float,
    rules: MoveRules = DEFAULT_RULES,
    final_facing: float | None = None,
    ignore: Collection[str] = (),
    may_end_on: Collection[str] = (),
    checks: bool = True,
) -> MoveResult:
    """Cost and check moving ``figure`` along ``legs``; never raises for an illegal move.

    ``ignore``: figures that are not there for this move (neither obstacles nor
    a place to end on: a mount and its rider). ``may_end_on``: figures whose
    bases it may end on (VSGMR: a guy mounting a horse). See the module
    docstring for what is costed and checked. ``figure``: the figure, or its id in
    ``scene`` (as the method :meth:`Scene.plan_move <warbench.geometry.table.scene.Scene>`
    is called).

    ``checks=False``: the caller already knows the move is legal (a rules module replaying
    a move it built and checked itself): the steps, costs and end are worked out as
    always, but the base is not tested against the terrain, the other figures, the table
    or the allowance, and no problem is reported for them.
    """
    figure = scene.figure(figure)
    moves = [_as_leg(raw) for raw in legs]
    absurd = _absurd(scene.table, figure, moves, final_facing)
    if absurd is not None:
        off_table = not scene.table.contains_bounds(figure.bounds)
        return MoveResult(figure, figure, (), 0.0, allowance, absurd, off_table)
    plan = _Planner(scene, figure, rules, ignore, may_end_on, checks)
    steps: list[Step] = []
    current = figure
    for number, leg in enumerate(moves):
        target = (float(leg.to[0]), float(leg.to[1]))
        length = math.hypot(target[0] - current.x, target[1] - current.y)
        travel = heading(current.at, target)
        if leg.facing is not None:
            facing = normalize_angle(leg.facing)
        else:
            facing = travel if length > 0.0 else current.facing
        current = _turn(plan, steps, current, facing, "the base", number)
        if length == 0.0:
            continue
        index = len(steps)
        drift = abs(turn_angle(current.facing, travel))
        rate = 1.0
        if rules.direction_cost is not None:
            allowed = rules.direction_cost(drift)
            if allowed is not None:
                rate = allowed
            else:
                plan.problem(
                    index,
                    0.0,
                    MoveProblem(
                        "direction",
                        index,
                        current.at,
                        f"leg {number + 1} moves {drift:.0f} degrees off the facing, "
                        "which these rules do not allow",
                        leg=number,
                    ),
                )
        pieces = scene.terrain.track(current.at, target)
        crossings = scene.terrain.crossings(current.at, target)
        cost = sum(p.length * max(p.cost, rate) for p in pieces) + sum(c.cost for c in crossings)
        if checks:
            plan.check_leg(index, number, current, target, length)
        steps.append(
            LegStep(
                index,
                number,
                current.at,
                target,
                current.facing,
                length,
                drift,
                rate,
                pieces,
                crossings,
                cost,
            )
        )
        current = current.moved_to(target)
    if final_facing is not None:
        current = _turn(plan, steps, current, normalize_angle(final_facing), "the base", None)
    total = sum(s.cost for s in steps)
    if checks:
        plan.check_end(len(steps), current)
        _check_allowance(plan, steps, allowance)
    off_table = not scene.table.contains_bounds(current.bounds)
    problem = plan.first_problem()
    return MoveResult(figure, current, tuple(steps), total, allowance, problem, off_table)


def _turn(
    plan: _Planner,
    steps: list[Step],
    current: Figure,
    facing: float,
    what: str,
    leg: int | None,
) -> Figure:
    """Turn to ``facing`` before the caller's ``leg`` (None: the final facing), if needed."""
    angle = turn_angle(current.facing, facing)
    if abs(angle) <= ANGLE_TOLERANCE:
        return current
    index = len(steps)
    cost = plan.turning_cost(angle)
    if cost is None:
        plan.problem(
            index,
            0.0,
            MoveProblem(
                "turn",
                index,
                current.at,
                f"a turn of {abs(angle):.1f} degrees at {_fmt(current.at)} is more than "
                "the turning table allows",
                leg=leg,
            ),
        )
        cost = 0.0
    turned = current.turned_to(facing)
    steps.append(TurnStep(index, leg, current.at, current.facing, turned.facing, angle, cost))
    if plan.checks and not isinstance(current.base, RoundBase):
        # (a round base turning covers the same ground)
        plan.check_static(index, leg, turned, f"{what} turned to {turned.facing:.0f} degrees")
    return turned


def _check_allowance(plan: _Planner, steps: Sequence[Step], allowance: float) -> None:
    spent = 0.0
    for step in steps:
        if spent + step.cost <= allowance + ALLOWANCE_TOLERANCE:
            spent += step.cost
            continue
        total = sum(s.cost for s in steps)
        if isinstance(step, LegStep):
            along = step.spend(allowance - spent)
            at = step.point_at(along)
            where = f'{along:.2f}" into leg {step.leg + 1}, at {_fmt(at)}'
        else:
            along, at = 0.0, step.at
            where = f"at the turn at {_fmt(at)}"
        plan.problem(
            step.index,
            along,
            MoveProblem(
                "allowance",
                step.index,
                at,
                f'the move costs {total:.2f}" but only {allowance:.2f}" is allowed; '
                f"it runs out {where}",
                leg=step.leg,
            ),
        )
        return


def reach_along(
    scene: Scene,
    figure: FigureRef,
    to: Point,
    allowance: float,
    *,
    rules: MoveRules = DEFAULT_RULES,
    facing: float | None = None,
    ignore: Collection[str] = (),
) -> Reach:
    """How far ``figure`` gets moving straight towards ``to`` with ``allowance`` inches.

    It turns first if needed (paying the turning table), then pays each
    stretch's cost, and stops where the allowance runs out or just where it
    would first run into something (impassable terrain, an uncrossable barrier,
    the table edge, a figure it may not pass). It may stop on a figure it may
    pass through; check the final position with :func:`plan_move`. ``figure``: the
    figure, or its id in ``scene``.
    """
    found = _reach(scene, scene.figure(figure), to, allowance, rules, facing, ignore)
    if isinstance(found, Reach):
        return found
    result, leg, limit, turn_cost, stopped_by, reason = found
    point = leg.point_at(limit)
    partial = scene.terrain.track(leg.start, point)
    crossed = scene.terrain.crossings(leg.start, point)
    cost = (
        turn_cost
        + sum(p.length * max(p.cost, leg.rate) for p in partial)
        + sum(c.cost for c in crossed)
    )
    return Reach(limit, result.end.moved_to(point), cost, stopped_by, reason)


def reach_distance(
    scene: Scene,
    figure: FigureRef,
    to: Point,
    allowance: float,
    *,
    rules: MoveRules = DEFAULT_RULES,
    facing: float | None = None,
    ignore: Collection[str] = (),
) -> float:
    """:func:`reach_along`'s ``distance`` alone: the same inches, without working out
    what the way there costs (the track of the part of the leg it gets along)."""
    found = _reach(scene, scene.figure(figure), to, allowance, rules, facing, ignore)
    return found.distance if isinstance(found, Reach) else found[2]


def _reach(
    scene: Scene,
    figure: Figure,
    to: Point,
    allowance: float,
    rules: MoveRules,
    facing: float | None,
    ignore: Collection[str],
) -> Reach | tuple[MoveResult, LegStep, float, float, str | None, str]:
    """:func:`reach_along` up to where it stops: a :class:`Reach` if it gets nowhere,
    else the plan, its leg, the inches along it, the turn's cost and why it stops."""
    result = plan_move(
        scene,
        figure,
        [Leg(to, facing)],
        allowance=math.inf,
        rules=rules,
        ignore=ignore,
        may_end_on=[f.id for f in scene.figures],
    )
    legs = result.legs
    turn_cost = sum(t.cost for t in result.turns)
    if not legs:
        stopped = result.problem
        return Reach(
            0.0,
            result.end,
            turn_cost,
            stopped.kind if stopped else None,
            stopped.reason if stopped else "",
        )
    leg = legs[0]
    limit = leg.length
    stopped_by: str | None = None
    reason = ""
    problem = result.problem
    if problem is not None and problem.kind != "end_overlap":
        if problem.kind in ("turn", "direction") or problem.step < leg.index:
            return Reach(0.0, figure, 0.0, problem.kind, problem.reason)
        limit = leg.length * _stop_before(
            scene, figure.moved_to(leg.start, leg.facing), leg, problem
        )
        stopped_by, reason = problem.kind, problem.reason
    budget = allowance - turn_cost
    if budget < -COST_TOLERANCE:
        return Reach(0.0, figure, 0.0, "allowance", "the turn alone costs more than the allowance")
    afford = leg.spend(budget)
    if afford < limit - 1e-12:
        limit, stopped_by, reason = afford, "allowance", "the allowance runs out"
    return result, leg, limit, turn_cost, stopped_by, reason


def _stop_before(scene: Scene, mover: Figure, leg: LegStep, problem: MoveProblem) -> float:
    """Fraction of ``leg`` at which the base just touches what ``problem`` ran into."""
    fallback = math.hypot(problem.at[0] - leg.start[0], problem.at[1] - leg.start[1])
    t: float | None = fallback / leg.length
    if problem.kind == "table_edge":
        t = _table_exit(scene.table, mover, leg.end, slack=0.0)
    elif problem.blocker is not None and problem.kind in ("impassable", "barrier"):
        feature = scene.terrain.feature(problem.blocker)
        t = first_contact(mover, leg.end, feature.geometry, 0.0, feature.edges, touch=True)
    elif problem.blocker is not None and problem.kind == "figure":
        other = scene.figure(problem.blocker)
        core, radius = other.solid
        t = first_contact(mover, leg.end, core, radius, other.core_edges, touch=True)
    return min(1.0, max(0.0, t if t is not None else fallback / leg.length))
