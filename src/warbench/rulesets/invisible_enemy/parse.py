"""Parse the text form of Invisible Enemy actions (see :mod:`.actions`), and the phrases.

The phrases (:mod:`warbench.rulesets.kit.table.phrases`): ``move B1 toward R2 4``,
``move B1 to wood1``, ``face B1 R2``; each becomes a raw :class:`~.actions.Move`
checked by the movement rules (4.0-4.5: the moving unit, intervals, tows).
Invisible Enemy has no attack in base contact, so ``charge`` is refused saying
so. The state holds no secret (the sealed free barrages of a tie stay with the
engine until both are down), so every base on the table, standing feature and
marker on the table may be named; but while markers are set down by hand (the
``mark1``, ``mark2`` and ``tie`` steps) no phrase is read at all, names
included: 3.0 forbids measuring then, and a phrase would measure for the player.
"""

from __future__ import annotations

from collections.abc import Callable

from warbench.core.actions import Action, match_id, verb_and_args
from warbench.errors import ActionSyntaxError, IllegalAction, excerpt
from warbench.geometry.table.text import Clip, Pose, parse_move_words, parse_point
from warbench.rulesets.invisible_enemy.actions import (
    DONE,
    MAX_ITEMS,
    MAX_POINTS,
    PASS,
    PLOUGH,
    PURCHASES,
    USAGE,
    Barrage,
    Buy,
    Deflect,
    Destruct,
    Engineer,
    Fire,
    Move,
    Unit,
)
from warbench.rulesets.invisible_enemy.charts import engineering_actions
from warbench.rulesets.invisible_enemy.movement import legs_cost, plan
from warbench.rulesets.invisible_enemy.state import State
from warbench.rulesets.invisible_enemy.view import by_hand
from warbench.rulesets.kit.table.moves import afford_clip, own_start
from warbench.rulesets.kit.table.phrases import (
    Phrase,
    Spot,
    base_move,
    feature_spots,
    figure_spot,
    phrase_usage,
    point_spot,
    read_phrase,
)

PHRASES = phrase_usage("BASE", ("toward", "to", "face"))
"""The phrases' usage lines, listed after the raw forms (``help`` at the prompt)."""
VERBS = {**USAGE, "face": PHRASES["face"], "charge": "charge BASE TARGET"}
WHAT = "base, feature or marker"
"""What a phrase may name (one word for every refusal of a name)."""
NO_CONTACT = (
    "Invisible Enemy has no attack in base contact: direct fire is at range (5.0); "
    "to close in, write: move {mover} toward {target} [INCHES]"
)
NO_MEASURING = (
    "no table phrases while barrage markers go down by hand: 3.0 forbids measuring "
    "the table then, and a phrase would measure for you"
)


def _alone(verb: str, args: list[str], text: str) -> None:
    if args:
        raise ActionSyntaxError(text, f"write it as: {USAGE[verb]}")


def _exactly(verb: str, args: list[str], n: int, text: str) -> None:
    if len(args) != n:
        raise ActionSyntaxError(text, f"write it as: {USAGE[verb]}")


def _buy(state: State, args: list[str], text: str) -> Buy:
    if not args:
        raise ActionSyntaxError(text, f"write it as: {USAGE['buy']}")
    if len(args) == 1 and args[0].lower() == "none":
        return Buy(())
    if len(args) > MAX_ITEMS:
        raise ActionSyntaxError(text, f"at most {MAX_ITEMS} purchases")
    items: list[tuple[str, str | None]] = []
    for word in args:
        key, eq, unit = word.partition("=")
        key = key.lower()
        if key not in PURCHASES:
            raise ActionSyntaxError(
                text, f"'{excerpt(word)}' is not a purchase; purchases: {', '.join(PURCHASES)}"
            )
        if key == "auto":
            if not eq or not unit:
                raise ActionSyntaxError(text, "an automatic move marker names its unit: auto=UNIT")
            items.append((key, match_id(unit, state.units, "unit", text)))
        else:
            if eq:
                raise ActionSyntaxError(text, f"'{excerpt(word)}': only auto names a unit")
            items.append((key, None))
    return Buy(tuple(items))


