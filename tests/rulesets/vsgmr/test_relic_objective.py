"""The relic of ``vsgmr/relic`` can always be won (issue 12).

Played through the rules on the built-in scenario with scripted dice: the fastest
line carries the relic off (the seal breaks in round 2, the relic is picked up in
round 3, three moves take it off red's edge in round 6, within the eight rounds);
a destroyed shrine frees the relic in its rubble (ruling 13), by an attack (III)
or by a task that removes it; and the greedy bots' candidates and scores go for
the seal, the relic and the edge.
"""

from __future__ import annotations

import copy
from typing import Any

from warbench.core.dice import ScriptedDice
from warbench.core.game import Game
from warbench.core.loader import load_scenario, scenario_from_dict
from warbench.rulesets.vsgmr.actions import Take
from warbench.rulesets.vsgmr.candidates import figure_candidates

RELIC = "vsgmr/relic"


def _relic_game(dice: list[int], change: Any = None) -> Game:
    """The built-in relic scenario on scripted dice; red wins the first initiative."""
    raw = copy.deepcopy(dict(load_scenario(RELIC).raw))
    if change is not None:
        change(raw)
    game = Game(scenario_from_dict(raw, "relic.toml", "relic"), seed=0, dice=ScriptedDice(dice))
    game.apply("first red", "red")
    return game


def _red_acts(vs: Any, game: Game, phase: str) -> None:
    """Everyone else ends until red acts in ``phase`` this round."""
    vs.skip_to(game, phase, "red")


def test_the_fastest_line_carries_the_relic_off_within_the_rounds(vs):
    """II.2, II.5, III: the scholar walks to the shrine (two 6" moves), breaks the seal
    in round 2's skill step, steps up to the relic at the shrine's west door and picks
    it up in round 3 (ending its move) and needs three more moves to leave by red's
    south edge: round 6 of 8. With the five rounds the scenario had, no side could
    ever have scored the relic."""
    game = _relic_game([6, 1, 1])
    _red_acts(vs, game, "movement")
    game.apply("move R4 18,10", "red")
    vs.next_round(game)
    _red_acts(vs, game, "movement")
    game.apply("move R4 18.3,15.6", "red")  # touching the shrine's south-west corner
    _red_acts(vs, game, "skill")
    # 3, +1 for the scholar's lore: 4+ breaks the seal; then round 3's initiative
    game.dice.extend([3, 6, 1, 1])
    game.apply("skill R4 seal", "red")
    assert game.state.items["relic"].locked is False
    game.apply("first red", "red")
    _red_acts(vs, game, "movement")
    game.apply("move R4 17.8,17.5", "red")
    _red_acts(vs, game, "movement")  # Everyone Acts: blue and green take their turns
    game.apply("take R4 relic", "red")
    assert game.state.items["relic"].carrier == "R4"
    for y in (11.5, 5.5):
        vs.next_round(game)
        _red_acts(vs, game, "movement")
        game.apply(f"move R4 17.8,{y}", "red")
    vs.next_round(game)
    _red_acts(vs, game, "movement")
    assert game.state.round == 6 < game.state.setup.rounds
    game.apply("move R4 17.8,-0.5", "red")
    assert game.is_over
    outcome = game.outcome
    assert outcome is not None and outcome.winner == "red"
    assert outcome.scores["red"] == 6
    assert "carried off" in vs.last(game, "item_off").text


def test_a_destroyed_shrine_frees_the_relic_in_its_rubble(vs):
    """III lets an attack destroy a building; ruling 13: the seal goes with the shrine,
    and the relic lies free where it was, so the game can still be won."""
    game = _relic_game([6, 1, 1])
    _red_acts(vs, game, "movement")
    game.apply("move R2 15,8", "red")
    game.apply("end", "blue")
    game.apply("end", "green")
    game.apply("move R4 18,10", "red")
    _red_acts(vs, game, "distance")
    game.dice.extend([5, 2])  # the archer hits (5+); the shrine rolls 2: destroyed
    game.apply("shoot R2 shrine", "red")
    assert "shrine" in game.state.destroyed
    freed = vs.last(game, "task")
    assert freed.text == (
        "Shrine is destroyed: Relic lies free in the rubble and can now be picked up"
    )
    assert freed.data == {"item": "relic", "feature": "shrine"}
    assert game.state.items["relic"].locked is False
    assert game.state.items["relic"].at == (18.0, 18.0)
    vs.next_round(game)
    _red_acts(vs, game, "movement")
    game.apply("move R4 18,16", "red")
    vs.next_round(game)
    _red_acts(vs, game, "movement")
    game.apply("move R4 18,17.5", "red")
    _red_acts(vs, game, "movement")  # Everyone Acts: blue and green take their turns
    assert Take("R4", "relic") in game.legal_actions("red")
    game.apply("take R4 relic", "red")
    assert game.state.items["relic"].carrier == "R4"


