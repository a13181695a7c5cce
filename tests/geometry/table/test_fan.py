"""A fan of legs prepared at once (fan.py) plans exactly as the legs planned one by one,
and a round base's leg finds what the planner's swept-area check found."""

from __future__ import annotations

import math
import random

import pytest
import shapely

from warbench.geometry.table import Feature, Figure, MoveRules, RectBase, RoundBase, Scene, Table
from warbench.geometry.table.core import EPS
from warbench.geometry.table.fan import (
    LegHits,
    _sweep,
    _sweep_one,
    end_overlaps,
    leg_hits,
    prepare_fan,
)
from warbench.geometry.table.sweep import swept
from warbench.geometry.table.terrain import Terrain

TABLE = Table(36, 36)


def _layout(rng: random.Random) -> list[Feature]:
    features = []
    for n in range(8):
        x, y = rng.uniform(4, 32), rng.uniform(4, 32)
        w, h = rng.uniform(0.5, 4), rng.uniform(0.5, 4)
        box = [(x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h)]
        kind = n % 4
        if kind == 0:
            features.append(Feature.polygon(f"wood{n}", box, move_cost=2.0))
        elif kind == 1:
            features.append(Feature.polygon(f"rock{n}", box, impassable=True))
        elif kind == 2:
            line = [(x, y), (x + w, y + h), (x + 2 * w, y)]
            features.append(Feature.polyline(f"wall{n}", line, barrier=True, crossing_cost=1.0))
        else:
            features.append(Feature.circle(f"bog{n}", (x, y), w, move_cost=3.0))
    return features


def _figures(rng: random.Random, count: int = 10) -> list[Figure]:
    out = []
    for n in range(count):
        base = RoundBase(rng.choice([1.0, 1.5, 2.0])) if n % 3 else RectBase(1.5, 2.5)
        side = "red" if n % 2 else "blue"
        x, y = rng.uniform(2, 34), rng.uniform(2, 34)
        out.append(Figure(f"f{n}", x, y, rng.uniform(0, 360), base, side=side))
    return out


def _ends(rng: random.Random, figure: Figure) -> list[tuple[float, float]]:
    ends = []
    for _ in range(16):
        a, r = math.radians(rng.uniform(0, 360)), rng.uniform(0.25, 12)
        ends.append(
            (
                round((figure.x + r * math.cos(a)) * 4) / 4,
                round((figure.y + r * math.sin(a)) * 4) / 4,
            )
        )
    return [*ends, ends[0], figure.at]


@pytest.mark.parametrize("seed", range(12))
def test_a_prepared_fan_plans_the_same_moves(seed: int) -> None:
    rng = random.Random(seed)
    features = _layout(rng)
    figures = _figures(rng)
    for pass_through in ("none", "friends", "all"):
        rules = MoveRules(pass_through=pass_through)  # type: ignore[arg-type]
        for figure in figures:
            ends = _ends(rng, figure)
            plain = Scene(TABLE, Terrain(features), figures)
            prepared = Scene(TABLE, Terrain(features), figures)
            prepare_fan(prepared, figure, ends)
            if isinstance(figure.base, RoundBase):
                assert leg_hits(prepared, figure, ends[0]) is not None
                assert end_overlaps(prepared, figure.moved_to(ends[0])) is not None
            for end in ends:
                for final in (None, 90.0):
                    want = plain.plan_move(
                        figure, [end], allowance=6.0, rules=rules, final_facing=final
                    )
                    got = prepared.plan_move(
                        figure, [end], allowance=6.0, rules=rules, final_facing=final
                    )
                    assert got == want
                    assert got.problem == want.problem  # the lazy places and reasons too


def _reference_hits(scene: Scene, figure: Figure, end: tuple[float, float]) -> LegHits:
    """What the planner's check of a leg found before fans: the swept area's obstacles,
    and the figures near the leg by the index that the exact test keeps."""
    core, radius = swept(figure, end)
    obstacles = scene.terrain.movement_obstacles(core, radius)
    found = []
    for i in scene.index.near_segment(figure.at, end, figure.base.bounding_radius):
        other_core, other_radius = scene.index.figures[int(i)].solid
        if float(shapely.distance(core, other_core)) < radius + other_radius - EPS:
            found.append(int(i))
    return obstacles, tuple(found)


@pytest.mark.parametrize("count", [10, 30])  # a plain loop, numpy (FEW_FIGURES)
@pytest.mark.parametrize("seed", range(12))
def test_a_legs_hits_are_those_the_planner_found_one_by_one(seed: int, count: int) -> None:
    rng = random.Random(seed)
    features = _layout(rng)
    figures = _figures(rng, count)
    for figure in figures:
        if not isinstance(figure.base, RoundBase):
            continue
        ends = [e for e in _ends(rng, figure) if e != figure.at]
        scene = Scene(TABLE, Terrain(features), figures)
        fan = _sweep(scene, figure, ends)
        for end, hits in zip(ends, fan, strict=True):
            want = _reference_hits(scene, figure, end)
            assert hits == want
            assert _sweep_one(scene, figure, end) == want
