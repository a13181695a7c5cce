"""Line of sight: blocking, "beyond" terrain, heights, intervening figures, hidden fractions."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
import shapely

from warbench.geometry.table import (
    Feature,
    Figure,
    RectBase,
    RoundBase,
    Scene,
    Table,
    TableGeometryError,
    silhouette,
)

TABLE = Table(40, 40)


def wall(fid: str, a: tuple[float, float], b: tuple[float, float], **props: object) -> Feature:
    return Feature.polyline(fid, [a, b], **{"blocks_los": "yes", **props})


def scene(features: list[Feature], *figures: Figure) -> Scene:
    return Scene(TABLE, features, figures)


# -- points -------------------------------------------------------------------------------


def test_a_solid_feature_between_two_points_blocks_sight_both_ways():
    s = scene([wall("w", (5, 0), (5, 10))])
    assert not s.sight((0.0, 5.0), (10.0, 5.0)).clear
    assert not s.sight((10.0, 5.0), (0.0, 5.0)).clear
    assert s.sight((0.0, 5.0), (10.0, 5.0)).blocked_by == ("w",)
    assert s.sight((0.0, 15.0), (10.0, 15.0)).clear


def test_a_sight_line_grazing_the_end_of_a_wall_is_not_blocked():
    s = scene([wall("w", (5, 0), (5, 5))])
    assert s.sight((0.0, 5.0), (10.0, 5.0)).clear


def test_a_sight_line_through_the_joint_of_a_wall_is_blocked():
    s = scene([Feature.polyline("w", [(5, 0), (5, 5), (5, 10)], blocks_los="yes")])
    assert not s.sight((0.0, 5.0), (10.0, 5.0)).clear


def test_features_that_do_not_block_sight_are_ignored():
    s = scene([Feature.circle("pond", (5, 5), 2.0)])
    assert s.sight((0.0, 5.0), (10.0, 5.0)) == s.sight((0.0, 15.0), (10.0, 15.0))


# -- "beyond" terrain (MGV's Y&N, Invisible Enemy's 50% weapon block) ----------------------


def test_y_and_n_terrain_covers_a_base_touching_it_and_blocks_one_farther_beyond():
    """MGV 1.4 note 1: a base immediately behind (touching) a Y&N feature has cover and can be
    fired on; anything farther back behind a Y&N feature cannot be seen."""
    sand = Feature.polygon("sand", [(9, 0), (10, 0), (10, 10), (9, 10)], blocks_los="beyond")
    firer = Figure("f", 2, 5)
    hugging = Figure("t", 10.5, 5)  # touching the far side
    beyond = Figure("u", 12.0, 5)
    s = scene([sand], firer, hugging, beyond)
    seen = s.sight("f", "t")
    assert seen.clear and seen.hidden == 0.0
    assert seen.cover_from == ("sand",) and seen.obscured == pytest.approx(1.0)
    hidden = s.sight("f", "u", ignore=["t"])
    assert not hidden.clear and hidden.blocked_by == ("sand",)


def test_a_base_touching_y_and_n_terrain_fires_through_it():
    """MGV 1.4 note 1: a base hugging the cover can shoot across it and be shot at."""
    sand = Feature.polygon("sand", [(9, 0), (10, 0), (10, 10), (9, 10)], blocks_los="beyond")
    s = scene([sand], Figure("f", 8.5, 5), Figure("t", 20, 5))
    out = s.sight("f", "t")
    assert out.clear and out.hidden == 0.0 and out.cover_from == ()
    back = s.sight("t", "f")
    assert back.clear and back.cover_from == ("sand",)


def test_fifty_percent_terrain_covers_bases_within_an_inch_and_blocks_beyond():
    """Invisible Enemy 1.5 Weapon Block 50%: a base behind but within 1" can be seen and fired
    on but is covered; beyond 1" (with the firer not within 1" either) it blocks like 100%."""
    hair = Feature.polyline("hair", [(10, 0), (10, 10)], blocks_los="beyond", beyond_reach=1.0)
    s = scene([hair], Figure("f", 2, 5), Figure("near", 10.9, 5), Figure("far", 12, 5))
    near = s.sight("f", "near")
    assert near.clear and near.cover_from == ("hair",)
    assert not s.sight("f", "far", ignore=["near"]).clear
    s2 = scene([hair], Figure("f", 9.2, 5), Figure("far", 12, 5))
    assert s2.sight("f", "far").clear  # the firer is within 1" of it


def test_a_figure_in_a_building_sees_out_and_is_seen_with_cover():
    """A "yes" feature a base stands in counts as "beyond" for that base."""
    house = Feature.polygon("house", [(8, 0), (12, 0), (12, 10), (8, 10)], blocks_los="yes")
    s = scene([house], Figure("out", 2, 5), Figure("in", 9, 5), Figure("behind", 16, 5))
    into = s.sight("out", "in")
    assert into.clear and into.cover_from == ("house",)
    assert s.sight("in", "behind").clear
    assert not s.sight("out", "behind", ignore=["in"]).clear


def test_a_point_in_a_wood_is_screened_not_blocked():
    wood = Feature.circle("wood", (10, 5), 3.0, blocks_los="beyond")
    out = scene([wood]).sight((0.0, 5.0), (10.0, 5.0))
    assert out.clear and out.cover_from == ("wood",) and out.obscured == 1.0
    assert not scene([wood]).sight((0.0, 5.0), (20.0, 5.0)).clear


# -- heights ------------------------------------------------------------------------------


def test_features_no_taller_than_both_ends_are_looked_over():
    """MGV 1.4 chart key: Blocks LOS is for a base on the same level."""
    low = wall("low", (5, 0), (5, 10), height=1.0)
    s = scene([low], Figure("f", 0, 5), Figure("t", 10, 5))
    assert not s.sight("f", "t").clear
    assert s.sight("f", "t", eye_level=1.0).clear
    assert s.sight("f", "t", target_level=1.0).clear
    tall = wall("tall", (5, 0), (5, 10), height=2.0)
    assert (
        not scene([tall], Figure("f", 0, 5), Figure("t", 10, 5))
        .sight("f", "t", eye_level=1.0)
        .clear
    )


# -- intervening figures ------------------------------------------------------------------


def test_intervening_bases_block_unless_ignored_or_switched_off():
    """Invisible Enemy 5.0 Line of Fire: K and P weapons may not fire through other units."""
    s = scene([], Figure("f", 0, 5), Figure("mid", 5, 5, base=RoundBase(2.0)), Figure("t", 10, 5))
    blocked = s.sight("f", "t")
    assert not blocked.clear and blocked.blocked_by == ("mid",)
    assert blocked.hidden_by_features == 0.0
    assert s.sight("f", "t", ignore=["mid"]).clear
    assert s.sight("f", "t", figures_block=False).clear
    assert not s.sight((0.0, 5.0), (10.0, 5.0)).clear  # points too


def test_the_eye_and_target_bases_never_block():
    s = scene([], Figure("f", 0, 5, base=RoundBase(3.0)), Figure("t", 3.0, 5, base=RoundBase(3.0)))
    assert s.sight("f", "t").hidden == 0.0


def test_an_eye_on_the_target_base_sees_it():
    s = scene([], Figure("rider", 5, 5), Figure("horse", 5.2, 5, base=RectBase(1, 2)))
    assert s.sight("rider", "horse").hidden == 0.0


# -- how much is hidden -------------------------------------------------------------------


def test_a_wall_ending_at_the_centre_line_hides_exactly_half():
    """VSGMR II.3 Cover: a target at least half blocked by terrain is in cover."""
    s = scene([wall("w", (5, 0), (5, 10.5))], Figure("a", 2, 10.5), Figure("b", 8, 10.5))
    out = s.sight("a", "b")
    assert out.hidden == pytest.approx(0.5)
    assert out.hidden_by_features == pytest.approx(0.5)
    assert out.centre_clear


def test_a_blocker_hides_its_share_of_the_targets_angular_width():
    target = Figure("t", 10, 0, base=RoundBase(1.0))  # half-width asin(0.5/10)
    post = Figure("p", 5, 0, base=RoundBase(0.25))  # half-width asin(0.125/5)
    s = Scene(Table(20, 20), [], [Figure("f", 0, 0), post, target])
    expected = math.asin(0.125 / 5) / math.asin(0.5 / 10)
    out = s.sight("f", "t")
    assert out.hidden == pytest.approx(expected, rel=1e-6)
    assert not out.centre_clear and out.clear


def test_a_blocker_behind_the_target_hides_nothing():
    s = Scene(
        Table(30, 20),
        [Feature.circle("rock", (15, 0), 2.0, blocks_los="yes")],
        [Figure("f", 0, 0), Figure("t", 10, 0)],
    )
    assert s.sight("f", "t").hidden == 0.0


def test_a_rectangular_target_half_behind_a_wall():
    tank = Figure("t", 10, 5, facing=90, base=RectBase(width=2.0, depth=1.0))
    s = scene([wall("w", (5, 0), (5, 5))], Figure("f", 0, 5), tank)
    assert s.sight("f", "t").hidden == pytest.approx(0.5)


def test_a_rock_behind_a_hugging_target_does_not_hide_it():
    """MGV 1.4: cover for a base hugging a rock's face; the rock only hides what is behind it."""
    rock = Feature.polygon("rock", [(11, 3), (14, 3), (14, 7), (11, 7)], blocks_los="yes")
    s = scene([rock], Figure("f", 0, 5), Figure("t", 10.5, 5))
    out = s.sight("f", "t")
    assert out.hidden == 0.0 and out.blocked_by == ()
    assert [f.id for f in s.features_touching("t")] == ["rock"]


