"""Who may attack whom, and how the attack stands: distance (II.3), hand to hand (II.4).

Pure reads of the state: the rules roll from these situations, the odds and the
greedy bot read the same ones, so what a player is shown is what is rolled.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from warbench.geometry.table import Feature, Figure
from warbench.rulesets.kit.rulings import cite, cite_ruling
from warbench.rulesets.vsgmr import combat, space
from warbench.rulesets.vsgmr.state import Fig, State

RULINGS = "warbench.rulesets.vsgmr"
"""Where ``data/rulings.toml`` lives: refusals caused by a ruling cite it from there."""


@dataclass(frozen=True, slots=True)
class Situation:
    """An attack that may be made, with what decides its dice.

    ``see_dispute``: with the dispute_rolls option, sight is borderline and a die
    decides it (II.3: 4-6 sees). ``cover`` is the measured cover; with the option,
    ``cover_dispute`` says a die decides it instead (4-6 covered). A rider is
    always covered on its mount.
    """

    attacker: str
    target: str
    hand: bool
    feature: bool
    distance: float
    see_dispute: bool = False
    cover: bool = False
    cover_dispute: bool = False
    rider: bool = False
    sight_from: tuple[float, float] = (0.0, 0.0)
    sight_to: tuple[float, float] = (0.0, 0.0)


def can_attack(state: State, fig: Fig) -> str | None:
    """Why ``fig`` may not attack at all this round, or None (II.2-4)."""
    if not fig.active:
        return f"{fig.id} is no longer on the table"
    if fig.where == "mounted":
        return f"{fig.id} rides {fig.mount}: a rider does not attack on its own (II.2)"
    if fig.attacked:
        return f"{fig.id} has already attacked this round (one attack a round)"
    if fig.profile.is_mount and fig.rider is None and not state.setup.options.riderless_attacks:
        return (
            f"{fig.id} has no rider or driver, so it does not attack: "
            f"{cite(RULINGS, 'riderless_attacks', allow='true')}"
        )
    return None


def _enemy(state: State, fig: Fig, target_id: str) -> Fig | None:
    target = state.figs.get(target_id)
    if target is None or target.side == fig.side or not target.active:
        return None
    return target


def target_problem(state: State, fig: Fig, target_id: str) -> str | None:
    """Why ``target_id`` cannot be attacked by ``fig`` whatever the measures."""
    target = state.figs.get(target_id)
    if target is not None:
        if target.side == fig.side:
            return f"{target_id} is on your own side"
        if not target.active:
            return f"{target_id} is no longer on the table"
        return None
    feature = state.setup.feature(target_id)
    if feature is None:
        return f"there is no figure or feature '{target_id}'"
    if target_id in state.destroyed:
        return f"{target_id} has been destroyed"
    if target_id not in state.setup.destructible:
        return f"{target_id} is ground that cannot be attacked (scenario: destructible = false)"
    return None


def distance_situation(state: State, fig: Fig, target_id: str) -> Situation | str:
    """A distance attack by ``fig`` on a figure or feature, or why it cannot be made (II.3)."""
    why = can_attack(state, fig) or target_problem(state, fig, target_id)
    if why:
        return why
    if not fig.profile.distance:
        return f"{fig.id} has no distance attack"
    rules = state.setup.rules
    eye = space.body(state, fig)
    target = state.figs.get(target_id)
    if target is None:
        feature = state.setup.feature(target_id)
        assert feature is not None
        return _feature_shot(state, fig, eye, feature)
    body = space.body(state, target)
    dist = space.gap(state, eye, body)
    if dist > rules.range + 1e-9:
        return (
            f'{target_id} is {dist:.2f}" away, beyond the Distance Attack Unit ({rules.range:g}", '
            f"measured {state.setup.options.range_from} to {state.setup.options.range_from}: "
            f"{cite(RULINGS, 'range_from')})"
        )
    margin = space.facing_margin(state, eye, body)
    if margin < -1e-6:
        return f"{fig.id} is not facing {target_id} (it must face the foe)"
    seen = space.sight(state, eye, body)
    if not seen.clear:
        blocked = ", ".join(seen.blocked_by) or "terrain"
        figures = [b for b in seen.blocked_by if b in state.figs]
        if figures:
            allow = "false" if len(figures) == len(seen.blocked_by) else None
            return (
                f"{fig.id} cannot see {target_id}: figures block sight here ({blocked} in the "
                f"way): {cite(RULINGS, 'figures_block_sight', allow=allow)}"
            )
        return f"{fig.id} cannot see {target_id} (blocked by {blocked})"
    options = state.setup.options
    see_dispute = options.dispute_rolls and (
        1.0 - seen.hidden < rules.visible_share or margin < rules.arc_margin
    )
    rider = target.where == "mounted"
    # II.4: a target close enough to fight hand to hand (touching) gets no cover,
    # even when the attacker shoots it instead (ruling).
    point_blank = space.touching(state, fig, eye, body)
    cover = not point_blank and (rider or seen.obscured >= rules.cover_share - 1e-9)
    cover_dispute = (
        options.dispute_rolls
        and not rider
        and not point_blank
        and abs(seen.obscured - rules.cover_share) < rules.cover_margin
    )
    return Situation(
        fig.id,
        target_id,
        hand=False,
        feature=False,
        distance=dist,
        see_dispute=see_dispute,
        cover=cover,
        cover_dispute=cover_dispute,
        rider=rider,
        sight_from=eye.at,
        sight_to=body.at,
    )


def _feature_shot(state: State, fig: Fig, eye: Figure, feature: Feature) -> Situation | str:
    """III: a building or feature is a target like any other, and never in cover."""
    rules = state.setup.rules
    found = _feature_aim(state, eye, feature)
    if found == FAR:
        dist = space.feature_gap(state, eye, feature)
        return f'{feature.id} is {dist:.2f}" away, beyond the Distance Attack Unit'
    if found == UNFACED:
        return f"{fig.id} is not facing {feature.id}"
    if found == UNSEEN:
        return f"{fig.id} cannot see {feature.id}"
    assert not isinstance(found, str)
    dist, aim, margin = found
    see_dispute = state.setup.options.dispute_rolls and margin < rules.arc_margin
    return Situation(
        fig.id,
        feature.id,
        hand=False,
        feature=True,
        distance=dist,
        see_dispute=see_dispute,
        sight_from=eye.at,
        sight_to=aim,
    )


AIM_CACHE_LIMIT = 20_000
"""Feature shots kept per set-up (see :func:`_feature_aim`)."""
AIM_BATCH = 64
"""At most this many aiming points' sight lines worked out at once."""
FAR, UNFACED, UNSEEN = "far", "unfaced", "unseen"
"""Why a feature cannot be shot (see :func:`_feature_aim`)."""


