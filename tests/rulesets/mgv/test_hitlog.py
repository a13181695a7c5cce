"""MGV hull layout, hit log and the placement of hits ("5.2 Applying Damage").

One test or more per placement rule 1-7 of ``docs/rules/mgv.md``, the hit
kinds and their effects (4.0, 5.2), the text forms, and properties: the default
placement is legal and maximal, ``placeable`` agrees with a brute-force search,
``placements`` lists only legal maximal placements, adjacency is sector overlap.
"""

from __future__ import annotations

import itertools
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warbench.rulesets.mgv.data import vehicles
from warbench.rulesets.mgv.hitlog import (
    HitGroup,
    HitLog,
    HullLayout,
    _violation,
    apply_placement,
    check_placement,
    default_placement,
    describe,
    parse_circles,
    placeable,
    placements,
)

K817 = HullLayout.of(12, 5, 2)
"""12 surface (30 degrees each), 5 core (72), 2 heart (front and back)."""
L35 = HullLayout.of(8, 3, 1)


def kinetic(hits: int, bearing: float = 0.0, rear: bool = False) -> HitGroup:
    return HitGroup.direct("kinetic", hits, bearing=bearing, rear=rear)


def missile(s: int, c: int, h: int, rule: str = "a", rear: bool = False) -> HitGroup:
    return HitGroup.missile(s, c, h, core_rule="b" if rule == "b" else "a", rear=rear)


def surface_marks(*numbers: int) -> HitLog:
    return HitLog().with_marks({f"s{n}": "S" for n in numbers})


def check(layout: HullLayout, log: HitLog, group: HitGroup, text: str) -> str | None:
    return check_placement(layout, log, group, parse_circles(text, layout))


# ----------------------------------------------------------------------------- layout


def test_layout_angles_sectors_and_ring() -> None:
    s1, s4, c2 = K817.circle("s1"), K817.circle("s4"), K817.circle("c2")
    assert (s1.angle, s1.sector) == (0.0, (-15.0, 15.0))
    assert s4.angle == 90.0
    assert c2.angle == 72.0 and c2.sector == (36.0, 108.0)
    assert c2.adjoins == ("s2", "s3", "s4", "s5")
    assert s1.neighbours == ("s12", "s2")
    assert K817.ids("core") == ("c1", "c2", "c3", "c4", "c5")
    assert K817.span() == "s1-s12, c1-c5, h1-h2"


def test_two_circle_heart_sits_at_the_centre() -> None:
    """Ruling 17: the heart is the hull's middle, so no heart circle is ever on the
    far side and each adjoins every core circle."""
    h1, h2 = K817.circle("h1"), K817.circle("h2")
    assert (h1.angle, h2.angle) == (None, None)
    assert h1.adjoins == h2.adjoins == ("c1", "c2", "c3", "c4", "c5")
    assert h1.neighbours == ("h2",)
    assert not K817.far_side("h1", 0.0) and not K817.far_side("h2", 180.0)


def test_single_heart_is_central_and_adjoins_every_core() -> None:
    h1 = L35.circle("h1")
    assert h1.angle is None and h1.sector is None
    assert h1.adjoins == ("c1", "c2", "c3")
    assert not L35.far_side("h1", 180.0)


def test_layout_cached_per_counts() -> None:
    assert HullLayout.of(12, 5, 2) is K817
    assert HullLayout(12, 5, 2) == K817
    assert hash(HullLayout(12, 5, 2)) == hash(K817)
    with pytest.raises(ValueError, match="at least one core"):
        HullLayout(8, 0, 1)


def test_sectors_touching_at_an_edge_do_not_adjoin() -> None:
    # 6 core circles of 60 degrees: c2 (30..90) only touches s1's (-15..15) and s5's (105..135)
    layout = HullLayout.of(12, 6, 2)
    assert layout.circle("c2").adjoins == ("s2", "s3", "s4")


# ----------------------------------------------------------------------------- rules


def test_hits_need_not_be_contiguous() -> None:
    """Rule 1."""
    assert check(K817, HitLog(), kinetic(3), "s1 s3 s11") is None


