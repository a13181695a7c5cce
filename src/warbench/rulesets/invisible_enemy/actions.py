"""Invisible Enemy actions and their text forms.

=========================================  ============================================
``buy auto=U1 type1 deflect suppress25``   tactical action purchases (2.0): ``auto=UNIT``
                                           (1), ``type1`` (2), ``deflect`` (2),
                                           ``suppress25`` (3), ``suppress50`` (5),
                                           ``suppress75`` (8), ``die`` (3); ``buy none``
``barrage 12,8`` / ``barrage 12,8 type2``  set a barrage marker down by hand (3.0): a
                                           Type 1 if one is held in phase 2, else Type 2;
                                           the free barrage of a tied initiative (4.6)
``deflect M3``                             tag enemy marker M3 with a deflection (3.0)
``unit U1``                                try to move unit U1: the Control roll (4.0)
``pass``                                   make no more move attempts this turn (4.0)
``move B1 10.5,4 12,8 face 90``            B1 moves in straight legs, then faces 90
``engineer E1 repair B3``                  an engineering action (7.0) on a base or a
                                           feature within 1" (or none: ``arm-payload``)
``destruct B4``                            B4 overheats its transducers (6.0)
``fire B1 R3`` / ``fire L1+L2+L3 R3``      direct fire at R3 (5.0); three or more C
                                           bases together fire as a massed battery (5.3)
``rake B1 R3``                             kinetic raking fire from a base holding still
``done``                                   end your part of this step
=========================================  ============================================

Points are ``x,y`` in inches; angles are degrees counter-clockwise from east.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from warbench.core.actions import Action, check_words
from warbench.errors import IllegalAction
from warbench.geometry.table import Point
from warbench.geometry.table.text import as_coordinate, move_usage, num
from warbench.rulesets.kit.actions import Worded
from warbench.rulesets.kit.table.moves import TableMove

MAX_POINTS = 32
"""More legs than any move needs; a longer path is refused as a typing accident."""
MAX_ITEMS = 32
"""Purchases in one order: more points than any network can score."""
PURCHASES: Final = ("auto", "type1", "deflect", "suppress25", "suppress50", "suppress75", "die")
"""2.0 Tactical Actions in the order listed; the key of each cost in ``charts.toml``."""
COST_KEY: Final = {
    "auto": "automatic_move",
    "type1": "type1_barrage",
    "deflect": "barrage_deflection",
    "suppress25": "suppress_25",
    "suppress50": "suppress_50",
    "suppress75": "suppress_75",
    "die": "enemy_loses_die",
}
SUPPRESSION: Final = {"suppress25": 25, "suppress50": 50, "suppress75": 75}


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Ends a side's part of this step: the rulesets' ``end`` under this text's word."""

    ends_step: ClassVar[bool] = True

    def __str__(self) -> str:
        return "done"


DONE: Final = Done()


@dataclass(frozen=True, slots=True)
class Pass(Action):
    def __str__(self) -> str:
        return "pass"


PASS: Final = Pass()


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """Purchases: each item a key of :data:`PURCHASES`, ``auto`` with its unit."""

    items: tuple[tuple[str, str | None], ...]

    def __post_init__(self) -> None:
        if not isinstance(self.items, tuple) or len(self.items) > MAX_ITEMS:
            raise IllegalAction(self, f"at most {MAX_ITEMS} purchases")
        for item in self.items:
            if not isinstance(item, tuple) or len(item) != 2 or item[0] not in PURCHASES:
                raise IllegalAction(self, f"purchases are {', '.join(PURCHASES)}")
            if (item[0] == "auto") != isinstance(item[1], str):
                raise IllegalAction(self, "an automatic move marker names its unit: auto=UNIT")
        check_words(self)
        for _, unit in self.items:
            if unit is not None:
                check_words(Unit(unit))

    def __str__(self) -> str:
        if not self.items:
            return "buy none"
        return " ".join(["buy", *(k if u is None else f"{k}={u}" for k, u in self.items)])


