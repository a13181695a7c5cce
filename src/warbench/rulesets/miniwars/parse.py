"""Parse the text form of MiniWars actions (see :mod:`.actions`)."""

from __future__ import annotations

from warbench.core.actions import Action, match_id, verb_and_args
from warbench.errors import ActionSyntaxError, excerpt
from warbench.geometry.hexgrid import HexError
from warbench.rulesets.miniwars.actions import (
    END,
    PASS,
    USAGE,
    Advance,
    Attack,
    ChooseRole,
    Fire,
    Move,
    Rally,
)
from warbench.rulesets.miniwars.state import State

REASON_LIMIT = 200
"""A refusal from the hex grid quotes the label; it is cut to this many characters."""


def _unit_id(state: State, ref: str, text: str) -> str:
    """Unit ids are matched without regard to case."""
    return match_id(ref, state.units, "unit", text)


def parse_action(state: State, text: str) -> Action:
    verb, args = verb_and_args(text, USAGE)
    wanted = len(USAGE[verb].split()) - 1
    if len(args) != wanted:
        raise ActionSyntaxError(text, f"write it as: {USAGE[verb]}")
    if verb == "choose":
        role = args[0].upper()
        if role not in ("A", "B"):
            raise ActionSyntaxError(text, "choose A or B")
        return ChooseRole(role)
    if verb == "pass":
        return PASS
    if verb == "end":
        return END
    first = _unit_id(state, args[0], text)
    if verb == "advance":
        return Advance(first)
    if verb == "move":
        try:
            to = state.setup.board.map.grid.parse(args[1])
        except HexError as exc:
            raise ActionSyntaxError(text, excerpt(str(exc), REASON_LIMIT)) from None
        return Move(first, to)
    second = _unit_id(state, args[1], text)
    if verb == "fire":
        return Fire(first, second)
    if verb == "attack":
        return Attack(first, second)
    return Rally(first, second)
