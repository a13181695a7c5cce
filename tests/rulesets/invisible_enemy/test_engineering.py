"""Invisible Enemy engineering (7.0, stand-in table; 1.3 missions; 4.4 ploughing and towing)."""

from __future__ import annotations

from typing import Any

import pytest
import shapely

from warbench.core.game import Game
from warbench.core.replay import replay_record
from warbench.errors import ActionSyntaxError
from warbench.rulesets.invisible_enemy import engineering
from warbench.rulesets.invisible_enemy.actions import Engineer, Move

RED = (
    "red",
    {"id": "R1", "bases": [{"id": "R1a", "model": "K817", "at": [20, 20], "facing": 180}]},
)


def _eng(ie: Any, mission: str, *features: dict[str, Any], **kw: Any) -> Game:
    """Blue's engineer unit E: engineer E1 (E7: speed 5, radius 0.6) at (4,12) facing east
    and combat base B3 (L35, radius 0.5) 0.4" from it; the unit has passed its Control roll."""
    game = ie.start(
        [
            ie.unit(
                "blue",
                "E",
                ie.base("E1", "E7", (4, 12)),
                ie.base("B3", "L35", (4, 13.5)),
                mission=mission,
            ),
            kw.pop("red", RED),
        ],
        features=list(features),
        **kw,
    )
    ie.act(game, "blue", "unit E", 2)
    assert game.state.step == "unit"
    return game


def test_repair_takes_one_hull_hit_off_on_4_or_more_7_0(ie: Any) -> None:
    game = _eng(ie, "repair")
    ie.hit(game, "B3", 2)
    ie.act(game, "blue", "engineer E1 repair B3", 4)
    assert ie.the(game, "B3").hits == 1
    event = ie.last(game, "engineer")
    assert event.data["success"] and event.data["die"] == 4 and event.data["needs"] == 4
    # instead of moving, once a turn (ruling 40)
    assert ie.the(game, "E1").engineered_turn == 1
    assert "already moved or acted" in ie.refused(game, "move E1 6,12", "blue")


def test_repair_fails_below_4_7_0(ie: Any) -> None:
    game = _eng(ie, "repair")
    ie.hit(game, "B3", 2)
    ie.act(game, "blue", "engineer E1 repair B3", 3)
    assert ie.the(game, "B3").hits == 2 and not ie.last(game, "engineer").data["success"]


def test_a_contaminated_base_cannot_be_repaired_1_5_note_2(ie: Any) -> None:
    game = _eng(ie, "repair")
    ie.hit(game, "B3", 2)
    ie.the(game, "B3").contaminated = 1
    assert "contaminated" in ie.refused(game, "engineer E1 repair B3", "blue")


def test_an_engineer_keeps_to_its_units_mission_1_3_7_0(ie: Any) -> None:
    game = _eng(ie, "repair", ie.box("F1", "minefield", 4.5, 10, 6, 11))
    reason = ie.refused(game, "engineer E1 clear-minefield F1", "blue")
    assert "mission E" in reason and "1.3" in reason


def test_the_target_must_be_within_1_inch_7_0(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit(
                "blue",
                "E",
                ie.base("E1", "E7", (4, 12)),
                ie.base("B3", "L35", (4, 15)),
                mission="repair",
            ),
            RED,
        ]
    )
    ie.hit(game, "B3", 1)
    ie.act(game, "blue", "unit E", 2)
    assert 'more than 1"' in ie.refused(game, "engineer E1 repair B3", "blue")


def test_free_trapped_on_3_or_more_7_0(ie: Any) -> None:
    game = _eng(ie, "repair")
    ie.the(game, "B3").trapped = True
    ie.act(game, "blue", "engineer E1 free-trapped B3", 3)
    assert not ie.the(game, "B3").trapped


def test_clearing_a_minefield_removes_it_and_the_kind_must_match_7_0(ie: Any) -> None:
    # a 1" patch straight ahead of E1: the 1" lane 1" deep takes all of it
    game = _eng(
        ie,
        "demolition",
        ie.box("F1", "minefield", 5, 11.5, 6, 12.5),
        ie.box("M1", "mold", 2, 10, 3, 11),
    )
    assert "not minefield" in ie.refused(game, "engineer E1 clear-minefield M1", "blue")
    ie.act(game, "blue", "engineer E1 clear-minefield F1", 4)
    assert game.state.terrain.feature("F1").destroyed
    assert ie.last(game, "cleared").data["features"] == ["F1"]


