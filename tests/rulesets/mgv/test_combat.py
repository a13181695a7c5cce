"""MGV fire resolution (5.0-5.3, 5.1 Modifiers, 1.6): the text's worked ranging examples,
every exact distribution against the resolve function it describes (every roll played
through scripted dice, or a seeded Monte Carlo where the rolls are too many), the missile
split game's equilibrium, and the stand-in estimate and sudden-death models."""

from __future__ import annotations

import inspect
import math
import random
import statistics
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import pairwise, product

import pytest
from pydantic import ValidationError

from warbench.core.dice import Dice, ScriptedDice
from warbench.rulesets.mgv import combat
from warbench.rulesets.mgv.combat import Modifiers

Roll = Callable[[str, int], tuple[int, ...]]


def scripted(values: list[int] | tuple[int, ...], log: list[str] | None = None) -> Roll:
    """A roll callable over scripted dice (raises DiceExhausted if asked for more)."""
    dice = ScriptedDice(values)

    def roll(purpose: str, n: int) -> tuple[int, ...]:
        if log is not None:
            log.append(purpose)
        return dice.roll(n)

    return roll


def seeded(seed: int) -> Roll:
    dice = Dice(seed)
    return lambda purpose, n: dice.roll(n)


def enumerate_rolls(n_dice: int, resolve: Callable[[Roll], object]) -> Counter[object]:
    """Play ``resolve`` once for every sequence of ``n_dice`` faces; count the results."""
    out: Counter[object] = Counter()
    for faces in product(range(1, 7), repeat=n_dice):
        out[resolve(scripted(faces))] += 1
    return out


def as_fractions(counts: Counter[object]) -> dict[object, Fraction]:
    whole = sum(counts.values())
    return {k: Fraction(v, whole) for k, v in counts.items()}


# -- the data ---------------------------------------------------------------------------------
def test_every_stand_in_table_says_why() -> None:
    data = combat.combat_data()
    tables = [
        data.kinetic,
        data.kinetic.range,
        data.missile,
        data.photon,
        data.photon.disaster,
        data.photon.estimate,
        data.sudden_death,
    ]
    assert all(t.stand_in and len(t.reason) > 40 for t in tables)
    assert data.modifiers.off_line.stand_in and data.modifiers.off_line.reason
    assert not data.modifiers.stand_in  # the amounts are the text's (5.1 Modifiers)


def test_a_table_whose_hits_fall_with_a_higher_roll_is_refused() -> None:
    good = combat.combat_data().kinetic.model_dump()
    bad = dict(good, columns={**good["columns"], 0: (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)})
    with pytest.raises(ValidationError, match="rise with the roll"):
        combat.Kinetic.model_validate(bad)
    gap = {k: v for k, v in good["columns"].items() if k != 0}
    with pytest.raises(ValidationError, match="contiguous"):
        combat.Kinetic.model_validate(dict(good, columns=gap))


def test_two_dice_totals_are_the_familiar_bell() -> None:
    dist = dict(combat.sum_distribution(2))
    assert sum(dist.values()) == 1
    assert dist[2] == dist[12] == Fraction(1, 36)
    assert dist[7] == Fraction(6, 36)


# -- 5.1 Modifiers ------------------------------------------------------------------------------
def test_ranging_worked_examples_of_the_text() -> None:
    assert combat.ranging_penalty(1.75) == -3  # "Missing by 1 3/4" results in a -3, not a -4"
    assert combat.ranging_penalty(Fraction(7, 4)) == -3
    assert combat.ranging_penalty(0.5) == 0  # "any range guessed within 1/2" receives no penalty"
    assert combat.ranging_penalty(0) == 0


@pytest.mark.parametrize(
    ("error", "penalty"),
    [
        (0.25, 0),
        (0.49, 0),
        (0.5, 0),
        (0.51, -1),
        (0.99, -1),
        (1.0, -1),
        (1.01, -2),
        (1.49, -2),
        (1.5, -2),
        (1.51, -3),
        (1.99, -3),
        (2.0, -3),
        (2.01, -4),
    ],
)
def test_ranging_costs_one_per_full_half_inch_just_under_and_over_each_step(
    error: float, penalty: int
) -> None:
    assert combat.ranging_penalty(error) == penalty
    assert combat.ranging_penalty(-error) == penalty  # over or under, the error is a distance


