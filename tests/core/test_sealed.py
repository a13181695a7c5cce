"""The core supports sealed simultaneous choices and automatic steps (ARCHITECTURE: Decision).

Proved on the test-only "duel" ruleset (``toy_ruleset.py``): both sides throw
rock, paper or scissors secretly; a tie is broken by a die roll per side.
"""

from __future__ import annotations

import json
from types import ModuleType

import pytest

from warbench.core.decisions import DecisionKind
from warbench.core.dice import ScriptedDice
from warbench.core.game import Game
from warbench.core.saves import load_game, save_game
from warbench.errors import IllegalAction, NotYourDecision, UndoError, WarbenchError

ANN, BOB = "ann", "bob"


def _game(duel: ModuleType, dice: list[int] | None = None, **kw: object) -> Game:
    scripted = ScriptedDice(dice) if dice is not None else None
    return Game(duel.scenario(**kw), seed=5, dice=scripted)


def test_a_duel_starts_with_a_sealed_decision_of_both_sides(duel: ModuleType) -> None:
    game = _game(duel)
    assert game.decision is not None
    assert game.decision.kind is DecisionKind.SEALED
    assert game.decision.sides == (ANN, BOB)
    assert game.waiting_for() == (ANN, BOB)
    assert list(game.legal_actions(ANN)) == [duel.Throw(s) for s in duel.SHAPES]


@pytest.mark.parametrize("shape", ["rock", "paper", "scissors"])
def test_a_sealed_choice_is_hidden_from_the_other_side_and_spectators(
    duel: ModuleType, shape: str
) -> None:
    game = _game(duel)
    bob_before = game.view(BOB)
    events = game.apply(f"throw {shape}", ANN)

    assert events == []
    assert game.events == []
    for viewer in (BOB, None):
        text = json.dumps(game.view(viewer))
        assert shape not in text, f"{viewer}'s view shows ann's secret throw"
    # Bob learns only that ann has chosen: the view differs in waiting_for alone.
    bob_after = game.view(BOB)
    assert bob_after["decision"]["waiting_for"] == [BOB]
    bob_after["decision"]["waiting_for"] = bob_before["decision"]["waiting_for"]
    assert bob_after == bob_before


def test_the_side_that_chose_sees_its_own_sealed_choice(duel: ModuleType) -> None:
    game = _game(duel)
    game.apply("throw paper", ANN)
    assert game.view(ANN)["my_sealed_choice"] == "throw paper"
    assert "my_sealed_choice" not in game.view(BOB)
    assert "my_sealed_choice" not in game.view(None)


def test_after_one_sealed_choice_the_game_waits_for_the_other_side_only(
    duel: ModuleType,
) -> None:
    game = _game(duel)
    game.apply("throw rock", ANN)
    assert game.waiting_for() == (BOB,)
    assert game.legal_actions(ANN) == []
    assert list(game.legal_actions()) == list(game.legal_actions(BOB))
    assert len(game.actions) == 1
    assert game.actions[0].side == ANN
    assert not game.actions[0].rolled


def test_a_second_choice_before_the_other_side_is_refused(duel: ModuleType) -> None:
    game = _game(duel)
    game.apply("throw rock", ANN)
    digest, actions = game.digest(), len(game.actions)
    with pytest.raises(NotYourDecision):
        game.apply("throw paper", ANN)
    assert game.digest() == digest
    assert len(game.actions) == actions
    assert game.view(ANN)["my_sealed_choice"] == "throw rock"


def test_a_sealed_choice_not_offered_is_refused_and_changes_nothing(duel: ModuleType) -> None:
    game = _game(duel)
    with pytest.raises(IllegalAction, match="lizard"):
        game.apply("throw lizard", ANN)
    assert game.waiting_for() == (ANN, BOB)
    assert game.actions == []
    assert "my_sealed_choice" not in game.view(ANN)


def test_a_sealed_choice_needs_a_named_side_while_several_are_asked(duel: ModuleType) -> None:
    game = _game(duel)
    with pytest.raises(NotYourDecision, match="say which side"):
        game.apply("throw rock")
    with pytest.raises(NotYourDecision):
        game.apply("throw rock", "carol")
    assert game.waiting_for() == (ANN, BOB)


