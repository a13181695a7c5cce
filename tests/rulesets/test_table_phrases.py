"""Table phrases (issue 12): moves in a miniatures player's words on the built-in scenarios
of VSGMR, MGV and Invisible Enemy, the shared reading and geometry, and measuring.

Each phrase becomes the ruleset's own raw move (points and a facing), whose text
parses back to the very same move; a phrase no legal move says is refused with
the rules' reason. Per-ruleset details (charges, secrets, reasons) are in
``tests/rulesets/<ruleset>/test_phrases.py``.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any

import pytest

import warbench.rulesets.invisible_enemy
import warbench.rulesets.mgv
import warbench.rulesets.vsgmr  # noqa: F401  (registers the rulesets)
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.errors import ActionSyntaxError, IllegalAction, QuestionRefused
from warbench.geometry.table import Figure, RoundBase
from warbench.rulesets.kit.table.phrases import (
    Phrase,
    Spot,
    name_spot,
    read_phrase,
    snap,
)

# -- the shared reading ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("verb", "args", "expected"),
    [
        ("move", ["R1", "toward", "B2", "6"], Phrase("toward", "R1", "B2", 6.0)),
        ("move", ["R1", "towards", "B2"], Phrase("toward", "R1", "B2", None)),
        ("move", ["R1", "to", "oak"], Phrase("to", "R1", "oak")),
        ("face", ["R1", "B2"], Phrase("face", "R1", "B2")),
        ("face", ["R1", "90"], Phrase("face", "R1", "", degrees=90.0)),
        ("charge", ["R1", "B2"], Phrase("charge", "R1", "B2")),
        ("move", ["R1", "10,4", "12,8"], None),
        ("move", ["R1", "face", "90"], None),
    ],
)
def test_phrases_are_read_and_raw_forms_are_left_alone(verb, args, expected):
    assert read_phrase(verb, args, " ".join([verb, *args])) == expected


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("move R1 toward B2 6 7", "move PIECE toward TARGET [INCHES]"),
        ("move R1 toward B2 -3", "more than 0"),
        ("move R1 toward B2 far", "is not a number"),
        ("move R1 to oak elm", "move PIECE to FEATURE"),
        ("face R1", "face PIECE TARGET"),
        ("charge R1", "charge PIECE TARGET"),
    ],
)
def test_a_phrase_that_does_not_fit_its_form_says_the_form(text, says):
    verb, *args = text.split()
    with pytest.raises(ActionSyntaxError, match=re.escape(says)):
        read_phrase(verb, args, text)


def test_snapping_to_the_hundredth_never_lengthens_a_move():
    rng = random.Random(5)
    for _ in range(500):
        start = (rng.uniform(0, 40), rng.uniform(0, 40))
        end = (rng.uniform(0, 40), rng.uniform(0, 40))
        got = snap(start, end)
        assert math.dist(start, got) <= math.dist(start, end) + 1e-12
        assert math.dist(got, end) < 0.015
        assert got == (round(got[0], 2), round(got[1], 2))


def _spots() -> list[Spot]:
    import shapely

    square = shapely.box(0, 0, 2, 2)
    return [
        Spot("wood1", "feature", square, label="Copse"),
        Spot("fence1", "feature", square, label="Fence"),
        Spot("fence2", "feature", square, label="Fence"),
        Spot("hill", "feature", square, label="Gallows Hill"),
    ]


def test_a_feature_is_named_by_its_id_or_by_a_label_that_names_one():
    assert name_spot("WOOD1", _spots(), "feature", "t").id == "wood1"
    assert name_spot("copse", _spots(), "feature", "t").id == "wood1"
    assert name_spot("gallows-hill", _spots(), "feature", "t").id == "hill"
    with pytest.raises(ActionSyntaxError, match="'fence' names fence1, fence2"):
        name_spot("fence", _spots(), "feature", "t")
    with pytest.raises(ActionSyntaxError, match="there is no feature 'oak'"):
        name_spot("oak", _spots(), "feature", "t")


# -- the built-in scenarios --------------------------------------------------------------------


def _until(game: Game, done: Any, prefer: tuple[str, ...] = (), seed: int = 1) -> Game:
    """Play seeded random legal actions (those of a ``prefer``red type first) until ``done``."""
    rng = random.Random(seed)
    for _ in range(400):
        if done(game.state):
            return game
        side = game.waiting_for()[0]
        actions = game.ruleset.legal_actions(game.state, side)
        liked = [a for a in actions if type(a).__name__ in prefer]
        game.apply(str(rng.choice(liked or actions)), side)
    raise AssertionError("never got there")


def vsgmr() -> Game:
    """vsgmr/relic at red's first movement: R1 18,2, R4 18,4, B1 18,34, the relic at 18,18."""
    game = Game(load_scenario("vsgmr/relic"), seed=3)
    return _until(game, lambda s: s.phase == "movement" and game.waiting_for() == ("red",))


