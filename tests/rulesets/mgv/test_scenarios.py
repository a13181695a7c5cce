"""MGV scenario files: the three built-in missions, the checks of 1.3 and 1.5 a scenario
must pass (wings of two identical models, weapons only on mounts a model has, bases wholly
on the table and clear of impassable terrain and of each other, a mission that names what
it needs, ids the action language can use), and the malformed-scenario corpus under
``tests/corpus/scenarios/mgv``."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario, scenario_from_dict
from warbench.errors import ScenarioError

BUILT_IN = ("mgv/clear", "mgv/gauntlet", "mgv/strike")
CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "scenarios" / "mgv"
CASES = sorted(CORPUS.glob("*.toml"))


# -- the built-in missions ---------------------------------------------------------------------
@pytest.mark.parametrize("sid", BUILT_IN)
def test_built_in_scenarios_load_and_start_with_the_sealed_set_up(sid):
    """1.5: every side with an open mount is asked, sealed, for its weapon types."""
    game = Game.start(sid, seed=3)
    assert game.decision.kind.value == "sealed"
    assert game.waiting_for() == ("blue", "red")
    assert game.state.step == "arm"
    for side in game.waiting_for():
        game.apply(game.legal_actions(side)[0], side)
    assert "armed" in [e.kind for e in game.events]
    assert all(m.weapon for b in game.state.bases.values() for m in b.mounts.values())
    assert game.decision.kind.value == "choose"  # the X roll winner chooses


def test_built_in_missions_clear_gauntlet_and_strike():
    clear, gauntlet, strike = (load_scenario(s).spec for s in BUILT_IN)
    assert clear.victory.kind == "clear"
    assert (gauntlet.victory.kind, gauntlet.victory.side, gauntlet.victory.edge) == (
        "gauntlet",
        "blue",
        "east",
    )
    assert gauntlet.options.core_rule == "b"
    assert (strike.victory.kind, strike.victory.target) == ("strike", "R1")
    assert strike.placement("R1").model_key == "L63"  # the command vehicle to destroy


def test_built_in_scenarios_use_every_row_of_the_terrain_chart_between_them():
    kinds = {f.kind for s in BUILT_IN for f in load_scenario(s).spec.features}
    assert {"fungus", "rock", "shrapnel", "sand", "oil", "chemical", "slime", "rough"} <= kinds


def test_built_in_wings_pair_two_identical_models():
    for sid in BUILT_IN:
        wings: dict[tuple[str, str], list[str]] = {}
        for p in load_scenario(sid).spec.placements:
            if p.wing:
                wings.setdefault((p.side, p.wing), []).append(p.model_key)
        for models in wings.values():
            assert len(models) == 2 and models[0] == models[1]


# -- checks, from scenarios built as dicts -----------------------------------------------------
def _raw(mgv, *extra_bases, **kw):
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("red", "R1", "L35", (20, 12), 180),
        *extra_bases,
    ]
    return mgv.scenario_dict(bases, **kw)


def _refused(raw) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        scenario_from_dict(raw, "bad.toml", "bad")
    return caught.value


def test_scenario_a_wing_of_two_identical_models_is_accepted(mgv):
    raw = _raw(mgv, mgv.base("blue", "B2", "L35", (4, 14), 0, wing="w"))
    raw["bases"]["blue"][0]["wing"] = "w"
    setup = scenario_from_dict(raw, "ok.toml", "ok").spec
    assert setup.placement("B1").wing == setup.placement("B2").wing == "w"


def test_scenario_the_same_wing_name_on_each_side_is_two_wings(mgv):
    raw = _raw(
        mgv,
        mgv.base("blue", "B2", "L35", (4, 14), 0, wing="w"),
        mgv.base("red", "R2", "L35", (20, 14), 180, wing="w"),
    )
    raw["bases"]["blue"][0]["wing"] = "w"
    raw["bases"]["red"][0]["wing"] = "w"
    scenario_from_dict(raw, "ok.toml", "ok")


@pytest.mark.parametrize(
    ("models", "fragment"),
    [
        (("L35",), "has 1 bases; a wing pairs two (1.3)"),
        (("L35", "L35", "L35"), "has 3 bases; a wing pairs two (1.3)"),
        (("L35", "L12"), "pairs a L35 with a L12; a wing pairs two identical models (1.3)"),
    ],
)
def test_scenario_1_3_a_wing_pairs_two_identical_models(mgv, models, fragment):
    extra = [
        mgv.base("blue", f"W{i}", model, (8, 4 + 4 * i), 0, wing="w")
        for i, model in enumerate(models)
    ]
    error = _refused(_raw(mgv, *extra))
    assert error.path == "bases.blue[1].wing"  # named at the first base of the wing
    assert fragment in error.problem


def test_scenario_1_5_a_fixed_weapon_needs_the_mount(mgv):
    raw = _raw(mgv)
    raw["bases"]["blue"][0]["weapons"] = {"secondary": "photon"}
    error = _refused(raw)
    assert error.path == "bases.blue[0].weapons.secondary"
    assert error.problem == "the L35 has no secondary mount"


def test_scenario_1_5_mounts_left_open_are_chosen_at_set_up(mgv):
    raw = _raw(mgv, mgv.base("blue", "B2", "L63", (4, 16), 0, main="photon", open_mounts=True))
    del raw["bases"]["blue"][0]["weapons"]
    setup = scenario_from_dict(raw, "ok.toml", "ok").spec
    assert setup.placement("B1").weapons == {}
    assert setup.placement("B2").weapons == {"main": "photon"}


@pytest.mark.parametrize(
    ("at", "ok"),
    [((0.5, 12), True), ((0.4, 12), False), ((23.5, 23.5), True), ((23.6, 12), False)],
)
def test_scenario_a_base_stands_wholly_on_the_table(mgv, at, ok):
    raw = _raw(mgv)
    raw["bases"]["blue"][0]["at"] = list(at)
    if ok:
        scenario_from_dict(raw, "ok.toml", "ok")
    else:
        error = _refused(raw)
        assert error.path == "bases.blue[0].at"
        assert "is not wholly on the table" in error.problem


@pytest.mark.parametrize("kind", ["fungus", "rock", "shrapnel"])
def test_scenario_a_base_may_not_stand_on_impassable_terrain(mgv, kind):
    error = _refused(_raw(mgv, features=[mgv.circle("f", kind, (5, 12), 1.0)]))
    assert error.path == "bases.blue[0].at"
    assert "overlaps impassable 'f'" in error.problem


def test_scenario_a_base_may_touch_impassable_terrain_and_stand_in_passable(mgv):
    features = [mgv.box("rock", "rock", 4.5, 10, 6, 14), mgv.box("oil", "oil", 18, 10, 22, 14)]
    scenario_from_dict(_raw(mgv, features=features), "ok.toml", "ok")


def test_scenario_bases_may_not_overlap_but_may_touch(mgv):
    error = _refused(_raw(mgv, mgv.base("red", "R2", "L35", (4.9, 12), 180)))
    assert error.path == "bases.red[1].at"
    assert error.problem.startswith("the base overlaps base 'B1'")
    scenario_from_dict(_raw(mgv, mgv.base("red", "R2", "L35", (5, 12), 180)), "ok.toml", "ok")


@pytest.mark.parametrize(
    ("victory", "path", "fragment"),
    [
        ({"kind": "gauntlet", "side": "blue"}, "victory.edge", "names the edge"),
        ({"kind": "gauntlet", "edge": "east"}, "victory.side", "names the side making it"),
        (
            {"kind": "gauntlet", "side": "blue", "edge": "east", "count": 2},
            "victory.count",
            "blue has only 1 base, not the 2 asked",
        ),
        ({"kind": "strike", "side": "blue", "target": "B1"}, "victory.target", "an enemy base"),
        ({"kind": "strike", "side": "blue", "target": "R7"}, "victory.target", "an enemy base"),
        ({"kind": "strike", "side": "green", "target": "R1"}, "victory.side", "one of blue, red"),
    ],
)
def test_scenario_a_mission_names_what_it_needs(mgv, victory, path, fragment):
    error = _refused(_raw(mgv, victory=victory))
    assert error.path == path
    assert fragment in error.problem


@pytest.mark.parametrize(
    ("where", "value", "fragment"),
    [
        ("red", "B1", "duplicate id 'B1' (also bases.blue[0].id)"),
        ("red", "b1", "duplicate id 'b1'"),
        ("red", "move", "'move' is a word of the action language"),
        ("red", "Estimate", "'Estimate' is a word of the action language"),
        ("red", "secondary", "word of the action language"),
    ],
)
def test_scenario_ids_are_unique_and_not_words_of_the_action_language(mgv, where, value, fragment):
    raw = _raw(mgv)
    raw["bases"][where][0]["id"] = value
    error = _refused(raw)
    assert error.path == f"bases.{where}[0].id"
    assert fragment in error.problem


def test_scenario_a_feature_id_is_checked_like_a_base_id(mgv):
    error = _refused(_raw(mgv, features=[mgv.circle("R1", "sand", (12, 12), 1.0)]))
    assert (error.path, error.problem) == (
        "bases.red[0].id",
        "duplicate id 'R1' (also features[0].id)",
    )
    error = _refused(_raw(mgv, features=[mgv.circle("mark", "sand", (12, 12), 1.0)]))
    assert error.path == "features[0].id"


def test_scenario_defaults_facing_toward_the_centre_six_turns_and_the_first_options(mgv):
    raw = _raw(mgv)
    del raw["bases"]["blue"][0]["facing"]
    del raw["turns"]
    scenario = scenario_from_dict(raw, "ok.toml", "ok")
    setup = scenario.spec
    assert setup.placement("B1").figure.facing == 0.0  # (4, 12) looks at (12, 12)
    assert setup.turns == scenario.turn_limit == 6
    assert (setup.options.core_rule, setup.options.photon) == ("a", "guess")
    assert setup.victory.kind == "clear"


def test_scenario_a_record_copy_of_a_built_in_is_valid():
    raw = copy.deepcopy(dict(load_scenario("mgv/gauntlet").raw))
    assert scenario_from_dict(raw, "copy.toml", "copy").spec.victory.count == 2


# -- the corpus --------------------------------------------------------------------------------
def _expectation(path: Path) -> tuple[str, str]:
    for line in path.read_text("utf-8").splitlines():
        if line.startswith("# expect: "):
            field, _, fragment = line.removeprefix("# expect: ").partition(": ")
            return field, fragment
    raise AssertionError(f"{path} has no '# expect: FIELD: problem' line")


def test_the_mgv_corpus_covers_the_scenario_checks():
    names = {p.stem for p in CASES}
    for needed in (
        "model-unknown",
        "terrain-unknown",
        "wing-of-three",
        "wing-mixed",
        "weapon-missing-mount",
        "base-off-table",
        "base-on-impassable",
        "base-overlap",
        "gauntlet-without-edge",
        "strike-own-base",
        "id-duplicate",
        "id-reserved",
    ):
        assert needed in names


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_a_malformed_mgv_scenario_is_refused_naming_the_field(path):
    field, fragment = _expectation(path)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(str(path))
    assert caught.value.path == field
    assert fragment in caught.value.problem


def test_strike_puts_the_command_vehicle_inside_a_broken_ring_of_rock_and_shrapnel():
    """The scenario says R1 sits inside a ring of rock and shrapnel: patches of both lie
    5-8" from it all round (in at least six of the eight compass sectors), with gaps."""
    game = Game.start("mgv/strike", 1)
    r1 = game.state.bases["R1"].geo.at
    sectors = set()
    kinds = set()
    for feature in game.view(None)["features"]:
        if feature["kind"] not in ("rock", "shrapnel"):
            continue
        xs = [p[0] for p in feature["points"]]
        ys = [p[1] for p in feature["points"]]
        centre = (sum(xs) / len(xs), sum(ys) / len(ys))
        if 4.5 <= math.dist(centre, r1) <= 8.0:
            kinds.add(feature["kind"])
            angle = math.degrees(math.atan2(centre[1] - r1[1], centre[0] - r1[0])) % 360
            sectors.add(int(angle // 45))
    assert kinds == {"rock", "shrapnel"}
    assert len(sectors) >= 6, sorted(sectors)
