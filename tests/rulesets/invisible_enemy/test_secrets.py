"""Secrets of Invisible Enemy: barrage markers go down by hand, without measuring (3.0).

All game long every view and a seat's state show the other side's bases by eye
(``rules.toml [eye]``: the centre of each base's 2-inch cell), so no exact
distance can be read off, and while a side sets markers down (phases 2 and 4,
and the free barrages of a tied initiative, 4.6) no distance is shown at all;
the free barrages of a tie are a sealed choice of both sides, so neither sees
where the other's goes until both are down. A bot aims where its side sees the
enemy, never by a measured distance.
"""

from __future__ import annotations

import json
from typing import Any

BLUE_AT = (4.3, 12.6)
RED_AT = (19.6, 11.2)


def _units(ie: Any) -> list[Any]:
    return [
        ie.unit("blue", "U1", ie.base("B1", "L35", BLUE_AT, 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", RED_AT, 180)),
    ]


def _canon(data: Any) -> str:
    return json.dumps(data, sort_keys=True, default=str)


EYE = {"measuring": "eye"}
BLUE_SEEN = (5.0, 13.0)
RED_SEEN = (19.0, 11.0)
"""B1 and R1 as the other side sees them: the centres of their 2-inch cells."""


def _placing(ie: Any, **kw: Any) -> Any:
    """Blue holds a Type 2 marker (1 die, a 6) and is asked to set it down in phase 2."""
    game = ie.new_game(_units(ie), [1, 6, 1, 1], **kw)
    assert game.state.step == "mark1"
    return game


def test_3_0_every_view_shows_the_other_sides_bases_by_eye(ie: Any) -> None:
    game = _placing(ie, options=EYE)
    for side, seen in (
        ("blue", {"B1": BLUE_AT, "R1": RED_SEEN}),
        ("red", {"B1": BLUE_SEEN, "R1": RED_AT}),
        (None, {"B1": BLUE_SEEN, "R1": RED_SEEN}),
    ):
        view = game.view(side)
        figures = {f["id"]: (f["x"], f["y"]) for f in view["figures"]}
        assert figures == seen
        hidden = [a for s_, a in (("blue", BLUE_AT), ("red", RED_AT)) if s_ != side]
        text = _canon(view)
        assert all(f"{a[0]}" not in text and f"{a[1]}" not in text for a in hidden)
        assert "no distances" in view["positions"]


def test_3_0_a_seats_state_holds_the_other_sides_bases_by_eye(ie: Any) -> None:
    game = _placing(ie, options=EYE)
    known = game.ruleset.side_state(game.state, "blue")
    assert known is not game.state
    assert known.bases["R1"].geo.at == RED_SEEN
    assert known.bases["B1"].geo.at == BLUE_AT
    assert game.state.bases["R1"].geo.at == RED_AT  # the real table is untouched


def test_3_0_the_eye_holds_after_the_markers_are_down(ie: Any) -> None:
    game = _placing(ie, options=EYE)
    ie.act(game, "blue", "barrage 20,11 type2", *ie.WIN["blue"])
    assert game.state.step == "activate"
    view = game.view("blue")
    figures = {f["id"]: (f["x"], f["y"]) for f in view["figures"]}
    assert figures["R1"] == RED_SEEN
    assert "positions" not in view  # distances may be asked again, by eye


def test_3_0_measuring_free_shows_every_base_exactly(ie: Any) -> None:
    game = _placing(ie)  # the tests' scenarios measure freely unless they say otherwise
    figures = {f["id"]: (f["x"], f["y"]) for f in game.view("red")["figures"]}
    assert figures == {"B1": BLUE_AT, "R1": RED_AT}
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


def test_3_0_a_bot_aims_its_marker_where_its_side_sees_the_enemy(ie: Any) -> None:
    game = _placing(ie, options=EYE)
    listed = [a for a in game.legal_actions("blue") if str(a).startswith("barrage")]
    aims = [a.at for a in listed]
    assert RED_SEEN in aims and RED_AT not in aims


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
