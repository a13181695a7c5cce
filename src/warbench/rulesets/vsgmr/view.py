"""What a side sees of a VSGMR game: the table-view contract plus the round's bookkeeping.

VSGMR hides nothing, so every side (and a spectator) sees the same thing. The
``table``, ``features`` and ``figures`` keys follow the view contract of table
games (``geometry.table.table_view``); items lying on the table and the
places of the scenario's tasks are drawn as small round features (kinds
``item`` and ``task``). A rider is drawn on its mount.
"""

from __future__ import annotations

from typing import Any

from warbench.geometry.table import table_view
from warbench.rulesets.vsgmr.state import Fig, State

ITEM_RADIUS = 0.35
"""Drawing size of an item or task marker (inches)."""


def _status(state: State, fig: Fig) -> list[str]:
    flags: list[str] = []
    if fig.profile.kind == "hero":
        flags.append("hero")
    if fig.where == "mounted":
        flags.append("riding")
    elif fig.profile.is_mount:
        flags.append("ridden" if fig.rider else "riderless")
    if fig.items:
        flags.append("carrying")
    if fig.moved:
        flags.append("moved")
    if fig.attacked:
        flags.append("attacked")
    return flags


def make_view(state: State, side: str | None) -> dict[str, Any]:
    setup = state.setup
    active = [f for f in state.figs.values() if f.active]
    base = table_view(
        setup.table,
        setup.features,
        [f.geo for f in active],
        status={f.id: _status(state, f) for f in active},
    )
    for feature in base["features"]:
        feature["destroyed"] = feature["id"] in state.destroyed
    for item in state.items.values():
        if item.at is not None and not item.gone:
            base["features"].append(
                {
                    "id": item.id,
                    "kind": "item",
                    "shape": "circle",
                    "points": [list(item.at)],
                    "radius": ITEM_RADIUS,
                    "label": item.label + (" (locked)" if item.locked else ""),
                    "blocks_los": "no",
                    "destroyed": False,
                }
            )
    for task in setup.tasks:
        if task.at is not None:
            base["features"].append(
                {
                    "id": task.id,
                    "kind": "task",
                    "shape": "circle",
                    "points": [list(task.at)],
                    "radius": ITEM_RADIUS,
                    "label": task.label,
                    "blocks_los": "no",
                    "destroyed": False,
                }
            )
    # Figures that left the table are listed without a place (renderers list them as
    # "off the table"); defeated ones are not on that list (III: taken away, not gone
    # off an edge) and are named under "defeated".
    gone = [f for f in state.figs.values() if not f.active and f.where != "defeated"]
    for fig in gone:
        base["figures"].append(
            {
                "id": fig.id,
                "side": fig.side,
                "kind": fig.profile.kind,
                "x": None,
                "y": None,
                "facing": None,
                "base": fig.geo.base.to_dict(),
                "status": [fig.where],
                "label": fig.id,
            }
        )
    return {
        "ruleset": "vsgmr",
        "geometry": "table",
        "viewer": side,
        "sides": list(setup.sides),
        "titles": dict(setup.titles),
        "turn": state.round,
        "turn_limit": setup.rounds,
        **base,
        **state.to_json(),
        "tasks": [
            {
                "id": t.id,
                "label": t.label,
                "feature": t.feature,
                "at": list(t.at) if t.at else None,
                "reach": t.reach,
                "effect": t.effect,
                "points": t.points,
                "target": t.target,
                "skill": t.skill,
                "limit": t.limit,
            }
            for t in setup.tasks
        ],
        "options": setup.options.model_dump(),
        "defeated": [f.id for f in state.figs.values() if f.where == "defeated"],
        "profile_names": {
            p.profile.key: p.profile.name for p in setup.placements if p.profile.name
        },
    }
