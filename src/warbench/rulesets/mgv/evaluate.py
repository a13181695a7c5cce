"""One-ply scores of MGV actions for the greedy bot, and its mixed strategy for missile dice.

Scores are expected hits (circles marked) now, plus a small positional term for
moves: the greedy bot moves to bring its arcs to bear while keeping out of the
enemy's, fires where the exact odds promise most, and in the sealed missile
round plays the equilibrium of the small zero-sum game of splits (5.2), solved
as a matrix game, so an opponent cannot read its split from its situation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from warbench.bots.matrix import draw
from warbench.core.actions import Action
from warbench.core.dice import sum_distribution
from warbench.errors import IllegalAction
from warbench.geometry.table import Figure
from warbench.rulesets.mgv import combat, fire, movement, position, space
from warbench.rulesets.mgv.actions import (
    Arm,
    End,
    FireOrder,
    Mark,
    Move,
    Phase,
    Range,
    ScreenOrder,
    Split,
)
from warbench.rulesets.mgv.hitlog import HitGroup, HitLog, HullLayout, placeable
from warbench.rulesets.mgv.state import Attack, Base, Screen, State

if TYPE_CHECKING:
    from warbench.rulesets.mgv.rules import MGVRules

WEIGHT = {"S": 1.0, "P": 2.0, "B": 4.0}
"""Worth of a hit by the layer it reaches: deeper hits slow and kill (4.0, 1.6)."""


def expected_hits(state: State, attack: Attack) -> float:
    """Expected circles an attack marks: its hits the target's log can take (5.2).

    Kinetic and photon hits are counted through the placement rules (hits
    facing a side whose surface is full are lost); photon at the model's
    typical ranging error; missile through the split game (see below).
    """
    shooter = state.bases[attack.shooters[0]]
    target = state.bases[attack.target]
    value = shooter.mounts[attack.slot].attack
    if attack.weapon == "missile":
        own, theirs = fire.missile_dice(state, attack)
        return _missile_hits(state, target, own, theirs)
    distance = space.range_to(shooter, target)
    if attack.weapon == "kinetic":
        mods = fire.modifiers(state, attack)
        dist = combat.kinetic_distribution(value, target.defence, mods.total(), distance)
    else:  # the bot's own guess is the estimate model's: fold it in, disasters too
        mods = fire.modifiers(state, attack)
        shot = _photon(value, round(distance * 4) / 4, mods.total(ranging=False))
        feedback = combat.combat_data().photon.disaster.feedback_hits
        dist = {h: Fraction(p) for h, p in shot.hits.items()}
        penalty = shot.disaster * feedback * SELF_HARM
        bearing = round(space.attacker_bearing(target, shooter))
        rear = space.from_rear(target, shooter)
        return (
            sum(
                float(p) * _placed(target.layout, target.log, "photon", hits, bearing, rear)
                for hits, p in dist.items()
                if hits
            )
            - penalty
        )
    bearing = round(space.attacker_bearing(target, shooter))
    rear = space.from_rear(target, shooter)
    return sum(
        float(p) * _placed(target.layout, target.log, attack.weapon, hits, bearing, rear)
        for hits, p in dist.items()
        if hits
    )


def _missile_hits(state: State, target: Base, own: int, theirs: int) -> float:
    """Expected circles ``own`` missile dice mark on ``target`` against ``theirs`` (5.2).

    Scoring a declaration uses the game of raw hits (cached by dice counts alone)
    scaled by the share of hits this target's log can take; the bot's actual
    split (sealed_strategy) solves the exact game against the log.
    """
    scoring = state.setup.options.missile_scoring
    raw = combat.missile_game(own, theirs, combat.total_hits, scoring).value
    payoff = _Payoff.on(state, target)
    spread = max(1, round(raw))
    share = payoff((spread, 0, 0)) / spread if spread else 0.0
    return raw * share


SELF_HARM = 1.5
"""How much worse the greedy bot reckons a hit on itself than one on the enemy."""


@lru_cache(maxsize=4096)
def _photon(attack: int, distance: float, modifier: int) -> combat.PhotonAtRange:
    """A photon shot at a range (to the quarter inch) with the estimate model's guess."""
    return combat.photon_at_range(attack, distance, modifier)


@lru_cache(maxsize=65536)
def _placed(
    layout: HullLayout, log: HitLog, weapon: str, hits: int, bearing: float, rear: bool
) -> int:
    group = HitGroup.direct(weapon, hits, bearing=bearing, rear=rear)  # type: ignore[arg-type]
    return placeable(layout, log, group)


