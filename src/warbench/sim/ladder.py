"""A ladder match: one bot against another in pairs of games, until the SPRT decides.

Each pair plays one seed twice with the seats swapped (:func:`warbench.sim.runner.play_game`
with the same seed), so the dice and the seat treat both bots alike; the pair's points
go into a :class:`~warbench.sim.sprt.Pentanomial` and the match stops when the
:class:`~warbench.sim.sprt.Sprt` decides, when ``max_pairs`` are played, or when the
CPU budget is spent, and then says which (never a verdict it has not reached).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from warbench.core.loader import load_scenario
from warbench.sim.runner import play_game
from warbench.sim.sprt import Pentanomial, Sprt, Verdict


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
        return (
            f"{self.scenario}: {self.bot} vs {self.opponent}, {penta.pairs} pairs "
            f"(+{self.wins} ={self.draws} -{self.losses}), pentanomial "
            f"{list(penta.counts)}, score {100 * penta.score:.1f}% "
            f"(SE {100 * penta.standard_error():.1f}), LLR {self.llr:.2f} "
            f"[{self.sprt.lower:.2f}, {self.sprt.upper:.2f}]: {verdict}; "
            f"{self.cpu:.1f} s CPU, {1000 * per_action:.1f} ms an action"
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
    first, second = scenario.sides[0], scenario.sides[1]
    match = Match(scenario_id, bot, opponent, sprt or Sprt())
    for pair in range(max_pairs):
        points = 0.0
        for seat in (first, second):
            other = second if seat == first else first
            started = time.process_time()
            game = play_game(scenario, seed + pair, {seat: bot, other: opponent})
            spent = time.process_time() - started
            match.cpu += spent
            match.slowest = max(match.slowest, spent)
            match.actions += len(game.actions)
            winner = game.outcome.winner if game.outcome is not None else None
            if winner is None:
                match.draws += 1
                points += 0.5
            elif winner == seat:
                match.wins += 1
                points += 1.0
            else:
                match.losses += 1
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


__all__ = ["Match", "run_match"]