def _target(state: State, word: str, text: str) -> str:
    known = [*state.bases, *(f.id for f in state.terrain.features)]
    return match_id(word, known, "base or feature", text)


def spots(state: State) -> list[Spot]:
    """Everything a phrase or a measure may name: bases on the table, standing features
    (fungus towers among them) and the barrage markers on the table."""
    out = [figure_spot(b.geo, b.side) for b in state.active()]
    out += feature_spots(state.terrain.active)
    out += [point_spot(m.id, m.at, "marker", side=m.side) for m in state.markers]
    return out


def moving(state: State) -> tuple[str, ...]:
    """The side moving its bases now (none outside the step that moves them)."""
    return (state.actor,) if state.step == "unit" and state.actor else ()


def _phrase(state: State, phrase: Phrase, text: str) -> Move:

    if by_hand(state):
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
        reach=lambda base: base.model.speed,
    )


def parse_action(state: State, text: str) -> Action:
    verb, args = verb_and_args(text, VERBS)
    phrase = read_phrase(verb, args, text)
    if phrase is not None:
        return _phrase(state, phrase, text)
    if verb == "done":
        _alone(verb, args, text)
        return DONE
    if verb == "pass":
        _alone(verb, args, text)
        return PASS
    if verb == "buy":
        return _buy(state, args, text)
    if verb == "barrage":
        if len(args) == 2 and args[1].lower() == "type2":
            return Barrage(parse_point(state.setup.table, args[0], text), type2=True)
        _exactly(verb, args, 1, text)
        return Barrage(parse_point(state.setup.table, args[0], text))
    if verb == "deflect":
        _exactly(verb, args, 1, text)
        return Deflect(match_id(args[0], [m.id for m in state.markers], "marker", text))
    if verb == "unit":
        _exactly(verb, args, 1, text)
        return Unit(match_id(args[0], state.units, "unit", text))
    if verb == "destruct":
        _exactly(verb, args, 1, text)
        return Destruct(match_id(args[0], state.bases, "base", text))
    if verb == "engineer":
        if len(args) not in (2, 3):
            raise ActionSyntaxError(text, f"write it as: {USAGE['engineer']}")
        keys = [*(a.key for a in engineering_actions()), PLOUGH]
        key = args[1].lower()
        if key not in keys:
            raise ActionSyntaxError(
                text,
                f"'{excerpt(args[1])}' is not an engineering action; actions: {', '.join(keys)}",
            )
        base = match_id(args[0], state.bases, "base", text)
        if key == PLOUGH:
            if len(args) != 3:
                raise ActionSyntaxError(
                    text, "write it as: engineer BASE plough X,Y (straight there, 4.4)"
                )
            return Engineer(base, key, to=parse_point(state.setup.table, args[2], text))
        target = _target(state, args[2], text) if len(args) == 3 else None
        return Engineer(base, key, target)
    if verb in ("fire", "rake"):
        _exactly(verb, args, 2, text)
        shooters = tuple(match_id(s, state.bases, "base", text) for s in args[0].split("+"))
        target = _target(state, args[1], text)
        if verb == "rake" and len(shooters) != 1:
            raise ActionSyntaxError(text, "one base rakes at a time")
        if len(set(shooters)) != len(shooters):
            raise ActionSyntaxError(text, "a base is named twice")
        return Fire(shooters, target, rake=verb == "rake")
    # move
    if not args:
        raise ActionSyntaxError(text, f"write it as: {USAGE['move']}")
    base = match_id(args[0], state.bases, "base", text)
    start, clip = _relative(state, base, text)
    path, facings, facing = parse_move_words(
        state.setup.table, args[1:], text, USAGE["move"], MAX_POINTS, start=start, clip=clip
    )
    return Move(base, path, facing, facings)


def _relative(state: State, ref: str, text: str) -> tuple[Callable[[], Pose], Clip]:
    """What relative move words read for base ``ref``: its own place, while its side
    moves a unit, and what its allowance still pays for (4.4, the planner's costs)."""

    base = state.bases[ref]

    start = own_start(base.id, base.side, base.geo.at, base.geo.facing, lambda: moving(state), text)
    speed = base.model.speed
    return start, afford_clip(lambda legs: speed - legs_cost(state, base, legs), lambda: start()[0])
