"""Unit values from play (issue 14, part 2): recasting a scenario's forces, the logistic
fit, randomised mirrored battles, values against the printed costs, and a fairness
adjustment checked by a balance run."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from warbench.core import registry
from warbench.core.loader import load_scenario
from warbench.errors import ScenarioError, WarbenchError
from warbench.scenario.recast import recast_raw
from warbench.sim.calibrate import (
    _play_battle,
    _valid_forces,
    _worker_arenas,
    calibrate,
    changes_for,
    check_slots,
    fairness,
    first_score,
    read_arena,
)
from warbench.sim.stats import fit_logistic


def test_recast_raw_edits_a_copy_and_drops_a_unit_left_without_bases() -> None:
    raw: dict[str, Any] = {
        "units": {
            "a": [
                {"id": "U1", "bases": [{"id": "B1", "model": "x"}, {"id": "B2", "model": "x"}]},
                {"id": "U2", "bases": [{"id": "B3", "model": "x"}]},
            ]
        }
    }
    out = recast_raw(raw, "units", "model", {"B1": "y", "B3": None}, nested="bases")
    assert out["units"]["a"] == [
        {"id": "U1", "bases": [{"id": "B1", "model": "y"}, {"id": "B2", "model": "x"}]}
    ]
    assert raw["units"]["a"][0]["bases"][0]["model"] == "x"  # the original is untouched
    with pytest.raises(WarbenchError, match="no piece Z9 listed in \\[units\\]"):
        recast_raw(raw, "units", "model", {"Z9": "y"}, nested="bases")


def test_recast_keeps_the_slot_and_validates_like_a_file() -> None:
    scenario = load_scenario("miniwars/arena")
    ruleset = registry.get("miniwars")
    recast = ruleset.recast(scenario, {"W1": "militia", "E6": None})
    pieces = {p.id: p for p in ruleset.pieces(ruleset.initial_state(recast)) or []}
    assert pieces["W1"].kind == "Town Militia" and "E6" not in pieces
    before = {p.at for p in scenario.spec.units if p.id == "W1"}
    assert {p.at for p in recast.spec.units if p.id == "W1"} == before
    with pytest.raises(ScenarioError, match="unknown unit type 'dragon'"):
        ruleset.recast(scenario, {"W1": "dragon"})


def test_fit_logistic_recovers_known_coefficients() -> None:
    rng = np.random.default_rng(1)
    x = np.column_stack([np.ones(20_000), rng.integers(-3, 4, size=(20_000, 2))])
    truth = np.array([0.3, 0.8, -0.4])
    y = (rng.random(20_000) < 1 / (1 + np.exp(-(x @ truth)))).astype(float)
    fitted = fit_logistic(x.tolist(), y.tolist(), ridge=0.0)
    assert fitted == pytest.approx(truth.tolist(), abs=0.06)


def test_slots_take_only_the_types_the_scenario_accepts_there() -> None:
    arena = check_slots(read_arena(load_scenario("veg/arena")))
    assert arena.mirrored
    # The transport truck may only travel on roads (V.E.G.): only slots on the road hold it.
    for side, per_slot in arena.allowed.items():
        for slot, kinds in zip(arena.slots[side], per_slot, strict=True):
            assert ("truck" in kinds) == (slot in {"B1", "B6", "R1", "R6"}), (slot, kinds)
    assert arena.allowed["blue"] == arena.allowed["red"]


@pytest.mark.parametrize(
    "ref",
    [
        "miniwars/arena",
        "cgme/arena",
        "veg/arena",
        "vsgmr/street",
        "mgv/clear",
        "invisible-enemy/company",
    ],
)
def test_every_ruleset_plays_a_recast_battle(ref: str) -> None:
    scenario = load_scenario(ref)
    ruleset = registry.get(scenario.ruleset)
    assert ruleset.arena is not None
    arena = check_slots(read_arena(scenario))
    _worker_arenas[ref] = arena
    first, second = _valid_forces(arena, ruleset, random.Random(3))
    assert (second is not None) == arena.mirrored
    battle = _play_battle((ref, 0, 0, 0, first, "random"))
    assert battle.winner in (*scenario.sides, None)
    recast = ruleset.recast(scenario, changes_for(arena, first))
    pieces = ruleset.pieces(ruleset.initial_state(recast)) or []
    kinds = {
        k.key: k.name for side in scenario.sides for k in ruleset.unit_kinds(scenario, side) or ()
    }
    fielded = sorted(kinds[k] for force in first.values() for k in force if k is not None)
    assert sorted(p.kind for p in pieces) == fielded


def test_miniwars_values_rank_a_leader_above_militia_and_match_any_worker_count() -> None:
    one = calibrate("miniwars", pairs=150, seed=2)
    values = {k.key: k for k in one.kinds}
    leader, militia = values["hobgoblin_leader"], values["militia"]
    assert leader.low > militia.high  # CS 4, missile C and a leader, against CS 1
    assert one.spearman is not None and one.spearman > 0.5
    assert sum(k.points for k in one.kinds) == pytest.approx(sum(k.cost for k in one.kinds))
    # Every battle is played twice, the forces traded between the sides.
    by_pair: dict[int, list[Any]] = {}
    for b in one.battles:
        by_pair.setdefault(b.pair, []).append(b)
    for first, second in by_pair.values():
        assert first.forces["west"] == second.forces["east"]
        assert first.forces["east"] == second.forces["west"]
        assert first.seed == second.seed
    two = calibrate("miniwars", pairs=150, seed=2, workers=2)
    strip = lambda c: {k: v for k, v in c.to_json().items() if k != "seconds"}  # noqa: E731
    assert strip(one) == strip(two)


def test_fairness_closes_most_of_the_danville_gap(tmp_path: Path) -> None:
    values = calibrate("miniwars", pairs=100, seed=1)
    out = tmp_path / "fair.toml"
    result = fairness("miniwars/danville", values, out, pairs=30, seed=1)
    first = result.rounds[0]
    assert not first.even and first.ahead < 0  # the horde wins nearly every game
    assert first.changes and result.written == out
    adjusted = load_scenario(str(out))
    assert adjusted.ruleset == "miniwars"
    text = out.read_text("utf-8")
    for change in result.changes:
        assert f"{change.piece} ({change.side}): {change.before} ->" in text
    last = result.rounds[-1]
    assert abs(last.score[0] - 0.5) < abs(first.score[0] - 0.5)
    assert first_score(last.report) == last.score
    with pytest.raises(WarbenchError, match="exists: give a new file"):
        fairness("miniwars/danville", values, out, pairs=2)


def test_an_even_scenario_is_left_alone(tmp_path: Path) -> None:
    values = calibrate("miniwars", pairs=60, seed=1)
    out = tmp_path / "fair.toml"
    result = fairness("miniwars/arena", values, out, pairs=60, seed=0)
    assert [r.even for r in result.rounds] == [True]
    assert result.written is None and not out.exists()


def test_clear_errors() -> None:
    with pytest.raises(WarbenchError, match="3 sides; a calibration plays two"):
        calibrate("vsgmr", "vsgmr/relic", pairs=1)
    with pytest.raises(WarbenchError, match="is a miniwars scenario, not vsgmr"):
        calibrate("vsgmr", "miniwars/arena", pairs=1)
    with pytest.raises(WarbenchError, match="1 to 50,000 pairs"):
        calibrate("miniwars", pairs=0)