@dataclass(frozen=True, slots=True)
class Barrage(Action):
    """A marker set down at ``at`` (3.0); ``type2`` forces a Type 2 in phase 2."""

    at: Point
    type2: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.at, tuple) or len(self.at) != 2:
            raise IllegalAction(self, "a marker goes at a point x,y")
        object.__setattr__(self, "at", (as_coordinate(self.at[0]), as_coordinate(self.at[1])))

    def __str__(self) -> str:
        words = ["barrage", f"{num(self.at[0])},{num(self.at[1])}"]
        return " ".join([*words, "type2"] if self.type2 else words)


@dataclass(frozen=True, slots=True)
class Named(Worded):
    """An action naming one thing by id (``deflect M3``): its verb, then the id, a word."""

    def __post_init__(self) -> None:
        check_words(self)


@dataclass(frozen=True, slots=True)
class Deflect(Named, verb="deflect"):
    marker: str


@dataclass(frozen=True, slots=True)
class Unit(Named, verb="unit"):
    unit: str


Move = TableMove
"""A base moves along straight legs, then faces (4.0): the move MGV shares."""


PLOUGH: Final = "plough"
"""The engineer's word for a move that ploughs low obstacles too (4.4; not a 7.0 action)."""


@dataclass(frozen=True, slots=True)
class Engineer(Action):
    """An engineering action (7.0): its key on the table and what it works on; ``plough``
    (4.4) goes ``to`` a point instead."""

    base: str
    key: str
    target: str | None = None
    to: Point | None = None

    def __post_init__(self) -> None:
        check_words(self)
        if self.to is not None:
            if not isinstance(self.to, tuple) or len(self.to) != 2:
                raise IllegalAction(self, "a plough goes to a point x,y")
            object.__setattr__(self, "to", (as_coordinate(self.to[0]), as_coordinate(self.to[1])))

    def __str__(self) -> str:
        words = ["engineer", self.base, self.key]
        if self.to is not None:
            words.append(f"{num(self.to[0])},{num(self.to[1])}")
        return " ".join([*words, self.target] if self.target else words)


@dataclass(frozen=True, slots=True)
class Destruct(Named, verb="destruct"):
    base: str


@dataclass(frozen=True, slots=True)
class Fire(Action):
    """Direct fire of one base (or a massed C battery, 5.3) at a target; ``rake``: 5.3."""

    shooters: tuple[str, ...]
    target: str
    rake: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.shooters, tuple) or not 1 <= len(self.shooters) <= 24:
            raise IllegalAction(self, "one base fires, or a battery of C bases")
        check_words(self)
        if self.rake and len(self.shooters) != 1:
            raise IllegalAction(self, "one base rakes at a time")
        if len(set(self.shooters)) != len(self.shooters):
            raise IllegalAction(self, "a base is named twice")

    def __str__(self) -> str:
        return f"{'rake' if self.rake else 'fire'} {'+'.join(self.shooters)} {self.target}"


USAGE = {
    "buy": "buy auto=UNIT|type1|deflect|suppress25|suppress50|suppress75|die ... (or: buy none)",
    "barrage": "barrage X,Y [type2]",
    "deflect": "deflect MARKER",
    "unit": "unit UNIT",
    "pass": "pass",
    "move": move_usage("BASE"),
    "engineer": "engineer BASE ACTION [TARGET] (or: engineer BASE plough X,Y)",
    "destruct": "destruct BASE",
    "fire": "fire BASE[+BASE...] TARGET",
    "rake": "rake BASE TARGET",
    "done": "done",
}


__all__ = [
    "COST_KEY",
    "DONE",
    "PASS",
    "PLOUGH",
    "PURCHASES",
    "SUPPRESSION",
    "USAGE",
    "Barrage",
    "Buy",
    "Deflect",
    "Destruct",
    "Done",
    "Engineer",
    "Fire",
    "Move",
    "Pass",
    "Unit",
]