def test_a_clearing_action_opens_a_1_inch_lane_1_inch_deep_and_leaves_the_rest_7_0(
    ie: Any,
) -> None:
    # a 3" x 4" minefield 0.4" ahead of E1's front: the lane runs from E1's centre to 1"
    # past where it meets the field, 1" wide; what is left is the field less that strip
    field = ie.box("F1", "minefield", 5, 10, 8, 14)
    game = _eng(ie, "demolition", field)
    before = game.state.terrain.feature("F1").geometry
    ie.act(game, "blue", "engineer E1 clear-minefield F1", 4)
    after = game.state.terrain.feature("F1")
    lane = shapely.box(4, 11.5, 6, 12.5)
    assert not after.destroyed and after.shape == "polygon"
    assert after.geometry.area == pytest.approx(12.0 - 1.0)
    assert after.geometry.symmetric_difference(before.difference(lane)).area < 1e-9
    assert '1" lane 1" deep into F1' in ie.last(game, "cleared").text


def test_an_engineer_clears_only_what_lies_ahead_of_it_7_0(ie: Any) -> None:
    # within 1" but off to E1's side: it must face the field first (ruling 40)
    game = _eng(ie, "demolition", ie.box("F1", "minefield", 5, 10, 6, 11.5))
    reason = ie.refused(game, "engineer E1 clear-minefield F1", "blue")
    assert "not straight ahead of E1" in reason and "face F1 first" in reason


def test_ploughing_leaves_a_1_inch_lane_through_a_3_inch_patch_4_4(ie: Any) -> None:
    # dust (high: 1" an inch to plough): E1 drives through the middle of a 3" patch and
    # splits it in two; the pieces are the patch less the 1" lane along E1's track
    game = _eng(ie, "demolition", ie.box("D1", "dust", 5, 10.5, 8, 13.5))
    before = game.state.terrain.feature("D1").geometry
    ie.act(game, "blue", "move E1 8.9,12")
    terrain = game.state.terrain
    pieces = [terrain.feature("D1"), terrain.feature("D1-2")]
    lane = shapely.LineString([(4, 12), (8.9, 12)]).buffer(0.5, cap_style="flat")
    left = shapely.union_all([p.geometry for p in pieces])
    assert [round(p.geometry.area, 6) for p in pieces] == [3.0, 3.0]
    assert left.symmetric_difference(before.difference(lane)).area < 1e-9
    assert ie.last(game, "cleared").data["features"] == ["D1"]
    # the record replays to the same table (the pieces are in the state's digest)
    replay = replay_record(game.record())
    assert replay.digest() == game.digest()
    assert [f.to_dict() for f in replay.state.terrain.features] == [
        f.to_dict() for f in terrain.features
    ]


def test_a_demolition_engineers_move_does_not_plough_low_obstacles_4_4(ie: Any) -> None:
    # slime (low, 2" an inch, trap 6): an ordinary move crosses it at the chart's cost
    # and rolls for the trap; only `plough` ploughs it (ruling 52)
    game = _eng(ie, "demolition", ie.box("S1", "slime", 5, 11, 6, 13))
    ie.act(game, "blue", "move E1 7,12", 1)
    assert ie.the(game, "E1").geo.x == 7.0
    assert "trap roll in S1" in ie.last(game, "roll").text
    assert "spent 4.0" in ie.last(game, "move").text  # 1 + 1" at 2 + 1
    assert not ie.events(game, "cleared")


def test_a_plough_drives_through_a_low_obstacle_at_3_an_inch_and_clears_a_lane_4_4(
    ie: Any,
) -> None:
    slime = ie.box("S1", "slime", 5, 11, 6, 13)
    gravel = ie.box("G1", "gravel", 5, 7, 6, 9)  # low and impassable to others
    game = _eng(ie, "demolition", slime, gravel)
    rolls = len(ie.events(game, "roll"))
    ie.act(game, "blue", "engineer E1 plough 7,12")
    assert ie.at(game, "E1") == (7.0, 12.0)
    assert "spent 5.0" in ie.last(game, "move").text  # 1 + 1" at 3 + 1: no trap roll
    assert len(ie.events(game, "roll")) == rolls
    terrain = game.state.terrain
    assert sorted(round(terrain.feature(f).geometry.area, 6) for f in ("S1", "S1-2")) == [
        0.5,
        0.5,
    ]
    assert ie.the(game, "E1").engineered_turn != 1  # a move, not the 7.0 action
    assert "already moved" in ie.refused(game, "engineer E1 build-mek-lok", "blue")


