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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import Field

from warbench.errors import ScenarioError, excerpt
from warbench.geometry.table import (
    Feature,
    RoundBase,
    Terrain,
)
from warbench.geometry.table.serial import (
    MAX_FEATURES,
    FacingSpec,
    PointSpec,
)
from warbench.rulesets.kit.eye import Measuring
from warbench.rulesets.kit.table.scenario import (
    EdgeRunVictory,
    VehiclePlacement,
    VehicleScenarioSpec,
    VehicleSetup,
    known_model,
    opened,
    table_scenario,
)
from warbench.rulesets.mgv.data import (
    SLOTS,
    TerrainKind,
    VehicleModel,
    WeaponType,
    terrain_chart,
    vehicles,
)
from warbench.scenario.model import Scenario
from warbench.scenario.schema import Key, ScenarioModel
from warbench.scenario.table import (
    ID_PATTERN,
    FeatureSpec,
    Ids,
    Placed,
    chart_feature,
    chart_features,
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


class VictorySpec(EdgeRunVictory):
    kind: Literal["clear", "gauntlet", "strike"] = "clear"
    target: str | None = None
    """strike: the base to destroy."""


class ScenarioSpec(VehicleScenarioSpec):
    options: OptionsSpec = Field(default_factory=OptionsSpec)
    bases: dict[str, list[BaseSpec]]
    features: list[FeatureSpec] = Field(default_factory=list, max_length=MAX_FEATURES)
    victory: VictorySpec = Field(default_factory=VictorySpec)


@dataclass(frozen=True, slots=True)
class Placement(VehiclePlacement[VehicleModel]):
    """A base as the scenario sets it up."""

    wing: str | None
    weapons: Mapping[str, WeaponType]
    """Mount weapon types fixed by the scenario; the rest are chosen at set-up."""


@dataclass(frozen=True, slots=True, eq=False, kw_only=True)
class Setup(VehicleSetup[Placement, TerrainKind]):
    """Everything an MGV game needs from its scenario, validated."""

    titles: Mapping[str, str]
    options: OptionsSpec
    victory: VictorySpec

    def placement(self, base_id: str) -> Placement:
        for p in self.placements:
            if p.id == base_id:
                return p
        raise KeyError(base_id)


def _feature(file: str, path: str, ft: FeatureSpec, kind: TerrainKind) -> Feature:
    """The geometry feature of a 1.4 chart row."""
    return chart_feature(
        file,
        path,
        ft,
        kind,
        impassable=kind.impassable,
        blocks_los=kind.los,
        cover=float(kind.cover),
    )


def build_setup(raw: Mapping[str, Any], file: str) -> tuple[ScenarioSpec, Setup]:
    """Validate an MGV scenario and build its set-up; ScenarioError on any problem."""
    spec = opened(ScenarioSpec, raw, file, "bases", "base")
    table = spec.table.build()
    names = [s.name for s in spec.sides]
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
            model = known_model(models, bs.model, file, path)
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
            base = RoundBase(model.radius * 2.0)
            figure = placed.place(path, bs.id, bs.at, bs.facing, base, side, bs.model)
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
    victory.check_run(file, "gauntlet", names, [p.side for p in placements])
    if victory.kind == "strike" and victory.side not in names:
        raise ScenarioError(
            file, "victory.side", f"a strike names the side making it: one of {', '.join(names)}"
        )
    if victory.kind == "strike":
        target = by_id.get(victory.target or "")
        if target is None or target.side == victory.side:
            raise ScenarioError(file, "victory.target", "a strike names an enemy base to destroy")
    titles = {s.name: s.title or s.name for s in spec.sides}
    setup = Setup.framed(spec, table, terrain, kinds, placements, titles=titles)
    return spec, setup


def build_scenario(raw: Mapping[str, Any], file: str, scenario_id: str) -> Scenario:
    spec, setup = build_setup(raw, file)
    return table_scenario("mgv", raw, file, scenario_id, spec, setup, setup.turns)


__all__ = ["Placement", "Setup", "build_scenario", "build_setup"]
