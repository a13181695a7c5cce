"""The move language of the open tables (issue 25): legs held at a facing (``X,Y@F``) and
relative steps (``forward``, ``reverse``/``back``, ``turn left|right``, ``toward X,Y``),
read the same way by VSGMR, MGV and Invisible Enemy.

A relative step is read from the mover's own place and facing into the canonical
absolute legs a record stores, so the text of the action parses back to the very
same action. Each ruleset's costs of such moves are in its own ``test_movement.py``.
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from tests.rulesets.test_table_phrases import ie, mgv, vsgmr

import warbench.rulesets.invisible_enemy
import warbench.rulesets.mgv
import warbench.rulesets.vsgmr  # noqa: F401  (registers the rulesets)
from warbench.core.game import Game
from warbench.errors import ActionSyntaxError, IllegalAction
from warbench.geometry.table import Table
from warbench.geometry.table.text import canonical_move, move_words, parse_move_words
from warbench.rulesets.mgv.actions import Move as MgvMove
from warbench.rulesets.vsgmr.actions import Move as VsgmrMove

TABLE = Table(36.0, 36.0)


def _read(words: str, start=((10.0, 10.0), 0.0), clip=None):
    text = f"move B1 {words}"
    return parse_move_words(TABLE, words.split(), text, "USAGE", 32, start=lambda: start, clip=clip)


# -- the shared reading -------------------------------------------------------------------------


def test_a_point_with_at_is_a_leg_held_at_that_facing_and_prints_back_the_same():
    path, facings, facing = _read("12,10@180 12,14 face 90")
    assert path == ((12.0, 10.0), (12.0, 14.0))
    assert facings == (180.0, None) and facing == 90.0
    assert move_words(path, facing, facings) == ["12,10@180", "12,14", "face", "90"]


def test_held_facings_are_canonical_like_the_final_facing():
    _, facings, facing = canonical_move("m", [(1, 2), (3, 4)], -0.0, 8, (-90, 360))
    assert facings == (270.0, 0.0) and facing == 0.0
    assert canonical_move("m", [(1, 2)], None, 8) == (((1.0, 2.0),), (None,), None)
    with pytest.raises(IllegalAction, match="one facing"):
        canonical_move("m", [(1, 2)], None, 8, (None, 90))


def test_forward_and_reverse_hold_the_facing_and_turns_change_it():
    """Left is counter-clockwise (facings in degrees counter-clockwise from east)."""
    path, facings, facing = _read("forward 2 turn left 90 forward 1 turn right 90 back 3")
    assert path == ((12.0, 10.0), (12.0, 11.0), (9.0, 11.0))
    assert facings == (0.0, 90.0, 0.0) and facing is None


def test_a_turn_with_nothing_after_it_is_the_final_facing():
    assert _read("turn right 40") == ((), (), 320.0)
    assert _read("forward 1 turn left 40") == (
        ((11.0, 10.0),),
        (0.0,),
        40.0,
    )
    assert _read("turn right 40 face 10")[2] == 10.0  # an explicit face wins


def test_steps_follow_an_absolute_point_from_where_it_ends():
    path, facings, _ = _read("10,14 forward 1 reverse 2")
    assert path == ((10.0, 14.0), (10.0, 15.0), (10.0, 13.0))
    assert facings == (None, 90.0, 90.0)


def test_toward_goes_straight_at_the_point_as_far_as_the_clip_allows():
    seen = []

    def clip(path, facings, aim):
        seen.append((path, facings, aim))
        return (13.0, 10.0)

    path, facings, facing = _read("forward 1 toward 20,10", clip=clip)
    assert facing is None
    assert path == ((11.0, 10.0), (13.0, 10.0)) and facings == (0.0, None)
    assert seen == [(((11.0, 10.0),), (0.0,), (20.0, 10.0))]
    with pytest.raises(IllegalAction, match="cannot afford any of the way toward 20,10"):
        _read("toward 20,10", clip=lambda path, facings, aim: (10.0, 10.0))


@pytest.mark.parametrize(
    ("words", "says"),
    [
        ("forward", "'forward' needs the inches after it: USAGE"),
        ("reverse -1", "'reverse -1': the inches > 0"),
        ("back far", "'far' is not a number"),
        ("turn 40", "'turn' is followed by left or right and the degrees: USAGE"),
        ("turn around 40", "'turn' is followed by left or right"),
        ("turn left", "'left' needs the degrees after it"),
        ("turn left 400", "at most 360 degrees"),
        ("sideways 2", "'sideways' is not a point or a move word; write: USAGE"),
        ("toward", "'toward' needs a point X,Y after it"),
        ("toward 5", "'5' is not a point"),
        ("12,10@", "gives no facing after @"),
        ("12,10@east", "'east' is not a number"),
        ("forward 5000", "goes far off the table"),
        ("forward 1 face 90 forward 1", "'face DEGREES' goes last"),
    ],
)
def test_a_bad_step_is_refused_naming_the_word_and_the_usage(words, says):
    with pytest.raises(ActionSyntaxError, match=re.escape(says)):
        _read(words)


# -- the built-in scenarios ----------------------------------------------------------------------


GAMES = {"vsgmr": (vsgmr, "R1", "B1"), "mgv": (mgv, "B1", "R1"), "ie": (ie, "A1", "C1")}


@pytest.fixture(params=sorted(GAMES))
def table(request):
    make, mine, theirs = GAMES[request.param]
    return make(), mine, theirs


def _geo(game: Game, ref: str) -> Any:
    state = game.state
    return (getattr(state, "figs", None) or state.bases)[ref].geo


def test_canonical_text_with_held_legs_round_trips_through_parse_and_print(table):
    game, mine, _ = table
    x, y = _geo(game, mine).at
    text = f"move {mine} {x + 0.5:g},{y:g}@180 {x + 0.5:g},{y + 1:g} face 90"
    action = game.parse(text)
    assert str(action) == text
    assert game.parse(str(action)) == action
    assert str(game.parse(text.replace("@180", "@-180.0"))) == text
    assert action.facings == (180.0, None)


def test_a_relative_move_is_stored_as_its_canonical_absolute_legs(table):
    game, mine, _ = table
    here = _geo(game, mine)
    action = game.parse(f"move {mine} turn left 40 reverse 1")
    (end,) = action.path
    rad = math.radians(here.facing + 40.0)
    assert math.dist(end, (here.x - math.cos(rad), here.y - math.sin(rad))) < 1e-4
    assert action.facings == ((here.facing + 40.0) % 360.0,)
    assert "@" in str(action) and "reverse" not in str(action)
    assert game.parse(str(action)) == action
    side = game.waiting_for()[0]
    assert game.refusal(action, side) is None


def test_a_move_made_in_code_with_held_legs_prints_and_reads_back():
    assert str(MgvMove("B1", ((4.0, 12.0),), facings=(-45.0,))) == "move B1 4,12@315"
    move = VsgmrMove("A", ((1.5, 2.0), (3.0, 4.0)), 90.0, (None, 0.0))
    assert str(move) == "move A 1.5,2 3,4@0 face 90"
    assert move.legs()[1].facing == 0.0


@pytest.mark.parametrize("name", ["mgv", "ie"])
def test_relative_steps_never_read_a_base_of_a_side_not_moving(name):
    """Relative steps read the mover's exact place; for a base of a side not moving now the
    move would be refused anyway, and the refusal would quote that place, which the
    moving side sees only by eye. So the words are refused first, saying no number."""
    make, mine, theirs = GAMES[name]
    game = make()
    x, y = _geo(game, theirs).at
    with pytest.raises(IllegalAction, match="not of the side moving now") as caught:
        game.parse(f"move {theirs} forward 1")
    said = str(caught.value)
    assert f"{x:g}" not in said and f"{y:g}" not in said
    assert not re.search(r"\d+\.\d", said)
    game.parse(f"move {mine} forward 0.5")  # its own base: read


def test_a_phrase_moving_another_sides_base_is_refused_without_numbers() -> None:
    """`move R1 toward B1` typed by blue would be worked out from R1's exact place, which
    blue sees only by eye: it is refused, naming no point (issue 24's secrecy)."""
    for scenario in ("mgv/clear", "invisible-enemy/company"):
        game = Game.start(scenario, 0)
        enemy = next(b for b in game.state.bases.values() if b.side == game.state.setup.sides[1])
        friend = next(b for b in game.state.bases.values() if b.side == game.state.setup.sides[0])
        with pytest.raises(IllegalAction) as refused:
            game.parse(f"move {enemy.id} toward {friend.id}")
        assert "not of the side moving now" in str(refused.value)
        assert not any(
            ch.isdigit() for ch in str(refused.value).split(":", 1)[1].replace(enemy.id, "")
        )