@dataclass(frozen=True)
class _Payoff:
    """What missile hits (surface, core, heart) are worth against one target's log now.

    Missile hits ignore the far side (5.2) and a rear-arc S hit is still one
    mark, so the worth depends on the log and the core rule alone: games
    against targets in the same state share one solution (cached).
    """

    layout: HullLayout
    log: HitLog
    core_rule: str
    free: tuple[int, int, int] = (0, 0, 0)
    """Unmarked circles per layer (surface, core, heart)."""

    @staticmethod
    def of(state: State, attack: Attack) -> _Payoff:
        return _Payoff.on(state, state.bases[attack.target])

    @staticmethod
    def on(state: State, target: Base) -> _Payoff:
        layout, log = target.layout, target.log
        free = tuple(len(log.unmarked(layer, layout)) for layer in ("surface", "core", "heart"))
        return _Payoff(layout, log, state.setup.options.core_rule, free)  # type: ignore[arg-type]

    def __call__(self, hits: tuple[int, int, int]) -> float:
        s, c, h = hits
        free = self.free
        # Hits beyond a layer's unmarked circles are lost whatever the placement,
        # so the capped triple has the same worth (and far fewer triples to work out).
        return _worth(self, (min(s, free[0]), min(c, free[1]), min(h, free[2])))


@lru_cache(maxsize=65536)
def _worth(payoff: _Payoff, hits: tuple[int, int, int]) -> float:
    """Hits the log can take (one memo across dice counts, and for both sides)."""
    s, c, h = hits
    group = HitGroup.missile(s, c, h, core_rule=payoff.core_rule)  # type: ignore[arg-type]
    return float(placeable(payoff.layout, payoff.log, group))


def evaluate(ruleset: MGVRules, state: State, side: str, actions: Sequence[Action]) -> list[float]:
    places: dict[tuple[str, Figure, float], float] = {}
    """Worth of each place weighed in this call (a move and its beacon variants share one)."""
    return [_score(state, side, a, places) for a in actions]


def _score(
    state: State, side: str, action: Action, places: dict[tuple[str, Figure, float], float]
) -> float:
    if isinstance(action, Phase):
        able = fire.ready_mounts(state, side)
        shots = sum(1 for b, s in able if fire.has_target(state, b, str(b.mounts[s].weapon)))
        return shots * 1.0 if action.kind == "fire" else 0.8 * len(able) / 2 + 0.1
    if isinstance(action, Move):
        return _position(state, side, action, places)
    if isinstance(action, End):
        return ENDING
    if isinstance(action, FireOrder):
        try:
            attacks = fire.check_declare(state, side, action, None, guesses=False)
        except IllegalAction:
            return -1e9
        return sum(expected_hits(state, a) for a in attacks)
    if isinstance(action, ScreenOrder):
        return _screen_gain(state, action)
    if isinstance(action, Mark):
        return 1.0 if action.auto else 0.0
    if isinstance(action, Range):
        return float(len(action.guesses))
    if isinstance(action, Arm):
        return _arm_score(state, action)
    if isinstance(action, Split):
        return 0.0
    return 0.0


SHOT_WORTH = 1.0
"""What the greedy bot reckons a mount's own shot later in the turn is worth (hits):
a screen spends it (5.1 Modifiers)."""


def _screen_gain(state: State, action: ScreenOrder) -> float:
    """Expected hits a screen prevents, less the shots the screening mounts give up."""
    by_attack: dict[int, int] = {}
    for base, slot, number in action.screens:
        by_attack[number] = by_attack.get(number, 0) + state.bases[base].mounts[slot].attack
    gain = 0.0
    for attack in state.fire.attacks:
        extra = by_attack.get(attack.number, 0)
        if not extra:
            continue
        before = expected_hits(state, attack)
        screens = state.fire.screens
        state.fire.screens = [*screens, Screen("?", "main", attack.number, extra)]
        try:
            after = expected_hits(state, attack)
        finally:
            state.fire.screens = screens
        gain += before - after
    return gain - SHOT_WORTH * len(action.screens)


def _arm_score(state: State, action: Arm) -> float:
    score = 0.0
    for base, slot, weapon in action.choices:
        b = state.bases[base]
        attack = b.mounts[slot].attack
        if weapon == "photon":
            score += attack * 0.9 if attack >= 5 else attack * 0.5
        elif weapon == "missile":
            score += attack * (0.8 if b.wing else 0.6)
        else:
            score += attack * 0.7
    return score


ENDING = -0.05
"""Ending the movement phase: below staying put, so that each base still to move is
weighed on its own (``end`` leaves every one of them where it is)."""


