"""What the hex rulesets' game states share: two sides, units by id, a fast copy."""

from __future__ import annotations

from typing import Any, Generic, Protocol, Self, TypeVar

from warbench.geometry.hexgrid import Hex


class Placed(Protocol):
    side: str
    pos: Hex | None


U = TypeVar("U", bound=Placed)


class TwoSides(Generic[U]):
    """Mixed into a state dataclass (``slots=True``) with ``setup.sides`` and ``units``."""

    __slots__ = ()
    setup: Any
    units: dict[str, U]

    def copy(self, memo: dict[int, Any] | None = None) -> Self:
        raise NotImplementedError

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.copy(memo)

    def side_units(self, side: str) -> list[U]:
        """``side``'s units on the board."""
        return [u for u in self.units.values() if u.side == side and u.pos is not None]

    def enemy_of(self, side: str) -> str:
        a: str
        b: str
        a, b = self.setup.sides
        return b if side == a else a
