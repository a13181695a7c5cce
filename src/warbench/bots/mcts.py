"""The mcts bot: Monte Carlo tree search through the Bot interface, for every ruleset.

The search decides from its seat alone. It starts every iteration from a copy of
the state as its side may know it (``seat.state``, the ruleset's ``side_state``)
and simulates the game with the ruleset's own hooks (``apply``, ``proceed``,
``apply_sealed``, ``hold_sealed``) on that copy, with dice of its own drawn from
its seeded stream, so chance is sampled afresh in every iteration.

What its side does not know is *determinised* in each iteration, as in
information-set MCTS (Cowling, Powley and Whitehouse 2012; OpenSpiel's ``ismcts``):

- the other sides' choices in a sealed round (pending or still to come) are
  chosen in the simulation by their own bandits at the node (decoupled UCT:
  every side selects from its own statistics, the joint choice is applied), or
  by the ruleset's mixed strategy (``sealed_strategy``) in rollouts;
- a choice another side held before the search began (MGV's photon range
  guesses) cannot be known: an iteration that comes to open it stops there and
  is valued by what it reached; the bot's own held choice is read from its
  view, and choices held inside the simulation are the simulation's own;
- exact positions a side may not measure (MGV 5.3, Invisible Enemy 3.0) are as
  ``side_state`` gives them: rounded to the inch, one sample consistent with
  the view.

The tree is *open loop*: a node is a sequence of choices from the root, not a
state, so each iteration's sample of dice and secrets walks the same tree. An
action is scored only among the iterations in which it was legal (the
availability count replaces the parent's visits in UCB, as in ISMCTS).

Candidates are ordered by the ruleset's one-ply ``evaluate`` (the greedy
scores) and opened by progressive widening: a node visited ``n`` times may try
the best ``ceil(widen_k * n ** widen_alpha)`` of them, which keeps open tables
(hundreds of candidate moves) searchable. Beyond the tree a rollout plays
``depth`` more decisions (greedy or random); a game that has not ended is
scored by the expected gains ``evaluate`` gave every action played in the
iteration (each side's sum against the others', squashed into 0..1), an ended
one by its outcome (1 a win, 0 a loss, 1/2 a draw).

With an iteration budget and a seed the choice is reproducible; with a time
budget it depends on the machine's speed.

>>> from warbench.core.game import Game
>>> game = Game.start("miniwars/danville", seed=1)
>>> side = game.waiting_for()[0]
>>> bot = MctsBot(1, iterations=8, depth=4)
>>> bot.choose(game.seat(side), side) in game.legal_actions()
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from warbench.bots.base import SeededBot
from warbench.bots.options import BotOption, choice, count, real
from warbench.bots.samples import mean_value, paired_lead
from warbench.bots.simulation import Refused, Root, Sim, Unseen, own_held, search_root
from warbench.core.actions import Action
from warbench.core.decisions import Decision, DecisionKind

if TYPE_CHECKING:
    from warbench.core.ruleset import Ruleset
    from warbench.core.seat import Seat


OPTIONS: Mapping[str, BotOption] = {
    "iterations": BotOption(
        count(1, 10_000_000), 200, "simulations per decision (default 200; with time: a cap)"
    ),
    "time": BotOption(
        real(0.0, 3600.0), 0.0, "seconds per decision (0: none; the iterations bound it)"
    ),
    "depth": BotOption(
        count(0, 10_000), 40, "decisions a rollout plays beyond the tree (default 40)"
    ),
    "rollout": BotOption(
        choice("greedy", "random"), "greedy", "rollout policy: greedy (default) or random"
    ),
    "c": BotOption(real(0.0, 100.0), 0.7, "UCB exploration constant (default 0.7)"),
    "widen_k": BotOption(
        real(1.0, 1000.0), 2.0, "progressive widening: children ~ k * visits^alpha (2)"
    ),
    "widen_alpha": BotOption(
        real(0.0, 1.0), 0.5, "progressive widening exponent alpha (default 0.5)"
    ),
    "bias": BotOption(
        real(0.0, 100.0), 0.5, "progressive bias toward the greedy scores (default 0.5)"
    ),
    "root": BotOption(
        choice("halving", "ucb"),
        "halving",
        "how the root's choice is searched: halving (default) or ucb (see docs/bots.md)",
    ),
    "margin": BotOption(
        real(0.0, 10.0),
        1.0,
        "halving: standard errors by which a choice must beat greedy's to replace it (1)",
    ),
    "gains": BotOption(
        real(0.0, 100.0),
        0.5,
        "weight of the expected gains beside the standings' swing in a value (default 0.5)",
    ),
}
"""The options of the mcts bot, by name."""


@dataclass(slots=True)
class _Arm:
    """One action's statistics at a node, for the side choosing it."""

    visits: int = 0
    total: float = 0.0
    available: int = 0


