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
* **Who moved, who attacks first.** Both sides move before either attacks, and the side
  moving first attacks first (II). Greedy scores a place against every enemy as if it
  could still move and turn. The planner's side moving second knows better: an enemy
  that has moved stays where it is, facing as it does, so this round it threatens only
  what stands in its range and front arc (or touches it); and it shoots first, so what
  a figure could attack from a place counts times the chance it survives those shots.
* **The clock.** With a lead late in the game, a figure's exposure counts for more and
  the pull toward the enemy for less, and ending the movement step (every figure
  stays) is worth the lead's caution; behind late, the pull toward the enemy grows.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, cached_property
from typing import TYPE_CHECKING

from warbench.core.actions import Action
from warbench.geometry.table import edge_distance
from warbench.rulesets.kit.table.plan import Clock, Strike, TablePlanner
from warbench.rulesets.vsgmr import attacks, space
from warbench.rulesets.vsgmr.actions import End, Fight, First, Move, Shoot
from warbench.rulesets.vsgmr.attacks import Situation
from warbench.rulesets.vsgmr.evaluate import (
    APPROACH,
    EXPOSURE,
    FIRST_TURN,
    _move_score,
    _Mover,
    full_move,
    value,
)
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
    """A mover with the planner's weights, reading the round's order
    (:attr:`~.evaluate._Mover.reads_order`), and the cache its scores are kept under."""
    mover = type(
        "Weighed", (_Mover,), {"exposure": exposure, "approach": approach, "reads_order": True}
    )
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

    @cached_property
    def quiet_round(self) -> bool:
        """Whether no figure can attack another this round, whoever moves first: every
        enemy is farther than the range and both figures' full moves (II.2-4)."""
        state = self.state
        rules = state.setup.rules
        bodies = [
            (f.side, space.body(state, f), full_move(state, f))
            for f in state.figs.values()
            if f.active and f.where != "mounted"
        ]
        return not any(
            a_side != b_side
            and edge_distance(a, b) <= rules.range + rules.touch + a_reach + b_reach
            for i, (a_side, a, a_reach) in enumerate(bodies)
            for b_side, b, b_reach in bodies[i + 1 :]
        )

    def is_hold(self, action: Action) -> bool:
        return isinstance(action, End)

    def adjust(self, index: int, action: Action, score: float, clock: Clock) -> float:
        if isinstance(action, First) and self.quiet_round:
            # No attack can reach this round: moving after the others costs nothing and
            # shows where they stand and face when this side moves.
            return FIRST_TURN if action.side != self.side else 0.0
        if self.state.phase != "movement":
            return score
        caution, urgency = clock.caution(), clock.urgency()
        if isinstance(action, End):
            return score + self.hold_bonus(clock)
        if isinstance(action, Move):
            # The planner's mover reads the round's order (evaluate._Mover.reads_order):
            # a side moving second knows where the enemy stands and faces, and that it
            # attacks first. Plain weights for who attacks first (the second side's
            # exposure x1.6 and what it could hit x0.7, the first side's exposure x0.6)
            # had lost about 4 points against greedy over 500 tuning pairs.
            exposure = EXPOSURE * (1.0 + (CAUTIOUS_EXPOSURE - 1.0) * caution)
            approach = APPROACH * (1.0 - caution) * (1.0 + (URGENT_APPROACH - 1.0) * urgency)
            return _move_score(
                self.rules, self.state, self.side, action, *_weighed(exposure, approach)
            )
        return score


def plan(rules: VSGMR, state: State, side: str, actions: Sequence[Action]) -> list[float]:
    """The planner's scores of ``actions`` (``Ruleset.plan``)."""
    from warbench.rulesets.vsgmr.evaluate import evaluate

    base = evaluate(rules, state, side, actions)
    return _Planner(rules, state, side, actions, base).scores()
