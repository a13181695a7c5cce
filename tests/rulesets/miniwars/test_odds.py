"""Exact odds agree with the game: the odds queries (``warbench odds miniwars ...``) equal
the share of hits counted by playing every possible roll through the real rules."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from warbench.errors import OddsError
from warbench.rulesets.miniwars.odds import QUERIES

DIE = range(1, 7)


def _melee_outcome(mw, dice, attacker, defender, disrupted, **kw):
    units = [
        ("red", "A", attacker, "0504"),
        ("blue", "D", defender, "0506"),
        ("blue", "X", "foot", "1010"),
    ]
    game = mw.started_game(units, dice=list(dice), **kw)
    mw.disrupt(game, *disrupted)
    mw.skip_to(game, "move_a")
    game.apply("move A 0505", "red")
    game.apply("attack A D", "red")
    melee = mw.last(game, "melee").data
    return melee["success"], game.state.units["A"].disrupted and "A" not in disrupted


@pytest.mark.parametrize(
    ("query", "attacker", "defender", "disrupted", "kw"),
    [
        (["attacker=3", "defender=2"], "cs3", "cs2", (), {}),
        (["attacker=1", "defender=5"], "cs1", "cs5", (), {}),
        (["attacker=5", "defender=3", "defender_morale=+"], "cs5", "plus", (), {}),
        (
            ["attacker=3", "defender=3", "attacker_disrupted=true", "defender_terrain=forest"],
            "foot",
            "foot",
            ("A",),
            {"hexes": {"forest": ["0506"]}},
        ),
        (
            [
                "attacker=3",
                "defender=3",
                "defender_morale=-",
                "attacker_higher=true",
                "across=bridge",
            ],
            "foot",
            "minus",
            (),
            {"elevation": {1: ["0505"]}, "hexsides": {"bridge": ["0505/0506"]}},
        ),
        (
            ["attacker=3", "defender=3", "attacker_terrain=rough", "defender_higher=true"],
            "foot",
            "foot",
            (),
            {"hexes": {"rough": ["0505"]}, "elevation": {1: ["0506"]}},
        ),
    ],
    ids=[
        "cs3-vs-cs2",
        "cs1-vs-cs5",
        "cs5-vs-plus",
        "disrupted-into-forest",
        "uphill-bridge",
        "rough-downhill",
    ],
)
def test_melee_odds_equal_the_count_over_all_36_rolls(mw, query, attacker, defender, disrupted, kw):
    """MELEE COMBAT: odds of success (and of doubles disrupting the attacker) are exact."""
    results = [
        _melee_outcome(mw, dice, attacker, defender, disrupted, **kw) for dice in product(DIE, DIE)
    ]
    odds = QUERIES["melee"](query)
    assert odds.outcomes["hit"] == mw.count(hit for hit, _ in results)
    assert odds.extra["attacker_disrupted"] == mw.count(doubled for _, doubled in results)


def test_cs_3_against_cs_2_is_seven_in_twelve(mw):
    """MELEE COMBAT (worked example): 7+ on two dice is 21 of 36."""
    assert QUERIES["melee"](["attacker=3", "defender=2"]).outcomes["hit"] == Fraction(7, 12)


def _missile_hit(mw, roll, code, distance, target, disrupted, **kw):
    units = [("red", "R", f"bow{code}", "0501"), ("blue", "T", target, f"05{1 + distance:02d}")]
    game = mw.started_game(units, dice=[roll], **kw)
    mw.disrupt(game, *disrupted)
    game.apply("fire R T", "red")
    return mw.last(game, "missile").data["hit"]


@pytest.mark.parametrize(
    ("query", "code", "distance", "target", "disrupted", "kw"),
    [
        (["code=B", "range=2"], "B", 2, "foot", (), {}),
        (["code=A", "range=1", "target_morale=-"], "A", 1, "minus", (), {}),
        (["code=A", "range=5", "target_morale=!"], "A", 5, "chief", (), {}),
        (
            ["code=C", "range=2", "attacker_disrupted=true", "attacker_higher=true"],
            "C",
            2,
            "foot",
            ("R",),
            {"elevation": {1: ["0501"]}},
        ),
        (
            ["code=D", "range=1", "defender_higher=true", "target_morale=+"],
            "D",
            1,
            "plus",
            (),
            {"elevation": {1: ["0502"]}},
        ),
    ],
    ids=["B-at-2", "A-at-1-minus", "A-at-5-leader", "C-disrupted-higher", "D-lower-plus"],
)
def test_missile_odds_equal_the_count_over_all_six_rolls(
    mw, query, code, distance, target, disrupted, kw
):
    """MISSILE FIRE: odds of a hit are exact, natural 1 included."""
    hits = [_missile_hit(mw, roll, code, distance, target, disrupted, **kw) for roll in DIE]
    assert QUERIES["missile"](query).outcomes["hit"] == mw.count(hits)


def test_code_b_at_range_two_is_one_half(mw):
    """MISSILE FIRE (worked example): 4-6 on one die."""
    assert QUERIES["missile"](["code=B", "range=2"]).outcomes["hit"] == Fraction(1, 2)


@pytest.mark.parametrize(("code", "distance"), [("E", 2), ("B", 5), ("A", 6), ("D", 3)])
def test_a_chart_dash_is_reported_as_an_attack_that_cannot_occur(code, distance):
    """MISSILE FIRE: where the chart shows a dash the attack cannot occur; the odds say
    so (one outcome, "cannot occur") instead of a 0% hit."""
    odds = QUERIES["missile"]([f"code={code}", f"range={distance}"])
    assert odds.outcomes == {"cannot occur": 1}
    assert "hit" not in odds.to_json()["outcomes"]


@pytest.mark.parametrize("distance", ["0", "-1", "-5"])
def test_a_missile_range_below_one_is_refused(distance):
    """MISSILE FIRE: range counts the target's hex, so it is at least 1."""
    with pytest.raises(OddsError, match="range must be 1 or more"):
        QUERIES["missile"]([f"range={distance}"])