def test_measurement_noise_on_a_half_inch_boundary_counts_as_on_it() -> None:
    assert combat.ranging_penalty(0.5 + 1e-12) == 0
    assert combat.ranging_penalty(1.0 + 1e-12) == -1


@pytest.mark.parametrize(
    ("points", "penalty"), [(0, 0), (2, 0), (3, -1), (5, -1), (6, -2), (9, -3)]
)
def test_every_three_interception_points_are_minus_one(points: int, penalty: int) -> None:
    assert combat.interception_penalty(points) == penalty


def test_modifiers_total_what_applies_and_explain_what_is_ignored() -> None:
    kinetic = Modifiers("kinetic", target_fired=True, beacon=True, cover=2, interception=3)
    assert kinetic.total() == 1 - 2 - 1  # the beacon helps missile fire only (4.0)
    text = kinetic.explanation()
    assert len(text) == 4
    assert any("ignored" in line and "beacon" in line for line in text)
    missile = Modifiers("missile", target_moved=True, beacon=True, off_line=True)
    assert missile.total() == 1 + 1 - 1
    photon = Modifiers("photon", target_fired=True, ranging_error=1.75)
    assert photon.total() == 1 - 3
    assert photon.total(ranging=False) == 1
    assert any("-3" in line for line in photon.explanation())
    assert Modifiers("kinetic", ranging_error=2.0).total() == 0  # ranging is photon only
    assert Modifiers("photon").explanation() == []


# -- kinetic (5.1 Kinetic Fire) --------------------------------------------------------------------
SITUATIONS = [(3, 2, 0, None), (4, 4, 0, 12.0), (3, 5, -1, None), (5, 1, 2, 2.0), (1, 6, -3, 5.0)]


@pytest.mark.parametrize(("attack", "defence", "modifier", "range_"), SITUATIONS)
def test_kinetic_distribution_is_every_roll_of_the_resolve_function(
    attack: int, defence: int, modifier: int, range_: float | None
) -> None:
    dist = combat.kinetic_distribution(attack, defence, modifier, range_)
    assert sum(dist.values()) == 1
    counted = enumerate_rolls(
        2, lambda roll: combat.resolve_kinetic(attack, defence, roll, modifier, range_)
    )
    assert as_fractions(counted) == dist


def _at_least(dist: dict[int, Fraction], k: int) -> Fraction:
    return sum((p for h, p in dist.items() if h >= k), Fraction(0))


def _dominates(better: dict[int, Fraction], worse: dict[int, Fraction]) -> bool:
    return all(_at_least(better, k) >= _at_least(worse, k) for k in range(0, 20))


def test_kinetic_hits_never_fall_with_more_attack_or_better_modifiers() -> None:
    for defence in range(1, 8):
        for attack in range(0, 10):
            for modifier in range(-3, 3):
                here = combat.kinetic_distribution(attack, defence, modifier)
                assert _dominates(combat.kinetic_distribution(attack + 1, defence, modifier), here)
                assert _dominates(combat.kinetic_distribution(attack, defence, modifier + 1), here)
                assert _dominates(here, combat.kinetic_distribution(attack, defence + 1, modifier))


def test_kinetic_is_never_worse_closer_and_range_none_means_no_band() -> None:
    ranges = [0.5, 2.0, 3.0, 4.0, 6.0, 8.0, 9.0, 12.0, 30.0]
    dists = [combat.kinetic_distribution(3, 4, 0, r) for r in ranges]
    assert all(_dominates(a, b) for a, b in pairwise(dists))
    assert combat.kinetic_distribution(3, 4, 0, None) == combat.kinetic_distribution(3, 4, 0, 30.0)
    assert combat.range_shift(3.0) > combat.range_shift(12.0) == 0


def test_kinetic_groups_stay_small() -> None:
    """No big strikes (1.5): at most 4 hits in any column."""
    assert max(max(column) for column in combat.combat_data().kinetic.columns.values()) == 4


def test_kinetic_column_is_clamped_to_the_table() -> None:
    columns = combat.combat_data().kinetic.columns
    assert combat.kinetic_column(12, 1, 5, 1.0) == max(columns)
    assert combat.kinetic_column(0, 12, -5) == min(columns)


