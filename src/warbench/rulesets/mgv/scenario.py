"""MGV scenario files: schema, checks, and the validated set-up.

A scenario has the common header (``ruleset``, ``title``, ``description``), the
number of ``turns``, a ``[table]`` in inches, two ``[[sides]]``, ``[options]``
(the 5.2 missile core rule chosen before the game, and how photon ranges are
guessed), ``[[bases.<side>]]`` (one table per MGV base: ``id``, ``model`` from
the vehicle sheet, ``at``, ``facing``, an optional ``wing`` pairing two
identical models (1.3), and optional ``weapons`` fixing a mount's weapon type;
every mount left open is chosen by its owner at set-up, 1.5), ``[[features]]``
(terrain: a ``kind`` of the 1.4 chart and a shape) and ``[victory]``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from pydantic import Field, ValidationError

from warbench.errors import ScenarioError, excerpt
from warbench.geometry.table import (
    Feature,
    Figure,
    RoundBase,
    Table,
    TableGeometryError,
    TableSpec,
    Terrain,
)
from warbench.geometry.table.serial import (
    MAX_FEATURES,
    MAX_FIGURES,
    FacingSpec,
    PointSpec,
)
from warbench.rulesets.kit.eye import Measuring
from warbench.rulesets.mgv.data import (
    SLOTS,
    TerrainKind,
    VehicleModel,
    WeaponType,
    terrain_chart,
    vehicles,
)
from warbench.scenario.errors import from_validation, listing
from warbench.scenario.model import Scenario
from warbench.scenario.schema import Description, Key, Label, ScenarioModel, Title
from warbench.scenario.sides import check_sides
from warbench.scenario.table import (
    ID_PATTERN,
    Edge,
    FeatureSpec,
    Ids,
    Placed,
    chart_features,
    check_edge_run,
    toward_centre,
)

RESERVED: Final = frozenset(
    {
        "arm",
        "phase",
        "move",
        "end",
        "range",
        "fire",
        "screen",
        "split",
        "block",
        "mark",
        "none",
        "auto",
        "estimate",
        "beacon",
        "face",
        "main",
        "secondary",
        "all",
    }
)
"""Words of the action language that may not be used as ids."""


class _Strict(ScenarioModel):
    pass


class WeaponsSpec(_Strict):
    main: WeaponType | None = None
    secondary: WeaponType | None = None


class BaseSpec(_Strict):
    """One MGV base: id, model, where it stands and faces, its wing and fixed weapons."""

    id: str = Field(pattern=ID_PATTERN)
    model: Key
    at: PointSpec
    facing: FacingSpec | None = None
    wing: Key | None = None
    weapons: WeaponsSpec = Field(default_factory=WeaponsSpec)


class SideSpec(_Strict):
    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,23}$")
    title: Label | None = None


class OptionsSpec(_Strict):
    core_rule: Literal["a", "b"] = "a"
    """5.2: chosen before the game: (a) core hits must balance surface losses,
    (b) core hits may eat their way round beneath intact surface circles."""
    photon: Literal["guess", "estimate"] = "guess"
    """5.3: players guess photon ranges ("guess"), or every guess is drawn from
    the error model ("estimate")."""
    last_phase: Literal["across_turns", "within_turn"] = "across_turns"
    """5.1's "last phase": the one before, across the turn boundary too (F of one turn
    is the last phase of the next turn's X), or only a phase of the same turn."""
    screen: Literal["base", "attack"] = "base"
    """5.1: a screen defends the screened attack's target base against every attack on
    it ("base", the text's "in defence of a friendly MGV base"), or that one attack."""
    missile_scoring: Literal["totals", "successes"] = "totals"
    """5.2: each colour's pip totals score and block ("totals", the text), or each
    die of 4+ scores or blocks one ("successes")."""
    measuring: Measuring = "eye"
    """5.3: no measuring: other sides' bases are seen by eye (warbench.rulesets.kit.eye);
    "free" shows them exactly."""


class VictorySpec(_Strict):
    kind: Literal["clear", "gauntlet", "strike"] = "clear"
    side: str | None = None
    """gauntlet: the side running it; strike: the side making the strike."""
    edge: Edge | None = None
    """gauntlet: the table edge the runners leave by."""
    count: int = Field(default=1, ge=1, le=MAX_FIGURES)
    """gauntlet: runners that must get off the table by ``edge``."""
    target: str | None = None
    """strike: the base to destroy."""


class ScenarioSpec(_Strict):
    ruleset: str
    title: Title
    description: Description = ""
    turns: int = Field(default=6, ge=1, le=50)
    table: TableSpec
    sides: list[SideSpec] = Field(min_length=2, max_length=2)
    options: OptionsSpec = Field(default_factory=OptionsSpec)
    bases: dict[str, list[BaseSpec]]
    features: list[FeatureSpec] = Field(default_factory=list, max_length=MAX_FEATURES)
    victory: VictorySpec = Field(default_factory=VictorySpec)


@dataclass(frozen=True, slots=True)
class Placement:
    """A base as the scenario sets it up."""

    id: str
    side: str
    model_key: str
    model: VehicleModel
    figure: Figure
    wing: str | None
    weapons: Mapping[str, WeaponType]
    """Mount weapon types fixed by the scenario; the rest are chosen at set-up."""


