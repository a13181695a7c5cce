"""The MGV game state: bases with their hit logs and markers, the turn, its phase and step.

The turn (1.6) is four phases (X, Y, Z, F) then the reset. ``phase_no`` counts
phases over the whole game, so "last phase" (5.1 Modifiers) is simply
``phase_no - 1``, across the turn boundary too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from warbench.core.copying import field_copier
from warbench.geometry.table import Figure, Scene
from warbench.rulesets.kit.table.bases import TableBase
from warbench.rulesets.kit.table.state import TableState
from warbench.rulesets.mgv.data import VehicleModel, WeaponType, vehicles
from warbench.rulesets.mgv.hitlog import HitGroup, HitLog, HullLayout
from warbench.rulesets.mgv.scenario import Setup

Step = Literal[
    "arm",  # set-up: weapon types of open mounts (sealed, both sides)
    "roll",  # an X, Y or Z roll (automatic)
    "choose",  # the roll winner (or the side with both actions left) picks move or fire
    "move",  # the phase side moves its bases, one at a time, then ends
    "range",  # fire: photon range guesses (sealed, held until resolution)
    "declare",  # fire: targets of every firing mount (public)
    "screen",  # fire: the defender's screening missiles (public)
    "split",  # fire: missile dice splits of both sides (sealed)
    "resolve",  # fire: the dice (automatic)
    "place",  # fire: the target's owner places a group of hits
    "end_phase",  # sudden death rolls, then the next phase (automatic)
    "over",
]
PHASES = ("X", "Y", "Z", "F")


@dataclass(slots=True)
class Mount:
    """One weapon mount of a base."""

    slot: str
    attack: int
    weapon: WeaponType | None
    """None until chosen at set-up (1.5)."""
    spent_turn: int = 0
    """The turn this weapon last fired or screened (5.1 Modifiers: screening uses up
    that weapon's shot for the turn)."""


@dataclass(slots=True)
class Base(TableBase[VehicleModel]):
    """One MGV base on the table (or destroyed).

    ``exited``: it ran the gauntlet off the table; ``trapped``: trapped by terrain
    (1.4), immobilised for good (black marker)."""

    wing: str | None
    mounts: dict[str, Mount]
    log: HitLog = field(default_factory=HitLog)
    moved_phase: int = 0
    """The phase in which it last moved (its distance in ``moved_distance``)."""
    moved_distance: float = 0.0
    fired_phase: int = 0
    """The phase in which it last fired a weapon or screened with one."""
    beacon_turn: int = 0
    """The turn an enemy marker beacon last lit it (white marker, 4.0)."""
    damaged_phase: int = 0
    """The phase in which it last took hits (1.6 sudden death)."""

    @property
    def layout(self) -> HullLayout:
        hull = self.model.hull
        return HullLayout.of(hull.surface, hull.core, hull.heart)

    @property
    def speed(self) -> float:
        """Inches of movement allowance left on the speed track (4.0)."""
        return self.log.speed(vehicles().meta.speed, self.model.p_cost)

    @property
    def immobile(self) -> bool:
        """Black marker: trapped, or the speed track has run out (4.0)."""
        return self.trapped or self.speed <= 0.0

    @property
    def defence(self) -> int:
        return self.log.defence(self.model.defence, vehicles().meta.surface_per_defence)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            **self.placed_json(),
            "wing": self.wing,
            "mounts": {
                m.slot: {"attack": m.attack, "weapon": m.weapon, "spent_turn": m.spent_turn}
                for m in self.mounts.values()
            },
            "log": self.log.to_json(),
            **self.out_json(),
            "moved_phase": self.moved_phase,
            "moved_distance": self.moved_distance,
            "fired_phase": self.fired_phase,
            "beacon_turn": self.beacon_turn,
            "damaged_phase": self.damaged_phase,
        }


def _near_track(geo: Figure, move: Any, places: tuple[Figure, ...], gap: float) -> bool:
    """Whether a base at one of ``places`` could touch ``geo``'s track for ``move``."""
    points = [geo.at, *move.path]
    for place in places:
        px, py = place.at
        for (ax, ay), (bx, by) in zip(points, points[1:] or points, strict=False):
            dx, dy = bx - ax, by - ay
            length = dx * dx + dy * dy
            t = (
                0.0
                if length == 0
                else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
            )
            if math.hypot(ax + t * dx - px, ay + t * dy - py) <= gap:
                return True
    return False


@dataclass(frozen=True, slots=True)
class Attack:
    """One declared attack of a fire phase (5.0): a mount (or a wing's two) at a target."""

    number: int
    shooters: tuple[str, ...]
    """One base, or the two bases of a wing combining missile dice (5.2)."""
    slot: str
    weapon: WeaponType
    target: str
    off_line: bool = False
    """A missile using its extra arc or firing round an obstacle (5.0): always the penalty."""
    cover: int = 0
    """The target's cover against this attack (1.4), found by the rules at the declaration
    (a verdict: a side that sees the target by eye is told it, never the measure)."""

    def label(self) -> str:
        who = "+".join(self.shooters)
        mount = "" if self.slot == "main" else f".{self.slot}"
        return f"{who}{mount}"


