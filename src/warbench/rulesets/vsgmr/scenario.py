"""VSGMR scenario files: schema, checks, and the validated set-up.

A scenario has the common header (``ruleset``, ``title``, ``description``), the
number of ``rounds`` (5 in the text), a ``[table]`` in inches, ``[[sides]]`` in
seating order (play passes to the left, which is the next side listed),
``[profiles.<key>]`` (what a kind of figure is and can do), ``[[figures.<side>]]``
(one table per figure: ``id``, ``profile`` or ``type``, ``at``, ``facing``,
``riding``), ``[[features]]`` (terrain), ``[[items]]`` (scenario items),
``[[tasks]]`` (what skill rolls can do here), ``[options]`` and ``[victory]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, Literal

from pydantic import Field

from warbench.errors import ScenarioError, excerpt
from warbench.geometry.table import (
    Base,
    Feature,
    Figure,
    Point,
    Table,
    TableSpec,
    Terrain,
)
from warbench.geometry.table.serial import (
    MAX_FEATURES,
    MAX_FIGURES,
    BaseSpec,
    Distance,
    FacingSpec,
    PointSpec,
)
from warbench.rulesets.kit.table.scenario import Header, opened, table_scenario
from warbench.rulesets.kit.table.scenario import SideSpec as TableSideSpec
from warbench.rulesets.vsgmr.data import (
    Armour,
    FigureType,
    Profile,
    Rules,
    is_guy,
    is_mount,
    points,
    rules,
)
from warbench.scenario.errors import listing
from warbench.scenario.model import Scenario
from warbench.scenario.schema import (
    MAX_POINTS,
    Key,
    Label,
    ScenarioModel,
)
from warbench.scenario.table import (
    ID_PATTERN,
    Edge,
    Ids,
    Placed,
    check_points,
    feature_from,
    shown,
)
from warbench.scenario.table import FeatureSpec as TableFeatureSpec

RESERVED = frozenset({"end", "face", "first", "move", "shoot", "fight", "skill", "take"})
"""Words of the action language that may not be used as ids."""
MAX_SIDES: Final = 8
"""Players around one table."""
MAX_SKILLS: Final = 20
"""Skills of one profile or figure."""
LAYOUTS_KEPT: Final = 16
"""Layouts (sets of destroyed features) whose terrain, navigation meshes, cover spots
and sight pieces a set-up keeps for its games; older ones are built again if needed."""

Points = Annotated[int, Field(ge=0, le=MAX_POINTS)]


class _Strict(ScenarioModel):
    pass


class ProfileSpec(_Strict):
    """A kind of figure: type (I), abilities (II.3-4), armour, skills, points, base."""

    type: FigureType
    name: Label = ""
    distance: bool = False
    auto: bool = False
    armour: Armour = "none"
    skills: list[Key] = Field(default_factory=list, max_length=MAX_SKILLS)
    points: Points | None = None
    base: BaseSpec | None = None
    aquatic: bool = False
    """A ship, boat or fish man: water is not rough terrain for it (II.2)."""


class FigureSpec(_Strict):
    """One figure: its id, its profile (or an inline type), where it stands and faces."""

    id: str = Field(pattern=ID_PATTERN)
    profile: Key | None = None
    type: FigureType | None = None
    name: Label | None = None
    distance: bool | None = None
    auto: bool | None = None
    armour: Armour | None = None
    skills: list[Key] | None = Field(default=None, max_length=MAX_SKILLS)
    points: Points | None = None
    base: BaseSpec | None = None
    aquatic: bool | None = None
    at: PointSpec | None = None
    facing: FacingSpec | None = None
    riding: Key | None = None


class SideSpec(TableSideSpec):
    edge: Edge | None = None
    """The side's own table edge: items carried off it score (see [victory])."""


