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
from collections.abc import Callable, Sequence
from typing import Final

from warbench.errors import ActionSyntaxError, IllegalAction, excerpt
from warbench.geometry.table.core import Point, Table, heading, normalize_angle

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


def _near_table(table: Table, point: Point) -> bool:
    return (
        -FAR_OFF <= point[0] <= table.width + FAR_OFF
        and -FAR_OFF <= point[1] <= table.height + FAR_OFF
    )


def parse_point(table: Table, word: str, text: str) -> Point:
    """``X,Y`` in inches; refused if far off ``table`` (see :data:`FAR_OFF`)."""
    x, sep, y = word.partition(",")
    if not sep or not x or not y:
        raise ActionSyntaxError(text, f"'{excerpt(word)}' is not a point; write X,Y (e.g. 10.5,4)")
    point = (parse_number(x, text), parse_number(y, text))
    if not _near_table(table, point):
        raise ActionSyntaxError(text, f"'{excerpt(word)}' is far off the table; no move reaches it")
    return point


def parse_leg(table: Table, word: str, text: str) -> tuple[Point, float | None]:
    """``X,Y`` (the base faces where it goes) or ``X,Y@F`` (it turns to F first and keeps
    that facing on the way: backing up, sidestepping)."""
    where, at, facing = word.partition("@")
    point = parse_point(table, where, text)
    if not at:
        return point, None
    if not facing:
        raise ActionSyntaxError(text, f"'{excerpt(word)}' gives no facing after @; write X,Y@F")
    return point, parse_number(facing, text)


MOVE_STEPS: Final = (
    "STEP: X,Y, X,Y@F (holding facing F), forward IN, reverse|back IN, turn left|right DEG, "
    "toward X,Y"
)
"""The steps of a move, absolute and relative (read against the mover's own place)."""


def move_usage(piece: str, tail: str = "") -> str:
    """The usage line of a table move, its steps listed.

    >>> move_usage("BASE", "[beacon ENEMY]").split(";")[0]
    'move BASE STEP ... [face DEGREES] [beacon ENEMY]'
    """
    words = " ".join(w for w in (f"move {piece} STEP ... [face DEGREES]", tail) if w)
    return f"{words}; {MOVE_STEPS}"


LEG_DECIMALS: Final = 4
"""Places a point reached by relative words is rounded to: short text, and a base that
goes forward or back keeps within a hair of its facing (no turn, no drift)."""

Legs = tuple[tuple[Point, ...], tuple[float | None, ...], float | None]
Pose = tuple[Point, float]
"""A base's centre and facing."""
Clip = Callable[[tuple[Point, ...], tuple[float | None, ...], Point], Point]
"""``toward X,Y``: given the legs so far and the point aimed at, the farthest point
straight toward it that the mover can still afford this move (the ruleset's planner)."""


def _pose_after(start: Pose, path: Sequence[Point], facings: Sequence[float | None]) -> Pose:
    """Where and how a base stands after ``path`` (a leg faces its way unless held)."""
    at, facing = start
    for to, held in zip(path, facings, strict=True):
        if held is not None:
            facing = as_facing(held)
        elif to != at:
            facing = heading(at, to)
        at = to
    return at, facing


def _stepped(at: Point, facing: float, inches: float) -> Point:
    rad = math.radians(facing)
    return (
        as_coordinate(round(at[0] + inches * math.cos(rad), LEG_DECIMALS)),
        as_coordinate(round(at[1] + inches * math.sin(rad), LEG_DECIMALS)),
    )


def _amount(words: Sequence[str], i: int, text: str, usage: str, what: str) -> float:
    """The positive number after a relative word (``forward 2``), or a clear refusal."""
    word = " ".join(words[max(0, i - 1) : i])
    if i >= len(words):
        raise ActionSyntaxError(text, f"'{excerpt(word)}' needs {what} after it: {usage}")
    value = parse_number(words[i], text)
    if value <= 0:
        raise ActionSyntaxError(text, f"'{excerpt(word)} {excerpt(words[i])}': {what} > 0")
    return value


