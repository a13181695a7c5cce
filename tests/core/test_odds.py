"""Odds queries: typed keys parsed from text, and results that must sum to one."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest

from warbench.core.odds import JOINT_OUTCOMES, OddsKey, OddsQuery, OddsResult, combined
from warbench.errors import OddsError, WarbenchError

STRENGTH = OddsKey("attacker", "int", 3, "attacker combat strength")
UPHILL = OddsKey("uphill", "bool", False, "attacking uphill")
TERRAIN = OddsKey("terrain", "choice", "open", "defender terrain", ("open", "forest"))


def _chance(values: Mapping[str, Any]) -> OddsResult:
    hit = Fraction(values["attacker"], 6) - (Fraction(1, 6) if values["uphill"] else 0)
    if values["terrain"] == "forest":
        hit /= 2
    return OddsResult({"hit": hit, "miss": 1 - hit}, {"doubles": Fraction(1, 6)})


QUERY = OddsQuery("attack", "a test attack", (STRENGTH, UPHILL, TERRAIN), _chance)


@pytest.mark.parametrize(("text", "value"), [("4", 4), ("-2", -2), (" 5", 5)])
def test_an_int_key_parses_whole_numbers(text: str, value: int) -> None:
    assert STRENGTH.parse(text) == value


@pytest.mark.parametrize("text", ["", "three", "3.5", "1/2"])
def test_an_int_key_refuses_anything_else_naming_key_and_text(text: str) -> None:
    with pytest.raises(OddsError, match=f"key 'attacker' wants a whole number, got '{text}'"):
        STRENGTH.parse(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [("true", True), ("YES", True), ("1", True), ("false", False), ("No", False), ("0", False)],
)
def test_a_bool_key_parses_yes_and_no_words(text: str, value: bool) -> None:
    assert UPHILL.parse(text) is value


@pytest.mark.parametrize("text", ["", "maybe", "2", "y"])
def test_a_bool_key_refuses_anything_else(text: str) -> None:
    with pytest.raises(OddsError, match=f"key 'uphill' wants true or false, got '{text}'"):
        UPHILL.parse(text)


def test_a_choice_key_accepts_only_its_choices() -> None:
    assert TERRAIN.parse("forest") == "forest"
    with pytest.raises(OddsError, match="key 'terrain' wants one of open, forest, got 'swamp'"):
        TERRAIN.parse("swamp")
    with pytest.raises(OddsError):
        TERRAIN.parse("Forest")


def test_keys_describe_themselves() -> None:
    assert STRENGTH.describe() == "attacker=<int> (default 3): attacker combat strength"
    assert TERRAIN.describe() == "terrain=<open|forest> (default open): defender terrain"


def test_a_query_fills_in_defaults_and_parses_given_keys() -> None:
    assert QUERY.parse_args([]) == {"attacker": 3, "uphill": False, "terrain": "open"}
    assert QUERY.parse_args(["terrain=forest", "attacker=6"]) == {
        "attacker": 6,
        "uphill": False,
        "terrain": "forest",
    }
    assert QUERY(["attacker=6", "terrain=forest"]).outcomes["hit"] == Fraction(1, 2)


def test_a_query_refuses_a_pair_without_equals() -> None:
    with pytest.raises(OddsError, match="'attacker' is not key=value"):
        QUERY.parse_args(["attacker"])


def test_a_query_refuses_an_unknown_key_listing_its_keys() -> None:
    with pytest.raises(OddsError, match="unknown key 'range' for attack; keys: attacker, uphill"):
        QUERY.parse_args(["range=3"])


def test_odds_errors_are_warbench_errors() -> None:
    assert issubclass(OddsError, WarbenchError)
    assert issubclass(OddsError, ValueError)


def test_a_result_must_sum_to_one() -> None:
    OddsResult({"hit": Fraction(1, 3), "miss": Fraction(2, 3)})
    with pytest.raises(ValueError, match="sum to 5/6, not 1"):
        OddsResult({"hit": Fraction(1, 3), "miss": Fraction(1, 2)})
    with pytest.raises(ValueError, match="sum to 0, not 1"):
        OddsResult({})


def test_extra_probabilities_do_not_count_towards_the_sum() -> None:
    result = OddsResult({"certain": Fraction(1)}, {"doubles": Fraction(1, 6)})
    assert result.extra["doubles"] == Fraction(1, 6)


def test_a_result_as_json_gives_floats_and_exact_fractions() -> None:
    result = QUERY(["attacker=2"])
    assert result.to_json() == {
        "outcomes": {"hit": 1 / 3, "miss": 2 / 3},
        "exact": {"hit": "1/3", "miss": "2/3", "doubles": "1/6"},
        "doubles": 1 / 6,
    }


def test_independent_rolls_are_every_combination_until_there_are_too_many() -> None:
    """Two small rolls: every combination, named by part. Six rolls of four outcomes
    (4,096 combinations, seconds of exact arithmetic, a table nobody reads): the
    distribution of their total, exactly the convolution."""

    def hits(k: int) -> str:
        return f"{k} hit" if k == 1 else f"{k} hits"

    d = {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6), 3: Fraction(0)}
    small = combined([("A", d), ("B", d)], hits)
    assert len(small) == 9 and small["A: 1 hit; B: 2 hits"] == Fraction(1, 18)
    four = {0: Fraction(1, 4), 1: Fraction(1, 4), 2: Fraction(1, 4), 3: Fraction(1, 4)}
    many = combined([(f"S{i}", four) for i in range(6)], hits)
    assert JOINT_OUTCOMES < 4**6 and set(many) == {f"{hits(k)} in all" for k in range(19)}
    assert sum(many.values()) == 1
    assert many["0 hits in all"] == Fraction(1, 4**6)
    assert many["1 hit in all"] == Fraction(6, 4**6)
