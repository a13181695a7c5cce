"""Random playouts of the built-in scenarios that check the rules from the event log.

Conformance, not a single rule: whatever legal actions are taken, the results
must keep to the text (one unit per hex, terrain, ranges, melee adjacency,
break point once, markers off after the initiative).
"""

from __future__ import annotations

import random

import pytest

from warbench.bots import make_bot
from warbench.core.game import Game
from warbench.geometry.hexgrid import Hex

MAX_ACTIONS = 600


def _check_state(game: Game) -> None:
    state = game.state
    board = state.setup.board
    on_board = [u for u in state.units.values() if u.pos is not None]
    assert {u.pos: u.id for u in on_board} == {h: u.id for h, u in state.occupant.items()}
    assert len({u.pos for u in on_board}) == len(on_board)  # one unit per hex
    for u in on_board:
        road = u.pos in board.map.road_hexes()
        assert road or board.terrain_allows(u.pos, u.type.move_class), (u.id, u.pos.label)
    if state.outcome is None:
        for side in state.setup.sides:  # BREAK POINT: at half the starting units
            at_half = len(state.side_units(side)) * 2 <= state.start_count[side]
            assert at_half == (side in state.broken), side


def _check_events(game: Game, new_events, positions: dict[str, str]) -> None:
    state = game.state
    board = state.setup.board
    charts = board.charts
    for e in new_events:
        d = e.data
        if e.kind == "move" and d["frm"] != d["to"] and "advances" not in e.text:
            unit = state.units[d["unit"]]
            step = Hex.from_label(d["frm"]).distance(Hex.from_label(d["to"]))
            assert step == 1 or d["cost"] <= unit.type.move, e.text  # MOVEMENT
        if e.kind == "missile":
            shooter, target = state.units[d["unit"]], state.units[d["target"]]
            at, to = Hex.from_label(positions[shooter.id]), Hex.from_label(positions[target.id])
            assert at.distance(to) <= charts.max_range(shooter.type.missile)  # MISSILE FIRE chart
            assert not board.target_concealed(to)  # not into forest or town
        if e.kind == "melee":
            at, to = Hex.from_label(positions[d["unit"]]), Hex.from_label(positions[d["target"]])
            assert to in board.melee_into[at]  # adjacent, not across river or hedgerow
        if e.kind == "move":
            positions[d["unit"]] = d["to"]


@pytest.mark.parametrize(
    ("ref", "seed", "player"),
    [
        ("miniwars/danville", 1, "random"),
        ("miniwars/danville", 7, "random"),
        ("miniwars/bridge", 3, "random"),
        ("miniwars/danville", 2, "greedy"),
        ("miniwars/danville", 4, "greedy"),
        ("miniwars/bridge", 5, "greedy"),
    ],
)
def test_playout_keeps_the_rules(ref, seed, player):
    """All sections: a seeded game (random or greedy choices) never breaks an invariant."""
    game = Game.start(ref, seed=seed)
    rng = random.Random(seed)
    bot = make_bot("greedy", seed)
    positions = {u.id: u.pos.label for u in game.state.units.values() if u.pos is not None}
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        side = game.waiting_for()[0]
        actions = game.legal_actions(side)
        assert actions, "a decision with no legal action"
        # Cached reach / fire / zones agree with a fresh state that has no caches.
        fresh = game.ruleset.copy_state(game.state)
        assert sorted(map(str, actions)) == sorted(
            map(str, game.ruleset.legal_actions(fresh, side))
        )
        if player == "greedy":
            action = bot.choose(game, side)
        else:
            # Prefer acting to ending, so that something happens within the budget.
            doing = [a for a in actions if str(a) not in ("end", "pass")]
            action = rng.choice(doing) if doing and rng.random() < 0.9 else actions[-1]
        new_events = game.apply(action, side)
        _check_state(game)
        _check_events(game, new_events, positions)
        if str(action).startswith("choose"):
            assert not any(u.fired for u in game.state.units.values())  # INITIATIVE
    assert game.is_over
    breaks = [e.data["side"] for e in game.events if e.kind == "break"]
    assert len(breaks) == len(set(breaks))  # BREAK POINT: once per game
    kinds = {e.kind for e in game.events}
    assert {"melee", "missile"} & kinds
