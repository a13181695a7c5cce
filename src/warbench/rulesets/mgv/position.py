"""What a place on the table is worth to one base, for the greedy bot's moves (4.0).

A place is worth the hits the base's mounts can expect to score from it, less
the hits the enemy's mounts can expect to score on it, each weighed by when the
shots come (1.6: a side moves once and fires once a turn, in an order the rolls
decide):

* **Now**: if the side still fires this turn, its bases fire from where they
  end this move (it will not move again first), so only enemies inside a
  mount's arc with sight count (5.0). If the enemy still fires this turn, the
  mounts that have this place in their arc count against it, less so if the
  enemy may still move (and turn) first; a move of 2" or more gives them +1
  (5.1 Modifiers), and cover takes from them (1.4).
* **Later** (next turn, after both sides have moved again): arcs can be
  turned, so every mount counts against the enemy it does best against, at a
  range shortened by what a move closes; kinetic fire is best close (the range
  bands of data/combat.toml), photon guesses are better close (5.3). The side
  weighs its own later shots above the enemy's (it is the hunter: 1.0 "the
  remaining units must ... clear the field").

The mission adds its own pull: gauntlet runners toward the exit edge (they do not
hunt), a strike
group toward its named target (whose shots count double); damaged enemies are
worth more to hit (they are nearer the kill). Every estimate reads the side's
own state (where it sees the enemy, by eye).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from functools import lru_cache

from warbench.geometry.table import Figure, in_arc
from warbench.rulesets.mgv import combat, space
from warbench.rulesets.mgv.data import rules
from warbench.rulesets.mgv.state import Base, State

NOW = 1.0
"""Weight of the shots of this turn."""
LATER = 0.45
"""Weight of the shots of the next turn (both sides move first: arcs may be turned)."""
HUNT = 1.0
"""How much the bot weighs its own later shots..."""
CAUTION = 0.6
"""...against the enemy's later shots on it: below 1, so equal forces close in."""
EXPOSED = 1.3
"""How much worse a hit taken now is than one given (a hit marked slows and weakens)."""
MAY_TURN = 0.6
"""Share of an enemy's shots still to come this turn if it may move (and turn) first."""
OUT_OF_ARC = 0.75
"""Share of a later shot at an enemy outside the arc now: turning costs movement (4.0)."""
RUNNER_HUNT = 0.3
"""A gauntlet runner's weight of its own later shots: it is there to get through, not to
hunt (it weighs the enemy's later shots in full)."""
CLOSING = 5.0
"""Inches a later move is reckoned to close on an enemy before the next fire."""
STRIKE_TARGET = 2.0
"""How much more a strike group's shots at its named target are worth."""
REAR = 1.25
"""How much more a shot from the target's rear arc is worth (5.2: rear S hits count as P)."""
IDEAL = 4.0
"""Inches: the range a hunter closes to (the kinetic close band)."""
APPROACH = 0.04
"""Worth of an inch nearer IDEAL to the nearest enemy (what moves a base from far away)."""


@dataclass(frozen=True, slots=True)
class Outlook:
    """Who still fires this turn, as the moving side sees it (1.6)."""

    fire_now: float
    """Weight of the side's own shots from where it ends: it fires before moving again."""
    threat_now: float
    """Weight of the enemy's shots this turn on where it ends."""
    next_is_enemy_fire: float
    """Chance the very next phase is the enemy's fire (then a 2" move gives +1, 5.1)."""

    @staticmethod
    def of(state: State, side: str) -> Outlook:
        enemy = state.other(side)
        mine, theirs = state.done.get(side, []), state.done.get(enemy, [])
        fire_now = NOW if "fire" not in mine else 0.0
        if "fire" in theirs:
            threat, nxt = 0.0, 0.0
        elif "move" in theirs:
            threat, nxt = NOW, 0.5 if "fire" not in mine else 1.0
        else:
            threat, nxt = NOW * MAY_TURN, 0.25 if "fire" not in mine else 0.5
        return Outlook(fire_now, threat, nxt)