def test_hidden_fractions_agree_with_many_sampled_sight_lines():
    """The exact method against a brute-force reference: 400 sight lines per target."""
    rng = random.Random(7)
    features = []
    for i in range(25):
        x, y = rng.uniform(5, 35), rng.uniform(5, 35)
        kind = rng.choice(["yes", "beyond"])
        if i % 3 == 0:
            features.append(Feature.circle(f"c{i}", (x, y), rng.uniform(0.5, 2.5), blocks_los=kind))
        elif i % 3 == 1:
            pts = [(x, y), (x + rng.uniform(-5, 5), y + rng.uniform(-5, 5))]
            pts.append((pts[-1][0] + rng.uniform(-4, 4), pts[-1][1] + rng.uniform(-4, 4)))
            features.append(Feature.polyline(f"l{i}", pts, blocks_los=kind))
        else:  # a concave L
            features.append(
                Feature.polygon(
                    f"p{i}",
                    [
                        (x, y),
                        (x + 3, y),
                        (x + 3, y + 1),
                        (x + 1, y + 1),
                        (x + 1, y + 3),
                        (x, y + 3),
                    ],
                    blocks_los=kind,
                )
            )
    figures = [
        Figure(
            f"f{i}",
            rng.uniform(1, 39),
            rng.uniform(1, 39),
            rng.uniform(0, 360),
            RoundBase(1.0) if i % 3 else RectBase(1.0, 2.0),
        )
        for i in range(30)
    ]
    s = Scene(TABLE, features, figures)
    checked = 0
    for _ in range(30):
        a, b = rng.sample(figures, 2)
        if a.covers(b.at) or b.covers(a.at):
            continue
        exact = s.sight(a, b)
        assert exact.hidden == pytest.approx(_sampled_hidden(s, a, b), abs=0.01)
        checked += 1
    assert checked > 20


