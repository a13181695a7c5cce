"""The question hooks a ruleset serves from its own package's modules, named once.

Every ruleset answers a person's questions (``info``, ``goal``, ``rules``;
on an open table also ``measure`` and the reasons ``list`` prints) from modules
of its own package laid out alike: ``info.unit_info`` and ``info.goal``, the
rulings of ``data/rulings.toml`` with the option defaults of
``scenario.OptionsSpec``, ``ask.action_reason``, ``ask.action_cost`` and ``ask.measure``, and the
usage of ``actions.USAGE`` then ``parse.PHRASES``. A ruleset class mixes in
:class:`InfoHooks` (or :class:`TableHooks`) and sets :attr:`InfoHooks.package`;
the hooks import those modules on first use, so importing a ruleset stays cheap
and ``rules.py`` never imports the modules that consume it.

Mix the hooks in before the rules class (``class MGV(TableHooks[State], MGVRules)``),
so they take the place of :class:`~warbench.core.ruleset.Ruleset`'s defaults.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from warbench.core.actions import Action

if TYPE_CHECKING:
    from warbench.scenario.model import Scenario

S = TypeVar("S")


def package_attr(package: str, module: str, name: str) -> Any:
    """``name`` of the module ``package.module``, imported on first use."""
    return getattr(importlib.import_module(f"{package}.{module}"), name)


class InfoHooks:
    """``unit_info``, ``goal`` and ``rules_in_force`` from the ruleset's package."""

    package: ClassVar[str]
    """The ruleset's package, e.g. ``warbench.rulesets.mgv``."""

    def unit_info(self, view: Mapping[str, Any], ref: str) -> list[str]:
        answer: Callable[[Mapping[str, Any], str], list[str]]
        answer = package_attr(self.package, "info", "unit_info")
        return answer(view, ref)

    def goal(self, scenario: Scenario) -> list[str]:
        answer: Callable[[Scenario], list[str]] = package_attr(self.package, "info", "goal")
        return answer(scenario)

    def rules_in_force(self, scenario: Scenario) -> list[str]:
        """The scenario's options and the rulings (``data/rulings.toml``), one line each."""
        from warbench.rulesets.kit.rulings import rules_in_force

        options = package_attr(self.package, "scenario", "OptionsSpec")
        defaults: dict[str, Any] = options().model_dump()
        return rules_in_force(self.package, scenario.options, defaults)

    def scenario_options(self, scenario: Scenario) -> list[dict[str, Any]]:
        """The scenario's options, the values each takes and their meanings (rulings.toml)."""
        from warbench.rulesets.kit.rulings import option_choices

        options = package_attr(self.package, "scenario", "OptionsSpec")
        defaults: dict[str, Any] = options().model_dump()
        return option_choices(self.package, scenario.options, defaults)


class TableHooks(InfoHooks, Generic[S]):
    """:class:`InfoHooks`, plus the open table's ``action_reason``, ``measure`` (``ask.py``)
    and ``usage`` (the raw forms, then the table phrases of ``parse.py``)."""

    def action_reason(self, state: S, side: str, action: Action) -> str | None:
        answer: Callable[[S, str, Action], str | None]
        answer = package_attr(self.package, "ask", "action_reason")
        return answer(state, side, action)

    def action_cost(self, state: S, side: str, action: Action) -> str | None:
        answer: Callable[[S, str, Action], str | None]
        answer = package_attr(self.package, "ask", "action_cost")
        return answer(state, side, action)

    def measure(self, state: S, side: str, first: str, second: str) -> str:
        answer: Callable[[S, str, str, str], str] = package_attr(self.package, "ask", "measure")
        return answer(state, side, first, second)

    def move_reach(self, state: S, side: str, piece: str) -> dict[str, Any] | None:
        """The ring of a piece's move left, from ``ask.move_reach`` (where it stands and
        the inches it may still go, or None)."""
        answer: Callable[[S, str, str], tuple[tuple[float, float], float] | None]
        answer = package_attr(self.package, "ask", "move_reach")
        found = answer(state, side, piece)
        if found is None:
            return None
        (x, y), inches = found
        return {
            "kind": "reach",
            "at": [x, y],
            "range": inches,
            "label": f'{piece}: {inches:g}" of move',
        }

    @classmethod
    def usage(cls) -> Mapping[str, str]:
        """The raw forms, then the table phrases (``help`` at the prompt)."""
        forms: Mapping[str, str] = package_attr(cls.package, "actions", "USAGE")
        phrases: Mapping[str, str] = package_attr(cls.package, "parse", "PHRASES")
        return {**forms, **phrases}


__all__ = ["InfoHooks", "TableHooks", "package_attr"]
