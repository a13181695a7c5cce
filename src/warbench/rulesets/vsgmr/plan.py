"""The planner's scores of VSGMR actions: greedy's, playing the scenario (``Ruleset.plan``).

VSGMR's scenarios are won on points destroyed when the rounds run out (plus the
points of items carried off and tasks done, which greedy's move scores already pull
toward). The planner adds to greedy's scores (:mod:`.evaluate`):

* **Attacks together.** Distance and hand to hand attacks are resolved one at a time,
  so an attack is valued as the first of the best combination of the side's figures
  that can attack its target this step (:func:`~warbench.rulesets.kit.table.plan.coordinated`,
  exact odds from :mod:`.attacks`): the figure with least to lose elsewhere goes first,
  and a stronger one is kept for the target if it survives or for another if not.
* **The end.** A kill that leaves a side with no figure ends the game (II), won on
  points: it is worth :data:`END` more if the side is then ahead, and as much less if
  another side is (a three-way game's kingmaker shot); a figure carrying an item is
  worth the item's points more (it would carry them off).
* **The clock.** With a lead late in the game, a figure's exposure counts for more and
  the pull toward the enemy for less, and ending the movement step (every figure
  stays) is worth the lead's caution; behind late, the pull toward the enemy grows.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from warbench.core.actions import Action
from warbench.rulesets.kit.table.plan import Clock, Strike, TablePlanner
from warbench.rulesets.vsgmr import attacks
from warbench.rulesets.vsgmr.actions import End, Fight, Move, Shoot
from warbench.rulesets.vsgmr.attacks import Situation
from warbench.rulesets.vsgmr.evaluate import APPROACH, EXPOSURE, _move_score, _Mover, value
from warbench.rulesets.vsgmr.state import State

if TYPE_CHECKING:
    from warbench.rulesets.vsgmr.rules import VSGMRRules as VSGMR

CAUTIOUS_EXPOSURE = 2.0
"""How many times greedy's weight of exposure a side at full caution gives it."""
HOLD = 1.0
"""Points that ending the movement step is worth to a side at full caution."""
URGENT_APPROACH = 2.0
"""How many times greedy's pull toward the enemy a side behind in the last round gives it."""
END = 6.0
"""Points on top of the target's own that a kill ending the game is worth when it leaves
the side ahead on points (a win), and costs when it leaves another side ahead."""
CARRIED = 1.0
"""Share of the points of the items a target carries added to what its kill is worth."""


@cache
def _weighed(exposure: float, approach: float) -> tuple[type[_Mover], str]:
    """A mover with the planner's weights, and the cache its scores are kept under."""
    mover = type("Weighed", (_Mover,), {"exposure": exposure, "approach": approach})
    return mover, f"plan_moves:{exposure:.4f}:{approach:.4f}"


class _Planner(TablePlanner[State]):
    sequential = True
    hold_worth = HOLD

    def __init__(
        self,
        rules: VSGMR,
        state: State,
        side: str,
        actions: Sequence[Action],
        base: list[float],
    ) -> None:
        super().__init__(state, side, actions, base)
        self.rules = rules

    def clock(self) -> Clock:
        state = self.state
        setup = state.setup
        scores = {s: float(state.scores.get(s, 0.0)) for s in setup.sides}
        mine = scores[self.side]
        theirs = max(v for s, v in scores.items() if s != self.side)
        forces = {s: 0.0 for s in setup.sides}
        for fig in state.figs.values():
            forces[fig.side] += value(fig)
        return Clock(state.round, setup.rounds, mine - theirs, min(forces.values()))

    def strikes(self) -> list[Strike]:
        state = self.state
        out = []
        for i, action in enumerate(self.actions):
            if not isinstance(action, Shoot | Fight):
                continue
            fig = state.figs[action.figure]
            sit = self.rules.situation(state, fig, action.target, isinstance(action, Fight))
            if not isinstance(sit, Situation) or sit.feature:
                continue
            chance = float(attacks.odds(state, sit).hit)
            out.append(Strike(i, action.figure, action.target, chance, self.base[i]))
        return out

    def worth(self, target: str) -> float:
        state = self.state
        fig = state.figs[target]
        worth = value(fig)
        if fig.rider is not None:
            worth += 0.3 * value(state.figs[fig.rider])
        # What it carries drops where it falls: not carried off for its points.
        worth += CARRIED * sum(state.items[i].points for i in fig.items)
        if fig.rider is None and state.side_figs(fig.side) == [fig]:
            # II: the game ends as soon as one side has no figure left, and the most
            # points win: this kill decides the game, for the side or against it.
            scores = {s: float(state.scores.get(s, 0.0)) for s in state.setup.sides}
            scores[self.side] += fig.profile.points
            mine = scores[self.side]
            best = max(v for s, v in scores.items() if s != self.side)
            worth += END if mine > best else (-END if mine < best else 0.0)
        return worth

    def is_hold(self, action: Action) -> bool:
        return isinstance(action, End)

    def adjust(self, index: int, action: Action, score: float, clock: Clock) -> float:
        if self.state.phase != "movement":
            return score
        caution, urgency = clock.caution(), clock.urgency()
        if isinstance(action, End):
            return score + self.hold_bonus(clock)
        if isinstance(action, Move):
            # Who attacks first this round is left to greedy's weights: counting the
            # exposure of the side attacking second up (1.6 times) and what it could hit
            # down (0.7), and the first side's exposure down (0.6), lost about 4 points
            # of score against greedy over 500 tuning pairs (seeds 5000-7199).
            exposure = EXPOSURE * (1.0 + (CAUTIOUS_EXPOSURE - 1.0) * caution)
            approach = APPROACH * (1.0 - caution) * (1.0 + (URGENT_APPROACH - 1.0) * urgency)
            if exposure == EXPOSURE and approach == APPROACH:
                return score  # greedy's own weights: its score stands
            return _move_score(
                self.rules, self.state, self.side, action, *_weighed(exposure, approach)
            )
        return score


def plan(rules: VSGMR, state: State, side: str, actions: Sequence[Action]) -> list[float]:
    """The planner's scores of ``actions`` (``Ruleset.plan``)."""
    from warbench.rulesets.vsgmr.evaluate import evaluate

    base = evaluate(rules, state, side, actions)
    return _Planner(rules, state, side, actions, base).scores()
