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

from warbench.core.actions import Action, match_id, verb_and_args
from warbench.errors import ActionSyntaxError, IllegalAction, excerpt
from warbench.geometry.table import Leg
from warbench.geometry.table.text import Clip, Pose, parse_move_words, parse_number
from warbench.rulesets.kit.table.moves import afford_clip, own_start
from warbench.rulesets.kit.table.phrases import (
    Phrase,
    Spot,
    base_move,
    feature_spots,
    figure_spot,
    phrase_usage,
    read_phrase,
)
from warbench.rulesets.mgv.actions import (
    END,
    MAX_ENTRIES,
    MAX_POINTS,
    USAGE,
    Arm,
    FireOrder,
    Mark,
    Move,
    Phase,
    Range,
    ScreenOrder,
    Split,
)
from warbench.rulesets.mgv.data import SLOTS, WEAPON_TYPES
from warbench.rulesets.mgv.movement import move_rules, plan, runner_edge
from warbench.rulesets.mgv.state import State

PHRASES = phrase_usage("BASE", ("toward", "to", "face"))
"""The phrases' usage lines, listed after the raw forms (``help`` at the prompt)."""
VERBS = {**USAGE, "face": PHRASES["face"], "charge": "charge BASE TARGET"}
WHAT = "base or feature"
"""What a phrase may name (one word for every refusal of a name)."""
NO_CONTACT = (
    "MGV has no attack in base contact: every attack is fire at range (5.0); "
    "to close in, write: move {mover} toward {target} [INCHES]"
)
NO_MEASURING = (
    "no table phrases while photon range guesses are written: 5.3 forbids measuring "
    "the range, and a phrase would measure for you"
)


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


def spots(state: State) -> list[Spot]:
    """Everything a phrase or a measure may name: the bases on the table and the features."""
    return [figure_spot(b.geo, b.side) for b in state.active()] + feature_spots(
        state.setup.terrain.active
    )


def moving(state: State) -> tuple[str, ...]:
    """The side moving its bases now (none outside the step that moves them)."""
    return (state.actor,) if state.step == "move" and state.actor else ()


def _phrase(state: State, phrase: Phrase, text: str) -> Move:

    if state.step == "range":
        raise IllegalAction(text, NO_MEASURING)
    return base_move(
        phrase,
        text,
        state.bases,
        spots=lambda: spots(state),
        what=WHAT,
        no_contact=NO_CONTACT,
        make=Move,
        plan=lambda side, move: plan(state, side, move),
        moving=lambda: moving(state),
        reach=lambda base: base.speed,
    )


def parse_action(state: State, text: str) -> Action:
    verb, args = verb_and_args(text, VERBS)
    phrase = read_phrase(verb, args, text)
    if phrase is not None:
        return _phrase(state, phrase, text)
    if verb == "end":
        if args:
            raise ActionSyntaxError(text, "write it as: end")
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
        _given(args, verb, text)
        if _none(args):
            return Range(())
        guesses: list[tuple[str, str, str, float | None]] = []
        for left, right in _pairs(args, "=", text, verb):
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
            guesses.append((base, slot, aim, inches))
        return Range(tuple(guesses))
    if verb == "fire":
        _given(args, verb, text)
        if _none(args):
            return FireOrder(())
        attacks = []
        for left, right in _pairs(args, ">", text, verb):
            shooters_word, dot, slot_word = left.partition(".")
            shooters = tuple(
                match_id(s, state.bases, "base", text) for s in shooters_word.split("+")
            )
            slot = "main"
            if dot:
                if slot_word.lower() not in SLOTS:
                    raise ActionSyntaxError(
                        text, f"'{excerpt(slot_word)}' is not a mount; write main or secondary"
                    )
                slot = slot_word.lower()
            attacks.append((shooters, slot, match_id(right, state.bases, "base", text)))
        return FireOrder(tuple(attacks))
    if verb == "screen":
        _given(args, verb, text)
        if _none(args):
            return ScreenOrder(())
        screens = []
        for left, right in _pairs(args, ">", text, verb):
            base, slot = _mount(state, left, text)
            screens.append((base, slot, _count(right, text)))
        return ScreenOrder(tuple(screens))
    if verb in ("split", "block"):
        _given(args, verb, text)
        if _none(args):
            return Split(verb, ())
        dice = []
        for left, right in _pairs(args, "=", text, verb):
            parts = right.split("/")
            if len(parts) != 3:
                raise ActionSyntaxError(text, f"'{excerpt(right)}' is not S/C/H: {USAGE[verb]}")
            s, c, h = (_count(p, text) for p in parts)
            dice.append((_count(left, text), s, c, h))
        return Split(verb, tuple(dice))
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
    start, clip = _relative(state, base, text)
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


def _relative(state: State, ref: str, text: str) -> tuple[Callable[[], Pose], Clip]:
    """What relative move words read for base ``ref``: its own place, while its side
    moves, and what its allowance still pays for (4.0, the planner's costs)."""

    base = state.bases[ref]

    start = own_start(base.id, base.side, base.geo.at, base.geo.facing, lambda: moving(state), text)

    def spare(legs: list[Leg]) -> float:
        rules_ = move_rules(runner_edge(state, base.side) is not None)
        planned = state.scene().plan_move(base.id, legs, allowance=base.speed, rules=rules_)
        return base.speed - planned.cost

    return start, afford_clip(spare, lambda: start()[0])
