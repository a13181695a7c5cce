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

from warbench.core.actions import Action
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


@dataclass(frozen=True, slots=True)
class Pass(Action):
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class End(Action):
    def __str__(self) -> str:
        return "end"


PASS = Pass()
END = End()

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
