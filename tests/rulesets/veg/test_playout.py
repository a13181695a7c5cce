"""Whole games of the built-in scenarios with random and greedy bots keep the rules.

After every action: stacks within the limit (riders not counted) and the
stack tables consistent with the units; riders where their carrier is and
within its capacity; nobody in terrain its class may not stand in (road
hexes excepted); trucks on roads; MP never negative; a unit attacks at most
once a turn; the legal actions (made with caches) equal those of a fresh copy.
"""

from __future__ import annotations

import pytest

from warbench.bots import make_bot
from warbench.core.game import Game
from warbench.core.loader import load_scenario

BUILT_IN = ("veg/tank-battle", "veg/city-assault", "veg/crater-field")


def check(game: Game) -> None:
    state = game.state
    setup = state.setup
    board = setup.board
    limit = setup.parts_limit
    on_board = {}
    for h, stack in state.stacks.items():
        parts = sum(u.type.parts for u in stack)
        assert parts == state.parts[h]
        assert limit is None or parts <= limit, f"{h.label} overstacked"
        for unit in stack:
            assert unit.pos == h and unit.carrier is None
            on_board[unit.id] = unit
    for unit in state.units.values():
        assert unit.mp >= 0 and unit.bonus >= 0
        if unit.pos is None:
            assert unit.carrier is None and not unit.riders
            continue
        if unit.carrier is not None:
            carrier = state.units[unit.carrier]
            assert carrier.pos == unit.pos and unit.id in carrier.riders
            continue
        assert on_board.get(unit.id) is unit
        i = board.index[unit.pos]
        assert board.standable[unit.type.move_class][i]
        assert not unit.type.road_only or board.on_road[i]
        used = sum(state.units[r].type.parts for r in unit.riders)
        assert used <= unit.type.capacity


@pytest.mark.parametrize("scenario_id", BUILT_IN)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_playout_keeps_the_rules(scenario_id, bot):
    scenario = load_scenario(scenario_id)
    game = Game(scenario, seed=11)
    bots = {side: make_bot(bot, i) for i, side in enumerate(scenario.sides)}
    for n in range(20_000):
        if game.is_over:
            break
        check(game)
        side = game.waiting_for()[0]
        if n % 25 == 0:
            fresh = game.ruleset.copy_state(game.state)
            assert [str(a) for a in game.legal_actions(side)] == [
                str(a) for a in game.ruleset.legal_actions(fresh, side)
            ]
        game.apply(bots[side].choose(game, side), side)
    assert game.is_over
    check(game)
    attacks = [e for e in game.events if e.kind == "attack"]
    assert attacks, "a whole game without a single attack"


def test_greedy_beats_random_in_the_tank_battle():
    """The greedy bot (exact odds, expected values) clearly beats random play."""
    from warbench.sim import simulate

    result = simulate("veg/tank-battle", 8, {"blue": "greedy", "red": "random"}, seed=3)
    assert result.wins["blue"] >= 6
