"""The Game: starting, asking, acting atomically, undo, digests (ARCHITECTURE: core rules)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from warbench.core.decisions import DecisionKind
from warbench.core.dice import DiceExhausted, ScriptedDice
from warbench.core.game import Game, TakenAction, state_digest
from warbench.core.loader import builtin_scenarios, load_scenario, scenario_from_dict
from warbench.errors import IllegalAction, NotYourDecision, UndoError

DANVILLE = "miniwars/danville"


def _snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.digest(),
        len(game.events),
        len(game.actions),
        game.dice.rolled,
        game.waiting_for(),
        game.decision,
    )


def _acting(game: Game) -> str:
    (side,) = game.waiting_for()
    return side


def _play_until_roll(game: Game, limit: int = 500) -> TakenAction:
    """Take the first legal action (passing on and on) until one rolls a die."""
    for _ in range(limit):
        side = _acting(game)
        legal = list(game.legal_actions(side))
        # Prefer an attack or a fire: they roll; otherwise the first option.
        pick = next((a for a in legal if str(a).split()[0] in ("fire", "attack")), legal[0])
        game.apply(pick, side)
        if game.actions[-1].rolled:
            return game.actions[-1]
    raise AssertionError("no action rolled a die")


# -- starting -----------------------------------------------------------------------------


def test_a_game_starts_from_a_builtin_id_a_scenario_or_a_file(tmp_path: Path) -> None:
    by_id = Game.start(DANVILLE, seed=4)
    by_scenario = Game.start(load_scenario(DANVILLE), seed=4)
    path = tmp_path / "copy.toml"
    path.write_text(builtin_scenarios()[DANVILLE].read_text("utf-8"), "utf-8")
    by_file = Game.start(str(path), seed=4)
    assert by_id.digest() == by_scenario.digest() == by_file.digest()
    assert by_file.scenario.id == "copy"


def test_a_new_game_has_already_taken_its_automatic_steps() -> None:
    game = Game.start(DANVILLE, seed=1)
    assert game.decision is not None
    assert game.decision.kind is DecisionKind.CHOOSE
    rolls = [e for e in game.events if e.kind == "roll"]
    assert rolls and all(e.data["purpose"] == "initiative" for e in rolls)
    assert game.dice.rolled == len(rolls)
    assert game.actions == []
    assert game.turn == 1


def test_the_game_asks_one_side_and_offers_the_others_nothing() -> None:
    game = Game.start(DANVILLE, seed=1)
    (side,) = game.waiting_for()
    other = next(s for s in game.scenario.sides if s != side)
    assert list(game.legal_actions()) == list(game.legal_actions(side))
    assert game.legal_actions(other) == []
    assert game.legal_actions("nobody") == []


def test_the_view_carries_the_decision() -> None:
    game = Game.start(DANVILLE, seed=1)
    decision = game.view(None)["decision"]
    assert decision == {
        "kind": "choose",
        "sides": list(game.decision.sides),
        "waiting_for": list(game.waiting_for()),
        "prompt": game.decision.prompt,
    }
    json.dumps(game.view(None))


# -- acting -------------------------------------------------------------------------------


def test_an_action_may_be_given_as_text_and_is_logged_with_its_side() -> None:
    game = Game.start(DANVILLE, seed=1)
    side = _acting(game)
    events_before = len(game.events)
    events = game.apply("  choose A  ")
    assert game.actions == [TakenAction(side, game.parse("choose A"), False)]
    assert game.events[events_before:] == events
    assert game.state.roles["A"] == side


def test_an_action_by_a_side_not_asked_is_refused_without_change() -> None:
    game = Game.start(DANVILLE, seed=1)
    side = _acting(game)
    other = next(s for s in game.scenario.sides if s != side)
    before = _snapshot(game)
    with pytest.raises(NotYourDecision, match=f"{other} is not asked"):
        game.apply("choose A", other)
    assert _snapshot(game) == before


def test_an_unparseable_action_is_refused_without_change() -> None:
    game = Game.start(DANVILLE, seed=1)
    before = _snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply("dance wildly")
    assert _snapshot(game) == before


def test_a_finished_game_refuses_every_action(duel: ModuleType) -> None:
    game = Game(duel.scenario(points_to_win=1), seed=0)
    game.apply("throw rock", "ann")
    game.apply("throw scissors", "bob")
    assert game.is_over
    before = _snapshot(game)
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply("throw rock", "ann")
    assert _snapshot(game) == before


@pytest.mark.parametrize(("shape", "error"), [("scissors", IllegalAction), ("paper", RuntimeError)])
def test_a_ruleset_that_breaks_the_contract_leaves_the_game_as_it_was(
    duel: ModuleType, shape: str, error: type[Exception]
) -> None:
    """The engine's safety net: a refusal after rolling, or a crash, is rebuilt away."""
    game = Game(duel.scenario(faulty=True), seed=2)
    game.apply("throw rock", "ann")
    game.apply("throw scissors", "bob")
    game.apply(f"throw {shape}", "ann")
    before = _snapshot(game)
    with pytest.raises(error):
        game.apply(f"throw {shape}", "bob")
    assert _snapshot(game) == before
    assert game.view("ann")["my_sealed_choice"] == f"throw {shape}"
    game.apply("throw rock", "bob")  # the game goes on from where it was
    assert game.state.throws == 2


def test_a_crash_in_the_automatic_steps_after_an_action_leaves_the_game_as_it_was(
    duel: ModuleType,
) -> None:
    game = Game(duel.scenario(faulty=True), seed=2)
    game.apply("throw rock", "ann")
    before = _snapshot(game)
    with pytest.raises(RuntimeError, match="automatic step"):
        game.apply("throw rock", "bob")  # a tie: the automatic tie-break crashes
    assert _snapshot(game) == before
    assert game.state.history == []