def worth(
    state: State,
    side: str,
    base: Base,
    at: Figure,
    moved: float,
    *,
    exposed: float = EXPOSED,
    caution: float = CAUTION,
) -> float:
    """What ``base`` standing at ``at`` (having moved ``moved`` inches) is worth now
    (``exposed`` and ``caution`` weigh the enemy's shots this turn and later: greedy's
    own weights unless the planner asks otherwise)."""
    look = Outlook.of(state, side)
    me = base if at is base.geo else replace(base, geo=at)
    enemies = state.active(state.other(side))
    friends = [b for b in state.active(side) if b.id != base.id]
    victory = state.setup.victory
    target = victory.target if victory.kind == "strike" and victory.side == side else None
    running = victory.kind == "gauntlet" and victory.side == side
    hunt, caution = (RUNNER_HUNT, 1.0) if running else (HUNT, caution)
    score = 0.0
    armed = [m for m in base.mounts.values() if m.weapon is not None]
    if armed and enemies:
        # What each enemy is as a target, worked out once for every mount.
        aims = [
            (
                enemy,
                _prize(enemy) * (STRIKE_TARGET if enemy.id == target else 1.0),
                space.range_to(me, enemy),
                REAR if space.from_rear(enemy, me) else 1.0,
                enemy.defence,
            )
            for enemy in enemies
        ]
        for mount in armed:
            weapon = mount.weapon
            assert weapon is not None
            now = later = 0.0
            ready = look.fire_now and mount.spent_turn != state.turn
            half = _half(weapon)
            for enemy, weight, distance, rear, defence in aims:
                if ready and _can_fire(state, me, enemy, weapon):
                    hits = _hits(weapon, mount.attack, defence, 0, distance, False)
                    now = max(now, hits * weight * rear)
                arc = 1.0 if in_arc(at, enemy.geo, half) else OUT_OF_ARC
                hits = _hits(weapon, mount.attack, defence, 0, _later(distance))
                later = max(later, hits * weight * arc)
            score += look.fire_now * now + LATER * hunt * later
    moved_mod = 1 if moved >= rules().data.moved_threshold else 0
    defence = base.defence
    for enemy in enemies:
        distance = space.range_to(enemy, me)
        rear = REAR if space.from_rear(me, enemy) else 1.0
        for mount in enemy.mounts.values():
            weapon = mount.weapon or "kinetic"
            if (
                look.threat_now
                and mount.spent_turn != state.turn
                and _can_fire(state, enemy, me, weapon)
            ):
                cover, _ = space.cover(state, enemy, me)
                share = 1 + sum(1 for f in friends if _can_fire(state, enemy, f, weapon))
                still = _hits(weapon, mount.attack, defence, -cover, distance, False)
                rushed = _hits(weapon, mount.attack, defence, moved_mod - cover, distance, False)
                nxt = look.next_is_enemy_fire
                hits = (1.0 - nxt) * still + nxt * rushed
                score -= look.threat_now * exposed * rear * hits / share
            hits = _hits(weapon, mount.attack, defence, 0, _later(distance))
            arc = 1.0 if in_arc(enemy.geo, at, _half(weapon)) else OUT_OF_ARC
            score -= LATER * caution * hits * arc / (1 + len(friends))
    if enemies and not running:
        nearest = min(space.range_to(me, e) for e in enemies)
        score -= APPROACH * max(0.0, nearest - IDEAL)
    if target is not None and target in state.bases and state.bases[target].active:
        score -= APPROACH * space.range_to(me, state.bases[target])
    return score


def _prize(enemy: Base) -> float:
    """Hits on a damaged base are worth more: it is nearer the kill (1 fresh, up to 2)."""
    layout, log = enemy.layout, enemy.log
    total = layout.surface + layout.core + layout.heart
    left = log.unmarked_count(layout)
    return 2.0 - left / total


def _later(distance: float) -> float:
    return max(1.0, distance - CLOSING)


def _half(weapon: str) -> float:
    data = rules().data
    return data.arc_half_angle + (data.missile_off_line if weapon == "missile" else 0.0)


def _can_fire(state: State, shooter: Base, target: Base, weapon: str) -> bool:
    """5.0 arcs and sight from where ``shooter`` stands (perhaps a place it has not moved to
    yet): :func:`space.line_of_fire`'s test, remembered by place in the same memo (which
    the table forgets when a base moves)."""
    key = ("at", shooter.geo, target.geo, weapon)
    found = state.lines.get(key)
    if found is None:
        found = state.lines[key] = space._line_of_fire(state, shooter, target, weapon).allowed
    return bool(found)


def _hits(
    weapon: str, attack: int, defence: int, modifier: int, distance: float, smooth: bool = True
) -> float:
    """Rough expected hits of one mount at a range (where they land not counted);
    ``smooth``: a later shot, from a range not known yet (:func:`_smooth_shift`)."""
    return _rounded_hits(weapon, attack, defence, modifier, round(distance * 4) / 4, smooth)


@lru_cache(maxsize=16384)
def _rounded_hits(
    weapon: str, attack: int, defence: int, modifier: int, distance: float, smooth: bool
) -> float:
    if weapon == "kinetic":
        shift = _smooth_shift(distance) if smooth else float(combat.range_shift(distance))
        low = math.floor(shift)
        near = _kinetic_mean(attack, defence, modifier + low)
        if shift == low:
            return near
        far = _kinetic_mean(attack, defence, modifier + low + 1)
        return near + (shift - low) * (far - near)
    if weapon == "photon":
        shot = combat.photon_at_range(attack, round(distance * 2) / 2, modifier)
        feedback = combat.combat_data().photon.disaster.feedback_hits
        return shot.expected - shot.disaster * feedback
    own = combat.missile_dice(attack, modifier)
    theirs = combat.block_dice(defence)
    return MISSILE_SHARE * float(combat.missile_game(own, theirs, combat.total_hits).value)


MISSILE_SHARE = 0.5
"""Share of a missile attack's raw hits a hull can take (a fresh hull has no core or heart
circle open to them, 5.2): a rough figure for places; declarations use the exact one."""


def _smooth_shift(distance: float) -> float:
    """The kinetic range bands' column shift (data/combat.toml [kinetic.range]) joined by
    straight lines, from the first band's shift at its range to none one band-width past
    the last: every inch closer is worth a little, where the bands are steps."""
    spec = combat.combat_data().kinetic.range
    if not spec.enabled or not spec.bands:
        return 0.0
    points = [(b.up_to, float(b.shift)) for b in spec.bands]
    width = points[-1][0] - points[-2][0] if len(points) > 1 else points[0][0]
    points.append((points[-1][0] + width, 0.0))
    if distance <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if distance <= x1:
            return y0 + (y1 - y0) * (distance - x0) / (x1 - x0)
    return 0.0


@lru_cache(maxsize=1024)
def _kinetic_mean(attack: int, defence: int, modifier: int) -> float:
    dist = combat.kinetic_distribution(attack, defence, modifier)
    return float(sum(h * p for h, p in dist.items()))


__all__ = ["Outlook", "worth"]
