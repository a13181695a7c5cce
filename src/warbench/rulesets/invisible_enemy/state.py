"""The Invisible Enemy game state: bases in units, fungus towers, markers, the networks, the turn.

The turn (1.6) is seven phases; ``step`` says where in them the game is:

- ``network``: network combat and the Type 2 acquisition rolls (automatic, 2.0);
- ``buy``: the side with more action points declares its purchases, then the other;
- ``mark1``: Type 1 (and Type 2) markers placed, the purchase order first (3.0);
- ``initiative``: the initiative roll (automatic; a tie gives ``tie`` then again);
- ``tie``: each side places its free barrage at once (sealed, 4.6);
- ``activate``: the side to move names a unit to try, passes, or self-destructs;
- ``unit``: that unit passed its Control roll: its bases move (or engineer) one at a time;
- ``last``: after all movement, each side may still self-destruct (6.0);
- ``mark2``: Type 2 markers placed after movement; ``deflect``: deflections tagged (3.0);
- ``fire_a``, ``fire_b``: direct fire steps a (K, P) and b (C), each side in turn (5.0);
- ``resolve``: the barrages strike (automatic, phase 6); then the reset (phase 7);
- ``over``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

import shapely

from warbench.core.copying import field_copier
from warbench.geometry.table import Feature, Scene, Terrain, remains
from warbench.rulesets.invisible_enemy.charts import Damage, Mission, damage_band
from warbench.rulesets.invisible_enemy.data import VehicleModel
from warbench.rulesets.invisible_enemy.scenario import Setup
from warbench.rulesets.kit.eye import Emitter
from warbench.rulesets.kit.table.bases import TableBase
from warbench.rulesets.kit.table.state import TableState

Step = Literal[
    "network",
    "buy",
    "mark1",
    "initiative",
    "tie",
    "activate",
    "control",
    "unit",
    "last",
    "mark2",
    "deflect",
    "fire_a",
    "fire_b",
    "resolve",
    "over",
]
MarkerKind = Literal["type1", "type2", "tie"]


@dataclass(slots=True)
class Base(TableBase[VehicleModel]):
    """One MGV base on the table (or gone).

    ``exited``: it got off the table by the breach edge; ``trapped``: trapped by
    terrain (1.5), immobilised until an engineer frees it."""

    unit: str
    hits: int = 0
    contaminated: int = 0
    """The turn it was infected (1.5 note 2); 0: clean. From the next turn it hunts."""
    moved_turn: int = 0
    """The turn in which it last moved or turned (5.3 raking needs a base that has not)."""
    fired_turn: int = 0
    """The turn in which it last fired (one direct fire roll per phase, 5.0)."""
    engineered_turn: int = 0
    """The turn in which it last took an engineering action (ruling 40: one a turn)."""
    armed: bool = False
    """A strike engineer's payload is armed (7.0)."""
    towing: str | None = None
    """The base this engineer has a tow on (4.4)."""

    @property
    def damage(self) -> Damage:
        return damage_band(self.hits, self.model.hull)

    @property
    def role(self) -> str:
        return self.model.role

    @property
    def weapon(self) -> str:
        return self.model.weapon

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "unit": self.unit,
            **self.placed_json(),
            "hits": self.hits,
            "hull": self.model.hull,
            **self.out_json(),
            "contaminated": self.contaminated,
            "moved_turn": self.moved_turn,
            "fired_turn": self.fired_turn,
            "engineered_turn": self.engineered_turn,
            "armed": self.armed,
            "towing": self.towing,
        }


@dataclass(slots=True)
class Unit:
    id: str
    side: str
    formation: str
    mission: Mission | None
    bases: tuple[str, ...]
    attempted_turn: int = 0
    """The turn its Control roll was made (one attempt a turn, 4.0)."""
    auto_turn: int = 0
    """The turn an automatic move marker was put on it (2.0)."""


@dataclass(slots=True)
class Tower:
    """A fungus tower: logged like an MGV (1.5 note 2)."""

    id: str
    hull: int
    hits: int = 0
    live: bool = True

    @property
    def destroyed(self) -> bool:
        return self.hits >= self.hull

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "hull": self.hull, "hits": self.hits, "live": self.live}


@dataclass(slots=True)
class Marker:
    """A barrage marker on the table (3.0)."""

    id: str
    side: str
    kind: MarkerKind
    at: tuple[float, float]
    deflected: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "kind": self.kind,
            "at": list(self.at),
            "deflected": self.deflected,
        }