def _miniwars_duel(dice: list[int]) -> Game:
    """Red guardsmen G1 at 0505 face blue mercenaries W1 at 0506; red wins initiative."""
    raw = {
        "ruleset": "miniwars",
        "title": "two units",
        "map": {"columns": 10, "rows": 10},
        "sides": [{"name": "red"}, {"name": "blue"}],
        "forces": {
            "red": [{"id": "G1", "type": "guardsmen", "at": "0505"}],
            "blue": [{"id": "W1", "type": "mercenaries", "at": "0506"}],
        },
    }
    game = Game(scenario_from_dict(raw, "test", "test"), seed=0, dice=ScriptedDice(dice))
    game.apply("choose A", "red")
    return game


def test_scripted_dice_running_out_mid_action_raise_dice_exhausted() -> None:
    game = _miniwars_duel([6, 1])
    assert "fire G1 W1" in [str(a) for a in game.legal_actions("red")]
    with pytest.raises(DiceExhausted):
        game.apply("fire G1 W1", "red")


def test_scripted_dice_feed_the_rolls_of_an_action() -> None:
    game = _miniwars_duel([6, 1, 6])
    events = game.apply("fire G1 W1", "red")
    rolls = [e for e in events if e.kind == "roll"]
    assert [tuple(e.data["dice"]) for e in rolls] == [(6,)]
    assert rolls[0].data["purpose"].startswith("missile fire G1 at W1")
    assert rolls[0].data["side"] == "red"
    assert game.actions[-1].rolled


# -- undo ---------------------------------------------------------------------------------


def test_undo_of_an_action_that_rolled_nothing_restores_the_earlier_game() -> None:
    game = Game.start(DANVILLE, seed=1)
    side = _acting(game)
    before = _snapshot(game)
    view = game.view(side)
    game.apply("choose B", side)
    assert not game.actions[-1].rolled
    taken = game.undo(side)
    assert str(taken.action) == "choose B" and taken.side == side
    assert _snapshot(game) == before
    assert game.view(side) == view


def test_undo_steps_back_through_several_actions_of_the_same_side() -> None:
    game = Game.start(DANVILLE, seed=1)
    game.apply("choose B")
    side = _acting(game)
    digests = []
    for _ in range(3):
        if _acting(game) != side:
            break
        digests.append(game.digest())
        legal = game.legal_actions(side)
        game.apply(legal[0], side)
        assert not game.actions[-1].rolled
    for digest in reversed(digests):
        game.undo(side)
        assert game.digest() == digest


def test_undo_is_refused_for_the_other_sides_action() -> None:
    game = Game.start(DANVILLE, seed=1)
    side = _acting(game)
    other = next(s for s in game.scenario.sides if s != side)
    game.apply("choose A", side)
    before = _snapshot(game)
    with pytest.raises(UndoError, match=f"{side}'s; only {side} may take it back"):
        game.undo(other)
    assert _snapshot(game) == before


def test_undo_is_refused_once_dice_were_rolled_since(duel: ModuleType) -> None:
    game = Game(duel.scenario(), seed=0)
    game.apply("throw rock", "ann")
    game.apply("throw rock", "bob")  # a tie: the tie-break rolls
    assert game.actions[-1].rolled
    before = _snapshot(game)
    with pytest.raises(UndoError, match="revealed hidden information"):
        game.undo("bob")
    with pytest.raises(UndoError):
        game.undo("ann")
    assert _snapshot(game) == before


def test_undo_is_refused_after_a_miniwars_action_that_rolled() -> None:
    game = Game.start(DANVILLE, seed=1)
    taken = _play_until_roll(game)
    before = _snapshot(game)
    with pytest.raises(UndoError, match="dice were rolled"):
        game.undo(taken.side)
    assert _snapshot(game) == before


def test_undo_with_nothing_to_undo_is_refused() -> None:
    game = Game.start(DANVILLE, seed=1)
    with pytest.raises(UndoError, match="nothing to undo"):
        game.undo(_acting(game))


def test_a_game_on_scripted_dice_is_rebuilt_from_its_script_for_an_undo(
    duel: ModuleType,
) -> None:
    game = Game(duel.scenario(), seed=0, dice=ScriptedDice([]))
    game.apply("throw rock", "ann")
    game.undo("ann")
    assert game.waiting_for() == ("ann", "bob")
    assert game.actions == []


# -- digests ------------------------------------------------------------------------------


def test_the_state_digest_is_canonical_json() -> None:
    assert state_digest({"a": 1, "b": [1, 2]}) == state_digest({"b": [1, 2], "a": 1})
    assert state_digest({"a": 1}) != state_digest({"a": 2})
    assert len(state_digest({})) == 64


def test_two_games_of_the_same_scenario_and_seed_start_alike_and_others_differ() -> None:
    assert Game.start(DANVILLE, seed=9).digest() == Game.start(DANVILLE, seed=9).digest()
    starts = {Game.start(DANVILLE, seed=s).digest() for s in range(8)}
    assert len(starts) > 1, "the seed makes no difference to the first initiative"


def test_refusal_says_why_without_changing_the_game() -> None:
    """Game.refusal tries an action on a copy: the reason, or None if it would be taken."""
    game = Game.start("miniwars/danville", seed=3)
    side = game.waiting_for()[0]
    before = (game.digest(), len(game.events), game.dice.rolled)
    assert game.refusal(game.legal_actions(side)[0], side) is None
    reason = game.refusal(game.parse("end"), side)
    assert reason is not None and "choose" in reason
    assert (game.digest(), len(game.events), game.dice.rolled) == before
