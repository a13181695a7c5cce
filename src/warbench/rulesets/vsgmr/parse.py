"""Parse the text form of VSGMR actions (see :mod:`.actions`)."""

from __future__ import annotations

from warbench.core.actions import Action, match_id, verb_and_args
from warbench.errors import ActionSyntaxError
from warbench.geometry.table import Point
from warbench.geometry.table.text import parse_number, parse_point
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


def _number(word: str, text: str) -> float:
    return parse_number(word, text)


def _point(state: State, word: str, text: str) -> Point:
    return parse_point(state.setup.table, word, text)


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
