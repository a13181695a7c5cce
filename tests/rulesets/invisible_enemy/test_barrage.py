"""3.0 Barrages and 4.6 tie barrages in play: markers by hand, deflection, the phase 6 strikes."""

from __future__ import annotations

from typing import Any

import pytest

from warbench.render.svg import render_svg
from warbench.rulesets.invisible_enemy import barrage


def to_phase_6(ie: Any, game: Any, *dice: int) -> None:
    """Both sides pass on moving and firing; ``dice`` are the barrage rolls."""
    ie.give(game, *dice)
    while game.state.turn == 1 and game.state.step not in ("resolve", "over"):
        step = game.state.step
        side = game.decision.sides[0]
        if step == "activate":
            game.apply("pass", side)
        elif step == "mark2" and game.state.networks[side].type2:
            break
        else:
            game.apply("done", side)


def marked(ie: Any, units: list[Any], at: str, *dice: int, **kw: Any) -> Any:
    """A game where blue holds one Type 2 marker (1 die, a 6) and sets it at ``at`` in phase 2."""
    game = ie.new_game(units, [1, 6, 1, 1], tail=True, **kw)
    assert game.state.step == "mark1"
    ie.act(game, "blue", f"barrage {at} type2", *ie.WIN["blue"])
    assert game.state.step == "activate"
    return game


def defender(ie: Any, flank: bool = True, **extra: Any) -> list[Any]:
    """Red's K817 (defence 3) at 12,12 facing east, with a friend 1.8" to its north flank."""
    bases = [ie.base("R1", "K817", (12, 12), 0)]
    if flank:
        bases.append(ie.base("R2", "K817", (12, 13.8), 0))
    return [
        ie.unit("blue", "U1", ie.base("B1", "L63", (2, 2), 90)),
        ie.unit("red", "V1", *bases),
    ]


def test_the_worked_example_of_3_0_ten_destroys_a_defence_3_base(ie: Any) -> None:
    """3.0's example as written: a defence 3 base alone (no flank support: +1), 2" from
    the marker: 4 and 6 make 10, destroyed (8 + DEF is 11, the +1 makes 10 enough)."""
    game = marked(ie, defender(ie, flank=False), "12,10")
    to_phase_6(ie, game, 4, 6)
    assert game.state.bases["R1"].destroyed
    assert "destroys R1 (10, needed 10)" in ie.last(game, "destroyed").text


def test_a_nine_does_nothing(ie: Any) -> None:
    game = marked(ie, defender(ie, flank=False), "12,10")
    to_phase_6(ie, game, 4, 5)
    assert not game.state.bases["R1"].destroyed
    assert "misses R1 (9, needed 10)" in ie.last(game, "barrage_miss").text


def test_flank_support_takes_the_plus_one_away(ie: Any) -> None:
    game = marked(ie, defender(ie), "12,10")
    # a friend 1.8" to the north flank: no +1; R2 is 3.8" off the marker, not in reach
    to_phase_6(ie, game, 4, 6)
    assert not game.state.bases["R1"].destroyed  # 10 < 11
    assert "misses R1 (10, needed 11)" in ie.last(game, "barrage_miss").text


def test_a_friend_ahead_is_not_flank_support(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "L63", (2, 2), 90)),
        ie.unit(
            "red", "V1", ie.base("R1", "K817", (12, 12), 0), ie.base("R2", "K817", (13.8, 12), 0)
        ),
    ]
    game = ie.start(units)
    r1 = game.state.bases["R1"]
    assert not barrage.flank_supported(game.state, r1)


def test_bases_beyond_three_inches_are_not_struck(ie: Any) -> None:
    game = marked(ie, defender(ie), "12,8.9")
    to_phase_6(ie, game)
    assert not ie.events(game, "barrage_miss") and not ie.events(game, "destroyed")


def test_impervious_terrain_blocks_the_blast(ie: Any) -> None:
    features = [ie.box("S1", "shrapnel", 10, 10.6, 14, 11.2)]
    game = marked(ie, defender(ie), "12,10", features=features)
    to_phase_6(ie, game)
    assert not ie.events(game, "barrage_miss") and not ie.events(game, "destroyed")


def test_terrain_within_reach_of_its_sensitivity_is_cleared(ie: Any) -> None:
    features = [
        ie.box("low", "mildew", 15, 3, 16, 4),  # 2.2" from the marker: low reaches 2"
        ie.box("med", "mold", 14.5, 3, 15, 4),  # 2.0" off: medium reaches 3"
        ie.box("high", "dust", 17.5, 3, 18, 4),  # 4.5" off: high reaches 4"
    ]
    game = marked(ie, defender(ie), "12.5,3.5", features=features)
    to_phase_6(ie, game)
    terrain = game.state.terrain
    assert terrain.feature("med").destroyed
    assert not terrain.feature("low").destroyed
    assert not terrain.feature("high").destroyed


def test_a_barrage_clears_only_what_lies_within_reach_3_0(ie: Any) -> None:
    # mold (medium: 3") 10" long, its end 1" from the marker: the 3" disc bites off its
    # end and the rest stays; a patch of dust (high: 4") round the marker is holed
    features = [
        ie.box("long", "mold", 13.5, 1, 23.5, 6),
        ie.box("wide", "dust", 4, 0, 21, 10),
    ]
    game = marked(ie, defender(ie), "12.5,4.5", features=features)
    before = {f: game.state.terrain.feature(f).geometry for f in ("long", "wide")}
    to_phase_6(ie, game)
    terrain = game.state.terrain
    long, wide = terrain.feature("long"), terrain.feature("wide")
    assert not long.destroyed and not wide.destroyed
    expected = before["long"].difference(barrage.disc((12.5, 4.5), 3.0))
    assert long.geometry.symmetric_difference(expected).area < 1e-9
    assert len(wide.holes) == 1 and wide.shape == "polygon"
    expected = before["wide"].difference(barrage.disc((12.5, 4.5), 4.0))
    assert wide.geometry.symmetric_difference(expected).area < 1e-9
    assert "part of long" in ie.last(game, "cleared").text
    # the view draws the hole (the renderers take a polygon's holes)
    drawn = next(f for f in game.view("red")["features"] if f["id"] == "wide")
    assert len(drawn["holes"]) == 1
    assert 'fill-rule="evenodd"' in render_svg(game.view("red"))


