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

from dataclasses import dataclass

from warbench.core.actions import END as END  # the shared ones, re-exported
from warbench.core.actions import Action, check_labelled, check_words
from warbench.core.actions import End as End
from warbench.errors import IllegalAction, excerpt
from warbench.geometry.hexgrid import Hex
from warbench.rulesets import kit
from warbench.rulesets.kit.actions import UnitAction, UnitTarget, Worded


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
class Move(Worded, verb="move"):
    units: tuple[str, ...]
    to: Hex

    def __post_init__(self) -> None:
        check_words(self)
        check_units(self, self.units)
        check_labelled(self, self.to)


@dataclass(frozen=True, slots=True)
class Load(Worded, verb="load"):
    carrier: str
    riders: tuple[str, ...]

    def __post_init__(self) -> None:
        check_words(self)
        check_units(self, self.riders)


class Unload(UnitAction, verb="unload"): ...


class Attack(UnitTarget, verb="attack"): ...


class Join(UnitAction, verb="join"): ...


class Roll(Worded, verb="roll"): ...


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


class MoveOptions(kit.actions.MoveOptions[tuple[str, ...]]):
    """The legal actions of a movement phase, built lazily: one ``move`` per mover
    (a unit or a stack) and destination, then the other actions (loads, unloads,
    attacks during movement), then ``end``."""

    __slots__ = ()
    make = Move

    @staticmethod
    def move_of(action: Action) -> tuple[tuple[str, ...], Hex] | None:
        return (action.units, action.to) if isinstance(action, Move) else None
