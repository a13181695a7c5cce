"""What the pictures draw over a MiniWars map after an action: moves made and shots fired.

Marks follow the generic contract of :meth:`Ruleset.annotations` (hex labels):

- a move or an advance becomes a ``path`` along a least-cost route from where
  the unit started to where it stopped (the rules check only the cost, not the
  route, so this is one route the unit could have taken, the one the search
  finds first);
- missile fire becomes a ``sight`` line from the shooter to the target, always
  clear (fire is legal only along an open line of sight, Missile Fire),
  labelled ``hit`` or ``miss``.

Melee, rallies and initiative draw nothing: the contract has no mark for them.
MiniWars hides nothing, so every side gets the same marks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warbench.core.events import Event
from warbench.geometry.hexgrid import Hex, HexError, path_to, reachable_with_paths
from warbench.rulesets.miniwars.state import State, Unit


def annotate(state: State, events: Sequence[Event], side: str | None) -> list[dict[str, Any]]:
    """The marks of ``events`` on the map of ``state`` (the state after them)."""
    removed_at = {str(e.data["unit"]): str(e.data["at"]) for e in events if e.kind == "removed"}
    marks: list[dict[str, Any]] = []
    for event in events:
        data = event.data
        if event.kind == "move" and data.get("frm") != data.get("to"):
            unit = state.units[str(data["unit"])]
            route = _route(
                state, unit, Hex.from_label(str(data["frm"])), Hex.from_label(str(data["to"]))
            )
            marks.append({"kind": "path", "points": [h.label for h in route], "side": unit.side})
        elif event.kind == "missile":
            shooter = state.units[str(data["unit"])]
            target = state.units[str(data["target"])]
            target_at = target.pos.label if target.pos else removed_at.get(target.id)
            if shooter.pos is None or target_at is None:
                continue
            marks.append(
                {
                    "kind": "sight",
                    "from": shooter.pos.label,
                    "to": target_at,
                    "clear": True,
                    "label": "hit" if data.get("hit") else "miss",
                }
            )
    return marks


def _route(state: State, unit: Unit, start: Hex, goal: Hex) -> list[Hex]:
    """A least-cost route ``start .. goal`` under the movement rules, as the move was checked.

    Enemy units block and their zones of control stop (Movement); the enemy
    positions are those after the move, which a move does not change. A one-hex
    move beyond the allowance (always allowed) or an advance is a single step.
    """
    if start.distance(goal) <= 1:
        return [start, goal]
    board = state.setup.board
    enemies = [u.pos for u in state.side_units(state.enemy_of(unit.side)) if u.pos is not None]
    stops = {h for p in enemies for h in board.zoc_into[p]}
    budget = unit.type.move * board.charts.half_mp_per_mp
    _, previous = reachable_with_paths(
        start, budget, board.step_cost[unit.type.move_class], set(enemies), stops
    )
    try:
        return path_to(previous, start, goal)
    except HexError:
        return [start, goal]
