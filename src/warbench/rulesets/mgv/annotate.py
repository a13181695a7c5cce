"""What the pictures draw over an MGV table after an action.

- a move becomes a ``path`` through the points the base's centre went;
- a declared attack becomes a ``sight`` line from the firer's centre post to
  the target's (5.0), labelled with the attack's number and weapon, and the
  firer's arc: 30 degrees each side for kinetic and photon mounts, 60 for a
  missile mount (its off-line reach, 5.0).

Marks are drawn from the state as the viewer sees it (``view.seen_state``): the other
side's bases by eye (5.3), and a move's path as its event tells it, by eye too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warbench.core.events import Event
from warbench.rulesets.mgv.data import rules
from warbench.rulesets.mgv.state import State

ARC_DRAWN = 8.0
"""Inches of arc drawn (ranges are unlimited, 5.0; the picture needs an edge)."""


def annotate(state: State, events: Sequence[Event], side: str | None) -> list[dict[str, Any]]:
    data = rules().data
    marks: list[dict[str, Any]] = []
    for event in events:
        info = event.data
        if event.kind == "move":
            points = [list(p) for p in info.get("path", [])]
            base = state.bases.get(str(info.get("base")))
            if len(points) > 1 and base is not None:
                marks.append({"kind": "path", "points": points, "side": base.side})
        elif event.kind == "declare":
            target = state.bases.get(str(info.get("target")))
            for shooter_id in info.get("shooters", []):
                shooter = state.bases.get(str(shooter_id))
                if shooter is None or target is None:
                    continue
                weapon = str(info.get("weapon"))
                marks.append(
                    {
                        "kind": "sight",
                        "from": [shooter.geo.x, shooter.geo.y],
                        "to": [target.geo.x, target.geo.y],
                        "clear": True,
                        "label": f"{info.get('attack')}: {weapon}",
                    }
                )
                half = data.arc_half_angle + (data.missile_off_line if weapon == "missile" else 0)
                marks.append(
                    {
                        "kind": "arc",
                        "at": [shooter.geo.x, shooter.geo.y],
                        "facing": shooter.geo.facing,
                        "half_angle": half,
                        "range": ARC_DRAWN,
                    }
                )
    return marks


def fire_arcs(state: State, side: str, piece: str) -> list[dict[str, Any]]:
    """The arcs of ``side``'s own base ``piece``: one per weapon it carries (kinetic and
    photon 30 degrees each side, missile wider by its off-line reach, 5.0)."""
    data = rules().data
    base = state.bases.get(piece)
    if base is None or base.side != side or base.destroyed:
        return []
    halves = sorted(
        {
            data.arc_half_angle + (data.missile_off_line if m.weapon == "missile" else 0)
            for m in base.mounts.values()
            if m.weapon is not None
        }
    )
    return [
        {
            "kind": "arc",
            "at": [base.geo.x, base.geo.y],
            "facing": base.geo.facing,
            "half_angle": half,
            "range": ARC_DRAWN,
        }
        for half in halves
    ]
