"""Overlay marks of the last action: the Ruleset default and MiniWars's moves and shots.

MiniWars marks follow the generic contract (hex labels): a move is a ``path``
along a least-cost route that the movement rules allow (Movement), a shot a
clear ``sight`` line (Missile Fire: fire needs an open line of sight).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from warbench.bots import make_bot
from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.ruleset import Ruleset
from warbench.geometry.hexgrid import Hex
from warbench.rulesets.miniwars.actions import Fire, Move


def play_until(game: Game, wanted: Callable[[Game, Action], bool], limit: int = 400) -> Action:
    """Let random bots play until the side asked has a legal action ``wanted``; return it."""
    bots = {side: make_bot("random", 11 + i) for i, side in enumerate(game.scenario.sides)}
    for _ in range(limit):
        side = game.waiting_for()[0]
        found = [a for a in game.legal_actions(side) if wanted(game, a)]
        if found:
            return found[0]
        game.apply(bots[side].choose(game, side), side)
    raise AssertionError("no such action came up")


def long_move(game: Game, action: Action) -> bool:
    if not isinstance(action, Move):
        return False
    unit = game.state.units[action.unit]
    return unit.pos is not None and unit.pos.distance(action.to) >= 3


def test_the_default_draws_nothing() -> None:
    game = Game.start("miniwars/danville", seed=1)
    assert Ruleset.annotations(game.ruleset, game.state, game.events, None) == []


def test_a_move_is_a_path_the_movement_rules_allow() -> None:
    """Movement: the route steps hex to hex, costs what the move cost, avoids enemy hexes and
    enters an enemy zone of control only at its end."""
    game = Game.start("miniwars/danville", seed=5)
    action = play_until(game, long_move)
    assert isinstance(action, Move)
    unit = game.state.units[action.unit]
    start, side = unit.pos, unit.side
    assert start is not None
    events = game.apply(action, side)
    marks = game.ruleset.annotations(game.state, events, None)
    assert len(marks) == 1
    mark = marks[0]
    assert mark["kind"] == "path" and mark["side"] == side
    route = [Hex.from_label(label) for label in mark["points"]]
    assert route[0] == start and route[-1] == action.to
    board = game.state.setup.board
    move_class = unit.type.move_class
    costs = [board.enter_cost(a, b, move_class) for a, b in pairwise(route)]
    assert all(a.distance(b) == 1 for a, b in pairwise(route))
    moved = next(e for e in events if e.kind == "move")
    assert sum(c or 0 for c in costs) == moved.data["cost"] * board.charts.half_mp_per_mp
    enemies = [u.pos for u in game.state.side_units(game.state.enemy_of(side))]
    zones = {h for p in enemies if p is not None for h in board.zoc_into[p]}
    assert not set(route) & set(enemies)
    assert not set(route[1:-1]) & zones


def test_a_shot_is_a_clear_sight_line_with_its_result() -> None:
    """Missile Fire: a unit fires only along an open line of sight, so the line is clear."""
    game = Game.start("miniwars/danville", seed=5)
    action = play_until(game, lambda g, a: isinstance(a, Fire))
    assert isinstance(action, Fire)
    shooter, target = game.state.units[action.unit], game.state.units[action.target]
    assert shooter.pos is not None and target.pos is not None
    frm, to = shooter.pos.label, target.pos.label
    events = game.apply(action, shooter.side)
    hit = next(e for e in events if e.kind == "missile").data["hit"]
    marks = game.ruleset.annotations(game.state, events, shooter.side)
    assert marks == [
        {"kind": "sight", "from": frm, "to": to, "clear": True, "label": "hit" if hit else "miss"}
    ]


def test_choices_without_a_picture_draw_nothing() -> None:
    game = Game.start("miniwars/danville", seed=5)
    side = game.waiting_for()[0]
    events = game.apply(game.legal_actions(side)[0], side)  # choose A or B
    assert game.ruleset.annotations(game.state, events, None) == []