def test_once_both_sides_chose_both_choices_are_revealed_together(duel: ModuleType) -> None:
    game = _game(duel)
    game.apply("throw rock", ANN)
    events = game.apply("throw scissors", BOB)

    reveal = events[0]
    assert reveal.kind == "reveal"
    assert reveal.data["choices"] == {ANN: "rock", BOB: "scissors"}
    assert "rock" in reveal.text and "scissors" in reveal.text
    assert [e.kind for e in events] == ["reveal", "point"]
    assert game.events == events
    for viewer in (ANN, BOB, None):
        view = game.view(viewer)
        assert "my_sealed_choice" not in view
        assert view["history"] == [{ANN: "rock", BOB: "scissors"}]
    assert game.waiting_for() == (ANN, BOB)
    assert game.state.points == {ANN: 1, BOB: 0}


def test_a_tie_is_broken_by_an_automatic_roll_without_input(duel: ModuleType) -> None:
    game = _game(duel, dice=[2, 5])
    game.apply("throw paper", ANN)
    events = game.apply("throw paper", BOB)

    assert [e.kind for e in events] == ["reveal", "roll", "roll", "point"]
    rolls = [e for e in events if e.kind == "roll"]
    assert [(e.data["purpose"], e.data["side"], tuple(e.data["dice"])) for e in rolls] == [
        ("tie-break", ANN, (2,)),
        ("tie-break", BOB, (5,)),
    ]
    assert all("tie-break" in e.text for e in rolls)
    assert game.state.points == {ANN: 0, BOB: 1}
    assert game.decision is not None and game.decision.kind is DecisionKind.SEALED
    assert game.actions[-1].rolled


def test_the_engine_keeps_proceeding_while_the_automatic_step_asks_again(
    duel: ModuleType,
) -> None:
    game = _game(duel, dice=[3, 3, 4, 4, 6, 1])
    game.apply("throw rock", ANN)
    events = game.apply("throw rock", BOB)
    kinds = [e.kind for e in events]
    assert kinds == ["reveal", *["roll", "roll", "tie"] * 2, "roll", "roll", "point"]
    assert game.dice.rolled == 6
    assert game.state.points == {ANN: 1, BOB: 0}


def test_the_first_side_to_two_points_wins_and_the_game_asks_nothing_more(
    duel: ModuleType,
) -> None:
    game = _game(duel)
    for _ in range(2):
        game.apply("throw paper", ANN)
        game.apply("throw rock", BOB)
    assert game.is_over
    assert game.decision is None
    assert game.waiting_for() == ()
    assert game.legal_actions(ANN) == [] and game.legal_actions(BOB) == []
    assert game.outcome is not None and game.outcome.winner == ANN
    with pytest.raises(IllegalAction, match="over"):
        game.apply("throw rock", ANN)


def test_sealed_choices_survive_a_record_round_trip(duel: ModuleType, tmp_path) -> None:
    game = _game(duel, points_to_win=3)
    for a, b in [("rock", "rock"), ("paper", "scissors")]:
        game.apply(f"throw {a}", ANN)
        game.apply(f"throw {b}", BOB)
    game.apply("throw rock", ANN)  # still sealed when the record is made
    path = tmp_path / "duel.json"
    save_game(game, path)

    replayed, _ = load_game(path)
    assert replayed.digest() == game.digest()
    assert [str(t.action) for t in replayed.actions] == [str(t.action) for t in game.actions]
    assert [e.text for e in replayed.events] == [e.text for e in game.events]
    assert replayed.waiting_for() == game.waiting_for()


def test_a_pending_sealed_choice_may_be_taken_back_by_its_side(duel: ModuleType) -> None:
    game = _game(duel)
    before = game.view(ANN)
    game.apply("throw rock", ANN)
    taken = game.undo(ANN)
    assert str(taken.action) == "throw rock"
    assert game.waiting_for() == (ANN, BOB)
    assert game.view(ANN) == before
    game.apply("throw paper", ANN)
    assert game.view(ANN)["my_sealed_choice"] == "throw paper"