def test_interior_needs_marked_outer() -> None:
    """Rule 2: a core circle needs an adjoining surface circle marked before or
    earlier in this group; a heart circle needs an adjoining marked core circle."""
    log = surface_marks(5, 6, 7, 8, 9, 10)  # six left: the core is open (rule 4)
    assert check(K817, log, kinetic(3), "s3 s4 c1") == "c1 does not adjoin a marked surface circle"
    assert check(K817, log, kinetic(3), "s1 s3 c1") is None  # s1, marked in this group
    assert check(K817, log, kinetic(3), "s3 s4 c2") is None  # s5, marked before
    assert check(K817, HitLog(), missile(0, 0, 1), "h1") == (
        "h1 does not adjoin a marked core circle"
    )
    cored = HitLog().with_marks({"s1": "S", "c1": "P"})
    assert check(K817, cored, missile(0, 0, 1), "h1") is None
    assert check(K817, cored, missile(0, 0, 1), "h2") is None  # the heart is central


def test_far_side_refused_for_kinetic_and_photon() -> None:
    """Rule 3: more than 90 degrees from the attacker's bearing is the far side."""
    for weapon in ("kinetic", "photon"):
        group = HitGroup.direct(weapon, 2, bearing=0.0)
        assert check(K817, HitLog(), group, "s1 s7") == "s7 is on the far side from the attacker"
        assert check(K817, HitLog(), group, "s4 s10") is None  # exactly 90 degrees away
    left = kinetic(2, bearing=90.0)
    assert check(K817, HitLog(), left, "s1 s7") is None
    assert check(K817, HitLog(), left, "s10 s4") == "s10 is on the far side from the attacker"


def test_far_side_does_not_bind_missiles() -> None:
    assert check(K817, HitLog(), missile(2, 0, 0), "s7 s8") is None


def test_outside_in_until_six_surface_left() -> None:
    """Rule 4: no core hit while more than six surface circles are unmarked,
    counting the surface marks this group makes first."""
    nine_left = surface_marks(5, 6, 7)
    assert check(K817, nine_left, kinetic(3), "s1 s2 c1") == (
        "c1 may not be marked while 7 surface circles are unmarked, 5 of them facing the "
        "attacker (outside-in: six or fewer first, or none left facing the attacker)"
    )
    eight_left = surface_marks(5, 6, 7, 8)
    assert check(K817, eight_left, kinetic(3), "s1 s2 c1") is None


def test_outside_in_fills_the_surface_before_the_core() -> None:
    # an undamaged K817 hit by 8 kinetic hits from the front: 7 near surface
    # circles, then the eighth hit may bump down (5 surface circles left)
    group = kinetic(8)
    assert placeable(K817, HitLog(), group) == 8
    placed = default_placement(K817, HitLog(), group)
    assert sum(c.startswith("s") for c in placed) == 7
    assert sum(c.startswith("c") for c in placed) == 1


def test_taper_x_plus_one() -> None:
    """Rule 5: X hits on a layer need X+1 on the layer above, counting the group's own
    hits and the circles already marked on the side facing the attacker (ruling 3)."""
    log = surface_marks(5, 6, 7, 8, 9, 10).with_marks({"c2": "P"})  # near side: s10, c2
    assert check(K817, log, kinetic(3), "s1 c1 c5") == (
        "the taper needs at least 3 surface hits above 2 core hits (this group's and "
        "those already marked on the side facing the attacker), or every surface circle "
        "facing it marked"
    )
    assert check(K817, log, kinetic(4), "s1 s2 c1 c5") is None  # 2 + s10 above 2 core
    assert check(K817, log, kinetic(4), "s1 s2 c1 h1") is None  # c1 + c2 above 1 heart
    assert check(K817, log, kinetic(6), "s1 s2 s3 c1 c5 h1") is None  # 3, 2, 1
    # marks on the far side do not count: nothing there faces the attacker
    far = surface_marks(5, 6, 7, 8, 9)
    assert check(K817, far, kinetic(2), "s1 c1") == (
        "the taper needs at least 2 surface hits above 1 core hit (this group's and "
        "those already marked on the side facing the attacker), or every surface circle "
        "facing it marked"
    )


def test_taper_does_not_bind_missiles() -> None:
    log = HitLog().with_marks({"s1": "S", "c1": "P"})
    assert check(K817, log, missile(0, 2, 0, "b"), "c2 c3") is None