@dataclass(frozen=True, slots=True, eq=False)
class Setup:
    """Everything an MGV game needs from its scenario, validated."""

    table: Table
    sides: tuple[str, str]
    titles: Mapping[str, str]
    placements: tuple[Placement, ...]
    features: tuple[Feature, ...]
    kinds: Mapping[str, TerrainKind]
    """Each feature's row of the 1.4 chart, by feature id."""
    options: OptionsSpec
    victory: VictorySpec
    turns: int
    terrain: Terrain
    caches: dict[Any, Any] = field(default_factory=dict)

    def placement(self, base_id: str) -> Placement:
        for p in self.placements:
            if p.id == base_id:
                return p
        raise KeyError(base_id)


def _feature(file: str, path: str, ft: FeatureSpec, kind: TerrainKind) -> Feature:
    """The geometry feature of a 1.4 chart row."""
    try:
        return Feature(
            ft.id,
            ft.shape,
            tuple(ft.points),
            radius=ft.radius,
            kind=ft.kind,
            label=ft.label or kind.title,
            move_cost=kind.move,
            impassable=kind.impassable,
            blocks_los=kind.los,
            cover=float(kind.cover),
        )
    except TableGeometryError as exc:
        raise ScenarioError(file, path, str(exc)) from None


def build_setup(raw: Mapping[str, Any], file: str) -> tuple[ScenarioSpec, Setup]:
    """Validate an MGV scenario and build its set-up; ScenarioError on any problem."""
    try:
        spec = ScenarioSpec.model_validate(raw)
    except ValidationError as exc:
        raise from_validation(file, exc) from None
    count = sum(len(b) for b in spec.bases.values())
    if count > MAX_FIGURES:
        raise ScenarioError(
            file, "bases", f"{count:,} bases; a scenario has at most {MAX_FIGURES:,}"
        )
    table = spec.table.build()
    names = [s.name for s in spec.sides]
    check_sides(file, names, spec.bases, key="bases", piece="base")
    chart = terrain_chart().kinds
    models = vehicles().models
    claim = Ids(file, RESERVED).claim

    features, kinds = chart_features(
        file,
        spec.features,
        table,
        chart,
        claim,
        lambda path, ft, kind: _feature(file, path, ft, kind),
    )
    terrain = Terrain(features)

    placements: list[Placement] = []
    placed = Placed(file, table, terrain, piece="base")
    wings: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for side in names:
        for i, bs in enumerate(spec.bases[side]):
            path = f"bases.{side}[{i}]"
            claim(bs.id, f"{path}.id")
            model = models.get(bs.model)
            if model is None:
                raise ScenarioError(
                    file,
                    f"{path}.model",
                    f"unknown model '{excerpt(bs.model)}'; known: {listing(models)}",
                )
            weapons: dict[str, WeaponType] = {}
            for slot in SLOTS:
                chosen = getattr(bs.weapons, slot)
                if chosen is None:
                    continue
                if model.attack(slot) is None:
                    raise ScenarioError(
                        file, f"{path}.weapons.{slot}", f"the {model.title} has no {slot} mount"
                    )
                weapons[slot] = chosen
            at = (float(bs.at[0]), float(bs.at[1]))
            facing = bs.facing if bs.facing is not None else toward_centre(table, at)
            if not math.isfinite(facing):
                raise ScenarioError(file, f"{path}.facing", "must be a number")
            figure = Figure(
                bs.id, at[0], at[1], facing, RoundBase(model.radius * 2.0), side, bs.model
            )
            placed.add(figure, path)
            if bs.wing is not None:
                wings.setdefault((side, bs.wing), []).append((bs.id, bs.model, path))
            placements.append(Placement(bs.id, side, bs.model, model, figure, bs.wing, weapons))
    for (side, wing), members in wings.items():
        path = members[0][2]
        if len(members) != 2:
            raise ScenarioError(
                file,
                f"{path}.wing",
                f"wing '{excerpt(wing)}' of {side} has {len(members)} bases; "
                "a wing pairs two (1.3)",
            )
        if members[0][1] != members[1][1]:
            raise ScenarioError(
                file,
                f"{path}.wing",
                f"wing '{excerpt(wing)}' pairs a {members[0][1]} with a {members[1][1]}; "
                "a wing pairs two identical models (1.3)",
            )
    by_id = {p.id: p for p in placements}
    victory = spec.victory
    if victory.kind == "gauntlet":
        check_edge_run(
            file,
            "gauntlet",
            victory.side,
            victory.edge,
            victory.count,
            names,
            [p.side for p in placements],
        )
    if victory.kind == "strike" and victory.side not in names:
        raise ScenarioError(
            file, "victory.side", f"a strike names the side making it: one of {', '.join(names)}"
        )
    if victory.kind == "strike":
        target = by_id.get(victory.target or "")
        if target is None or target.side == victory.side:
            raise ScenarioError(file, "victory.target", "a strike names an enemy base to destroy")
    setup = Setup(
        table=table,
        sides=(names[0], names[1]),
        titles={s.name: s.title or s.name for s in spec.sides},
        placements=tuple(placements),
        features=tuple(features),
        kinds=kinds,
        options=spec.options,
        victory=victory,
        turns=spec.turns,
        terrain=terrain,
    )
    return spec, setup


def build_scenario(raw: Mapping[str, Any], file: str, scenario_id: str) -> Scenario:
    spec, setup = build_setup(raw, file)
    return Scenario(
        id=scenario_id,
        title=spec.title,
        ruleset="mgv",
        source=file,
        raw=raw,
        sides=setup.sides,
        turn_limit=setup.turns,
        options=spec.options.model_dump(),
        spec=setup,
    )


__all__ = ["Placement", "Setup", "build_scenario", "build_setup"]
