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

from warbench.core.actions import Action, match_id
from warbench.errors import ActionSyntaxError, excerpt
from warbench.geometry.table import Leg
from warbench.geometry.table.text import parse_move_words, parse_point
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
from warbench.rulesets.invisible_enemy.state import Base, State
from warbench.rulesets.invisible_enemy.view import by_hand
from warbench.rulesets.kit.table.parse import BasePhrasing, bare
from warbench.rulesets.kit.table.phrases import (
    Spot,
    feature_spots,
    figure_spot,
    point_spot,
)


class _Phrasing(BasePhrasing[State, Base, Move]):
    step = "unit"

    def hushed(self, state: State) -> bool:
        return by_hand(state)

    def spots(self, state: State) -> list[Spot]:
        """Everything a phrase or a measure may name: bases on the table, standing features
        (fungus towers among them) and the barrage markers on the table."""
        out = [figure_spot(b.geo, b.side) for b in state.active()]
        out += feature_spots(state.terrain.active)
        out += [point_spot(m.id, m.at, "marker", side=m.side) for m in state.markers]
        return out

    def plan(self, state: State, side: str, move: Move) -> object:
        return plan(state, side, move)

    def reach(self, base: Base) -> float:
        return base.model.speed

    def spare(self, state: State, base: Base, legs: list[Leg]) -> float:
        """The allowance left after ``legs`` (4.4, the planner's costs)."""
        return base.model.speed - legs_cost(state, base, legs)


PHRASING = _Phrasing(
    USAGE,
    Move,
    "base, feature or marker",
    "Invisible Enemy",
    "direct fire is at range (5.0)",
    "barrage markers go down by hand: 3.0 forbids measuring the table then",
)
PHRASES = PHRASING.phrases
WHAT = PHRASING.what
spots = PHRASING.spots


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


def _form(state: State, verb: str, args: list[str], text: str) -> Action:
    """Invisible Enemy's forms (network purchases, markers, activation, engineering, fire),
    and a ``move`` when the verb is none of them."""
    if verb == "done":
        bare(verb, args, USAGE, text)
        return DONE
    if verb == "pass":
        bare(verb, args, USAGE, text)
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
    start, clip = PHRASING.relative(state, base, text)
    path, facings, facing = parse_move_words(
        state.setup.table, args[1:], text, USAGE["move"], MAX_POINTS, start=start, clip=clip
    )
    return Move(base, path, facing, facings)


parse_action = PHRASING.parser(_form)
"""The action a line of text says (a table phrase, or one of the forms above)."""
