"""Bots choose legal actions through the public API; greedy plays better than random."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from warbench.bots import BOT_NAMES, GreedyBot, RandomBot, make_bot
from warbench.core.game import Game
from warbench.errors import WarbenchError
from warbench.sim import simulate

DANVILLE = "miniwars/danville"


def _states(seed: int, limit: int = 400) -> Iterator[Game]:
    """A random game of Danville, yielded before each action."""
    game = Game.start(DANVILLE, seed=seed)
    mover = RandomBot(seed + 50)
    for _ in range(limit):
        if game.is_over:
            return
        yield game
        side = game.waiting_for()[0]
        game.apply(mover.choose(game, side), side)


def test_make_bot_knows_random_and_greedy() -> None:
    assert {"random", "greedy"} <= set(BOT_NAMES)
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    for name in BOT_NAMES:
        assert make_bot(name, 0).name == name


def test_an_unknown_bot_name_is_refused_listing_the_bots() -> None:
    with pytest.raises(WarbenchError, match="unknown bot 'genius'; bots: ") as caught:
        make_bot("genius", 0)
    for name in BOT_NAMES:
        assert name in str(caught.value)


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_a_bot_picks_only_legal_actions_and_leaves_the_game_alone(name: str) -> None:
    bot = make_bot(name, 7)
    for n, game in enumerate(_states(3)):
        if n % 3:
            continue
        side = game.waiting_for()[0]
        digest, actions = game.digest(), len(game.actions)
        choice = bot.choose(game, side)
        assert choice in game.legal_actions(side)
        assert game.digest() == digest and len(game.actions) == actions


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_a_bot_asked_for_a_side_with_no_choice_refuses(name: str) -> None:
    game = Game.start(DANVILLE, seed=1)
    (side,) = game.waiting_for()
    other = next(s for s in game.scenario.sides if s != side)
    with pytest.raises(WarbenchError, match=f"{other} has no legal action"):
        make_bot(name, 0).choose(game, other)


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_a_bot_is_reproducible_by_its_seed(name: str) -> None:
    def play(bot_seed: int) -> list[str]:
        game = Game.start(DANVILLE, seed=11)
        bots = {side: make_bot(name, bot_seed + i) for i, side in enumerate(game.scenario.sides)}
        for _ in range(150):
            if game.is_over:
                break
            side = game.waiting_for()[0]
            game.apply(bots[side].choose(game, side), side)
        return [str(t.action) for t in game.actions]

    assert play(5) == play(5)
    if name == "random":
        assert play(5) != play(6)


def test_the_random_bot_spreads_its_choices_over_the_legal_actions() -> None:
    game = Game.start(DANVILLE, seed=2)
    game.apply("choose B")
    side = game.waiting_for()[0]
    legal = game.legal_actions(side)
    bot = RandomBot(0)
    picks = {str(bot.choose(game, side)) for _ in range(300)}
    assert len(picks) > min(len(legal), 30) // 2


def test_the_greedy_bot_picks_an_action_with_the_best_evaluation() -> None:
    bot = GreedyBot(4)
    checked = 0
    for seed in (1, 2):
        for game in _states(seed):
            side = game.waiting_for()[0]
            legal = game.legal_actions(side)
            if len(legal) < 2:
                continue
            scores = game.ruleset.evaluate(game.state, side, legal)
            choice = bot.choose(game, side)
            best = max(scores)
            picked = [s for a, s in zip(legal, scores, strict=True) if a == choice]
            assert picked and picked[0] >= best - 1e-9, f"{choice} scores {picked}, best {best}"
            checked += 1
    assert checked > 100


def test_greedy_prefers_an_attack_with_a_positive_expected_gain_when_one_is_offered() -> None:
    """Somewhere in random games an attack scores above 0 and greedy then does not pass."""
    bot = GreedyBot(0)
    found = 0
    for game in _states(4):
        side = game.waiting_for()[0]
        legal = game.legal_actions(side)
        scores = game.ruleset.evaluate(game.state, side, legal)
        if max(scores) > 0:
            choice = str(bot.choose(game, side))
            assert choice not in ("pass", "end")
            found += 1
    assert found > 0


@pytest.mark.parametrize(
    ("greedy_side", "random_side"), [("danville", "horde"), ("horde", "danville")]
)
def test_greedy_beats_random_in_at_least_80_percent_of_danville_games_from_either_side(
    greedy_side: str, random_side: str
) -> None:
    games = 30
    result = simulate(
        DANVILLE, games=games, bots={greedy_side: "greedy", random_side: "random"}, seed=2024
    )
    assert result.wins[greedy_side] >= 0.8 * games, result.to_json()
