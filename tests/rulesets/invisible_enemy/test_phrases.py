"""Invisible Enemy table phrases, reasons and measuring (issue 12), and the by-hand secret.

3.0: barrage markers go down by hand, with no pre-measuring of the table. While a side
sets markers down no phrase is read and nothing is measured, in the same words
whatever is named and wherever the bases stand exactly; at every other moment a
player measures centre to centre (5.0) with the 1.5 weapon blocks. Invisible Enemy
has no attack in base contact, so ``charge`` is refused saying so. Phrases on the
built-in scenarios: ``tests/rulesets/test_table_phrases.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from warbench.errors import IllegalAction, QuestionRefused

BLUE_AT = (4.3, 12.6)
RED_AT = (19.6, 11.2)


def _units(ie: Any, red_at=RED_AT) -> list[Any]:
    return [
        ie.unit("blue", "U1", ie.base("B1", "L35", BLUE_AT, 0), ie.base("B2", "L35", (4.3, 14), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", red_at, 180)),
    ]


def _placing(ie: Any, red_at=RED_AT) -> Any:
    """Blue holds a Type 2 marker (1 die, a 6) and is asked to set it down in phase 2."""
    game = ie.new_game(_units(ie, red_at), [1, 6, 1, 1])
    assert game.state.step == "mark1"
    return game


def _moving(ie: Any) -> Any:
    """Blue's marker M1 lies on B1; blue won the initiative and U1 passed its Control roll."""
    game = _placing(ie)
    ie.act(game, "blue", "barrage 4.3,12.6 type2", *ie.WIN["blue"])
    ie.act(game, "blue", "unit U1", 2)
    assert game.state.step == "unit"
    return game


def _refusal(game: Any, text: str) -> str:
    with pytest.raises(IllegalAction) as refused:
        game.ruleset.parse_action(game.state, text)
    return refused.value.reason


def _measured(game: Any, side: str, a: str, b: str) -> str:
    state = game.ruleset.side_state(game.state, side) or game.state
    try:
        return game.ruleset.measure(state, side, a, b)
    except QuestionRefused as exc:
        return f"refused: {exc}"


PHRASES = [
    "move B1 toward R1 2",
    "move B1 toward R1",
    "face B1 R1",
    "move B1 toward Q9",
    "move Q8 to Q9",
    "charge B1 R1",
]


def test_3_0_no_phrase_is_read_and_nothing_measured_while_markers_go_down(ie: Any) -> None:
    game = _placing(ie)
    assert {_refusal(game, text) for text in PHRASES} == {
        "no table phrases while barrage markers go down by hand: 3.0 forbids measuring "
        "the table then, and a phrase would measure for you"
    }
    for side in ("blue", "red"):
        for a, b in (("B1", "R1"), ("B1", "Q9"), ("R1", "10,10")):
            assert _measured(game, side, a, b) == (
                "refused: no measuring while barrage markers go down: 3.0 has them placed "
                "by hand, with no pre-measuring of the table"
            )


def test_3_0_the_words_while_placing_do_not_depend_on_the_exact_places(ie: Any) -> None:
    """Two tables the same to the whole inch (R1 at 19.6,11.2 or 20.3,10.8) give the same
    refusals, measures and candidate reasons while markers go down."""

    def answers(red_at: tuple[float, float]) -> list[str]:
        game = _placing(ie, red_at)
        said = [_refusal(game, text) for text in PHRASES]
        said += [_measured(game, s, "B1", "R1") for s in ("blue", "red")]
        state = game.ruleset.side_state(game.state, "blue")
        for action in game.ruleset.legal_actions(state, "blue")[:20]:
            said.append(str(game.ruleset.action_reason(state, "blue", action)))
        return said

    assert answers(RED_AT) == answers((20.3, 10.8))


def test_phrases_in_the_activation_become_raw_moves(ie: Any) -> None:
    game = _moving(ie)
    action = game.ruleset.parse_action(game.state, "move B1 toward R1 3")
    assert str(action) == "move B1 7.28,12.33"  # 3" along, snapped short
    assert game.ruleset.parse_action(game.state, str(action)) == action
    assert str(game.ruleset.parse_action(game.state, "face B1 R1")) == "move B1 face 354.77"
    assert _refusal(game, "move R1 toward B1 2") == "R1 is not of the side moving now (blue)"
    assert _refusal(game, "charge B1 R1") == (
        "Invisible Enemy has no attack in base contact: direct fire is at range (5.0); "
        "to close in, write: move B1 toward R1 [INCHES]"
    )
    assert _refusal(game, "move B1 toward Q9") == "there is no base, feature or marker 'Q9'"


def test_a_move_out_of_a_markers_radius_is_out_of_the_barrage(ie: Any) -> None:
    game = _moving(ie)

    def reason(text: str) -> str | None:
        action = game.ruleset.parse_action(game.state, text)
        return game.ruleset.action_reason(game.state, "blue", action)

    assert reason("move B1 toward R1 4") == "out of the barrage"
    assert reason("move B1 toward R1 1") == "toward R1"
    assert reason("face B1 R1") == "face R1"


def test_measure_centre_to_centre_with_markers_range_and_arc(ie: Any) -> None:
    game = _moving(ie)
    marker = game.state.markers[0].id
    text = _measured(game, "blue", "B1", marker)
    assert text.splitlines()[0] == f'B1 to {marker}: 0.00" centre to centre'
    text = _measured(game, "blue", "B1", "R1")
    assert text.splitlines()[0] == 'B1 to R1: 15.36" centre to centre'
    assert "line B1 to R1: clear of terrain blocks (1.5)" in text
    assert "R1 is beyond the" in text and "range of B1" in text


def test_a_candidate_barrage_is_said_to_be_at_the_enemy_base_nearest_its_point(ie: Any) -> None:
    from warbench.rulesets.invisible_enemy.actions import Barrage

    game = _placing(ie)
    known = game.ruleset.side_state(game.state, "blue")
    assert game.ruleset.action_reason(known, "blue", Barrage((19.0, 12.0), type2=True)) == "at R1"
