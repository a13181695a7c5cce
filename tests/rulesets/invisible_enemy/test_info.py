"""``info`` and ``goal`` for Invisible Enemy: a base's model, weapon, ratings, hits, unit and
status; a unit; a tower; a point with barrages; refusals; secrets; each scenario's goal."""

from __future__ import annotations

from typing import Any

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.registry import get
from warbench.errors import QuestionRefused


def info(game: Game, side: str | None, ref: str) -> list[str]:
    return game.ruleset.unit_info(game.view(side), ref)


def test_a_base_shows_model_weapon_ratings_hull_unit_and_place() -> None:
    game = Game.start("invisible-enemy/company", seed=1)
    assert info(game, "australia", "C1") == [
        "C1: J90 Python (J90), combat vehicle, california",
        'weapon K: ATT 5, range 10"; DEF 4; speed 5"; worth 40 points',
        "hull 9: 0 hits (undamaged)",
        "unit CA of 1st Clip, with C2, C3, C4, C5, C6, C7, C8",
        'at 7,11 (by eye: somewhere in the 2" square around it), facing 0deg east; '
        'base 1.5" across',
        "status: nothing marked",
    ]
    assert (
        info(game, "california", "n1")[0]
        == "N1: N5 Relay (network) (N5), network relay, california"
    )


def test_hits_and_a_unit_listing() -> None:
    game = Game.start("invisible-enemy/breach", seed=1)
    game.state.bases["E2"].hits = 2
    assert info(game, "australia", "E2")[2] == "hull 6: 2 hits (fires at damage step 1/3, 5.1)"
    assert info(game, "australia", "CE") == [
        "unit CE of Breach Group (california), mission demolition, general engineering (E, 1.3)",
        "  E1 E7 Sapper (engineer): 0/6 hits",
        "  E2 E7 Sapper (engineer): 2/6 hits",
    ]


def test_a_live_tower_and_a_point_by_it() -> None:
    game = Game.start("invisible-enemy/fungus", seed=1)
    assert info(game, None, "T1") == ["T1 live tower 0/9 (T1, fungus), blocks sight"]
    assert (
        info(game, None, "12,6")[1] == "features here: T1 live tower 0/9 (T1, fungus), blocks sight"
    )


def test_a_point_inside_a_barrage_zone(ie: Any) -> None:
    forces = [
        ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))),
        ie.unit("red", "V1", ie.base("R1", "K817", (20, 12), 180)),
    ]
    game = ie.new_game(forces, tail=True)
    view = game.view("red")
    view.pop("positions", None)  # markers placed, no longer set down by hand
    view["barrages"] = [
        {
            "id": "M1",
            "side": "blue",
            "kind": "type1",
            "at": [10.0, 10.0],
            "radius": 2.0,
            "colour": "yellow",
            "deflected": False,
        }
    ]
    view["zones"] = [
        {
            "id": "M1",
            "at": [10.0, 10.0],
            "radius": 2.0,
            "colour": "yellow",
            "label": "Type 1 barrage",
        }
    ]
    lines = game.ruleset.unit_info(view, "11,10")
    assert "inside Type 1 barrage M1 of blue" in lines
    assert "inside Type 1 barrage M1 of blue" not in game.ruleset.unit_info(view, "15,10")
    # while markers go down by hand (3.0) nothing that would measure is said
    view["positions"] = "whole inches (markers are set down by hand, 3.0)"
    rough = game.ruleset.unit_info(view, "11,10")
    assert not any("inside" in line for line in rough)
    assert rough[-1] == "no distances now: whole inches (markers are set down by hand, 3.0)"


def test_a_sealed_purchase_does_not_change_the_other_sides_info(ie: Any) -> None:
    """2.0, ruling 5: on equal points both sides write their purchases sealed; until both are
    in, red's info on blue's unit and base is what it was."""
    forces = [
        ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))),
        ie.unit("blue", "U2", ie.base("B2", "J90", (4, 6))),
        ie.unit("red", "V1", ie.base("R1", "K817", (20, 12), 180)),
    ]
    game = ie.new_game(forces, [6, 3, 5, 4], network=(2, 2))
    assert game.decision.kind.value == "sealed"
    before = (info(game, "red", "U1"), info(game, "red", "B1"))
    game.apply("buy auto=U1", "blue")
    assert (info(game, "red", "U1"), info(game, "red", "B1")) == before
    assert not any("automatically" in line for line in info(game, "red", "B1"))


@pytest.mark.parametrize("ref", ["C99", "3,", "salt"])
def test_unknown_refs_are_refused(ref: str) -> None:
    game = Game.start("invisible-enemy/company", seed=1)
    with pytest.raises(QuestionRefused) as refused:
        info(game, "california", ref)
    text = str(refused.value)
    assert text.startswith(f"no base '{ref}' here; ask about a base (C1, C2, C3")
    assert text.endswith("or a point X,Y in inches (e.g. 10.5,4)")


def goal(sid: str) -> list[str]:
    scenario = load_scenario(sid)
    return get(scenario.ruleset).goal(scenario)


CLEAR = (
    "A side wins as soon as it is the only one with bases on the table in its hands "
    "(a contaminated base is lost to its side; both at once: a draw)."
)


def test_goal_of_each_scenario() -> None:
    assert goal("invisible-enemy/breach")[1:] == [
        "california wins as soon as 2 of its bases have left the table by the east edge.",
        "australia wins as soon as too few california bases are left in its hands to make it, "
        "or if fewer than 2 are through when turn 12 is over.",
    ]
    assert goal("invisible-enemy/company")[1:] == [
        CLEAR,
        "When turn 8 is over, the side that destroyed (or saw contaminated) more points of "
        "enemy bases wins; equal points are a draw (california's bases are worth 259, "
        "australia's 199).",
    ]
    assert goal("invisible-enemy/fungus")[1:] == [
        CLEAR,
        "When turn 7 is over, the side that destroyed (or saw contaminated) more points of "
        "enemy bases wins; equal points are a draw (australia's bases are worth 181, "
        "selangor's 216).",
    ]
