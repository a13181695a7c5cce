"""The CGME game state: units and their movement points, buildings, whose turn, the open attack."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from warbench.core.outcome import Outcome
from warbench.geometry.hexgrid import Hex
from warbench.rulesets.cgme.data import UnitType
from warbench.rulesets.cgme.scenario import Setup
from warbench.rulesets.kit.state import TwoSides


@dataclass(slots=True)
class Unit:
    """One unit on (or off) the board. ``pos`` is None once destroyed.

    A rider (``carrier`` set) stands wherever its carrier is, but is not one
    of the units stacked in that hex.
    """

    id: str
    side: str
    type: UnitType
    pos: Hex | None
    wounded: bool = False
    mp: int = 0
    """Regular movement points left this movement phase."""
    bonus: int = 0
    """Road bonus MP earned and not yet spent this movement phase."""
    road: int = 0
    """Regular MP spent along roads toward the next bonus point."""
    moved: bool = False
    """Spent movement points this turn (the move-or-shoot option reads it)."""
    attacked: bool = False
    """Attacked (or joined an attack) this turn."""
    carrier: str | None = None
    riders: list[str] = field(default_factory=list)

    @property
    def on_board(self) -> bool:
        return self.pos is not None

    def copy(self) -> Unit:
        """An independent copy (the riders list is new; the rest are values)."""
        clone = Unit(*_UNIT_FIELDS(self))
        clone.riders = list(self.riders)
        return clone

    def to_json(self) -> dict[str, Any]:
        t = self.type
        return {
            "id": self.id,
            "side": self.side,
            "type": t.key,
            "name": t.name,
            "at": self.pos.label if self.pos else None,
            "wounded": self.wounded,
            "mp": self.mp,
            "bonus": self.bonus,
            "road": self.road,
            "moved": self.moved,
            "attacked": self.attacked,
            "carrier": self.carrier,
            "riders": list(self.riders),
            "ratings": t.ratings(),
            "class": t.move_class,
        }


@dataclass(slots=True)
class Building:
    """A hardened structure: DEF and structural points (V.E.G., Buildings)."""

    id: str
    side: str
    pos: Hex
    dfn: int
    sp: int
    max_sp: int
    value: int

    @property
    def standing(self) -> bool:
        return self.sp > 0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "at": self.pos.label,
            "def": self.dfn,
            "sp": self.sp,
            "max_sp": self.max_sp,
            "standing": self.standing,
        }


@dataclass(slots=True)
class OpenAttack:
    """An attack declared and not yet rolled: more units may combine into it."""

    target: str
    attackers: list[str]
    during_move: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "attackers": list(self.attackers),
            "during_move": self.during_move,
        }


@dataclass(slots=True)
class State(TwoSides[Unit]):
    """Everything that changes during a game on the CGME core."""

    setup: Setup
    units: dict[str, Unit]
    stacks: dict[Hex, list[Unit]]
    """The units standing in each occupied hex (riders not counted), in arrival order."""
    parts: dict[Hex, int]
    """Stacking weight in each occupied hex, in the world's parts."""
    buildings: dict[str, Building]
    turn: int = 1
    player: int = 0
    """Index into ``setup.sides``: whose player turn it is."""
    phase: int = 0
    """Index into the core's phase list."""
    attack: OpenAttack | None = None
    lost: dict[str, int] = field(default_factory=dict)
    """Value each side has lost (units destroyed, buildings' structural points)."""
    outcome: Outcome | None = None
    version: int = 0
    """Bumped whenever a unit changes hex or leaves the board (cache key; not in the digest)."""
    side_version: dict[str, int] = field(default_factory=dict)
    """Per side, bumped whenever one of its units or buildings changes hex, state or
    leaves the board (cache key for what depends on the enemy only; not in the digest)."""
    caches: dict[Any, Any] = field(default_factory=dict)
    """Derived data (reach, options, scores); never part of the digest."""

    @property
    def side(self) -> str:
        return self.setup.sides[self.player]

    def copy(self, memo: dict[int, Any] | None = None) -> State:
        """An independent copy, for look-ahead and search (``copy_state``).

        The set-up (read-only, shared by every game of the scenario) and the unit
        types are shared; units, buildings, the open attack and every container
        are new, and the stacks hold the copied units. The caches start empty:
        cached tables hold the original's units and are changed in place. Far
        cheaper than a generic deep copy, which copied the whole set-up too
        (benchmarks/bench_engine.py). ``memo`` (as ``copy.deepcopy`` passes) maps
        the original state, units and buildings to their copies.
        """
        clone = State(*_STATE_FIELDS(self))
        units = {key: unit.copy() for key, unit in self.units.items()}
        buildings = {key: Building(*_BUILDING_FIELDS(b)) for key, b in self.buildings.items()}
        if memo is not None:
            memo[id(self)] = clone
            for key, unit in self.units.items():
                memo[id(unit)] = units[key]
            for key, building in self.buildings.items():
                memo[id(building)] = buildings[key]
        clone.units = units
        clone.stacks = {h: [units[u.id] for u in stack] for h, stack in self.stacks.items()}
        clone.parts = dict(self.parts)
        clone.buildings = buildings
        attack = self.attack
        if attack is not None:
            clone.attack = OpenAttack(attack.target, list(attack.attackers), attack.during_move)
        clone.lost = dict(self.lost)
        clone.side_version = dict(self.side_version)
        clone.caches = {}
        return clone

    @property
    def phase_name(self) -> str:
        return self.setup.world.core.phases[self.phase]

    def touch(self, side: str) -> None:
        """Note that something of ``side`` changed (see :attr:`side_version`)."""
        self.version += 1
        self.side_version[side] = self.side_version.get(side, 0) + 1

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "player": self.side,
            "phase": self.phase_name,
            "attack": self.attack.to_json() if self.attack else None,
            "lost": dict(self.lost),
            "outcome": self.outcome.to_json() if self.outcome else None,
            "units": [u.to_json() for u in self.units.values()],
            "buildings": [b.to_json() for b in self.buildings.values()],
        }


_UNIT_FIELDS = attrgetter(*(f.name for f in fields(Unit)))
"""Every field of a unit, in order; :meth:`Unit.copy` renews the riders list."""
_BUILDING_FIELDS = attrgetter(*(f.name for f in fields(Building)))
"""Every field of a building (all values)."""
_STATE_FIELDS = attrgetter(*(f.name for f in fields(State)))
"""Every field of a state, in order. :meth:`State.copy` renews the containers it
knows: a new container field must be renewed there too, or the copies share it."""
