"""5.0-5.3 Direct fire in play: arcs, range, line of fire, modifiers, steps, 5.3 specials.

Models (stand-in stats page): J90 K attack 5 defence 4 hull 9 range 10"; L35 P
4/3/6, 8"; L63 C 4/2/6, 6"; K817 K 4/3/6, 10"; K900 K 5/5/9; L12 C 3/2/6, 6".
Stand-in chart: the K row is attack - defence - 1, the C/P row one worse.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from warbench.errors import IllegalAction
from warbench.rulesets.invisible_enemy import fire, space
from warbench.rulesets.invisible_enemy.actions import Fire
from warbench.rulesets.invisible_enemy.charts import chart_modifier, direct_fire


def fire_phase(ie: Any, units: list[Any], asked: bool = True, **kw: Any) -> Any:
    """A game at direct fire (5.0): both sides pass on moving and on self-destructing.

    A one-turn game: a side with no possible shot is not asked (ruling 53), and once
    no one is, the turn (and so the game) ends without another die. ``asked``: some
    side is asked to fire; else none is and the game is over."""
    kw.setdefault("turns", 1)
    game = ie.start(units, first="blue", **kw)
    ie.act(game, "blue", "pass")
    ie.act(game, "red", "pass")
    ie.act(game, "blue", "done")
    ie.act(game, "red", "done")
    if asked:
        assert game.state.step in ("fire_a", "fire_b")
    else:
        assert game.state.step == "over" and not ie.events(game, "fire")
    return game


def no_shot(ie: Any, game: Any, shooter: str, target: str) -> str:
    """Blue was passed over in step a (ruling 53); the rules' verdict on the shot."""
    assert any("blue has no shot in step a" in e.text for e in ie.events(game, "no_shot"))
    why = space.refusal(game.state, ie.the(game, shooter), target)
    assert why is not None
    return why


def finish(ie: Any, game: Any, step: str) -> None:
    """Every side asked in ``step`` says done."""
    while game.state.step == step:
        ie.act(game, game.decision.sides[0], "done")


def polar(origin: tuple[float, float], bearing: float, far: float) -> tuple[float, float]:
    a = math.radians(bearing)
    return (round(origin[0] + far * math.cos(a), 4), round(origin[1] + far * math.sin(a), 4))


def reserve(ie: Any) -> list[Any]:
    """C bases far off facing away, so no test clears the field by accident (and step a
    is left to the bases under test)."""
    return [
        ie.unit("blue", "UZ", ie.base("BZ", "L63", (1, 22), 180)),
        ie.unit("red", "VZ", ie.base("RZ", "L12", (23, 22), 0)),
    ]


def duel(
    ie: Any, target: tuple[float, float], model: str = "K817", asked: bool = True, **kw: Any
) -> Any:
    """Blue's J90 B1 at (2, 12) facing east against red R1 at ``target``."""
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0)),
        ie.unit("red", "V1", ie.base("R1", model, target, 180)),
        *reserve(ie),
    ]
    return fire_phase(ie, units, asked, **kw)


# -- 1.6 phase 5: who is asked ---------------------------------------------------------------
def test_a_side_with_no_possible_shot_is_not_asked_to_fire_5_0(ie: Any) -> None:
    # 9.9" apart, facing each other: both are asked, blue first
    near = duel(ie, (11.9, 12))
    assert near.decision.sides == ("blue",)
    ie.act(near, "blue", "done")
    assert near.state.step == "fire_a" and near.decision.sides == ("red",)
    # 10.5" apart, measured freely: neither can reach the other (10"), so no one is asked;
    # (nor in step b: the reserve's C bases face off the table); the game goes on to the
    # barrages and, its one turn over, ends
    far = duel(ie, (12.5, 12), asked=False)
    said = [e.text for e in ie.events(far, "no_shot")]
    assert said[:2] == [
        "blue has no shot in step a: no enemy within reach of its bases as the table is "
        "seen (5.0, ruling 53)",
        "red has no shot in step a: no enemy within reach of its bases as the table is "
        "seen (5.0, ruling 53)",
    ]
    assert far.outcome is not None


