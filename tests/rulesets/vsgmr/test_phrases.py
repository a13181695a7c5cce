"""VSGMR table phrases (issue 12): ``charge`` into base contact for the hand to hand step
(II.4), the reasons ``list`` prints beside candidates, and ``measure`` (I: a ruler is among
the things to play with; ranges edge to edge by ruling 10, centre to centre by option).
Phrases on the built-in scenarios: ``tests/rulesets/test_table_phrases.py``."""

from __future__ import annotations

import math

import pytest

from warbench.errors import IllegalAction, QuestionRefused
from warbench.geometry.table import bearing, edge_distance
from warbench.rulesets.vsgmr.actions import Fight, Move, Shoot


def _parse(game, text):
    action = game.ruleset.parse_action(game.state, text)
    assert game.ruleset.parse_action(game.state, str(action)) == action
    return action


def _pair(vs, them=(14.0, 13.0), **kw):
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 0),
        vs.fig("red", "S", "troop", (30, 4), 90),
        vs.fig("blue", "Z", "troop", them, 180, distance=True),
    ]
    return vs.start(figures, **kw)


def test_charge_moves_straight_into_base_contact_facing_the_foe(vs):
    game = _pair(vs)
    action = _parse(game, "charge A Z")
    assert isinstance(action, Move) and len(action.path) == 1
    game.apply(str(action), "red")
    me, foe = vs.figure(game, "A").geo, vs.figure(game, "Z").geo
    touch = game.state.setup.rules.touch
    assert 0.0 <= edge_distance(me, foe) <= touch  # touching, not overlapping
    assert abs(bearing(me, foe)) < 0.5  # it faces its foe
    vs.skip_to(game, "hand", "red")
    assert Fight("A", "Z") in game.ruleset.legal_actions(game.state, "red")


def test_a_charge_out_of_reach_is_refused_with_the_move_rules_reason(vs):
    game = _pair(vs, them=(10.0, 30.0))
    with pytest.raises(IllegalAction, match=r"A cannot charge Z: the move costs 18\.9\d\""):
        game.ruleset.parse_action(game.state, "charge A Z")


def test_a_charge_goes_at_the_enemy_and_from_out_of_contact(vs):
    game = _pair(vs)
    with pytest.raises(IllegalAction, match="S is red's own: a charge goes at the enemy"):
        game.ruleset.parse_action(game.state, "charge A S")
    touching = _pair(vs, them=(11.02, 10.0))
    with pytest.raises(IllegalAction, match="A is already in contact with Z"):
        touching.ruleset.parse_action(touching.state, "charge A Z")


def test_move_toward_stops_at_touching_however_many_inches_are_asked(vs):
    game = _pair(vs, them=(10.0, 13.0))
    action = _parse(game, "move A toward Z 5")
    game.apply(str(action), "red")
    gap = edge_distance(vs.figure(game, "A").geo, vs.figure(game, "Z").geo)
    assert 0.0 <= gap <= game.state.setup.rules.touch


# -- reasons ---------------------------------------------------------------------------------


def _reason(game, text):
    action = game.ruleset.parse_action(game.state, text)
    return game.ruleset.action_reason(game.state, "red", action)


def test_reasons_name_a_charge_a_target_and_a_facing(vs):
    game = _pair(vs)
    assert _reason(game, "charge A Z") == "charge Z"
    assert _reason(game, "face A Z") == "face Z"
    assert game.ruleset.action_reason(game.state, "red", Shoot("A", "Z")) == "fire at Z"
    far = _pair(vs, them=(10.0, 30.0))
    assert _reason(far, "move A 10,15") == "toward Z"
    assert _reason(far, "move A 14,10") is None  # nothing stands out


def test_a_move_behind_a_wall_is_out_of_sight_and_one_to_an_item_is_to_it(vs):
    wall = vs.wall("w1", (15, 12), (15, 24))
    item = {"id": "idol", "label": "Idol", "at": [6, 10]}
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 0),
        vs.fig("blue", "Z", "troop", (20, 10), 180, distance=True),
    ]
    game = vs.start(figures, features=[wall], items=[item])
    assert _reason(game, "move A 10,15") == "out of sight"
    assert _reason(game, "move A to idol") == "to idol"


# -- measure ---------------------------------------------------------------------------------


def test_measure_is_edge_to_edge_with_sight_range_and_facing(vs):
    game = _pair(vs, them=(10.0, 20.0))
    text = game.ruleset.measure(game.state, "red", "A", "Z")
    assert text.splitlines()[0] == 'A to Z: 9.00" edge to edge'
    assert "line of sight A to Z: 100% of it in view" in text
    assert "Z is within Z's" not in text
    assert "A is within Z's Distance Attack Unit (12\")" in text
    assert "Z faces A" in text


def test_measure_is_centre_to_centre_under_the_option(vs):
    game = _pair(vs, them=(10.0, 20.0), options={"range_from": "centre"})
    text = game.ruleset.measure(game.state, "blue", "A", "Z")
    assert text.splitlines()[0] == 'A to Z: 10.00" centre to centre'


def test_measure_sees_a_wall_and_takes_points(vs):
    wall = vs.wall("w1", (15, 5), (15, 15))
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 0),
        vs.fig("blue", "Z", "troop", (20, 10), 180),
    ]
    game = vs.start(figures, features=[wall])
    assert "line of sight A to Z: blocked by w1" in game.ruleset.measure(
        game.state, "red", "A", "Z"
    )
    text = game.ruleset.measure(game.state, "red", "A", "10,14")
    assert text.splitlines()[0] == 'A to 10,14: 3.50" edge to edge'
    assert math.isclose(float(text.split('"')[0].split()[-1]), 3.5)
    with pytest.raises(QuestionRefused, match="there is no figure, feature, item or task 'Q'"):
        game.ruleset.measure(game.state, "red", "A", "Q")
    with pytest.raises(QuestionRefused, match="name two different things"):
        game.ruleset.measure(game.state, "red", "A", "a")


def test_move_to_a_feature_goes_round_what_bars_the_straight_way(vs):
    """A wall stands between A and the copse: the move goes round its end, into the copse."""
    import shapely

    wall = vs.wall("w1", (12, 8.5), (12, 11.5))
    copse = vs.box("copse", 13, 9, 16, 11, label="Copse")
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 0),
        vs.fig("blue", "Z", "troop", (30, 30), 180),
    ]
    game = vs.start(figures, features=[wall, copse])
    action = _parse(game, "move A to copse")
    assert len(action.path) >= 2  # round the wall's end
    game.apply(str(action), "red")
    body = vs.figure(game, "A").geo
    assert shapely.contains(shapely.box(13, 9, 16, 11).buffer(1e-6), body.outline)
