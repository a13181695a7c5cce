"""Free-form table geometry (inches, on shapely): figures, terrain, sight and movement.

Ruleset-independent: nothing here knows a rule system. VSGMR, MGV and Invisible
Enemy build on these pieces.

Conventions
    Lengths in inches. Origin at the table's bottom-left corner, x east (right),
    y north (up). Angles in degrees: facing 0 points east (+x) and angles grow
    counter-clockwise (90 north). Facings are normalised to ``[0, 360)``; signed
    turns are in ``(-180, 180]``, positive to the left.

Pieces
    :class:`Table` (size), :class:`Figure` (an immutable base with a facing:
    :class:`RoundBase` or :class:`RectBase`), :class:`Feature` (terrain: polygon,
    polyline or circle with movement, sight, cover, barrier and height
    properties), :class:`Terrain` (the features of a layout, indexed once) and
    :class:`Scene` (table + terrain + figures: the object queries go through).

Queries
    Distances and contact (:func:`centre_distance`, :func:`edge_distance`,
    :func:`within`, :func:`touching`, :func:`overlapping`), arcs
    (:func:`in_arc`, :func:`bearing`), line of sight with the hidden fraction
    (:meth:`Scene.sight` -> :class:`Sight`), movement along legs with turning
    tables (:meth:`Scene.plan_move` -> :class:`MoveResult`,
    :meth:`Scene.reach_along`), plain data (``to_dict``/``from_dict``, the
    pydantic ``*Spec`` models, :func:`table_view`).

>>> scene = Scene(Table(72, 48), [], [Figure("a", 10.0, 10.0), Figure("b", 10.0, 20.0)])
>>> scene.sight("a", "b").clear, round(edge_distance(scene.figure("a"), scene.figure("b")), 2)
(True, 9.0)
"""

from warbench.geometry.table.core import (
    ANGLE_TOLERANCE,
    EPS,
    TOUCH,
    Point,
    Table,
    TableGeometryError,
    heading,
    normalize_angle,
    segment_distance,
    turn_angle,
)
from warbench.geometry.table.features import CIRCLE_SEGMENTS, Feature, LosBlock, Shape, remains
from warbench.geometry.table.figures import (
    ROUND_SEGMENTS,
    ArcPart,
    Base,
    Figure,
    Measure,
    Place,
    RectBase,
    RoundBase,
    bearing,
    centre_distance,
    edge_distance,
    in_arc,
    overlapping,
    silhouette,
    touching,
    within,
)
from warbench.geometry.table.index import FigureIndex
from warbench.geometry.table.movement import (
    DEFAULT_RULES,
    FREE_TURNS,
    Leg,
    LegStep,
    MoveProblem,
    MoveResult,
    MoveRules,
    PassThrough,
    ProblemKind,
    Reach,
    TurnBand,
    TurningTable,
    TurnStep,
    plan_move,
    reach_along,
)
from warbench.geometry.table.scene import Scene
from warbench.geometry.table.serial import (
    BaseSpec,
    FeatureSpec,
    FigureSpec,
    RectBaseSpec,
    RoundBaseSpec,
    TableSpec,
    feature_view,
    figure_view,
    table_view,
)
from warbench.geometry.table.sight import Sight, compute_sight
from warbench.geometry.table.terrain import Contact, Crossing, Terrain, TrackPiece

__all__ = [
    "ANGLE_TOLERANCE",
    "CIRCLE_SEGMENTS",
    "DEFAULT_RULES",
    "EPS",
    "FREE_TURNS",
    "ROUND_SEGMENTS",
    "TOUCH",
    "ArcPart",
    "Base",
    "BaseSpec",
    "Contact",
    "Crossing",
    "Feature",
    "FeatureSpec",
    "Figure",
    "FigureIndex",
    "FigureSpec",
    "Leg",
    "LegStep",
    "LosBlock",
    "Measure",
    "MoveProblem",
    "MoveResult",
    "MoveRules",
    "PassThrough",
    "Place",
    "Point",
    "ProblemKind",
    "Reach",
    "RectBase",
    "RectBaseSpec",
    "RoundBase",
    "RoundBaseSpec",
    "Scene",
    "Shape",
    "Sight",
    "Table",
    "TableGeometryError",
    "TableSpec",
    "Terrain",
    "TrackPiece",
    "TurnBand",
    "TurnStep",
    "TurningTable",
    "bearing",
    "centre_distance",
    "compute_sight",
    "edge_distance",
    "feature_view",
    "figure_view",
    "heading",
    "in_arc",
    "normalize_angle",
    "overlapping",
    "plan_move",
    "reach_along",
    "remains",
    "segment_distance",
    "silhouette",
    "table_view",
    "touching",
    "turn_angle",
    "within",
]