def test_missile_core_rule_a_balance() -> None:
    """Rule 6 (a): core marks never outnumber marked surface circles, and each
    adjoins a marked surface circle."""
    group = missile(1, 2, 0, "a")
    assert check(K817, HitLog(), group, "s2 c1 c2") == (
        "core marks (2) would outnumber marked surface circles (1) (core rule a)"
    )
    assert check(K817, HitLog(), group, "s2 c1") is None
    assert check(K817, HitLog(), group, "s1 c1 c2") == "c2 does not adjoin a marked surface circle"
    assert placeable(K817, HitLog(), group) == 2
    assert check(K817, HitLog(), missile(2, 2, 0, "a"), "s1 s3 c1 c2") is None


def test_missile_core_rule_b_eats_around() -> None:
    """Rule 6 (b): a core circle neighbouring a marked core circle may be marked
    beneath intact surface circles; the balance does not apply."""
    assert check(K817, HitLog(), missile(1, 2, 0, "b"), "s1 c1 c2") is None
    log = HitLog().with_marks({"s1": "S", "c1": "P"})
    assert check(K817, log, missile(0, 2, 0, "b"), "c3 c2") is None  # any order
    assert check(K817, log, missile(0, 2, 0, "a"), "c2 c3") == (
        "c2 does not adjoin a marked surface circle"
    )
    assert check(K817, log, missile(0, 1, 0, "b"), "c3") == (
        "c3 does not adjoin a marked surface circle or neighbour a marked core circle"
    )


def test_missile_hits_stay_on_their_own_layer() -> None:
    assert check(K817, HitLog(), missile(1, 0, 0), "s1 s2") == (
        "2 surface circles named for 1 surface hit"
    )
    assert check(K817, HitLog(), missile(2, 0, 0), "s1 c1") == (
        "1 core circle named for 0 core hits"
    )


def test_hits_without_a_circle_are_lost() -> None:
    """Rule 7: hits with no legal circle are lost, so missiles barely scratch
    a big undamaged vehicle."""
    assert placeable(K817, HitLog(), missile(0, 3, 2)) == 0
    assert default_placement(K817, HitLog(), missile(0, 3, 2)) == ()
    assert check(K817, HitLog(), missile(0, 3, 2), "") is None
    # the K817's near side gone but for s4 and s10: through the holes into the core
    log = surface_marks(11, 12, 1, 2, 3)
    assert placeable(K817, log, kinetic(5)) == 5
    assert check(K817, log, kinetic(5), "s4 s10 c1 c2 c5") is None


def test_outside_in_bumps_down_once_nothing_facing_the_attacker_is_left() -> None:
    """Ruling 17: a J90's whole near side marked leaves seven surface circles, all
    on the far side where direct hits may not go; the next hits go inward (through
    the near core, then the heart) instead of being lost."""
    j90 = HullLayout.of(14, 6, 2)
    near = HitLog().with_marks({f"s{i}": "S" for i in (1, 2, 3, 4, 12, 13, 14)})
    assert placeable(j90, near, kinetic(4)) == 4
    assert default_placement(j90, near, kinetic(4)) == ("c1", "c2", "c6", "h1")
    # one near surface circle left: it must be marked before anything goes inward
    almost = HitLog().with_marks({f"s{i}": "S" for i in (1, 2, 3, 12, 13, 14)})
    assert check(j90, almost, kinetic(2), "c1 c2") == (
        "c1 may not be marked while 8 surface circles are unmarked, 1 of them facing the "
        "attacker (outside-in: six or fewer first, or none left facing the attacker)"
    )
    assert check(j90, almost, kinetic(2), "s4 c1") is None


def test_taper_is_met_when_every_circle_facing_the_attacker_above_is_marked() -> None:
    """Ruling 17: an L35 has one core circle facing the front; once it is marked a
    heart hit needs no second core mark there is no circle for."""
    front = HitLog().with_marks({f"s{i}": "S" for i in (1, 2, 3, 7, 8)})
    assert check(L35, front.with_marks({"c1": "P"}), kinetic(1), "h1") is None
    assert check(L35, front, kinetic(2), "c1 h1") is None
    # a J90 with only one of its three near core circles marked: the taper binds
    j90 = HullLayout.of(14, 6, 2)
    cored = HitLog().with_marks({f"s{i}": "S" for i in (1, 2, 3, 4, 12, 13, 14)} | {"c1": "P"})
    assert check(j90, cored, kinetic(1), "h1") == (
        "the taper needs at least 2 core hits above 1 heart hit (this group's and those "
        "already marked on the side facing the attacker), or every core circle facing it marked"
    )


