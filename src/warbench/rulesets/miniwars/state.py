"""The MiniWars game state: units, turn, phase, roles and the step within a phase."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from warbench.core.outcome import Outcome
from warbench.geometry.hexgrid import Hex
from warbench.rulesets.kit.state import TwoSides
from warbench.rulesets.miniwars.data import UnitType
from warbench.rulesets.miniwars.scenario import Setup


@dataclass(slots=True)
class Unit:
    """One unit on (or off) the board. ``pos`` is None once removed."""

    id: str
    side: str
    type: UnitType
    pos: Hex | None
    disrupted: bool = False
    fired: bool = False
    """The missile fire marker: set when it fires, cleared at the next initiative."""
    acted: bool = False
    """Moved this Movement/Combat phase, or tried a rally this Morale phase."""

    @property
    def on_board(self) -> bool:
        return self.pos is not None

    def copy(self) -> Unit:
        """An independent copy (every field is a value or shared read-only data)."""
        return Unit(*_UNIT_FIELDS(self))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "type": self.type.key,
            "name": self.type.name,
            "at": self.pos.label if self.pos else None,
            "disrupted": self.disrupted,
            "fired": self.fired,
            "acted": self.acted,
            "move": self.type.move,
            "cavalry": self.type.cavalry,
            "cs": self.type.cs,
            "missile": self.type.missile,
            "morale": self.type.morale,
            "cost": self.type.cost,
        }


@dataclass(slots=True)
class State(TwoSides[Unit]):
    """Everything that changes during a game of MiniWars."""

    setup: Setup
    units: dict[str, Unit]
    occupant: dict[Hex, Unit]
    turn: int = 1
    phase: int = 0
    step: str = "roll"
    roles: dict[str, str] = field(default_factory=dict)
    """Role ("A"/"B") -> side, this turn."""
    rolls: dict[str, int] = field(default_factory=dict)
    chooser: str | None = None
    last_loser: str | None = None
    active: str | None = None
    """The unit whose attack (or advance) is being decided."""
    vacated: Hex | None = None
    broken: set[str] = field(default_factory=set)
    start_count: dict[str, int] = field(default_factory=dict)
    lost_cost: dict[str, int] = field(default_factory=dict)
    outcome: Outcome | None = None
    caches: dict[Any, Any] = field(default_factory=dict)
    """Derived data (reach, zones of control); cleared whenever units change."""

    @property
    def phase_name(self) -> str:
        return self.setup.board.charts.phases[self.phase]

    def copy(self, memo: dict[int, Any] | None = None) -> State:
        """An independent copy, for look-ahead and search (``copy_state``).

        The set-up (read-only, shared by every game of the scenario) and the unit
        types are shared; units and every container are new. The caches start
        empty: cached tables hold the original's units and are changed in place.
        Far cheaper than a generic deep copy, which copied the whole set-up too
        (benchmarks/bench_engine.py). ``memo`` (as ``copy.deepcopy`` passes)
        maps the original state and units to their copies.
        """
        clone = State(*_STATE_FIELDS(self))
        units = {key: unit.copy() for key, unit in self.units.items()}
        if memo is not None:
            memo[id(self)] = clone
            for key, unit in self.units.items():
                memo[id(unit)] = units[key]
        clone.units = units
        clone.occupant = {u.pos: u for u in units.values() if u.pos is not None}
        clone.roles = dict(self.roles)
        clone.rolls = dict(self.rolls)
        clone.broken = set(self.broken)
        clone.start_count = dict(self.start_count)
        clone.lost_cost = dict(self.lost_cost)
        clone.caches = {}
        return clone

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase_name,
            "step": self.step,
            "roles": dict(self.roles),
            "initiative_rolls": dict(self.rolls),
            "chooser": self.chooser,
            "last_loser": self.last_loser,
            "active": self.active,
            "vacated": self.vacated.label if self.vacated else None,
            "broken": sorted(self.broken),
            "lost_cost": dict(self.lost_cost),
            "outcome": self.outcome.to_json() if self.outcome else None,
            "units": [u.to_json() for u in self.units.values()],
        }


_UNIT_FIELDS = attrgetter(*(f.name for f in fields(Unit)))
"""Every field of a unit, in order (a new field is copied with no change here)."""
_STATE_FIELDS = attrgetter(*(f.name for f in fields(State)))
"""Every field of a state, in order. :meth:`State.copy` renews the containers it
knows: a new container field must be renewed there too, or the copies share it."""
