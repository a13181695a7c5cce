"""What the open-table rulesets' ``parse.py`` modules share (VSGMR, MGV, Invisible Enemy).

Every one reads a line the same way first (:func:`phrased_action`): the verb, then
a table phrase (``move B1 toward R2 4``, :mod:`warbench.rulesets.kit.table.phrases`)
if the words are one, else the ruleset's own forms. MGV and Invisible Enemy also read
the phrases and relative move words of a base alike (:class:`BasePhrasing`): the
same phrases, refused in the same words while their rules forbid measuring, a
``charge`` refused for want of an attack in base contact, and relative steps read
from the base's own place while its side moves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from warbench.core.actions import Action, verb_and_args
from warbench.errors import ActionSyntaxError, IllegalAction
from warbench.geometry.table import Leg, Point
from warbench.geometry.table.text import Clip, Pose
from warbench.rulesets.kit.table.moves import afford_clip, own_start
from warbench.rulesets.kit.table.phrases import Phrase, Spot, base_move, phrase_usage, read_phrase

S = TypeVar("S")
B = TypeVar("B")
M = TypeVar("M", bound=Action)


def phrased_action(
    text: str,
    verbs: Mapping[str, str],
    phrase: Callable[[Phrase], Action],
    forms: Callable[[str, list[str]], Action],
) -> Action:
    """The action ``text`` says: its verb among ``verbs``, then the move of a table
    phrase (``phrase``) if the words are one, else the ruleset's ``forms(verb, args)``."""
    verb, args = verb_and_args(text, verbs)
    said = read_phrase(verb, args, text)
    if said is not None:
        return phrase(said)
    return forms(verb, args)


def bare(verb: str, args: Sequence[str], usage: Mapping[str, str], text: str) -> None:
    """A verb that takes no words (``end``, ``done``) was given none."""
    if args:
        raise ActionSyntaxError(text, f"write it as: {usage[verb]}")


class BasePhrasing(Generic[S, B, M]):
    """The table phrases and relative move words of a base in MGV and Invisible Enemy.

    Made once per ruleset from its action forms (``usage``), its move class (``make``),
    what a phrase may name (``what``), the game's name and how it fires (for the
    refusal of ``charge``) and when its rules forbid measuring (``hush``: that, and
    why). A subclass says the rest: the step in which a side moves its bases
    (:attr:`step`), whether measuring is forbidden now (:meth:`hushed`), what may be
    named (:meth:`spots`), the rules' check of a move (:meth:`plan`), a base's
    allowance (:meth:`reach`) and what a move leaves of it (:meth:`spare`).
    """

    step: ClassVar[str]
    """The step in which a side moves its bases, one at a time."""

    def __init__(
        self,
        usage: Mapping[str, str],
        make: Callable[[str, tuple[Point, ...], float | None], M],
        what: str,
        game: str,
        fire: str,
        hush: str,
    ) -> None:
        self.phrases = phrase_usage("BASE", ("toward", "to", "face"))
        """The phrases' usage lines, listed after the raw forms (``help`` at the prompt)."""
        self.verbs = {**usage, "face": self.phrases["face"], "charge": "charge BASE TARGET"}
        self.make = make
        self.what = what
        """What a phrase may name (one word for every refusal of a name)."""
        self.no_contact = (
            f"{game} has no attack in base contact: {fire}; "
            "to close in, write: move {mover} toward {target} [INCHES]"
        )
        self.no_measuring = f"no table phrases while {hush}, and a phrase would measure for you"

    def hushed(self, state: S) -> bool:
        raise NotImplementedError

    def spots(self, state: S) -> list[Spot]:
        raise NotImplementedError

    def plan(self, state: S, side: str, move: M) -> object:
        raise NotImplementedError

    def reach(self, base: B) -> float:
        raise NotImplementedError

    def spare(self, state: S, base: B, legs: list[Leg]) -> float:
        raise NotImplementedError

    def moving(self, state: S) -> tuple[str, ...]:
        """The side moving its bases now (none outside the step that moves them)."""
        held: Any = state
        actor: str | None = held.actor
        return (actor,) if held.step == self.step and actor else ()

    def parser(
        self, forms: Callable[[S, str, list[str], str], Action]
    ) -> Callable[[S, str], Action]:
        """The ruleset's ``parse_action(state, text)``: a phrase's move, else the action
        of its own ``forms(state, verb, args, text)``."""

        def parse_action(state: S, text: str) -> Action:
            return phrased_action(
                text,
                self.verbs,
                lambda phrase: self.phrase(state, phrase, text),
                lambda verb, args: forms(state, verb, args, text),
            )

        return parse_action

    def phrase(self, state: S, phrase: Phrase, text: str) -> M:
        """The move ``phrase`` says, checked by the rules (:func:`base_move`)."""
        if self.hushed(state):
            raise IllegalAction(text, self.no_measuring)
        held: Any = state
        return base_move(
            phrase,
            text,
            held.bases,
            spots=lambda: self.spots(state),
            what=self.what,
            no_contact=self.no_contact,
            make=self.make,
            plan=lambda side, move: self.plan(state, side, move),
            moving=lambda: self.moving(state),
            reach=self.reach,
        )

    def relative(self, state: S, ref: str, text: str) -> tuple[Callable[[], Pose], Clip]:
        """What relative move words read for base ``ref``: its own place, while its side
        moves, and what its allowance still pays for (the planner's costs)."""
        held: Any = state
        base = held.bases[ref]
        start = own_start(
            base.id, base.side, base.geo.at, base.geo.facing, lambda: self.moving(state), text
        )
        return start, afford_clip(lambda legs: self.spare(state, base, legs), lambda: start()[0])


__all__ = ["BasePhrasing", "bare", "phrased_action"]