@pytest.mark.parametrize("bearing", [0.0, 37.0, 180.0])
@pytest.mark.parametrize("hits", [1, 2, 4])
def test_sustained_fire_from_one_bearing_destroys_every_model(bearing: float, hits: int) -> None:
    """Ruling 17: kinetic or photon groups from one bearing, each placed by the owner's
    default, destroy every model of the vehicle sheet and lose no hit before the last."""
    for name, model in vehicles().models.items():
        layout = HullLayout.of(model.hull.surface, model.hull.core, model.hull.heart)
        log, attacks = HitLog(), 0
        while not log.destroyed(layout):
            attacks += 1
            assert attacks <= 40, f"{name} still standing after 40 attacks from {bearing}"
            group = kinetic(hits, bearing=bearing)
            placed = default_placement(layout, log, group)
            log = apply_placement(log, group, placed)
            assert len(placed) == hits or log.destroyed(layout), (name, attacks, placed)


def test_fewer_than_maximal_refused() -> None:
    """Rule 7: a placement must place as many hits as the rules allow."""
    log = surface_marks(11, 12, 1, 2, 3)
    assert check(K817, log, kinetic(5), "s4 s10") == "5 hits could be placed but only 2 were"
    assert check(K817, HitLog(), kinetic(1), "") == "1 hit could be placed but none were"


def test_check_refuses_unknown_repeated_and_marked_circles() -> None:
    log = surface_marks(1)
    assert check_placement(K817, log, kinetic(2), ("s1", "s2")) == "s1 is marked already"
    assert check_placement(K817, log, kinetic(2), ("s2", "s2")) == "s2 is named twice"
    assert check_placement(K817, log, kinetic(2), ("s2", "s13")) == (
        "s13 is not a circle of this hull (s1-s12, c1-c5, h1-h2)"
    )
    assert check_placement(K817, log, kinetic(1), ("s2", "s3")) == "2 circles named for 1 hit"
    with pytest.raises(ValueError, match="not a circle of this hull"):
        check_placement(L35, surface_marks(12), kinetic(1), ("s1",))


# ----------------------------------------------------------------------------- hit kinds


def test_rear_arc_s_hits_count_as_p() -> None:
    log = apply_placement(HitLog(), kinetic(2, bearing=180.0, rear=True), ("s7", "s8"), K817)
    assert log.to_json() == {"s7": "P", "s8": "P"}
    assert (log.s_hits, log.p_hits) == (0, 2)
    assert log.speed(8.0, 1.0) == 6.0
    assert log.defence(4, 2) == 3  # still marked surface circles
    front = apply_placement(HitLog(), kinetic(2), ("s1", "s2"), K817)
    assert (front.s_hits, front.p_hits) == (2, 0)
    swarm = apply_placement(HitLog(), missile(1, 0, 0, rear=True), ("s5",), K817)
    assert swarm.p_hits == 1


def test_core_marks_are_p_and_heart_marks_b() -> None:
    log = surface_marks(5, 6, 7, 8, 9, 10)
    log = apply_placement(log, kinetic(6), ("s1", "s2", "s3", "c1", "c5", "h1"), K817)
    assert log.counts() == {"S": 9, "P": 2, "B": 1}
    assert log.marked("core") == ("c1", "c5")
    assert log.unmarked("heart", K817) == ("h2",)


def test_defence_never_below_one() -> None:
    assert surface_marks(1, 2, 3).defence(4, 4) == 4
    assert surface_marks(1, 2, 3, 4).defence(4, 4) == 3
    assert surface_marks(*range(1, 13)).defence(2, 4) == 1
    assert HitLog().defence(1, 4) == 1


def test_p_hits_slow_and_immobilise() -> None:
    three = HitLog().with_marks({"c1": "P", "c2": "P", "c3": "P"})
    assert three.speed(8.0, 1.0) == 5.0 and not three.immobile(8.0, 1.0)
    many = (
        HitLog()
        .with_marks({f"c{i}": "P" for i in range(1, 7)})
        .with_marks({f"s{i}": "P" for i in range(1, 5)})
    )
    assert many.p_hits == 10
    assert many.speed(8.0, 1.0) == 0.0 and many.immobile(8.0, 1.0)


def test_p_resistant_half_inch() -> None:
    three = HitLog().with_marks({"c1": "P", "c2": "P", "c3": "P"})
    assert three.speed(8.0, 0.5) == 6.5
    many = HitLog().with_marks({f"s{i}": "P" for i in range(1, 17)})
    assert many.speed(8.0, 0.5) == 0.0 and many.immobile(8.0, 0.5)


