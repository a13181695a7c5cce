"""MGV table phrases, reasons and measuring (issue 12), and what they must never give away.

5.3: a photon shot stands on the player's own estimate of the range, which may not
be pre-measured. So while guesses are written no phrase is read and nothing is
measured (the words are the same whatever is named and wherever the bases stand
exactly), and at any moment the distance from a side's photon base to an enemy
base is refused. MGV has no attack in base contact, so ``charge`` is refused saying
so. Phrases on the built-in scenarios: ``tests/rulesets/test_table_phrases.py``.
"""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction, QuestionRefused
from warbench.rulesets.mgv.actions import FireOrder

BLUE_AT = (4.3, 12.6)
RED_AT = (19.6, 11.2)


def _table(mgv, red_at=RED_AT):
    """B1: photon main mount, kinetic secondary; R1 in its arc; R2 a red missile mount."""
    return [
        mgv.base("blue", "B1", "L63", BLUE_AT, 0, main="photon", secondary="kinetic"),
        mgv.base("red", "R1", "L35", red_at, 180),
        mgv.base("red", "R2", "L35", (19.6, 14.2), 180, main="missile"),
    ]


def _refusal(game, text):
    with pytest.raises(IllegalAction) as refused:
        game.ruleset.parse_action(game.state, text)
    return refused.value.reason


def _measured(game, side, a, b):
    state = game.ruleset.side_state(game.state, side) or game.state
    try:
        return game.ruleset.measure(state, side, a, b)
    except QuestionRefused as exc:
        return f"refused: {exc}"


PHRASES = [
    "move B1 toward R1 2",
    "move B1 toward R1",
    "face B1 R1",
    "move B1 to nowhere",
    "move B1 toward Q9",
    "face Q8 Q9",
    "charge B1 R1",
]


def test_5_3_no_phrase_is_read_while_guesses_are_written_whatever_it_names(mgv):
    game = mgv.start(_table(mgv), "blue", "fire", tail=True)
    assert game.state.step == "range"
    reasons = {_refusal(game, text) for text in PHRASES}
    assert reasons == {
        "no table phrases while photon range guesses are written: 5.3 forbids measuring "
        "the range, and a phrase would measure for you"
    }


def test_5_3_nothing_is_measured_while_guesses_are_written(mgv):
    game = mgv.start(_table(mgv), "blue", "fire", tail=True)
    for side in ("blue", "red"):
        for a, b in (("B1", "R1"), ("R1", "R2"), ("B1", "Q9"), ("B1", "10,10")):
            assert _measured(game, side, a, b) == (
                "refused: no measuring while photon range guesses are written: 5.3 has the "
                "player estimate the range on the spot, with no tape"
            )


def test_5_3_refusals_and_reasons_do_not_depend_on_the_exact_places(mgv):
    """Two tables that show the same to the whole inch (R1 at 19.6,11.2 or 20.4,10.6)
    give the same words to every phrase, measure and reason while the guess is asked."""

    def answers(red_at):
        game = mgv.start(_table(mgv, red_at), "blue", "fire", tail=True)
        said = [_refusal(game, text) for text in PHRASES]
        said += [_measured(game, s, "B1", "R1") for s in ("blue", "red")]
        state = game.ruleset.side_state(game.state, "blue")
        for action in game.ruleset.legal_actions(state, "blue")[:20]:
            said.append(str(game.ruleset.action_reason(state, "blue", action)))
        return said

    assert answers(RED_AT) == answers((20.4, 10.6))


def test_5_3_a_photon_base_may_not_measure_to_an_enemy_base(mgv):
    game = mgv.start(_table(mgv), "blue", "move")
    said = _measured(game, "blue", "B1", "R1")
    assert said == (
        "refused: B1 carries a photon weapon and R1 is an enemy base: 5.3 forbids "
        "pre-measuring the range a photon shot must estimate"
    )
    assert _measured(game, "blue", "R2", "B1").startswith("refused: B1 carries a photon")
    # red has no photon weapon: it measures; blue measures to its own and to points
    assert _measured(game, "red", "R1", "B1").startswith('R1 to B1: 15.36" centre post')
    assert _measured(game, "blue", "B1", "4.3,2.6").startswith('B1 to 4.3,2.6: 10.00"')