def _position(
    state: State, side: str, action: Move, places: dict[tuple[str, Figure, float], float]
) -> float:
    """What a move gains: the place it ends at against the place it leaves (0 = stay)."""
    try:
        base, result = movement.plan(state, side, action)
    except IllegalAction:
        return -1e9
    travelled = sum(leg.length for leg in result.legs)

    def place(at: Figure, moved: float) -> float:
        key = (base.id, at, moved)
        if key not in places:
            places[key] = position.worth(state, side, base, at, moved)
        return places[key]

    gain = place(result.end, travelled) - place(base.geo, 0.0)
    free = 1.0
    for crossing in movement.crossings(state, result):  # 1.4: each crossing may trap it
        numbers = state.setup.kinds[crossing.feature].trap
        free *= 1.0 - float(sum(sum_distribution(2)[n] for n in numbers))
    gain -= (1.0 - free) * TRAPPED
    victory = state.setup.victory
    if victory.kind == "gauntlet" and victory.side == side and victory.edge:
        progress = {
            "east": result.end.x - base.geo.x,
            "west": base.geo.x - result.end.x,
            "north": result.end.y - base.geo.y,
            "south": base.geo.y - result.end.y,
        }[victory.edge]
        gain += progress * RUNNING + (ESCAPED if result.off_table else 0.0)
    if action.beacon is not None:
        gain += beacon_gain(state, side, base, result.end, action.beacon)
    return gain


TRAPPED = 6.0
"""What the greedy bot reckons being trapped for good costs (1.4: immobile)."""
RUNNING = 1.2
"""Worth of an inch toward the exit edge to a gauntlet runner."""
ESCAPED = 10.0
"""Worth of leaving by the exit edge to a gauntlet runner (it counts toward the mission)."""


def beacon_gain(state: State, side: str, marker: Base, end: Figure, enemy_id: str) -> float:
    """Expected circles a marker beacon on ``enemy_id`` adds to the side's missile fire.

    4.0: +1 to friendly missile fire on the marked base for the rest of the turn,
    so it is worth something only before the side's fire phase of this turn
    ("if you have already fired this turn, marker beacons are a waste of time"),
    to the missile mounts still unfired that can engage the base (5.0: 120
    degrees, round corners) from where they will fire (the marker from the end
    of its move). Each such mount gains what one point more of attack adds, on
    average over whether the target also gives +1 for moving or firing (5.1).
    """
    enemy = state.bases.get(enemy_id)
    if (
        enemy is None
        or not enemy.active
        or enemy.beacon_turn == state.turn
        or "fire" in state.done.get(side, [])
    ):
        return 0.0
    scoring = state.setup.options.missile_scoring
    theirs = combat.block_dice(enemy.defence, scoring)
    gain = 0.0
    for shooter in state.active(side):
        at = shooter if shooter.id != marker.id else replace(shooter, geo=end)
        for mount in shooter.mounts.values():
            if mount.weapon != "missile" or mount.spent_turn == state.turn:
                continue
            line = space._line_of_fire(state, at, enemy, "missile")
            if not line.allowed:
                continue
            attack = mount.attack - (1 if line.off_line else 0)
            for extra in (0, 1):
                without = combat.missile_dice(attack, extra, scoring=scoring)
                lit = combat.missile_dice(attack, extra + 1, scoring=scoring)
                if lit != without:
                    gain += 0.5 * (
                        _missile_hits(state, enemy, lit, theirs)
                        - _missile_hits(state, enemy, without, theirs)
                    )
    return gain


def sealed_strategy(state: State, side: str, rng: random.Random) -> Action | None:
    """The greedy bot's sealed missile split: each attack's equilibrium split, drawn."""
    if state.step != "split":
        return None
    attacker = side == state.actor
    dice = []
    for attack in state.fire.attacks:
        if attack.weapon != "missile":
            continue
        own, theirs = fire.missile_dice(state, attack)
        solution = combat.missile_game(
            own, theirs, _Payoff.of(state, attack), state.setup.options.missile_scoring
        )
        options = combat.splits(own) if attacker else combat.splits(theirs)
        strategy = solution.row if attacker else solution.column
        pick = options[draw(strategy, rng)]
        dice.append((attack.number, *pick))
    return Split("split" if attacker else "block", tuple(dice))


__all__ = ["evaluate", "expected_hits", "sealed_strategy"]


def standing(state: State) -> dict[str, float]:
    """Each side's unmarked hull circles on bases still in play or safely off the far
    edge (``expected_hits`` counts an attack's gain in circles marked)."""
    found = dict.fromkeys(state.setup.sides, 0.0)
    for base in state.bases.values():
        if not base.destroyed:
            layout, log = base.layout, base.log
            found[base.side] += float(log.unmarked_count(layout))
    return found
