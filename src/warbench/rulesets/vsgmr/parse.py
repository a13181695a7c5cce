"""Parse the text form of VSGMR actions (see :mod:`.actions`)."""

from __future__ import annotations

import math
import re

from warbench.core.actions import Action, match_id, verb_and_args
from warbench.errors import ActionSyntaxError, excerpt
from warbench.geometry.table import Point
from warbench.rulesets.vsgmr.actions import (
    END,
    MAX_POINTS,
    USAGE,
    Fight,
    First,
    Move,
    Shoot,
    Skill,
    Take,
)
from warbench.rulesets.vsgmr.state import State

FAR_OFF = 1000.0
"""Inches beyond the table edge no move can reach; a point farther out is a typing
accident (and huge numbers would overflow the geometry's arithmetic)."""
NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
"""A number as :func:`~warbench.rulesets.vsgmr.actions.num` writes one (and as people
type them): ASCII digits, an optional point and exponent. Python's ``float`` also
takes ``nan``, ``inf``, ``1_000`` and other scripts' digits, which no action needs."""
NOT_FINITE = frozenset({"nan", "inf", "infinity"})


def _number(word: str, text: str) -> float:
    """A finite number in plain decimal notation (see :data:`NUMBER`)."""
    if NUMBER.fullmatch(word) is None:
        if word.lower().lstrip("+-") in NOT_FINITE:
            raise ActionSyntaxError(text, f"'{excerpt(word)}' is not a finite number")
        raise ActionSyntaxError(text, f"'{excerpt(word)}' is not a number (write one like 10.5)")
    value = float(word)
    if not math.isfinite(value):  # 1e999
        raise ActionSyntaxError(text, f"'{excerpt(word)}' is not a finite number")
    return value


def _point(state: State, word: str, text: str) -> Point:
    x, sep, y = word.partition(",")
    if not sep or not x or not y:
        raise ActionSyntaxError(text, f"'{excerpt(word)}' is not a point; write X,Y (e.g. 10.5,4)")
    point = (_number(x, text), _number(y, text))
    table = state.setup.table
    if not (
        -FAR_OFF <= point[0] <= table.width + FAR_OFF
        and -FAR_OFF <= point[1] <= table.height + FAR_OFF
    ):
        raise ActionSyntaxError(text, f"'{excerpt(word)}' is far off the table; no move reaches it")
    return point


def _move(state: State, figure: str, args: list[str], text: str) -> Move:
    facing: float | None = None
    if len(args) >= 2 and args[-2].lower() == "face":
        facing = _number(args[-1], text)
        args = args[:-2]
    if any(a.lower() == "face" for a in args):
        raise ActionSyntaxError(text, "'face DEGREES' goes last: " + USAGE["move"])
    if not args and facing is None:
        raise ActionSyntaxError(text, "give the points to move to, a facing, or both")
    if len(args) > MAX_POINTS:
        raise ActionSyntaxError(text, f"a move has at most {MAX_POINTS} points")
    return Move(figure, tuple(_point(state, a, text) for a in args), facing)


def parse_action(state: State, text: str) -> Action:
    verb, args = verb_and_args(text, USAGE)
    if verb == "end":
        if args:
            raise ActionSyntaxError(text, "write it as: end")
        return END
    if verb == "first":
        if len(args) != 1:
            raise ActionSyntaxError(text, f"write it as: {USAGE['first']}")
        return First(match_id(args[0], state.setup.sides, "side", text))
    if not args:
        raise ActionSyntaxError(text, f"write it as: {USAGE[verb]}")
    figure = match_id(args[0], state.figs, "figure", text)
    rest = args[1:]
    if verb == "move":
        return _move(state, figure, rest, text)
    if len(rest) != 1:
        raise ActionSyntaxError(text, f"write it as: {USAGE[verb]}")
    if verb == "take":
        return Take(figure, match_id(rest[0], state.items, "item", text))
    if verb == "skill":
        return Skill(figure, match_id(rest[0], [t.id for t in state.setup.tasks], "task", text))
    targets = [*state.figs, *(f.id for f in state.setup.features)]
    target = match_id(rest[0], targets, "figure or feature", text)
    if verb == "shoot":
        return Shoot(figure, target)
    return Fight(figure, target)
