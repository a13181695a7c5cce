"""5.3 Photon Fire: the range guess is the player's own skill, so the game keeps it secret
and never hands out the distance. Guesses are a held sealed choice written before the
declaration, each bound to its target, and revealed at the dice; every view (and a seat's
state) shows the other side's bases by eye all game; odds and refusals never name the
range; the "estimate" option draws guesses from the stand-in model; a photon shot needs
a guess written for its target; a guess 3" or more out is the disaster (feedback hits on
the firer)."""

from __future__ import annotations

import json
import re

import pytest

from warbench.core.actions import Action
from warbench.errors import ActionSyntaxError, IllegalAction, UndoError
from warbench.rulesets.mgv import combat
from warbench.rulesets.mgv.actions import FireOrder, Range

BLUE_AT = (4.3, 12.6)
RED_AT = (19.6, 11.2)
TRUE_RANGE = ((RED_AT[0] - BLUE_AT[0]) ** 2 + (RED_AT[1] - BLUE_AT[1]) ** 2) ** 0.5  # 15.364"


def _table(mgv, **extra):
    """B1: an L63 with a photon main mount and a kinetic secondary; R1 in its arc; R2, a red
    missile mount that can screen (so red is asked something before the dice)."""
    return [
        mgv.base("blue", "B1", "L63", BLUE_AT, 0, main="photon", secondary="kinetic", **extra),
        mgv.base("red", "R1", "L35", RED_AT, 180),
        mgv.base("red", "R2", "L35", (19.6, 14.2), 180, main="missile"),
    ]


def _fire(mgv, dice=(), **kw):
    return mgv.start(_table(mgv), "blue", "fire", dice, tail=True, **kw)


def _shown(value: float) -> list[str]:
    """The ways a distance could be printed: to 1 and 2 decimals."""
    return [f"{value:.1f}", f"{value:.2f}"]


def _leaks(text: str | None) -> list[str]:
    if not text:
        return []
    return [s for s in _shown(TRUE_RANGE) if re.search(rf"(?<![\d.]){re.escape(s)}(?!\d)", text)]


def _canon(data) -> str:
    return json.dumps(data, sort_keys=True, default=str)


# -- held, sealed, before the declaration ------------------------------------------------------
def test_5_3_range_guesses_are_a_held_sealed_choice_asked_before_the_declaration(mgv):
    game = _fire(mgv)
    assert game.decision.kind.value == "sealed"
    assert game.decision.hold
    assert game.waiting_for() == ("blue",)
    assert "before declaring targets (5.3)" in game.decision.prompt
    game.apply("range B1>R1=15.5", "blue")
    assert game.state.step == "declare"
    assert game.waiting_for() == ("blue",)
    assert set(game.held_choices()) == {"blue"}
    assert game.view("blue")["my_held_choice"] == "range B1>R1=15.5"
    red_view = game.view("red")
    assert "my_held_choice" not in red_view and "my_sealed_choice" not in red_view
    assert "15.5" not in _canon(red_view)
    assert "15.5" not in mgv.texts(game)
    assert mgv.last(game, "ranged").text == (
        "blue writes its photon range guesses (sealed until the dice)"
    )


def test_5_3_written_guesses_can_never_be_taken_back(mgv):
    """After the guesses the views show exact positions again: an undo would let a player
    look, then guess again."""
    game = _fire(mgv)
    game.apply("range B1>R1=15.5", "blue")
    with pytest.raises(UndoError):
        game.undo("blue")
    assert game.view("blue")["my_held_choice"] == "range B1>R1=15.5"


def test_5_3_a_bare_range_is_refused_not_taken_as_no_guesses(mgv):
    """Written guesses are final: a lone ``range`` (Enter pressed too soon) is refused,
    so "no guesses" has to be said (``range none``)."""
    game = _fire(mgv)
    for bare in ("range", "range   "):
        with pytest.raises(ActionSyntaxError, match="write it as: range BASE"):
            game.parse(bare)
    assert game.state.step == "range"
    game.apply("range none", "blue")
    assert game.state.step == "declare"


def test_5_3_guesses_are_revealed_when_the_dice_are_rolled(mgv):
    game = _fire(mgv)
    game.apply("range B1>R1=15.5", "blue")
    game.apply("fire B1>R1", "blue")
    assert "guesses" not in mgv.kinds(game)
    game.apply("screen none", "red")
    assert mgv.last(game, "guesses").text == "blue's range guesses revealed: B1 at R1 15.5in"
    assert game.held_choices() == {}
    attack = mgv.last(game, "attack")
    assert attack.data["error"] == round(abs(15.5 - TRUE_RANGE), 4)


