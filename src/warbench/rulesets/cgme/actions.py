"""CGME actions and their text forms.

=========================  ====================================================
``move U 0405``            one leg of U's movement, to hex 0405
``move U1+U2 0405``        a stack moving together (each pays its own MP)
``load C U1+U2``           infantry U1 and U2 board carrier C in their hex
``unload U``               U dismounts into its carrier's hex
``attack U T``             U opens an attack on unit or building T
``join V``                 V combines its ATT into the open attack
``roll``                   roll the open attack
``end``                    end this phase for your side
=========================  ====================================================
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from warbench.core.actions import END as END  # the shared ones, re-exported
from warbench.core.actions import Action, check_labelled, check_words
from warbench.core.actions import End as End
from warbench.errors import IllegalAction, excerpt
from warbench.geometry.hexgrid import Hex


def check_units(action: Action, units: tuple[str, ...]) -> None:
    """Refuse to make a move or load of no unit, or naming a unit twice.

    The parser refuses both (``move +A 0405``, ``load C A+A``); an action made in
    code must not be one its own text cannot give back.
    """
    if not units:
        raise IllegalAction(action, "name at least one unit")
    for uid in units:
        if "+" in uid:
            raise IllegalAction(action, f"'{excerpt(uid)}' is not a unit id ('+' joins ids)")
    if len(set(units)) != len(units):
        twice = next(uid for n, uid in enumerate(units) if uid in units[:n])
        raise IllegalAction(action, f"{excerpt(twice)} is named twice")


@dataclass(frozen=True, slots=True)
class Move(Action):
    units: tuple[str, ...]
    to: Hex

    def __post_init__(self) -> None:
        check_words(self)
        check_units(self, self.units)
        check_labelled(self, self.to)

    def __str__(self) -> str:
        return f"move {'+'.join(self.units)} {self.to.label}"


@dataclass(frozen=True, slots=True)
class Load(Action):
    carrier: str
    riders: tuple[str, ...]

    def __post_init__(self) -> None:
        check_words(self)
        check_units(self, self.riders)

    def __str__(self) -> str:
        return f"load {self.carrier} {'+'.join(self.riders)}"


@dataclass(frozen=True, slots=True)
class Unload(Action):
    unit: str

    def __str__(self) -> str:
        return f"unload {self.unit}"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    unit: str
    target: str

    def __str__(self) -> str:
        return f"attack {self.unit} {self.target}"


@dataclass(frozen=True, slots=True)
class Join(Action):
    unit: str

    def __str__(self) -> str:
        return f"join {self.unit}"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    def __str__(self) -> str:
        return "roll"


ROLL = Roll()

USAGE = {
    "move": "move UNIT[+UNIT...] HEX",
    "load": "load CARRIER UNIT[+UNIT...]",
    "unload": "unload UNIT",
    "attack": "attack UNIT TARGET",
    "join": "join UNIT",
    "roll": "roll",
    "end": "end",
}


class MoveOptions(Sequence[Action]):
    """The legal actions of a movement phase, built lazily.

    One ``move`` per mover (a unit or a stack) and destination, then the other
    actions (loads, unloads, attacks during movement), then ``end``. Making
    hundreds of Move objects at every decision would be the hot path of a
    simulation, so they are only made when indexed or iterated.
    """

    __slots__ = ("_offsets", "_size", "extras", "movers", "moves")

    def __init__(
        self, movers: list[tuple[tuple[str, ...], tuple[Hex, ...]]], extras: list[Action]
    ) -> None:
        self.movers = movers
        """(unit ids, destinations) in order; read by the evaluation fast path."""
        self.extras = extras
        self._offsets: list[int] = []
        size = 0
        for _, dests in movers:
            self._offsets.append(size)
            size += len(dests)
        self.moves = size
        self._size = size + len(extras) + 1

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
        if index >= self.moves:
            return self.extras[index - self.moves]
        k = bisect_right(self._offsets, index) - 1
        units, dests = self.movers[k]
        return Move(units, dests[index - self._offsets[k]])

    def __iter__(self) -> Iterator[Action]:
        for units, dests in self.movers:
            for h in dests:
                yield Move(units, h)
        yield from self.extras
        yield END

    def __contains__(self, action: object) -> bool:
        if action == END:
            return True
        if isinstance(action, Move):
            return any(u == action.units and action.to in d for u, d in self.movers)
        return action in self.extras