# -- missile (5.2 Missile Fire) --------------------------------------------------------------------
def test_missile_hits_per_colour_are_score_minus_blocks_never_below_zero() -> None:
    log: list[str] = []
    # attacker: surface 6 5 1 (2 score), core 4 (1), heart 6 6 (2)
    # defender: surface 4 (1 block), core 2 (0), heart 5 6 6 (3 blocks: more than scored)
    roll = scripted([6, 5, 1, 4, 6, 6, 4, 2, 5, 6, 6], log)
    assert combat.resolve_missile((3, 1, 2), (1, 1, 3), roll, "successes") == (1, 1, 0)
    assert log == [
        "missile attack, surface",
        "missile attack, core",
        "missile attack, heart",
        "missile blocks, surface",
        "missile blocks, core",
        "missile blocks, heart",
    ]


def test_a_colour_without_dice_rolls_nothing() -> None:
    roll = scripted([6, 6])  # one die each side: surface attack, core block
    assert combat.resolve_missile((1, 0, 0), (0, 1, 0), roll, "successes") == (1, 0, 0)
    assert combat.resolve_missile((1, 0, 0), (0, 1, 0), scripted([6, 6])) == (6, 0, 0)


def test_5_2_missile_totals_score_and_block_per_colour() -> None:
    """5.2 (ruling 18, the default): each colour's pip total is the hits, less the
    defender's pip total of that colour, never below 0."""
    # attacker: surface 6 5 (11), heart 3; defender: surface 4 (blocks 4), heart 2 5 (7)
    roll = scripted([6, 5, 3, 4, 2, 5])
    assert combat.resolve_missile((2, 0, 1), (1, 0, 2), roll) == (7, 0, 0)
    assert combat.resolve_missile((2, 0, 1), (1, 0, 2), scripted([6, 5, 3, 4, 2, 5])) == (
        combat.resolve_missile((2, 0, 1), (1, 0, 2), scripted([6, 5, 3, 4, 2, 5]), "totals")
    )
    # one die against one: hits on 6 - 1 only when the attacker's die is the higher
    dist = combat.colour_distribution(1, 1, "totals")
    assert dist[0] == Fraction(21, 36) and dist[5] == Fraction(1, 36)
    assert sum(dist) == 1


@pytest.mark.parametrize(
    ("att", "block"), [((2, 1, 0), (1, 0, 1)), ((1, 1, 1), (1, 1, 0)), ((3, 0, 0), (2, 0, 0))]
)
def test_missile_distribution_is_every_roll_of_the_resolve_function(
    att: tuple[int, int, int], block: tuple[int, int, int]
) -> None:
    dist = combat.missile_distribution(att, block)
    assert sum(dist.values()) == 1
    counted = enumerate_rolls(
        sum(att) + sum(block), lambda r: combat.resolve_missile(att, block, r)
    )
    assert as_fractions(counted) == dist


def test_missile_distribution_matches_a_monte_carlo_of_a_big_split() -> None:
    att, block = (5, 3, 2), (4, 2, 2)
    dist = combat.missile_distribution(att, block)
    assert sum(dist.values()) == 1
    roll = seeded(2024)
    n = 20_000
    counted = Counter(combat.resolve_missile(att, block, roll) for _ in range(n))
    for hits, p in dist.items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(counted[hits] / n - float(p)) <= 5 * sigma + 1e-4, hits
    assert set(counted) <= set(dist)


def test_colour_distribution_agrees_with_the_rule_for_one_die_each() -> None:
    # 4+ scores, 4+ blocks: a hit only when the attack die scores and the block die fails.
    assert combat.colour_distribution(1, 1, "successes") == (Fraction(3, 4), Fraction(1, 4))


def test_a_wing_pair_doubles_the_dice() -> None:
    for attack in range(1, 7):
        for modifier in (-1, 0, 1):
            single = combat.missile_dice(attack, modifier)
            assert combat.missile_dice(attack, modifier, wing=True) == 2 * single