def test_a_task_that_removes_the_sealing_feature_frees_the_item_too(vs):
    """Ruling 13 whatever removes the feature: here a skill roll (effect remove_feature)."""
    shrine = vs.box("shrine", 9, 11, 11, 13, kind="building", impassable=True)
    items = [{"id": "idol", "at": [10, 10.7], "locked": True, "points": 4}]
    tasks = [
        {
            "id": "seal",
            "feature": "shrine",
            "reach": 0.5,
            "effect": "unlock_item",
            "target": "idol",
        },
        {
            "id": "blast",
            "at": [10, 9.5],
            "reach": 0.5,
            "effect": "remove_feature",
            "target": "shrine",
        },
    ]
    game = vs.start(
        [vs.fig("red", "A", "troop", (10, 9)), vs.fig("blue", "B", "troop", (30, 30))],
        features=[shrine],
        items=items,
        tasks=tasks,
    )
    vs.skip_to(game, "skill", "red")
    game.dice.extend([4, 6, 1])  # the roll, then the next round's initiative
    game.apply("skill A blast", "red")
    assert "shrine" in game.state.destroyed
    assert game.state.items["idol"].locked is False
    assert vs.last(game, "task").data == {"item": "idol", "feature": "shrine"}


def test_an_item_already_unlocked_is_not_freed_twice(vs):
    """Only a locked item is freed: no second event when the seal was broken first."""
    game = _relic_game([6, 1, 1])
    game.state.items["relic"].locked = False
    game.state.tasks_done.add("seal")
    _red_acts(vs, game, "movement")
    game.apply("move R2 15,8", "red")
    _red_acts(vs, game, "distance")
    game.dice.extend([5, 1])
    game.apply("shoot R2 shrine", "red")
    assert "shrine" in game.state.destroyed
    assert not [e for e in vs.events(game, "task") if e.data.get("feature") == "shrine"]


# -- the greedy bots go for the objective ----------------------------------------------------


def _placed(game: Game, places: dict[str, tuple[float, float]]) -> None:
    for fid, at in places.items():
        fig = game.state.figs[fid]
        fig.geo = fig.geo.moved_to(at)
    game.state.changed()


def _scores(game: Game, side: str) -> dict[str, float]:
    actions = list(game.legal_actions(side))
    scores = game.ruleset.evaluate(game.state, side, actions)
    return {str(a): s for a, s in zip(actions, scores, strict=True)}


def test_candidates_reach_an_unlocked_relic_round_the_shrine(vs):
    """The candidates offer a move onto the relic from the far side of the shrine, where
    the straight line is blocked and the route bends round two corners (7.5" of route:
    the move goes as far as it can), and from 2-3" away a move that ends touching it."""
    game = _relic_game([6, 1, 1])
    game.state.items["relic"].locked = False
    _placed(game, {"B2": (22.3, 18.0), "R4": (18.0, 15.2)})
    rules: Any = game.ruleset

    def to_relic(fid: str) -> list[Any]:
        raw = figure_candidates(rules, game.state, game.state.figs[fid])
        return [c for c in raw if c[2] == "to relic"]

    assert to_relic("B2"), "no move toward the relic from behind the shrine"
    near = to_relic("R4")
    assert near
    end = near[0][0][-1]
    body = game.state.figs["R4"].geo.moved_to(end)
    assert body.covers((18.0, 18.0), tolerance=game.state.setup.rules.touch)


def _best(scores: dict[str, float], prefix: str) -> str:
    mine = {a: v for a, v in scores.items() if a.startswith(prefix)}
    return max(mine, key=mine.__getitem__)


def test_greedy_walks_up_to_the_relic_takes_it_and_carries_it_off(vs):
    """evaluate: touching the unlocked relic beats standing off (it is picked up next),
    picking it up beats any move, and the carrier's best move heads for its own edge."""
    game = _relic_game([6, 1, 1])
    game.state.items["relic"].locked = False
    _placed(game, {"R4": (18.0, 15.2)})
    _red_acts(vs, game, "movement")
    scores = _scores(game, "red")
    best = _best(scores, "move R4 ")
    assert scores[best] > 0
    game.apply(best, "red")
    relic = (18.0, 18.0)
    assert game.state.figs["R4"].geo.covers(relic, tolerance=game.state.setup.rules.touch)
    _red_acts(vs, game, "movement")
    scores = _scores(game, "red")
    assert max(scores, key=scores.__getitem__) == "take R4 relic"
    game.apply("take R4 relic", "red")
    vs.next_round(game)
    _red_acts(vs, game, "movement")
    scores = _scores(game, "red")
    best = _best(scores, "move R4 ")
    y = float(best.split()[2].split(",")[1])
    assert y < game.state.figs["R4"].geo.y - 5, best  # a full move toward the south edge
    assert scores[best] > 1.0


def test_greedy_draws_the_scholar_to_the_seal_and_tries_it(vs):
    """A task's pull grows with the figure's chance: a step toward the shrine is worth
    more to the scholar (lore, +1 with Specific Skills) than to the guard; at the
    shrine the skill roll is worth trying."""
    game = _relic_game([6, 1, 1])
    _placed(game, {"R3": (14.0, 10.0), "R4": (22.0, 10.0)})
    _red_acts(vs, game, "movement")
    scores = _scores(game, "red")
    seal = {a: v for a, v in scores.items() if a.startswith(("move R3 ", "move R4 "))}
    scholar = max(v for a, v in seal.items() if a.startswith("move R4 "))
    guard = max(v for a, v in seal.items() if a.startswith("move R3 "))
    assert scholar > guard
    _placed(game, {"R4": (19.0, 15.6)})
    _red_acts(vs, game, "skill")
    scores = _scores(game, "red")
    assert scores["skill R4 seal"] > scores["end"]
