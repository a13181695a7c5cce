"""Parse the text form of MiniWars actions (see :mod:`.actions`)."""

from __future__ import annotations

from warbench.core.actions import Action, match_id, verb_and_args
from warbench.errors import ActionSyntaxError, excerpt
from warbench.geometry.hexgrid import HexError
from warbench.rulesets.miniwars import actions
from warbench.rulesets.miniwars.actions import USAGE
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
        return actions.ChooseRole(role)
    if verb == "pass":
        return actions.PASS
    if verb == "end":
        return actions.END
    first = _unit_id(state, args[0], text)
    if verb == "advance":
        return actions.Advance(first)
    if verb == "move":
        try:
            to = state.setup.board.map.grid.parse(args[1])
        except HexError as exc:
            raise ActionSyntaxError(text, excerpt(str(exc), REASON_LIMIT)) from None
        return actions.Move(first, to)
    second = _unit_id(state, args[1], text)
    if verb == "fire":
        return actions.Fire(first, second)
    if verb == "attack":
        return actions.Attack(first, second)
    return actions.Rally(first, second)
