"""What the pictures draw over an Invisible Enemy table after an action.

- a move becomes a ``path`` through the points the base's centre went;
- a shot becomes a ``sight`` line from the firer's centre to the target's (5.0),
  labelled with the hits, and the firer's arc: 22.5 degrees each side for K and
  P weapons, 30 for C, drawn to the weapon's range.

Barrage markers are on the table itself: the view draws them as zones. Marks are
drawn from the state as the viewer sees it (``view.seen_state``): the other side's
bases by eye (3.0), and a move's path as its event tells it, by eye too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warbench.core.events import Event
from warbench.rulesets.invisible_enemy import space
from warbench.rulesets.invisible_enemy.data import rules
from warbench.rulesets.invisible_enemy.state import State


def annotate(state: State, events: Sequence[Event], side: str | None) -> list[dict[str, Any]]:
    marks: list[dict[str, Any]] = []
    for event in events:
        info = event.data
        if event.kind == "move":
            points = [list(p) for p in info.get("path", [])]
            base = state.bases.get(str(info.get("base")))
            if len(points) > 1 and base is not None:
                marks.append({"kind": "path", "points": points, "side": base.side})
        elif event.kind == "fire":
            shooter = state.bases.get(str(info.get("shooter")))
            target = space.aim(state, str(info.get("target")))
            if shooter is None or target is None:
                continue
            marks.append(
                {
                    "kind": "sight",
                    "from": [shooter.geo.x, shooter.geo.y],
                    "to": list(target.centre),
                    "clear": True,
                    "label": f"{shooter.id}: {info.get('hits', 0)} hit(s)",
                }
            )
            marks.append(
                {
                    "kind": "arc",
                    "at": [shooter.geo.x, shooter.geo.y],
                    "facing": shooter.geo.facing,
                    "half_angle": rules().arc(shooter.model.weapon),
                    "range": shooter.model.range,
                }
            )
    return marks


def fire_arcs(state: State, side: str, piece: str) -> list[dict[str, Any]]:
    """The arc of ``side``'s own base ``piece``: its weapon class's arc out to its range."""
    base = state.bases.get(piece)
    if base is None or base.side != side or base.destroyed:
        return []
    return [
        {
            "kind": "arc",
            "at": [base.geo.x, base.geo.y],
            "facing": base.geo.facing,
            "half_angle": rules().arc(base.model.weapon),
            "range": base.model.range,
        }
    ]