def test_by_eye_the_skip_allows_the_eyes_error_at_both_ends_5_0(ie: Any) -> None:
    eye = {"measuring": "eye"}
    # 10.5" apart: out of range, but the eye puts B1 at (3, 13) and R1 at (13, 13), and
    # either might stand anywhere in its 2" cell: the step is kept, and the shot refused
    kept = duel(ie, (12.5, 12), options=eye)
    assert kept.state.step == "fire_a" and kept.decision.sides == ("blue",)
    assert not ie.events(kept, "no_shot")
    assert 'beyond the 10" range' in ie.refused(kept, "fire B1 R1", "blue")
    # 14" apart by eye (3, 13 to 17, 13): beyond 10" and both cells' error (2.83")
    gone = duel(ie, (16, 12), asked=False, options=eye)
    assert [e.data["step"] for e in ie.events(gone, "no_shot")] == ["fire_a"] * 2 + ["fire_b"] * 2
    # moving the bases anywhere within their cells changes nothing (what both see)
    for at in ((2.1, 12.1), (3.9, 13.9)):
        ie.the(gone, "B1").geo = ie.the(gone, "B1").geo.moved_to(at, 0.0)
        gone.state.touched()
        assert not fire.may_shoot(gone.state, "blue", "fire_a")


# -- 5.0 arcs and range ----------------------------------------------------------------------
def test_k_and_p_fire_within_22_5_degrees_of_the_facing(ie: Any) -> None:
    game = duel(ie, polar((2, 12), 22.0, 6))
    assert [a for a in game.legal_actions("blue") if str(a) == "fire B1 R1"]
    wide = duel(ie, polar((2, 12), 25.0, 6), asked=False)
    reason = no_shot(ie, wide, "B1", "R1")
    assert reason == "R1 is outside the 45-degree arc of B1's kinetic weapon (5.0)"


