"""The one source of randomness in a game: seeded dice, or scripted ones for tests.

Rules code never touches the global :mod:`random`; it asks the game's dice
(through a :class:`~warbench.core.game.Resolution`, which also logs each roll as
an event with its purpose). The same seed always gives the same rolls.

>>> Dice(7).roll(3) == Dice(7).roll(3)
True
>>> ScriptedDice([6, 1]).roll(2)
(6, 1)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction
from functools import cache

from warbench.errors import RecordError, WarbenchError


class DiceExhausted(WarbenchError):
    """A scripted dice object was asked for more rolls than it was given."""


class Dice:
    """Seeded dice; `roll(n, sides)` returns a tuple of n results in 1..sides."""

    __slots__ = ("_random", "rolled")

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)
        self.rolled = 0

    @property
    def generator(self) -> random.Random:
        """The generator the dice draw from (``int(random() * sides) + 1`` a die): what a
        compiled kernel continuing a game (``Ruleset.play_from``) draws on, so it
        rolls the very dice the engine would."""
        return self._random

    def roll(self, n: int = 1, sides: int = 6) -> tuple[int, ...]:
        if n < 1 or sides < 2:
            raise ValueError(f"cannot roll {n}d{sides}")
        self.rolled += n
        rand = self._random.random
        return tuple(int(rand() * sides) + 1 for _ in range(n))


class SecretDice(Dice):
    """Dice nobody can foresee, for a game with a person in it: each die is drawn from
    the operating system's source when it is rolled (no seed, no state to copy), and
    logged, so that the record keeps the dice rolled so far instead of a seed that
    would tell every future die.

    Given a ``log`` (a record's), the first rolls are those values in order, so the
    game replays exactly; after them the dice are secret again.

    >>> dice = SecretDice([4, 2])
    >>> dice.roll(2), len(dice.roll(3)), dice.log[:2]
    ((4, 2), 3, [4, 2])
    """

    __slots__ = ("_script", "log")

    def __init__(self, log: Iterable[int] = ()) -> None:
        self._random = random.SystemRandom()
        self.rolled = 0
        self._script = list(log)
        self.log: list[int] = []

    def roll(self, n: int = 1, sides: int = 6) -> tuple[int, ...]:
        if n < 1 or sides < 2:
            raise ValueError(f"cannot roll {n}d{sides}")
        out = []
        for _ in range(n):
            known = len(self.log)
            if known < len(self._script):
                value = self._script[known]
                if not 1 <= value <= sides:  # a record's log that does not fit its game
                    raise RecordError(f"the logged die {value} does not fit the d{sides} rolled")
            else:
                value = self._random.randrange(sides) + 1
            self.log.append(value)
            out.append(value)
        self.rolled += n
        return tuple(out)

    def fresh(self) -> SecretDice:
        """The same dice from the start: every value known so far, then secret ones."""
        return SecretDice([*self.log, *self._script[len(self.log) :]])

    def __deepcopy__(self, memo: dict[int, object]) -> SecretDice:
        """A copy at the same point (a trial roll on it draws new secret values)."""
        copy = self.fresh()
        copy.log = list(self.log)
        copy.rolled = self.rolled
        return copy


class ScriptedDice(Dice):
    """Dice that return the given values in order, for replaying worked examples.

    Values are checked against the number of sides asked for, so a script that
    does not fit the roll it feeds fails loudly instead of giving nonsense.
    """

    __slots__ = ("_script",)

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(0)
        self._script = list(values)

    @property
    def remaining(self) -> int:
        return len(self._script) - self.rolled

    def extend(self, values: Iterable[int]) -> None:
        self._script.extend(values)

    def fresh(self) -> ScriptedDice:
        """The same script from its start (to rebuild a game by replaying it)."""
        return ScriptedDice(self._script)

    def roll(self, n: int = 1, sides: int = 6) -> tuple[int, ...]:
        if self.remaining < n:
            raise DiceExhausted(f"scripted dice asked for {n} more roll(s), {self.remaining} left")
        taken = self._script[self.rolled : self.rolled + n]
        for value in taken:
            if not 1 <= value <= sides:
                raise ValueError(f"scripted roll {value} does not fit a d{sides}")
        self.rolled += n
        return tuple(taken)


@cache
def sum_distribution(dice: int) -> dict[int, Fraction]:
    """Exact chances of each total of ``dice`` D6, lowest total first (0 dice: always 0).

    What every ruleset's exact odds build on.

    >>> sum_distribution(2)[7]
    Fraction(1, 6)
    """
    counts = {0: 1}
    for _ in range(dice):
        step: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, 7):
                step[total + face] = step.get(total + face, 0) + ways
        counts = step
    return {total: Fraction(ways, 6**dice) for total, ways in sorted(counts.items())}
