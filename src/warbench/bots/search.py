"""The search bot: rollout policy improvement over a base bot, on shared samples.

At each decision the bot asks its base (the planner, or greedy) for its scores and
then tries to improve on the base's own choice by playing the game on:

- **candidates**: the base's best few, the best action of every piece not yet
  among them, and ``end``/``pass`` where they are legal (holding back is where a
  one-ply score errs most);
- **samples**: sample ``k`` is one seed, shared by every candidate: it seeds the
  dice of the candidate's own resolution and of the rest of the game, and both
  sides' tie-breaks. Two candidates are compared on the same luck, so the
  difference of their values has far less noise than either value;
- **rollouts**: each sample plays on to the end of the game, the victory rules
  deciding (1 a win, 1/2 a draw, 0 a loss for the bot's side). Where the ruleset
  has a compiled kernel that continues a position (``Ruleset.play_from``:
  MiniWars, CGME, V.E.G.) the kernel plays it, greedy for every side; elsewhere
  Python plays greedy to a horizon of decisions and a game not over by then is
  valued by how the scenario's own standings moved since the root, squashed
  into 0..1 on a scale fixed at the root;
- **sequential halving**: each round gives the live candidates an equal share of
  the budget on new common samples and keeps the better half; the base's own
  choice is never dropped. A quarter of the budget (``RESERVE``) is kept back for
  the verdict;
- **the verdict**: the survivor and the base's choice are played on fresh common
  samples (the reserve): the survivor's lead on the samples it was picked on is
  flattered by the pick itself. It replaces the base's choice only when it beats
  it on the fresh samples by ``margin`` standard errors of the paired
  differences, so noise alone never makes the bot play worse than its base.
  A close verdict (the lead within ``margin`` standard errors either way) gets more
  fresh samples, up to ``close`` times the budget again, and is then taken once:
  the budget goes where the best candidates are hard to tell apart;

Forced decisions (one legal action) cost nothing. The budget is a number of
rollouts or a time per decision (then the rollout count is a cap). With a
rollout budget and a seed the choice is reproducible.

The bot decides from its seat alone (``seat.state``: the state as its side may
know it); a choice another side held before the search began cannot be known,
so a rollout that comes to open it stops there and is valued as it stands.

>>> from warbench.core.game import Game
>>> game = Game.start("miniwars/bridge", seed=1)
>>> side = game.waiting_for()[0]
>>> bot = SearchBot(1, rollouts=24)
>>> bot.choose(game.seat(side), side) in game.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from warbench.bots.base import SeededBot
from warbench.bots.options import BotOption, choice, count, real
from warbench.bots.samples import mean_value, paired_lead
from warbench.bots.simulation import Refused, Root, Sim, Unseen, own_held, search_root
from warbench.core.actions import Action, End, Pass
from warbench.core.decisions import DecisionKind

if TYPE_CHECKING:
    from warbench.core.decisions import Decision
    from warbench.core.ruleset import Ruleset
    from warbench.core.seat import Seat


OPTIONS: Mapping[str, BotOption] = {
    "rollouts": BotOption(
        count(1, 1_000_000), 400, "rollouts per decision (default 400; with time: a cap)"
    ),
    "time": BotOption(real(0.0, 600.0), 0.0, "seconds per decision (0: the rollouts bound it)"),
    "width": BotOption(count(1, 64), 4, "the base's best candidates tried (default 4)"),
    "margin": BotOption(
        real(0.0, 10.0),
        1.0,
        "standard errors by which a candidate must beat the base's choice (default 1)",
    ),
    "horizon": BotOption(
        count(1, 100_000),
        60,
        "decisions a Python rollout plays before the standings value it (default 60)",
    ),
    "base": BotOption(
        choice("planner", "greedy"), "planner", "the bot improved on: planner (default) or greedy"
    ),
    "close": BotOption(
        real(0.0, 10.0),
        1.0,
        "a close verdict may spend this many budgets more on fresh samples (default 1)",
    ),
}
"""The options of the search bot, by name."""

RESERVE = 0.25
"""The share of the budget kept back for the verdict: the survivor against the base's
choice on fresh samples."""
SQUASH = 0.5
"""A standing swing worth this share of the mean side's standing at the root counts as
tanh(1) of the way to a win (for rollouts stopped before the end)."""


def _actor(action: Action) -> str | None:
    """The piece an action is about, where its fields name one (``unit``, ``base``,
    ``figure``, or the first of ``units``/``shooters``), else None."""
    for name in ("unit", "base", "figure"):
        value = getattr(action, name, None)
        if isinstance(value, str):
            return value
    for name in ("units", "shooters"):
        values = getattr(action, name, None)
        if isinstance(values, tuple) and values and isinstance(values[0], str):
            return values[0]
    return None


@dataclass(slots=True)
class Searched:
    """What the last decision's search did (for benchmarks, tests and diagnosis)."""

    candidates: list[Action] = field(default_factory=list)
    values: dict[Action, dict[int, float]] = field(default_factory=dict)
    """Each candidate's value per sample of the halving (sample number -> value)."""
    fresh: dict[Action, dict[int, float]] = field(default_factory=dict)
    """The survivor's and the base's values on the fresh samples the verdict is taken on."""
    rollouts: int = 0
    verdict: float | None = None
    """The survivor's lead over the base's choice on the fresh samples, in standard
    errors (None: the base's choice survived the halving, no verdict was needed)."""
    extended: bool = False
    """Whether the verdict was close and got more fresh samples (option ``close``)."""
    base: Action | None = None
    chosen: Action | None = None
    seconds: float = 0.0
    kernel: bool = False
    """Whether the rollouts were played by a compiled kernel."""


