"""A bot that draws one action (the random bot) has VSGMR build only what the draw
needs, and what it builds is what the full lists hold (issue 28):

- a figure's moves read one at a time (:func:`figure_moves_lazily`) are, as far as
  they are read, the moves :func:`figure_moves` lists, in order; read through, they
  are the whole list and are kept for the state as the list would be, while a
  figure read only in part keeps nothing across actions; the moves read are known
  legal in that state (:func:`candidates.listed`), those not read are not;
- a figure's attacks read one at a time (``fig_attacks_lazily``) are, as far as they
  are read, its list of attacks, kept only when read through;
- whether a figure may attack (:meth:`VSGMRRules.may_attack`, which stops at its
  first attack) is whether its list of attacks holds any, kept or fresh.

Checked after every action of random-bot games, on fresh copies of each state
(nothing worked out yet) so that no kept result answers for the code under test.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

from warbench.bots import make_bot
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.rulesets.vsgmr import candidates
from warbench.rulesets.vsgmr.candidates import figure_moves, figure_moves_lazily
from warbench.rulesets.vsgmr.memo import memo
from warbench.rulesets.vsgmr.state import Fig, State

MAX_ACTIONS = 150


def _fresh(rules: Any, state: State) -> State:
    clone: State = rules.copy_state(state)
    clone.caches = {}
    clone.kept = {}
    return clone


def _played(name: str, seed: int) -> Any:
    """The game after each action of a random-bot game (the bot draws through groups)."""
    scenario = load_scenario(f"vsgmr/{name}")
    game = Game(scenario, seed)
    bots = {side: make_bot("random", seed * 10 + i) for i, side in enumerate(scenario.sides)}
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return
        yield game
        side = game.waiting_for()[0]
        game.apply(bots[side].choose(game.seat(side), side), side)


def _read_part_then_whole(
    rules: Any,
    state: State,
    listed: list[Any],
    rng: random.Random,
    read: Callable[[State], Iterator[Any]],
    kind: Any,
    fig: Fig,
) -> tuple[State, int, State]:
    """On a fresh copy of ``state``, the first k items ``read`` gives (k drawn with ``rng``)
    are the first k of ``listed`` and, if fewer than all, nothing of ``kind`` is kept for
    the figure; on another fresh copy, read through, they are ``listed`` and kept. Returns
    the first copy, k and the second copy."""
    part = _fresh(rules, state)
    k = rng.randrange(len(listed) + 1)
    assert list(itertools.islice(read(part), k)) == listed[:k]
    if k < len(listed):
        assert memo(part).kept(kind, fig) is None
    whole = _fresh(rules, state)
    assert list(read(whole)) == listed
    assert memo(whole).kept(kind, fig) is not None
    return part, k, whole


@pytest.mark.parametrize(("name", "seed"), [("street", 1), ("field", 2), ("relic", 3)])
def test_moves_read_one_at_a_time_are_the_listed_ones(name: str, seed: int) -> None:
    rng = random.Random(seed)
    checked = partial_reads = 0
    for game in _played(name, seed):
        rules: Any = game.ruleset
        state = game.state
        if state.phase != "movement":
            continue
        side = state.order[state.actor]
        for fig in state.side_figs(side):
            listed = figure_moves(rules, _fresh(rules, state), fig)
            read = partial(figure_moves_lazily, rules, fig=fig)
            part, k, whole = _read_part_then_whole(rules, state, listed, rng, read, "moves", fig)
            # What was read is known legal (played, it is costed, not checked again).
            assert all(candidates.listed(part, fig, move) for move in listed[:k])
            if k < len(listed):
                partial_reads += 1
                assert not candidates.listed(part, fig, listed[k])
            kept = memo(whole).tables["moves"][fig.id]
            assert figure_moves(rules, whole, fig) == listed
            assert memo(whole).tables["moves"][fig.id] is kept  # kept, not built again
            checked += 1
    assert checked > 40
    assert partial_reads > 10


@pytest.mark.parametrize(("name", "seed"), [("street", 4), ("field", 5), ("relic", 6)])
def test_may_attack_is_whether_any_attack_is_listed(name: str, seed: int) -> None:
    checked = able = 0
    for game in _played(name, seed):
        rules: Any = game.ruleset
        state = game.state
        for hand in (False, True):
            for fig in state.figs.values():
                want = bool(rules.fig_attacks(_fresh(rules, state), fig, hand))
                assert rules.may_attack(_fresh(rules, state), fig, hand) == want
                assert rules.may_attack(state, fig, hand) == want  # kept across actions
                checked += 1
                able += want
    assert checked > 200
    assert able > 5


@pytest.mark.parametrize(("name", "seed"), [("street", 7), ("relic", 8)])
def test_attacks_read_one_at_a_time_are_the_listed_ones(name: str, seed: int) -> None:
    rng = random.Random(seed)
    checked = partial_reads = 0
    for game in _played(name, seed):
        rules: Any = game.ruleset
        state = game.state
        for hand in (False, True):
            for fig in state.figs.values():
                listed = rules.fig_attacks(_fresh(rules, state), fig, hand)
                read = partial(rules.fig_attacks_lazily, fig=fig, hand=hand)
                kind = ("attacks", hand)
                _, k, whole = _read_part_then_whole(rules, state, listed, rng, read, kind, fig)
                partial_reads += k < len(listed)
                assert memo(whole).kept(kind, fig) == listed
                checked += 1
    assert checked > 200
    assert partial_reads > 5