def test_a_plough_clears_a_lane_through_a_minefield_no_mine_strikes_4_4(ie: Any) -> None:
    """Ruling 52: minefields are low obstacles (1.5 chart), so a demolition engineer's
    plough clears a 1" lane through them at 3 an inch, as it does through slime; the
    mines it ploughs do not strike it. Option plough_mines = false: only the 7.0
    action clears them, and a plough crosses them as a move does."""
    mines = ie.box("F1", "minefield", 5, 11, 6, 13)
    game = _eng(ie, "demolition", mines)
    rolls = len(ie.events(game, "roll"))
    ie.act(game, "blue", "engineer E1 plough 7,12")
    assert ie.at(game, "E1") == (7.0, 12.0)
    assert len(ie.events(game, "roll")) == rolls  # no mine roll
    pieces = sorted(round(game.state.terrain.feature(f).geometry.area, 6) for f in ("F1", "F1-2"))
    assert pieces == [0.5, 0.5]
    strict = _eng(ie, "demolition", mines, options={"plough_mines": False})
    ie.act(strict, "blue", "engineer E1 plough 7,12", 6, 6)  # the mines roll 12: it survives
    assert "minefield F1" in ie.last(strict, "roll").text
    assert not strict.state.terrain.feature("F1").destroyed
    assert strict.state.terrain.feature("F1").geometry.area == pytest.approx(2.0)


def test_plough_is_a_demolition_engineers_and_goes_to_a_point_4_4(ie: Any) -> None:
    game = _eng(ie, "repair", ie.box("S1", "slime", 5, 11, 6, 13))
    assert "only a demolition (E) engineer" in ie.refused(game, "engineer E1 plough 7,12", "blue")
    with pytest.raises(ActionSyntaxError, match="'S1' is not a point"):
        game.parse("engineer E1 plough S1")
    with pytest.raises(ActionSyntaxError, match="engineer BASE plough X,Y"):
        game.parse("engineer E1 plough")
    game = _eng(ie, "demolition", ie.box("G1", "gravel", 5, 11, 6, 13))
    assert "impassable" in ie.refused(game, "move E1 7,12", "blue")
    # light gravel: 1 + 1" at 3 + 3 = 7 is more than E1's 5
    assert 'costs 7.00" but only 5.00"' in ie.refused(game, "engineer E1 plough 9,12", "blue")


def test_build_mek_lok_is_automatic_and_lays_a_feature_ahead_1_5_note_1(ie: Any) -> None:
    game = _eng(ie, "demolition")
    rolls = len(ie.events(game, "roll"))
    ie.act(game, "blue", "engineer E1 build-mek-lok")
    assert len(ie.events(game, "roll")) == rolls
    feature = game.state.terrain.feature("MK1")
    assert feature.kind == "mek_lok" and feature.shape == "circle"
    assert feature.points[0][0] > 4.6 and feature.move_cost == 3.0


def test_remove_mek_lok_on_5_7_0(ie: Any) -> None:
    game = _eng(ie, "demolition", ie.circle("K1", "mek_lok", (5.5, 12), 0.5))
    ie.act(game, "blue", "engineer E1 remove-mek-lok K1", 4)
    assert not game.state.terrain.feature("K1").destroyed
    game = _eng(ie, "demolition", ie.circle("K1", "mek_lok", (5.5, 12), 0.5))
    ie.act(game, "blue", "engineer E1 remove-mek-lok K1", 5)
    assert game.state.terrain.feature("K1").destroyed


def test_tow_enemy_needs_a_roll_and_a_mobile_friend_none_4_4(ie: Any) -> None:
    enemy = ("red", {"id": "R1", "bases": [{"id": "R1a", "model": "K817", "at": [6, 12]}]})
    game = _eng(ie, "demolition", red=enemy)
    ie.act(game, "blue", "engineer E1 tow-enemy R1a", 4)
    assert ie.the(game, "E1").towing is None
    game = _eng(ie, "demolition", red=enemy)
    ie.act(game, "blue", "engineer E1 tow-enemy R1a", 5)
    assert ie.the(game, "E1").towing == "R1a"
    # a friendly base that can move takes the tow at once, no roll (4.4)
    game = _eng(ie, "repair")
    rolls = len(ie.events(game, "roll"))
    ie.act(game, "blue", "engineer E1 tow-immobilised B3")
    assert ie.the(game, "E1").towing == "B3" and len(ie.events(game, "roll")) == rolls


