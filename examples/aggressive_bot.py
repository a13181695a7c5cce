"""An example bot of one's own: it makes the likeliest attack when it can, else plays
at random. It reads the odds as data (``seat.odds(action)``: exact fractions).

Run it with any ruleset:

    warbench simulate miniwars/danville --games 20 \\
        --side horde=aggressive_bot:AggressiveBot --side danville=greedy

with this folder on ``PYTHONPATH`` (``PYTHONPATH=examples``). A bot is any class
(or function) that takes a seed and returns an object with ``name`` and
``choose(seat, side)``; see docs/bots.md.
"""

from __future__ import annotations

import random
from fractions import Fraction

from warbench.core.actions import Action
from warbench.core.seat import Seat

ATTACK_WORDS = ("fire", "attack", "shoot", "fight", "rake", "barrage")
"""The first word of an action that attacks, in the rulesets' action languages."""
NOTHING = ("miss", "saved", "none", "0 hits", "failure", "still disrupted", "may not move")
"""Outcome names, across the rulesets, of an attack that does nothing to its target."""


class AggressiveBot:
    """Attacks whenever it can: the attack likeliest to do something, by its exact odds
    (ties, and attacks without odds, at random); otherwise a random legal action."""

    name = "aggressive"

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def choose(self, game: Seat, side: str) -> Action:
        actions = list(game.legal_actions(side))
        attacks = [a for a in actions if str(a).split()[0] in ATTACK_WORDS]
        if attacks:
            self.random.shuffle(attacks)
            return max(attacks, key=lambda a: self.effect(game, a))
        return self.random.choice(actions)

    @staticmethod
    def effect(game: Seat, action: Action) -> Fraction:
        """The chance that ``action`` does something (0 if it has no odds now)."""
        odds = game.odds(action)
        if odds is None:
            return Fraction(0)
        # Several attacks in one action (MGV) name each part: "B1 kinetic at R1: 0 hits; ...".
        idle = (
            p
            for name, p in odds.outcomes.items()
            if all(part.rpartition(": ")[2] in NOTHING for part in name.split("; "))
        )
        return 1 - sum(idle, Fraction(0))
