"""MGV actions and their text forms.

======================================  ===============================================
``arm B1=photon B1.secondary=kinetic``  set-up: weapon type of each open mount (1.5),
                                        a sealed choice of both sides; ``arm`` alone
                                        when nothing is open
``phase move`` / ``phase fire``         what the roll winner does with its phase (1.6)
``move B1 10.5,4 12,8 face 90``         B1 moves in straight legs to each point, then
                                        faces 90 degrees (4.0); ``beacon R2`` at the
                                        end marks R2 (4.0 Marker Beacons)
``end``                                 end the movement phase
``range B1=7.5 B3=estimate``            photon range guesses, written before targets
                                        are declared (5.3); sealed; ``range none``
``fire B1>R2 B2.secondary>R3 B3+B4>R1`` declare every attack of the phase (5.0);
                                        ``B3+B4``: a wing combining missile dice (5.2);
                                        ``fire none``
``screen R3>2`` / ``screen none``       the defender's missile mounts intercept
                                        declared attack number 2 (5.1 Modifiers)
``split 1=3/2/1`` / ``block 1=2/2/1``   missile dice per colour, surface/core/heart,
                                        of each missile attack (5.2), sealed
``mark s3 s4 c2`` / ``mark auto``       where the hits of the group go (5.2 Applying
                                        Damage), chosen by the target's owner
======================================  ===============================================

A mount is written ``B1`` (its main mount) or ``B1.secondary``. Points are
``x,y`` in inches; angles are degrees counter-clockwise from east.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from warbench.core.actions import END as END  # the shared one, re-exported
from warbench.core.actions import Action, check_words
from warbench.core.actions import End as End
from warbench.errors import IllegalAction
from warbench.geometry.table.text import as_coordinate, move_usage, num
from warbench.rulesets.kit.table.moves import TableMove

MAX_POINTS = 32
"""More legs than any 8-inch move needs; a longer path is refused as a typing accident."""
MAX_ENTRIES = 64
"""Entries of one order (attacks, guesses, splits)."""

Weapon = tuple[str, str, str]
"""(base, slot, weapon type)."""
Guess = tuple[str, str, str, float | None]
"""(base, slot, target, inches; None: drawn from the estimate model). A guess names its
target: the declaration must fire that mount at it (5.3: the range to *that* base is
what was guessed)."""
Order = tuple[tuple[str, ...], str, str]
"""(shooting bases, slot, target)."""
Intercept = tuple[str, str, int]
"""(screening base, slot, attack number)."""
Dice = tuple[int, int, int, int]
"""(attack number, surface, core, heart)."""


def mount(base: str, slot: str) -> str:
    return base if slot == "main" else f"{base}.{slot}"


WORD = "word"
WORDS = "words"
COUNT = "count"
INCHES = "inches"


def _word(action: Action, value: object) -> None:
    if not (
        isinstance(value, str)
        and value
        and len(value) <= 64
        and value.isprintable()
        and not any(ch in value for ch in " =>+./")
    ):
        raise IllegalAction(action, f"'{str(value)[:40]}' is not a name (one word)")


def _entries(action: Action, value: object, kinds: tuple[str, ...]) -> None:
    """Refuse an order built in code whose entries no text could carry."""
    if not isinstance(value, tuple) or len(value) > MAX_ENTRIES:
        raise IllegalAction(action, f"an order is a list of at most {MAX_ENTRIES} entries")
    for entry in value:
        if not isinstance(entry, tuple) or len(entry) != len(kinds):
            raise IllegalAction(action, "an entry of this order has the wrong shape")
        for item, kind in zip(entry, kinds, strict=True):
            if kind == WORD:
                _word(action, item)
            elif kind == WORDS:
                if not isinstance(item, tuple) or len(item) not in (1, 2):
                    raise IllegalAction(action, "one base fires, or the two of a wing")
                for word in item:
                    _word(action, word)
            elif kind == COUNT:
                if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item <= 999:
                    raise IllegalAction(action, f"'{str(item)[:40]}' is not a count")
            elif (
                kind == INCHES
                and item is not None
                and (
                    not isinstance(item, float | int)
                    or isinstance(item, bool)
                    or not math.isfinite(item)
                    or not 0 < item <= 1000
                )
            ):
                raise IllegalAction(action, f"'{str(item)[:40]}' is not a range in inches")


@dataclass(frozen=True, slots=True)
class Arm(Action):
    choices: tuple[Weapon, ...]

    def __post_init__(self) -> None:
        _entries(self, self.choices, (WORD, WORD, WORD))

    def __str__(self) -> str:
        return " ".join(["arm", *(f"{mount(b, s)}={w}" for b, s, w in self.choices)])


@dataclass(frozen=True, slots=True)
class Phase(Action):
    kind: str

    def __post_init__(self) -> None:
        if self.kind not in ("move", "fire"):
            raise IllegalAction(self, "a phase is move or fire")

    def __str__(self) -> str:
        return f"phase {self.kind}"


@dataclass(frozen=True, slots=True)
class Move(TableMove):
    """The shared table move, and a marker beacon fired at ``beacon`` on the way (4.0)."""

    beacon: str | None = None

    def tail_words(self) -> list[str]:
        return [] if self.beacon is None else ["beacon", self.beacon]


@dataclass(frozen=True, slots=True)
class Range(Action):
    guesses: tuple[Guess, ...]

    def __post_init__(self) -> None:
        _entries(self, self.guesses, (WORD, WORD, WORD, INCHES))
        object.__setattr__(
            self,
            "guesses",
            tuple(
                (b, s, t, None if g is None else as_coordinate(g)) for b, s, t, g in self.guesses
            ),
        )

    def __str__(self) -> str:
        if not self.guesses:
            return "range none"
        return " ".join(
            ["range"]
            + [
                f"{mount(b, s)}>{t}={'estimate' if g is None else num(g)}"
                for b, s, t, g in self.guesses
            ]
        )

    def guess_for(self, base: str, slot: str) -> tuple[str, float | None] | None:
        """The target and inches written for a mount, or None if it has no guess."""
        return next(((t, g) for b, s, t, g in self.guesses if (b, s) == (base, slot)), None)


@dataclass(frozen=True, slots=True)
class FireOrder(Action):
    attacks: tuple[Order, ...]

    def __post_init__(self) -> None:
        _entries(self, self.attacks, (WORDS, WORD, WORD))

    def __str__(self) -> str:
        if not self.attacks:
            return "fire none"
        return " ".join(["fire"] + [f"{mount('+'.join(sh), s)}>{t}" for sh, s, t in self.attacks])


@dataclass(frozen=True, slots=True)
class ScreenOrder(Action):
    screens: tuple[Intercept, ...]

    def __post_init__(self) -> None:
        _entries(self, self.screens, (WORD, WORD, COUNT))

    def __str__(self) -> str:
        if not self.screens:
            return "screen none"
        return " ".join(["screen"] + [f"{mount(b, s)}>{n}" for b, s, n in self.screens])


@dataclass(frozen=True, slots=True)
class Split(Action):
    """Missile dice per colour: ``split`` (the attacker's) or ``block`` (the defender's)."""

    verb: str
    dice: tuple[Dice, ...]

    def __post_init__(self) -> None:
        if self.verb not in ("split", "block"):
            raise IllegalAction(self, "missile dice are a split or a block")
        _entries(self, self.dice, (COUNT, COUNT, COUNT, COUNT))

    def __str__(self) -> str:
        if not self.dice:
            return f"{self.verb} none"
        return " ".join([self.verb] + [f"{n}={s}/{c}/{h}" for n, s, c, h in self.dice])


@dataclass(frozen=True, slots=True)
class Mark(Action):
    """Where a group of hits goes; empty ``circles`` with ``auto``: the default placement."""

    circles: tuple[str, ...]
    auto: bool = False

    def __post_init__(self) -> None:
        check_words(self)
        if not isinstance(self.circles, tuple) or len(self.circles) > MAX_ENTRIES:
            raise IllegalAction(self, f"at most {MAX_ENTRIES} circles")
        for circle in self.circles:
            _word(self, circle)
        if self.auto and self.circles:
            raise IllegalAction(self, "mark auto names no circles")

    def __str__(self) -> str:
        if self.auto:
            return "mark auto"
        return " ".join(["mark", *self.circles]) if self.circles else "mark none"


USAGE = {
    "arm": "arm BASE[.secondary]=kinetic|missile|photon ...",
    "phase": "phase move|fire",
    "move": move_usage("BASE", "[beacon ENEMY]"),
    "end": "end",
    "range": "range BASE[.secondary]>TARGET=INCHES|estimate ... (or: range none)",
    "fire": "fire BASE[+WINGMATE][.secondary]>TARGET ... (or: fire none)",
    "screen": "screen BASE[.secondary]>ATTACK_NUMBER ... (or: screen none)",
    "split": "split ATTACK=S/C/H ... (surface/core/heart dice)",
    "block": "block ATTACK=S/C/H ... (surface/core/heart dice)",
    "mark": "mark CIRCLE ... (e.g. mark s3 s4 c2) or mark auto",
}
