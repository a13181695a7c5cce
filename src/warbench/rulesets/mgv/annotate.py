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

from warbench.core.events import Event
from warbench.rulesets.kit.table.marks import Mark, event_marks, figure_arc, sight_mark
from warbench.rulesets.mgv.data import rules
from warbench.rulesets.mgv.state import State

ARC_DRAWN = 8.0
"""Inches of arc drawn (ranges are unlimited, 5.0; the picture needs an edge)."""


def annotate(state: State, events: Sequence[Event], side: str | None) -> list[Mark]:
    data = rules().data

    def declared(event: Event) -> list[Mark]:
        if event.kind != "declare":
            return []
        info = event.data
        target = state.bases.get(str(info.get("target")))
        marks: list[Mark] = []
        for shooter_id in info.get("shooters", []):
            shooter = state.bases.get(str(shooter_id))
            if shooter is None or target is None:
                continue
            weapon = str(info.get("weapon"))
            to = [target.geo.x, target.geo.y]
            marks.append(sight_mark(shooter.geo.at, to, f"{info.get('attack')}: {weapon}"))
            half = data.arc_half_angle + (data.missile_off_line if weapon == "missile" else 0)
            marks.append(figure_arc(shooter.geo, half, ARC_DRAWN))
        return marks

    return event_marks(events, state.bases, declared)


def fire_arcs(state: State, side: str, piece: str) -> list[Mark]:
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
    return [figure_arc(base.geo, half, ARC_DRAWN) for half in halves]