@pytest.mark.parametrize("seed", range(5))
def test_random_duels_end_with_a_winner_and_reveal_every_throw(duel: ModuleType, seed: int) -> None:
    import random

    pick = random.Random(seed)
    game = Game(duel.scenario(turn_limit=9), seed=seed)
    for _ in range(100):
        if game.is_over:
            break
        for side in game.waiting_for():
            game.apply(pick.choice(list(game.legal_actions(side))), side)
    assert game.is_over
    outcome = game.outcome
    assert outcome is not None and outcome.winner in (ANN, BOB, None)
    reveals = [e for e in game.events if e.kind == "reveal"]
    assert len(reveals) * 2 == len(game.actions)
    rolls = [e for e in game.events if e.kind == "roll"]
    assert sum(len(e.data["dice"]) for e in rolls) == game.dice.rolled


def test_the_side_that_completes_a_round_cannot_undo_it_and_choose_again(
    duel: ModuleType,
) -> None:
    """Issue 8: ann throws rock, bob scissors; bob undoing would let him throw paper."""
    game = _game(duel)
    game.apply("throw rock", ANN)
    game.apply("throw scissors", BOB)
    assert game.actions[-1].revealed and not game.actions[-1].rolled
    before = (game.digest(), len(game.actions), [e.text for e in game.events])
    with pytest.raises(UndoError, match="revealed hidden information"):
        game.undo(BOB)
    with pytest.raises(UndoError, match="only bob may take it back"):
        game.undo(ANN)
    assert (game.digest(), len(game.actions), [e.text for e in game.events]) == before
    assert game.state.points == {ANN: 1, BOB: 0}


def test_a_pending_sealed_choice_is_withdrawn_by_its_own_side_only(duel: ModuleType) -> None:
    game = _game(duel)
    game.apply("throw rock", ANN)
    with pytest.raises(UndoError) as caught:
        game.undo(BOB)
    assert "rock" not in str(caught.value)
    assert game.view(ANN)["my_sealed_choice"] == "throw rock"
    taken = game.undo(ANN)
    assert taken.sealed and str(taken.action) == "throw rock"
    assert game.actions == [] and game.waiting_for() == (ANN, BOB)


def test_an_odd_side_name_is_quoted_only_as_an_excerpt(duel: ModuleType) -> None:
    game = _game(duel)
    odd = chr(27) + "[2J" + "z" * 5000
    with pytest.raises(NotYourDecision) as caught:
        game.apply("throw rock", odd)
    assert len(str(caught.value)) < 300 and chr(27) not in str(caught.value)
    reason = game.refusal(duel.Throw("rock"), odd)
    assert reason is not None and len(reason) < 300 and chr(27) not in reason
    with pytest.raises(WarbenchError) as seat:
        game.seat(odd)
    assert len(str(seat.value)) < 300


def test_a_round_that_reveals_holds_nothing(duel: ModuleType) -> None:
    """Only a round with ``hold`` keeps choices: a plain one reveals them all at once."""
    game = _game(duel)
    game.apply("throw rock", ANN)
    assert game.decision is not None and not game.decision.hold
    assert game.held_choices() == {}
    assert game.unrevealed() == {0: game.actions[0]}
    assert "my_held_choice" not in game.view(ANN)
    game.apply("throw paper", BOB)
    assert game.held_choices() == {} and game.unrevealed() == {} and game.pending_sealed() == {}


def test_the_open_rounds_choices_are_the_last_actions_after_a_withdrawal(
    duel: ModuleType,
) -> None:
    game = _game(duel, points_to_win=3)
    game.apply("throw rock", ANN)
    game.apply("throw scissors", BOB)
    game.apply("throw paper", BOB)
    assert list(game.unrevealed()) == [2]
    game.undo(BOB)
    game.apply("throw rock", ANN)
    assert list(game.unrevealed()) == [2] and game.pending_sealed()[ANN] is game.actions[2]
