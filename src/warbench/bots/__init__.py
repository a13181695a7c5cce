"""Bots: programs that choose actions for a side, through the same API people use.

>>> from warbench.core.game import Game
>>> game = Game.start("miniwars/danville", seed=1)
>>> bot = make_bot("random", seed=1)
>>> side = game.waiting_for()[0]
>>> bot.choose(game.seat(side), side) in game.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable

from warbench.bots.base import Bot
from warbench.bots.greedy import GreedyBot
from warbench.bots.random_bot import RandomBot
from warbench.core.ruleset import RulesetInfo
from warbench.errors import WarbenchError

_FACTORIES: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def check_bot(name: str, info: RulesetInfo) -> None:
    """Refuse, before the game starts, a bot that cannot play this ruleset.

    A bot that reads the state (``reads_state``, the greedy bot, which
    scores actions from it) cannot play a ruleset with hidden information
    unless the ruleset gives each side a state of its own knowledge
    (``RulesetInfo.side_states``).
    """
    factory = _FACTORIES.get(name)
    hidden = info.hidden_information and not info.side_states
    if getattr(factory, "reads_state", False) and hidden:
        raise WarbenchError(
            f"the {name} bot reads the whole state, and {info.name} has hidden information; "
            "choose another bot (random)"
        )


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name, with its own seeded random stream (for tie-breaks and sampling)."""
    factory = _FACTORIES.get(name)
    if factory is None:
        raise WarbenchError(f"unknown bot '{name}'; bots: {', '.join(BOT_NAMES)}")
    return factory(seed)


__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "RandomBot", "check_bot", "make_bot"]
