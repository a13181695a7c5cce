"""Parse the text form of MiniWars actions (see :mod:`.actions`)."""

from __future__ import annotations

from warbench.core.actions import Action, verb_and_args
from warbench.errors import ActionSyntaxError
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


def _unit_id(state: State, ref: str, text: str) -> str:
    """Unit ids are matched without regard to case."""
    if ref in state.units:
        return ref
    for uid in state.units:
        if uid.lower() == ref.lower():
            return uid
    raise ActionSyntaxError(text, f"there is no unit '{ref}'")


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
            raise ActionSyntaxError(text, str(exc)) from None
        return Move(first, to)
    second = _unit_id(state, args[1], text)
    if verb == "fire":
        return Fire(first, second)
    if verb == "attack":
        return Attack(first, second)
    return Rally(first, second)
