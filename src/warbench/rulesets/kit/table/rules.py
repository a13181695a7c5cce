"""What the open-table rulesets' rules classes share (VSGMR, MGV, Invisible Enemy).

:func:`table_ruleset` says what a table ruleset tells up front. :class:`TableRules`
answers the plain hooks of :class:`~warbench.core.ruleset.Ruleset` alike for all
three: the scenario from the package's ``scenario.build_scenario``, the turn and the
outcome as the state holds them, the state as its own JSON, the action forms of
``actions.USAGE``, and (MGV and Invisible Enemy) what a side sees from ``view.view``.
The modules are imported on first use (:func:`~warbench.rulesets.kit.hooks.package_attr`),
so ``rules.py`` still imports none of the modules that consume it.
:func:`settle` ends a game whose outcome is found.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from warbench.core.actions import Action
from warbench.core.game import Resolution
from warbench.core.outcome import Outcome
from warbench.core.ruleset import Ruleset, RulesetInfo
from warbench.core.sampling import Group
from warbench.rulesets.kit.hooks import package_attr
from warbench.scenario.model import Scenario

S = TypeVar("S")


def table_ruleset(
    name: str,
    title: str,
    version: str,
    *aliases: str,
    max_sides: int | None = 2,
    sealed: bool = False,
) -> RulesetInfo:
    """What an open-table ruleset tells up front: the table, at least two sides, and
    candidate actions only (a move may end anywhere). ``sealed``: hidden information
    and sealed choices, with a state for each side (MGV, Invisible Enemy)."""
    return RulesetInfo(
        name=name,
        title=title,
        version=version,
        geometry="table",
        aliases=aliases,
        min_sides=2,
        max_sides=max_sides,
        hidden_information=sealed,
        simultaneous_choices=sealed,
        side_states=sealed,
        exhaustive_actions=False,
    )


class TableRules(Ruleset[S]):
    """The plain hooks answered from the ruleset's package and its state."""

    package: ClassVar[str]
    """The ruleset's package, e.g. ``warbench.rulesets.mgv``: where these hooks and
    :class:`~warbench.rulesets.kit.hooks.TableHooks` find its modules and
    ``data/rulings.toml``."""

    def build_scenario(self, raw: Mapping[str, Any], source: str, scenario_id: str) -> Scenario:
        build: Callable[[Mapping[str, Any], str, str], Scenario]
        build = package_attr(self.package, "scenario", "build_scenario")
        return build(raw, source, scenario_id)

    def turn(self, state: S) -> int:
        held: Any = state  # a table state holds its turn, outcome and JSON form
        turn: int = held.turn
        return turn

    def outcome(self, state: S) -> Outcome | None:
        held: Any = state
        outcome: Outcome | None = held.outcome
        return outcome

    def state_json(self, state: S) -> dict[str, Any]:
        held: Any = state
        made: dict[str, Any] = held.to_json()
        return made

    def action_groups(
        self, state: S, side: str, held: Action | None
    ) -> Sequence[Group[Action]] | None:
        """The ruleset's ``candidates.action_groups(rules, state, side)``: its legal list
        in parts where a step's list is costly to build (the moves), for a bot that
        draws one action (:mod:`warbench.core.sampling`); None elsewhere."""
        if not self.asked(state, side):
            return None
        groups: Callable[[Any, S, str], Sequence[Group[Action]] | None]
        groups = package_attr(self.package, "candidates", "action_groups")
        return groups(self, state, side)

    def asked(self, state: S, side: str) -> bool:
        """``side`` is among the sides the game asks to act now."""
        decision = self.decision(state)
        return decision is not None and side in decision.sides

    @classmethod
    def usage(cls) -> Mapping[str, str]:
        """The text form of each action, for ``help`` at the prompt."""
        forms: Mapping[str, str] = package_attr(cls.package, "actions", "USAGE")
        return forms


class SeenRules(TableRules[S]):
    """:class:`TableRules` whose view is the package's ``view.view`` (MGV, Invisible Enemy)."""

    def view(self, state: S, side: str | None) -> dict[str, Any]:
        seen: Callable[[S, str | None], dict[str, Any]]
        seen = package_attr(self.package, "view", "view")
        return seen(state, side)


def settle(state: Any, res: Resolution, outcome: Outcome | None) -> bool:
    """End the game with ``outcome``, if there is one: the state's outcome, its step
    ``over`` and the ``game_over`` event; whether it ended."""
    if outcome is None:
        return False
    state.outcome = outcome
    state.step = "over"
    res.emit("game_over", outcome.reason)
    return True


__all__ = ["SeenRules", "TableRules", "settle", "table_ruleset"]