def parse_move_words(
    table: Table,
    words: Sequence[str],
    text: str,
    usage: str,
    max_points: int,
    tail: Sequence[str] = ("face",),
    goes_last: str = "'face DEGREES' goes last",
    *,
    start: Callable[[], Pose] | None = None,
    clip: Clip | None = None,
) -> Legs:
    """The points, per-leg facings and facing of a move's words after its piece.

    Absolute: ``10.5,4 12,8@90 face 90``. Relative (:data:`MOVE_STEPS`), read against
    ``start()`` (the mover's own centre and facing, asked for only if such a word
    comes) and turned into the same absolute legs: ``forward D`` and ``reverse D``
    (or ``back D``) hold the current facing; ``turn left|right A`` changes the facing
    the next ``forward``/``reverse`` holds, or the final facing if nothing follows;
    ``toward X,Y`` goes straight at the point as far as ``clip`` says the move can
    still afford. ``tail``: the words that go after the points (``face``, and any a
    ruleset has read off the end before this); one among them is refused saying
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
    path: list[Point] = []
    facings: list[float | None] = []
    pose: Pose | None = None  # the cursor, once a relative word needs it
    turned = False  # a turn not yet carried by a leg: it becomes the final facing

    def cursor() -> Pose:
        if start is None:
            raise ActionSyntaxError(text, "relative move words need a piece on the table")
        return _pose_after(start(), path, facings) if pose is None else pose

    i = 0
    while i < len(rest):
        word = rest[i].lower()
        if word in ("forward", "reverse", "back"):
            inches = _amount(rest, i + 1, text, usage, "the inches")
            at, heading_ = cursor()
            to = _stepped(at, heading_, inches if word == "forward" else -inches)
            if not _near_table(table, to):
                raise ActionSyntaxError(text, f"'{word} {rest[i + 1]}' goes far off the table")
            path.append(to)
            facings.append(as_facing(heading_))
            pose, turned, i = (to, heading_), False, i + 2
        elif word == "turn":
            side = rest[i + 1].lower() if i + 1 < len(rest) else ""
            if side not in ("left", "right"):
                raise ActionSyntaxError(
                    text, f"'turn' is followed by left or right and the degrees: {usage}"
                )
            degrees = _amount(rest, i + 2, text, usage, "the degrees")
            if degrees > 360:
                raise ActionSyntaxError(text, f"'turn {side} {rest[i + 2]}': at most 360 degrees")
            at, heading_ = cursor()
            pose = (at, as_facing(heading_ + (degrees if side == "left" else -degrees)))
            turned, i = True, i + 3
        elif word in ("toward", "towards"):
            if i + 1 >= len(rest):
                raise ActionSyntaxError(text, f"'{word}' needs a point X,Y after it: {usage}")
            aim = parse_point(table, rest[i + 1], text)
            at, heading_ = cursor()
            to = aim if clip is None else clip(tuple(path), tuple(facings), aim)
            to = (as_coordinate(to[0]), as_coordinate(to[1]))
            if to == at and aim != at:
                raise IllegalAction(
                    text, f"the move cannot afford any of the way toward {excerpt(rest[i + 1])}"
                )
            path.append(to)
            facings.append(None)
            if to != at:
                heading_ = heading(at, to)
            pose, turned, i = (to, heading_), False, i + 2
        elif "," in word:
            point, held = parse_leg(table, rest[i], text)
            path.append(point)
            facings.append(held)
            pose, turned, i = None, False, i + 1
        else:
            raise ActionSyntaxError(
                text,
                f"'{excerpt(rest[i])}' is not a point or a move word; write: {usage}",
            )
        if len(path) > max_points:
            raise ActionSyntaxError(text, f"a move has at most {max_points} points")
    if turned and facing is None:
        assert pose is not None
        facing = pose[1]
    return tuple(path), tuple(facings), facing


def canonical_move(
    action: object,
    path: Sequence[Sequence[float]],
    facing: float | None,
    max_points: int,
    facings: Sequence[float | None] = (),
) -> Legs:
    """The path, per-leg facings and facing of a table move in canonical form, or
    IllegalAction. ``facings``: one per point (None: the leg faces its way), or empty
    for all None; the canonical form has one per point.

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
    if not facings:
        held: tuple[float | None, ...] = (None,) * len(points)
    elif len(facings) != len(points):
        raise IllegalAction(action, "a move holds one facing (or None) per point")
    else:
        held = tuple(None if f is None else as_facing(f) for f in facings)
    return points, held, facing


def move_words(
    path: Sequence[Point], facing: float | None, facings: Sequence[float | None] = ()
) -> list[str]:
    """The words of a move after its piece: ``10.5,4 12,8@90 face 90``."""
    held = list(facings) or [None] * len(path)
    words = [
        f"{num(x)},{num(y)}" + ("" if f is None else f"@{num(f)}")
        for (x, y), f in zip(path, held, strict=True)
    ]
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