@pytest.mark.parametrize("code", ["a", "b", "c", "d", "e"])
def test_missile_codes_are_accepted_in_either_case(code):
    """UNITS (missile code letters): code=b is code=B."""
    lower = QUERIES["missile"]([f"code={code}", "range=1"])
    upper = QUERIES["missile"]([f"code={code.upper()}", "range=1"])
    assert lower.outcomes == upper.outcomes
    assert QUERIES["missile"].parse_args([f"code={code}"])["code"] == code.upper()
    with pytest.raises(OddsError, match="wants one of A, B, C, D, E"):
        QUERIES["missile"](["code=f"])


def _rally_success(mw, roll, unit, at, disrupted, leader_id="L", unit_id="U"):
    units = [("red", "L", "chief", "0501"), ("red", "U", unit, at), ("blue", "E", "foot", "1010")]
    game = mw.started_game(units, dice=[roll, 6, 1])
    mw.disrupt(game, *disrupted)
    mw.skip_to(game, "morale")
    game.apply(f"rally {leader_id} {unit_id}", "red")
    return mw.last(game, "rally").data["success"]


@pytest.mark.parametrize(
    ("query", "unit", "at", "disrupted", "ids"),
    [
        (["distance=2"], "foot", "0503", ("U",), ("L", "U")),
        (["distance=1", "unit_morale=+"], "plus", "0502", ("U",), ("L", "U")),
        (["distance=3", "unit_morale=-"], "minus", "0504", ("U",), ("L", "U")),
        (["distance=2", "unit_morale=!"], "chief", "0503", ("U",), ("L", "U")),
        (["distance=5", "unit_morale=+"], "plus", "0506", ("U",), ("L", "U")),
        (["distance=7"], "foot", "0508", ("U",), ("L", "U")),
        (["self=true"], "foot", "0503", ("L",), ("L", "L")),
    ],
    ids=["2-even", "1-plus", "3-minus", "2-leader", "5-plus", "7-out-of-reach", "self"],
)
def test_rally_odds_equal_the_count_over_all_six_rolls(mw, query, unit, at, disrupted, ids):
    """MORALE: the rally query's odds are the share of the six rolls that rally the unit
    through the real rules (distance, unit morale, leader to leader, a 1 fails, self)."""
    wins = [_rally_success(mw, roll, unit, at, disrupted, *ids) for roll in DIE]
    odds = QUERIES["rally"](query)
    assert odds.outcomes["rallied"] == mw.count(wins)
    assert odds.outcomes["still disrupted"] == 1 - mw.count(wins)


def test_rally_odds_refuse_a_distance_below_one():
    """MORALE: two units never share a hex; a leader rallying itself says self=true."""
    with pytest.raises(OddsError, match="self=true"):
        QUERIES["rally"](["distance=0"])


def test_the_odds_of_an_impossible_rally_or_attack_say_why(mw):
    """The odds shown to a player (MORALE, MELEE COMBAT): a disrupted leader may only
    rally itself, and under option fired_units = "no_melee" a unit that fired may not
    melee, so their odds are not offered."""
    game = mw.started_game(
        [
            ("red", "L", "chief", "0505"),
            ("red", "U", "foot", "0507"),
            ("red", "X", "bowA", "0303"),
            ("blue", "Y", "foot", "0304"),
        ],
        options={"fired_units": "no_melee"},
    )
    state, rules = game.state, game.ruleset
    state.units["L"].disrupted = True
    state.units["U"].disrupted = True
    state.units["X"].fired = True
    rally = rules.action_odds(state, "red", game.parse("rally L U"))
    assert rally is not None and "may only rally itself" in rally
    attack = rules.action_odds(state, "red", game.parse("attack X Y"))
    assert attack is not None and "fired this turn" in attack


def test_the_odds_name_the_roll_that_does_it_once_modifiers_count() -> None:
    """The browser's reader sees the effective roll, not only the chart's number and
    the modifiers: 7+ on two dice with +1 is a roll of 6+; 6+ on one die with -1 is a
    roll no die makes; without modifiers nothing more is said."""
    from warbench.rulesets.miniwars.odds import _roll

    assert _roll(7, [(1, "target morale -")], 2, None) == ", so a roll of 6+ does it"
    assert _roll(6, [(-1, "target morale !")], 1, 1) == ", so no roll of 1 die does it"
    assert _roll(3, [(2, "charge")], 1, 1) == ", so a roll of 2+ does it"  # a 1 still misses
    assert _roll(4, [(3, "charge")], 2, None) == ", so any roll does it"
    assert _roll(5, [], 1, 1) == ""