def test_missile_dice_come_from_the_modified_attack_value_and_never_go_negative() -> None:
    data = combat.combat_data().missile
    per = data.successes.attack_dice_per_point
    assert combat.missile_dice(3, scoring="successes") == 3 * per
    assert combat.missile_dice(3, -1, scoring="successes") == 2 * per
    assert combat.missile_dice(3, 1, scoring="successes") == 4 * per  # a beacon, say
    assert combat.missile_dice(1, -4, scoring="successes") == 0
    assert combat.block_dice(2, "successes") == 2 * data.successes.defence_dice_per_point
    # totals (the default): a die per 2 attack points (part points up); one block die and
    # one more per 2 full points of defence
    assert (data.totals.attack_points_per_die, data.totals.defence_points_per_die) == (2, 2)
    assert [combat.missile_dice(a) for a in (1, 2, 3, 4, 5)] == [1, 1, 2, 2, 3]
    assert combat.missile_dice(3, 1) == 2 and combat.missile_dice(1, -4) == 0
    assert data.totals.defence_base_dice == 1
    assert [combat.block_dice(d) for d in range(7)] == [0, 1, 2, 2, 3, 3, 4]


def test_splits_are_every_division_among_three_colours() -> None:
    assert len(combat.splits(12)) == 91
    assert len(set(combat.splits(12))) == 91
    assert all(sum(s) == 12 and min(s) >= 0 for s in combat.splits(12))
    assert combat.splits(0) == [(0, 0, 0)]


def _assert_equilibrium(att: int, dfn: int, value: Callable[[tuple[int, int, int]], float]) -> None:
    """Neither side gains by switching to any pure split."""
    payoff = combat.missile_payoffs(att, dfn, value)
    game = combat.missile_game(att, dfn, value)
    assert len(game.row) == len(combat.splits(att))
    assert len(game.column) == len(combat.splits(dfn))
    for j in range(len(game.column)):  # the attacker's mix against each pure block
        assert sum(p * payoff[i][j] for i, p in enumerate(game.row)) >= game.value - 1e-6
    for i in range(len(game.row)):  # the defender's mix against each pure split
        assert sum(q * payoff[i][j] for j, q in enumerate(game.column)) <= game.value + 1e-6


def test_the_equilibrium_of_the_total_hits_game_gains_nothing_from_a_pure_deviation() -> None:
    _assert_equilibrium(6, 4, combat.total_hits)
    _assert_equilibrium(8, 8, combat.total_hits)


def test_the_equilibrium_of_a_weighted_game_gains_nothing_from_a_pure_deviation() -> None:
    def worn(hits: tuple[int, int, int]) -> float:  # heart hits are what kill
        s, c, h = hits
        return min(s, 3) + 2 * min(c, 2) + 6 * min(h, 1)

    _assert_equilibrium(6, 6, worn)


def test_the_total_hits_payoff_is_the_sum_of_the_colours_expected_hits() -> None:
    payoff = combat.missile_payoffs(4, 3)
    for i, att in enumerate(combat.splits(4)):
        for j, block in enumerate(combat.splits(3)):
            exact = sum(
                (sum(hits) * p for hits, p in combat.missile_distribution(att, block).items()),
                Fraction(0),
            )
            assert payoff[i][j] == pytest.approx(float(exact))


def test_a_twelve_dice_game_is_solved() -> None:
    game = combat.missile_game(12, 12)
    assert len(game.row) == len(game.column) == 91
    assert sum(game.row) == pytest.approx(1.0)
    assert game.value > 0


# -- photon (5.3 Photon Fire) --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("attack", "error", "modifier"),
    [(4, 0.0, 0), (5, 1.75, 0), (3, 0.5, 1), (5, 0.0, 4), (2, 1.0, 0)],
)
def test_photon_distribution_is_every_roll_of_the_resolve_function(
    attack: int, error: float, modifier: int
) -> None:
    dist = combat.photon_distribution(attack, error, modifier)
    assert sum(dist.values()) == 1
    counted = enumerate_rolls(
        2, lambda roll: combat.resolve_photon(attack, error, roll, modifier).hits
    )
    assert as_fractions(counted) == dist


def test_photon_does_not_depend_on_the_defence() -> None:
    for fn in (combat.resolve_photon, combat.photon_distribution, combat.photon_at_range):
        assert not any("def" in name for name in inspect.signature(fn).parameters)
    # the same shot against the light and the heavy: one distribution, nothing else to ask
    assert combat.photon_distribution(4) == combat.photon_distribution(4, 0, 0)


def test_a_one_and_three_quarter_inch_error_fires_on_the_column_three_lower() -> None:
    assert combat.photon_distribution(5, 1.75) == combat.photon_distribution(2)
    assert combat.photon_distribution(5, 0.5) == combat.photon_distribution(5)
    assert combat.resolve_photon(5, 1.75, scripted([6, 6])).effective == 2