def _feature_aim(
    state: State, eye: Figure, feature: Feature
) -> tuple[float, tuple[float, float], float] | str:
    """Range, aiming point and facing margin of a shot from ``eye`` at ``feature``, or why
    not: :data:`FAR` (out of range), :data:`UNFACED` or :data:`UNSEEN`.

    It depends only on the base, the feature and the terrain (the rules and options are
    the set-up's), so without figures blocking sight it is kept for every game of the
    set-up, like the sight lines it is made of."""
    blocking = state.setup.options.figures_block_sight
    if blocking:
        cache: dict[Any, Any] = state.caches.setdefault("feature_aim", {})
        key: Any = (eye, feature.id)
    else:
        cache = state.setup.caches.setdefault("feature_aim", {})
        key = (frozenset(state.destroyed), eye, feature.id)
    found: tuple[float, tuple[float, float], float] | str | None = cache.get(key)
    if found is None:
        found = _aim_now(state, eye, feature)
        if len(cache) >= AIM_CACHE_LIMIT:
            cache.clear()
        cache[key] = found
    return found


def _aim_now(
    state: State, eye: Figure, feature: Feature
) -> tuple[float, tuple[float, float], float] | str:
    rules = state.setup.rules
    dist = space.feature_gap(state, eye, feature)
    if dist > rules.range + 1e-9:
        return FAR
    # Ruling 16: aimed at any part of it in range, in front and in view, the nearest first
    # (a pillar hiding the nearest corner does not hide the whole building).
    faced = False

    def in_front(point: tuple[float, float]) -> bool:
        return point == eye.at or space.facing_margin(state, eye, point) >= -1e-6

    # The aiming points in range and in front, nearest first, tried lazily (the nearest
    # one in view ends the search) in growing batches, each batch's sight lines at once.
    points = space.aim_candidates(state, eye, feature, rules.range + 1e-9, in_front)
    size = 1
    while batch := list(itertools.islice(points, size)):
        faced = True
        for point, seen in zip(batch, space.sights(state, eye, batch), strict=True):
            if seen.clear:
                margin = space.facing_margin(state, eye, point) if point != eye.at else 180.0
                return dist, point, margin
        size = min(4 * size, AIM_BATCH)
    return UNSEEN if faced else UNFACED