def mgv() -> Game:
    """mgv/clear at blue's movement: B1 3,8 facing east, R1 33,16."""
    game = Game(load_scenario("mgv/clear"), seed=2)
    return _until(game, lambda s: s.step == "move")


def ie() -> Game:
    """invisible-enemy/company while Australia's unit AS moves: A1 33,10; C1 6,10."""
    game = Game(load_scenario("invisible-enemy/company"), seed=2)
    return _until(game, lambda s: s.step == "unit" and s.current == "AS", prefer=("Unit",))


def _parse(game: Game, text: str) -> Any:
    action = game.ruleset.parse_action(game.state, text)
    assert game.ruleset.parse_action(game.state, str(action)) == action
    return action


def _figure(game: Game, ref: str) -> Figure:
    state = game.state
    holder = getattr(state, "figs", None) or state.bases
    found: Figure = holder[ref].geo
    return found


GAMES = {"vsgmr": (vsgmr, "R1", "B1"), "mgv": (mgv, "B1", "R1"), "ie": (ie, "A1", "C1")}
STEP = {"vsgmr": 4.0, "mgv": 1.5, "ie": 4.0}
"""Inches of a legal straight move toward the enemy (R1 passes over R4, A1 over A4)."""


@pytest.fixture(params=sorted(GAMES))
def table(request):
    make, mine, theirs = GAMES[request.param]
    return make(), mine, theirs, STEP[request.param]


def test_move_toward_goes_the_inches_straight_at_the_target_and_faces_it(table):
    game, mine, theirs, step = table
    start, target = _figure(game, mine), _figure(game, theirs)
    action = _parse(game, f"move {mine} toward {theirs} {step}")
    (end,) = action.path
    assert math.dist(start.at, end) == pytest.approx(step, abs=0.015)
    assert math.dist(start.at, end) <= step
    way = math.degrees(math.atan2(end[1] - start.at[1], end[0] - start.at[0]))
    aim = math.degrees(math.atan2(target.y - start.y, target.x - start.x))
    assert abs((way - aim + 180) % 360 - 180) < 0.6
    assert action.facing is None  # the move ends facing along its leg: toward the target
    game.apply(str(action), game.waiting_for()[0])
    assert _figure(game, mine).at == end


def test_move_toward_without_inches_goes_as_far_as_the_rules_allow(table):
    game, mine, theirs, _ = table
    start = _figure(game, mine).at
    action = _parse(game, f"move {mine} toward {theirs}")
    (end,) = action.path
    farther = math.dist(start, end) + 0.1
    with pytest.raises(IllegalAction):
        game.ruleset.parse_action(game.state, f"move {mine} toward {theirs} {farther:.2f}")
    game.apply(str(action), game.waiting_for()[0])
    assert _figure(game, mine).at == end


