"""Plain data (round trips, schema errors, the view fragment) and the Scene's figure queries."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from warbench.errors import ScenarioError
from warbench.geometry.table import (
    Feature,
    FeatureSpec,
    Figure,
    FigureIndex,
    FigureSpec,
    RectBase,
    RoundBase,
    Scene,
    Table,
    TableGeometryError,
    TableSpec,
    table_view,
)
from warbench.scenario.errors import from_validation

FEATURES = [
    Feature.circle("wood", (20, 30), 4.0, kind="woods", move_cost=2.0, half_move=True,
                   blocks_los="beyond", cover=1),
    Feature.polygon("house", [(40, 10), (46, 10), (46, 16), (40, 16)], kind="building",
                    label="Farmhouse", impassable=True, blocks_los="yes", height=2.0),
    Feature.polyline("hedge", [(0, 24), (30, 24)], kind="hedge", barrier=True,
                     crossing_cost=1.0, blocks_los="beyond", beyond_reach=1.0),
]  # fmt: skip
FIGURES = [
    Figure("A1", 10.0, 4.5, 90.0, RoundBase(1.0), side="red", kind="troop"),
    Figure("V1", 30.0, 5.0, 45.0, RectBase(2.0, 3.5), side="blue", kind="vehicle"),
]


# -- round trips --------------------------------------------------------------------------


def test_tables_features_and_figures_survive_a_trip_through_json():
    table = Table(72, 48)
    assert Table.from_dict(json.loads(json.dumps(table.to_dict()))) == table
    for feature in FEATURES:
        assert Feature.from_dict(json.loads(json.dumps(feature.to_dict()))) == feature
    for figure in FIGURES:
        assert Figure.from_dict(json.loads(json.dumps(figure.to_dict()))) == figure


def test_a_scenario_feature_needs_only_id_shape_and_points():
    wood = Feature.from_dict({"id": "w", "shape": "circle", "points": [[1, 2]], "radius": 3})
    assert wood.blocks_los == "no" and wood.move_cost == 1.0 and wood.height == 1.0
    guy = Figure.from_dict({"id": "g", "x": 1, "y": 2})
    assert guy.base == RoundBase(1.0) and guy.facing == 0.0


def test_schema_errors_name_the_field_for_scenario_files():
    with pytest.raises(ValidationError) as err:
        FeatureSpec.model_validate(
            {"id": "w", "shape": "polygon", "points": [[0, 0], [1, 0], [1, 1]], "colour": "green"}
        )
    assert "street.toml: colour: unknown field" in str(from_validation("street.toml", err.value))
    with pytest.raises(ValidationError) as err:
        FeatureSpec.model_validate({"id": "w", "shape": "polygon", "points": [[0, 0], [1, 0]]})
    assert "feature 'w': a polygon needs at least 3 points" in str(
        from_validation("street.toml", err.value)
    )
    with pytest.raises(ValidationError) as err2:
        FigureSpec.model_validate({"id": "g", "x": 1, "y": 2, "base": {"shape": "hex"}})
    assert isinstance(from_validation("f.toml", err2.value), ScenarioError)
    with pytest.raises(ValidationError):
        TableSpec.model_validate({"width": -1, "height": 4})


def test_pydantic_models_nest_in_a_rulesets_schema():
    from pydantic import BaseModel

    class Layout(BaseModel):
        table: TableSpec
        features: list[FeatureSpec]
        figures: list[FigureSpec]

    data = {
        "table": {"width": 72, "height": 48},
        "features": [f.to_dict() for f in FEATURES],
        "figures": [f.to_dict() for f in FIGURES],
    }
    layout = Layout.model_validate(data)
    assert [f.build() for f in layout.features] == FEATURES
    assert [f.build() for f in layout.figures] == FIGURES


def test_the_view_fragment_has_the_table_game_view_shape():
    """notes/table-view.md: the "table", "features" and "figures" keys every table ruleset emits."""
    view = table_view(
        Table(72, 48),
        FEATURES,
        FIGURES,
        status={"A1": ["hero", "mounted"]},
        labels={"V1": "Jeep"},
    )
    assert view["table"] == {"width": 72.0, "height": 48.0}
    wood, house, hedge = view["features"]
    assert wood == {
        "id": "wood",
        "kind": "woods",
        "shape": "circle",
        "points": [[20.0, 30.0]],
        "radius": 4.0,
        "blocks_los": "beyond",
        "destroyed": False,
    }
    assert house["label"] == "Farmhouse" and "radius" not in house
    assert hedge["shape"] == "polyline"
    a1, v1 = view["figures"]
    assert a1 == {
        "id": "A1",
        "side": "red",
        "kind": "troop",
        "x": 10.0,
        "y": 4.5,
        "facing": 90.0,
        "base": {"shape": "round", "diameter": 1.0},
        "status": ["hero", "mounted"],
        "label": "A1",
    }
    assert v1["base"] == {"shape": "rect", "width": 2.0, "depth": 3.5}
    assert v1["label"] == "Jeep" and v1["status"] == []
    json.dumps(view)


# -- scene queries ------------------------------------------------------------------------


def test_figures_within_a_distance_nearest_first():
    scene = Scene(
        Table(48, 48),
        [],
        [Figure("a", 10, 10), Figure("b", 14, 10), Figure("c", 12, 10), Figure("d", 30, 30)],
    )
    assert [f.id for f in scene.figures_within("a", 3.0)] == ["c", "b"]
    assert [f.id for f in scene.figures_within("a", 3.0, measure="centre")] == ["c"]
    assert [f.id for f in scene.figures_within((30.0, 31.0), 0.6)] == ["d"]


def test_touching_overlapping_and_figures_at_a_point():
    scene = Scene(
        Table(48, 48), [], [Figure("a", 10, 10), Figure("b", 11, 10), Figure("c", 10.5, 10.5)]
    )
    assert [f.id for f in scene.figures_touching("a")] == ["b", "c"]  # both at gap 0
    assert [f.id for f in scene.figures_overlapping("a")] == ["c"]
    assert [f.id for f in scene.figures_at((10.4, 10.2))] == ["a", "c"]


def test_a_scene_with_a_figure_moved_matches_one_built_afresh():
    figures = [Figure(f"f{i}", i * 2.0, 5.0) for i in range(10)]
    scene = Scene(Table(48, 48), [], figures)
    moved = scene.replaced(figures[3].moved_to((30.0, 30.0)), Figure("new", 1.0, 40.0))
    fresh = FigureIndex(moved.figures)
    assert moved.index.figures == fresh.figures
    assert (moved.index.centres == fresh.centres).all()
    assert [f.id for f in moved.figures_within((30.0, 30.0), 0.1)] == ["f3"]
    assert scene.figure("f3").at == (6.0, 5.0)  # the old scene is untouched
    assert [f.id for f in moved.without("f3").figures_within((30.0, 30.0), 0.1)] == []


def test_figure_ids_are_unique_and_unknown_ones_are_named():
    with pytest.raises(TableGeometryError, match="two figures"):
        Scene(Table(10, 10), [], [Figure("a", 1, 1), Figure("a", 2, 2)])
    with pytest.raises(TableGeometryError, match="no figure 'z'; known: a"):
        Scene(Table(10, 10), [], [Figure("a", 1, 1)]).figure("z")


def test_half_move_terrain_is_found_under_a_base():
    """VSGMR II.2 Rough Terrain: the query behind "half move until completely outside"."""
    scene = Scene(Table(72, 48), FEATURES, [Figure("g", 16.4, 30), Figure("h", 15.4, 30)])
    assert any(f.half_move for f in scene.features_under("g"))
    assert not any(f.half_move for f in scene.features_under("h"))
