"""The planner's scores of MGV actions: greedy's, playing the scenario (``Ruleset.plan``).

MGV scores a side the points of the enemy bases it *destroys* (:mod:`.victory`): hits
that mark circles short of the heart score nothing when time runs out. Greedy's scores
(:mod:`.evaluate`) count circles marked, so it spreads its fire. The planner adds:

* **Fire together.** A declaration is the side's whole fire at once, so it is the
  combination: for each target, the chance the attacks on it together mark every
  circle left (their expected hits, each from the exact odds, summed and read as a
  Poisson count against the circles left) times what the base is worth destroyed (its
  circles, the fire it will not give back, and its points). Hits short of a kill count
  for less the later it is (in the last turn only kills score).
* **Out of next turn's reach.** A move weighs the place it ends at with the enemy's
  shots next turn twice as heavily as greedy does and its shots this turn half as
  heavily (:data:`CAUTION_X`, :data:`EXPOSED_X`): greedy closes in on an equal enemy,
  and the base that ends in reach of every enemy mount next turn is shot to pieces;
  measured on tuning seeds, docs/bots.md.
* **The way out.** A gauntlet runner's move is worth :data:`RUN` an inch of what it
  takes off the inches still to go: the way to the exit edge *and* the turn to face it
  (4.0, half an inch per 45 degrees). Greedy pulls runners east by the inch only (its
  place worth still turns them to the hunters), so a move may end just short of leaving
  (mgv/gauntlet, seed 5000, the planner as it was: B2 ends turn 6 7.8" out facing 348
  degrees, where an 8" move less half an inch to turn cannot take it off).
* **The clock.** Ahead late in the game, ending the movement step (every base where it
  is, out of new arcs) is worth the lead's caution; gauntlet and strike pulls are
  greedy's own (:mod:`.position`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from warbench.core.actions import Action
from warbench.errors import IllegalAction
from warbench.geometry.table import Figure
from warbench.rulesets.kit.table.plan import Clock, TablePlanner, points_clock
from warbench.rulesets.mgv import fire, movement, position
from warbench.rulesets.mgv.actions import End, FireOrder, Move
from warbench.rulesets.mgv.data import rules
from warbench.rulesets.mgv.evaluate import expected_hits
from warbench.rulesets.mgv.state import Base, State
from warbench.rulesets.mgv.victory import scores

if TYPE_CHECKING:
    from warbench.rulesets.mgv.rules import MGVRules

KILL = 1.5
"""What destroying a base is worth, per circle of its hull (its fire gone and its points
scored), on top of the circles the hits mark."""
SPREAD_LATE = 0.6
"""Share of the worth of hits short of a kill lost by the last turn (only kills score)."""
HOLD = 2.0
EXPOSED_X = 0.5
"""The planner's weight of the enemy's shots this turn on a place, as a share of greedy's
(:data:`.position.EXPOSED`)."""
CAUTION_X = 2.0
"""The planner's weight of the enemy's shots next turn on a place (after both sides
have moved and turned), as a share of greedy's (:data:`.position.CAUTION`)."""
"""Circles that ending the movement step is worth to a side at full caution."""
RUN = 1.0
"""Worth of an inch off what a gauntlet runner still has to go (:func:`to_go`), on top of
greedy's pull toward the exit edge (:data:`.evaluate.RUNNING`)."""


_EDGE_FACING = {"east": 0.0, "north": 90.0, "west": 180.0, "south": 270.0}


def to_go(at: Figure, edge: str, width: float, height: float) -> float:
    """Inches a base must move (turning to face ``edge`` first, 4.0) to leave by it."""
    distance = {
        "east": width - at.x,
        "west": at.x,
        "north": height - at.y,
        "south": at.y,
    }[edge]
    turn = (at.facing - _EDGE_FACING[edge] + 180.0) % 360.0 - 180.0
    cost = rules().turning.cost(turn)
    return max(0.0, distance) + (cost if cost is not None else 2.0)


def circles_left(base: Base) -> int:
    layout, log = base.layout, base.log
    return log.unmarked_count(layout)


def kill_chance(hits: float, left: int) -> float:
    """The chance a Poisson count of mean ``hits`` reaches ``left``."""
    if left <= 0:
        return 1.0
    if hits <= 0:
        return 0.0
    term = math.exp(-hits)
    below = term
    for k in range(1, left):
        term *= hits / k
        below += term
    return max(0.0, 1.0 - below)


class _Planner(TablePlanner[State]):
    sequential = False
    hold_worth = HOLD

    def clock(self) -> Clock:
        state = self.state
        forces = ((b.side, float(b.model.points)) for b in state.bases.values())
        return points_clock(state.turn, state.setup.turns, scores(state), forces, self.side)

    def is_hold(self, action: Action) -> bool:
        return isinstance(action, End)

    def adjust(self, index: int, action: Action, score: float, clock: Clock) -> float:
        if isinstance(action, FireOrder):
            return self._declaration(action, score, clock)
        if isinstance(action, End):
            return score + self.hold_bonus(clock)
        if isinstance(action, Move):
            if EXPOSED_X != 1.0 or CAUTION_X != 1.0:
                score += self._exposure(action)
            edge = movement.runner_edge(self.state, self.side)
            if edge is not None and RUN:
                score += self._run(action, edge)
        return score

    def _run(self, action: Move, edge: str) -> float:
        """A gauntlet runner's move: what it takes off the inches still to go (the way to
        the exit edge and the turn to face it, 4.0)."""
        try:
            base, result = movement.plan(self.state, self.side, action)
        except IllegalAction:
            return 0.0
        if result.off_table:
            return 0.0  # greedy's own bonus for leaving counts it
        table = self.state.setup.table
        before = to_go(base.geo, edge, table.width, table.height)
        after = to_go(result.end, edge, table.width, table.height)
        return RUN * (before - after)

    def _exposure(self, action: Move) -> float:
        """Greedy's place worth with the enemy's fire weighed by the planner's weights,
        less greedy's own (so only the weights' difference is added)."""
        state, side = self.state, self.side
        try:
            base, result = movement.plan(state, side, action)
        except IllegalAction:
            return 0.0
        travelled = sum(leg.length for leg in result.legs)
        weights = {
            "exposed": position.EXPOSED * EXPOSED_X,
            "caution": position.CAUTION * CAUTION_X,
        }

        def place(at: Figure, moved: float, **kw: float) -> float:
            return position.worth(state, side, base, at, moved, **kw)

        mine = place(result.end, travelled, **weights) - place(base.geo, 0.0, **weights)
        greedy = place(result.end, travelled) - place(base.geo, 0.0)
        return mine - greedy

    def _declaration(self, action: FireOrder, score: float, clock: Clock) -> float:
        state = self.state
        try:
            declared = fire.check_declare(state, self.side, action, None, guesses=False)
        except IllegalAction:
            return score
        hits: dict[str, float] = {}
        for attack in declared:
            hits[attack.target] = hits.get(attack.target, 0.0) + expected_hits(state, attack)
        spread = 1.0 - SPREAD_LATE * clock.lateness()
        total = score * spread
        for target, h in hits.items():
            base = state.bases[target]
            whole = base.layout.surface + base.layout.core + base.layout.heart
            total += KILL * whole * kill_chance(h, circles_left(base))
        return total


def plan(ruleset: MGVRules, state: State, side: str, actions: Sequence[Action]) -> list[float]:
    """The planner's scores of ``actions`` (``Ruleset.plan``)."""
    from warbench.rulesets.mgv.evaluate import evaluate

    base = evaluate(ruleset, state, side, actions)
    return _Planner(state, side, actions, base).scores()
