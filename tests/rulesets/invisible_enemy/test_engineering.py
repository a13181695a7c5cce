"""Invisible Enemy engineering (7.0, stand-in table; 1.3 missions; 4.4 ploughing and towing)."""

from __future__ import annotations

from typing import Any

from warbench.core.game import Game
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
    game = _eng(
        ie,
        "demolition",
        ie.box("F1", "minefield", 5, 10, 6, 11.5),
        ie.box("M1", "mold", 2, 10, 3, 11),
    )
    assert "not minefield" in ie.refused(game, "engineer E1 clear-minefield M1", "blue")
    ie.act(game, "blue", "engineer E1 clear-minefield F1", 4)
    assert game.state.terrain.feature("F1").destroyed


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
    game = _eng(ie, "demolition", ie.box("F1", "minefield", 5, 10, 6, 11.5))
    ie.give(game, *[4] * 40)  # refusals try the action, rolls and all
    listed = [a for a in game.legal_actions("blue") if isinstance(a, Engineer)]
    keys = {a.key for a in listed}
    assert {"clear-minefield", "build-mek-lok"} <= keys
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
