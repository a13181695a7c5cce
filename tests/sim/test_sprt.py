"""The ladder's sequential test (issue 26): the pentanomial GSPRT on paired games, and a
ladder match that decides for greedy against a planted weaker bot."""

from __future__ import annotations

import math
import random

import pytest

from warbench.bots.greedy import GreedyBot
from warbench.core.actions import Action, End, Pass
from warbench.core.game import Game
from warbench.core.seat import Seat
from warbench.sim.ladder import _rollout, run_match, screen_deviations
from warbench.sim.sprt import Pentanomial, Sprt, _constrained


class Blunderer(GreedyBot):
    """Greedy, except that 30% of its moves are a random legal action instead."""

    name = "blunderer"

    def choose(self, game: Seat, side: str) -> Action:
        actions = self.legal(game, side)
        if len(actions) > 1 and self._random.random() < 0.3:
            return random.Random(self._random.random()).choice(actions)
        return super().choose(game, side)


class Passer(GreedyBot):
    """Greedy, except that 30% of the time it passes (ends its step) where it may."""

    name = "passer"

    def choose(self, game: Seat, side: str) -> Action:
        actions = self.legal(game, side)
        holding = [a for a in actions if isinstance(a, End | Pass)]
        if holding and len(actions) > 1 and self._random.random() < 0.3:
            return holding[0]
        return super().choose(game, side)


def test_the_bounds_follow_alpha_and_beta() -> None:
    test = Sprt()
    assert test.upper == pytest.approx(math.log(0.95 / 0.05))
    assert test.lower == pytest.approx(-test.upper)
    assert Sprt(alpha=0.05, beta=0.1).lower == pytest.approx(math.log(0.1 / 0.95))


def test_the_llr_weighs_the_likeliest_pentanomials_of_each_mean() -> None:
    """The GSPRT's LLR: the pairs' log-likelihood under the likeliest pentanomial of mean
    p1, less under that of mean p0; with many pairs it meets the normal approximation
    n (p1 - p0) (2 m - p0 - p1) / (2 v)."""
    penta = Pentanomial((1, 3, 6, 6, 4))
    assert penta.pairs == 20 and penta.score == pytest.approx(0.6125)
    values = [0.0] * 1 + [0.25] * 3 + [0.5] * 6 + [0.75] * 6 + [1.0] * 4
    mean = sum(values) / 20
    variance = sum((x - mean) ** 2 for x in values) / 20
    assert penta.variance() == pytest.approx(variance, rel=1e-3)
    normal = 20 * 0.1 * (2 * mean - 1.1) / (2 * variance)
    assert Sprt().normal_llr(penta) == pytest.approx(normal, rel=1e-3)
    freqs = [c / 20 for c in penta.counts]
    for target in (0.5, 0.6):
        fitted = _constrained([f + 1e-9 for f in freqs], [0, 0.25, 0.5, 0.75, 1], target)
        assert sum(fitted) == pytest.approx(1.0)
        scores = (0, 0.25, 0.5, 0.75, 1)
        assert sum(p * x for p, x in zip(fitted, scores, strict=True)) == pytest.approx(target)
    assert Sprt().verdict(penta) is None  # 61% after 20 pairs: not yet decided
    many = Pentanomial(tuple(10 * c for c in penta.counts))  # type: ignore[arg-type]
    assert Sprt().llr(many) == pytest.approx(Sprt().normal_llr(many), rel=0.15)
    assert Sprt().verdict(many) == "H1"


def test_a_run_of_won_pairs_accepts_h1_and_even_pairs_accept_h0() -> None:
    won = Pentanomial()
    for _ in range(3):
        won = won.add(2.0)
    assert Sprt().verdict(won) is None  # three pairs are not evidence enough
    for _ in range(17):
        won = won.add(2.0)
    assert Sprt().verdict(won) == "H1"
    even = Pentanomial()
    for _ in range(40):
        even = even.add(1.0)
    assert Sprt().verdict(even) == "H0"
    with pytest.raises(ValueError, match="a pair scores"):
        even.add(0.7)


def test_the_ladder_decides_for_greedy_against_a_planted_weaker_bot() -> None:
    """Issue 26's own test of the ladder: greedy against a bot that plays a random move
    30% of the time, seats swapped on paired seeds, within a small budget."""
    match = run_match(
        "miniwars/bridge",
        "greedy",
        "tests.sim.test_sprt:Blunderer",
        max_pairs=300,
        cpu_budget=60.0,
    )
    assert match.stopped == "decided", match.summary()
    assert match.verdict == "H1" and match.penta.score > 0.5
    assert match.wins + match.losses + match.draws == 2 * match.penta.pairs
    assert "H1 accepted (greedy is the stronger)" in match.summary()


def test_the_ladder_decides_for_greedy_against_a_bot_that_passes_30_percent() -> None:
    """The issue's planted pair as it words it: greedy against a bot that passes 30% of
    its moves; the SPRT decides for greedy within its budget."""
    match = run_match(
        "miniwars/bridge", "greedy", "tests.sim.test_sprt:Passer", max_pairs=300, cpu_budget=60.0
    )
    assert match.stopped == "decided", match.summary()
    assert match.verdict == "H1" and match.penta.score > 0.5


def test_even_bots_are_not_called_different() -> None:
    """Greedy against itself: the test either accepts H0 or stays undecided; never H1."""
    match = run_match("miniwars/bridge", "greedy", "greedy", max_pairs=60, cpu_budget=20.0)
    assert match.verdict != "H1", match.summary()


def test_a_three_sided_scenario_is_scored_against_the_opponent_in_the_same_seat() -> None:
    """vsgmr/relic has three sides, so seats cannot be swapped between two bots: greedy
    in each seat wins 24-38% of games. A pair there is the bot in one seat against the
    opponent in the others, less the opponent's own game in that seat on the same seed;
    greedy against greedy plays the very same game twice, every pair scores even, and
    the score is 50%, not greedy's share of a three-way game."""
    match = run_match("vsgmr/relic", "greedy", "greedy", max_pairs=3)
    assert match.penta.counts == (0, 0, 3, 0, 0), match.summary()
    assert match.penta.score == 0.5
    assert match.wins + match.losses + match.draws == 3  # the bot's games only
    assert match.stopped == "pairs"


def test_the_decision_screen_weighs_each_deviation_by_paired_rollouts() -> None:
    """Issue 26's decision-level screen: at the bot's decisions where greedy would choose
    otherwise, both choices are played on by greedy on the same dice; the same choice on
    the same dice scores the same (the pairing), and each deviation's gain is a score
    difference between -1 and 1."""
    game = Game.start("miniwars/bridge", 3)
    side = game.waiting_for()[0]
    action = game.legal_actions(side)[0]
    seat = game.scenario.sides[0]
    assert _rollout(game, action, side, seat, 7) == _rollout(game, action, side, seat, 7)
    assert game.actions == []  # the rollouts played on copies
    screen = screen_deviations(
        "miniwars/bridge", "tests.sim.test_sprt:Blunderer", games=2, rollouts=2, max_deviations=6
    )
    assert 1 <= len(screen.deviations) <= 6 and screen.decisions > len(screen.deviations)
    assert all(-1.0 <= d <= 1.0 for d in screen.deviations)
    assert "left greedy's choice at" in screen.summary() and "paired rollouts" in screen.summary()
