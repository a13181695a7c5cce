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
import inspect
from collections.abc import Callable, Mapping
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from warbench.bots.base import Bot
from warbench.bots.greedy import GreedyBot
from warbench.bots.mcts import MctsBot
from warbench.bots.options import BotOption
from warbench.bots.planner import PlannerBot
from warbench.bots.random_bot import RandomBot
from warbench.bots.search import SearchBot
from warbench.core.ruleset import RulesetInfo
from warbench.errors import WarbenchError, excerpt

_FACTORIES: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "planner": PlannerBot,
    "mcts": MctsBot,
    "search": SearchBot,
}
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)
"""The built-in bots."""
LEVELS: dict[str, tuple[str, str]] = {
    "easy": ("greedy", "takes the best trade it sees this move, nothing more"),
    "normal": ("planner", "plays for the scenario's goal, holds back, gangs up on a target"),
    "hard": ("search:time=1", "plays each candidate move out many times; about 1 s a move"),
}
"""The difficulty levels a player picks from: name -> (the bot it stands for, what it does).
A level takes its bot's options too (``hard:time=3``), which override the level's."""
ENTRY_POINTS = "warbench.bots"
"""The entry-point group an installed package names its bots in (name = "module:attr")."""


@cache
def installed_bots() -> dict[str, str]:
    """Bots installed packages offer (entry-point group ``warbench.bots``): name -> target."""
    return {
        ep.name: ep.value for ep in entry_points(group=ENTRY_POINTS) if ep.name not in _FACTORIES
    }


def bot_names() -> tuple[str, ...]:
    """Every bot that can be named: the levels, the built-in bots, then the installed ones."""
    return (*LEVELS, *BOT_NAMES, *sorted(installed_bots()))


def split_options(name: str) -> tuple[str, dict[str, str]]:
    """``NAME:key=value,key=value`` -> (NAME, {key: value}); a name without options,
    or a ``module:attr`` path, comes back whole with no options.

    Options follow a bot's name after a colon; what tells them from a
    ``module:attr`` path is the name (a built-in or installed bot) or an ``=``
    (an attribute never holds one).

    >>> split_options("mcts:iterations=50,rollout=random")
    ('mcts', {'iterations': '50', 'rollout': 'random'})
    >>> split_options("mybots:Smart")
    ('mybots:Smart', {})

    A level stands for its bot with the level's options, which given ones override:

    >>> split_options("hard:time=3")
    ('search', {'time': '3'})
    """
    head, sep, tail = name.partition(":")
    level = LEVELS.get(head.lower())
    if level is not None:
        base, preset = split_options(level[0])
        return base, {**preset, **(split_options(f"{base}:{tail}")[1] if sep else {})}
    if not sep or (
        head.lower() not in _FACTORIES and head not in installed_bots() and "=" not in tail
    ):
        return name, {}
    base = head.lower() if head.lower() in _FACTORIES else head
    options: dict[str, str] = {}
    for item in tail.split(","):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise WarbenchError(
                f"bot '{excerpt(name)}': options are written {base}:key=value,key=value"
            )
        if key in options:
            raise WarbenchError(f"bot '{excerpt(name)}': option {excerpt(key)} given twice")
        options[key] = value
    return base, options


def bot_options(name: str, factory: Callable[..., Bot], given: Mapping[str, str]) -> dict[str, Any]:
    """The options ``given`` for the bot ``name``, parsed and checked against what its
    factory takes (``options``: name -> ``BotOption``)."""
    if not given:
        return {}
    offered: Mapping[str, BotOption] = getattr(factory, "options", {})
    if not offered:
        raise WarbenchError(f"the {name} bot takes no options")
    parsed: dict[str, Any] = {}
    for key, value in given.items():
        option = offered.get(key)
        if option is None:
            raise WarbenchError(
                f"the {name} bot has no option '{excerpt(key)}'; options: {', '.join(offered)}"
            )
        try:
            parsed[key] = option.parse(value)
        except ValueError as exc:
            raise WarbenchError(f"the {name} bot's option {key}: {exc}") from None
    return parsed


def is_bot_path(name: str) -> bool:
    """``module:attr``: a bot given by where to import it from, or ``NAME:options``
    (told apart by :func:`split_options`); either is checked when the bot is made."""
    module, sep, attr = name.partition(":")
    return bool(sep and module and attr)


def _imported(target: str, shown: str) -> Callable[..., Bot]:
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
    factory: Callable[..., Bot] = found
    return factory


def bot_factory(name: str) -> Callable[..., Bot]:
    """What makes the bot ``name``: a built-in bot, an installed one, or ``module:attr``
    (a class or function taking the seed and returning an object with ``choose``).

    ``name`` may carry options (``mcts:iterations=50``): they are checked here
    (an unknown option or a bad value is an error) and applied by :func:`make_bot`.
    """
    base, given = split_options(name)
    factory = _factory(base)
    bot_options(base, factory, given)
    return factory


def _factory(name: str) -> Callable[..., Bot]:
    factory = _FACTORIES.get(name)
    if factory is not None:
        return factory
    installed = installed_bots().get(name)
    if installed is not None:
        return _imported(installed, name)
    if is_bot_path(name):
        return _imported(name, name)
    raise WarbenchError(
        f"unknown bot '{excerpt(name)}'; bots: {', '.join(bot_names())}, "
        "or module:Class of your own"
    )


def registered_bot(name: str) -> str:
    """``name`` itself if it names a registered bot (a built-in or an installed one,
    with or without options); otherwise a clear error. What a server accepts from the
    network: a ``module:attr`` path would import and call code of the caller's choice."""
    base, _ = split_options(name)
    if base not in _FACTORIES and base not in installed_bots():  # a level is a built-in
        raise WarbenchError(
            f"unknown bot '{excerpt(name)}'; bots: {', '.join(bot_names())} "
            "(a module:Class of your own is for the command line only)"
        )
    bot_factory(name)  # its options checked
    return name


def takes_seed(factory: Callable[..., Any]) -> bool:
    """Whether ``factory`` takes a seed as its first argument (a bot class of one's own
    may take none: ``class FirstBot: def choose(...)``)."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # no signature to read (a builtin): assume the protocol
        return True
    for parameter in signature.parameters.values():
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            return True
        if parameter.kind is parameter.VAR_POSITIONAL:
            return True
    return False


def bot_label(bot: object) -> str:
    """What to call a bot on screen: its ``name``, or its class's name where it has none."""
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) and name else type(bot).__name__


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
    """A bot by name, with its own seeded random stream (for tie-breaks and sampling),
    and its options if the name carries any (``mcts:iterations=2000,rollout=random``)."""
    base, given = split_options(name)
    factory = _factory(base)
    options = bot_options(base, factory, given)
    try:
        bot = factory(seed, **options) if takes_seed(factory) else factory(**options)
    except WarbenchError:
        raise
    except Exception as exc:  # a bot of one's own that cannot be made: one line, not a traceback
        problem = f"{type(exc).__name__}: {excerpt(str(exc), 200)}"
        raise WarbenchError(f"bot '{excerpt(name)}' could not be made: {problem}") from None
    if not callable(getattr(bot, "choose", None)):
        raise WarbenchError(f"bot '{name}' made {type(bot).__name__}, which has no choose()")
    return bot


__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "Bot",
    "GreedyBot",
    "MctsBot",
    "PlannerBot",
    "RandomBot",
    "SearchBot",
    "bot_factory",
    "bot_label",
    "bot_names",
    "bot_options",
    "check_bot",
    "installed_bots",
    "is_bot_path",
    "make_bot",
    "registered_bot",
    "split_options",
    "takes_seed",
]