@dataclass(slots=True)
class _Node:
    """A node of the open-loop tree: the choices made from the root to here."""

    visits: int = 0
    order: dict[str, list[Action]] = field(default_factory=dict)
    """Each choosing side's candidates, best first by ``evaluate``, as first seen."""
    priors: dict[str, dict[Action, float]] = field(default_factory=dict)
    """Each side's greedy scores of its candidates, scaled to 0 (worst) .. 1 (best)."""
    arms: dict[str, dict[Action, _Arm]] = field(default_factory=dict)
    refused: set[tuple[str, Action]] = field(default_factory=set)
    children: dict[tuple[tuple[str, Action], ...], _Node] = field(default_factory=dict)


class MctsBot(SeededBot):
    """Tree search (mcts:iterations=N,...); for strength use search, which beats greedy.

    Monte Carlo tree search from what its side knows: decoupled for sealed rounds,
    determinised where it cannot see, progressive widening ordered by the greedy
    scores; options iterations, time, depth, rollout, c, widen_k, widen_alpha
    (``OPTIONS``)."""

    name = "mcts"
    reads_state = True
    options = OPTIONS

    def __init__(
        self,
        seed: int,
        iterations: int | None = None,
        time: float = 0.0,
        depth: int = 40,
        rollout: str = "greedy",
        c: float = 0.7,
        widen_k: float = 2.0,
        widen_alpha: float = 0.5,
        bias: float = 0.5,
        gains: float = 0.5,
        root: str = "halving",
        margin: float = 1.0,
    ) -> None:
        super().__init__(seed)
        if iterations is None:
            iterations = 10_000_000 if time > 0 else 200
        self.iterations = iterations
        self.time = time
        self.depth = depth
        self.rollout = rollout
        self.c = c
        self.widen_k = widen_k
        self.widen_alpha = widen_alpha
        self.bias = bias
        self.gains = gains
        self.root = root
        self.margin = margin
        self.last_iterations = 0
        """How many iterations the last decision ran (for benchmarks)."""
        self.last_root: _Node | None = None
        """The last decision's tree (its root's arms: visits and values, for diagnosis)."""
        self._scale = 1.0
        self._scale_n = 0
        self._sides: tuple[str, ...] = ()
        self._root_standing: Mapping[str, float] | None = None

    # -- the decision ---------------------------------------------------------------
    def choose(self, game: Seat, side: str) -> Action:
        actions = list(self.legal(game, side))
        self.last_iterations = 0
        start = search_root(game, side, actions, self._random)
        if not isinstance(start, Root):
            return start
        decision = start.decision
        sealed = decision.kind is DecisionKind.SEALED
        if len(actions) == 1:
            return actions[0]
        ruleset = game.ruleset
        root_state = ruleset.copy_state(start.state)
        held = own_held(game, side)
        root = _Node()
        self._order(root, ruleset, root_state, side, actions)
        self._scale, self._scale_n = 1.0, 0
        self._sides = tuple(game.sides)
        self._root_standing = ruleset.standing(root_state)
        deadline = time.perf_counter() + self.time if self.time > 0 else math.inf
        if self.root == "halving" and not sealed:
            return self._halving(root, ruleset, root_state, side, decision, held, deadline)
        done = 0
        while done < self.iterations:
            if done and time.perf_counter() >= deadline:
                break
            seed = self._random.getrandbits(63)
            sim = Sim(ruleset, ruleset.copy_state(root_state), seed, held)
            self._iterate(root, sim, side, decision)
            done += 1
        self.last_iterations = done
        self.last_root = root
        return self._final(root, side, sealed)

    def _halving(
        self,
        root: _Node,
        ruleset: Ruleset[Any],
        root_state: Any,
        side: str,
        decision: Decision,
        held: Mapping[str, Action],
        deadline: float,
    ) -> Action:
        """Sequential halving at the root with common random numbers.

        The greedy scores' best few candidates are played from the root, each on
        the same dice (one seed per sample, shared by every candidate still in),
        below it the tree as usual; after each round the better half by mean value
        stays, until one is left. The survivor replaces greedy's own best only when
        it beats it on the samples they share by ``margin`` standard errors of the
        paired differences: noise alone never makes the bot play worse than greedy.
        """
        order = root.order[side]
        width = max(2, min(8, len(order), self.iterations // 6))
        alive = list(order[:width])
        rounds = max(1, math.ceil(math.log2(len(alive))))
        values: dict[Action, dict[int, float]] = {a: {} for a in alive}
        done = sample = 0
        for round_no in range(rounds):
            # Each round gets an equal share of what is left of the budget (iterations,
            # and time when there is a deadline); the last one spends all of it.
            share = rounds - round_no
            quota = done + (self.iterations - done) // share
            now = time.perf_counter()
            until = now + (deadline - now) / share if math.isfinite(deadline) else math.inf
            first = True
            while first or (done < quota and time.perf_counter() < until):
                first = False
                seed = self._random.getrandbits(63)
                for action in alive:
                    if done >= self.iterations:
                        break
                    sim = Sim(ruleset, ruleset.copy_state(root_state), seed, held)
                    rewards = self._iterate(root, sim, side, decision, forced=action)
                    done += 1
                    if rewards is not None:
                        values[action][sample] = rewards[side]
                sample += 1
                if done >= self.iterations:
                    break
            if len(alive) > 1 and round_no < rounds - 1:
                alive.sort(key=lambda a: -mean_value(values[a]))
                alive = alive[: max(1, math.ceil(len(alive) / 2))]
            if done >= self.iterations or time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        self.last_root = root
        best = max(alive, key=lambda a: mean_value(values[a]))
        greedy = order[0]
        if best == greedy:
            return best
        lead = paired_lead(values[best], values[greedy])
        return best if lead > self.margin else greedy

    def _final(self, root: _Node, side: str, sealed: bool) -> Action:
        arms = root.arms.get(side, {})
        order = root.order[side]
        tried = [(a, arms[a]) for a in order if a in arms and arms[a].visits > 0]
        if not tried:
            return order[0]
        if sealed:  # decoupled UCT's policy is mixed: draw by visits
            total = sum(arm.visits for _, arm in tried)
            pick = self._random.random() * total
            for action, arm in tried:
                pick -= arm.visits
                if pick < 0:
                    return action
            return tried[-1][0]
        return max(tried, key=lambda t: (t[1].visits, t[1].total / t[1].visits))[0]

    # -- one iteration ----------------------------------------------------------------
    def _iterate(
        self,
        root: _Node,
        sim: Sim,
        me: str,
        root_decision: Decision,
        forced: Action | None = None,
    ) -> dict[str, float] | None:
        """Select down the tree, open one node, roll out, and back the value up; returns
        the values backed up (None: the sample gave none). ``forced``: the root's
        choice, made by the caller (the halving root) instead of the root's bandit."""
        path: list[tuple[_Node, dict[str, Action]]] = []
        node = root
        decision: Decision | None = root_decision
        depth_left = self.depth
        expanded = False
        cut = False
        try:
            while decision is not None:
                if expanded:
                    if depth_left <= 0:
                        break
                    depth_left -= 1
                    try:
                        self._rollout_step(sim, decision)
                    except Refused:
                        break  # this sample's rollout cannot go on: value what it reached
                else:
                    try:
                        if forced is not None and node is root:
                            choices = {me: forced}
                            node.arms.setdefault(me, {}).setdefault(forced, _Arm()).available += 1
                            self._score(sim, me, forced)
                        else:
                            choices = self._select(
                                node, sim, decision, me if node is root else None
                            )
                    except Refused:
                        return None  # nothing to choose in this sample: no value to back up
                    try:
                        sim.act(decision, choices)
                    except Refused:
                        if forced is None or node is not root:
                            self._refuse(node, choices)
                        return None
                    except Unseen:
                        path.append((node, choices))
                        raise
                    path.append((node, choices))
                    key = tuple(choices.items())
                    child = node.children.get(key)
                    if child is None:
                        child = node.children[key] = _Node()
                        expanded = True
                    node = child
                decision = sim.decision()
        except Unseen:
            cut = True  # the state may be half changed: only the gains are valued
        if not path:
            return None
        rewards = self._rewards(sim, cut)
        for at, choices in path:
            at.visits += 1
            for side, action in choices.items():
                arm = at.arms[side][action]
                arm.visits += 1
                arm.total += rewards[side]
        return rewards

    def _select(
        self, node: _Node, sim: Sim, decision: Decision, root_side: str | None
    ) -> dict[str, Action]:
        """Each asked side's choice at this node: its own bandit (decoupled)."""
        choices: dict[str, Action] = {}
        for side in decision.sides:
            legal = self._candidates(node, sim, side, root_side)
            choices[side] = self._bandit(node, side, legal)
        for side, action in choices.items():
            self._score(sim, side, action)
        return choices

    @staticmethod
    def _refuse(node: _Node, choices: Mapping[str, Action]) -> None:
        """Choices refused in a sample are never tried at this node again."""
        node.refused.update(choices.items())
        for side, action in choices.items():
            node.arms.get(side, {}).pop(action, None)

    def _candidates(self, node: _Node, sim: Sim, side: str, root_side: str | None) -> list[Action]:
        """The side's candidates in this sample, in the node's order, widened.

        At the root the bot's own candidates are its seat's legal actions; other
        nodes take the ruleset's candidates in the simulated state, appending
        any not seen before to the node's order."""
        if side == root_side:
            legal = node.order[side]
        else:
            here = self.ruleset_legal(sim, side)
            if not here:
                raise Refused(f"{side} has no legal action in this sample")
            known = node.order.get(side)
            if known is None:
                legal = self._order(node, sim.ruleset, sim.state, side, here)
            else:
                seen = set(known)
                known.extend(a for a in here if a not in seen)
                present = set(here)
                legal = [a for a in known if a in present]
        refused = node.refused
        usable = [a for a in legal if (side, a) not in refused]
        if not usable:
            raise Refused(f"every candidate of {side} was refused here")
        width = max(1, math.ceil(self.widen_k * (node.visits + 1) ** self.widen_alpha))
        return usable[:width]

    @staticmethod
    def ruleset_legal(sim: Sim, side: str) -> Sequence[Action]:
        return sim.ruleset.legal_actions_holding(sim.state, side, sim.held.get(side))

    def _bandit(self, node: _Node, side: str, legal: list[Action]) -> Action:
        arms = node.arms.setdefault(side, {})
        priors = node.priors.get(side, {})
        best: Action | None = None
        best_value = -math.inf
        for action in legal:
            arm = arms.get(action)
            if arm is None:
                arm = arms[action] = _Arm()
            arm.available += 1
            if arm.visits == 0:
                value = math.inf
            else:
                value = (
                    arm.total / arm.visits
                    + self.c * math.sqrt(math.log(arm.available) / arm.visits)
                    + self.bias * priors.get(action, 0.0) / (arm.visits + 1)
                )
            if value > best_value:
                best, best_value = action, value
        assert best is not None
        return best

    # -- rollouts and values ------------------------------------------------------
    def _rollout_step(self, sim: Sim, decision: Decision) -> None:
        choices: dict[str, Action] = {}
        for side in decision.sides:
            if decision.kind is DecisionKind.SEALED:
                mixed = sim.ruleset.sealed_strategy(sim.state, side, self._random)
                if mixed is not None:
                    choices[side] = mixed
                    continue
            legal = self.ruleset_legal(sim, side)
            if not legal:
                raise Refused(f"{side} has no legal action in this sample")
            if self.rollout == "greedy":
                scores = self._scores(sim.ruleset, sim.state, side, legal)
                top = max(scores)
                best = [i for i, s in enumerate(scores) if s >= top - 1e-9]
                pick = best[int(self._random.random() * len(best))]
                choices[side] = legal[pick]
                sim.gain(side, scores[pick])
            else:
                choices[side] = legal[int(self._random.random() * len(legal))]
                self._score(sim, side, choices[side])
        sim.act(decision, choices)

    def _score(self, sim: Sim, side: str, action: Action) -> None:
        sim.gain(side, self._scores(sim.ruleset, sim.state, side, [action])[0])

    @staticmethod
    def _scores(
        ruleset: Ruleset[Any], state: Any, side: str, actions: Sequence[Action]
    ) -> list[float]:
        try:
            return [float(s) for s in ruleset.evaluate(state, side, actions)]
        except NotImplementedError:
            return [0.0] * len(actions)

    def _order(
        self, node: _Node, ruleset: Ruleset[Any], state: Any, side: str, actions: Sequence[Action]
    ) -> list[Action]:
        """Order the side's candidates at ``node`` best first by the greedy scores (ties in
        the ruleset's order) and keep each one's prior: its score scaled to 0..1."""
        scores = self._scores(ruleset, state, side, actions)
        ranked = sorted(range(len(actions)), key=lambda i: -scores[i])
        order = node.order[side] = [actions[i] for i in ranked]
        low, high = min(scores), max(scores)
        spread = high - low
        node.priors[side] = {
            actions[i]: (scores[i] - low) / spread if spread > 1e-12 else 1.0 for i in ranked
        }
        return order

    def _rewards(self, sim: Sim, cut: bool) -> dict[str, float]:
        """Each side's value of the iteration's end, from 0 (lost) to 1 (won)."""
        sides = self._sides
        outcome = None if cut else sim.ruleset.outcome(sim.state)
        if outcome is not None:
            if outcome.winner is None:
                return dict.fromkeys(sides, 0.5)
            rewards = dict.fromkeys(sides, 0.0)
            rewards[outcome.winner] = 1.0
            return rewards
        gains = {side: sim.gains.get(side, 0.0) for side in sides}
        root = self._root_standing
        now = None if cut or root is None else sim.ruleset.standing(sim.state)
        if now is not None and root is not None:
            # What the dice did (the standings' swing since the root) and, at the
            # ``gains`` weight, what the choices were expected to bring.
            gains = {
                side: now.get(side, 0.0) - root.get(side, 0.0) + self.gains * gain
                for side, gain in gains.items()
            }
        total = sum(gains.values())
        rewards = {}
        for side, gain in gains.items():
            others = len(gains) - 1
            lead = gain - ((total - gain) / others if others else 0.0)
            self._scale_n += 1
            self._scale += (abs(lead) - self._scale) / self._scale_n
            rewards[side] = 0.5 + 0.5 * math.tanh(lead / max(self._scale, 1e-9))
        return rewards