def test_c_fires_within_30_degrees_of_the_facing(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("L1", "L63", (2, 12), 0)),
        ie.unit("red", "V1", ie.base("R1", "L12", polar((2, 12), 28.0, 5), 180)),
        ie.unit("red", "V2", ie.base("R2", "L12", polar((2, 12), -32.0, 5), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units)
    finish(ie, game, "fire_a")
    assert game.state.step == "fire_b"
    assert fire.targets(game.state, ie.the(game, "L1")) == ["R1"]
    assert "outside the 60-degree arc of L1's chemical weapon" in ie.refused(
        game, "fire L1 R2", "blue"
    )
    ie.act(game, "blue", "fire L1 R1", 4)
    assert ie.last(game, "fire").data["target"] == "R1"


def test_range_is_centre_to_centre_up_to_the_weapons_range(ie: Any) -> None:
    near = duel(ie, (11.9, 12))  # 9.9" centre to centre: J90 reaches 10"
    ie.act(near, "blue", "fire B1 R1", 3)
    far = duel(ie, (12.5, 12), asked=False)
    assert '10.5" away, beyond the 10" range of B1' in no_shot(ie, far, "B1", "R1")


# -- 1.5 weapon blocks and 5.0 line of fire --------------------------------------------------
def test_100_percent_terrain_stops_fire(ie: Any) -> None:
    game = duel(ie, (9, 12), asked=False, features=[ie.box("S1", "salt", 5, 11, 6, 13)])
    reason = no_shot(ie, game, "B1", "R1")
    assert "S1 (100% weapon block) stops the fire of B1 at R1 (1.5)" in reason
    assert fire.targets(game.state, ie.the(game, "B1")) == []


def test_a_target_within_1_inch_behind_50_percent_terrain_is_covered(ie: Any) -> None:
    # fine sand from x=7 to 8; R1 (radius 0.65) at x=8.9 is 0.25" behind it
    game = duel(ie, (8.9, 12), features=[ie.box("F1", "fine_sand", 7, 10, 8, 14)])
    ie.act(game, "blue", "fire B1 R1", 6)
    shot = ie.last(game, "fire").data
    # K row for 5 against 3 is +1; cover -3 (5.1)
    assert shot["cover"] is True and shot["modifier"] == 1 - 3 and shot["hits"] == 4


def test_50_percent_terrain_stops_fire_when_neither_end_is_within_1_inch(ie: Any) -> None:
    game = duel(ie, (10.5, 12), asked=False, features=[ie.box("F1", "fine_sand", 7, 10, 8, 14)])
    reason = no_shot(ie, game, "B1", "R1")
    assert "F1 (50% weapon block) stops the fire of B1 at R1" in reason
    assert 'neither of them is within 1" of it (1.5)' in reason


def test_a_firer_within_1_inch_of_50_percent_terrain_fires_across_it_uncovered(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (6.0, 12), 0)),  # 0.25" short of the sand
        ie.unit("red", "V1", ie.base("R1", "K817", (11, 12), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units, features=[ie.box("F1", "fine_sand", 7, 10, 8, 14)])
    ie.act(game, "blue", "fire B1 R1", 2)
    assert ie.last(game, "fire").data["cover"] is False  # ruling 19(a)


def _through(ie: Any, blocker: str, **kw: Any) -> Any:
    """B1's K fire at R1 with X1 (a friend of another unit, a foe, or a unit-mate) on the
    line."""
    side, unit = {"friend": ("blue", "U2"), "foe": ("red", "V2"), "unit-mate": ("blue", "U1")}[
        blocker
    ]
    between = ie.base("X1", "L35" if side == "blue" else "K817", (5, 12), 0)
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0), *([between] * (unit == "U1"))),
        ie.unit("red", "V1", ie.base("R1", "K817", (9, 12), 180)),
        *([ie.unit(side, unit, between)] if unit != "U1" else []),
        *reserve(ie),
    ]
    return fire_phase(ie, units, **kw)


@pytest.mark.parametrize("blocker", ["friend", "foe"])
def test_k_and_p_may_not_fire_through_another_unit(ie: Any, blocker: str) -> None:
    reason = ie.refused(_through(ie, blocker), "fire B1 R1", "blue")
    assert "X1 stands between B1 and R1: K and P fire may not pass another unit" in reason


def test_k_and_p_fire_past_their_own_unit_mates(ie: Any) -> None:
    """5.0: fire may not pass through *other* units; the firer's own unit does not block
    (ruling 26). Option unit_mates_block = true: it does."""
    game = _through(ie, "unit-mate")
    ie.act(game, "blue", "fire B1 R1", 3)  # taken: the die of the shot
    assert ie.last(game, "fire").data["shooter"] == "B1"
    game = _through(ie, "unit-mate", options={"unit_mates_block": True})
    assert "X1 stands between B1 and R1" in ie.refused(game, "fire B1 R1", "blue")


