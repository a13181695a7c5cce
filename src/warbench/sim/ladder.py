"""A ladder match: one bot against another in pairs of games, until the SPRT decides.

Each pair plays one seed twice with the seats swapped (as :func:`warbench.sim.runner.play_game`
with the same seed), so the dice and the seat treat both bots alike. A scenario of more
than two sides cannot swap two seats (a third side's seat is not the same to both),
so there a pair is the bot in one seat (each in turn) against the opponent in every
other, and the same seed with the opponent in every seat: the pair scores one point
plus the bot's result less the opponent's own in that seat, and a bot no better than
the opponent scores 50% however lopsided the seats are. The pair's points go into a
:class:`~warbench.sim.sprt.Pentanomial` and the match stops when the
:class:`~warbench.sim.sprt.Sprt` decides, when ``max_pairs`` are played, or when the
CPU budget is spent, and then says which (never a verdict it has not reached).
"""

from __future__ import annotations

import copy
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from warbench.bots import Bot, make_bot
from warbench.core.actions import Action
from warbench.core.decisions import DecisionKind
from warbench.core.dice import Dice
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.sim.runner import MAX_ACTIONS, bot_seeds, game_seed, play_on, score_for
from warbench.sim.sprt import Pentanomial, Sprt, Verdict

if TYPE_CHECKING:
    from warbench.core.seat import Seat


@dataclass
class Match:
    """What a ladder match found: the pairs, the test's verdict, and the CPU it took."""

    scenario: str
    bot: str
    opponent: str
    sprt: Sprt
    penta: Pentanomial = field(default_factory=Pentanomial)
    wins: int = 0
    losses: int = 0
    draws: int = 0
    actions: int = 0
    cpu: float = 0.0
    slowest: float = 0.0
    bot_cpu: float = 0.0
    """CPU seconds the bot spent choosing (its decisions alone)."""
    bot_decisions: int = 0
    stopped: str = ""
    """Why it stopped: "decided", "pairs" (``max_pairs`` played) or "budget" (CPU spent)."""

    @property
    def verdict(self) -> Verdict | None:
        return self.sprt.verdict(self.penta)

    @property
    def llr(self) -> float:
        return self.sprt.llr(self.penta)

    def summary(self) -> str:
        """One line a person reads: pairs, pentanomial, score, LLR and the verdict."""
        penta = self.penta
        decided = {"H1": f"H1 accepted ({self.bot} is the stronger)", "H0": "H0 accepted"}
        verdict = decided.get(self.verdict or "", f"not decided ({self.stopped})")
        per_action = self.cpu / self.actions if self.actions else 0.0
        per_decision = self.bot_cpu / self.bot_decisions if self.bot_decisions else 0.0
        return (
            f"{self.scenario}: {self.bot} vs {self.opponent}, {penta.pairs} pairs "
            f"(+{self.wins} ={self.draws} -{self.losses}), pentanomial "
            f"{list(penta.counts)}, score {100 * penta.score:.1f}% "
            f"(SE {100 * penta.standard_error():.1f}), LLR {self.llr:.2f} "
            f"[{self.sprt.lower:.2f}, {self.sprt.upper:.2f}]: {verdict}; "
            f"{self.cpu:.1f} s CPU, {1000 * per_action:.1f} ms an action, "
            f"{1000 * per_decision:.1f} ms a decision of {self.bot}"
        )


def run_match(
    scenario_id: str,
    bot: str,
    opponent: str,
    *,
    sprt: Sprt | None = None,
    seed: int = 1000,
    max_pairs: int = 1000,
    cpu_budget: float | None = None,
    report: Callable[[Match], None] | None = None,
) -> Match:
    """Play pairs of ``bot`` against ``opponent`` on ``scenario_id`` until the test decides,
    ``max_pairs`` are played or ``cpu_budget`` seconds of CPU are spent (``report`` is
    told after every pair)."""
    scenario = load_scenario(scenario_id)
    sides = scenario.sides
    match = Match(scenario_id, bot, opponent, sprt or Sprt())
    for pair in range(max_pairs):
        game_seed_ = seed + pair
        if len(sides) == 2:
            # Two sides: the bot plays each seat once against the opponent.
            played = [(seat, bot) for seat in sides]
        else:
            # More sides: the bot takes one seat (in turn), the opponent every other,
            # and the same seed is played by the opponent alone; the pair scores the
            # bot's result less the opponent's own in that seat (plus one), so a bot
            # as strong as the opponent scores 50% however the seats are balanced.
            seat = sides[pair % len(sides)]
            played = [(seat, bot), (seat, opponent)]
        scores: list[float] = []
        for index, (seat, who) in enumerate(played):
            started = time.process_time()
            seeds = bot_seeds(scenario, game_seed_)
            timed = _Timed(make_bot(who, seeds[seat]))
            game = Game(scenario, game_seed_)
            players = {
                side: timed if side == seat else make_bot(opponent, side_seed)
                for side, side_seed in seeds.items()
            }
            play_on(game, players)
            spent = time.process_time() - started
            match.cpu += spent
            match.slowest = max(match.slowest, spent)
            match.actions += len(game.actions)
            score = score_for(game, seat)
            scores.append(score)
            if len(sides) > 2 and index > 0:  # the opponent's own game: the baseline
                continue
            match.bot_cpu += timed.cpu
            match.bot_decisions += timed.decisions
            if score == 1.0:
                match.wins += 1
            elif score == 0.0:
                match.losses += 1
            else:
                match.draws += 1
        points = sum(scores) if len(sides) == 2 else 1.0 + scores[0] - scores[1]
        match.penta = match.penta.add(points)
        if report is not None:
            report(match)
        if match.verdict is not None:
            match.stopped = "decided"
            return match
        if cpu_budget is not None and match.cpu >= cpu_budget:
            match.stopped = "budget"
            return match
    match.stopped = "pairs"
    return match


