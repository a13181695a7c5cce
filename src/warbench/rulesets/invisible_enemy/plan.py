"""The planner's scores of Invisible Enemy actions: greedy's, playing the scenario.

Invisible Enemy scores a side the points of the enemy bases it destroys (or that are
lost to contamination, :mod:`.victory`). Greedy's shot scores (:mod:`.evaluate`) count
the hull hits a shot makes plus half the target's points times the chance this shot
alone finishes it. The planner adds (``Ruleset.plan``):

* **Fire together.** The shots of a fire step land together at its end (5.0), so a
  shot is valued as part of the best combination of the side's bases that can shoot
  its target this step (:func:`~warbench.rulesets.kit.table.plan.coordinated`): the chance
  their hits together (the chart distributions convolved, hits already pending
  counted) finish it, less what those friends would have hit elsewhere.
* **Out of reach first.** A move counts the enemy fire it walks into twice as heavily as
  greedy does (:data:`EXPOSURE`): a base that steps into reach before the enemy does is
  shot before it shoots (measured on tuning seeds, docs/bots.md).
* **The clock.** Ahead late in the game, passing on a unit's move and ending a unit's
  movement (every base where it is) are worth the lead's caution; a breaching side's
  pull to its edge is greedy's own (:func:`.evaluate.position_value`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from warbench.core.actions import Action
from warbench.errors import IllegalAction
from warbench.geometry.table import Figure
from warbench.rulesets.invisible_enemy import movement, space
from warbench.rulesets.invisible_enemy.actions import Done, Fire, Move, Pass
from warbench.rulesets.invisible_enemy.evaluate import _mean_hits, threat
from warbench.rulesets.invisible_enemy.state import Base, State
from warbench.rulesets.invisible_enemy.victory import scores
from warbench.rulesets.kit.table.plan import Clock, Strike, TablePlanner, points_clock

if TYPE_CHECKING:
    from warbench.rulesets.invisible_enemy.rules import InvisibleEnemyRules

KILL_SHARE = 0.5
"""Share of a target's points a kill adds to its hull hits (greedy's ``shot_value``)."""
HOLD = 3.0
"""Points that holding a unit back is worth to a side at full caution."""
MOVING_STEPS = ("activate", "unit")
EXPOSURE = 1.0
"""Extra weight of the fire a move walks into, on top of greedy's (whose threat term is
half the expected points lost): 1 weighs it twice as heavily as greedy does."""


class _Planner(TablePlanner[State]):
    sequential = False
    hold_worth = HOLD

    def __init__(self, state: State, side: str, actions: Sequence[Action], base: list[float]):
        super().__init__(state, side, actions, base)
        self.dists: dict[int, dict[int, float]] = {}
        """Each strike's distribution of hull hits, by its index."""

    def clock(self) -> Clock:
        state = self.state
        forces = ((b.side, float(b.model.points)) for b in state.bases.values())
        return points_clock(state.turn, state.setup.turns, scores(state), forces, self.side)

    def _left(self, target: str) -> int:
        base = self.state.bases[target]
        pending = sum(s.hits for s in self.state.pending if s.target == target)
        return max(base.model.hull - base.hits - pending, 0)

    def strikes(self) -> list[Strike]:
        state = self.state
        out = []
        for i, action in enumerate(self.actions):
            if not isinstance(action, Fire) or action.rake or len(action.shooters) != 1:
                continue
            target = state.bases.get(action.target)
            if target is None or target.side == self.side:
                continue
            left = self._left(action.target)
            if left == 0:
                continue
            shooter = state.bases[action.shooters[0]]
            cover = space.line_of_fire(state, shooter, action.target).cover
            _, probs = _mean_hits(
                shooter.model.attack,
                target.model.defence,
                shooter.model.weapon,
                shooter.damage,
                cover,
                False,
            )
            self.dists[i] = probs
            chance = sum(p for k, p in probs.items() if k >= left)
            out.append(Strike(i, shooter.id, action.target, chance, self.base[i]))
        return out

    def worth(self, target: str) -> float:
        return KILL_SHARE * float(self.state.bases[target].model.points)

    def kill(self, members: Sequence[Strike]) -> float:
        left = self._left(members[0].target)
        total: dict[int, float] = {0: 1.0}
        for s in members:
            step: dict[int, float] = {}
            for a, pa in total.items():
                for b, pb in self.dists[s.index].items():
                    k = min(a + b, left)
                    step[k] = step.get(k, 0.0) + pa * pb
            total = step
        return total.get(left, 0.0)

    def is_hold(self, action: Action) -> bool:
        return isinstance(action, Done) and self.state.step in ("fire_a", "fire_b")

    def adjust(self, index: int, action: Action, score: float, clock: Clock) -> float:
        if self.state.step in MOVING_STEPS and isinstance(action, Pass | Done):
            return score + self.hold_bonus(clock)
        if isinstance(action, Move) and EXPOSURE:
            try:
                base, result = movement.plan(self.state, self.side, action)
            except IllegalAction:
                return score
            before = _threat(self.state, base, base.geo)
            score -= EXPOSURE * (_threat(self.state, base, result.end) - before)
        return score


def _threat(state: State, base: Base, where: Figure) -> float:
    """Greedy's threat term at ``where`` (:func:`.evaluate.threat`), as the side sees it."""
    foes = [e for e in state.active(state.other(base.side)) if not e.contaminated]
    return threat(base, where, foes)


def plan(
    ruleset: InvisibleEnemyRules, state: State, side: str, actions: Sequence[Action]
) -> list[float]:
    """The planner's scores of ``actions`` (``Ruleset.plan``)."""
    from warbench.rulesets.invisible_enemy.evaluate import evaluate

    base = evaluate(ruleset, state, side, actions)
    return _Planner(state, side, actions, base).scores()