def _sampled_hidden(s: Scene, eye: Figure, target: Figure, n: int = 400) -> float:
    """Share of n evenly spread sight lines to the target's near side that are blocked."""
    span = silhouette(eye.at, target)
    assert span is not None
    direction, lo, hi = span
    t_shape = (
        shapely.Point(target.at).buffer(target.base.radius, quad_segs=64)
        if isinstance(target.base, RoundBase)
        else target.outline
    )
    blockers = []
    for f in s.terrain.active:
        if f.blocks_los == "no":
            continue
        touches_t = _touches(target, f)
        touches_e = _touches(eye, f)
        if not (touches_t or touches_e):
            blockers.append(f.geometry)
    for o in s.figures:
        if o.id not in (eye.id, target.id):
            blockers.append(
                shapely.Point(o.at).buffer(o.base.radius, quad_segs=64)
                if isinstance(o.base, RoundBase)
                else o.outline
            )
    theta = direction + lo + (hi - lo) * (np.arange(n) + 0.5) / n
    ends = np.stack([eye.x + 100 * np.cos(theta), eye.y + 100 * np.sin(theta)], axis=1)
    starts = np.broadcast_to(np.array(eye.at), ends.shape)
    lines = shapely.linestrings(np.stack([starts, ends], axis=1))
    coords, which = shapely.get_coordinates(shapely.intersection(lines, t_shape), return_index=True)
    rays = []
    for k in range(n):
        hit = coords[which == k]
        if len(hit):
            near = hit[np.argmin(np.hypot(hit[:, 0] - eye.x, hit[:, 1] - eye.y))]
            rays.append(shapely.LineString([eye.at, tuple(near)]))
    tree = shapely.STRtree(blockers)
    ray_index, blocker_index = tree.query(rays, predicate="intersects")
    grazes = shapely.touches([rays[i] for i in ray_index], [blockers[j] for j in blocker_index])
    blocked = {int(i) for i, graze in zip(ray_index, grazes, strict=True) if not graze}
    return len(blocked) / len(rays)


