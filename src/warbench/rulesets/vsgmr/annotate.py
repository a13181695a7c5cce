"""What the pictures draw over a VSGMR table after an action.

- a move becomes a ``path`` through the points the figure's centre went
  (its start first), in its side's colour;
- a distance attack becomes a ``sight`` line from the attacker's centre to the
  target (a figure's centre, or the aimed-at point of a feature), ``clear``
  unless a dispute roll found the target unseen, labelled with the result,
  and the attacker's front ``arc`` out to the Distance Attack Unit as the rule
  measures it (edge to edge: the wedge from the centre reaches the unit beyond
  the base's front; centre to centre under ``range_from = "centre"``);
- a hand to hand attack becomes a short ``sight`` line labelled ``hand``.

VSGMR hides nothing, so every side gets the same marks.
"""

from __future__ import annotations

from collections.abc import Sequence

from warbench.core.events import Event
from warbench.geometry.table import RectBase, RoundBase
from warbench.rulesets.kit.table.marks import Mark, arc_mark, figure_arc, path_mark, sight_mark
from warbench.rulesets.vsgmr.state import Fig, State


def _front(state: State, fig: Fig | None) -> float:
    """Inches from the centre to the front of the base: the wedge is drawn from the
    centre, and range is measured edge to edge (ruling 10), so it reaches the Distance
    Attack Unit beyond the base's front (exact ahead; a round base all round)."""
    if fig is None or state.setup.options.range_from == "centre":
        return 0.0
    base = fig.geo.base
    if isinstance(base, RoundBase):
        return float(base.radius)
    return float(base.depth) / 2.0 if isinstance(base, RectBase) else 0.0


def annotate(state: State, events: Sequence[Event], side: str | None) -> list[Mark]:
    """The marks of ``events`` (those of the last action) on the table of ``state``."""
    rules = state.setup.rules
    marks: list[Mark] = []
    facings: dict[str, float] = {}
    for event in events:
        data = event.data
        if event.kind == "move":
            marks += path_mark(data.get("path", []), data.get("side"))
            facings[str(data["figure"])] = float(data["facing"])
        elif event.kind == "attack":
            start = data.get("sight_from")
            end = data.get("sight_to")
            if start is None or end is None:
                continue
            hand = bool(data.get("hand"))
            result = str(data.get("result", ""))
            label = f"hand: {result}" if hand else result
            marks.append(sight_mark(start, end, label, bool(data.get("clear", True))))
            if not hand:
                fig = state.figs.get(str(data.get("figure")))
                facing = fig.geo.facing if fig is not None else 0.0
                facing = facings.get(str(data.get("figure")), facing)
                reach = rules.range + _front(state, fig)
                marks.append(arc_mark(start, facing, rules.facing_half_angle, reach))
    return marks


def fire_arcs(state: State, side: str, piece: str) -> list[Mark]:
    """The front arc of ``side``'s own figure ``piece`` out to the Distance Attack Unit,
    if it can make distance attacks."""
    fig = state.figs.get(piece)
    if fig is None or fig.side != side or fig.where != "table" or not fig.profile.distance:
        return []
    rules = state.setup.rules
    return [figure_arc(fig.geo, rules.facing_half_angle, rules.range + _front(state, fig))]
