"""``info`` and ``goal`` for MGV: a base's model, weapons, DEF, speed, points, hit log,
wing and status; a feature and a point; refusals; secrets; each mission's goal."""

from __future__ import annotations

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.registry import get
from warbench.errors import QuestionRefused


def info(game: Game, side: str | None, ref: str) -> list[str]:
    return game.ruleset.unit_info(game.view(side), ref)


def test_a_base_shows_its_model_ratings_hit_log_and_place() -> None:
    game = Game.start("mgv/strike", seed=3)
    assert info(game, "red", "B1") == [
        "B1: J90 Python (J90), blue (Blue strike group)",
        "weapons: main ATT 5 (photon); secondary ATT 3 (weapon not chosen yet)",
        'DEF 5, speed left 8", worth 28 points',
        "hits: surface 0/14, core 0/6, heart 0/3 (S 0, P 0, B 0)",
        'at 5,5 (by eye: somewhere in the 2" square around it), facing 45deg north-east; '
        'base 1.5" across',
        "status: nothing marked",
    ]
    assert info(game, "blue", "B1")[4] == 'at 4,4, facing 45deg north-east; base 1.5" across'
    assert info(game, "blue", "b2")[3] == "wing hawks with B3"


def test_marked_hits_and_markers_read_from_the_view() -> None:
    game = Game.start("mgv/strike", seed=3)
    base = game.state.bases["R2"]
    base.log = base.log.with_marks({"s1": "S", "s2": "S", "c1": "P"})
    game.state.moved.append("R2")
    lines = info(game, "blue", "R2")
    assert "hits: surface 2/12, core 1/5, heart 0/2 (S 2, P 1, B 0)" in lines
    assert lines[-1] == "status: moved"


def test_a_secret_weapon_choice_sealed_by_one_side_does_not_change_the_others_info() -> None:
    """1.5: weapon types are chosen sealed; until both are in, red's info on blue's bases
    is what it was, whatever blue chose."""
    seen = []
    for choice in range(3):
        game = Game.start("mgv/strike", seed=3)
        before = info(game, "red", "B4")
        game.apply(game.legal_actions("blue")[choice], "blue")
        after = info(game, "red", "B4")
        assert after == before
        seen.append(after)
        # blue's own view does not show it either until it is revealed: the view has no secret
        assert "weapon not chosen yet" in info(game, "blue", "B4")[1]
    assert seen[0] == seen[1] == seen[2]


def test_a_feature_and_a_point() -> None:
    game = Game.start("mgv/strike", seed=3)
    assert info(game, None, "tower1") == ["fungus tower (tower1, fungus), blocks sight"]
    assert info(game, None, "4,5") == [
        "point 4,5 (inches from the bottom-left corner)",
        "features here: none (open ground)",
        'figures within 3" (centre to centre): B1 (blue) 1.0"',
    ]


def test_no_distance_while_a_range_guess_is_asked() -> None:
    view = Game.start("mgv/strike", seed=3).view(None)
    view["positions"] = "whole inches (a range guess is being asked, 5.3)"
    lines = get("mgv").unit_info(view, "4,5")
    assert lines[-1] == "no distances now: whole inches (a range guess is being asked, 5.3)"
    assert not any('"' in line for line in lines)


@pytest.mark.parametrize("ref", ["R9", "x,y", "rock"])
def test_unknown_refs_are_refused(ref: str) -> None:
    game = Game.start("mgv/strike", seed=3)
    with pytest.raises(QuestionRefused) as refused:
        info(game, "blue", ref)
    assert str(refused.value) == (
        f"no base '{ref}' here; ask about a base (B1, B2, B3, B4, R1, R2, R3) "
        "or a point X,Y in inches (e.g. 10.5,4)"
    )


def goal(sid: str) -> list[str]:
    scenario = load_scenario(sid)
    return get(scenario.ruleset).goal(scenario)


def test_goal_of_each_mission() -> None:
    assert goal("mgv/strike")[1:] == [
        "blue wins as soon as R1 (L63 Whiptail) is destroyed.",
        "red wins if R1 still stands when turn 5 is over, or as soon as every blue base is gone.",
    ]
    assert goal("mgv/gauntlet")[1:] == [
        "blue wins as soon as 2 of its bases have left the table by the east edge.",
        "red wins as soon as too few blue bases are left able to move to make it, or if fewer "
        "than 2 are through when turn 7 is over.",
    ]
    assert goal("mgv/clear")[1:] == [
        "A side wins as soon as every enemy base is destroyed or gone (both at once: a draw).",
        "When turn 6 is over, the side that destroyed more points of enemy bases wins; equal "
        "points are a draw (blue's bases are worth 62, red's 62).",
    ]