def c_through(ie: Any, second: tuple[float, float]) -> Any:
    """Blue's C base L1 aims at R1 past red's unit V2 (R2 on the line, R3 at ``second``)."""
    units = [
        ie.unit("blue", "U1", ie.base("L1", "L63", (2, 6), 0)),
        ie.unit("red", "V1", ie.base("R1", "L12", (7.5, 6), 180)),
        ie.unit("red", "V2", ie.base("R2", "L12", (5, 6), 180), ie.base("R3", "L12", second, 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units)
    finish(ie, game, "fire_a")
    assert game.state.step == "fire_b"
    return game


def test_c_fires_through_a_loose_unit(ie: Any) -> None:
    game = c_through(ie, (5, 8.5))  # R2 and R3 1.6" apart edge to edge
    assert "R1" in fire.targets(game.state, ie.the(game, "L1"))
    ie.act(game, "blue", "fire L1 R1", 5)
    assert ie.last(game, "fire").data["target"] == "R1"


def test_c_may_not_fire_through_a_packed_unit(ie: Any) -> None:
    game = c_through(ie, (5, 7.2))  # 0.3" apart
    reason = ie.refused(game, "fire L1 R1", "blue")
    assert "its unit V2 is packed" in reason and "C fire passes only a loose unit (5.0)" in reason


def test_c_goes_round_50_percent_terrain_but_the_target_keeps_its_cover(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("L1", "L63", (1, 6), 0), ie.base("L2", "L63", (1, 9), 0)),
        ie.unit("red", "V1", ie.base("R1", "L12", (6.5, 6), 180)),
        ie.unit("red", "V2", ie.base("R2", "L12", (6.5, 9), 180)),
        *reserve(ie),
    ]
    sand = [
        ie.box("F1", "fine_sand", 3, 5, 3.5, 7),  # far from both L1 and R1: C goes round it
        ie.box("F2", "fine_sand", 5.4, 8, 5.8, 10),  # 0.25" in front of R2: cover
    ]
    game = fire_phase(ie, units, features=sand)
    finish(ie, game, "fire_a")
    ie.act(game, "blue", "fire L1 R1", 5)
    assert ie.last(game, "fire").data["cover"] is False  # ruling 26(a)
    ie.act(game, "blue", "fire L2 R2", 5)
    shot = ie.last(game, "fire").data
    assert shot["cover"] is True and shot["modifier"] == 0 - 3  # C/P row 4 against 2: 0


def test_c_is_stopped_by_100_percent_terrain(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("L1", "L63", (1, 6), 0)),
        ie.unit("red", "V1", ie.base("R1", "L12", (6.5, 6), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units, asked=False, features=[ie.box("S1", "salt", 3, 5, 3.5, 7)])
    assert any("blue has no shot in step b" in e.text for e in ie.events(game, "no_shot"))
    assert "100% weapon block" in (space.refusal(game.state, ie.the(game, "L1"), "R1") or "")


# -- 5.1 firer damage --------------------------------------------------------------------------
@pytest.mark.parametrize(("hits", "penalty"), [(0, 0), (3, -2), (6, -4)])
def test_the_firers_damage_step_lowers_its_roll(ie: Any, hits: int, penalty: int) -> None:
    game = duel(ie, (9, 12))
    ie.hit(game, "B1", hits)  # J90 has 9 hull points: 3 is a third, 6 two thirds
    ie.act(game, "blue", "fire B1 R1", 6)
    shot = ie.last(game, "fire").data
    assert shot["modifier"] == 1 + penalty
    assert shot["hits"] == 7 + penalty


# -- 5.0 steps and simultaneous damage ---------------------------------------------------------
def test_hits_land_at_the_end_of_the_step_and_the_doomed_still_fire(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0)),
        ie.unit("blue", "U2", ie.base("L1", "L63", (4, 6), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", (9, 12), 225)),
        ie.unit("red", "V2", ie.base("R3", "L12", (8, 6), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units)
    ie.act(game, "blue", "fire B1 R1", 6)  # 7 hits: R1 (hull 6) is doomed...
    assert ie.the(game, "R1").hits == 0 and ie.the(game, "R1").active
    assert game.decision.sides == ("red",)  # ...but fires in this step (5.2)
    assert ie.refused(game, "fire R1 B1", "red") is not None  # B1 is outside R1's arc
    ie.act(game, "red", "fire R1 L1", 1)  # K 4 against 2: +1, so 2 hits
    assert ie.last(game, "fire").data["hits"] == 2
    # the end of step a: both land together
    assert ie.the(game, "R1").destroyed and ie.the(game, "R1").hits == 6
    assert ie.the(game, "L1").hits == 2
    assert game.state.step == "fire_b" and game.state.pending == []
    # L1 is a third damaged when it fires in step b (5.0): C/P row 0, -2
    ie.act(game, "blue", "fire L1 R3", 6)
    assert ie.last(game, "fire").data["modifier"] == -2


def test_step_a_is_for_k_and_p_and_step_b_for_c(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0)),
        ie.unit("blue", "U2", ie.base("L1", "L63", (4, 8), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", (9, 12), 180)),
        ie.unit("red", "V2", ie.base("R3", "L12", (8, 8), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units)
    assert game.state.step == "fire_a"
    assert "C bases fire in step b" in ie.refused(game, "fire L1 R3", "blue")
    ie.act(game, "blue", "done")
    ie.act(game, "red", "done")
    assert game.state.step == "fire_b"
    assert "K and P bases fire in step a (5.0)" in ie.refused(game, "fire B1 R1", "blue")


def test_a_unit_using_a_c_weapon_fires_wholly_in_step_b(ie: Any) -> None:
    """5.0, ruling 25 (the default, mixed_units = "unit"): a unit using a class C weapon
    may not fire in step a, so its J90 fires in step b beside its L63."""
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0), ie.base("L1", "L63", (4, 8), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", (9, 12), 180)),
        ie.unit("red", "V2", ie.base("R3", "L12", (8, 8), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units, options={"mixed_units": "unit"})
    if game.state.step == "fire_a" and "blue" in game.decision.sides:
        reason = ie.refused(game, "fire B1 R1", "blue")
        assert "unit U1 uses a chemical weapon: the whole unit fires in step b" in reason
    while game.state.step == "fire_a":
        ie.act(game, game.decision.sides[0], "done")
    assert game.state.step == "fire_b"
    while "blue" not in game.decision.sides:
        ie.act(game, game.decision.sides[0], "done")
    assert fire.check_fire(game.state, "blue", Fire(("B1",), "R1"))[0].id == "B1"
    # read base by base (the option), the J90 fires in step a
    base_by_base = fire_phase(ie, units, options={"mixed_units": "base"})
    assert base_by_base.state.step == "fire_a"
    assert fire.check_fire(base_by_base.state, "blue", Fire(("B1",), "R1"))[0].id == "B1"


def test_each_base_fires_once_a_turn(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0), ie.base("B2", "J90", (2, 16), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", (9, 12), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units)
    # B2 (4" to the north, facing east) has R1 out of its arc: blue has no shot left,
    # so red is asked next (ruling 53)
    ie.act(game, "blue", "fire B1 R1", 1)
    assert game.decision.sides == ("red",)
    with pytest.raises(IllegalAction, match="B1 has already fired this turn"):
        fire.check_fire(game.state, "blue", Fire(("B1",), "R1"))


def test_a_refused_shot_changes_nothing(ie: Any) -> None:
    # by eye the step is kept (R1 is within reach as the eye sees it, ruling 53)
    game = duel(ie, polar((2, 12), 30.0, 6), options={"measuring": "eye"})
    before = game.state.to_json()
    rolled = game.dice.rolled
    for text in ("fire B1 R1", "rake B1 R1", "fire R1 B1", "fire B1 B1", "fire B1 Q9"):
        with pytest.raises(IllegalAction):
            game.apply(text, "blue")
    assert game.state.to_json() == before and game.dice.rolled == rolled


def test_friends_are_not_targets_but_contaminated_friends_are(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0)),
        ie.unit("blue", "U2", ie.base("B2", "L35", (7, 12), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", (9, 14.5), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units)  # B1 may fire at R1, so blue is asked
    assert "B2 is a friendly base" in ie.refused(game, "fire B1 B2", "blue")
    assert fire.targets(game.state, ie.the(game, "B1")) == ["R1"]
    ie.the(game, "B2").contaminated = 1  # infected earlier (1.5 note 2)
    assert fire.targets(game.state, ie.the(game, "B1")) == ["B2", "R1"]
    ie.act(game, "blue", "fire B1 B2", 4)
    assert ie.last(game, "fire").data["target"] == "B2"


def test_a_fungus_tower_is_a_target_with_defence_4(ie: Any) -> None:
    tower = ie.circle("T1", "fungus", (9, 12), 0.6, hull=6)
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", (20, 2), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units, features=[tower])
    assert fire.targets(game.state, ie.the(game, "B1")) == ["T1"]
    ie.act(game, "blue", "fire B1 T1", 5)  # K 5 against 4: 0
    assert ie.last(game, "fire").data["hits"] == 5
    finish(ie, game, "fire_a")
    assert game.state.towers["T1"].hits == 5
    assert game.state.towers["T1"].live is False  # a third: dead (1.5 note 2)


# -- 5.3 massed battery ----------------------------------------------------------------------
def battery(ie: Any, count: int, **kw: Any) -> Any:
    bases = [ie.base(f"L{i}", "L63", (2, 4 + 2 * i), 0) for i in range(1, count + 1)]
    units = [
        ie.unit("blue", "U1", *bases),
        ie.unit("red", "V1", ie.base("R1", "L12", (7, 8), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units, **kw)
    finish(ie, game, "fire_a")
    return game


def test_three_c_bases_together_roll_on_the_k_row(ie: Any) -> None:
    game = battery(ie, 3)
    ie.act(game, "blue", "fire L1+L2+L3 R1", 3, 3, 3)
    shots = ie.events(game, "fire")[-3:]
    k_row = chart_modifier(4, 2, "C", massed=True)
    assert k_row == chart_modifier(4, 2, "K") == 1
    assert [s.data["modifier"] for s in shots] == [k_row] * 3
    expected = direct_fire(4, 2, "C", "none", False, lambda p, n: (3,), massed=True)
    assert [s.data["hits"] for s in shots] == [expected] * 3 == [4, 4, 4]
    assert all(s.data["massed"] for s in shots)
    assert all(ie.the(game, f"L{i}").fired_turn == 1 for i in (1, 2, 3))


def test_two_c_bases_together_keep_the_cp_row(ie: Any) -> None:
    game = battery(ie, 2)
    ie.act(game, "blue", "fire L1+L2 R1", 3, 3)
    shots = ie.events(game, "fire")[-2:]
    assert [s.data["modifier"] for s in shots] == [chart_modifier(4, 2, "C")] * 2 == [0, 0]


def test_only_c_bases_fire_together(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0), ie.base("B2", "J90", (2, 14), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", (9, 13), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units)
    assert "only C bases fire together" in ie.refused(game, "fire B1+B2 R1", "blue")


def test_batteries_are_offered_for_three_or_more(ie: Any) -> None:
    game = battery(ie, 3, tail=True)
    offered = [str(a) for a in game.legal_actions("blue")]
    assert "fire L1+L2+L3 R1" in offered
    for action in game.legal_actions("blue"):
        assert game.refusal(action, "blue") is None, str(action)


# -- 5.3 kinetic penetration -------------------------------------------------------------------
def line_up(ie: Any, behind: str, *more: Any) -> Any:
    """B1 fires east at R1 (4 of its 6 hits already taken); ``behind`` stands 0.3" behind."""
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0)),
        ie.unit(
            "red",
            "V1",
            ie.base("R1", "K817", (8, 12), 180),
            ie.base("R2", behind, (8 + 0.65 + 0.3 + 0.8, 12), 180),
            *more,
        ),
        *reserve(ie),
    ]
    game = fire_phase(ie, units)
    ie.hit(game, "R1", 4)
    return game


@pytest.mark.parametrize("behind", ["K817", "L12"])
def test_surplus_kinetic_hits_pass_to_a_base_behind_no_better_defended(
    ie: Any, behind: str
) -> None:
    game = line_up(ie, behind)
    ie.act(game, "blue", "fire B1 R1", 6)  # 7 hits; R1 needs 2: 5 pass on
    through = ie.last(game, "penetration").data
    assert (through["target"], through["hits"]) == ("R2", 5)
    finish(ie, game, "fire_a")
    assert ie.the(game, "R1").destroyed and ie.the(game, "R2").hits == 5


def test_a_better_defended_base_behind_stops_penetration(ie: Any) -> None:
    game = line_up(ie, "K900")  # defence 5 against R1's 3
    ie.act(game, "blue", "fire B1 R1", 6)
    assert ie.last(game, "penetration").data["hits"] == 0
    finish(ie, game, "fire_a")
    assert ie.the(game, "R1").destroyed and ie.the(game, "R2").hits == 0


def test_penetration_chains_and_needs_the_next_base_within_1_inch(ie: Any) -> None:
    third = ie.base("R3", "K817", (8 + 0.65 + 0.3 + 0.8 + 0.8 + 0.5 + 0.65, 12), 180)
    game = line_up(ie, "K817", third)
    ie.hit(game, "R2", 3)
    ie.act(game, "blue", "fire B1 R1", 6)  # 5 surplus: R2 takes 3, R3 2
    assert [(e.data["target"], e.data["hits"]) for e in ie.events(game, "penetration")] == [
        ("R2", 3),
        ("R3", 2),
    ]
    far = line_up(ie, "K817")
    far.state.bases["R2"].geo = far.state.bases["R2"].geo.moved_to((11.5, 12))
    far.state.touched()
    ie.act(far, "blue", "fire B1 R1", 6)
    assert not ie.events(far, "penetration")


# -- 5.3 raking fire ---------------------------------------------------------------------------
def rake_game(ie: Any, **kw: Any) -> Any:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0), ie.base("L1", "L63", (2, 8), 0)),
        ie.unit(
            "red",
            "V1",
            ie.base("R1", "K817", (8, 12), 180),
            ie.base("R2", "K817", (8, 13.6), 180),  # 0.3" beside R1, 15 degrees off B1's nose
        ),
        *reserve(ie),
    ]
    game = fire_phase(ie, units, **kw)
    ie.hit(game, "R1", 4)
    return game


def test_a_rake_that_passes_its_control_roll_sweeps_the_surplus_on(ie: Any) -> None:
    game = rake_game(ie)
    ie.act(game, "blue", "rake B1 R1", 2, 6)  # Control at 100%: 2+; then 7 hits
    assert ie.last(game, "control").data["passed"] is True
    swept = ie.last(game, "rake").data
    assert (swept["target"], swept["hits"]) == ("R2", 5)


def test_a_rake_that_fails_its_control_roll_is_an_ordinary_shot(ie: Any) -> None:
    game = rake_game(ie)
    ie.act(game, "blue", "rake B1 R1", 1, 6)
    assert ie.last(game, "control").data["passed"] is False
    assert not ie.events(game, "rake")
    assert ie.last(game, "fire").data["hits"] == 7
    assert ie.the(game, "B1").fired_turn == 1


def test_only_a_base_that_held_still_with_its_non_k_unit_mates_rakes(ie: Any) -> None:
    game = rake_game(ie)
    assert fire.may_rake(game.state, ie.the(game, "B1"), "R1")
    ie.the(game, "L1").moved_turn = 1  # the C unit-mate moved this turn
    game.state.touched()
    assert "must hold still too (5.3)" in ie.refused(game, "rake B1 R1", "blue")
    ie.the(game, "L1").moved_turn = 0
    ie.the(game, "B1").moved_turn = 1
    assert "B1 moved this turn" in ie.refused(game, "rake B1 R1", "blue")
    assert not fire.may_rake(game.state, ie.the(game, "B1"), "R1")
    ie.act(game, "blue", "fire B1 R1", 6)  # it may still fire


def test_fire_candidates_are_all_legal(ie: Any) -> None:
    game = rake_game(ie, tail=True)
    offered = game.legal_actions("blue")
    assert {str(a) for a in offered} >= {"fire B1 R1", "rake B1 R1", "fire B1 R2", "done"}
    for action in offered:
        assert game.refusal(action, "blue") is None, str(action)


@pytest.mark.parametrize(("network", "passed"), [(False, False), (True, True)])
def test_the_rakes_control_roll_uses_network_status_and_support(
    ie: Any, network: bool, passed: bool
) -> None:
    relay = [ie.unit("blue", "U9", ie.base("N1", "N5", (2, 4), 180))] if network else []
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0)),
        *relay,
        ie.unit("red", "V1", ie.base("R1", "K817", (8, 12), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units)
    game.state.networks["blue"].status = 50  # suppressed this turn (2.0): moves on 4+
    ie.act(game, "blue", "rake B1 R1", 3, 1)  # a 3: enough only with a network base in range
    assert ie.last(game, "control").data["passed"] is passed


def test_penetration_spares_no_friend_behind_the_target(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0)),
        ie.unit("blue", "U2", ie.base("B2", "L35", (9.45, 12), 180)),  # 0.3" behind R1
        ie.unit("red", "V1", ie.base("R1", "K817", (8, 12), 180)),
        *reserve(ie),
    ]
    game = fire_phase(ie, units)
    ie.hit(game, "R1", 5)
    ie.act(game, "blue", "fire B1 R1", 6)  # 7 hits, R1 needs 1: 6 go on into B2
    assert ie.last(game, "penetration").data["target"] == "B2"


def test_a_fungus_tower_blocks_fire_like_100_percent_terrain(ie: Any) -> None:
    tower = ie.circle("T1", "fungus", (6, 12), 0.6, hull=9, live=False)
    game = duel(ie, (10, 12), features=[tower])
    assert "T1 (100% weapon block)" in ie.refused(game, "fire B1 R1", "blue")
    assert fire.targets(game.state, ie.the(game, "B1")) == ["T1"]


def test_a_rake_never_sweeps_through_another_base(ie: Any) -> None:
    """5.0: kinetic fire never passes another base, so the sweep cannot reach R2 past a
    blue base standing on the line to it (it does not stand on the line to R1)."""
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (2, 12), 0), ie.base("L1", "L63", (2, 8), 0)),
        ie.unit("blue", "UX", ie.base("BX", "L63", (5, 12.9), 0)),
        ie.unit(
            "red",
            "V1",
            ie.base("R1", "K817", (8, 12), 180),
            ie.base("R2", "K817", (8, 13.6), 180),
        ),
        *reserve(ie),
    ]
    game = fire_phase(ie, units)
    ie.hit(game, "R1", 4)
    ie.act(game, "blue", "rake B1 R1", 2, 6)
    assert ie.last(game, "control").data["passed"] is True
    assert not ie.events(game, "rake")


