"""MiniWars actions and their text forms.

=====================  ===================================================
``choose A``            the initiative winner takes role A (or ``choose B``)
``fire G1 W3``          missile fire by unit G1 at unit W3
``move G1 0706``        G1 moves to hex 0706 (its own hex: it holds)
``attack G1 W3``        melee by G1 (which just moved) against W3
``advance G1``          G1 advances into the hex its melee emptied
``rally MG G1``         leader MG tries to rally G1 (``rally MG MG``: itself)
``pass``                decline the attack or the advance offered
``end``                 end this phase for your side
=====================  ===================================================
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from warbench.core.actions import (
    END as END,
)  # the shared ones, re-exported
from warbench.core.actions import (
    PASS as PASS,
)
from warbench.core.actions import Action, check_labelled, check_words
from warbench.core.actions import (
    End as End,
)
from warbench.core.actions import (
    Pass as Pass,
)
from warbench.geometry.hexgrid import Hex


@dataclass(frozen=True, slots=True)
class ChooseRole(Action):
    role: str

    def __str__(self) -> str:
        return f"choose {self.role}"


@dataclass(frozen=True, slots=True)
class Fire(Action):
    unit: str
    target: str

    def __str__(self) -> str:
        return f"fire {self.unit} {self.target}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    unit: str
    to: Hex

    def __post_init__(self) -> None:
        check_words(self)
        check_labelled(self, self.to)

    def __str__(self) -> str:
        return f"move {self.unit} {self.to.label}"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    unit: str
    target: str

    def __str__(self) -> str:
        return f"attack {self.unit} {self.target}"


@dataclass(frozen=True, slots=True)
class Advance(Action):
    unit: str

    def __str__(self) -> str:
        return f"advance {self.unit}"


@dataclass(frozen=True, slots=True)
class Rally(Action):
    leader: str
    unit: str

    def __str__(self) -> str:
        return f"rally {self.leader} {self.unit}"


USAGE = {
    "choose": "choose A|B",
    "fire": "fire UNIT TARGET",
    "move": "move UNIT HEX",
    "attack": "attack UNIT TARGET",
    "advance": "advance UNIT",
    "rally": "rally LEADER UNIT",
    "pass": "pass",
    "end": "end",
}


class MoveOptions(Sequence[Action]):
    """The legal actions of the movement step, built lazily.

    One ``move`` per unit and destination, then ``end``. Materialising
    hundreds of Move objects at every decision is the hot path of a
    simulation, so actions are only made when indexed or iterated.
    """

    __slots__ = ("_offsets", "_size", "per_unit")

    def __init__(self, per_unit: list[tuple[str, tuple[Hex, ...]]]) -> None:
        self.per_unit = per_unit
        """(unit id, destinations) in order; read by the evaluation fast path."""
        self._offsets: list[int] = []
        size = 0
        for _, dests in per_unit:
            self._offsets.append(size)
            size += len(dests)
        self._size = size + 1

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError(index)
        if index == self._size - 1:
            return END
        k = bisect_right(self._offsets, index) - 1
        uid, dests = self.per_unit[k]
        return Move(uid, dests[index - self._offsets[k]])

    def __iter__(self) -> Iterator[Action]:
        for uid, dests in self.per_unit:
            for h in dests:
                yield Move(uid, h)
        yield END

    def __contains__(self, action: object) -> bool:
        if action == END:
            return True
        if not isinstance(action, Move):
            return False
        return any(uid == action.unit and action.to in dests for uid, dests in self.per_unit)
