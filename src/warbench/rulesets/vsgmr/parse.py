"""Parse the text form of VSGMR actions (see :mod:`.actions`), and the table phrases.

The phrases (:mod:`warbench.rulesets.kit.table.phrases`): ``move R1 toward B2 6``,
``move R1 to wood1``, ``face R1 B2``, ``charge R1 B2`` (straight into base
contact, ready for the hand to hand step, II.4). Each becomes a raw
:class:`~.actions.Move`, checked by the rules' own move check (II.2). VSGMR has
no hidden information: every figure on the table, standing feature, item lying
on the table and task placed on it may be named.
"""

from __future__ import annotations

from warbench.core.actions import Action, match_id
from warbench.errors import ActionSyntaxError
from warbench.geometry.table import Leg
from warbench.geometry.table.text import Pose, parse_move_words
from warbench.rulesets.kit.table.moves import afford_clip
from warbench.rulesets.kit.table.parse import bare, phrased_action
from warbench.rulesets.kit.table.phrases import (
    Mover,
    Phrase,
    Spot,
    build_move,
    feature_spots,
    phrase_usage,
    point_spot,
)
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
from warbench.rulesets.vsgmr.state import Fig, State

PHRASES = phrase_usage("FIGURE", ("toward", "to", "face", "charge"), "FEATURE|ITEM|TASK")
"""The phrases' usage lines, listed after the raw forms (``help`` at the prompt)."""
VERBS = {**USAGE, "face": PHRASES["face"], "charge": PHRASES["charge"]}
WHAT = "figure, feature, item or task"
"""What a phrase may name (one word for every refusal of a name)."""


def _move(state: State, figure: str, args: list[str], text: str) -> Move:
    fig = state.figs[figure]
    clip = afford_clip(lambda legs: _spare(state, fig, legs), lambda: _start(state, fig, text)[0])
    path, facings, facing = parse_move_words(
        state.setup.table,
        args,
        text,
        USAGE["move"],
        MAX_POINTS,
        start=lambda: _start(state, fig, text),
        clip=clip,
    )
    return Move(figure, path, facing, facings)


def _start(state: State, fig: Fig, text: str) -> Pose:
    """Where relative move words set off: the figure's own place (no secret in VSGMR)."""
    from warbench.rulesets.vsgmr import space

    if not fig.active:
        raise ActionSyntaxError(text, f"{fig.id} is no longer on the table ({fig.where})")
    start = space.move_start(state, fig)
    return start.at, start.facing


def _spare(state: State, fig: Fig, legs: list[Leg]) -> float:
    """The allowance left after ``legs`` (II.2; a Half Move Unit where rough terrain
    makes it one), for ``toward X,Y``."""
    from warbench.rulesets.vsgmr import space

    check = space.check_move(
        state, fig, [leg.to for leg in legs], None, [leg.facing for leg in legs]
    )
    return check.allowance - check.result.cost


def spots(state: State) -> list[Spot]:
    """Everything a phrase or a measure may name: figures on the table (a rider by its
    mount's base), standing features, items lying on the table, tasks at a point."""
    from warbench.rulesets.vsgmr import space

    out: list[Spot] = []
    for f in state.figs.values():
        if f.active:
            body = space.body(state, f)
            out.append(Spot(f.id, "figure", body.outline, figure=body, side=f.side))
    out += feature_spots(space.terrain(state).active)
    for item in state.items.values():
        if item.at is not None and not item.gone:
            out.append(point_spot(item.id, item.at, "item", item.label))
    for task in state.setup.tasks:
        if task.at is not None:
            out.append(point_spot(task.id, task.at, "item", task.label))
    return out


def mover(state: State, fig: Fig) -> Mover[Move]:
    """What the phrases need to move ``fig``: its base, the names, the rules' move check."""
    from warbench.rulesets.vsgmr import RULESET, space
    from warbench.rulesets.vsgmr.nav import nav_mesh

    start = space.body(state, fig)
    rules = state.setup.rules

    def check(move: Move) -> str | None:
        problem, _ = RULESET.move_problem(state, fig, move)
        return problem

    return Mover(
        figure=fig.geo.moved_to(start.at, start.facing),
        spots=spots(state),
        what=WHAT,
        make=lambda path, facing: Move(fig.id, path, facing),
        check=check,
        reach=rules.allowance(fig.profile.kind, half=False),
        gap=rules.touch / 2.0,
        side=fig.side,
        route=lambda a, b: nav_mesh(
            state.setup.caches, state.setup.table, space.terrain(state), start.base.bounding_radius
        ).route(a, b),
    )


def _phrase(state: State, phrase: Phrase, text: str) -> Move:
    figure = match_id(phrase.mover, state.figs, "figure", text)
    fig = state.figs[figure]
    if not fig.active:
        raise ActionSyntaxError(text, f"{figure} is no longer on the table ({fig.where})")
    return build_move(phrase, mover(state, fig), text)


def parse_action(state: State, text: str) -> Action:
    return phrased_action(
        text,
        VERBS,
        lambda phrase: _phrase(state, phrase, text),
        lambda verb, args: _form(state, verb, args, text),
    )


def _form(state: State, verb: str, args: list[str], text: str) -> Action:
    """The action of one of VSGMR's own forms (``verb`` then ``args``)."""
    if verb == "end":
        bare(verb, args, USAGE, text)
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
