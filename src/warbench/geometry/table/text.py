"""Numbers, points and facings in the text form of table-game actions.

Every table game writes moves the same way: points ``x,y`` in inches from the
table's bottom-left corner, facings in degrees counter-clockwise from east.
An action holds its numbers in one canonical form (plain floats, no ``-0.0``,
a facing in ``[0, 360)``) and prints them in their shortest exact form, so its
text parses back to the very same action and a record replays exactly.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Final

from warbench.errors import ActionSyntaxError, IllegalAction, excerpt
from warbench.geometry.table.core import Point, Table, normalize_angle

FAR_OFF: Final = 1000.0
"""Inches beyond the table edge no move can reach; a point farther out is a typing
accident (and huge numbers would overflow the geometry's arithmetic)."""
NUMBER: Final = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
"""A number as :func:`num` writes one (and as people type them): ASCII digits, an
optional point and exponent. Python's ``float`` also takes ``nan``, ``inf``,
``1_000`` and other scripts' digits, which no action needs."""
NOT_FINITE: Final = frozenset({"nan", "inf", "infinity"})


def num(value: float) -> str:
    """A float in its shortest exact text form: ``12.0 -> "12"``, ``0.1 -> "0.1"``.

    ``float(num(x)) == x`` for every finite float, ``-0.0`` included (``"-0"``).

    >>> num(12.0), num(10.25), num(-0.5), num(1e-07), num(-0.0)
    ('12', '10.25', '-0.5', '1e-07', '-0')
    """
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def as_coordinate(value: float) -> float:
    """A number as an action holds it: a plain float, ``-0.0`` made ``0.0``.

    The two zeros compare equal, so nothing tells them apart until a record
    stores one as ``0`` and the state's digest (whose JSON keeps the sign)
    differs on replay.

    >>> as_coordinate(-0.0), as_coordinate(3)
    (0.0, 3.0)
    """
    return float(value) + 0.0  # -0.0 + 0.0 is 0.0; every other float is unchanged


def as_facing(value: float) -> float:
    """A facing as an action holds it: degrees in ``[0, 360)``, as a figure stores it.

    ``face 360``, ``face -0`` and ``face 0`` are one move, written ``face 0``.
    A non-finite value is kept (the rules refuse it).

    >>> as_facing(-90), as_facing(360.0), as_facing(-0.0), as_facing(450.5)
    (270.0, 0.0, 0.0, 90.5)
    """
    value = as_coordinate(value)
    return as_coordinate(normalize_angle(value)) if math.isfinite(value) else value


def parse_number(word: str, text: str) -> float:
    """A finite number in plain decimal notation (see :data:`NUMBER`)."""
    if NUMBER.fullmatch(word) is None:
        if word.lower().lstrip("+-") in NOT_FINITE:
            raise ActionSyntaxError(text, f"'{excerpt(word)}' is not a finite number")
        raise ActionSyntaxError(text, f"'{excerpt(word)}' is not a number (write one like 10.5)")
    value = float(word)
    if not math.isfinite(value):  # 1e999
        raise ActionSyntaxError(text, f"'{excerpt(word)}' is not a finite number")
    return value


def parse_point(table: Table, word: str, text: str) -> Point:
    """``X,Y`` in inches; refused if far off ``table`` (see :data:`FAR_OFF`)."""
    x, sep, y = word.partition(",")
    if not sep or not x or not y:
        raise ActionSyntaxError(text, f"'{excerpt(word)}' is not a point; write X,Y (e.g. 10.5,4)")
    point = (parse_number(x, text), parse_number(y, text))
    if not (
        -FAR_OFF <= point[0] <= table.width + FAR_OFF
        and -FAR_OFF <= point[1] <= table.height + FAR_OFF
    ):
        raise ActionSyntaxError(text, f"'{excerpt(word)}' is far off the table; no move reaches it")
    return point


def parse_move_words(
    table: Table,
    words: Sequence[str],
    text: str,
    usage: str,
    max_points: int,
    tail: Sequence[str] = ("face",),
    goes_last: str = "'face DEGREES' goes last",
) -> tuple[tuple[Point, ...], float | None]:
    """The points and facing of a raw move's words after its piece: ``10.5,4 12,8 face 90``.

    ``tail``: the words that go after the points (``face``, and any a ruleset has
    read off the end before this); one among the points is refused saying
    ``goes_last``.
    """
    rest = list(words)
    facing: float | None = None
    if len(rest) >= 2 and rest[-2].lower() == "face":
        facing = parse_number(rest[-1], text)
        rest = rest[:-2]
    if any(a.lower() in tail for a in rest):
        raise ActionSyntaxError(text, f"{goes_last}: {usage}")
    if not rest and facing is None:
        raise ActionSyntaxError(text, "give the points to move to, a facing, or both")
    if len(rest) > max_points:
        raise ActionSyntaxError(text, f"a move has at most {max_points} points")
    return tuple(parse_point(table, a, text) for a in rest), facing


def canonical_move(
    action: object, path: Sequence[Sequence[float]], facing: float | None, max_points: int
) -> tuple[tuple[Point, ...], float | None]:
    """The path and facing of a table move in canonical form, or IllegalAction.

    What the parser refuses, a move made in code may not be either: its text
    could not be read back from a record.
    """
    points = tuple((as_coordinate(x), as_coordinate(y)) for x, y in path)
    if facing is not None:
        facing = as_facing(facing)
    if not points and facing is None:
        raise IllegalAction(action, "give the points to move to, a facing, or both")
    if len(points) > max_points:
        raise IllegalAction(action, f"a move has at most {max_points} points")
    return points, facing


def move_words(path: Sequence[Point], facing: float | None) -> list[str]:
    """The words of a move after its piece: ``10.5,4 12,8 face 90``."""
    words = [f"{num(x)},{num(y)}" for x, y in path]
    if facing is not None:
        words += ["face", num(facing)]
    return words


ANGLE_CONVENTION: Final = "facings in degrees: 0 east, 90 north, 180 west, 270 south"
"""How a facing is read, printed wherever a person is asked for one."""
COMPASS: Final = (
    "east",
    "north-east",
    "north",
    "north-west",
    "west",
    "south-west",
    "south",
    "south-east",
)
"""The eight compass words, counter-clockwise from east (45 degrees apart)."""


def compass_word(degrees: float) -> str:
    """The nearest of the eight compass words to a facing, halves going counter-clockwise.

    >>> compass_word(90.0), compass_word(22.5), compass_word(-22.6)
    ('north', 'north-east', 'south-east')
    """
    return COMPASS[int(((degrees % 360.0) + 22.5) // 45.0) % 8]


def facing_text(degrees: float) -> str:
    """A facing as a person reads it: whole degrees and the nearest compass word.

    >>> facing_text(90.0), facing_text(359.6), facing_text(210.4), facing_text(-45)
    ('90deg north', '0deg east', '210deg south-west', '315deg south-east')
    """
    whole = round(normalize_angle(float(degrees))) % 360
    return f"{whole}deg {COMPASS[round(whole / 45) % 8]}"
