"""Parse the text form of CGME actions (see :mod:`.actions`)."""

from __future__ import annotations

from warbench.core.actions import Action, match_id, verb_and_args
from warbench.errors import ActionSyntaxError, excerpt
from warbench.geometry.hexgrid import HexError
from warbench.rulesets.cgme.actions import END, ROLL, USAGE, Attack, Join, Load, Move, Unload
from warbench.rulesets.cgme.state import State

REASON_LIMIT = 200
"""A refusal from the hex grid quotes the label; it is cut to this many characters."""


def _ref(state: State, ref: str, text: str) -> str:
    """A unit or building id, matched without regard to case."""
    if ref in state.units or ref in state.buildings:
        return ref
    return match_id(ref, (*state.units, *state.buildings), "unit or building", text)


def _units(state: State, refs: str, text: str) -> tuple[str, ...]:
    """Units joined by ``+``, in any order, put in scenario order.

    The rules list a stack (``move A+B``) and a load's riders in scenario
    order; a player may type them in any order and gets the listed action.
    """
    ids = [_ref(state, ref, text) for ref in refs.split("+")]
    for n, uid in enumerate(ids):
        if uid in ids[:n]:
            raise ActionSyntaxError(text, f"{uid} is named twice")
    rank = {uid: i for i, uid in enumerate(state.units)}
    return tuple(sorted(ids, key=lambda uid: rank.get(uid, len(rank))))


def parse_action(state: State, text: str) -> Action:
    verb, args = verb_and_args(text, USAGE)
    if len(args) != len(USAGE[verb].split()) - 1:
        raise ActionSyntaxError(text, f"write it as: {USAGE[verb]}")
    if verb == "roll":
        return ROLL
    if verb == "end":
        return END
    if verb == "move":
        units = _units(state, args[0], text)
        try:
            to = state.setup.board.map.grid.parse(args[1])
        except HexError as exc:
            raise ActionSyntaxError(text, excerpt(str(exc), REASON_LIMIT)) from None
        return Move(units, to)
    if verb == "load":
        return Load(_ref(state, args[0], text), _units(state, args[1], text))
    first = _ref(state, args[0], text)
    if verb == "unload":
        return Unload(first)
    if verb == "join":
        return Join(first)
    return Attack(first, _ref(state, args[1], text))
