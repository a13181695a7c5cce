"""Conformance tests run over every registered ruleset and each of its built-in scenarios.

In the spirit of OpenSpiel's ``random_sim_test`` and pgx's ``api_test``: random
playouts that check the engine's invariants at every step, determinism, record
round trips, atomic refusal of illegal actions, and views that hide nothing they
should not. A new ruleset (with its scenarios) gets all of them for free.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from warbench.bots import make_bot
from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.decisions import DecisionKind
from warbench.core.dice import Dice
from warbench.core.game import Game, Resolution
from warbench.core.loader import builtin_scenarios, load_scenario, scenario_from_dict
from warbench.core.odds import OddsQuery
from warbench.core.replay import replay_record
from warbench.core.ruleset import Ruleset
from warbench.core.saves import load_game, read_record, save_game, write_record
from warbench.errors import IllegalAction, NotYourDecision, RecordError
from warbench.scenario.model import Scenario

RULESETS = [r.info.name for r in registry.all_rulesets()]
SCENARIOS = sorted(builtin_scenarios())
SEEDS = (0, 1, 2, 3)
PARSE_SAMPLE = 12
"""Legal actions whose text form is parsed back at each step."""
MAX_STEPS = 20_000
"""Far more actions than any built-in scenario takes: beyond it the game never ends."""


def _ruleset_of(scenario_id: str) -> str:
    return scenario_id.partition("/")[0]


def _scenario_params() -> list[Any]:
    return [pytest.param(sid, id=sid) for sid in SCENARIOS]


def _scenario_seed_params(seeds: tuple[int, ...] = SEEDS) -> list[Any]:
    return [pytest.param(sid, seed, id=f"{sid}-seed{seed}") for sid in SCENARIOS for seed in seeds]


@dataclass
class Step:
    """One action of a playout, with what the game looked like just after it."""

    side: str
    action: Action
    waiting_before: tuple[str, ...]
    digest_after: str
    events_after: int


@dataclass
class Playout:
    game: Game
    steps: list[Step] = field(default_factory=list)


def _play(
    scenario: Scenario, seed: int, stop_after: int | None = None, bot: str = "random"
) -> Iterator[Game]:
    """Play ``scenario`` with seeded bots, yielding the game before every action."""
    game = Game(scenario, seed)
    bots = {side: make_bot(bot, seed * 100 + i) for i, side in enumerate(scenario.sides)}
    for n in range(MAX_STEPS):
        if game.is_over or (stop_after is not None and n >= stop_after):
            yield game
            return
        yield game
        side = game.waiting_for()[0]
        game.apply(bots[side].choose(game, side), side)
    raise AssertionError(f"{scenario.id} (seed {seed}) did not end within {MAX_STEPS} actions")


def _playout(scenario: Scenario, seed: int, stop_after: int | None = None) -> Playout:
    """A played game with each action, the sides asked before it and the digest after it."""
    game = Game(scenario, seed)
    bots = {side: make_bot("random", seed * 100 + i) for i, side in enumerate(scenario.sides)}
    result = Playout(game)
    for _ in range(MAX_STEPS):
        if game.is_over or (stop_after is not None and len(result.steps) >= stop_after):
            return result
        waiting = game.waiting_for()
        side = waiting[0]
        action = bots[side].choose(game, side)
        game.apply(action, side)
        result.steps.append(Step(side, action, waiting, game.digest(), len(game.events)))
    raise AssertionError(f"{scenario.id} (seed {seed}) did not end within {MAX_STEPS} actions")


def _without_viewer(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "viewer"}


def _roll_dice_logged(game: Game) -> int:
    return sum(len(e.data["dice"]) for e in game.events if e.kind == "roll")


# -- the ruleset itself ------------------------------------------------------------------


@pytest.mark.parametrize("name", RULESETS)
def test_ruleset_is_found_by_its_name_and_every_alias(name: str) -> None:
    ruleset = registry.get(name)
    info = ruleset.info
    assert info.name == name
    for alias in (info.name, *info.aliases):
        assert registry.get(alias) is ruleset
        assert registry.get(alias.upper()) is ruleset
    assert isinstance(info.version, str) and info.version
    assert info.geometry in ("hex", "table")
    assert info.min_sides >= 1
    assert info.max_sides is None or info.max_sides >= info.min_sides


@pytest.mark.parametrize("name", RULESETS)
def test_every_odds_query_gives_probabilities_summing_to_one_with_its_defaults(
    name: str, check_odds_queries: Callable[[Mapping[str, OddsQuery]], None]
) -> None:
    check_odds_queries(registry.get(name).odds_queries())


@pytest.mark.parametrize("scenario_id", _scenario_params())
def test_builtin_scenario_belongs_to_its_ruleset_and_fits_its_side_count(
    scenario_id: str,
) -> None:
    scenario = load_scenario(scenario_id)
    ruleset = registry.get(scenario.ruleset)
    assert ruleset.info.name == _ruleset_of(scenario_id)
    assert scenario.id == scenario_id
    assert len(set(scenario.sides)) == len(scenario.sides)
    assert ruleset.info.min_sides <= len(scenario.sides)
    assert ruleset.info.max_sides is None or len(scenario.sides) <= ruleset.info.max_sides
    assert scenario.turn_limit is None or scenario.turn_limit >= 1
    json.dumps(scenario.raw)  # a record carries it whole
    again = scenario_from_dict(scenario.raw, "again", scenario_id)
    assert again.sides == scenario.sides
    assert again.turn_limit == scenario.turn_limit


# -- random playouts ---------------------------------------------------------------------


def _check_step(game: Game, scenario: Scenario, rng: random.Random) -> None:
    """The invariants that hold before every action of a game in progress."""
    sides = scenario.sides
    ruleset: Ruleset[Any] = game.ruleset
    decision = game.decision
    assert decision is not None and not game.is_over
    assert game.outcome is None
    assert decision.kind is not DecisionKind.AUTO, "the engine stopped at an automatic step"
    assert decision.sides and set(decision.sides) <= set(sides)
    if decision.kind is DecisionKind.SEALED:
        assert ruleset.info.simultaneous_choices
    else:
        assert len(decision.sides) == 1
    waiting = game.waiting_for()
    assert waiting and set(waiting) <= set(decision.sides)
    for side in sides:
        legal = game.legal_actions(side)
        if side not in waiting:
            assert list(legal) == []
            continue
        assert len(legal) > 0, f"{side} is asked but has no legal action"
        for i in rng.sample(range(len(legal)), min(PARSE_SAMPLE, len(legal))):
            action = legal[i]
            assert game.parse(str(action)) == action, f"'{action}' does not parse back"
            assert action in legal
    for viewer in (None, *sides):
        view = game.view(viewer)
        json.dumps(view)
        assert view["decision"]["waiting_for"] == list(waiting)
    json.dumps(ruleset.state_json(game.state))


def _check_finished(game: Game, scenario: Scenario) -> None:
    assert game.is_over
    assert game.decision is None
    assert game.waiting_for() == ()
    for side in scenario.sides:
        assert list(game.legal_actions(side)) == []
    outcome = game.outcome
    assert outcome is not None
    assert outcome.winner is None or outcome.winner in scenario.sides
    assert outcome.reason
    json.dumps(outcome.to_json())
    for viewer in (None, *scenario.sides):
        view = game.view(viewer)
        json.dumps(view)
        assert view["decision"] is None


@pytest.mark.parametrize(("scenario_id", "seed"), _scenario_seed_params())
def test_random_playout_ends_and_keeps_the_invariants_at_every_step(
    scenario_id: str, seed: int
) -> None:
    scenario = load_scenario(scenario_id)
    rng = random.Random(seed)
    last_turn = 0
    seen_events = 0
    for game in _play(scenario, seed):
        turn = game.turn
        assert turn >= max(last_turn, 1), f"turn went from {last_turn} to {turn}"
        assert scenario.turn_limit is None or turn <= scenario.turn_limit
        last_turn = turn
        new_events = game.events[seen_events:]
        seen_events = len(game.events)
        json.dumps([e.to_json() for e in new_events])
        for event in new_events:
            if event.kind == "roll":
                assert isinstance(event.data["purpose"], str) and event.data["purpose"]
                assert all(1 <= d <= 6 for d in event.data["dice"])
        assert _roll_dice_logged(game) == game.dice.rolled, "a die was rolled without an event"
        if not game.is_over:
            _check_step(game, scenario, rng)
    _check_finished(game, scenario)


@pytest.mark.parametrize(("scenario_id", "seed"), _scenario_seed_params()[::2])
def test_reading_a_game_does_not_change_it(scenario_id: str, seed: int) -> None:
    """Views, legal actions, copies and evaluation are reads: the digest stays put."""
    scenario = load_scenario(scenario_id)
    for n, game in enumerate(_play(scenario, seed)):
        if game.is_over or n % 7:
            continue
        ruleset = game.ruleset
        digest = game.digest()
        side = game.waiting_for()[0]
        legal = game.legal_actions(side)
        copy = ruleset.copy_state(game.state)
        assert ruleset.state_json(copy) == ruleset.state_json(game.state)
        try:
            scores = ruleset.evaluate(game.state, side, legal)
        except NotImplementedError:
            scores = [0.0] * len(legal)
        assert len(scores) == len(legal)
        assert all(math.isfinite(s) for s in scores)
        for action in list(legal)[:5]:
            ruleset.action_odds(game.state, side, action)
        for viewer in (None, *scenario.sides):
            game.view(viewer)
        assert game.digest() == digest
        # A copy is independent: playing on it leaves the game alone.
        if game.decision is not None and game.decision.kind is DecisionKind.CHOOSE:
            held = {s: t.action for s, t in game.held_choices().items()}
            ruleset.apply(copy, side, legal[-1], Resolution(Dice(seed), held))
            assert game.digest() == digest


# -- determinism -------------------------------------------------------------------------


@pytest.mark.parametrize(("scenario_id", "seed"), _scenario_seed_params()[::2])
def test_same_seed_and_same_actions_give_the_same_game(scenario_id: str, seed: int) -> None:
    scenario = load_scenario(scenario_id)
    first = _playout(scenario, seed)
    second = Game(scenario, seed)
    assert second.digest() == Game(scenario, seed).digest()
    for n, step in enumerate(first.steps, start=1):
        second.apply(str(step.action), step.side)  # through the text form, as a record does
        assert second.digest() == step.digest_after, f"digests differ after action {n}"
        assert len(second.events) == step.events_after
    assert [e.text for e in second.events] == [e.text for e in first.game.events]
    assert [e.to_json() for e in second.events] == [e.to_json() for e in first.game.events]
    assert second.outcome == first.game.outcome


# -- records -----------------------------------------------------------------------------


@pytest.mark.parametrize(("scenario_id", "seed"), _scenario_seed_params()[::2])
def test_record_round_trip_reproduces_the_game(scenario_id: str, seed: int, tmp_path: Path) -> None:
    scenario = load_scenario(scenario_id)
    for label, stop_after in (("finished", None), ("unfinished", 25 + seed)):
        game = _playout(scenario, seed, stop_after).game
        record = game.record()
        json.dumps(record)
        assert record["digest"] == game.digest()
        path = tmp_path / f"{label}.json"
        if game.unrevealed():  # secrets go to the sides' own files, and come back from them
            save_game(game, path)
            replayed, _ = load_game(path)
        else:
            write_record(record, path)
            replayed = replay_record(read_record(path), str(path))
        assert replayed.digest() == game.digest()
        assert len(replayed.actions) == len(game.actions)
        assert [e.text for e in replayed.events] == [e.text for e in game.events]
        assert replayed.is_over == game.is_over
        assert replayed.outcome == game.outcome
        assert replayed.record() == record


@pytest.mark.parametrize(("scenario_id", "seed"), _scenario_seed_params()[1::2])
def test_a_record_cut_after_k_actions_replays_to_the_state_after_k_actions(
    scenario_id: str, seed: int
) -> None:
    scenario = load_scenario(scenario_id)
    played = _playout(scenario, seed)
    record = played.game.record()
    rng = random.Random(seed)
    for k in sorted(rng.sample(range(1, len(played.steps) + 1), 3)):
        cut = {**record, "actions": record["actions"][:k]}
        assert replay_record(cut, verify=False).digest() == played.steps[k - 1].digest_after


@pytest.mark.parametrize(("scenario_id", "seed"), _scenario_seed_params()[::2])
def test_a_tampered_record_is_refused_naming_the_action_number(scenario_id: str, seed: int) -> None:
    scenario = load_scenario(scenario_id)
    played = _playout(scenario, seed, stop_after=60)
    record = played.game.record()
    rng = random.Random(seed)
    for number in rng.sample(range(1, len(played.steps) + 1), 3):
        step = played.steps[number - 1]
        others = [s for s in scenario.sides if s not in step.waiting_before]
        tampered_entries = [
            {"side": step.side, "action": "not-an-action at all"},
            {"side": "no-such-side", "action": str(step.action)},
            {"action": str(step.action)},
            "just a string",
        ]
        if others:
            tampered_entries.append({"side": others[0], "action": str(step.action)})
        for entry in tampered_entries:
            actions = list(record["actions"])
            actions[number - 1] = entry
            with pytest.raises(RecordError, match=rf"\baction {number}\b"):
                replay_record({**record, "actions": actions})


@pytest.mark.parametrize("scenario_id", _scenario_params())
def test_a_record_from_another_ruleset_version_is_refused(scenario_id: str) -> None:
    game = _playout(load_scenario(scenario_id), 0, stop_after=5).game
    record = game.record()
    with pytest.raises(RecordError, match="version"):
        replay_record({**record, "ruleset_version": record["ruleset_version"] + "-other"})


# -- illegal actions ---------------------------------------------------------------------


def _snapshot(game: Game) -> tuple[Any, ...]:
    return (
        game.digest(),
        len(game.events),
        len(game.actions),
        game.dice.rolled,
        game.waiting_for(),
        game.decision,
    )


def _nonexistent(action: Action) -> list[Action]:
    """The action with each text field (a unit, a target, a role) naming nothing that exists."""
    if not dataclasses.is_dataclass(action):
        return []
    out: list[Action] = []
    for f in dataclasses.fields(action):
        if isinstance(getattr(action, f.name), str):
            out.append(dataclasses.replace(action, **{f.name: "Qz9nothing"}))
    return out


def _illegal_batch(
    game: Game,
    scenario: Scenario,
    earlier: list[Action],
    vocabulary: list[str],
    rng: random.Random,
) -> list[tuple[Action | str, str | None]]:
    """Actions (or texts) with the side that tries them; none of them may be legal now."""
    batch: list[tuple[Action | str, str | None]] = []
    waiting = game.waiting_for()
    nonsense = ["", "xyzzy", "xyzzy 12 34", "end end end"]
    if not waiting:  # the game is over: nothing at all is legal
        side = scenario.sides[0]
        batch += [(text, side) for text in vocabulary[:20] + nonsense]
        batch += [(a, side) for a in earlier[:20]]
        return batch
    side = waiting[0]
    legal = game.legal_actions(side)
    sample = [legal[i] for i in rng.sample(range(len(legal)), min(4, len(legal)))]
    # Actions legal now, but tried by a side that is not asked (or no side at all).
    for other in (s for s in scenario.sides if s not in waiting):
        batch += [(a, other) for a in sample]
    batch += [(a, "no-such-side") for a in sample]
    if not game.ruleset.info.exhaustive_actions:
        # Legal actions are candidates only: one not offered may still be legal.
        batch += [(a, "no-such-side") for a in earlier[:10]]
        batch += [(text, side) for text in nonsense]
        return batch
    # Actions of earlier decisions (either side's) that are not legal now.
    batch += [(a, side) for a in earlier if a not in legal]
    # Text forms seen in this game that still parse but are not offered now,
    # such as ``end`` or ``pass`` outside the step that offers them.
    for text in vocabulary:
        try:
            parsed = game.parse(text)
        except IllegalAction:
            continue
        if parsed not in legal:
            batch.append((text, side))
    # Actions naming units (or anything) that do not exist.
    for action in sample:
        batch += [(a, side) for a in _nonexistent(action) if a not in legal]
    batch += [(text, side) for text in nonsense]
    return batch


@pytest.mark.parametrize(("scenario_id", "seed"), _scenario_seed_params(SEEDS[:2]))
def test_illegal_actions_are_refused_and_leave_the_game_exactly_as_it_was(
    scenario_id: str, seed: int
) -> None:
    scenario = load_scenario(scenario_id)
    rng = random.Random(1000 + seed)
    earlier: list[Action] = []
    vocabulary: set[str] = set()
    checkpoints = 0
    for n, game in enumerate(_play(scenario, seed)):
        if not game.is_over:
            side = game.waiting_for()[0]
            legal = game.legal_actions(side)
            picks = [legal[i] for i in rng.sample(range(len(legal)), min(6, len(legal)))]
            vocabulary.update(str(a) for a in picks)
            earlier.extend(picks)
            earlier = earlier[-40:]
        if not (game.is_over or rng.random() < 0.06 or n % 40 == 0):
            continue
        checkpoints += 1
        words = sorted(vocabulary)
        rng.shuffle(words)
        views = [game.view(viewer) for viewer in (None, *scenario.sides)]
        for action, side in _illegal_batch(game, scenario, list(earlier), words[:60], rng):
            before = _snapshot(game)
            with pytest.raises(IllegalAction):
                game.apply(action, side)
            assert _snapshot(game) == before, f"refusing '{action}' by {side} changed the game"
        assert [game.view(viewer) for viewer in (None, *scenario.sides)] == views
    assert checkpoints >= 3


@pytest.mark.parametrize("scenario_id", _scenario_params())
def test_an_action_for_the_side_not_asked_is_refused_as_not_your_decision(
    scenario_id: str,
) -> None:
    game = Game(load_scenario(scenario_id), 0)
    waiting = game.waiting_for()
    action = game.legal_actions(waiting[0])[0]
    for other in (s for s in game.scenario.sides if s not in waiting):
        with pytest.raises(NotYourDecision):
            game.apply(action, other)


# -- views -------------------------------------------------------------------------------


@pytest.mark.parametrize(("scenario_id", "seed"), _scenario_seed_params()[::2])
def test_views_hide_nothing_but_what_the_ruleset_declares_hidden(
    scenario_id: str, seed: int
) -> None:
    scenario = load_scenario(scenario_id)
    ruleset = registry.get(scenario.ruleset)
    for n, game in enumerate(_play(scenario, seed)):
        if n % 5 and not game.is_over:
            continue
        spectator = game.view(None)
        assert spectator.get("viewer") is None
        for side in scenario.sides:
            view = game.view(side)
            assert view.get("viewer", side) == side
            if not ruleset.info.hidden_information:
                assert _without_viewer(view) == _without_viewer(spectator), (
                    f"{side}'s view differs from the spectator's though "
                    f"{ruleset.info.name} declares no hidden information"
                )


@pytest.mark.parametrize(("scenario_id", "seed"), _scenario_seed_params()[::2])
def test_a_sealed_choice_changes_no_other_sides_view_but_its_waiting_list(
    scenario_id: str, seed: int
) -> None:
    """Holds vacuously for rulesets without sealed decisions (MiniWars)."""
    scenario = load_scenario(scenario_id)
    game = Game(scenario, seed)
    bots = {side: make_bot("random", seed + i) for i, side in enumerate(scenario.sides)}
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        waiting = game.waiting_for()
        side = waiting[0]
        action = bots[side].choose(game, side)
        sealed_pending = (
            game.decision is not None
            and game.decision.kind is DecisionKind.SEALED
            and len(waiting) > 1
        )
        if not sealed_pending:
            game.apply(action, side)
            continue
        others = [s for s in scenario.sides if s != side]
        before = {s: game.view(s) for s in [*others, None]}
        assert game.apply(action, side) == []
        for viewer, old in before.items():
            new = game.view(viewer)
            assert "my_sealed_choice" not in new
            new["decision"]["waiting_for"] = old["decision"]["waiting_for"]
            assert new == old, f"{side}'s sealed choice shows in {viewer}'s view"
        assert game.view(side)["my_sealed_choice"] == str(action)


@pytest.mark.parametrize(("scenario_id", "seed"), _scenario_seed_params())
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_playout_is_the_game_the_engine_plays(scenario_id: str, seed: int, bot: str) -> None:
    """Ruleset.playout, where a ruleset offers it, plays exactly the engine's game."""
    from warbench.sim.runner import bot_seeds, play_game

    scenario = load_scenario(scenario_id)
    ruleset = registry.get(scenario.ruleset)
    bots = dict.fromkeys(scenario.sides, bot)
    fast = ruleset.playout(scenario, seed, bots, bot_seeds(scenario, seed))
    if fast is None:
        pytest.skip(f"{ruleset.info.name} plays this game action by action (no playout)")
    slow = play_game(scenario, seed, bots)
    assert [(t.side, t.action) for t in slow.actions] == fast.actions
    outcome = slow.outcome
    assert outcome is not None
    assert (fast.winner, fast.reason, fast.turns) == (outcome.winner, outcome.reason, slow.turn)
