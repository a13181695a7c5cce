"""The odds of an MGV action in words, for ``odds`` at the play prompt (and the bots' seats),
and as data (``Ruleset.odds_result``), both from one computation (:func:`assess_action`).

A fire declaration lists each attack's exact chances of hits with the
modifiers that apply. Nothing here ever names a distance: the photon line
gives the odds for a perfect guess and for the model's typical error, so the
prompt cannot be used as a tape measure (5.3); nor does a range guess have odds.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from warbench.core.actions import Action
from warbench.core.odds import OddsResult, combined
from warbench.errors import IllegalAction
from warbench.rulesets.mgv import combat, fire
from warbench.rulesets.mgv.actions import FireOrder
from warbench.rulesets.mgv.odds import MAX_GAME_DICE, missile_equilibrium
from warbench.rulesets.mgv.state import Attack, State


def _dist(dist: Mapping[int, Fraction]) -> str:
    mean = float(sum(k * p for k, p in dist.items()))
    parts = ", ".join(f"{k}: {float(p):.0%}" for k, p in sorted(dist.items()) if p)
    return f"mean {mean:.2f} ({parts})"


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def _attack(state: State, attack: Attack) -> tuple[str, dict[int, Fraction] | None]:
    """One declared attack in words, and its chances of each number of hits (None for a
    missile attack too big for the equilibrium)."""
    shooter = state.bases[attack.shooters[0]]
    target = state.bases[attack.target]
    value = shooter.mounts[attack.slot].attack
    head = f"{attack.label()} {attack.weapon} at {target.id}"
    if attack.weapon == "kinetic":
        from warbench.rulesets.mgv.space import range_to

        mods = fire.modifiers(state, attack)
        band = combat.range_shift(range_to(shooter, target))
        dist = combat.kinetic_distribution(value, target.defence, mods.total() + band)
        return f"{head}: hits {_dist(dist)}", dist
    if attack.weapon == "photon":
        mods = fire.modifiers(state, attack)
        dist = combat.photon_distribution(value, 0, mods.total(ranging=False))
        text = f"{head}: with a guess within 1/2in, hits {_dist(dist)}; -1 per further 1/2in"
        return text, dist
    own, theirs = fire.missile_dice(state, attack)
    text = f"{head}: {own} attack dice against {theirs} block dice, split sealed (5.2)"
    if max(own, theirs) > MAX_GAME_DICE:
        return f"{text}; see 'warbench odds mgv missile'", None
    game = missile_equilibrium(own, theirs)
    dist = {int(k.split()[0]): p for k, p in game.outcomes.items()}
    return f"{text}; both splitting at the equilibrium, hits {_dist(dist)}", dist


def explain_action(state: State, side: str, action: Action) -> str | None:
    """The odds of a fire declaration, in words."""
    explained = assess_action(state, side, action)
    return None if explained is None else explained[0]


def action_result(state: State, side: str, action: Action) -> OddsResult | None:
    """The same odds as data (see :func:`assess_action`)."""
    explained = assess_action(state, side, action)
    return None if explained is None else explained[1]


def assess_action(state: State, side: str, action: Action) -> tuple[str, OddsResult | None] | None:
    """The odds of a legal fire declaration (the only MGV action with odds here), in
    words and as data; None for anything else.

    The data's outcomes are numbers of hits (``2 hits``) for one attack; for several,
    every combination (``B1 kinetic at R1: 1 hit; B1.secondary photon at R2: 0 hits``,
    the attacks roll apart), with each attack's own chances as ``extra`` lines under the
    same names. A photon attack's are for a guess within 1/2in (no distance is ever used
    that the side may not know), a missile attack's for both sides splitting at the
    equilibrium of the sealed split (``warbench odds mgv missile``)."""
    if not isinstance(action, FireOrder) or state.step != "declare":
        return None
    try:
        attacks = fire.check_declare(state, side, action, None, guesses=False)
    except IllegalAction:
        return None
    if not attacks:
        return None
    said = [_attack(state, a) for a in attacks]
    text = "; ".join(words for words, _ in said)
    known = [
        (f"{a.label()} {a.weapon} at {a.target}", dist)
        for a, (_, dist) in zip(attacks, said, strict=True)
        if dist is not None
    ]
    if not known:
        return text, None
    if len(known) == 1:
        return text, OddsResult({_hits(k): p for k, p in sorted(known[0][1].items()) if p})
    extra = {f"{name}: {_hits(k)}": p for name, dist in known for k, p in sorted(dist.items()) if p}
    return text, OddsResult(combined(known, _hits), extra)