class SearchBot(SeededBot):
    """Rollout search: improves on the planner's move by playing candidates out.

    ``search:rollouts=N`` or ``search:time=S``; the options are in :data:`OPTIONS`."""

    name = "search"
    reads_state = True
    options = OPTIONS

    def __init__(
        self,
        seed: int,
        rollouts: int | None = None,
        time: float = 0.0,
        width: int = 4,
        margin: float = 1.0,
        horizon: int = 60,
        base: str = "planner",
        close: float = 1.0,
    ) -> None:
        super().__init__(seed)
        if rollouts is None:
            rollouts = 1_000_000 if time > 0 else 400
        self.rollouts = rollouts
        self.time = time
        self.width = width
        self.margin = margin
        self.horizon = horizon
        self.base = base
        self.close = close
        self.last = Searched()

    # -- the decision ---------------------------------------------------------------
    def choose(self, game: Seat, side: str) -> Action:
        started = time.perf_counter()
        actions = list(self.legal(game, side))
        if game.decision is not None:
            self.last = Searched()
        start = search_root(game, side, actions, self._random)
        if not isinstance(start, Root):
            return start
        decision, known = start.decision, start.state
        ruleset = game.ruleset
        scores = self._scores(ruleset, known, side, actions)
        best = max(scores)
        top = [i for i, score in enumerate(scores) if score >= best - 1e-9]
        base = actions[top[int(self._random.random() * len(top))]]
        self.last.base = self.last.chosen = base
        if len(actions) == 1 or decision.kind is DecisionKind.SEALED:
            return base
        candidates = self._candidates(actions, scores, base)
        self.last.candidates = candidates
        if len(candidates) == 1:
            return base
        held = own_held(game, side)
        search = _Search(self, ruleset, known, (side, tuple(game.sides)), decision, held)
        chosen = search.run(candidates, base, started)
        self.last.chosen = chosen
        self.last.seconds = time.perf_counter() - started
        return chosen

    def _scores(
        self, ruleset: Ruleset[Any], state: Any, side: str, actions: Sequence[Action]
    ) -> list[float]:
        if self.base == "planner":
            return ruleset.plan(state, side, actions)
        return ruleset.evaluate(state, side, actions)

    def _candidates(
        self, actions: Sequence[Action], scores: Sequence[float], base: Action
    ) -> list[Action]:
        """The base's choice, its next best, each piece's best, then end and pass."""
        order = sorted(range(len(actions)), key=lambda i: -scores[i])
        chosen = [base]
        for i in order[: self.width]:
            if actions[i] not in chosen and len(chosen) < self.width:
                chosen.append(actions[i])
        pieces = {_actor(a) for a in chosen}
        for i in order:
            piece = _actor(actions[i])
            if piece is not None and piece not in pieces:
                pieces.add(piece)
                chosen.append(actions[i])
        chosen.extend(a for a in actions if isinstance(a, End | Pass) and a not in chosen)
        return chosen


