"""Attack, armour and skill arithmetic as pure functions, shared by rules, odds and bots.

The rules roll with :func:`attack_needs` / :func:`save_needs`; the odds command
and the greedy bot use the exact fractions below, computed from the same numbers.

>>> from warbench.rulesets.vsgmr.data import rules
>>> r = rules()
>>> attack_needs(r, "troop", hand=False, cover=False)
(5, 0)
>>> chance_at_least(5, 0)
Fraction(1, 3)
>>> chance_at_least(5, 0, dice=2)   # automatic fire: 1 - (4/6)^2
Fraction(5, 9)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from warbench.rulesets.vsgmr.data import Armour, FigureType, Rules

SIDES = 6


def chance_at_least(need: int, bonus: int, dice: int = 1) -> Fraction:
    """P(the highest of ``dice`` d6, plus ``bonus``, is ``need`` or more)."""
    face = need - bonus  # the lowest face that succeeds
    if face <= 1:
        return Fraction(1)
    if face > SIDES:
        return Fraction(0)
    fail = Fraction(face - 1, SIDES)
    return 1 - fail**dice


def attack_needs(rules: Rules, attacker: FigureType, *, hand: bool, cover: bool) -> tuple[int, int]:
    """(the result needed, the attacker's bonus): II.3 distance, II.4 hand to hand.

    Hand to hand ignores cover (II.4: the target cannot use the cover rule).
    """
    need = rules.hand_to_hit if hand else rules.to_hit_cover if cover else rules.to_hit
    return need, rules.attack_bonus[attacker]


def save_needs(rules: Rules, target: FigureType, armour: Armour) -> tuple[int, int] | None:
    """(the result that cancels the hit, the target's bonus), or None without armour."""
    if armour == "none":
        return None
    bonus = rules.vehicle_armour_bonus if target == "vehicle" else 0
    return rules.armour_save[armour], bonus


def keep(dice: tuple[int, ...]) -> int:
    """AUTOMATIC FIRE: the higher die counts (before the +1 of heroes and vehicles)."""
    return max(dice)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """The three outcomes of an attack (II.3 and III): missed, saved by armour, hit."""

    miss: Fraction
    saved: Fraction
    hit: Fraction

    def as_dict(self) -> dict[str, Fraction]:
        return {"miss": self.miss, "saved": self.saved, "hit": self.hit}


def attack_odds(
    rules: Rules,
    attacker: FigureType,
    target: FigureType,
    *,
    hand: bool,
    cover: bool,
    auto: bool,
    armour: Armour,
) -> AttackOdds:
    """Exact odds of one attack on a figure."""
    need, bonus = attack_needs(rules, attacker, hand=hand, cover=cover)
    dice = rules.auto_dice if auto and not hand else 1
    p_hit = chance_at_least(need, bonus, dice)
    save = save_needs(rules, target, armour)
    p_save = chance_at_least(*save) if save else Fraction(0)
    return AttackOdds(1 - p_hit, p_hit * p_save, p_hit * (1 - p_save))


def terrain_attack_odds(
    rules: Rules, attacker: FigureType, *, hand: bool, auto: bool
) -> AttackOdds:
    """III: a building or feature is never in cover and saves on 3 or more."""
    need, bonus = attack_needs(rules, attacker, hand=hand, cover=False)
    dice = rules.auto_dice if auto and not hand else 1
    p_hit = chance_at_least(need, bonus, dice)
    p_save = chance_at_least(rules.terrain_save, 0)
    return AttackOdds(1 - p_hit, p_hit * p_save, p_hit * (1 - p_save))


def skill_chance(rules: Rules, hero: bool, specific: bool) -> Fraction:
    """II.5: 4+ on one die, heroes +1, a figure's own skill +1 (Specific Skills)."""
    bonus = (rules.skill_hero_bonus if hero else 0) + (
        rules.skill_specific_bonus if specific else 0
    )
    return chance_at_least(rules.skill_target, bonus)


def dispute_chance(rules: Rules, on: int) -> Fraction:
    """A dispute roll succeeds on ``on`` or more (II.3: 4-6)."""
    return chance_at_least(on, 0)
