"""The VSGMR game state: figures on (and off) the table, items, the round and its step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from warbench.core.copying import field_copier
from warbench.core.outcome import Outcome
from warbench.geometry.table import Figure, Point
from warbench.rulesets.vsgmr.data import Profile
from warbench.rulesets.vsgmr.scenario import Setup

Where = Literal["table", "mounted", "defeated", "left"]
"""On the table; riding a mount (on the table with it); defeated (III); gone off the edge (II.2)."""


@dataclass(slots=True)
class Fig:
    """One figure. ``geo`` is its base, place and facing (a rider: its mount's place)."""

    id: str
    side: str
    profile: Profile
    geo: Figure
    where: Where = "table"
    mount: str | None = None
    """The cavalry or vehicle this guy rides or drives."""
    rider: str | None = None
    """The guy riding or driving this cavalry or vehicle."""
    items: list[str] = field(default_factory=list)
    moved: bool = False
    """Moved this round (II.2: once per round), was carried, or picked an item up."""
    attacked: bool = False
    """Made its one distance or hand to hand attack this round (II.3-4)."""
    skilled: bool = False
    """Made a skill roll this round (ruling: one per figure and round)."""

    @property
    def active(self) -> bool:
        """Still in the game: on the table or riding on it."""
        return self.where in ("table", "mounted")

    @property
    def kind(self) -> str:
        return self.profile.kind

    def to_json(self) -> dict[str, Any]:
        p = self.profile
        on = self.active
        return {
            "id": self.id,
            "side": self.side,
            "type": p.kind,
            "profile": p.key,
            "distance": p.distance,
            "auto": p.auto,
            "armour": p.armour,
            "skills": list(p.skills),
            "points": p.points,
            "where": self.where,
            "x": self.geo.x if on else None,
            "y": self.geo.y if on else None,
            "facing": self.geo.facing if on else None,
            "mount": self.mount,
            "rider": self.rider,
            "items": list(self.items),
            "moved": self.moved,
            "attacked": self.attacked,
            "skilled": self.skilled,
        }


@dataclass(slots=True)
class Item:
    """A scenario item: lying at ``at``, carried by ``carrier``, or gone off the table."""

    id: str
    label: str
    points: int
    at: Point | None
    carrier: str | None = None
    locked: bool = False
    gone: bool = False
    scored_by: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "points": self.points,
            "at": list(self.at) if self.at is not None else None,
            "carrier": self.carrier,
            "locked": self.locked,
            "gone": self.gone,
            "scored_by": self.scored_by,
        }


@dataclass(slots=True)
class State:
    """Everything that changes during a game of VSGMR."""

    setup: Setup
    figs: dict[str, Fig]
    items: dict[str, Item]
    destroyed: set[str] = field(default_factory=set)
    """Terrain features destroyed by attacks (III)."""
    round: int = 1
    phase: str = "initiative"
    order: tuple[str, ...] = ()
    """Sides in play order this round: the starting side, then to its left."""
    chooser: str | None = None
    """Who won the initiative and must name the starting side."""
    rolls: dict[str, int] = field(default_factory=dict)
    rolling: tuple[str, ...] = ()
    """Sides rolling for initiative now (all, or those tied for highest)."""
    actor: int = 0
    """Index in ``order`` of the side acting in this step."""
    done: set[str] = field(default_factory=set)
    """Sides finished with this step."""
    scores: dict[str, float] = field(default_factory=dict)
    tasks_done: set[str] = field(default_factory=set)
    """Tasks achieved: ``task`` (once) or ``task:side`` (once per side)."""
    outcome: Outcome | None = None
    version: int = 0
    """Bumped whenever a figure, item or feature changes; the key of derived caches."""
    caches: dict[Any, Any] = field(default_factory=dict)
    """Derived data (scene, sight, options) of this version; never part of the digest."""
    kept: dict[Any, Any] = field(default_factory=dict)
    """Derived data kept across versions, each piece invalidated only by the changes that
    can alter it (see :mod:`.memo`); never part of the digest, never shared by copies."""

    def changed(self) -> None:
        self.version += 1
        self.caches.clear()

    def side_figs(self, side: str) -> list[Fig]:
        """The side's figures still in the game (riders included)."""
        return [f for f in self.figs.values() if f.side == side and f.active]

    def on_table(self) -> list[Fig]:
        """Figures standing on the table in their own right (riders excluded)."""
        return [f for f in self.figs.values() if f.where == "table"]

    @property
    def acting_side(self) -> str | None:
        if self.phase == "initiative":
            return self.chooser
        if not self.order:
            return None
        return self.order[self.actor]

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "order": list(self.order),
            "chooser": self.chooser,
            "initiative_rolls": dict(self.rolls),
            "rolling": list(self.rolling),
            "actor": self.acting_side,
            "done": sorted(self.done),
            "scores": dict(self.scores),
            "destroyed_features": sorted(self.destroyed),
            "tasks_done": sorted(self.tasks_done),
            "outcome": self.outcome.to_json() if self.outcome else None,
            "figures_state": [f.to_json() for f in self.figs.values()],
            "items": [i.to_json() for i in self.items.values()],
        }


copy_fields = field_copier(State)
"""A shallow copy of a state (``VSGMR.copy_state`` copies what changes inside it)."""
copy_fig = field_copier(Fig)
copy_item = field_copier(Item)