def test_photon_above_the_last_column_uses_it_and_nothing_below_one() -> None:
    last = max(combat.combat_data().photon.columns)
    assert combat.photon_distribution(last + 3) == combat.photon_distribution(last)
    assert combat.photon_distribution(2, 1.5) == {0: Fraction(1)}
    result = combat.resolve_photon(2, 1.5, scripted([]))  # no dice rolled
    assert result.hits == 0 and not result.disaster


def test_missing_by_too_much_is_a_disaster_of_feedback_hits_and_rolls_nothing() -> None:
    spec = combat.combat_data().photon.disaster
    assert not combat.photon_disaster(spec.from_error - 0.25)
    assert combat.photon_disaster(spec.from_error)
    result = combat.resolve_photon(7, spec.from_error, scripted([]))
    assert result.disaster and result.hits == 0
    assert result.feedback_hits == spec.feedback_hits > 0
    assert combat.photon_distribution(7, spec.from_error) == {0: Fraction(1)}


def test_photon_can_strike_big_where_kinetic_cannot() -> None:
    big = max(combat.photon_distribution(5))
    assert big > max(max(c) for c in combat.combat_data().kinetic.columns.values())


# -- the estimate model (5.3, stand-in) ---------------------------------------------------------
def test_the_estimate_spread_grows_with_range() -> None:
    sigmas = [combat.estimate_sigma(r) for r in (3.0, 6.0, 12.0, 24.0)]
    assert sigmas == sorted(sigmas) and len(set(sigmas)) == 4
    rng = random.Random(5)
    spreads = []
    for r in (3.0, 6.0, 12.0, 24.0):
        guesses = [combat.photon_estimate(r, rng) for _ in range(4000)]
        spreads.append(statistics.pstdev(guesses))
        assert statistics.median(guesses) == pytest.approx(r, abs=0.25 + r * 0.02)
    assert spreads == sorted(spreads)
    assert spreads[-1] > 4 * spreads[1]


def test_an_estimate_is_written_to_the_quarter_inch() -> None:
    rng = random.Random(9)
    for _ in range(200):
        guess = combat.photon_estimate(13.37, rng)
        assert guess * 4 == int(guess * 4)


def test_the_estimate_distribution_is_the_sampled_model() -> None:
    chances = combat.estimate_distribution(12.0)
    assert sum(p for _, p in chances) == pytest.approx(1.0)
    rng = random.Random(3)
    n = 20_000
    counted = Counter(combat.photon_estimate(12.0, rng) for _ in range(n))
    for guess, p in chances:
        assert abs(counted[guess] / n - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-4


def test_photon_at_range_folds_the_estimate_into_the_table() -> None:
    close, far = combat.photon_at_range(4, 3.0), combat.photon_at_range(4, 24.0)
    assert sum(close.hits.values()) == pytest.approx(1.0)
    assert sum(far.hits.values()) == pytest.approx(1.0)
    assert close.expected > far.expected
    assert close.disaster < 1e-6 < far.disaster


# -- sudden death (1.6) --------------------------------------------------------------------------
def test_sudden_death_threshold_falls_with_more_b_hits() -> None:
    thresholds = [combat.sudden_death_threshold(b) for b in (1, 2, 3, 4, 9)]
    assert thresholds == sorted(thresholds, reverse=True)  # type: ignore[type-var]
    chances = [combat.sudden_death_chance(b) for b in (0, 1, 2, 3)]
    assert chances[0] == 0 and chances == sorted(chances)


def test_sudden_death_is_a_2d6_roll_at_the_threshold() -> None:
    threshold = combat.sudden_death_threshold(1)
    assert threshold is not None

    def pair(total: int) -> list[int]:  # two dice showing ``total``
        first = min(6, total - 1)
        return [first, total - first]

    assert not combat.sudden_death(1, scripted(pair(threshold - 1)))
    assert combat.sudden_death(1, scripted(pair(threshold)))
    assert not combat.sudden_death(0, scripted([]))  # no B hits: no roll


def test_sudden_death_chance_is_every_roll_of_the_roll() -> None:
    for b in (1, 2, 3):
        counted = enumerate_rolls(2, lambda roll, b=b: combat.sudden_death(b, roll))
        assert as_fractions(counted).get(True, Fraction(0)) == combat.sudden_death_chance(b)
