"""Plain data for tables, features and figures: pydantic schemas and the view fragment.

Scenario files and ``state_json`` hold plain dicts; these pydantic models
validate them (``extra="forbid"``: a misspelt key is an error that names the
field; see ``scenario/errors.py`` for turning that into a ``ScenarioError``)
and ``build()`` the value objects. Each value object's ``to_dict`` writes the
same shape back, so ``X.from_dict(x.to_dict()) == x``.

A scenario's table might read (TOML):

```toml
[table]
width = 72
height = 48

[[features]]
id = "wood1"
kind = "woods"
shape = "circle"
points = [[20, 30]]
radius = 4
half_move = true
blocks_los = "beyond"
```

:func:`table_view` writes the ``table``, ``features`` and ``figures`` keys of the
view contract for table games (``notes/table-view.md``), so every table
ruleset emits the same shape for the renderers.

>>> base = {"shape": "round", "diameter": 1}
>>> FigureSpec.model_validate({"id": "A1", "x": 1, "y": 2, "base": base}).build()
Figure(id='A1', x=1.0, y=2.0, facing=0.0, base=RoundBase(diameter=1.0), side='', kind='')

The specs are strict (a string or a boolean where a number belongs is refused;
a whole number is fine where a fraction is expected) and refuse NaN and
infinities. The sizes an open-table scenario may have are the constants
below, in one place: :data:`MAX_TABLE_SIZE`, :data:`TABLE_MARGIN`,
:data:`MAX_BASE_SIZE`, :data:`MAX_FIGURES`, :data:`MAX_FEATURES` and
:data:`MAX_FEATURE_POINTS`. The specs bound every number; a ruleset's scenario
checks the counts and whether points lie on (or, for features, near) its table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Final, Literal, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from warbench.geometry.table.core import Point, Table, TableGeometryError
from warbench.geometry.table.features import Feature, LosBlock, Shape
from warbench.geometry.table.figures import MIN_BASE_SIZE, Base, Figure, RectBase, RoundBase

__all__ = [
    "MAX_BASE_SIZE",
    "MAX_FEATURES",
    "MAX_FEATURE_POINTS",
    "MAX_FIGURES",
    "MAX_TABLE_SIZE",
    "TABLE_MARGIN",
    "BaseSpec",
    "Coordinate",
    "Distance",
    "FacingSpec",
    "FeatureSpec",
    "FigureSpec",
    "PointSpec",
    "RectBaseSpec",
    "RoundBaseSpec",
    "TableSpec",
    "off_table_by",
    "table_view",
]

MAX_TABLE_SIZE: Final = 1000.0
"""Inches of a table side (about 25 metres: any room, any club)."""
TABLE_MARGIN: Final = 100.0
"""Inches beyond the table's edge that a feature's points may reach (a road or a
river running off the table); figures, items and tasks stand on the table."""
MAX_BASE_SIZE: Final = 50.0
"""Inches across a base, either way."""
MAX_FIGURES: Final = 2_000
"""Figures in a scenario, every side together."""
MAX_FEATURES: Final = 1_000
"""Terrain features in a scenario (and as many scenario items, and tasks)."""
MAX_FEATURE_POINTS: Final = 1_000
"""Points of one feature's outline."""


def _coordinate(value: float) -> float:
    if not -TABLE_MARGIN <= value <= MAX_TABLE_SIZE + TABLE_MARGIN:
        raise ValueError(
            f"{value:g} is off any table: coordinates run from {-TABLE_MARGIN:g} "
            f"to {MAX_TABLE_SIZE + TABLE_MARGIN:g} inches"
        )
    return value


Coordinate = Annotated[float, AfterValidator(_coordinate)]
"""A coordinate in inches: on a table of the largest size, or within its margin."""
PointSpec = Annotated[tuple[Coordinate, Coordinate], Field(strict=False)]
"""A point ``[x, y]`` (a list in TOML and JSON: the tuple is lax, its numbers strict)."""
Distance = Annotated[float, Field(ge=0, le=MAX_TABLE_SIZE)]
"""A length in inches (a radius, a reach)."""
FacingSpec = Annotated[float, Field(ge=-360, le=360)]
"""A facing in degrees (0 east, counter-clockwise)."""
BaseSize = Annotated[float, Field(ge=MIN_BASE_SIZE, le=MAX_BASE_SIZE)]


def off_table_by(table: Table, point: Point) -> float:
    """How far ``point`` lies outside ``table`` (0.0 on it), in inches along x or y.

    >>> off_table_by(Table(10, 10), (5, 5)), off_table_by(Table(10, 10), (-3, 12))
    (0.0, 3.0)
    """
    x, y = point
    return float(max(0.0, -x, -y, x - table.width, y - table.height))


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


class _BuiltSpec(_Spec):
    """A spec checked by building it: what the geometry refuses (a TableGeometryError)
    is a validation error of the spec."""

    @model_validator(mode="after")
    def _builds(self) -> Self:
        try:
            self.build()
        except TableGeometryError as exc:
            raise ValueError(str(exc)) from None
        return self

    def build(self) -> object:
        raise NotImplementedError