def test_destroyed_when_every_heart_circle_is_marked() -> None:
    one = HitLog().with_marks({"h1": "B"})
    assert one.destroyed(L35)
    assert not one.destroyed(K817)
    assert one.with_marks({"h2": "B"}).destroyed(K817)
    assert one.b_hits == 1


def test_log_refuses_wrong_kinds_and_double_marks() -> None:
    with pytest.raises(ValueError, match="core circle: its mark is P"):
        HitLog().with_marks({"c1": "S"})
    with pytest.raises(ValueError, match="marked already"):
        surface_marks(1).with_marks({"s1": "S"})
    with pytest.raises(ValueError, match="not a circle id"):
        HitLog().with_marks({"x1": "S"})


def test_log_is_hashable_and_canonical() -> None:
    a = HitLog().with_marks({"c1": "P", "s2": "S", "s10": "S"})
    b = HitLog().with_marks({"s10": "S"}).with_marks({"s2": "S", "c1": "P"})
    assert a == b and hash(a) == hash(b)
    assert [cid for cid, _ in a.marks] == ["s2", "s10", "c1"]


def test_json_round_trip() -> None:
    log = HitLog().with_marks({"s3": "P", "s1": "S", "c2": "P", "h1": "B"})
    assert log.to_json() == {"s1": "S", "s3": "P", "c2": "P", "h1": "B"}
    assert HitLog.from_json(log.to_json()) == log
    with pytest.raises(ValueError):
        HitLog.from_json({"h1": "P"})
    with pytest.raises(ValueError):
        HitLog.from_json(["s1"])  # type: ignore[arg-type]
    group = missile(2, 1, 0, "b", rear=True)
    assert HitGroup.from_json(group.to_json()) == group
    assert HitGroup.from_json(kinetic(3, 370.0).to_json()) == kinetic(3, 10.0)


def test_groups_refuse_mixed_counts() -> None:
    with pytest.raises(ValueError):
        HitGroup("missile", hits=2)
    with pytest.raises(ValueError):
        HitGroup("kinetic", surface=2)
    with pytest.raises(ValueError):
        HitGroup.direct("kinetic", -1, bearing=0.0)
    with pytest.raises(ValueError):
        HitGroup.direct("kinetic", 1, bearing=float("nan"))
    assert missile(2, 1, 1).total == 4


# ----------------------------------------------------------------------------- text


def test_parse_circles() -> None:
    assert parse_circles("s3 s4 c2") == ("s3", "s4", "c2")
    assert parse_circles(" S3,s4 ,C2 ") == ("s3", "s4", "c2")
    assert parse_circles("") == ()


def test_parse_circles_refuses_unknown_ids() -> None:
    with pytest.raises(ValueError, match="q2 is not a circle: circles are s1"):
        parse_circles("s3 q2")
    with pytest.raises(ValueError, match="s0 is not a circle"):
        parse_circles("s0")
    with pytest.raises(
        ValueError, match=r"h3 is not a circle of this hull \(s1-s12, c1-c5, h1-h2\)"
    ):
        parse_circles("h3", K817)
    with pytest.raises(ValueError, match="s2 is named twice"):
        parse_circles("s2 S2")


def test_describe() -> None:
    log = HitLog().with_marks({"s1": "S", "s2": "S", "s3": "S", "c1": "P"})
    assert describe(log, K817) == "S 3/12, P 1/5, B 0/2"
    assert describe(log.with_marks({"s4": "P"}), K817) == "S 4/12, P 1/5 +1 rear, B 0/2"
    assert describe(HitLog()) == "S 0, P 0, B 0"


# ----------------------------------------------------------------------------- defaults


def test_default_keeps_holes_together_facing_the_attacker() -> None:
    assert default_placement(K817, HitLog(), kinetic(3, bearing=90.0)) == ("s3", "s4", "s5")
    # next to old holes: s5..s7 are marked; two hits from the front-left
    log = surface_marks(5, 6, 7)
    assert default_placement(K817, log, kinetic(2, bearing=90.0)) == ("s3", "s4")


