"""The marks the open-table pictures draw, built alike for VSGMR, MGV and Invisible Enemy.

A ``path`` through the points a piece's centre went, a ``sight`` line from a firer to
its target, and an ``arc`` of fire; :func:`event_marks` walks the events of an action
for MGV and Invisible Enemy, whose moves are a base's path, and asks the ruleset for
the marks of every other event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from warbench.core.events import Event
from warbench.geometry.table import Figure

Mark = dict[str, Any]


class _Sided(Protocol):
    @property
    def side(self) -> str: ...


def path_mark(points: Sequence[Sequence[float]], side: Any) -> list[Mark]:
    """The path through ``points`` (none for a turn on the spot), in ``side``'s colour."""
    if len(points) <= 1:
        return []
    return [{"kind": "path", "points": [list(p) for p in points], "side": side}]


def sight_mark(
    start: Sequence[float], end: Sequence[float], label: str, clear: bool = True
) -> Mark:
    return {"kind": "sight", "from": list(start), "to": list(end), "clear": clear, "label": label}


def arc_mark(at: Sequence[float], facing: float, half_angle: float, reach: float) -> Mark:
    return {
        "kind": "arc",
        "at": list(at),
        "facing": facing,
        "half_angle": half_angle,
        "range": reach,
    }


def figure_arc(figure: Figure, half_angle: float, reach: float) -> Mark:
    """The arc of fire of ``figure``, from its centre along its facing."""
    return arc_mark([figure.x, figure.y], figure.facing, half_angle, reach)


def event_marks(
    events: Sequence[Event], bases: Mapping[str, _Sided], marks_of: Callable[[Event], list[Mark]]
) -> list[Mark]:
    """The marks of ``events`` in order: a ``move`` the path of its ``base`` (one of
    ``bases``, else none), any other event the marks ``marks_of`` gives it."""
    marks: list[Mark] = []
    for event in events:
        if event.kind == "move":
            base = bases.get(str(event.data.get("base")))
            if base is not None:
                marks += path_mark(event.data.get("path", []), base.side)
        else:
            marks += marks_of(event)
    return marks


__all__ = ["Mark", "arc_mark", "event_marks", "figure_arc", "path_mark", "sight_mark"]
