"""Scenario scaffolding the open-table rulesets share (VSGMR, MGV, Invisible Enemy).

Every table scenario file starts with the same header and names its sides alike
(:class:`Header`, :class:`SideSpec`); MGV and Invisible Enemy, two sides of
vehicle bases on a terrain chart, share the rest of the frame too
(:class:`VehicleScenarioSpec`, :class:`EdgeRunVictory`, the set-up of
:class:`VehicleSetup` and :class:`VehiclePlacement`). The steps of reading a file are
the same for all three: :func:`opened` validates it and checks the sides and the
number of pieces, :func:`known_model` looks a base's model up, and
:func:`table_scenario` wraps the set-up as the engine's
:class:`~warbench.scenario.model.Scenario`. What a piece is and what the victory
asks stay each ruleset's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Self, TypeVar

from pydantic import Field, ValidationError

from warbench.errors import ScenarioError, excerpt
from warbench.geometry.table import Feature, Figure, Table, TableSpec, Terrain
from warbench.geometry.table.serial import MAX_FIGURES
from warbench.scenario.errors import from_validation, listing
from warbench.scenario.model import Scenario
from warbench.scenario.schema import Description, Label, ScenarioModel, Title
from warbench.scenario.sides import check_sides
from warbench.scenario.table import Edge, check_edge_run

M = TypeVar("M")
P = TypeVar("P")
K = TypeVar("K")


class Header(ScenarioModel):
    """What every scenario file starts with: its ruleset, title and description."""

    ruleset: str
    title: Title
    description: Description = ""


class SideSpec(ScenarioModel):
    """A side: its name (lower case, used in actions) and the title shown for it."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,23}$")
    title: Label | None = None


class VehicleScenarioSpec(Header):
    """The frame of a two-sided vehicle game (MGV, Invisible Enemy): the header, the
    number of ``turns``, the ``[table]``, two ``[[sides]]`` and ``[options]``; each
    ruleset's spec narrows ``sides`` and ``options`` and adds its forces, its
    ``[[features]]`` and ``[victory]``."""

    turns: int = Field(default=6, ge=1, le=50)
    table: TableSpec
    sides: list[SideSpec] = Field(min_length=2, max_length=2)
    options: ScenarioModel = Field(default_factory=ScenarioModel)


class EdgeRunVictory(ScenarioModel):
    """A victory that may be won by getting bases off the table by one edge (MGV's
    gauntlet, Invisible Enemy's breach: :func:`~warbench.scenario.table.check_edge_run`);
    each ruleset's spec names its ``kind`` of victory."""

    kind: str = "clear"
    side: str | None = None
    """The side getting off the table (MGV's strike: the side making the strike)."""
    edge: Edge | None = None
    """The table edge its bases leave by."""
    count: int = Field(default=1, ge=1, le=MAX_FIGURES)
    """Bases that must get off the table by ``edge``."""

    def check_run(self, file: str, kind: str, names: Sequence[str], pieces: Sequence[str]) -> None:
        """If this is the edge run ``kind`` (gauntlet, breach), check it against the sides
        ``names`` and the side of every piece (``pieces``)."""
        if self.kind == kind:
            check_edge_run(file, kind, self.side, self.edge, self.count, names, pieces)


@dataclass(frozen=True, slots=True)
class VehiclePlacement(Generic[M]):
    """A base as the scenario sets it up: its id, side, model (by key and as read from
    the stats sheet) and its figure on the table."""

    id: str
    side: str
    model_key: str
    model: M
    figure: Figure


@dataclass(frozen=True, slots=True, eq=False, kw_only=True)
class VehicleSetup(Generic[P, K]):
    """What a two-sided vehicle game needs from its scenario, validated (each
    ruleset's ``Setup`` adds its own)."""

    table: Table
    sides: tuple[str, str]
    placements: tuple[P, ...]
    features: tuple[Feature, ...]
    kinds: Mapping[str, K]
    """Each feature's row of the ruleset's terrain chart, by feature id."""
    turns: int
    terrain: Terrain
    caches: dict[Any, Any] = field(default_factory=dict)

    @classmethod
    def framed(
        cls,
        spec: Any,
        table: Table,
        terrain: Terrain,
        kinds: Mapping[str, K],
        placements: Sequence[P],
        **own: Any,
    ) -> Self:
        """The set-up of ``spec`` (a validated :class:`VehicleScenarioSpec`, whose
        ``options`` and ``victory`` it keeps) on ``table`` with ``terrain``, and what
        the ruleset's ``Setup`` adds (``own``)."""
        first, second = (side.name for side in spec.sides)
        own = {"options": spec.options, "victory": spec.victory, **own}
        return cls(
            table=table,
            sides=(first, second),
            placements=tuple(placements),
            features=terrain.features,
            kinds=kinds,
            turns=spec.turns,
            terrain=terrain,
            **own,
        )


S = TypeVar("S", bound=Header)


def opened(
    spec_type: type[S],
    raw: Mapping[str, Any],
    file: str,
    key: str,
    piece: str,
    *,
    counted: str = "bases",
    count: Callable[[S], int] | None = None,
) -> S:
    """The scenario ``raw`` validated as ``spec_type``, its sides checked against its
    forces (the table ``key``, of pieces called ``piece``), and at most
    :data:`MAX_FIGURES` ``counted`` in all (``count``: by default every piece of every
    side); ScenarioError on any problem."""
    try:
        spec = spec_type.model_validate(raw)
    except ValidationError as exc:
        raise from_validation(file, exc) from None
    fields: Any = spec  # a Header with ``sides`` and the forces under ``key``
    forces: Mapping[str, Sequence[Any]] = getattr(fields, key)
    total = sum(len(pieces) for pieces in forces.values()) if count is None else count(spec)
    if total > MAX_FIGURES:
        raise ScenarioError(
            file, key, f"{total:,} {counted}; a scenario has at most {MAX_FIGURES:,}"
        )
    names = [side.name for side in fields.sides]
    check_sides(file, names, forces, key=key, piece=piece)
    return spec


def known_model(models: Mapping[str, M], key: str, file: str, path: str) -> M:
    """The model ``key`` of the stats sheet for the base at ``path``, or the error."""
    model = models.get(key)
    if model is None:
        raise ScenarioError(
            file, f"{path}.model", f"unknown model '{excerpt(key)}'; known: {listing(models)}"
        )
    return model


def table_scenario(
    ruleset: str,
    raw: Mapping[str, Any],
    file: str,
    scenario_id: str,
    spec: Any,
    setup: Any,
    turn_limit: int,
) -> Scenario:
    """The scenario of ``setup`` (with its ``sides``), validated from ``spec`` (a
    :class:`Header` with ``options``)."""
    return Scenario(
        id=scenario_id,
        title=spec.title,
        ruleset=ruleset,
        source=file,
        raw=raw,
        sides=setup.sides,
        turn_limit=turn_limit,
        options=spec.options.model_dump(),
        spec=setup,
    )


__all__ = [
    "EdgeRunVictory",
    "Header",
    "SideSpec",
    "VehiclePlacement",
    "VehicleScenarioSpec",
    "VehicleSetup",
    "known_model",
    "opened",
    "table_scenario",
]
