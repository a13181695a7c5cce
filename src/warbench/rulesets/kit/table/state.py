"""What MGV's and Invisible Enemy's game states share: the set-up and its two sides,
the bases by id, those that got off the table, the outcome, and what is remembered
of the table as it stands.

Each ruleset's ``state.State`` extends :class:`TableState` with its turn, steps and
pieces. The shared fields after ``bases`` have defaults and are keyword-only, so the
ruleset's own fields without one can follow them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from warbench.core.outcome import Outcome
from warbench.geometry.table import Scene
from warbench.rulesets.kit.table.bases import TableBase
from warbench.rulesets.kit.table.scenario import VehicleSetup

S = TypeVar("S", bound=VehicleSetup[Any, Any])
"""The ruleset's set-up type."""
B = TypeVar("B", bound=TableBase[Any])
"""The ruleset's base type."""


@dataclass(slots=True)
class TableState(Generic[S, B]):
    """A game on the table: its set-up, its bases, and what the turns have left."""

    setup: S
    bases: dict[str, B]
    exited: list[str] = field(default_factory=list, kw_only=True)
    """The bases that got off the table by the scenario's edge, in order."""
    outcome: Outcome | None = field(default=None, kw_only=True)
    scene_cache: Scene | None = field(default=None, kw_only=True)
    plans: dict[Any, Any] = field(default_factory=dict, kw_only=True)
    """What has been worked out about moves on the table as it stands (the ruleset's keys)."""
    lines: dict[Any, Any] = field(default_factory=dict, kw_only=True)
    """Lines of fire on the table as it stands (the ruleset's keys)."""

    def other(self, side: str) -> str:
        a, b = self.setup.sides
        return b if side == a else a
