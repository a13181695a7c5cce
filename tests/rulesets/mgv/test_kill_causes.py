"""What a balance run reads from MGV's events (issue 25): each destruction names its cause
(the weapon whose hits took out the heart, 5.2, or a sudden death roll, 1.6) and the
hits event says how many hits found no circle (5.2), which ``tallies`` counts."""

from __future__ import annotations

from warbench.core.ruleset import CAUSE


def _missile_on_r1(mgv, heart_dice):
    """B1 fires missiles at R1 (s1, c1 and one of its two heart circles already marked),
    all six dice at the heart."""
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="missile"),
        mgv.base("red", "R1", "L35", (20, 12), 180),
        mgv.base("red", "R2", "L35", (20, 4), 180),
    ]
    game = mgv.start(bases, "blue", "fire", (), tail=True)
    mgv.damage(game, "R1", {"s1": "S", "c1": "P", "h2": "B"})
    game.apply("fire B1>R1", "blue")
    game.apply("split 1=0/0/6", "blue")
    mgv.give(game, *heart_dice)
    game.apply("block 1=4/0/0", "red")
    return game


def test_a_heart_taken_by_missile_hits_names_the_missile_and_the_shooter(mgv):
    game = _missile_on_r1(mgv, [4, 1, 1, 1, 1, 1, 1, 1, 1, 1])  # one heart hit
    destroyed = mgv.last(game, "destroyed")
    assert destroyed.data == {"base": "R1", "credit": "B1", CAUSE: "missile"}
    assert destroyed.data[CAUSE] in game.ruleset.kill_causes


def test_a_sudden_death_names_its_cause_and_credits_nobody(mgv):
    bases = [
        mgv.base("blue", "B1", "J90", (4, 12), 0),
        mgv.base("red", "R1", "K817", (20, 12), 180),
        mgv.base("red", "R2", "K817", (20, 4), 180),
    ]
    game = mgv.start(bases, "blue", "fire", [2, 2], tail=True)  # one kinetic hit
    mgv.damage(game, "R1", {"s1": "S", "s2": "S", "s12": "S", "c1": "P", "c5": "P", "h1": "B"})
    game.apply("fire B1>R1", "blue")
    mgv.act(game, "red", "mark auto", 5, 5)  # 10 on 2D6 with one B hit: destroyed (1.6)
    destroyed = mgv.last(game, "destroyed")
    assert destroyed.data == {"base": "R1", "credit": None, CAUSE: "sudden death"}
    assert "sudden death" in game.ruleset.kill_causes


def test_hits_that_find_no_circle_are_counted_as_lost(mgv):
    """Six heart hits on a hull with no marked core circle next to the heart: all lost
    (5.2); the tallies count six hits scored and six lost."""
    game = mgv.start(
        [
            mgv.base("blue", "B1", "L35", (4, 12), 0, main="missile"),
            mgv.base("red", "R1", "L35", (20, 12), 180),
        ],
        "blue",
        "fire",
        (),
        tail=True,
    )
    game.apply("fire B1>R1", "blue")
    game.apply("split 1=0/0/6", "blue")
    mgv.give(game, *[6] * 6, 1, 1, 1, 1)
    game.apply("block 1=4/0/0", "red")
    assert mgv.last(game, "hits").data["lost"] == 6
    tallies = game.ruleset.tallies(game.scenario, game.events)
    assert tallies == {"hits scored": 6.0, "hits lost": 6.0, "hits on wrecks": 0.0}