def test_default_keeps_damage_off_the_heart() -> None:
    # five surface circles left, all facing the attacker: six kinetic hits fit as
    # 5 surface + 1 core, 4 + 2, or 3 + 2 + 1 heart; the owner takes the first
    log = surface_marks(4, 5, 6, 7, 8, 9, 10)
    group = kinetic(6)
    chosen = default_placement(K817, log, group)
    assert [c[0] for c in chosen] == ["s"] * 5 + ["c"]
    listed = placements(K817, log, group, limit=500)
    assert any(c.startswith("h") for p in listed for c in p)
    assert all(len(p) == 6 for p in listed)


def test_default_prefers_surface_over_core() -> None:
    log = surface_marks(5, 6, 7, 8, 9, 10)  # the core is open, but surface comes first
    # and away from s12, s1 and s2, the last intact cover of c1
    assert default_placement(K817, log, kinetic(3)) == ("s3", "s4", "s11")
    assert "c1" in {c for p in placements(K817, log, kinetic(3), limit=50) for c in p}


def test_placements_fast_on_the_biggest_hull() -> None:
    big = HullLayout.of(16, 6, 2)
    logs = [HitLog(), surface_marks(*range(1, 11)), surface_marks(*range(1, 17, 2))]
    groups = [kinetic(8), kinetic(8, 135.0, True), missile(3, 3, 2), missile(2, 4, 2, "b")]
    start = time.perf_counter()
    for log, group in itertools.product(logs, groups):
        found = placements(big, log, group, limit=12)
        assert found and all(check_placement(big, log, group, p) is None for p in found)
    assert time.perf_counter() - start < 5.0


# ----------------------------------------------------------------------------- properties

HULLS = [(6, 2, 1), (8, 3, 1), (10, 4, 1), (12, 5, 2), (14, 6, 2), (16, 6, 2)]


@st.composite
def situations(
    draw: st.DrawFn, hulls: st.SearchStrategy[tuple[int, int, int]], most: int
) -> tuple[HullLayout, HitLog, HitGroup]:
    layout = HullLayout.of(*draw(hulls))
    marks: dict[str, str] = {}
    density = draw(st.integers(0, 3))  # none, a quarter, half, three quarters marked
    for cid in layout.ids():
        if draw(st.integers(0, 3)) < density:
            kind = {"s": draw(st.sampled_from("SP")), "c": "P", "h": "B"}[cid[0]]
            marks[cid] = kind
    log = HitLog().with_marks(marks)
    bearing = draw(st.sampled_from([0.0, 45.0, 90.0, 135.0, 180.0, 270.0, 300.5]))
    rear = draw(st.booleans())
    if draw(st.booleans()):
        weapon = draw(st.sampled_from(["kinetic", "photon"]))
        group = HitGroup(weapon, hits=draw(st.integers(0, most)), bearing=bearing, rear=rear)
    else:
        s = draw(st.integers(0, most))
        c = draw(st.integers(0, most - s))
        h = draw(st.integers(0, min(2, most - s - c)))
        rule = draw(st.sampled_from(["a", "b"]))
        group = missile(s, c, h, rule, rear)
    return layout, log, group


SMALL = st.sampled_from([(6, 2, 1), (8, 3, 1), (5, 2, 2), (7, 3, 2), (4, 1, 1)])


def _brute_force(layout: HullLayout, log: HitLog, group: HitGroup) -> set[tuple[str, ...]]:
    """Every legal placement of largest size, by trying every set of circles."""
    free = [c for c in layout.ids() if not log.is_marked(c)]
    for size in range(min(group.total, len(free)), -1, -1):
        legal = {
            combo
            for combo in itertools.combinations(free, size)
            if _violation(layout, log, group, combo) is None
        }
        if legal:
            return legal
    raise AssertionError("the empty placement is always legal")


@settings(max_examples=200, deadline=None)
@given(situations(st.sampled_from(HULLS), 8))
def test_default_placement_is_legal_and_maximal(
    situation: tuple[HullLayout, HitLog, HitGroup],
) -> None:
    layout, log, group = situation
    chosen = default_placement(layout, log, group)
    assert check_placement(layout, log, group, chosen) is None
    assert len(chosen) == placeable(layout, log, group) <= group.total
    assert default_placement(layout, log, group) == chosen  # deterministic


@settings(max_examples=150, deadline=None)
@given(situations(SMALL, 5))
def test_placeable_and_placements_match_brute_force(
    situation: tuple[HullLayout, HitLog, HitGroup],
) -> None:
    layout, log, group = situation
    legal = _brute_force(layout, log, group)
    best = len(next(iter(legal)))
    assert placeable(layout, log, group) == best
    listed = placements(layout, log, group, limit=10_000)
    assert set(listed) == legal
    assert len(listed) == len(set(listed))
    for combo in legal:
        assert check_placement(layout, log, group, combo) is None
        assert check_placement(layout, log, group, combo[::-1]) is None  # order is free