class FeatureSpec(TableFeatureSpec):
    """A terrain feature with the properties VSGMR asks about."""

    kind: Key = "terrain"
    rough: bool = False
    """II.2 Rough Terrain: a figure in it moves at most a Half Move Unit."""
    water: bool = False
    """II.2: water is rough terrain, except for ships, boats and fish men (profiles
    with ``aquatic = true``); ``water = true`` makes the feature rough for the others."""
    barrier: bool = False
    """II.2: a barrier like a wall or fence cannot be moved through."""
    impassable: bool = False
    """Solid: no base may enter it (a building's walls, a cliff)."""
    blocks_los: Literal["yes", "no", "beyond"] = "no"
    beyond_reach: Distance = 0.0
    see_depth: Distance | None = None
    """Inches of a ``"beyond"`` area a sight line may cross (II.3, ruling 10); by
    default ``rules.toml [sight] see_depth`` for areas figures can enter, and the
    reach rule (``beyond_reach``) for walls and solid features."""
    destructible: bool = True
    """III: buildings and terrain features can be attacked; ground (a road) cannot."""


class ItemSpec(_Strict):
    id: str = Field(pattern=ID_PATTERN)
    label: Label = ""
    at: PointSpec
    points: Points = 0
    """Scored by the side that carries it off the table (see [victory] item_exit)."""
    locked: bool = False
    """A locked item cannot be picked up until a skill roll unlocks it."""


class TaskSpec(_Strict):
    """Something a skill roll can do in this scenario (II.5: effects set by the scenario)."""

    id: str = Field(pattern=ID_PATTERN)
    label: Label = ""
    feature: Key | None = None
    at: PointSpec | None = None
    reach: Distance = 0.5
    effect: Literal["points", "remove_feature", "unlock_item"]
    points: Points = 0
    target: Key | None = None
    skill: Key | None = None
    limit: Literal["once", "once_per_side"] = "once"


class OptionsSpec(_Strict):
    everyone_acts: bool = False
    """II OPTIONAL RULE (Everyone Acts): one figure per player in turn."""
    specific_skills: bool = False
    """II.5 OPTIONAL RULE (Specific Skills): +1 for a figure's own kind of skill."""
    dispute_rolls: bool = False
    """II.3: roll for borderline line of sight and cover (RULES-NOTES)."""
    rough: Literal["any", "start"] = "any"
    """Ruling: a move is a half move if the base is in rough terrain at any moment
    of it ("any") or only if it starts in rough terrain ("start")."""
    figures_block_sight: bool = False
    range_from: Literal["edge", "centre"] = "edge"
    riderless_attacks: bool = False
    """Whether a cavalry or vehicle figure without a rider may attack. II.2 says
    only that it cannot move at all; ruling: it does not attack either (a machine
    with nobody to work it; else a rider getting off would double the pair's one
    attack). Set true for mounts that fight on their own (a riderless wolf)."""


class VictorySpec(_Strict):
    item_exit: Literal["own_edge", "any_edge"] = "own_edge"
    end_when_item_leaves: bool = False


class ScenarioSpec(Header):
    rounds: int = Field(default=5, ge=1, le=50)
    table: TableSpec
    sides: list[SideSpec] = Field(min_length=2, max_length=MAX_SIDES)
    options: OptionsSpec = Field(default_factory=OptionsSpec)
    profiles: dict[Key, ProfileSpec] = Field(default_factory=dict, max_length=MAX_FIGURES)
    figures: dict[str, list[FigureSpec]]
    features: list[FeatureSpec] = Field(default_factory=list, max_length=MAX_FEATURES)
    items: list[ItemSpec] = Field(default_factory=list, max_length=MAX_FEATURES)
    tasks: list[TaskSpec] = Field(default_factory=list, max_length=MAX_FEATURES)
    victory: VictorySpec = Field(default_factory=VictorySpec)


@dataclass(frozen=True, slots=True)
class Placement:
    """A figure as the scenario sets it up."""

    id: str
    side: str
    profile: Profile
    figure: Figure
    riding: str | None


@dataclass(frozen=True, slots=True)
class ItemSetup:
    id: str
    label: str
    at: Point
    points: int
    locked: bool


@dataclass(frozen=True, slots=True)
class Task:
    id: str
    label: str
    feature: str | None
    at: Point | None
    reach: float
    effect: str
    points: int
    target: str | None
    skill: str | None
    limit: str


