"""The hooks the open-table rulesets serve from the modules that consume their rules.

VSGMR, MGV and Invisible Enemy lay out those modules alike: ``evaluate.evaluate``
and ``evaluate.standing`` (greedy's values), ``plan.plan`` (the planner's),
``odds.QUERIES``, ``annotate.annotate`` and ``annotate.fire_arcs`` (the marks
pictures draw). :class:`TableServedHooks` answers the hooks from them, imported on first
use as :mod:`warbench.rulesets.kit.hooks` does, so a ruleset class names its package
once instead of repeating the delegations. MGV and Invisible Enemy, whose other sides'
bases are seen by eye, add the same few more (:class:`EyeServedHooks`).

Mix the hooks in before the rules class, as :class:`~warbench.rulesets.kit.hooks.TableHooks`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from warbench.core.actions import Action
from warbench.core.events import Event
from warbench.core.odds import OddsQuery, OddsResult
from warbench.rulesets.kit.eye import told_action
from warbench.rulesets.kit.hooks import package_attr

S = TypeVar("S")
Marks = list[dict[str, Any]]


class TableServedHooks(Generic[S]):
    """Evaluation, planning, the odds queries and the pictures' marks, from the package."""

    package: ClassVar[str]

    def evaluate(self, state: S, side: str, actions: Sequence[Action]) -> list[float]:
        answer: Callable[[Any, S, str, Sequence[Action]], list[float]]
        answer = package_attr(self.package, "evaluate", "evaluate")
        return answer(self, state, side, actions)

    def plan(self, state: S, side: str, actions: Sequence[Action]) -> list[float]:
        answer: Callable[[Any, S, str, Sequence[Action]], list[float]]
        answer = package_attr(self.package, "plan", "plan")
        return answer(self, state, side, actions)

    def standing(self, state: S) -> Mapping[str, float] | None:
        answer: Callable[[S], Mapping[str, float] | None]
        answer = package_attr(self.package, "evaluate", "standing")
        return answer(state)

    def odds_queries(self) -> Mapping[str, OddsQuery]:
        queries: Mapping[str, OddsQuery] = package_attr(self.package, "odds", "QUERIES")
        return queries

    def annotations(self, state: S, events: Sequence[Event], side: str | None) -> Marks:
        answer: Callable[[S, Sequence[Event], str | None], Marks]
        answer = package_attr(self.package, "annotate", "annotate")
        return answer(state, events, side)

    def fire_arcs(self, state: S, side: str, piece: str) -> Marks:
        answer: Callable[[S, str, str], Marks] = package_attr(self.package, "annotate", "fire_arcs")
        return answer(state, side, piece)


class EyeServedHooks(TableServedHooks[S]):
    """:class:`TableServedHooks`, plus what MGV and Invisible Enemy serve alike: the sealed
    choices (``evaluate.sealed_strategy``), the odds of an action in words and as
    fractions (``explain.explain_action``, ``explain.action_result``), the points each
    side has destroyed (``victory.scores``), another side's move told by eye (the
    ``eye`` of ``data.rules()``), and marks drawn where the side sees the bases
    (``view.seen_state``)."""

    def sealed_strategy(self, state: S, side: str, rng: random.Random) -> Action | None:
        answer: Callable[[S, str, random.Random], Action | None]
        answer = package_attr(self.package, "evaluate", "sealed_strategy")
        return answer(state, side, rng)

    def action_odds(self, state: S, side: str, action: Action) -> str | None:
        answer: Callable[[S, str, Action], str | None]
        answer = package_attr(self.package, "explain", "explain_action")
        return answer(state, side, action)

    def odds_result(self, state: S, side: str, action: Action) -> OddsResult | None:
        """The odds ``action_odds`` words, as exact fractions (the same computation)."""
        answer: Callable[[S, str, Action], OddsResult | None]
        answer = package_attr(self.package, "explain", "action_result")
        return answer(state, side, action)

    def scores(self, state: S) -> dict[str, float]:
        """The points of enemy bases each side has destroyed (what the time limit weighs)."""
        answer: Callable[[S], dict[str, float]] = package_attr(self.package, "victory", "scores")
        return answer(state)

    def told_action(self, state: S, side: str, action: Action, viewer: str | None) -> str:
        """Another side's move is told by eye (MGV 5.3, Invisible Enemy 3.0)."""
        rules: Callable[[], Any] = package_attr(self.package, "data", "rules")
        held: Any = state
        return told_action(action, rules().data.eye, held.setup.options.measuring, side, viewer)

    def annotations(self, state: S, events: Sequence[Event], side: str | None) -> Marks:
        seen: Callable[[S, str | None], S] = package_attr(self.package, "view", "seen_state")
        return super().annotations(seen(state, side), events, side)


__all__ = ["EyeServedHooks", "TableServedHooks"]