@dataclass(frozen=True, slots=True)
class Screen:
    """A missile mount of the defender intercepting one declared attack (5.1 Modifiers)."""

    base: str
    slot: str
    attack: int
    points: int


@dataclass(frozen=True, slots=True)
class Group:
    """Hits one attack scored on a base, waiting to be placed (5.2 Applying Damage)."""

    attack: int
    target: str
    hits: HitGroup
    shooter: str


@dataclass(slots=True)
class Fire:
    """What a fire phase has declared and resolved so far."""

    attacks: list[Attack] = field(default_factory=list)
    screens: list[Screen] = field(default_factory=list)
    splits: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    blocks: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    groups: list[Group] = field(default_factory=list)
    guesses_held: bool = False
    """The firing side wrote photon range guesses (the values stay with the engine)."""

    def copy(self) -> Fire:
        """An independent copy: new lists and dicts of the same frozen entries."""
        return Fire(
            list(self.attacks),
            list(self.screens),
            dict(self.splits),
            dict(self.blocks),
            list(self.groups),
            self.guesses_held,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "attacks": [
                {
                    "number": a.number,
                    "shooters": list(a.shooters),
                    "slot": a.slot,
                    "weapon": a.weapon,
                    "target": a.target,
                    "off_line": a.off_line,
                    "cover": a.cover,
                }
                for a in self.attacks
            ],
            "screens": [
                {"base": s.base, "slot": s.slot, "attack": s.attack, "points": s.points}
                for s in self.screens
            ],
            "splits": {str(k): list(v) for k, v in sorted(self.splits.items())},
            "blocks": {str(k): list(v) for k, v in sorted(self.blocks.items())},
            "groups": [
                {"attack": g.attack, "target": g.target, "shooter": g.shooter} | g.hits.to_json()
                for g in self.groups
            ],
            "guesses_held": self.guesses_held,
        }


@dataclass(slots=True)
class State(TableState[Setup, Base]):
    """Everything that changes during a game of MGV.

    ``exited``: the gauntlet runners that left the table by the scenario's edge;
    ``plans``: moves planned on the table as it stands, by base (candidates, then the
    bot's scores); ``lines``: lines of fire (5.0), by (shooter, target, weapon)."""

    turn: int = 1
    phase: int = 0
    """Index in :data:`PHASES` (0 = X)."""
    phase_no: int = 0
    """Phases played so far in the game, this one included (0 during set-up)."""
    step: Step = "arm"
    done: dict[str, list[str]] = field(default_factory=dict)
    """Per side, the actions ("move", "fire") it has taken this turn (1.6)."""
    winners: list[str] = field(default_factory=list)
    """Who won the X and Y rolls this turn."""
    actor: str | None = None
    """The side whose phase it is (or who chooses which action comes first)."""
    kind: str | None = None
    """"move" or "fire": what this phase is."""
    moved: list[str] = field(default_factory=list)
    """Bases moved in this movement phase."""
    fire: Fire = field(default_factory=Fire)

    def active(self, side: str | None = None) -> list[Base]:
        return [b for b in self.bases.values() if b.active and (side is None or b.side == side)]

    def scene(self) -> Scene:
        """The table with every base still on it (rebuilt after any change)."""
        if self.scene_cache is None:
            self.scene_cache = Scene(
                self.setup.table, self.setup.terrain, [b.geo for b in self.active()]
            )
        return self.scene_cache

    def touched(self, moved: Base | None = None, start: Figure | None = None) -> None:
        """The table changed: forget what depended on it.

        After ``moved`` went from ``start``, a planned move of another base is
        forgotten only if its track passes near the old or the new place (a
        base elsewhere on the table is neither blocked nor freed by it).
        """
        self.scene_cache = None
        self.lines = {}
        if moved is None or start is None:
            self.plans = {}
            return
        self.plans.pop(moved.id, None)
        places = (start, moved.geo)
        for base_id, plans in list(self.plans.items()):
            base = self.bases[base_id]
            gap = base.geo.base.bounding_radius + moved.geo.base.bounding_radius + 0.1
            for key in [k for k in plans if _near_track(base.geo, k[1], places, gap)]:
                del plans[key]

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": PHASES[self.phase],
            "phase_no": self.phase_no,
            "step": self.step,
            "done": {k: list(v) for k, v in sorted(self.done.items())},
            "winners": list(self.winners),
            "actor": self.actor,
            "kind": self.kind,
            "moved": list(self.moved),
            "fire": self.fire.to_json(),
            "exited": list(self.exited),
            "bases": [b.to_json() for b in self.bases.values()],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        clone = State(
            setup=self.setup,
            bases={k: _BASE(b) for k, b in self.bases.items()},
            turn=self.turn,
            phase=self.phase,
            phase_no=self.phase_no,
            step=self.step,
            done={k: list(v) for k, v in self.done.items()},
            winners=list(self.winners),
            actor=self.actor,
            kind=self.kind,
            moved=list(self.moved),
            fire=self.fire.copy(),
            exited=list(self.exited),
            outcome=self.outcome,
        )
        for b in clone.bases.values():
            b.mounts = {k: _MOUNT(m) for k, m in b.mounts.items()}
        return clone


_BASE = field_copier(Base)
_MOUNT = field_copier(Mount)
