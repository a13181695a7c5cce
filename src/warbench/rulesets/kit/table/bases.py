"""A vehicle base on the table: what MGV's and Invisible Enemy's bases share.

Each ruleset's ``state.Base`` extends :class:`TableBase` with its own fields (MGV's
wing, mounts and hit log; Invisible Enemy's unit, hits and engineering) and says in
its docstring what ``exited`` and ``trapped`` mean under its rules.

The shared flags ``destroyed``, ``exited`` and ``trapped`` are keyword-only (they
have defaults, and a ruleset's own fields without one follow them); the rest are
taken in order, ahead of the ruleset's fields, so ``core.copying.field_copier``
still copies a base mostly by position. A base is made from its placement by
:meth:`TableBase.placed`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Self, TypeVar

from warbench.geometry.table import Figure
from warbench.rulesets.kit.table.scenario import VehiclePlacement

M = TypeVar("M")
"""The ruleset's vehicle model type."""


@dataclass(slots=True)
class TableBase(Generic[M]):
    """One vehicle base on the table (or out of play)."""

    id: str
    side: str
    model_key: str
    model: M
    geo: Figure
    destroyed: bool = field(default=False, kw_only=True)
    exited: bool = field(default=False, kw_only=True)
    """Got off the table by the scenario's exit edge (out of play, not destroyed)."""
    trapped: bool = field(default=False, kw_only=True)
    """Trapped by terrain: immobilised (how long for, the ruleset says)."""

    @classmethod
    def placed(cls, placement: VehiclePlacement[M], **own: Any) -> Self:
        """The base as ``placement`` sets it up, with the ruleset's own fields ``own``."""
        p = placement
        return cls(id=p.id, side=p.side, model_key=p.model_key, model=p.model, geo=p.figure, **own)

    @property
    def active(self) -> bool:
        return not self.destroyed and not self.exited

    def placed_json(self) -> dict[str, Any]:
        """The model and where the base stands, in the order the saved JSON has them."""
        return {
            "model": self.model_key,
            "x": self.geo.x,
            "y": self.geo.y,
            "facing": self.geo.facing,
        }

    def out_json(self) -> dict[str, Any]:
        """Whether the base is out of play or stuck, in the order the saved JSON has them."""
        return {"destroyed": self.destroyed, "exited": self.exited, "trapped": self.trapped}