class _Timed:
    """A bot whose choices are timed (CPU) and counted."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", "bot")
        self.cpu = 0.0
        self.decisions = 0

    def choose(self, game: Seat, side: str) -> Action:
        started = time.process_time()
        try:
            return self.bot.choose(game, side)
        finally:
            self.cpu += time.process_time() - started
            self.decisions += 1


@dataclass
class Screen:
    """The decision-level screen: how much a bot's departures from greedy's choice gain.

    ``deviations``: one number per decision at which the bot chose otherwise than
    greedy would have, the mean over paired rollouts of (the game's score for the
    bot's side after its own action) less (after greedy's), both played on by greedy
    for every side on the same dice."""

    scenario: str
    bot: str
    rollouts: int
    decisions: int = 0
    deviations: list[float] = field(default_factory=list)
    cpu: float = 0.0

    @property
    def mean(self) -> float:
        return statistics.fmean(self.deviations) if self.deviations else 0.0

    @property
    def standard_error(self) -> float:
        n = len(self.deviations)
        return statistics.stdev(self.deviations) / math.sqrt(n) if n > 1 else math.inf

    def summary(self) -> str:
        share = len(self.deviations) / self.decisions if self.decisions else 0.0
        return (
            f"{self.scenario}: {self.bot} left greedy's choice at {len(self.deviations)} of "
            f"{self.decisions} decisions ({share:.0%}); each deviation's score against "
            f"greedy's choice, {self.rollouts} paired rollouts: mean {self.mean:+.3f} "
            f"(SE {self.standard_error:.3f}); {self.cpu:.1f} s CPU"
        )


def screen_deviations(
    scenario_id: str,
    bot: str,
    *,
    games: int = 4,
    rollouts: int = 8,
    seed: int = 2000,
    max_deviations: int = 50,
    cpu_budget: float | None = None,
) -> Screen:
    """Play ``games`` games of ``bot`` against greedy (seats alternating) and, at each of
    the bot's own decisions where greedy would choose otherwise, weigh the two choices by
    ``rollouts`` paired rollouts to the end (issue 26: do the deviations help?)."""
    scenario = load_scenario(scenario_id)
    sides = scenario.sides
    screen = Screen(scenario_id, bot, rollouts)
    started = time.process_time()
    for index in range(games):
        seat = sides[index % len(sides)]
        game = Game(scenario, seed + index)
        players = {
            side: make_bot(bot if side == seat else "greedy", game_seed(seed + index, i, "bot"))
            for i, side in enumerate(sides)
        }
        reference = make_bot("greedy", game_seed(seed + index, 99, "reference"))
        for _ in range(MAX_ACTIONS):
            waiting = game.waiting_for()
            decision = game.decision
            if not waiting or decision is None:
                break
            side = waiting[0]
            action = players[side].choose(game.seat(side), side)
            if side == seat and decision.kind is DecisionKind.CHOOSE:
                screen.decisions += 1
                usual = reference.choose(game.seat(side), side)
                if str(usual) != str(action) and len(screen.deviations) < max_deviations:
                    gains = []
                    for r in range(rollouts):
                        dice = game_seed(seed + index, len(game.actions) * 1000 + r, "rollout")
                        gains.append(
                            _rollout(game, action, side, seat, dice)
                            - _rollout(game, usual, side, seat, dice)
                        )
                    screen.deviations.append(statistics.fmean(gains))
            game.apply(action, side)
        if cpu_budget is not None and time.process_time() - started >= cpu_budget:
            break
    screen.cpu = time.process_time() - started
    return screen


def _rollout(game: Game, action: Action, side: str, seat: str, seed: int) -> float:
    """``seat``'s score (1, 1/2, 0) once ``side`` plays ``action`` in a copy of ``game`` on
    dice of ``seed`` and greedy plays every side to the end (seeded alike)."""
    fork = copy.deepcopy(game, {id(game.ruleset): game.ruleset, id(game.scenario): game.scenario})
    fork.dice = Dice(seed)
    fork.apply(action, side)
    sides = game.scenario.sides
    greedy = {s: make_bot("greedy", game_seed(seed, i, "bot")) for i, s in enumerate(sides)}
    return score_for(play_on(fork, greedy), seat)


__all__ = ["Match", "Screen", "run_match", "screen_deviations"]
