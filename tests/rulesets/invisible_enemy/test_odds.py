"""``warbench odds invisible-enemy``: the queries show exactly the distributions the charts
roll, the network query's outcome keys are ``A{a} B{b}``, and bad keys are refused."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

import pytest

from warbench.core.odds import OddsQuery
from warbench.errors import OddsError
from warbench.rulesets.invisible_enemy import charts
from warbench.rulesets.invisible_enemy.odds import QUERIES


def odds(name: str, *pairs: str) -> dict[str, Fraction]:
    return dict(QUERIES[name](list(pairs)).outcomes)


def by_hits(dist: dict[int, Fraction]) -> dict[str, Fraction]:
    return {(f"{k} hit" if k == 1 else f"{k} hits"): p for k, p in dist.items() if p}


def test_the_queries_and_their_defaults(
    check_odds_queries: Callable[[Mapping[str, OddsQuery]], None],
) -> None:
    assert set(QUERIES) == {"network", "direct", "barrage", "control", "self-destruct"}
    check_odds_queries(QUERIES)  # not registered yet: the conformance suite does not see it


def test_network_odds_are_the_joint_distribution_with_a_b_keys() -> None:
    """2.0: the text's pools, 8 dice against 7; "A4 B2" is the worked example's outcome."""
    got = odds("network", "dice_a=8", "dice_b=7")
    want = charts.network_distribution(8, 7)
    assert got == {f"A{a} B{b}": p for (a, b), p in want.items()}
    assert got["A4 B2"] == want[(4, 2)] > 0
    assert odds("network", "dice_a=0", "dice_b=0") == {"A0 B0": 1}
    assert odds("network", "dice_a=2", "dice_b=0") == {"A2 B0": 1}


def test_network_odds_refuse_pools_beyond_the_cap() -> None:
    cap = charts.charts().network.max_dice
    with pytest.raises(OddsError, match=f"0 to {cap}"):
        QUERIES["network"]([f"dice_a={cap + 1}"])
    with pytest.raises(OddsError):
        QUERIES["network"](["dice_b=-1"])


def test_direct_odds_are_the_direct_distribution() -> None:
    got = odds("direct", "attack=6", "defence=3", "weapon=P", "damage=1/3", "cover=true")
    assert got == by_hits(charts.direct_distribution(6, 3, "P", "1/3", True))
    massed = odds("direct", "weapon=C", "massed=true")
    assert massed == odds("direct", "weapon=K")
    with pytest.raises(OddsError, match="massed"):
        QUERIES["direct"](["weapon=K", "massed=true"])


def test_barrage_odds_are_the_area_chance() -> None:
    """3.0: a defence 3 base alone is destroyed on 10+ (6 in 36), one with flank support
    on 11+ (3 in 36); a fungus tower on 11+ (3 in 36)."""
    assert odds("barrage", "defence=3", "no_flank=true") == {
        "destroyed": Fraction(1, 6),
        "no effect": Fraction(5, 6),
    }
    assert odds("barrage", "defence=3")["destroyed"] == Fraction(3, 36)
    assert odds("barrage", "target=fungus-tower")["destroyed"] == Fraction(3, 36)
    assert odds("barrage", "defence=3", "no_flank=true", "deflected=true") == odds("barrage")
    with pytest.raises(OddsError, match="flanks"):
        QUERIES["barrage"](["target=fungus-tower", "no_flank=true"])


def test_control_odds_meet_the_worked_examples_of_4_0() -> None:
    assert odds("control") == {"moves": Fraction(5, 6), "may not move": Fraction(1, 6)}
    assert odds("control", "status=50")["moves"] == Fraction(1, 2)
    assert odds("control", "status=50", "network_mgv=true")["moves"] == Fraction(2, 3)
    assert odds("control", "status=25", "automatic=true") == {"moves": 1}


def test_self_destruct_odds_show_the_attack_and_range() -> None:
    result = QUERIES["self-destruct"](["speed=8", "defence=3", "target_defence=2"])
    assert dict(result.outcomes) == by_hits(charts.self_destruct_distribution(8, 3, 2))
    blast = charts.self_destruct(8, 3)
    assert dict(result.extra) == {f'attack {blast.attack} on every base within {blast.range:g}"': 1}


@pytest.mark.parametrize(
    ("name", "pairs", "message"),
    [
        ("network", ["dice_a=lots"], "whole number"),
        ("network", ["dice=3"], "unknown key"),
        ("direct", ["weapon=X"], "one of"),
        ("direct", ["damage=1/2"], "one of"),
        ("direct", ["defence=0"], "defence"),
        ("direct", ["attack=99"], "attack"),
        ("barrage", ["defence=0"], "defence"),
        ("barrage", ["target=tree"], "one of"),
        ("control", ["status=60"], "status"),
        ("control", ["status"], "key=value"),
        ("self-destruct", ["speed=-1"], "speed"),
        ("self-destruct", ["cover=maybe"], "true or false"),
        ("self-destruct", ["speed=3", "speed=4"], "twice"),
    ],
)
def test_bad_keys_are_refused(name: str, pairs: list[str], message: str) -> None:
    with pytest.raises(OddsError, match=message):
        QUERIES[name](pairs)


def test_the_barrage_header_names_a_towers_own_defence(capsys: pytest.CaptureFixture[str]) -> None:
    """A fungus tower's defence (4) and its lack of flank support are the rules': the
    header says them instead of the defaults asked for a base."""
    from warbench.cli.main import main

    query = QUERIES["barrage"]
    shown = query.situation(query.parse_args(["target=fungus-tower"]))
    assert shown["defence"] == 4 and shown["no_flank"] is True
    assert main(["odds", "invisible-enemy", "barrage", "target=fungus-tower"]) == 0
    assert "target=fungus-tower defence=4 no_flank=true" in capsys.readouterr().out