def _until_the_dice(mgv, guess: str):
    """Play to red's screening decision with ``guess``; collect what red can learn."""
    game = _fire(mgv)
    seen: list[str] = [_canon(game.view("red"))]
    game.apply(f"range {guess}", "blue")
    declare = game.seat("blue")
    seen += [
        _canon(game.view("red")),
        _canon(game.view(None)),
        repr(list(declare.legal_actions())),
        str(declare.action_odds(FireOrder(((("B1",), "main", "R1"),)))),
    ]
    game.apply("fire B1>R1 B1.secondary>R1", "blue")
    red = game.seat("red")
    seen += [
        _canon(red.view()),
        repr(list(red.legal_actions())),
        str(red.refusal(red.parse("screen R2>2"))),
        _canon([(e.kind, e.text, e.data) for e in red.events]),
        game.digest(),
    ]
    return seen


@pytest.mark.parametrize("guess", ["B1>R1=9", "B1>R1=30.25", "B1>R1=estimate"])
def test_5_3_nothing_the_opponent_sees_before_the_dice_depends_on_the_guess(mgv, guess):
    """Red's views, the events, the legal actions and refusals, the odds and the state's
    digest are the same whatever blue wrote (here against a guess of 15.5)."""
    assert _until_the_dice(mgv, guess) == _until_the_dice(mgv, "B1>R1=15.5")


# -- by eye, all game ---------------------------------------------------------------------------
EYE = {"measuring": "eye"}
SEEN_R = {"R1": (19.0, 11.0), "R2": (19.0, 15.0)}
"""R1 and R2 as blue sees them: the centres of their 2-inch cells (``rules.toml [eye]``)."""


def test_5_3_the_other_sides_bases_are_seen_by_eye_all_game(mgv):
    game = _fire(mgv, options=EYE)
    for when in ("asked", "written"):
        blue = {f["id"]: (f["x"], f["y"]) for f in game.view("blue")["figures"]}
        assert blue == {"B1": BLUE_AT, **SEEN_R}, when  # its own exactly
        red = {f["id"]: (f["x"], f["y"]) for f in game.view("red")["figures"]}
        assert red["B1"] == (5.0, 13.0) and red["R1"] == RED_AT
        spectator = {f["id"]: (f["x"], f["y"]) for f in game.view(None)["figures"]}
        assert spectator == {"B1": (5.0, 13.0), **SEEN_R}
        assert "by eye" in game.view("blue")["eye"]
        if when == "asked":
            assert "no distances" in game.view("blue")["positions"]
            game.apply("range B1>R1=15.5", "blue")
    assert "positions" not in game.view("blue")


@pytest.mark.parametrize("side", ["blue", "red"])
def test_5_3_a_seats_state_holds_the_other_sides_bases_by_eye(mgv, side):
    game = _fire(mgv, options=EYE)
    state = game.seat(side).state
    places = {b.id: (b.geo.x, b.geo.y) for b in state.bases.values()}
    if side == "blue":
        assert places == {"B1": BLUE_AT, **SEEN_R}
    else:
        assert places == {"B1": (5.0, 13.0), "R1": RED_AT, "R2": (19.6, 14.2)}
    assert mgv.at(game, "B1") == BLUE_AT  # the game itself is untouched


def test_5_3_free_measuring_shows_every_base_exactly(mgv):
    game = _fire(mgv)  # the tests' scenarios measure freely unless they say otherwise
    places = {f["id"]: (f["x"], f["y"]) for f in game.view(None)["figures"]}
    assert places == {"B1": BLUE_AT, "R1": RED_AT, "R2": (19.6, 14.2)}
    assert "eye" not in game.view(None)


# -- no distance in odds or refusals -----------------------------------------------------------
def _texts_before_the_dice(mgv, game) -> list[str]:
    out = [game.decision.prompt, *(str(a) for a in game.legal_actions("blue"))]
    tries = [
        "range B1>R1=0",
        "range B1>R1=500",
        "range B1>R1=15.3",
        "range B1.secondary>R1=15",
        "range R1>B1=15",
        "range B1>R1=15 B1>R2=16",
        "range B1>B1=15",
        "range B1=15",
        "fire B1>R1",
        "fire B1>R2",
        "fire B1>B1",
        "fire B1.secondary>R2",
        "fire B1+R1>R2",
        "mark auto",
        "split 1=1/1/1",
        "move B1 5,12",
    ]
    for text in tries:
        try:
            action = game.parse(text)
        except IllegalAction as exc:  # refused as it is written
            out.append(str(exc))
            continue
        out.append(str(game.refusal(action, "blue")))
    return out


def test_5_3_odds_and_refusals_never_name_the_range(mgv):
    game = _fire(mgv)
    texts = _texts_before_the_dice(mgv, game)
    game.apply("range B1>R1=15.5", "blue")
    texts += _texts_before_the_dice(mgv, game)
    seat = game.seat("blue")
    orders: list[Action] = [
        FireOrder(((("B1",), "main", "R1"),)),
        FireOrder(((("B1",), "main", "R2"),)),
        FireOrder(((("B1",), "secondary", "R1"),)),
        FireOrder(((("B1",), "main", "R1"), (("B1",), "secondary", "R2"))),
        *game.legal_actions("blue"),
    ]
    odds = [seat.action_odds(order) for order in orders]
    assert all(odds[:4])
    texts += [str(o) for o in odds]
    texts.append(str(seat.action_odds(Range((("B1", "main", "R1", 15.5),)))))
    leaks = [(t, _leaks(t)) for t in texts if _leaks(t)]
    assert leaks == []
    assert _leaks(f"range {TRUE_RANGE:.2f}in")  # the search itself finds a printed range