def test_5_3_a_base_with_a_weapon_still_to_choose_counts_as_a_photon_one(mgv):
    bases = [
        mgv.base("blue", "B1", "L63", (4, 12), 0, main=None, open_mounts=True),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.new_game(bases, dice=[6, 1])
    assert "B1 may yet be armed with a photon weapon" in _measured(game, "blue", "B1", "R1")


def test_1_5_a_sealed_weapon_choice_changes_nothing_the_other_side_is_told(mgv):
    def told(choice):
        bases = [
            mgv.base("blue", "B1", "L63", (4, 12), 0, main=None, open_mounts=True),
            mgv.base("red", "R1", "L35", (20, 12), 180, main=None, open_mounts=True),
        ]
        game = mgv.new_game(bases, dice=[6, 1])
        game.apply(f"arm B1={choice} B1.secondary={choice}", "blue")
        assert game.waiting_for() == ("red",)
        out = [_measured(game, "red", "R1", "B1"), _measured(game, "red", "B1", "20,2")]
        out += [_refusal(game, "charge R1 B1"), _refusal(game, "move R1 toward Q1 2")]
        return out

    assert told("photon") == told("kinetic") == told("missile")


# -- phrases in the movement phase ------------------------------------------------------------


def test_phrases_become_raw_moves_checked_by_the_movement_rules(mgv):
    table = [*_table(mgv), mgv.base("blue", "B2", "L35", (4, 4), 0)]
    game = mgv.start(table, "blue", "move")
    face = game.ruleset.parse_action(game.state, "face B1 R1")
    assert str(face) == "move B1 face 354.77"
    toward = game.ruleset.parse_action(game.state, "move B1 toward R1 3")
    assert game.ruleset.parse_action(game.state, str(toward)) == toward
    game.apply(str(toward), "blue")
    assert mgv.at(game, "B1") == toward.path[0]
    with pytest.raises(IllegalAction, match="B1 has already moved this phase"):
        game.ruleset.parse_action(game.state, "move B1 toward R1 1")


def test_charge_is_refused_mgv_has_no_attack_in_base_contact(mgv):
    game = mgv.start(_table(mgv), "blue", "move")
    assert _refusal(game, "charge B1 R1") == (
        "MGV has no attack in base contact: every attack is fire at range (5.0); "
        "to close in, write: move B1 toward R1 [INCHES]"
    )
    assert _refusal(game, "charge B1 Q9").startswith("MGV has no attack in base contact")


def test_reasons_of_moves_and_fire(mgv):
    rock = mgv.box("rock1", "rock", 10, 14, 12, 20)
    game = mgv.start(_table(mgv), "blue", "move", features=[rock])

    def reason(text):
        action = game.ruleset.parse_action(game.state, text)
        return game.ruleset.action_reason(game.state, "blue", action)

    assert reason("move B1 toward R1 3") == "toward R1"
    assert reason("move B1 5.5,17") == "out of sight"  # behind the rock from both
    assert reason("face B1 R1") == "face R1"
    fire = FireOrder(((("B1",), "main", "R1"), (("B1",), "secondary", "R2")))
    assert game.ruleset.action_reason(game.state, "blue", fire) == "fire at R1, R2"


def test_measure_to_a_feature_and_sight_from_the_centre_post(mgv):
    rock = mgv.box("rock1", "rock", 10, 8, 12, 20)
    game = mgv.start(_table(mgv), "blue", "move", features=[rock])
    text = _measured(game, "red", "R1", "B1")
    assert "line of sight R1 to B1 (from the centre post): blocked by rock1" in text
    text = _measured(game, "blue", "B1", "rock1")
    assert (
        text.splitlines()[0]
        == 'B1 to rock1 (rock or gravel): 5.70" centre post to nearest part (5.0)'
    )
