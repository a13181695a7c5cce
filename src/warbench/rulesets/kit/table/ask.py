"""What the open-table rulesets' ``ask.py`` modules share (VSGMR, MGV, Invisible Enemy).

``measure`` reads its two words alike everywhere (a point ``X,Y`` or a name the
asking side may know, :func:`measure_spot`), and the reasons ``list`` prints beside
a candidate move follow the same few patterns: a turn on the spot that leaves an
enemy straight ahead faces it (:func:`face_reason`), a move that leaves enemy sight
or ends in cover (:func:`shelter_reason`), one that closes on the nearest enemy
(:func:`toward_reason`). What counts as seeing, cover and distance stays each
ruleset's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

import shapely

from warbench.errors import ActionSyntaxError, QuestionRefused
from warbench.geometry.table import Figure, Point, Table, bearing
from warbench.geometry.table.movement import MoveResult
from warbench.geometry.table.text import parse_point
from warbench.rulesets.kit.table.moves import Plan, planned
from warbench.rulesets.kit.table.phrases import Spot, name_spot, point_spot

FACE_SLACK: Final = 5.0
"""Degrees: a turn that leaves an enemy this near straight ahead is called ``face`` it."""
TOWARD_GAIN: Final = 0.5
"""Inches a move must close on the nearest enemy to be called ``toward`` it."""


def measure_spot(
    table: Table, word: str, spots: Callable[[], Sequence[Spot]], what: str, text: str
) -> Spot:
    """A point ``X,Y`` on the table, or a thing ``spots()`` holds; QuestionRefused otherwise."""
    try:
        if "," in word:
            return point_spot(word, parse_point(table, word, text), "marker")
        return name_spot(word, spots(), what, text)
    except ActionSyntaxError as exc:
        raise QuestionRefused(f"measure {word}: {exc.reason}") from None


def measure_pair(
    table: Table, first: str, second: str, spots: Callable[[], Sequence[Spot]], what: str
) -> tuple[Spot, Spot]:
    """The two different things ``measure FIRST SECOND`` names (:func:`measure_spot`);
    QuestionRefused otherwise."""
    text = f"measure {first} {second}"
    a, b = (
        measure_spot(table, first, spots, what, text),
        measure_spot(table, second, spots, what, text),
    )
    if a.id == b.id:
        raise QuestionRefused(f"{text}: name two different things")
    return a, b


def nearest_point(eye: Point, spot: Spot) -> Point:
    """Where a line from ``eye`` meets ``spot``: a feature's nearest point, else its centre."""
    if spot.kind != "feature":
        return spot.centre
    coords = shapely.get_coordinates(shapely.shortest_line(shapely.Point(eye), spot.shape))
    return (float(coords[-1][0]), float(coords[-1][1]))


def face_reason(end: Figure, enemies: Iterable[tuple[str, Figure]]) -> str | None:
    """``face B2``: the enemy nearest straight ahead of ``end``, within :data:`FACE_SLACK`."""
    aimed = [(abs(bearing(end, geo)), ref) for ref, geo in enemies]
    aimed = [pair for pair in aimed if pair[0] <= FACE_SLACK]
    return f"face {min(aimed)[1]}" if aimed else None


def nearest(found: Iterable[tuple[float, str]]) -> tuple[float, str] | None:
    """The nearest of ``(distance, id)`` pairs, or None if there are none."""
    pairs = list(found)
    return min(pairs) if pairs else None


def toward_reason(was: tuple[float, str] | None, now: tuple[float, str] | None) -> str | None:
    """``toward B2``: the nearest enemy after the move is :data:`TOWARD_GAIN` nearer than
    the nearest was before it."""
    if was and now and now[0] < was[0] - TOWARD_GAIN:
        return f"toward {now[1]}"
    return None


def shelter_reason(open_before: int, after: Callable[[], tuple[int, int]]) -> str | None:
    """``out of sight`` or ``to cover`` for a move that some enemy saw in the open before;
    ``after()`` counts the enemies that see it at the end, and of them those in the open."""
    if not open_before:
        return None
    seen_after, open_after = after()
    if seen_after == 0:
        return "out of sight"
    if open_after == 0:
        return "to cover"
    return None


def move_reason(
    plan: Plan,
    edge_of: Callable[[Any, str], str | None],
    state: Any,
    side: str,
    action: Any,
    more: Callable[[Any, str, Any, Any, MoveResult], str | None],
) -> str | None:
    """The reason of a candidate move of a base (MGV, Invisible Enemy): none if the rules'
    own ``plan`` refuses it, ``off the EDGE edge`` if it leaves the table by the edge
    its side may leave by (``edge_of``), else what ``more(state, side, action, base,
    result)`` finds."""
    found = planned(plan, state, side, action)
    if found is None:
        return None
    base, result = found
    edge = edge_of(state, side)
    if edge is not None and result.off_table:
        return f"off the {edge} edge"
    return more(state, side, action, base, result)


__all__ = [
    "FACE_SLACK",
    "TOWARD_GAIN",
    "face_reason",
    "measure_pair",
    "measure_spot",
    "move_reason",
    "nearest",
    "nearest_point",
    "shelter_reason",
    "toward_reason",
]