def _touches(figure: Figure, feature: Feature) -> bool:
    core, radius = figure.solid
    inside = shapely.distance(core, feature.geometry) < radius - 1e-7
    if isinstance(figure.base, RoundBase):
        gap = shapely.distance(shapely.Point(figure.at), feature.geometry) - figure.base.radius
    else:
        gap = shapely.distance(figure.outline, feature.geometry)
    return bool(inside or (feature.blocks_los == "beyond" and gap <= feature.beyond_reach + 1e-6))


# -- areas judged by how much of them a line crosses (see_depth) ----------------------------


def _rubble(depth: float | None = 2.0) -> Feature:
    """A 5" deep rubble field from x = 10 to 15 that blocks sight "beyond"."""
    return Feature.polygon(
        "rubble", [(10, 0), (15, 0), (15, 30), (10, 30)], blocks_los="beyond", see_depth=depth
    )


def test_touching_a_deep_area_gives_no_view_through_it():
    """A figure against one side of a 5" area sees no more through it than one 0.1" back,
    and the figure beyond does not see it either (issue 11)."""
    for x in (9.5, 9.4, 8.0):
        s = scene([_rubble()], Figure("a", x, 15.0), Figure("b", 20.0, 15.0))
        assert not s.sight("a", "b").clear
        assert not s.sight("b", "a").clear


def test_the_reach_rule_is_kept_when_no_depth_is_set():
    """Without see_depth a figure touching a "beyond" area sees across it (MGV, Invisible
    Enemy): the old reading stays available."""
    s = scene([_rubble(None)], Figure("a", 9.5, 15.0), Figure("b", 20.0, 15.0))
    assert s.sight("a", "b").clear
    assert s.sight("b", "a").clear and s.sight("b", "a").obscured >= 0.5


def test_a_shallow_crossing_is_seen_through_with_cover_both_ways():
    """A line crossing less than see_depth of the area sees through; the target is screened."""
    s = scene([_rubble()], Figure("a", 8.0, 15.0), Figure("b", 12.0, 15.0))  # 1.5" in to its edge
    there, back = s.sight("a", "b"), s.sight("b", "a")
    assert there.clear and back.clear
    assert there.obscured >= 0.5 and there.cover_from == ("rubble",)
    assert back.obscured < 0.5  # a is outside the area: firing out of it gives no cover


def test_deep_in_the_area_is_hidden_from_both_sides():
    """A figure 3" inside (more than see_depth between the bases) neither sees nor is seen."""
    s = scene([_rubble()], Figure("a", 6.0, 15.0), Figure("b", 13.8, 15.0))
    assert not s.sight("a", "b").clear
    assert not s.sight("b", "a").clear


def test_sight_between_points_through_a_deep_area_is_symmetric():
    """Between points the crossed depth is the same from either end."""
    s = scene([_rubble()])
    for p, q, seen in (
        ((9.0, 15.0), (16.0, 15.0), False),
        ((9.0, 15.0), (11.5, 15.0), True),
        ((9.0, 29.0), (11.0, 31.0), True),  # cuts a corner
    ):
        assert s.sight(p, q).clear is seen
        assert s.sight(q, p).clear is seen


def test_a_line_past_the_corner_of_a_deep_area_sees_the_part_it_does_not_cross_deep():
    """Depth varies across the silhouette: the part of a target whose lines clip only a
    corner is seen, the rest hidden."""
    area = Feature.polygon(
        "ruins", [(10, 0), (15, 0), (15, 15), (10, 15)], blocks_los="beyond", see_depth=2.0
    )
    s = scene([area], Figure("a", 5.0, 15.0), Figure("b", 25.0, 15.0))  # along its edge
    sight = s.sight("a", "b")
    assert sight.clear and 0.0 < sight.hidden < 1.0


def test_see_depth_is_only_for_beyond_areas():
    with pytest.raises(TableGeometryError):
        Feature.polyline("w", [(0, 0), (1, 0)], blocks_los="beyond", see_depth=1.0)
    with pytest.raises(TableGeometryError):
        Feature.polygon("b", [(0, 0), (1, 0), (1, 1)], blocks_los="yes", see_depth=1.0)
    f = _rubble()
    assert Feature.from_dict(f.to_dict()) == f
