"""An example bot of one's own: it attacks when it can, else plays at random.

Run it with any ruleset:

    warbench simulate miniwars/danville --games 20 \\
        --side horde=aggressive_bot:AggressiveBot --side danville=greedy

with this folder on ``PYTHONPATH`` (``PYTHONPATH=examples``). A bot is any class
(or function) that takes a seed and returns an object with ``name`` and
``choose(seat, side)``; see docs/bots.md.
"""

from __future__ import annotations

import random

from warbench.core.actions import Action
from warbench.core.seat import Seat

ATTACK_WORDS = ("fire", "attack", "shoot", "fight", "rake", "barrage")
"""The first word of an action that attacks, in the rulesets' action languages."""


class AggressiveBot:
    """Attacks whenever it can (one of its attacks at random), otherwise plays a random
    legal action."""

    name = "aggressive"

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def choose(self, game: Seat, side: str) -> Action:
        actions = list(game.legal_actions(side))
        attacks = [a for a in actions if str(a).split()[0] in ATTACK_WORDS]
        if attacks:
            return self.random.choice(attacks)
        return self.random.choice(actions)
