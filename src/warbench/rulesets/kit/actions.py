"""Action scaffolding the rulesets share: actions said as a verb and ids, and the
lazily built list of a movement step's legal actions.

A ruleset's action is still its own class (rules tell them apart by type); the
kit gives the text form. ``Fire(unit, target)`` is written

>>> class Fire(UnitTarget, verb="fire"): ...
>>> str(Fire("G1", "W3"))
'fire G1 W3'

(a class that adds fields is a frozen dataclass of its own, as ``Rally(leader, unit)``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Generic, TypeVar, overload

from warbench.core.actions import END, Action
from warbench.geometry.hexgrid import Hex

K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class Worded(Action):
    """An action whose text is its verb and then its fields, in order: ``rally MG G1``,
    ``move A+B 0405`` (a hex by its label, several ids joined by ``+``)."""

    verb: ClassVar[str] = ""

    def __init_subclass__(cls, verb: str = "", **kwargs: Any) -> None:
        super(Worded, cls).__init_subclass__(**kwargs)  # the class the decorator made
        if verb:
            cls.verb = verb

    def __str__(self) -> str:
        names = _NAMES.get(type(self))
        if names is None:
            names = _NAMES[type(self)] = tuple(f.name for f in fields(self))
        return " ".join([self.verb, *(_said(getattr(self, name)) for name in names)])


_NAMES: dict[type, tuple[str, ...]] = {}
"""Each worded action class's field names, in order."""


def _said(value: object) -> str:
    if isinstance(value, Hex):
        return value.label
    if isinstance(value, tuple):
        return "+".join(value)
    return str(value)


@dataclass(frozen=True, slots=True)
class UnitAction(Worded):
    """An action by one unit: ``advance G1``."""

    unit: str

    def __str__(self) -> str:
        return f"{self.verb} {self.unit}"


@dataclass(frozen=True, slots=True)
class UnitTarget(Worded):
    """An action by one unit against another: ``attack G1 W3``."""

    unit: str
    target: str

    def __str__(self) -> str:
        return f"{self.verb} {self.unit} {self.target}"


class MoveOptions(Sequence[Action], Generic[K]):
    """The legal actions of a movement step or phase, built lazily.

    One move per mover (a unit's id, or a stack's ids) and destination, then the
    other actions (``extras``), then ``end``. Making hundreds of move objects at
    every decision would be the hot path of a simulation, so they are only made
    when indexed or iterated. A ruleset's subclass names its move class
    (``make``, called with a mover and a hex) and reads a move back (``move_of``).
    """

    __slots__ = ("_offsets", "_size", "extras", "movers", "moves")

    make: Callable[[Any, Hex], Action]
    """The ruleset's move class."""

    def __init__(self, movers: list[tuple[K, tuple[Hex, ...]]], extras: list[Action]) -> None:
        self.movers = movers
        """(mover, destinations) in order; read by the evaluation fast path."""
        self.extras = extras
        self._offsets: list[int] = []
        size = 0
        for _, dests in movers:
            self._offsets.append(size)
            size += len(dests)
        self.moves = size
        self._size = size + len(extras) + 1

    @staticmethod
    def move_of(action: Action) -> tuple[Any, Hex] | None:
        """The mover and destination of ``action`` if it is the ruleset's move, else None."""
        raise NotImplementedError

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
        mover, dests = self.movers[k]
        return self.make(mover, dests[index - self._offsets[k]])

    def __iter__(self) -> Iterator[Action]:
        make = self.make
        for mover, dests in self.movers:
            for h in dests:
                yield make(mover, h)
        yield from self.extras
        yield END

    def __contains__(self, action: object) -> bool:
        if action == END:
            return True
        if not isinstance(action, Action):
            return False
        move = self.move_of(action)
        if move is not None:
            mover, to = move
            return any(m == mover and to in d for m, d in self.movers)
        return action in self.extras