def test_deflection_takes_one_off(ie: Any) -> None:
    # network: blue's 6 beats red's 5; red's 4 and 3 are unopposed: red 2 points, blue 1
    game = ie.new_game(defender(ie), [6, 5, 4, 3], network=(1, 3), tail=True)
    assert game.decision.sides == ("red",)
    ie.act(game, "red", "buy deflect")
    ie.act(game, "blue", "buy none", 1, 6, 1, 1)  # Type 2: blue one marker, red none
    assert game.state.step == "mark1" and game.decision.sides == ("blue",)
    ie.act(game, "blue", "done", *ie.WIN["blue"])  # kept for after movement
    to_phase_6(ie, game)
    assert game.state.step == "mark2"
    ie.act(game, "blue", "barrage 12,10")
    assert game.state.step == "deflect" and game.decision.sides == ("red",)
    # no base has a shot (ruling 53): phase 5 asks no one and the barrage strikes at once;
    # flanked (11) and deflected (+1): 12 needed
    ie.act(game, "red", "deflect M1", 5, 6)
    assert ie.last(game, "deflect").data["marker"] == "M1"
    assert not game.state.bases["R1"].destroyed
    assert "misses R1 (11, needed 12)" in ie.last(game, "barrage_miss").text


def test_a_marker_is_refused_off_the_table(ie: Any) -> None:
    game = ie.new_game(defender(ie), [1, 6, 1, 1, *ie.WIN["blue"]])
    assert "on the table" in ie.refused(game, "barrage 30,5 type2", "blue")


def test_a_tied_initiative_gives_each_side_a_sealed_free_barrage(ie: Any) -> None:
    game = ie.new_game(defender(ie), [*ie.QUIET, 3, 3, 4, 2])
    state = game.state
    assert state.step == "tie" and set(game.decision.sides) == {"blue", "red"}
    game.apply("barrage 12,10", "blue")
    # blue's point is sealed: red's view holds no marker yet
    assert game.view("red")["barrages"] == []
    ie.give(game, 6, 6, 1, 1, *ie.WIN["red"])  # R1 struck on 12; B1 (2" off red's) on 2
    game.apply("barrage 2,4", "red")
    assert state.bases["R1"].destroyed  # blue's free barrage struck at once (12 >= 10)
    assert state.initiative == "red" and state.step == "activate"
    assert not state.markers  # resolved and lifted


def test_a_contaminated_friend_gives_no_flank_support(ie: Any) -> None:
    game = ie.start(defender(ie))
    r1 = game.state.bases["R1"]
    assert barrage.flank_supported(game.state, r1)
    game.state.bases["R2"].contaminated = 1
    assert not barrage.flank_supported(game.state, r1)


@pytest.mark.parametrize(("dice", "gone"), [((5, 6), True), ((4, 6), False)])
def test_a_fungus_tower_falls_to_a_barrage_on_11_or_12_1_5_note_2(
    ie: Any, dice: tuple[int, int], gone: bool
) -> None:
    tower = ie.circle("T1", "fungus", (18, 18), 0.8, hull=9)
    game = marked(ie, defender(ie), "18,16.5", features=[tower])
    to_phase_6(ie, game, *dice)
    state = game.state
    assert state.towers["T1"].destroyed is gone
    assert state.terrain.feature("T1").destroyed is gone
    if gone:
        assert ie.events(game, "barrage_tower") and ie.events(game, "tower_destroyed")


def _two_markers_on_r1(ie: Any, **kw: Any) -> tuple[Any, Any]:
    """R1 (defence 3, flanked: 11 needed) inside two Type 2 markers; the phase 6 rolls
    scripted 4 and 6 (10: a miss), then 6 and 6."""
    from warbench.core.dice import ScriptedDice
    from warbench.core.game import Resolution
    from warbench.rulesets.invisible_enemy.state import Marker

    game = ie.start(defender(ie), **kw)
    state = game.state
    state.markers = [
        Marker("M1", "blue", "type2", (12, 10)),
        Marker("M2", "blue", "type2", (13, 10)),
    ]
    res = Resolution(ScriptedDice([4, 6, 6, 6]))
    barrage.resolve_all(state, res, ("type2",))
    return state, res


def test_a_base_in_two_barrages_rolls_once(ie: Any) -> None:
    """3.0 phase 6: "for each MGV base that is within 3 inches of any barrage marker": one
    roll however many markers reach it (ruling 12)."""
    state, res = _two_markers_on_r1(ie)
    rolls = [e for e in res.events if e.kind == "roll"]
    assert len(rolls) == 1 and "barrage M1 on R1" in rolls[0].text
    assert state.bases["R1"].active and state.markers == []


def test_per_marker_rolls_once_for_each_barrage(ie: Any) -> None:
    """Option barrage_rolls = "per_marker": every marker that reaches the base rolls."""
    state, res = _two_markers_on_r1(ie, options={"barrage_rolls": "per_marker"})
    rolls = [e for e in res.events if e.kind == "roll"]
    assert [r.text.split(" (")[0] for r in rolls] == [
        "blue rolls 4+6 = 10",
        "blue rolls 6+6 = 12",
    ]
    assert state.bases["R1"].destroyed