@dataclass(slots=True)
class Network:
    """One side's network (2.0) and its fire support this turn."""

    dice: int
    points: int = 0
    spent: int = 0
    status: int = 100
    """Network status this turn (100, 75, 50, 25: 4.0), lowered by enemy suppression."""
    type1: int = 0
    """Type 1 barrages bought this turn, not yet placed (lost at initiative, 3.0)."""
    type2: int = 0
    """Type 2 markers held (kept across turns, 2.0)."""
    deflections: int = 0
    """Deflections bought this turn, not yet used (end of phase 4, 2.0)."""
    rolls: tuple[int, ...] = ()
    """This turn's network dice as rolled (public)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "dice": self.dice,
            "points": self.points,
            "spent": self.spent,
            "status": self.status,
            "type1": self.type1,
            "type2": self.type2,
            "deflections": self.deflections,
            "rolls": list(self.rolls),
        }


@dataclass(slots=True)
class Shot:
    """Hits scored in a fire step, waiting for the step's end (5.0: simultaneous)."""

    shooter: str
    target: str
    hits: int


@dataclass(slots=True)
class State(TableState[Setup, Base]):
    """Everything that changes during a game of Invisible Enemy.

    ``exited``: the bases that got off the table by the breach edge."""

    units: dict[str, Unit]
    towers: dict[str, Tower]
    networks: dict[str, Network]
    terrain: Terrain
    """The table's terrain as it stands (barrages and engineers clear features)."""
    turn: int = 1
    step: Step = "network"
    order: tuple[str, ...] = ()
    """Sides in the order they act in the current step (purchases, markers, fire)."""
    actor: str | None = None
    initiative: str | None = None
    """This turn's initiative winner (4.6)."""
    passed: list[str] = field(default_factory=list)
    """Sides that passed on moving this turn (4.0)."""
    current: str | None = None
    """The unit moving now (passed its Control roll)."""
    moved: list[str] = field(default_factory=list)
    """Bases of the current unit that have moved or acted this activation."""
    markers: list[Marker] = field(default_factory=list)
    marker_count: int = 0
    ties: int = 0
    """Tied initiative rolls this turn (each gives a free barrage a side, 4.6)."""
    pending: list[Shot] = field(default_factory=list)
    """Hits of the current fire step, applied at its end (5.0)."""
    exposed: list[tuple[str, str]] = field(default_factory=list)
    """(base, source) pairs already rolled for infection this turn (1.5 note 2)."""

    def active(self, side: str | None = None) -> list[Base]:
        # ``Base.active`` spelt out: asked of every base many times an action.
        if side is None:
            return [b for b in self.bases.values() if not (b.destroyed or b.exited)]
        return [b for b in self.bases.values() if b.side == side and not (b.destroyed or b.exited)]

    def tow_of(self, engineer: Base) -> Base | None:
        """The base ``engineer`` has a tow on (4.4), if it is still on the table and clean
        (a contaminated base is no one's to drag: it hunts on its own, 1.5 note 2)."""
        if engineer.towing is None or not engineer.active:
            return None
        towed = self.bases.get(engineer.towing)
        if towed is None or not towed.active or towed.contaminated:
            return None
        return towed

    def unit_bases(self, unit: str) -> list[Base]:
        # ``Base.active`` spelt out, as in :meth:`active`.
        bases = self.bases
        return [
            base
            for b in self.units[unit].bases
            if not ((base := bases[b]).destroyed or base.exited)
        ]

    def scene(self) -> Scene:
        """The table with every base still on it (rebuilt after any change)."""
        if self.scene_cache is None:
            self.scene_cache = Scene(self.setup.table, self.terrain, [b.geo for b in self.active()])
        return self.scene_cache

    def touched(self) -> None:
        """The table changed: forget what depended on it."""
        self.scene_cache = None
        self.plans = {}
        self.lines = {}

    def destroy(
        self, base: Base, res: Emitter, text: str, *, touch: bool = True, **data: Any
    ) -> None:
        """``base`` is destroyed, told as ``text`` (a ``destroyed`` event naming it, with
        ``data``: the cause and who is credited); ``touch``: the table is touched
        (:meth:`touched`) at once, as fire, blasts and barrages do."""
        base.destroyed = True
        if touch:
            self.touched()
        res.emit("destroyed", text, base=base.id, **data)

    def clear(self, *feature_ids: str) -> None:
        """Take features off the table for good (barrages, engineers, a tower at full hits)."""
        if not feature_ids:
            return
        self.terrain = self.terrain.replaced(
            *(replace(self.terrain.feature(i), destroyed=True) for i in feature_ids)
        )
        self.touched()

    def cut(self, area: shapely.Geometry, feature_ids: list[str], least: float) -> list[str]:
        """Clear what of each feature lies in ``area`` (3.0, 4.4, 7.0): what is left of it
        stays, in pieces if the cut splits it (the largest keeps the id, the others are
        named ``ID-2``, ``ID-3``...); a feature left with nothing, or only crumbs under
        ``least`` square inches, is cleared for good. Returns the ids of the features cut."""
        changed: list[Feature] = []
        cleared: list[str] = []
        cut: list[str] = []
        taken = {f.id for f in self.terrain.features} | set(self.bases) | set(self.units)
        for fid in feature_ids:
            feature = self.terrain.feature(fid)
            pieces = remains(feature, area, least)
            if pieces == [feature]:
                continue
            cut.append(fid)
            if not pieces:
                cleared.append(fid)
                continue
            changed.append(pieces[0])
            n = 2
            for piece in pieces[1:]:
                while f"{fid}-{n}" in taken:
                    n += 1
                taken.add(f"{fid}-{n}")
                changed.append(replace(piece, id=f"{fid}-{n}"))
        if changed or cleared:
            # One new layout for the pieces and the features cleared for good (as
            # :meth:`clear` clears them): the same layout as replacing one after the other.
            gone = (replace(self.terrain.feature(i), destroyed=True) for i in cleared)
            self.terrain = self.terrain.replaced(*changed, *gone)
        if cut:
            self.touched()
        return cut

    def new_marker_id(self) -> str:
        self.marker_count += 1
        return f"M{self.marker_count}"

    def to_json(self) -> dict[str, Any]:
        setup = {f.id: f for f in self.setup.terrain.features}
        return {
            "turn": self.turn,
            "step": self.step,
            "order": list(self.order),
            "actor": self.actor,
            "initiative": self.initiative,
            "passed": list(self.passed),
            "current": self.current,
            "moved": list(self.moved),
            "networks": {k: v.to_json() for k, v in sorted(self.networks.items())},
            "units": {
                u.id: {
                    "attempted_turn": u.attempted_turn,
                    "auto_turn": u.auto_turn,
                }
                for u in self.units.values()
            },
            "towers": [t.to_json() for t in self.towers.values()],
            "cleared": sorted(f.id for f in self.terrain.features if f.destroyed),
            "terrain": [  # what barrages and engineers left of a feature, MEK-Lok built
                f.to_dict()
                for f in self.terrain.features
                if not f.destroyed and f != setup.get(f.id)
            ],
            "markers": [m.to_json() for m in self.markers],
            "ties": self.ties,
            "pending": [
                {"shooter": s.shooter, "target": s.target, "hits": s.hits} for s in self.pending
            ],
            "exposed": [list(e) for e in self.exposed],
            "exited": list(self.exited),
            "bases": [b.to_json() for b in self.bases.values()],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return State(
            setup=self.setup,
            bases={k: _BASE(b) for k, b in self.bases.items()},
            units={k: _UNIT(u) for k, u in self.units.items()},
            towers={k: _TOWER(t) for k, t in self.towers.items()},
            networks={k: _NETWORK(n) for k, n in self.networks.items()},
            terrain=self.terrain,
            turn=self.turn,
            step=self.step,
            order=self.order,
            actor=self.actor,
            initiative=self.initiative,
            passed=list(self.passed),
            current=self.current,
            moved=list(self.moved),
            markers=[_MARKER(m) for m in self.markers],
            marker_count=self.marker_count,
            ties=self.ties,
            pending=[_SHOT(s) for s in self.pending],
            exposed=list(self.exposed),
            exited=list(self.exited),
            outcome=self.outcome,
        )


_BASE = field_copier(Base)
_UNIT = field_copier(Unit)
_TOWER = field_copier(Tower)
_NETWORK = field_copier(Network)
_MARKER = field_copier(Marker)
_SHOT = field_copier(Shot)

__all__ = ["Base", "Marker", "Network", "Shot", "State", "Step", "Tower", "Unit"]
