"""Invisible Enemy charts (2.0, 3.0, 4.0, 4.5, 5.0-5.3, 6.0, 7.0): every worked example of the
text as a test, every stand-in table saying why, and every exact distribution against the
resolve function it describes (all rolls played through scripted dice)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest
from pydantic import ValidationError

from warbench.core.dice import ScriptedDice
from warbench.rulesets.invisible_enemy import charts
from warbench.rulesets.invisible_enemy.data import rules

Roll = Callable[[str, int], tuple[int, ...]]


def scripted(values: list[int] | tuple[int, ...], log: list[str] | None = None) -> Roll:
    """A roll callable over scripted dice (raises DiceExhausted if asked for more)."""
    dice = ScriptedDice(values)

    def roll(purpose: str, n: int) -> tuple[int, ...]:
        if log is not None:
            log.append(purpose)
        return dice.roll(n)

    return roll


def never(purpose: str, n: int) -> tuple[int, ...]:
    raise AssertionError(f"rolled for {purpose}")


def enumerate_rolls(n_dice: int, resolve: Callable[[Roll], object]) -> dict[object, Fraction]:
    """Play ``resolve`` once for every sequence of ``n_dice`` faces: the exact chances."""
    counts: Counter[object] = Counter()
    for faces in product(range(1, 7), repeat=n_dice):
        counts[resolve(scripted(faces))] += 1
    return {k: Fraction(v, 6**n_dice) for k, v in counts.items()}


# -- the data -------------------------------------------------------------------------------
def test_every_table_says_whether_it_is_a_stand_in_and_why() -> None:
    tables = charts.charts().tables()
    assert all(len(t.reason) > 40 for t in tables.values())
    stand_ins = {name for name, t in tables.items() if t.stand_in}
    assert stand_ins == {
        "control",
        "area",
        "direct",
        "self_destruct",
        "engineering",
        "tech.nations",
        "tech.network_range",
    }
    # the text prints these (2.0, 5.1, 4.5): they are not ours
    assert not tables["network"].stand_in and not tables["actions"].stand_in
    assert not tables["direct.modifiers"].stand_in and not tables["tech"].stand_in


def test_a_stand_in_without_a_reason_is_refused() -> None:
    good = charts.charts().control.model_dump()
    with pytest.raises(ValidationError):
        charts.Control.model_validate(dict(good, reason=""))


def test_a_control_table_easier_at_lower_status_is_refused() -> None:
    good = charts.charts().control.model_dump()
    with pytest.raises(ValidationError, match="more easily"):
        charts.Control.model_validate(dict(good, move_on={100: 2, 75: 3, 50: 2, 25: 5}))


def test_a_k_row_worse_than_the_cp_row_is_refused() -> None:
    good = charts.charts().direct.model_dump()
    with pytest.raises(ValidationError, match="massed battery"):
        charts.Direct.model_validate(dict(good, k=good["cp"], cp=good["k"]))


# -- 2.0 Network Combat ---------------------------------------------------------------------
def test_network_combat_worked_example_of_2_0() -> None:
    """2.0 Network Status Example: A's eight dice against B's seven; A 4 points, B 2."""
    a, b = (6, 6, 5, 4, 4, 3, 1, 1), (6, 5, 5, 5, 3, 2, 2)
    result = charts.network_combat(a, b)
    assert [p.winner for p in result.pairs] == ["none", "A", "none", "B", "A", "A", "B", "A"]
    assert result.points == (4, 2)
    assert result.disqualified_a == (6, 5, 4, 1)
    assert result.disqualified_b == (6, 5, 5, 3, 2)
    # the text's dice in any order (they are sorted first)
    assert charts.network_combat(a[::-1], b[3:] + b[:3]).points == (4, 2)


def test_network_combat_rolls_the_pools_a_first() -> None:
    """2.0: each side rolls all of its available network dice."""
    log: list[str] = []
    faces = [1, 4, 6, 3, 5, 4, 6, 2, 2, 6, 5, 5, 5]
    result = charts.roll_network(8, 5, scripted(faces, log))
    assert log == ["network dice A", "network dice B"]
    assert result.points == charts.network_combat(faces[:8], faces[8:]).points


def test_network_unopposed_dice_survive_and_an_empty_pool_scores_nothing() -> None:
    """2.0: dice with no opposing numbers survive, whatever their face."""
    assert charts.network_combat((1, 1, 1), ()).points == (3, 0)
    assert charts.network_combat((), ()).points == (0, 0)
    assert charts.roll_network(0, 2, scripted([1, 1])).points == (0, 2)


def test_network_dice_must_be_faces() -> None:
    with pytest.raises(ValueError, match="1D6"):
        charts.network_combat((7,), (1,))


@pytest.mark.parametrize(("n_a", "n_b"), [(a, b) for a in range(4) for b in range(4)])
def test_network_distribution_is_the_enumeration_of_network_combat(n_a: int, n_b: int) -> None:
    """2.0: the exact joint distribution agrees with every roll of both pools."""
    got = charts.network_distribution(n_a, n_b)
    assert sum(got.values()) == 1
    assert got == enumerate_rolls(n_a + n_b, lambda r: charts.roll_network(n_a, n_b, r).points)


def test_network_distribution_of_the_texts_pools() -> None:
    """2.0: A's 8 dice against B's 7: A always has at least its one unopposed die."""
    dist = charts.network_distribution(8, 7)
    assert sum(dist.values()) == 1
    assert dist[(4, 2)] > 0
    assert all(a >= 1 and a + b <= 8 for a, b in dist)


def test_network_distribution_is_fast_up_to_the_cap_and_refused_beyond() -> None:
    cap = charts.charts().network.max_dice
    charts.network_distribution.cache_clear()
    start = time.perf_counter()
    dist = charts.network_distribution(cap, cap - 1)
    assert time.perf_counter() - start < 5
    assert sum(dist.values()) == 1
    with pytest.raises(ValueError, match="network dice"):
        charts.network_distribution(cap + 1, 1)
    with pytest.raises(ValueError, match="network dice"):
        charts.network_distribution(1, -1)


def test_tactical_action_costs_as_2_0_lists_them() -> None:
    """2.0 Tactical Actions: 1, 2, 2, 3, 5, 8 and 3 action points."""
    assert list(charts.action_costs().items()) == [
        ("automatic_move", 1),
        ("type1_barrage", 2),
        ("barrage_deflection", 2),
        ("suppress_25", 3),
        ("suppress_50", 5),
        ("suppress_75", 8),
        ("enemy_loses_die", 3),
    ]


# -- 4.0 Control ------------------------------------------------------------------------------
@pytest.mark.parametrize("face", range(1, 7))
def test_control_at_100_percent_moves_on_2_to_6(face: int) -> None:
    """4.0 example 1: 100% network status moves on 2 through 6 (83%)."""
    assert charts.control(100, False, scripted([face])) is (face >= 2)
    assert charts.control_chance(100) == Fraction(5, 6)
    assert charts.control_chance(100, has_network_mgv=True) == Fraction(5, 6)


@pytest.mark.parametrize("face", range(1, 7))
def test_control_at_50_percent_moves_on_4_to_6_and_3_to_6_with_a_network_mgv(face: int) -> None:
    """4.0 example 2: 50% moves on 4-6; with a network MGV within range on 3-6."""
    assert charts.control(50, False, scripted([face])) is (face >= 4)
    assert charts.control(50, True, scripted([face])) is (face >= 3)


def test_control_with_an_automatic_move_marker_needs_no_roll() -> None:
    """4.0 example 2, 2.0 Automatic Move: however low the status, no roll."""
    for status in charts.STATUSES:
        assert charts.control(status, False, never, automatic=True)
        assert charts.control_chance(status, automatic=True) == 1


def test_control_falls_with_the_status_and_stops_at_25_percent() -> None:
    """4.0: the status is 100, 75, 50 or 25% (stand-in steps between the text's entries)."""
    needs = [charts.control_needs(s) for s in charts.STATUSES]
    assert needs == sorted(needs) and needs[0] == 2 and needs[2] == 4
    assert charts.control_needs(0) == charts.control_needs(25)
    with pytest.raises(ValueError, match="status"):
        charts.control_needs(60)


@pytest.mark.parametrize("status", charts.STATUSES)
@pytest.mark.parametrize("mgv", [False, True])
def test_control_chance_is_the_enumeration_of_control(status: int, mgv: bool) -> None:
    got = enumerate_rolls(1, lambda r: charts.control(status, mgv, r))
    assert got.get(True, Fraction(0)) == charts.control_chance(status, mgv)


# -- 3.0 Area Weapons -----------------------------------------------------------------------
@pytest.mark.parametrize(("dice", "destroyed"), [((4, 6), True), ((5, 5), True), ((4, 5), False)])
def test_area_weapon_def_3_destroyed_on_10_and_a_9_does_nothing(
    dice: tuple[int, int], destroyed: bool
) -> None:
    """3.0 Phase 6 example: a defence 3 base alone (no flank support, +1), 4 and 6 make
    10: destroyed; 9 or less: nothing. The stand-in is 8 + the defence before the +1."""
    assert charts.area_weapon(3, scripted(dice), no_flank_support=True) is destroyed
    assert charts.area_needs(3) == 11


@pytest.mark.parametrize("total", range(2, 13))
def test_area_weapon_fungus_tower_destroyed_on_11_or_12(total: int) -> None:
    """1.5 chart note 2: a fungus tower falls to a barrage only on 11 or 12: defence 4,
    8 + 4 = 12, and a tower has no flanking friend (+1), with no special case."""
    dice = (max(1, total - 6), total - max(1, total - 6))
    assert charts.area_weapon("fungus tower", scripted(dice)) is (total >= 11)
    assert charts.area_needs("fungus tower") == charts.area_needs(4, no_flank_support=True)
    assert charts.charts().area.fungus_tower_defence == rules().data.fungus.defence


def test_area_weapon_modifiers_of_3_0() -> None:
    """3.0: +1 with no flank support, -1 deflected; a tower never has a flanking friend."""
    assert charts.area_weapon(3, scripted([4, 6]), no_flank_support=True)
    assert not charts.area_weapon(3, scripted([5, 5]), deflected=True)
    assert charts.area_needs(3, True, True) == 11
    assert charts.area_needs("fungus tower", no_flank_support=False) == 11
    with pytest.raises(ValueError, match="barrage target"):
        charts.area_needs(0)


@pytest.mark.parametrize("target", [1, 2, 3, 4, 5, 6, 9, "fungus tower"])
@pytest.mark.parametrize(("flank", "deflected"), [(False, False), (True, False), (False, True)])
def test_area_chance_is_the_enumeration_of_area_weapon(
    target: charts.Target, flank: bool, deflected: bool
) -> None:
    got = enumerate_rolls(2, lambda r: charts.area_weapon(target, r, flank, deflected))
    assert got.get(True, Fraction(0)) == charts.area_chance(target, flank, deflected)


# -- 5.0 Direct fire ------------------------------------------------------------------------
def test_direct_fire_is_1d6_plus_the_row_modifier_a_positive_result_is_hits() -> None:
    """5.0: cross-reference attack vs defence, K row for kinetic, C/P row otherwise, add 1D6;
    a positive final result is that many hull hits, zero or less none."""
    k = charts.chart_modifier(5, 3, "K")
    assert charts.direct_fire(5, 3, "K", "none", False, scripted([4])) == 4 + k
    cp = charts.chart_modifier(5, 3, "C")
    assert cp == charts.chart_modifier(5, 3, "P") < k
    assert charts.direct_fire(5, 3, "P", "none", False, scripted([4])) == 4 + cp
    assert charts.direct_fire(1, 8, "K", "none", False, scripted([6])) == 0


def test_direct_fire_modifiers_of_5_1() -> None:
    """5.1: -2 firer 1/3 damaged, -4 firer 2/3 damaged, -3 target behind 50% cover."""
    base = charts.direct_fire(8, 2, "K", "none", False, scripted([6]))
    assert charts.direct_fire(8, 2, "K", "1/3", False, scripted([6])) == base - 2
    assert charts.direct_fire(8, 2, "K", "2/3", False, scripted([6])) == base - 4
    assert charts.direct_fire(8, 2, "K", "none", True, scripted([6])) == base - 3
    assert charts.direct_fire(8, 2, "K", "2/3", True, scripted([6])) == base - 7


def test_damage_band_of_5_1() -> None:
    """5.1: 1/3 or more of the hull marked is 1/3 damaged, 2/3 or more 2/3 damaged."""
    assert [charts.damage_band(h, 9) for h in (0, 2, 3, 5, 6, 9)] == [
        "none",
        "none",
        "1/3",
        "1/3",
        "2/3",
        "2/3",
    ]
    with pytest.raises(ValueError):
        charts.damage_band(10, 9)


def test_massed_c_battery_uses_the_k_row() -> None:
    """5.3 Type C Massed Battery: three or more C bases on one target use the K row."""
    assert charts.chart_modifier(4, 4, "C", massed=True) == charts.chart_modifier(4, 4, "K")
    with pytest.raises(ValueError, match="massed"):
        charts.chart_modifier(4, 4, "K", massed=True)


def test_chart_clamps_to_its_columns() -> None:
    assert charts.chart_modifier(40, 1, "K") == charts.chart_modifier(7, 1, "K")
    assert charts.chart_modifier(0, 30, "C") == charts.chart_modifier(0, 6, "C")


@pytest.mark.parametrize(("attack", "defence"), [(4, 4), (7, 2), (1, 6), (0, 12)])
@pytest.mark.parametrize("weapon", charts.WEAPONS)
@pytest.mark.parametrize("damage", charts.DAMAGES)
@pytest.mark.parametrize("cover", [False, True])
def test_direct_distribution_is_the_enumeration_of_direct_fire(
    attack: int, defence: int, weapon: charts.Weapon, damage: charts.Damage, cover: bool
) -> None:
    got = charts.direct_distribution(attack, defence, weapon, damage, cover)
    assert sum(got.values()) == 1
    assert got == enumerate_rolls(
        1, lambda r: charts.direct_fire(attack, defence, weapon, damage, cover, r)
    )


# -- 6.0 Self destruct ----------------------------------------------------------------------
def test_self_destruct_crosses_speed_and_defence_for_an_attack_and_a_range() -> None:
    """6.0: the Self Destruct table gives an attack value and a range (stand-in)."""
    slow, fast = charts.self_destruct(3, 3), charts.self_destruct(8, 3)
    assert fast.attack > slow.attack and fast.range > slow.range
    assert charts.self_destruct(3, 5).attack > slow.attack
    assert charts.self_destruct(3, 5).range == slow.range
    assert all(charts.self_destruct(s, 3).range < 3 for s in range(0, 20))  # under a barrage


def test_self_destruct_attack_is_direct_fire_on_the_k_row_without_firer_damage() -> None:
    """6.0: resolved like direct fire."""
    blast = charts.self_destruct(5, 3)
    for face in range(1, 7):
        hits = charts.self_destruct_attack(5, 3, 2, False, scripted([face]))
        assert hits == charts.direct_fire(blast.attack, 2, "K", "none", False, scripted([face]))
    got = enumerate_rolls(1, lambda r: charts.self_destruct_attack(5, 3, 2, True, r))
    assert got == charts.self_destruct_distribution(5, 3, 2, cover=True)


# -- 7.0 Engineering ------------------------------------------------------------------------
def test_engineering_table_has_every_mission_and_the_texts_actions() -> None:
    """7.0, 1.3, 4.4 Tow: repair, clearing, MEK-Lok, strike payloads, tow attachments."""
    keys = {a.key for a in charts.engineering_actions()}
    assert {"repair", "clear-encrypted", "clear-minefield", "build-mek-lok"} <= keys
    assert {"deliver-payload", "tow-immobilised", "tow-enemy"} <= keys
    for mission in charts.MISSIONS:
        assert charts.engineering_actions(mission)


def test_engineering_auto_needs_no_roll_and_a_roll_meets_its_number() -> None:
    """7.0: some actions occur automatically ("auto"); others need the die roll shown."""
    assert charts.engineering("build-mek-lok", "E", never)
    needs = charts.engineering_action("repair").needs
    assert isinstance(needs, int)
    assert charts.engineering("repair", "R", scripted([needs]))
    assert not charts.engineering("repair", "R", scripted([needs - 1]))
    got = enumerate_rolls(1, lambda r: charts.engineering("repair", "R", r))
    assert got[True] == charts.engineering_chance("repair")


def test_an_engineer_is_held_to_its_mission() -> None:
    """1.3, 7.0: an engineer tasked with one mission may not conduct another's actions."""
    with pytest.raises(ValueError, match="may not"):
        charts.engineering("repair", "E", never)
    with pytest.raises(ValueError, match="no engineering action"):
        charts.engineering_action("teleport")


# -- 4.5 Base intervals, tech levels, network range -----------------------------------------
def test_base_interval_by_tech_level_of_4_5() -> None:
    """4.5 Maximum Base Interval: tech 1 to 4: 5", 5 to 8: 7", 9+: 9"."""
    assert [charts.base_interval(t) for t in (1, 4, 5, 8, 9, 12)] == [5, 5, 7, 7, 9, 9]
    with pytest.raises(ValueError):
        charts.base_interval(0)


def test_network_range_and_nation_tech_levels_are_stand_ins() -> None:
    assert charts.network_range(9) == charts.base_interval(9)
    assert charts.nation_tech("california") >= 9
    assert {
        charts.base_interval(charts.nation_tech(n)) for n in charts.charts().tech.nations.levels
    } == {5, 7, 9}
    with pytest.raises(ValueError, match="nations"):
        charts.nation_tech("atlantis")