def hand_situation(state: State, fig: Fig, target_id: str) -> Situation | str:
    """A hand to hand attack by ``fig``, or why not (II.4: the target must touch it)."""
    why = can_attack(state, fig) or target_problem(state, fig, target_id)
    if why:
        return why
    me = space.body(state, fig)
    target = state.figs.get(target_id)
    if target is None:
        feature = state.setup.feature(target_id)
        assert feature is not None
        if not space.touching_feature(state, fig, me, feature):
            return f"{fig.id} is not touching {feature.id}"
        return Situation(fig.id, feature.id, hand=True, feature=True, distance=0.0)
    body = space.body(state, target)
    if not space.touching(state, fig, me, body):
        if space.walled_off(state, me, body):
            return (
                f"{fig.id} is not touching {target_id}: a wall that blocks sight parts them "
                f"({cite_ruling(RULINGS, 22)})"
            )
        return f"{fig.id} is not touching {target_id}"
    return Situation(
        fig.id,
        target_id,
        hand=True,
        feature=False,
        distance=0.0,
        rider=target.where == "mounted",
        sight_from=me.at,
        sight_to=body.at,
    )


def odds(state: State, situation: Situation) -> combat.AttackOdds:
    """Exact odds of the situation, dispute rolls included (the attack as a whole)."""
    rules = state.setup.rules
    fig = state.figs[situation.attacker]
    kind = fig.profile.kind
    auto = fig.profile.auto and not situation.hand
    if situation.feature:
        result = combat.terrain_attack_odds(rules, kind, hand=situation.hand, auto=auto)
    else:
        target = state.figs[situation.target]
        p = target.profile

        def with_cover(cover: bool) -> combat.AttackOdds:
            return combat.attack_odds(
                rules,
                kind,
                p.kind,
                hand=situation.hand,
                cover=cover,
                auto=auto,
                armour=p.armour,
            )

        if situation.hand:
            result = with_cover(False)
        elif situation.cover_dispute:
            covered = combat.dispute_chance(rules, rules.covered_on)
            a, b = with_cover(True), with_cover(False)
            result = combat.AttackOdds(
                covered * a.miss + (1 - covered) * b.miss,
                covered * a.saved + (1 - covered) * b.saved,
                covered * a.hit + (1 - covered) * b.hit,
            )
        else:
            result = with_cover(situation.cover)
    if situation.see_dispute:
        sees = combat.dispute_chance(rules, rules.sees_on)
        result = combat.AttackOdds(
            1 - sees + sees * result.miss, sees * result.saved, sees * result.hit
        )
    return result


def hit_chance(state: State, situation: Situation) -> Fraction:
    return odds(state, situation).hit
