"""``warbench odds vsgmr distance|hand ...``: exact odds of one attack on a figure.

Outcomes: ``miss`` (the attack roll fails), ``saved`` (a hit cancelled by the
armour roll) and ``hit`` (the target is defeated). Also explains the odds of a
concrete attack or skill roll in a game, from the same functions the rules use.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from warbench.core.actions import Action
from warbench.core.odds import OddsKey, OddsQuery, OddsResult
from warbench.errors import OddsError
from warbench.rulesets.vsgmr import attacks, combat
from warbench.rulesets.vsgmr.actions import Fight, Shoot, Skill
from warbench.rulesets.vsgmr.data import ARMOURS, FIGURE_TYPES, rules
from warbench.rulesets.vsgmr.state import State

if TYPE_CHECKING:
    from warbench.rulesets.vsgmr.rules import VSGMRRules as VSGMR


def _attack(values: Mapping[str, Any], hand: bool) -> OddsResult:
    if hand and values["cover"]:
        raise OddsError("hand to hand: the target is never in cover (II.4)")
    if hand and values["auto"]:
        raise OddsError("automatic fire is not allowed hand to hand (II.4)")
    result = combat.attack_odds(
        rules(),
        values["attacker"],
        values["target"],
        hand=hand,
        cover=values["cover"],
        auto=values["auto"],
        armour=values["armour"],
    )
    return OddsResult(result.as_dict())


def distance_odds(values: Mapping[str, Any]) -> OddsResult:
    return _attack(values, hand=False)


def hand_odds(values: Mapping[str, Any]) -> OddsResult:
    return _attack(values, hand=True)


_KEYS = (
    OddsKey("attacker", "choice", "troop", "the attacking figure's type", FIGURE_TYPES),
    OddsKey("target", "choice", "troop", "the target's type", FIGURE_TYPES),
    OddsKey("cover", "bool", False, "the target is at least half blocked by terrain"),
    OddsKey("auto", "bool", False, "automatic fire: two dice, the higher counts"),
    OddsKey("armour", "choice", "none", "the target's armour", ARMOURS),
)
QUERIES: dict[str, OddsQuery] = {
    "distance": OddsQuery(
        "distance",
        "one die, 5+ to hit (6+ in cover), heroes and vehicles +1; then the armour roll",
        _KEYS,
        distance_odds,
    ),
    "hand": OddsQuery(
        "hand",
        "one die, 4+ to hit, heroes and vehicles +1, no cover; then the armour roll",
        _KEYS,
        hand_odds,
    ),
}


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}% ({p})"


Explained = tuple[str, OddsResult | None]
"""An action's odds in words and as data, from one computation; the data is None
when the action cannot be taken now (the words say why)."""


def explain_action(rules_: VSGMR, state: State, side: str, action: Action) -> str | None:
    """The exact odds of an attack or a skill roll in the current state, in words."""
    explained = assess_action(rules_, state, side, action)
    return None if explained is None else explained[0]


def action_result(rules_: VSGMR, state: State, side: str, action: Action) -> OddsResult | None:
    """The same odds as data: ``miss``/``saved``/``hit`` for an attack (``hit``: the
    figure defeated or the feature destroyed), ``success``/``failure`` for a skill roll."""
    explained = assess_action(rules_, state, side, action)
    return None if explained is None else explained[1]


def assess_action(rules_: VSGMR, state: State, side: str, action: Action) -> Explained | None:
    """The odds of an attack or a skill roll now, as data and in words; None if the
    action rolls nothing."""
    if isinstance(action, Shoot | Fight):
        fig = state.figs.get(action.figure)
        if fig is None:
            return None
        hand = isinstance(action, Fight)
        sit = rules_.situation(state, fig, action.target, hand)
        if isinstance(sit, str):
            return f"{action}: not possible ({sit})", None
        result = OddsResult(attacks.odds(state, sit).as_dict())
        notes = []
        if sit.cover and not hand:
            notes.append("rider on its mount: covered" if sit.rider else "target in cover")
        if sit.cover_dispute:
            notes.append("cover disputed: a die decides (4-6 covered)")
        if sit.see_dispute:
            notes.append("sight disputed: a die decides (4-6 sees)")
        if fig.profile.auto and not hand:
            notes.append("automatic fire")
        note = f" ({'; '.join(notes)})" if notes else ""
        effect = "destroyed" if sit.feature else "defeated"
        o = result.outcomes
        text = (
            f"{action}{note}: miss {_pct(o['miss'])}, saved {_pct(o['saved'])}, "
            f"{effect} {_pct(o['hit'])}"
        )
        return text, result
    if isinstance(action, Skill):
        fig = state.figs.get(action.figure)
        task = state.setup.task(action.task)
        if fig is None or task is None:
            return None
        problem = rules_.skill_problem(state, fig, task)
        if problem:
            return f"{action}: not possible ({problem})", None
        p = rules_.skill_chance(state, fig, task)
        result = OddsResult({"success": p, "failure": 1 - p})
        text = f"{action}: 4+ on one die (heroes +1): success {_pct(result.outcomes['success'])}"
        return text, result
    return None
