"""Bots: programs that choose actions for a side, through the same API people use.

>>> from warbench.core.game import Game
>>> game = Game.start("miniwars/danville", seed=1)
>>> bot = make_bot("random", seed=1)
>>> side = game.waiting_for()[0]
>>> bot.choose(game.seat(side), side) in game.legal_actions()
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points

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
"""The built-in bots."""
ENTRY_POINTS = "warbench.bots"
"""The entry-point group an installed package names its bots in (name = "module:attr")."""


@cache
def installed_bots() -> dict[str, str]:
    """Bots installed packages offer (entry-point group ``warbench.bots``): name -> target."""
    return {
        ep.name: ep.value for ep in entry_points(group=ENTRY_POINTS) if ep.name not in _FACTORIES
    }


def bot_names() -> tuple[str, ...]:
    """Every bot that can be named: the built-in ones, then the installed ones."""
    return (*BOT_NAMES, *sorted(installed_bots()))


def is_bot_path(name: str) -> bool:
    """``module:attr``: a bot given by where to import it from."""
    module, sep, attr = name.partition(":")
    return bool(sep and module and attr)


def _imported(target: str, shown: str) -> Callable[[int], Bot]:
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise WarbenchError(f"bot '{shown}': cannot import {module_name}: {exc}") from None
    found: object = module
    for part in attr.split("."):
        if not hasattr(found, part):
            raise WarbenchError(f"bot '{shown}': {module_name} has no {attr}")
        found = getattr(found, part)
    if not callable(found):
        raise WarbenchError(f"bot '{shown}': {attr} is not a class or a function of a seed")
    factory: Callable[[int], Bot] = found
    return factory


def bot_factory(name: str) -> Callable[[int], Bot]:
    """What makes the bot ``name``: a built-in bot, an installed one, or ``module:attr``
    (a class or function taking the seed and returning an object with ``choose``)."""
    factory = _FACTORIES.get(name)
    if factory is not None:
        return factory
    installed = installed_bots().get(name)
    if installed is not None:
        return _imported(installed, name)
    if is_bot_path(name):
        return _imported(name, name)
    raise WarbenchError(
        f"unknown bot '{name}'; bots: {', '.join(bot_names())}, or module:Class of your own"
    )


def check_bot(name: str, info: RulesetInfo) -> None:
    """Refuse, before the game starts, a bot that cannot play this ruleset.

    A bot that reads the state (``reads_state``, the greedy bot, which
    scores actions from it) cannot play a ruleset with hidden information
    unless the ruleset gives each side a state of its own knowledge
    (``RulesetInfo.side_states``).
    """
    factory = bot_factory(name)
    hidden = info.hidden_information and not info.side_states
    if getattr(factory, "reads_state", False) and hidden:
        raise WarbenchError(
            f"the {name} bot reads the whole state, and {info.name} has hidden information; "
            "choose another bot (random)"
        )


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name, with its own seeded random stream (for tie-breaks and sampling)."""
    bot = bot_factory(name)(seed)
    if not callable(getattr(bot, "choose", None)):
        raise WarbenchError(f"bot '{name}' made {type(bot).__name__}, which has no choose()")
    return bot


__all__ = [
    "BOT_NAMES",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "bot_factory",
    "bot_names",
    "check_bot",
    "installed_bots",
    "is_bot_path",
    "make_bot",
]
