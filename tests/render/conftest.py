"""Fixtures of the render tests: a hand-made table view following the table contract.

No table ruleset exists yet when these tests are written, so the view is
written out here as a table ruleset's ``view`` must return it (see
``warbench.render.svg``): a 48" x 36" table, terrain of every shape, figures on
round and rectangular bases, one off the table; and overlay marks of each kind.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

TABLE_VIEW: dict[str, Any] = {
    "ruleset": "handmade",
    "geometry": "table",
    "turn": 2,
    "turn_limit": 5,
    "phase": "distance attacks",
    "sides": ["red", "blue"],
    "titles": {"red": "The Red Company", "blue": "The Blue Watch"},
    "table": {"width": 48.0, "height": 36.0},
    "features": [
        {
            "id": "house1",
            "kind": "building",
            "shape": "polygon",
            "points": [[10, 20], [16, 20], [16, 26], [10, 26]],
            "label": "House",
            "blocks_los": "yes",
        },
        {
            "id": "woods1",
            "kind": "woods",
            "shape": "polygon",
            "points": [[28, 6], [38, 4], [42, 12], [34, 16], [27, 12]],
            "label": "Copse",
            "blocks_los": "beyond",
        },
        {
            "id": "pond",
            "kind": "water",
            "shape": "circle",
            "points": [[40, 28]],
            "radius": 3.0,
            "label": "Pond",
            "blocks_los": "no",
        },
        {
            "id": "road1",
            "kind": "road",
            "shape": "polyline",
            "points": [[0, 18], [20, 16], [48, 18]],
            "blocks_los": "no",
        },
        {
            "id": "wall1",
            "kind": "wall",
            "shape": "polyline",
            "points": [[20, 22], [26, 28]],
            "blocks_los": "no",
        },
        {
            "id": "ruin",
            "kind": "building",
            "shape": "polygon",
            "points": [[4, 4], [8, 4], [8, 8], [4, 8]],
            "label": "Barn",
            "destroyed": True,
        },
    ],
    "figures": [
        {
            "id": "A1",
            "side": "red",
            "kind": "troop",
            "x": 12.0,
            "y": 12.0,
            "facing": 0.0,
            "base": {"shape": "round", "diameter": 1.0},
            "status": [],
        },
        {
            "id": "A2",
            "side": "red",
            "kind": "hero",
            "x": 14.0,
            "y": 10.0,
            "facing": 45.0,
            "base": {"shape": "round", "diameter": 1.0},
            "status": ["hero"],
            "label": "Hero A2",
        },
        {
            "id": "C1",
            "side": "red",
            "kind": "cavalry",
            "x": 20.0,
            "y": 30.0,
            "facing": 270.0,
            "base": {"shape": "rect", "width": 1.0, "depth": 2.0},
            "status": ["mounted"],
        },
        {
            "id": "B1",
            "side": "blue",
            "kind": "troop",
            "x": 36.0,
            "y": 20.0,
            "facing": 180.0,
            "base": {"shape": "round", "diameter": 1.0},
            "status": ["hero", "pinned"],
        },
        {
            "id": "V1",
            "side": "blue",
            "kind": "vehicle",
            "x": 44.0,
            "y": 8.0,
            "facing": 135.0,
            "base": {"shape": "rect", "width": 2.0, "depth": 3.0},
            "status": [],
        },
        {
            "id": "B2",
            "side": "blue",
            "kind": "troop",
            "x": None,
            "y": None,
            "facing": 0.0,
            "base": {"shape": "round", "diameter": 1.0},
            "status": [],
        },
    ],
}

TABLE_MARKS: list[dict[str, Any]] = [
    {"kind": "path", "points": [[6, 10], [10, 12], [12, 12]], "side": "red"},
    {"kind": "sight", "from": [12, 12], "to": [36, 20], "clear": True, "label": "hit"},
    {"kind": "sight", "from": [14, 10], "to": [44, 8], "clear": False},
    {"kind": "arc", "at": [12, 12], "facing": 0.0, "half_angle": 45.0, "range": 12.0},
]


@pytest.fixture
def table_view() -> dict[str, Any]:
    """A fresh copy of the hand-made table view (tests may change it)."""
    return copy.deepcopy(TABLE_VIEW)


@pytest.fixture
def table_marks() -> list[dict[str, Any]]:
    """One overlay mark of each kind, in table inches, matching ``table_view``."""
    return copy.deepcopy(TABLE_MARKS)
