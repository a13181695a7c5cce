"""What a side may learn about a point of an open table, read from its view (``info 10,4``).

Shared by the table rulesets' ``unit_info``: the view's ``features`` and
``figures`` (the table-view contract of :func:`warbench.geometry.table.table_view`)
are all it reads, so it can never tell what the view does not hold: a figure the
side sees by eye (``by_eye``, :mod:`warbench.rulesets.kit.eye`) is told where the eye
sees it. Where the view says no distance may be shown now (``positions``: a range
is being guessed, markers set down by hand), none is given.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from warbench.errors import QuestionRefused, excerpt
from warbench.geometry.table.core import segment_distance
from warbench.geometry.table.text import facing_text, num

if TYPE_CHECKING:
    from warbench.scenario.model import Scenario

POINT: Final = re.compile(r"^\s*(-?[0-9]+(?:\.[0-9]+)?)\s*,\s*(-?[0-9]+(?:\.[0-9]+)?)\s*$")
NEAR: Final = 3.0
"""Figures within this many inches (centre to centre) of a point asked about are listed."""
SHOWN_NAMES: Final = 16

Point = tuple[float, float]


def parse_point(ref: str) -> Point | None:
    """``"10.5,4"`` as a point, or None if ``ref`` is not written as one."""
    match = POINT.match(ref)
    return (float(match.group(1)), float(match.group(2))) if match else None


def _in_polygon(point: Point, corners: Sequence[Sequence[float]]) -> bool:
    x, y = point
    inside = False
    count = len(corners)
    for i in range(count):
        x1, y1 = corners[i]
        x2, y2 = corners[(i + 1) % count]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


LINE_REACH: Final = 0.5
"""A point this close to a line feature (a wall, a hedge) counts as on it."""


def feature_at(feature: Mapping[str, Any], point: Point) -> bool:
    """Whether ``point`` lies on the feature (inside its area, within its circle, or
    within :data:`LINE_REACH` of its line)."""
    corners = feature["points"]
    shape = feature["shape"]
    if shape == "circle":
        cx, cy = corners[0]
        return math.hypot(point[0] - cx, point[1] - cy) <= float(feature["radius"])
    if shape == "polygon":
        return _in_polygon(point, corners)
    return any(segment_distance(point, a, b) <= LINE_REACH for a, b in itertools.pairwise(corners))


def feature_name(feature: Mapping[str, Any]) -> str:
    label = feature.get("label") or feature["id"]
    return f"{label} ({feature['id']}, {str(feature['kind']).replace('_', ' ')})"


def sight_words(blocks: object) -> str:
    return {
        "yes": "blocks sight",
        "beyond": "blocks sight beyond it",
        "no": "does not block sight",
    }.get(str(blocks), f"sight: {blocks}")


def measuring_forbidden(view: Mapping[str, Any]) -> str | None:
    """Why no distance may be shown now (the view's ``positions`` note), or None."""
    note = view.get("positions")
    return str(note) if note else None


def position_text(view: Mapping[str, Any], figure: Mapping[str, Any]) -> str:
    """``at 18,2 facing 90deg north`` (to the whole inch when measuring is forbidden)."""
    where = f"at {num(float(figure['x']))},{num(float(figure['y']))}"
    cell = figure.get("by_eye")
    if cell:
        where += f' (by eye: somewhere in the {num(float(cell))}" square around it)'
    return f"{where}, facing {facing_text(float(figure['facing']))}"


def point_lines(view: Mapping[str, Any], point: Point, extra: Sequence[str] = ()) -> list[str]:
    """The features at ``point`` and the figures near it, as the view shows them."""
    table = view["table"]
    x, y = point
    lines = [f"point {num(x)},{num(y)} (inches from the bottom-left corner)"]
    if not (0 <= x <= float(table["width"]) and 0 <= y <= float(table["height"])):
        lines.append(
            f"off the table ({num(float(table['width']))} by {num(float(table['height']))} inches)"
        )
    here = [
        f"{feature_name(f)}, {sight_words(f.get('blocks_los'))}"
        for f in view.get("features", [])
        if not f.get("destroyed") and feature_at(f, point)
    ]
    lines.append("features here: " + ("; ".join(here) if here else "none (open ground)"))
    lines.extend(extra)
    rough = measuring_forbidden(view)
    if rough:
        lines.append(f"no distances now: {rough}")
        return lines
    near = sorted(
        (math.hypot(float(f["x"]) - x, float(f["y"]) - y), str(f["id"]), str(f["side"]))
        for f in view.get("figures", [])
        if f.get("x") is not None
    )
    close = [f'{fid} ({side}) {d:.1f}"' for d, fid, side in near if d <= NEAR]
    lines.append(
        f'figures within {num(NEAR)}" (centre to centre): '
        + (", ".join(close) if close else "none")
    )
    return lines


def refuse(ref: str, names: Sequence[str], what: str = "figure") -> None:
    """Raise QuestionRefused: ``ref`` names no visible figure and is no point."""
    shown = ", ".join(names[:SHOWN_NAMES])
    more = len(names) - SHOWN_NAMES
    if more > 0:
        shown += f" and {more} more"
    raise QuestionRefused(
        f"no {what} '{excerpt(ref)}' here; ask about a {what} ({shown}) "
        "or a point X,Y in inches (e.g. 10.5,4)"
    )


def find_row(rows: Sequence[Mapping[str, Any]], ref: str) -> Mapping[str, Any] | None:
    """The view's row whose id is ``ref`` (any case), or None."""
    return next((r for r in rows if str(r["id"]).lower() == ref.lower()), None)


def placed_text(view: Mapping[str, Any], figure: Mapping[str, Any]) -> str:
    """:func:`position_text`, then the base's size where it is round."""
    size = figure["base"].get("diameter")
    return position_text(view, figure) + (f'; base {num(float(size))}" across' if size else "")


def description_lines(scenario: Scenario) -> list[str]:
    """The scenario's description on one line, or nothing (the first line of ``goal``)."""
    text = scenario.raw.get("description")
    return [" ".join(str(text).split())] if text else []


def exit_race_lines(
    sides: Sequence[str], runner: str | None, count: int, edge: str, turns: int, left: str
) -> list[str]:
    """How a race off the table is won (MGV gauntlet, Invisible Enemy breach) between two
    ``sides``, ``runner`` (default: the first) against the other; ``left`` says which of
    the runner's bases can still make it (``in its hands``)."""
    first, second = sides
    runner = runner or first
    holder = second if runner == first else first
    return [
        f"{runner} wins as soon as {count} of its bases have left the table by the {edge} edge.",
        f"{holder} wins as soon as too few {runner} bases are left {left} to make it, "
        f"or if fewer than {count} are through when turn {turns} is over.",
    ]


def points_line(
    turns: int, sides: Sequence[str], worth: Iterable[tuple[str, int]], destroyed: str
) -> str:
    """How the last turn is scored by points of enemy bases ``destroyed``; ``worth``: each
    placed base's side and points."""
    total = dict.fromkeys(sides, 0)
    for side, points in worth:
        if side in total:
            total[side] += points
    first, second = sides
    return (
        f"When turn {turns} is over, the side that {destroyed} more points of enemy bases "
        f"wins; equal points are a draw ({first}'s bases are worth {total[first]}, "
        f"{second}'s {total[second]})."
    )


Told = Callable[[Mapping[str, Any]], list[str]]
"""How a row of the view is told, line by line."""


def info_of(
    view: Mapping[str, Any],
    ref: str,
    kinds: Sequence[tuple[str, Told]],
    names: Callable[[], Sequence[str]],
    what: str,
    near: Callable[[Point], Sequence[str]] = lambda point: (),
) -> list[str]:
    """What the view's side may know of ``ref`` (a table ruleset's ``unit_info``): the
    first row named ``ref`` among the view's tables ``kinds`` (each with how its row is
    told), in order; else a point ``X,Y`` (:func:`point_lines`, with what is ``near``
    it); else QuestionRefused listing ``names()`` (things of kind ``what``)."""
    for key, told in kinds:
        row = find_row(view.get(key, []), ref)
        if row is not None:
            return told(row)
    point = parse_point(ref)
    if point is not None:
        return point_lines(view, point, near(point))
    refuse(ref, names(), what)
    raise AssertionError("unreachable")  # pragma: no cover


def feature_lines(feature: Mapping[str, Any]) -> list[str]:
    """A feature's name and how it blocks sight."""
    return [f"{feature_name(feature)}, {sight_words(feature.get('blocks_los'))}"]


def base_info(
    view: Mapping[str, Any],
    ref: str,
    base_lines: Told,
    more: Sequence[tuple[str, Told]] = (),
    near: Callable[[Point], Sequence[str]] = lambda point: (),
) -> list[str]:
    """``unit_info`` on a table of vehicle bases (MGV, Invisible Enemy): a base (told by
    ``base_lines``), a row of the view's tables ``more``, a feature, or a point (with what
    is ``near`` it), as :func:`info_of`; else QuestionRefused listing the bases on the
    table."""
    kinds = (("bases", base_lines), *more, ("features", feature_lines))
    return info_of(view, ref, kinds, lambda: bases_on_table(view), "base", near)


def bases_on_table(view: Mapping[str, Any]) -> list[str]:
    """The ids of the view's bases still on the table (MGV, Invisible Enemy)."""
    return [str(b["id"]) for b in view["bases"] if not b["destroyed"] and not b["exited"]]
