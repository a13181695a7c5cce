"""``warbench odds mgv kinetic|missile|photon``: the queries show exactly the distributions
the game rolls (``combat``), parse their keys strictly, and give the missile split's
equilibrium with its value and both mixed strategies."""

from __future__ import annotations

from fractions import Fraction

import pytest

from warbench.errors import OddsError
from warbench.rulesets.mgv import combat
from warbench.rulesets.mgv.odds import QUERIES, GameOddsResult


def odds(name: str, *pairs: str) -> dict[str, Fraction]:
    return dict(QUERIES[name](list(pairs)).outcomes)


def by_hits(dist: dict[int, Fraction]) -> dict[str, Fraction]:
    return {(f"{k} hit" if k == 1 else f"{k} hits"): p for k, p in dist.items()}


def test_the_queries_and_their_defaults() -> None:
    """The defaults themselves are checked for every registered ruleset by the conformance suite."""
    assert set(QUERIES) == {"kinetic", "missile", "photon"}


def test_kinetic_odds_are_the_kinetic_distribution() -> None:
    got = odds("kinetic", "attack=4", "defence=5", "modifier=1", "range=5.5")
    assert got == by_hits(combat.kinetic_distribution(4, 5, 1, 5.5))
    assert odds("kinetic", "range=none") == by_hits(combat.kinetic_distribution(3, 2))
    assert odds("kinetic", "range=3") != odds("kinetic")  # the close range band


def test_photon_odds_take_the_ranging_error_in_inches() -> None:
    assert odds("photon", "attack=5", "error=1.75") == by_hits(combat.photon_distribution(2))
    assert odds("photon", "attack=5", "error=7/4") == odds("photon", "attack=5", "error=1.75")
    assert odds("photon", "attack=5", "error=0.5") == by_hits(combat.photon_distribution(5))
    assert not QUERIES["photon"](["error=2.75"]).extra
    assert "defence" not in {key.name for key in QUERIES["photon"].keys}


def test_photon_odds_show_the_disaster() -> None:
    limit = combat.combat_data().photon.disaster.from_error
    result = QUERIES["photon"]([f"error={limit:g}"])
    assert result.outcomes == {"0 hits": 1}
    (name, chance), *_ = result.extra.items()
    assert "disaster" in name and chance == 1


def test_missile_odds_with_both_splits_are_the_exact_hits_per_colour() -> None:
    got = odds(
        "missile", "attack=3", "defence=2", "split=4/2/0", "block=2/1/1", "scoring=successes"
    )
    dist = combat.missile_distribution((4, 2, 0), (2, 1, 1), "successes")
    assert got == {f"S{s} C{c} H{h}": p for (s, c, h), p in dist.items()}
    # the text's pip totals (the default): 2 dice against 2
    got = odds("missile", "attack=3", "defence=2", "split=1/1/0", "block=0/0/2")
    dist = combat.missile_distribution((1, 1, 0), (0, 0, 2), "totals")
    assert got == {f"S{s} C{c} H{h}": p for (s, c, h), p in dist.items()}
    assert got["S6 C6 H0"] == Fraction(1, 36)
    assert QUERIES["missile"].parse_args(["split=04/2/0"])["split"] == "4/2/0"  # shown as typed


def test_missile_split_must_use_every_die_and_wing_doubles_them() -> None:
    dice = combat.missile_dice(3)
    with pytest.raises(OddsError, match="must use all"):
        QUERIES["missile"]([f"split={dice - 1}/0/0", "block=2/0/0"])
    with pytest.raises(OddsError, match="split= with block="):
        QUERIES["missile"](["block=2/0/0"])
    with pytest.raises(OddsError, match="S/C/H"):
        QUERIES["missile"](["split=4-2-0", "block=2/0/0"])
    wing = ["wing=true", f"split={2 * dice}/0/0", "block=2/0/0"]
    assert sum(QUERIES["missile"](wing).outcomes.values()) == 1


def test_missile_equilibrium_lists_both_strategies_and_its_value() -> None:
    result = QUERIES["missile"](["attack=3", "defence=2"])
    assert isinstance(result, GameOddsResult)
    attacker = {k: p for k, p in result.extra.items() if k.startswith("attacker splits")}
    defender = {k: p for k, p in result.extra.items() if k.startswith("defender blocks")}
    assert sum(attacker.values()) == 1 and sum(defender.values()) == 1
    game = combat.missile_game(combat.missile_dice(3), combat.block_dice(2))
    mean = sum(int(name.split()[0]) * p for name, p in result.outcomes.items())
    assert float(mean) == pytest.approx(game.value, abs=1e-3)  # the value: total hits s+c+h
    assert result.to_json()["value"] == pytest.approx(game.value)
    assert "total hits" in QUERIES["missile"].help


def test_missile_equilibrium_refuses_too_many_dice() -> None:
    with pytest.raises(OddsError, match="split= and block="):
        QUERIES["missile"](["attack=12", "wing=true"])


@pytest.mark.parametrize(
    ("query", "pair"),
    [
        ("photon", "error=abc"),
        ("photon", "error=1e999"),
        ("photon", "error=-1"),
        ("photon", "error=none"),
        ("kinetic", "range=1/0"),
        ("kinetic", "attack=99"),
        ("kinetic", "defence=-1"),
        ("kinetic", "defence=0"),  # 5.2 Applying Damage: never below 1
        ("missile", "defence=0"),
        ("missile", "modifier=40"),
    ],
)
def test_bad_keys_are_refused(query: str, pair: str) -> None:
    with pytest.raises(OddsError):
        QUERIES[query]([pair])


def test_a_split_alone_meets_the_defenders_equilibrium_blocks() -> None:
    """Issue 25: odds for one split against the equilibrium, as well as against a
    chosen block: the mix of the exact distributions by the defender's strategy."""
    result = QUERIES["missile"](["attack=4", "defence=4", "split=2/0/0"])
    assert sum(result.outcomes.values()) == 1
    mix = {k.removeprefix("defender blocks "): p for k, p in result.extra.items()}
    assert sum(mix.values()) == 1
    expected: dict[str, Fraction] = {}
    for block, q in mix.items():
        b = tuple(int(n) for n in block.split("/"))
        for (s, c, h), p in combat.missile_distribution((2, 0, 0), b, "totals").items():
            key = f"S{s} C{c} H{h}"
            expected[key] = expected.get(key, Fraction(0)) + p * q
    assert result.outcomes == expected
    assert set(result.outcomes) <= {f"S{s} C0 H0" for s in range(13)}