def test_a_dead_tower_may_be_shot_but_is_not_listed(ie: Any) -> None:
    """A dead tower infects no one (1.5 note 2): shooting it is allowed but no plan, so
    neither ``list`` nor the bots offer it."""
    tower = ie.circle("T1", "fungus", (6, 12), 0.6, hull=9, live=False)
    game = duel(ie, (10, 12), features=[tower])
    assert fire.targets(game.state, ie.the(game, "B1")) == ["T1"]
    assert not any("T1" in str(a) for a in game.legal_actions("blue"))


def test_odds_on_a_live_tower_give_the_chance_to_kill_it(ie: Any) -> None:
    """1.5 note 2: a third of its hull kills a tower (it infects no more): the odds say
    how likely a shot is to do it, beside the chance to destroy it."""
    tower = ie.circle("T1", "fungus", (6, 12), 0.6, hull=9)
    game = duel(ie, (10, 12), features=[tower])
    seat = game.seat("blue")
    shot = seat.parse("fire B1 T1")
    result = seat.odds(shot)
    assert result is not None
    hits = result.outcomes
    three_or_more = [p for k, p in hits.items() if int(k.split()[0]) >= 3]
    assert result.extra["T1 killed"] == sum(three_or_more, Fraction(0)) > 0
    assert f"killed (no longer infects) {float(result.extra['T1 killed']):.0%}" in (
        seat.action_odds(shot) or ""
    )
