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

from dataclasses import dataclass

from warbench.core.actions import END as END  # the shared ones, re-exported
from warbench.core.actions import PASS as PASS
from warbench.core.actions import Action, check_labelled, check_words
from warbench.core.actions import End as End
from warbench.core.actions import Pass as Pass
from warbench.geometry.hexgrid import Hex
from warbench.rulesets import kit
from warbench.rulesets.kit.actions import UnitAction, UnitTarget, Worded


@dataclass(frozen=True, slots=True)
class ChooseRole(Worded, verb="choose"):
    role: str


class Fire(UnitTarget, verb="fire"): ...


@dataclass(frozen=True, slots=True)
class Move(Worded, verb="move"):
    unit: str
    to: Hex

    def __post_init__(self) -> None:
        check_words(self)
        check_labelled(self, self.to)


class Attack(UnitTarget, verb="attack"): ...


class Advance(UnitAction, verb="advance"): ...


@dataclass(frozen=True, slots=True)
class Rally(Worded, verb="rally"):
    leader: str
    unit: str


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


class MoveOptions(kit.actions.MoveOptions[str]):
    """The legal actions of the movement step, built lazily: one ``move`` per unit
    and destination, then ``end`` (``movers`` holds (unit id, destinations))."""

    __slots__ = ()
    make = Move

    def __init__(self, per_unit: list[tuple[str, tuple[Hex, ...]]]) -> None:
        super().__init__(per_unit, [])

    @staticmethod
    def move_of(action: Action) -> tuple[str, Hex] | None:
        return (action.unit, action.to) if isinstance(action, Move) else None