@dataclass(frozen=True, slots=True, eq=False)
class Setup:
    """Everything a VSGMR game needs from its scenario, validated."""

    table: Table
    sides: tuple[str, ...]
    titles: Mapping[str, str]
    edges: Mapping[str, Edge | None]
    placements: tuple[Placement, ...]
    features: tuple[Feature, ...]
    destructible: frozenset[str]
    water: frozenset[str]
    """Features that are rough only for figures that are not aquatic (II.2)."""
    items: tuple[ItemSetup, ...]
    tasks: tuple[Task, ...]
    options: OptionsSpec
    victory: VictorySpec
    rounds: int
    rules: Rules
    caches: dict[Any, Any] = field(default_factory=dict)
    """Derived data shared by every game of this set-up (terrains, navigation)."""
    profiles: Mapping[str, Profile] = field(default_factory=dict)
    """The scenario's profiles, by key (those no figure uses too)."""

    def terrain(self, destroyed: frozenset[str]) -> Terrain:
        """The terrain with these features destroyed (built once per set of losses).

        Only the :data:`LAYOUTS_KEPT` layouts used last are kept, so the memory
        of a long simulation stays flat (issue 13); see :meth:`_forget_layouts`.
        """
        key = ("terrain", destroyed)
        found: Terrain | None = self.caches.pop(key, None)
        if found is None:
            found = Terrain(f for f in self.features if f.id not in destroyed)
            self._forget_layouts()
        self.caches[key] = found  # last in the dict: the layout used most recently
        return found

    def _forget_layouts(self) -> None:
        """Forget the least recently used layouts beyond :data:`LAYOUTS_KEPT`, and every
        entry kept per terrain (keyed ``(kind, id(terrain), ...)``) whose terrain is no
        longer kept. Run when a terrain is built, before it is kept: an entry under its
        id is then another, freed terrain's (Python reuses ids), never its own."""
        caches = self.caches
        layouts = [k for k in caches if isinstance(k, tuple) and k[0] == "terrain"]
        for old in layouts[: max(0, len(layouts) + 1 - LAYOUTS_KEPT)]:
            del caches[old]
        kept = {id(t) for k, t in caches.items() if isinstance(k, tuple) and k[0] == "terrain"}
        for k in [
            k
            for k in caches
            if isinstance(k, tuple) and len(k) > 1 and type(k[1]) is int and k[1] not in kept
        ]:
            del caches[k]

    def feature(self, feature_id: str) -> Feature | None:
        for f in self.features:
            if f.id == feature_id:
                return f
        return None

    def task(self, task_id: str) -> Task | None:
        for t in self.tasks:
            if t.id == task_id:
                return t
        return None


def _profile(
    key: str, spec: ProfileSpec | FigureSpec, base_profile: Profile | None, rule_data: Rules
) -> Profile:
    """A profile from a spec, with what the spec leaves out taken from ``base_profile``."""
    kind = spec.type or (base_profile.kind if base_profile else None)
    assert kind is not None
    distance = (
        spec.distance if spec.distance is not None else bool(base_profile and base_profile.distance)
    )
    auto = spec.auto if spec.auto is not None else bool(base_profile and base_profile.auto)
    armour: Armour = spec.armour or (base_profile.armour if base_profile else "none")
    skills = (
        tuple(spec.skills)
        if spec.skills is not None
        else (base_profile.skills if base_profile else ())
    )
    base: Base
    if spec.base is not None:
        base = spec.base.build()
    elif base_profile is not None and (spec.type is None or spec.type == base_profile.kind):
        base = base_profile.base
    else:
        base = rule_data.bases[kind]
    value = spec.points
    if value is None:
        if (
            base_profile is not None
            and spec.type in (None, base_profile.kind)
            and _same_abilities(base_profile, distance, auto, armour)
        ):
            value = base_profile.points
        else:
            value = points().value(kind, distance, auto, armour)
    name = spec.name or (base_profile.name if base_profile else "") or ""
    aquatic = (
        spec.aquatic if spec.aquatic is not None else bool(base_profile and base_profile.aquatic)
    )
    return Profile(key, kind, distance, auto, armour, skills, value, base, name, aquatic)