class TableSpec(_Spec):
    """``{"width": 72, "height": 48}`` (inches, each at most :data:`MAX_TABLE_SIZE`)."""

    width: float = Field(gt=0, le=MAX_TABLE_SIZE)
    height: float = Field(gt=0, le=MAX_TABLE_SIZE)

    def build(self) -> Table:
        return Table(self.width, self.height)


class RoundBaseSpec(_Spec):
    shape: Literal["round"]
    diameter: BaseSize

    def build(self) -> RoundBase:
        return RoundBase(self.diameter)


class RectBaseSpec(_Spec):
    shape: Literal["rect"]
    width: BaseSize = Field(description="across the facing")
    depth: BaseSize = Field(description="along the facing")

    def build(self) -> RectBase:
        return RectBase(self.width, self.depth)


BaseSpec = Annotated[RoundBaseSpec | RectBaseSpec, Field(discriminator="shape")]


class FigureSpec(_BuiltSpec):
    """A figure: ``id``, centre ``x``/``y``, ``facing`` (degrees, 0 east, CCW), ``base``."""

    id: str = Field(min_length=1)
    x: Coordinate
    y: Coordinate
    facing: FacingSpec = 0.0
    base: BaseSpec = RoundBaseSpec(shape="round", diameter=1.0)
    side: str = ""
    kind: str = ""

    def build(self) -> Figure:
        base: Base = self.base.build()
        return Figure(self.id, self.x, self.y, self.facing, base, self.side, self.kind)


class FeatureSpec(_BuiltSpec):
    """A terrain feature; see :class:`~warbench.geometry.table.features.Feature`."""

    id: str = Field(min_length=1)
    shape: Shape
    points: list[PointSpec] = Field(min_length=1, max_length=MAX_FEATURE_POINTS)
    radius: Distance = 0.0
    kind: str = ""
    label: str = ""
    move_cost: Distance = 1.0
    impassable: bool = False
    half_move: bool = False
    blocks_los: LosBlock = "no"
    beyond_reach: Distance = 0.0
    see_depth: Distance | None = None
    cover: float = Field(default=0.0, ge=-MAX_TABLE_SIZE, le=MAX_TABLE_SIZE)
    barrier: bool = False
    crossing_cost: Distance | None = None
    height: float = Field(default=1.0, ge=-MAX_TABLE_SIZE, le=MAX_TABLE_SIZE)
    destroyed: bool = False
    holes: list[Annotated[list[PointSpec], Field(min_length=3, max_length=MAX_FEATURE_POINTS)]] = (
        Field(default_factory=list, max_length=MAX_FEATURE_POINTS)
    )
    """Rings cut out of a polygon (what a blast or an engineer cleared inside it)."""

    def build(self) -> Feature:
        return Feature(
            self.id,
            self.shape,
            tuple(self.points),
            radius=self.radius,
            kind=self.kind,
            label=self.label,
            move_cost=self.move_cost,
            impassable=self.impassable,
            half_move=self.half_move,
            blocks_los=self.blocks_los,
            beyond_reach=self.beyond_reach,
            see_depth=self.see_depth,
            cover=self.cover,
            barrier=self.barrier,
            crossing_cost=self.crossing_cost,
            height=self.height,
            destroyed=self.destroyed,
            holes=tuple(tuple(ring) for ring in self.holes),
        )


def feature_view(feature: Feature) -> dict[str, Any]:
    """One entry of ``view["features"]`` (the renderer's shape)."""
    out: dict[str, Any] = {
        "id": feature.id,
        "kind": feature.kind,
        "shape": feature.shape,
        "points": [[x, y] for x, y in feature.points],
    }
    if feature.shape == "circle":
        out["radius"] = feature.radius
    if feature.holes:
        out["holes"] = [[[x, y] for x, y in ring] for ring in feature.holes]
    if feature.label:
        out["label"] = feature.label
    out["blocks_los"] = feature.blocks_los
    out["destroyed"] = feature.destroyed
    return out


def figure_view(
    figure: Figure, status: Sequence[str] = (), label: str | None = None
) -> dict[str, Any]:
    """One entry of ``view["figures"]`` (the renderer's shape)."""
    return {
        "id": figure.id,
        "side": figure.side,
        "kind": figure.kind,
        "x": figure.x,
        "y": figure.y,
        "facing": figure.facing,
        "base": figure.base.to_dict(),
        "status": list(status),
        "label": label if label is not None else figure.id,
    }


def table_view(
    table: Table,
    features: Iterable[Feature],
    figures: Iterable[Figure],
    *,
    status: Mapping[str, Sequence[str]] | None = None,
    labels: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The ``table``, ``features`` and ``figures`` keys of a table game's view.

    ``status`` and ``labels`` map figure ids to their free-text flags
    ("hero", "mounted") and display labels (default: the id). Merge the result
    into the ruleset's own view dict.

    >>> v = table_view(Table(48, 48), [], [Figure("A1", 10.0, 4.5, 90.0, side="red")])
    >>> v["table"], v["figures"][0]["base"]
    ({'width': 48.0, 'height': 48.0}, {'shape': 'round', 'diameter': 1.0})
    """
    status = status or {}
    labels = labels or {}
    return {
        "table": table.to_dict(),
        "features": [feature_view(f) for f in features],
        "figures": [figure_view(f, status.get(f.id, ()), labels.get(f.id)) for f in figures],
    }
