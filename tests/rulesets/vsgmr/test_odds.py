"""Exact odds agree with the game: ``warbench odds vsgmr distance|hand`` equals the share
of each outcome counted by playing every possible roll through the real rules (II.3, II.4)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from warbench.core.dice import ScriptedDice
from warbench.core.game import Resolution
from warbench.errors import OddsError
from warbench.rulesets.vsgmr.odds import QUERIES

DIE = range(1, 7)
PAIR = [
    ("red", {"id": "A2", "type": "troop", "at": [30, 10], "facing": 90, "distance": True}),
    ("blue", {"id": "B2", "type": "troop", "at": [30, 11], "facing": 270}),
]
LOW_WALL = {
    "id": "low",
    "kind": "wall",
    "shape": "polyline",
    "points": [[5, 19.4], [15, 19.4]],
    "barrier": True,
    "blocks_los": "beyond",
    "beyond_reach": 0.6,
}


def _counted(vs, attacker, target, armour, auto, cover, hand):
    """Play every roll of the attack (and of the armour roll) on copies of one game."""
    a = {"distance": True, "auto": auto} if not hand else {}
    mounts = ("cavalry", "vehicle")
    a_at = (10, 8.5) if attacker in mounts else (10, 10)
    b_at = ((10, 12.1) if target in mounts else (10, 11)) if hand else (10, 20)
    if not hand and target in mounts:
        b_at = (10, 21.2)  # its long base clear of the low wall, still within reach of it
    figures = [
        vs.fig("red", "A", attacker, a_at, 90, **a),
        vs.fig("blue", "B", target, b_at, 270, armour=armour),
        *PAIR,
        *([("red", {"id": "AR", "type": "troop", "riding": "A"})] if attacker in mounts else []),
    ]
    game = vs.start(figures, features=[LOW_WALL] if cover else [])
    vs.skip_to(game, "hand" if hand else "distance", "red")
    rules = game.ruleset
    action = game.parse(f"{'fight' if hand else 'shoot'} A B")
    dice = 2 if auto and not hand else 1
    tally = {"miss": 0, "saved": 0, "hit": 0}
    rolls_seen = 0
    for rolls in product(DIE, repeat=dice + 1):
        state = rules.copy_state(game.state)
        res = Resolution(ScriptedDice(rolls))
        rules.apply(state, "red", action, res)
        attack = [e for e in res.events if e.kind == "attack"][-1]
        tally[attack.data["result"]] += 1
        assert (state.figs["B"].where == "defeated") == (attack.data["result"] == "hit")
        rolls_seen += 1
    return {k: Fraction(v, rolls_seen) for k, v in tally.items()}


SITUATIONS = [
    ("troop", "troop", "none", False, False),
    ("hero", "troop", "light", False, False),
    ("troop", "troop", "heavy", True, False),
    ("hero", "troop", "none", True, True),
    ("troop", "vehicle", "light", False, True),
    ("vehicle", "vehicle", "heavy", True, False),
]


@pytest.mark.parametrize(("attacker", "target", "armour", "auto", "cover"), SITUATIONS)
def test_distance_odds_equal_the_count_over_every_roll(vs, attacker, target, armour, auto, cover):
    """II.3: the distance query's miss / saved / hit are the shares over all rolls."""
    counted = _counted(vs, attacker, target, armour, auto, cover, hand=False)
    query = QUERIES["distance"]
    result = query(
        [
            f"attacker={attacker}",
            f"target={target}",
            f"armour={armour}",
            f"auto={str(auto).lower()}",
            f"cover={str(cover).lower()}",
        ]
    )
    assert dict(result.outcomes) == counted


@pytest.mark.parametrize(
    ("attacker", "target", "armour"),
    [("troop", "troop", "none"), ("hero", "troop", "heavy"), ("troop", "vehicle", "light")],
)
def test_hand_odds_equal_the_count_over_every_roll(vs, attacker, target, armour):
    """II.4: the hand query's miss / saved / hit are the shares over all rolls."""
    counted = _counted(vs, attacker, target, armour, False, False, hand=True)
    result = QUERIES["hand"]([f"attacker={attacker}", f"target={target}", f"armour={armour}"])
    assert dict(result.outcomes) == counted


def test_the_plain_shot_is_one_third(vs):
    """II.3: 5 or 6 on one die: 1/3; a hero with automatic fire in cover: 1 - (4/6)^2 = 5/9."""
    assert QUERIES["distance"]([]).outcomes["hit"] == Fraction(1, 3)
    hero = QUERIES["distance"](["attacker=hero", "auto=true", "cover=true"])
    assert hero.outcomes["hit"] == Fraction(5, 9)


def test_the_outcomes_are_miss_saved_and_hit(vs):
    """The odds command's outcomes (issue): miss, saved (armour cancels), hit (defeated)."""
    result = QUERIES["hand"](["armour=heavy", "target=vehicle"])
    assert set(result.outcomes) == {"miss", "saved", "hit"}
    assert result.outcomes["saved"] == Fraction(1, 2) * Fraction(2, 3)


def test_hand_to_hand_refuses_cover_and_automatic_fire(vs):
    """II.4: no cover and no automatic fire in hand to hand."""
    with pytest.raises(OddsError, match="never in cover"):
        QUERIES["hand"](["cover=true"])
    with pytest.raises(OddsError, match="automatic fire"):
        QUERIES["hand"](["auto=true"])