# -- the estimate model, blind fire, the disaster ----------------------------------------------
def _model_guess(true_range: float, dice: tuple[int, ...]) -> float:
    index = 0
    for die in dice:
        index = index * 6 + (die - 1)
    u = (index + 0.5) / 6 ** len(dice)
    total = 0.0
    for guess, chance in combat.estimate_distribution(true_range):
        total += chance
        if u <= total:
            return guess
    raise AssertionError("no guess")


@pytest.mark.parametrize("dice", [(4, 1, 1, 1), (1, 1, 1, 1), (6, 6, 6, 6)])
def test_5_3_option_estimate_draws_every_guess_from_the_model(mgv, dice):
    """photon = "estimate": no guess is asked; the model's guess is drawn with 4D6."""
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="photon"),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.start(bases, "blue", "fire", dice, tail=True, options={"photon": "estimate"})
    assert game.state.step == "declare"  # nothing to write
    game.apply("fire B1>R1", "blue")
    roll = next(e for e in mgv.events(game, "roll") if "estimate" in e.data["purpose"])
    assert roll.data["dice"] == dice
    guess = _model_guess(16.0, dice)
    assert mgv.last(game, "estimate").text == f"B1 estimates the range at {guess:g}in"
    assert mgv.last(game, "attack").data["error"] == abs(guess - 16.0)
    if dice == (4, 1, 1, 1):
        assert guess == 16.0  # the middle of the model: the true range


def test_5_3_a_guess_written_as_estimate_is_drawn_from_the_model(mgv):
    game = _fire(mgv, dice=(4, 1, 1, 1))
    game.apply("range B1>R1=estimate", "blue")
    game.apply("fire B1>R1", "blue")
    game.apply("screen none", "red")
    assert mgv.last(game, "guesses").text == "blue's range guesses revealed: B1 at R1 estimate"
    guess = _model_guess(TRUE_RANGE, (4, 1, 1, 1))
    assert mgv.last(game, "estimate").text == f"B1 estimates the range at {guess:g}in"


def test_5_3_a_photon_shot_fires_at_the_target_its_guess_names(mgv):
    """The guess names its target (``range B1>R1=15.5``) and the declaration must keep to
    it: a guess cannot be spent on whichever target fits the number written."""
    game = _fire(mgv)
    game.apply("range B1>R1=15.5", "blue")
    assert mgv.refused(game, "fire B1>R2", "blue") == (
        "B1's range guess is written for R1: it fires at R1 or not at all (5.3)"
    )
    listed = [str(a) for a in game.legal_actions("blue")]
    assert listed and not any("B1>R2" in a for a in listed)
    game.apply("fire B1>R1", "blue")
    assert game.state.fire.attacks[0].target == "R1"


def test_5_3_a_mount_with_no_guess_written_may_not_fire_its_photon(mgv):
    game = _fire(mgv)
    game.apply("range none", "blue")
    assert mgv.refused(game, "fire B1>R1", "blue") == (
        "B1 wrote no range guess: a photon shot needs one, written first (5.3)"
    )
    assert not any("B1>" in str(a) for a in game.legal_actions("blue"))
    game.apply("fire B1.secondary>R1", "blue")  # its kinetic mount still fires


def test_5_3_a_guess_names_its_target_when_it_is_written(mgv):
    game = _fire(mgv)
    with pytest.raises(ActionSyntaxError, match="names no target"):
        game.parse("range B1=15")
    assert mgv.refused(game, "range B1>B1=15", "blue") == "B1 is not an enemy base on the table"


@pytest.mark.parametrize(("guess", "disaster"), [(19.0, True), (18.75, False), (13.0, True)])
def test_5_3_a_guess_3_inches_out_is_the_disaster_feedback_hits_on_the_firer(mgv, guess, disaster):
    """Stand-in: 3" or more out, the beam scores nothing and puts 2 hits on the firer,
    placed by the firer's owner."""
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="photon"),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.start(bases, "blue", "fire", (6, 6), tail=True)
    game.apply(f"range B1>R1={guess}", "blue")
    game.apply("fire B1>R1", "blue")
    attack = mgv.last(game, "attack")
    assert attack.data["hits"] == 0
    assert ("disaster: the beam's feedback hits the firer" in attack.text) is disaster
    if disaster:
        assert game.waiting_for() == ("blue",)
        assert "on B1" in game.decision.prompt and "5.2" in game.decision.prompt
        game.apply("mark auto", "blue")
        assert len(mgv.the(game, "B1").log) == 2
        assert mgv.last(game, "hits").data["base"] == "B1"
    else:  # 2.75" out: -5, an L35's beam (3) does nothing
        assert len(mgv.the(game, "B1").log) == 0
        assert "hits" not in mgv.kinds(game)