def test_a_tow_costs_2_an_inch_and_the_towed_base_follows_behind_4_4(ie: Any) -> None:
    game = ie.start(
        [
            ie.unit(
                "blue",
                "E",
                ie.base("E1", "E7", (4, 12)),
                ie.base("B3", "L35", (4, 14)),
                mission="repair",
            ),
            ie.unit("blue", "U2", ie.base("B5", "L35", (2.9, 12))),
            RED,
        ]
    )
    game.state.bases["E1"].towing = "B5"
    ie.the(game, "B5").trapped = True
    ie.act(game, "blue", "unit E", 2)
    assert "only 5.00" in ie.refused(game, "move E1 7,12", "blue")  # 3" at 2 an inch
    ie.act(game, "blue", "move E1 6.5,12")
    b5 = ie.the(game, "B5")
    assert round(b5.geo.x, 2) == round(6.5 - 0.6 - 0.5 - 0.05, 2) and b5.geo.y == 12.0
    assert ie.the(game, "E1").towing is None and not b5.trapped  # dragged free; one move
    assert ie.last(game, "towed").data["engineer"] == "E1"


def test_a_towed_base_may_not_move_itself_4_4(ie: Any) -> None:
    game = _eng(ie, "repair")
    game.state.bases["E1"].towing = "B3"
    game.state.touched()
    assert "under tow" in ie.refused(game, "move B3 4,16", "blue")


def test_demolition_engineer_ploughs_through_and_clears_obstacles_4_4(ie: Any) -> None:
    # heavy sand (medium, impassable): an engineer pays 2 an inch through it and clears it
    sand = ie.circle("H1", "heavy_sand", (7, 12), 0.5)
    game = _eng(ie, "demolition", sand)
    ie.act(game, "blue", "move E1 8,12")  # 2.5 + 1" at 2 + 0.5 = 5
    assert game.state.terrain.feature("H1").destroyed
    assert "H1" in ie.last(game, "cleared").text


def test_a_combat_base_cannot_pass_an_impassable_obstacle_1_5(ie: Any) -> None:
    game = _eng(ie, "demolition", ie.circle("H1", "heavy_sand", (7, 13.5), 0.5))
    assert "impassable" in ie.refused(game, "move B3 9,13.5", "blue")


def test_strike_payload_arms_then_destroys_an_enemy_within_1_inch_stand_in(ie: Any) -> None:
    enemy = ("red", {"id": "R1", "bases": [{"id": "R1a", "model": "K817", "at": [6, 12]}]})
    game = _eng(ie, "strike", red=enemy)
    assert "not armed" in ie.refused(game, "engineer E1 deliver-payload R1a", "blue")
    ie.the(game, "E1").armed = True
    ie.act(game, "blue", "engineer E1 deliver-payload R1a", 4)
    assert ie.the(game, "R1a").destroyed and not ie.the(game, "E1").armed


def test_arm_payload_is_automatic_7_0(ie: Any) -> None:
    game = _eng(ie, "strike")
    ie.act(game, "blue", "engineer E1 arm-payload")
    assert ie.the(game, "E1").armed


def test_every_engineering_option_is_legal(ie: Any) -> None:
    game = _eng(
        ie,
        "demolition",
        ie.box("F1", "minefield", 5, 11.7, 6, 12.2),
        ie.box("S1", "slime", 4, 7, 5, 10),
    )
    ie.give(game, *[4] * 40)  # refusals try the action, rolls and all
    listed = [a for a in game.legal_actions("blue") if isinstance(a, Engineer)]
    keys = {a.key for a in listed}
    assert {"clear-minefield", "build-mek-lok", "plough"} <= keys
    for action in [*listed, *(a for a in game.legal_actions("blue") if isinstance(a, Move))]:
        assert game.refusal(action, "blue") is None, action
    assert engineering.options(game.state, "red") == []


def test_a_tow_on_a_base_since_destroyed_leaves_the_engineer_free_to_tow_again_4_4(
    ie: Any,
) -> None:
    game = _eng(ie, "repair")
    game.state.bases["E1"].towing = "B3"
    game.state.bases["B3"].destroyed = True
    game.state.touched()
    assert game.state.tow_of(game.state.bases["E1"]) is None
    assert "already has a tow" not in (
        game.refusal(game.parse("engineer E1 tow-immobilised B3"), "blue") or ""
    )


def test_a_contaminated_base_is_not_dragged_on_a_tow_1_5_note_2(ie: Any) -> None:
    game = _eng(ie, "repair")
    game.state.bases["E1"].towing = "B3"
    game.state.bases["B3"].contaminated = 1
    game.state.touched()
    ie.act(game, "blue", "move E1 6,12")
    assert ie.at(game, "B3") == (4.0, 13.5)
