"""Parse the text form of MGV actions (see :mod:`.actions`), and the table phrases.

The phrases (:mod:`warbench.rulesets.kit.table.phrases`): ``move B1 toward R2 4``,
``move B1 to wood1``, ``face B1 R2``; each becomes a raw :class:`~.actions.Move`
checked by the movement rules (4.0). MGV has no attack in base contact, so
``charge`` is refused saying so. The state holds no secret (sealed choices stay
with the engine), so every base on the table and every feature may be named;
but while photon range guesses are written (the ``range`` step) no phrase is
read at all, names included: 5.3 forbids measuring then, and a phrase placing a
base against another would measure for the player.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from warbench.core.actions import Action, match_id
from warbench.errors import ActionSyntaxError, excerpt
from warbench.geometry.table import Leg
from warbench.geometry.table.text import parse_move_words, parse_number
from warbench.rulesets.kit.table.parse import BasePhrasing, bare
from warbench.rulesets.kit.table.phrases import (
    Spot,
    feature_spots,
    figure_spot,
)
from warbench.rulesets.mgv.actions import (
    END,
    MAX_ENTRIES,
    MAX_POINTS,
    USAGE,
    Arm,
    Dice,
    FireOrder,
    Guess,
    Intercept,
    Mark,
    Move,
    Order,
    Phase,
    Range,
    ScreenOrder,
    Split,
)
from warbench.rulesets.mgv.data import SLOTS, WEAPON_TYPES
from warbench.rulesets.mgv.movement import move_rules, plan, runner_edge
from warbench.rulesets.mgv.state import Base, State

E = TypeVar("E")


class _Phrasing(BasePhrasing[State, Base, Move]):
    step = "move"

    def hushed(self, state: State) -> bool:
        return state.step == "range"

    def spots(self, state: State) -> list[Spot]:
        """Everything a phrase or a measure may name: the bases on the table and the features."""
        return [figure_spot(b.geo, b.side) for b in state.active()] + feature_spots(
            state.setup.terrain.active
        )

    def plan(self, state: State, side: str, move: Move) -> object:
        return plan(state, side, move)

    def reach(self, base: Base) -> float:
        return base.speed

    def spare(self, state: State, base: Base, legs: list[Leg]) -> float:
        """The allowance left after ``legs`` (4.0, the planner's costs)."""
        rules_ = move_rules(runner_edge(state, base.side) is not None)
        planned = state.scene().plan_move(base.id, legs, allowance=base.speed, rules=rules_)
        return base.speed - planned.cost


PHRASING = _Phrasing(
    USAGE,
    Move,
    "base or feature",
    "MGV",
    "every attack is fire at range (5.0)",
    "photon range guesses are written: 5.3 forbids measuring the range",
)
PHRASES = PHRASING.phrases
WHAT = PHRASING.what
spots = PHRASING.spots


def _mount(state: State, word: str, text: str) -> tuple[str, str]:
    base, dot, slot = word.partition(".")
    base = match_id(base, state.bases, "base", text)
    if not dot:
        return base, "main"
    if slot.lower() not in SLOTS:
        raise ActionSyntaxError(text, f"'{excerpt(slot)}' is not a mount; write main or secondary")
    return base, slot.lower()


def _pairs(args: list[str], sep: str, text: str, verb: str) -> list[tuple[str, str]]:
    if len(args) > MAX_ENTRIES:
        raise ActionSyntaxError(text, f"at most {MAX_ENTRIES} entries in one order")
    out = []
    for word in args:
        left, found, right = word.partition(sep)
        if not found or not left or not right:
            raise ActionSyntaxError(text, f"'{excerpt(word)}' does not fit: {USAGE[verb]}")
        out.append((left, right))
    return out


def _none(args: list[str]) -> bool:
    return len(args) == 1 and args[0].lower() == "none"


def _given(args: list[str], verb: str, text: str) -> None:
    """An order names its entries, or says ``none``: a bare verb is a slip of the
    keyboard, and some orders (range guesses) can never be taken back."""
    if not args:
        raise ActionSyntaxError(text, f"write it as: {USAGE[verb]}")


def _count(word: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > 3:
        raise ActionSyntaxError(text, f"'{excerpt(word)}' is not a number of dice")
    return int(word)


def _order(
    state: State,
    args: list[str],
    verb: str,
    text: str,
    sep: str,
    entry: Callable[[State, str, str, str, str], E],
) -> tuple[E, ...]:
    """The entries of an order (each ``LEFT{sep}RIGHT``, read by ``entry(state, verb,
    left, right, text)``), or none."""
    _given(args, verb, text)
    if _none(args):
        return ()
    return tuple(
        entry(state, verb, left, right, text) for left, right in _pairs(args, sep, text, verb)
    )


def _guess(state: State, verb: str, left: str, right: str, text: str) -> Guess:
    """A photon range guess: ``MOUNT>TARGET=INCHES`` or ``=estimate`` (5.3)."""
    shooter, arrow, target = left.partition(">")
    if not arrow or not target:
        raise ActionSyntaxError(
            text,
            f"'{excerpt(left)}' names no target: a guess is the range to one base, "
            f"{USAGE[verb]} (5.3)",
        )
    base, slot = _mount(state, shooter, text)
    aim = match_id(target, state.bases, "base", text)
    inches = None if right.lower() == "estimate" else parse_number(right, text)
    return base, slot, aim, inches


def _attack(state: State, verb: str, left: str, right: str, text: str) -> Order:
    """An attack: ``BASE[+WINGMATE][.slot]>TARGET``."""
    shooters_word, dot, slot_word = left.partition(".")
    shooters = tuple(match_id(s, state.bases, "base", text) for s in shooters_word.split("+"))
    slot = "main"
    if dot:
        if slot_word.lower() not in SLOTS:
            raise ActionSyntaxError(
                text, f"'{excerpt(slot_word)}' is not a mount; write main or secondary"
            )
        slot = slot_word.lower()
    return shooters, slot, match_id(right, state.bases, "base", text)


def _screen(state: State, verb: str, left: str, right: str, text: str) -> Intercept:
    """A screen: ``MOUNT>DICE``."""
    base, slot = _mount(state, left, text)
    return base, slot, _count(right, text)


def _dice(state: State, verb: str, left: str, right: str, text: str) -> Dice:
    """Missile dice of one attack: ``ATTACK=S/C/H``."""
    parts = right.split("/")
    if len(parts) != 3:
        raise ActionSyntaxError(text, f"'{excerpt(right)}' is not S/C/H: {USAGE[verb]}")
    s, c, h = (_count(p, text) for p in parts)
    return _count(left, text), s, c, h


def _form(state: State, verb: str, args: list[str], text: str) -> Action:
    """MGV's own forms: ``end``, ``phase``, ``arm``, the orders, ``mark``; else a ``move``."""
    if verb == "end":
        bare(verb, args, USAGE, text)
        return END
    if verb == "phase":
        if len(args) != 1 or args[0].lower() not in ("move", "fire"):
            raise ActionSyntaxError(text, f"write it as: {USAGE['phase']}")
        return Phase(args[0].lower())
    if verb == "arm":
        choices = []
        for left, right in _pairs(args, "=", text, verb):
            base, slot = _mount(state, left, text)
            weapon = right.lower()
            if weapon not in WEAPON_TYPES:
                raise ActionSyntaxError(
                    text, f"'{excerpt(right)}' is not a weapon type: kinetic, missile or photon"
                )
            choices.append((base, slot, weapon))
        return Arm(tuple(choices))
    if verb == "range":
        return Range(_order(state, args, verb, text, "=", _guess))
    if verb == "fire":
        return FireOrder(_order(state, args, verb, text, ">", _attack))
    if verb == "screen":
        return ScreenOrder(_order(state, args, verb, text, ">", _screen))
    if verb in ("split", "block"):
        return Split(verb, _order(state, args, verb, text, "=", _dice))
    if verb == "mark":
        if len(args) == 1 and args[0].lower() == "auto":
            return Mark((), auto=True)
        if _none(args):
            return Mark(())
        return Mark(tuple(a.lower() for a in args))
    # move
    if not args:
        raise ActionSyntaxError(text, f"write it as: {USAGE['move']}")
    base = match_id(args[0], state.bases, "base", text)
    rest = args[1:]
    beacon: str | None = None
    if len(rest) >= 2 and rest[-2].lower() == "beacon":
        beacon = match_id(rest[-1], state.bases, "base", text)
        rest = rest[:-2]
    start, clip = PHRASING.relative(state, base, text)
    path, facings, facing = parse_move_words(
        state.setup.table,
        rest,
        text,
        USAGE["move"],
        MAX_POINTS,
        tail=("face", "beacon"),
        goes_last="'face DEGREES' then 'beacon ENEMY' go last",
        start=start,
        clip=clip,
    )
    return Move(base, path, facing, facings, beacon=beacon)


parse_action = PHRASING.parser(_form)
"""The action a line of text says (a table phrase, or one of the forms above)."""
