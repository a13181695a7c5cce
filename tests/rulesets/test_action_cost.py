"""``Ruleset.action_cost`` (what a board shows beside a move before it is made): MiniWars
gives the MP of the unit's allowance, CGME/V.E.G. the MP of the leg and what is left, both
from the same reach the rules check a move against; other actions cost nothing shown."""

from __future__ import annotations

from warbench.core.game import Game


def _to_moves(game: Game, side: str) -> None:
    for _ in range(40):
        waiting = game.waiting_for()
        if waiting == (side,) and any(str(a).startswith("move") for a in game.legal_actions(side)):
            return
        who = waiting[0]
        legal = [str(a) for a in game.legal_actions(who)]
        game.apply("choose B" if "choose B" in legal else "end", who)
    raise AssertionError("no movement step")


def test_miniwars_move_costs_come_from_the_rules_reach() -> None:
    game = Game.start("miniwars/bridge", 2)
    _to_moves(game, "guards")
    seat = game.seat("guards")
    costs = {str(a): seat.action_cost(a) for a in game.legal_actions("guards")}
    assert costs["move T1 0502"] == "1 of 3 MP"  # one open hex
    assert costs["move T1 0604"] == "1½ of 3 MP"  # over the bridge, then the road at half
    assert costs["end"] is None
    assert all(c is None or c.endswith("of 3 MP") for a, c in costs.items() if "T1" in a)


def test_cgme_move_costs_say_what_is_left() -> None:
    game = Game.start("cgme/skirmish", 1)
    side = game.waiting_for()[0]
    _to_moves(game, side)
    seat = game.seat(side)
    moves = [a for a in game.legal_actions(side) if str(a).startswith("move")]
    notes = [seat.action_cost(a) for a in moves]
    assert notes and all(n is not None and " MP (" in n and n.endswith(" left)") for n in notes)
    spent = [int(n.split()[0]) for n in notes if n]
    assert min(spent) >= 1