@settings(max_examples=150, deadline=None)
@given(situations(st.sampled_from(HULLS), 8), st.integers(1, 15))
def test_placements_are_legal_distinct_and_default_first(
    situation: tuple[HullLayout, HitLog, HitGroup], limit: int
) -> None:
    layout, log, group = situation
    found = placements(layout, log, group, limit=limit)
    assert 1 <= len(found) <= limit
    assert found[0] == default_placement(layout, log, group)
    assert len(set(found)) == len(found)
    best = placeable(layout, log, group)
    for placement in found:
        assert check_placement(layout, log, group, placement) is None
        assert len(placement) == best
        assert list(placement) == sorted(placement, key=layout.order)


@settings(max_examples=150, deadline=None)
@given(situations(st.sampled_from(HULLS), 8))
def test_apply_never_marks_a_circle_twice(
    situation: tuple[HullLayout, HitLog, HitGroup],
) -> None:
    layout, log, group = situation
    chosen = default_placement(layout, log, group)
    after = apply_placement(log, group, chosen, layout)
    assert len(after) == len(log) + len(chosen)
    assert all(after.kind(cid) == kind for cid, kind in log.marks)
    for cid in chosen:
        assert after.kind(cid) == {"s": "P" if group.rear else "S", "c": "P", "h": "B"}[cid[0]]
        with pytest.raises(ValueError):
            apply_placement(after, group, (cid,))
    if chosen:
        with pytest.raises(ValueError):
            apply_placement(log, group, (chosen[0], chosen[0]))


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> float:
    total = 0.0
    for turn in (-360.0, 0.0, 360.0):
        total += max(0.0, min(a[1], b[1] + turn) - max(a[0], b[0] + turn))
    return total


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 16), st.integers(1, 6), st.integers(1, 2))
def test_layout_adjacency_symmetric_with_sector_overlap(
    surface: int, core: int, heart: int
) -> None:
    layout = HullLayout.of(surface, core, heart)
    for outer, inner in (("surface", "core"), ("core", "heart")):
        for i in layout.ids(inner):
            for o in layout.ids(outer):
                ci, co = layout.circle(i), layout.circle(o)
                expected = (
                    ci.sector is None or co.sector is None or _overlap(ci.sector, co.sector) > 1e-6
                )
                assert (o in ci.adjoins) == expected == (i in co.inner)
    for layer in ("surface", "core", "heart"):
        ids = layout.ids(layer)
        for cid in ids:
            c = layout.circle(cid)
            assert all(cid in layout.circle(n).neighbours for n in c.neighbours)
            assert len(c.neighbours) == min(2, len(ids) - 1)
            if c.angle is not None:
                assert c.angle == pytest.approx((c.index - 1) * 360 / len(ids))
                assert c.sector is not None
                assert c.sector[1] - c.sector[0] == pytest.approx(360 / len(ids))


def test_1_6_a_first_b_hit_leaves_every_model_standing_at_risk_of_sudden_death() -> None:
    """Ruling 19: every model's heart has two or three circles, so a B hit does not
    destroy it outright; it rolls for sudden death (1.6) instead."""
    for name, model in vehicles().models.items():
        layout = HullLayout.of(model.hull.surface, model.hull.core, model.hull.heart)
        assert model.hull.heart >= 2, name
        log = HitLog().with_marks({"s1": "S", "c1": "P", "h1": "B"})
        assert log.b_hits == 1 and not log.destroyed(layout)


@settings(deadline=None, max_examples=60)
@given(st.data())
def test_the_unmarked_count_is_every_layer_s_unmarked_circles(data: st.DataObject) -> None:
    layout = HullLayout.of(*data.draw(st.sampled_from([(8, 3, 1), (12, 4, 2), (6, 2, 1)])))
    marked = data.draw(st.sets(st.sampled_from(layout.ids())))
    kinds = {"s": "S", "c": "P", "h": "B"}
    log = HitLog().with_marks({cid: kinds[cid[0]] for cid in marked})
    layers = ("surface", "core", "heart")
    assert log.unmarked_count(layout) == sum(len(log.unmarked(x, layout)) for x in layers)