def test_face_turns_on_the_spot_toward_the_target(table):
    game, mine, theirs, _ = table
    start, target = _figure(game, mine), _figure(game, theirs)
    action = _parse(game, f"face {mine} {theirs}")
    assert action.path == ()
    aim = math.degrees(math.atan2(target.y - start.y, target.x - start.x)) % 360
    assert action.facing == pytest.approx(aim, abs=0.006)
    assert _parse(game, f"face {mine} 90").facing == 90.0


def test_an_unknown_name_is_refused_naming_what_may_be_named(table):
    game, mine, _, _ = table
    with pytest.raises(IllegalAction, match=r"there is no .*'Q9'"):
        game.ruleset.parse_action(game.state, f"move {mine} toward Q9 2")


def test_a_phrase_beyond_the_move_is_refused_with_the_rules_reason(table):
    game, mine, theirs, _ = table
    with pytest.raises(IllegalAction, match=r"allowed|allowance|costs"):
        game.ruleset.parse_action(game.state, f"move {mine} toward {theirs} 30")


def test_the_phrases_are_in_the_usage_lines(table):
    game, _, _, _ = table
    forms = "\n".join(game.ruleset.usage().values())
    for words in ("toward TARGET [INCHES]", "to FEATURE", "face "):
        assert words in forms


@pytest.mark.parametrize("name", ["ie", "mgv"])  # VSGMR charges: vsgmr/test_phrases.py
def test_charge_in_a_ruleset_without_a_contact_attack_is_refused_saying_so(name):
    make, mine, theirs = GAMES[name]
    game = make()
    with pytest.raises(IllegalAction, match="no attack in base contact") as refused:
        game.ruleset.parse_action(game.state, f"charge {mine} {theirs}")
    assert f"move {mine} toward {theirs}" in refused.value.reason


def test_move_to_a_feature_ends_wholly_in_it_vsgmr():
    """field: G2 stands 4" from the farm road; sent to it, its base ends wholly on it."""
    import shapely

    game = Game(load_scenario("vsgmr/field"), seed=3)
    _until(game, lambda s: s.phase == "movement")
    state = game.state
    road = next(f for f in state.setup.features if f.id == "road")
    action = _parse(game, "move G2 to road")
    game.apply(str(action), "grey")
    assert shapely.contains(road.geometry.buffer(1e-6), state.figs["G2"].geo.outline)
    with pytest.raises(IllegalAction, match=r"G2 is already in road \(Farm road\)"):
        game.ruleset.parse_action(state, "move G2 to road")
    assert _parse(game, "move G3 to farm-road").path  # the label names it too


def test_move_to_an_item_ends_touching_it_vsgmr():
    """relic: a figure sent to the relic ends with its base over it (III: it may take it)."""
    game = vsgmr()
    state = game.state
    with pytest.raises(IllegalAction, match=r"no spot at relic .* may reach this move"):
        game.ruleset.parse_action(state, "move R4 to relic")
    game.apply(str(_parse(game, "move R4 toward relic")), "red")
    assert state.figs["R4"].geo.at == (18.0, 10.0)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_measure_gives_the_distance_as_the_rules_measure_and_the_sight(name):
    make, mine, theirs = GAMES[name]
    game = make()
    side = game.waiting_for()[0]
    state = game.ruleset.side_state(game.state, side) or game.state
    text = game.ruleset.measure(state, side, mine, theirs)
    a, b = _figure(game, mine), _figure(game, theirs)
    centre = math.dist(a.at, b.at)
    if name == "vsgmr":  # edge to edge (ruling 10)
        assert isinstance(a.base, RoundBase) and isinstance(b.base, RoundBase)
        assert f'{centre - a.base.radius - b.base.radius:.2f}" edge to edge' in text
    else:  # centre to centre (MGV 5.0, Invisible Enemy 5.0), the other side by eye
        seen = math.dist(state.bases[mine].geo.at, state.bases[theirs].geo.at)
        assert centre != seen
        assert f'about {round(seen)}" (by eye) centre' in text
    assert "line" in text
    with pytest.raises(QuestionRefused, match="Q9"):
        game.ruleset.measure(state, side, mine, "Q9")