class _Search:
    """One decision's search: candidates valued on common samples by rollouts."""

    def __init__(
        self,
        bot: SearchBot,
        ruleset: Ruleset[Any],
        known: Any,
        seats: tuple[str, tuple[str, ...]],
        decision: Decision,
        held: Mapping[str, Action],
    ) -> None:
        self.bot = bot
        self.ruleset = ruleset
        self.known = known
        self.side, self.sides = seats
        """The bot's side, and every side of the game."""
        self.decision = decision
        self.held = held
        standing = ruleset.standing(known)
        self.root_standing = standing
        if standing:
            self.scale = max(1e-9, SQUASH * sum(standing.values()) / len(standing))
        else:
            self.scale = 1.0
        self.seeds: list[int] = []
        self.done = 0
        self.kernel = True
        self.searched = bot.last

    # -- budget ---------------------------------------------------------------------
    def run(self, candidates: list[Action], base: Action, started: float) -> Action:
        bot = self.bot
        values: dict[Action, dict[int, float]] = {a: {} for a in candidates}
        self.searched.values = values
        deadline = started + bot.time if bot.time > 0 else math.inf
        budget = bot.rollouts
        main = budget - int(budget * RESERVE)
        alive = list(candidates)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        for round_no in range(rounds):
            share = rounds - round_no
            quota = self.done + max(len(alive), (main - self.done) // share)
            now = time.perf_counter()
            until = now + (deadline - now) * (1 - RESERVE) / share if bot.time > 0 else math.inf
            self._sample(alive, values, quota, until, first=True)
            if len(alive) > 2:
                keep = max(2, math.ceil(len(alive) / 2))
                ranked = sorted(alive, key=lambda a: -mean_value(values[a]))
                alive = ranked[:keep]
                if base not in alive:
                    alive[-1] = base
            if self.done >= budget or time.perf_counter() >= deadline:
                break
        best = max(
            (a for a in alive if a != base), key=lambda a: mean_value(values[a]), default=base
        )
        if best == base:
            self._finish()
            return base
        # The verdict is taken on fresh common samples: the survivor was picked as the
        # best of several on the halving's samples, where its lead is flattered by the
        # pick itself (the winner's curse). The reserve pays for them.
        fresh: dict[Action, dict[int, float]] = {best: {}, base: {}}
        self.searched.fresh = fresh
        while self.done + 2 <= budget and time.perf_counter() < deadline:
            self._sample([best, base], fresh, self.done + 2, deadline, first=True)
        lead = paired_lead(fresh[best], fresh[base])
        if abs(lead) <= bot.margin and bot.close > 0:
            # Close: the budget goes where the choice is hard to tell. More fresh
            # samples (the time limit still binds), then one verdict on them all.
            more = budget + int(bot.rollouts * bot.close)
            self.searched.extended = self.done + 2 <= more and time.perf_counter() < deadline
            while self.done + 2 <= more and time.perf_counter() < deadline:
                self._sample([best, base], fresh, self.done + 2, deadline, first=True)
            lead = paired_lead(fresh[best], fresh[base])
        self.searched.verdict = lead
        self._finish()
        return best if lead > bot.margin else base

    def _finish(self) -> None:
        self.searched.rollouts = self.done
        self.searched.kernel = self.kernel

    def _sample(
        self,
        alive: list[Action],
        values: dict[Action, dict[int, float]],
        quota: int,
        until: float,
        first: bool,
    ) -> None:
        """New common samples for every live candidate until ``quota`` rollouts or
        ``until``; at least one sample when ``first``."""
        while first or (self.done + len(alive) <= quota and time.perf_counter() < until):
            first = False
            k = len(self.seeds)
            self.seeds.append(self.bot.stream.getrandbits(63))
            for action in alive:
                value = self._rollout(action, self.seeds[k])
                self.done += 1
                if value is not None:
                    values[action][k] = value

    # -- one rollout ----------------------------------------------------------------
    def _rollout(self, action: Action, seed: int) -> float | None:
        """The bot's side's value of ``action`` on sample ``seed``, or None if this
        sample refuses it."""
        ruleset = self.ruleset
        sim = Sim(ruleset, ruleset.copy_state(self.known), seed, self.held)
        ties = random.Random(seed ^ 0x5EA4C4)
        streams = {s: random.Random(ties.getrandbits(63)) for s in self.sides}
        try:
            sim.act(self.decision, {self.side: action})
        except Refused:
            return None
        try:
            decision = sim.decision()
            if decision is None:
                return self._outcome(sim)
            if self.kernel and not sim.held:
                played = ruleset.play_from(
                    sim.state, sim.dice.generator, dict.fromkeys(self.sides, "greedy"), streams
                )
                if played is not None:
                    return _score(played.winner, self.side)
                self.kernel = False  # the ruleset has no kernel, or it declines the game
            for _ in range(self.bot.horizon):
                if decision is None:
                    return self._outcome(sim)
                sim.act(decision, self._policy(sim, decision, streams))
                decision = sim.decision()
            if decision is None:
                return self._outcome(sim)
        except (Unseen, Refused):
            pass
        return self._standing_value(sim)

    def _policy(
        self, sim: Sim, decision: Decision, streams: Mapping[str, random.Random]
    ) -> dict[str, Action]:
        """Greedy for every side asked (the ruleset's mixed strategy in a sealed round)."""
        ruleset, state = self.ruleset, sim.state
        sides = decision.sides if decision.kind is DecisionKind.SEALED else decision.sides[:1]
        choices: dict[str, Action] = {}
        for s in sides:
            rng = streams[s]
            if decision.kind is DecisionKind.SEALED:
                mixed = ruleset.sealed_strategy(state, s, rng)
                if mixed is not None:
                    choices[s] = mixed
                    continue
            legal = ruleset.legal_actions(state, s)
            if not legal:
                raise Refused(f"{s} has no legal action in this sample")
            scores = ruleset.evaluate(state, s, legal)
            best = max(scores)
            top = [i for i, v in enumerate(scores) if v >= best - 1e-9]
            choices[s] = legal[top[int(rng.random() * len(top))]]
        return choices

    def _outcome(self, sim: Sim) -> float:
        outcome = self.ruleset.outcome(sim.state)
        return _score(outcome.winner if outcome is not None else None, self.side)

    def _standing_value(self, sim: Sim) -> float:
        """A game stopped short of its end: how the standings moved since the root."""
        root = self.root_standing
        now = self.ruleset.standing(sim.state)
        if not root or not now:
            return 0.5
        mine = now.get(self.side, 0.0) - root.get(self.side, 0.0)
        others = [now.get(s, 0.0) - root.get(s, 0.0) for s in now if s != self.side]
        swing = mine - (max(others) if others else 0.0)
        return 0.5 + 0.5 * math.tanh(swing / self.scale)


def _score(winner: str | None, side: str) -> float:
    return 0.5 if winner is None else (1.0 if winner == side else 0.0)


__all__ = ["OPTIONS", "SearchBot", "Searched"]