def _same_abilities(p: Profile, distance: bool, auto: bool, armour: Armour) -> bool:
    return (p.distance, p.auto, p.armour) == (distance, auto, armour)


def _see_depth(ft: FeatureSpec, default: float) -> float | None:
    """How deep sight goes through the feature (None: the reach rule; ruling 10)."""
    if ft.see_depth is not None:
        return ft.see_depth
    if ft.blocks_los == "beyond" and ft.shape != "polyline" and not ft.impassable:
        return default
    return None


def build_setup(raw: Mapping[str, Any], file: str) -> tuple[ScenarioSpec, Setup]:
    """Validate a VSGMR scenario and build its set-up; ScenarioError on any problem."""
    spec = opened(ScenarioSpec, raw, file, "figures", "figure", counted="figures")
    rule_data = rules()
    table = spec.table.build()
    names = [side.name for side in spec.sides]

    claim = Ids(file, RESERVED).claim

    # Terrain.
    features: list[Feature] = []
    destructible: set[str] = set()
    water: set[str] = set()
    for i, ft in enumerate(spec.features):
        path = f"features[{i}]"
        claim(ft.id, f"{path}.id")
        check_points(file, path, table, ft.points)
        feature = feature_from(
            file,
            path,
            ft,
            label=ft.label,
            half_move=ft.rough or ft.water,
            impassable=ft.impassable,
            barrier=ft.barrier,
            blocks_los=ft.blocks_los,
            beyond_reach=ft.beyond_reach,
            see_depth=_see_depth(ft, rule_data.see_depth),
        )
        features.append(feature)
        if ft.destructible:
            destructible.add(ft.id)
        if ft.water:
            water.add(ft.id)
    terrain = Terrain(features)

    # Profiles.
    profiles: dict[str, Profile] = {}
    for key, ps in spec.profiles.items():
        if ps.auto and not ps.distance:
            raise ScenarioError(
                file, f"profiles.{key}.auto", "automatic fire needs a distance attack"
            )
        profiles[key] = _profile(key, ps, None, rule_data)

    # Figures.
    placements: list[Placement] = []
    by_id: dict[str, tuple[str, Profile, FigureSpec, str]] = {}
    for side in names:
        for i, fs in enumerate(spec.figures[side]):
            path = f"figures.{side}[{i}]"
            claim(fs.id, f"{path}.id")
            base_profile = None
            if fs.profile is not None:
                base_profile = profiles.get(fs.profile)
                if base_profile is None:
                    known = listing(profiles) or "none"
                    raise ScenarioError(
                        file,
                        f"{path}.profile",
                        f"unknown profile '{excerpt(fs.profile)}'; known: {known}",
                    )
            elif fs.type is None:
                raise ScenarioError(file, path, "give a profile or a type")
            profile = _profile(fs.profile or fs.id, fs, base_profile, rule_data)
            if profile.auto and not profile.distance:
                raise ScenarioError(file, f"{path}.auto", "automatic fire needs a distance attack")
            by_id[fs.id] = (side, profile, fs, path)

    mounted_by: dict[str, str] = {}
    for fid, (side, profile, fs, path) in by_id.items():
        if fs.riding is None:
            if fs.at is None:
                raise ScenarioError(file, f"{path}.at", "required field is missing")
            continue
        mount = by_id.get(fs.riding)
        if mount is None:
            raise ScenarioError(file, f"{path}.riding", f"no figure '{excerpt(fs.riding)}'")
        if mount[0] != side:
            raise ScenarioError(file, f"{path}.riding", f"'{fs.riding}' belongs to {mount[0]}")
        if not is_guy(profile.kind):
            raise ScenarioError(file, f"{path}.riding", "only guys ride or drive (II.2)")
        if not is_mount(mount[1].kind):
            raise ScenarioError(
                file,
                f"{path}.riding",
                f"'{fs.riding}' is a {mount[1].kind}, not cavalry or a vehicle",
            )
        if mount[2].riding is not None:
            raise ScenarioError(file, f"{path}.riding", f"'{fs.riding}' is itself riding")
        if fs.riding in mounted_by:
            raise ScenarioError(
                file, f"{path}.riding", f"'{fs.riding}' already carries {mounted_by[fs.riding]}"
            )
        mounted_by[fs.riding] = fid

    placed = Placed(file, table, terrain)
    for fid, (side, profile, fs, path) in by_id.items():
        if fs.riding is not None:
            continue
        assert fs.at is not None
        figure = placed.place(path, fid, fs.at, fs.facing, profile.base, side, profile.kind)
        placements.append(Placement(fid, side, profile, figure, None))
    mounts = {p.id: p for p in placements}
    for fid, (side, profile, fs, _path) in by_id.items():
        if fs.riding is None:
            continue
        m = mounts[fs.riding].figure
        figure = Figure(fid, m.x, m.y, m.facing, profile.base, side, profile.kind)
        placements.append(Placement(fid, side, profile, figure, fs.riding))
    order = {fid: n for n, fid in enumerate(by_id)}
    placements.sort(key=lambda p: order[p.id])

    # Items and tasks.
    items: list[ItemSetup] = []
    for i, it in enumerate(spec.items):
        path = f"items[{i}]"
        claim(it.id, f"{path}.id")
        at = (float(it.at[0]), float(it.at[1]))
        if not table.contains_point(at):
            raise ScenarioError(file, f"{path}.at", f"{at} is off the table")
        items.append(ItemSetup(it.id, it.label or it.id, at, it.points, it.locked))
    item_ids = {it.id for it in items}
    tasks: list[Task] = []
    for i, ts in enumerate(spec.tasks):
        path = f"tasks[{i}]"
        claim(ts.id, f"{path}.id")
        if (ts.feature is None) == (ts.at is None):
            raise ScenarioError(file, path, "give exactly one of 'feature' or 'at'")
        if ts.feature is not None and ts.feature not in {f.id for f in features}:
            raise ScenarioError(file, f"{path}.feature", f"no feature '{excerpt(ts.feature)}'")
        if ts.at is not None and not table.contains_point(ts.at):
            raise ScenarioError(file, f"{path}.at", f"{shown(ts.at)} is off the table")
        if ts.effect == "remove_feature" and ts.target not in {f.id for f in features}:
            raise ScenarioError(file, f"{path}.target", "remove_feature needs a feature id")
        if ts.effect == "unlock_item" and ts.target not in item_ids:
            raise ScenarioError(file, f"{path}.target", "unlock_item needs an item id")
        if ts.effect == "points" and ts.target is not None:
            raise ScenarioError(file, f"{path}.target", "a points task has no target")
        at_point = (float(ts.at[0]), float(ts.at[1])) if ts.at is not None else None
        tasks.append(
            Task(
                ts.id,
                ts.label or ts.id,
                ts.feature,
                at_point,
                ts.reach,
                ts.effect,
                ts.points,
                ts.target,
                ts.skill,
                ts.limit,
            )
        )

    setup = Setup(
        table=table,
        sides=tuple(names),
        titles={s.name: s.title or s.name for s in spec.sides},
        edges={s.name: s.edge for s in spec.sides},
        placements=tuple(placements),
        features=tuple(features),
        destructible=frozenset(destructible),
        water=frozenset(water),
        items=tuple(items),
        tasks=tuple(tasks),
        options=spec.options,
        victory=spec.victory,
        rounds=spec.rounds,
        rules=rule_data,
        profiles=profiles,
    )
    setup.caches[("terrain", frozenset())] = terrain
    return spec, setup


def build_scenario(raw: Mapping[str, Any], file: str, scenario_id: str) -> Scenario:
    spec, setup = build_setup(raw, file)
    return table_scenario("vsgmr", raw, file, scenario_id, spec, setup, setup.rounds)


__all__ = ["Placement", "Setup", "Task", "build_scenario", "build_setup"]
