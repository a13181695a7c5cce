"""Secrets of Invisible Enemy: barrage markers go down by hand, without measuring (3.0).

While a side sets markers down (phases 2 and 4, and the free barrages of a tied
initiative, 4.6) every view and a seat's state show positions to the whole
inch only, so no exact distance can be read off; the free barrages of a tie are
a sealed choice of both sides, so neither sees where the other's goes until
both are down. A bot aims by eye: its marker lands off its aim by the stand-in
scatter model, never by a measured distance.
"""

from __future__ import annotations

import json
import random
from typing import Any

from warbench.rulesets.invisible_enemy import barrage

BLUE_AT = (4.3, 12.6)
RED_AT = (19.6, 11.2)


def _units(ie: Any) -> list[Any]:
    return [
        ie.unit("blue", "U1", ie.base("B1", "L35", BLUE_AT, 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", RED_AT, 180)),
    ]


def _canon(data: Any) -> str:
    return json.dumps(data, sort_keys=True, default=str)


def _placing(ie: Any) -> Any:
    """Blue holds a Type 2 marker (1 die, a 6) and is asked to set it down in phase 2."""
    game = ie.new_game(_units(ie), [1, 6, 1, 1])
    assert game.state.step == "mark1"
    return game


def test_3_0_while_markers_go_down_every_view_shows_whole_inches(ie: Any) -> None:
    game = _placing(ie)
    for side in ("blue", "red", None):
        view = game.view(side)
        text = _canon(view)
        assert "4.3" not in text and "19.6" not in text and "12.6" not in text
        figures = {f["id"]: (f["x"], f["y"]) for f in view["figures"]}
        assert figures == {"B1": (4, 13), "R1": (20, 11)}
        assert "whole inches" in view["positions"]


def test_3_0_while_markers_go_down_a_seats_state_is_in_whole_inches(ie: Any) -> None:
    game = _placing(ie)
    known = game.ruleset.side_state(game.state, "blue")
    assert known is not game.state
    assert known.bases["R1"].geo.at == (20.0, 11.0)
    assert game.state.bases["R1"].geo.at == RED_AT  # the real table is untouched


def test_3_0_exact_positions_return_once_the_markers_are_down(ie: Any) -> None:
    game = _placing(ie)
    ie.act(game, "blue", "barrage 20,11 type2", *ie.WIN["blue"])
    assert game.state.step == "activate"
    figures = {f["id"]: (f["x"], f["y"]) for f in game.view("red")["figures"]}
    assert figures["R1"] == RED_AT
    assert game.ruleset.side_state(game.state, "red") is game.state


def test_3_0_a_marker_is_taken_where_it_is_put_and_never_moves(ie: Any) -> None:
    game = _placing(ie)
    ie.act(game, "blue", "barrage 19.7,11.4 type2", *ie.WIN["blue"])
    marker = game.state.markers[0]
    assert marker.at == (19.7, 11.4)
    zones = game.view("red")["zones"]
    assert zones[0]["at"] == [19.7, 11.4] and zones[0]["radius"] == 3.0


def test_4_6_the_free_barrages_of_a_tie_are_sealed_until_both_are_down(ie: Any) -> None:
    game = ie.new_game(_units(ie), [*ie.QUIET, 3, 3, 4, 2])
    assert game.state.step == "tie"
    assert game.decision.kind.value == "sealed"
    game.apply("barrage 19,11", "blue")
    red_view = game.view("red")
    assert red_view["zones"] == [] and "19,11" not in _canon(red_view)
    assert "19,11" not in ie.texts(game)
    assert game.view("blue")["my_sealed_choice"] == "barrage 19,11"
    # red's refusal, if any, says nothing of blue's choice
    reason = game.refusal(game.parse("barrage 40,40"), "red")
    assert reason is not None and "19" not in reason


def test_3_0_a_bot_marker_lands_off_its_aim_by_the_scatter_model(ie: Any) -> None:
    game = _placing(ie)
    state = game.state
    landed = [barrage.scatter(state, "blue", RED_AT, random.Random(seed)) for seed in range(200)]
    misses = [((x - RED_AT[0]) ** 2 + (y - RED_AT[1]) ** 2) ** 0.5 for x, y in landed]
    assert all(0.0 <= x <= 24.0 and 0.0 <= y <= 24.0 for x, y in landed)
    assert sum(misses) / len(misses) > 0.5  # 15" off: an eye misses by an inch or so
    near = [barrage.scatter(state, "blue", (5.0, 12.6), random.Random(s)) for s in range(200)]
    near_misses = [((x - 5.0) ** 2 + (y - 12.6) ** 2) ** 0.5 for x, y in near]
    assert sum(near_misses) / len(near_misses) < sum(misses) / len(misses)


def test_4_5_unit_links_join_bases_within_the_interval_but_not_while_markers_go_down(
    ie: Any,
) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12)), ie.base("B2", "L35", (4, 18))),
        ie.unit("blue", "U2", ie.base("B3", "L35", (2, 2)), ie.base("B4", "L35", (14, 2))),
        ie.unit("red", "V1", ie.base("R1", "K817", RED_AT, 180)),
    ]
    game = ie.new_game(units, [1, 6, 1, 1])
    assert game.state.step == "mark1"
    assert game.view("blue")["links"] == []  # a link's length would be a measure (3.0)
    ie.act(game, "blue", "barrage 20,11 type2", *ie.WIN["blue"])
    links = game.view("red")["links"]
    # B1-B2 are 6" apart (blue's interval is 9"); B3-B4 12": no link, B4 is cut off
    assert links == [{"from": [4.0, 12.0], "to": [4.0, 18.0], "side": "blue"}]
