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

from warbench.core.events import Event
from warbench.rulesets.invisible_enemy import space
from warbench.rulesets.invisible_enemy.data import rules
from warbench.rulesets.invisible_enemy.state import State
from warbench.rulesets.kit.table.marks import Mark, event_marks, figure_arc, sight_mark


def annotate(state: State, events: Sequence[Event], side: str | None) -> list[Mark]:
    def fired(event: Event) -> list[Mark]:
        if event.kind != "fire":
            return []
        info = event.data
        shooter = state.bases.get(str(info.get("shooter")))
        target = space.aim(state, str(info.get("target")))
        if shooter is None or target is None:
            return []
        hits = f"{shooter.id}: {info.get('hits', 0)} hit(s)"
        arc = figure_arc(shooter.geo, rules().arc(shooter.model.weapon), shooter.model.range)
        return [sight_mark(shooter.geo.at, target.centre, hits), arc]

    return event_marks(events, state.bases, fired)


def fire_arcs(state: State, side: str, piece: str) -> list[Mark]:
    """The arc of ``side``'s own base ``piece``: its weapon class's arc out to its range."""
    base = state.bases.get(piece)
    if base is None or base.side != side or base.destroyed:
        return []
    return [figure_arc(base.geo, rules().arc(base.model.weapon), base.model.range)]
