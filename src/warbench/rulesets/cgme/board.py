"""The CGME board: a hex map plus tables precomputed for the hot paths.

Built once per scenario and shared by every game played on it (a simulation
plays thousands): per movement class, the steps out of every hex with their
MP cost and whether they follow a road; the terrain modifiers of every hex;
where the hazards are; how far every hex is from a road and from a hazard
(so a move that can touch neither takes the C least-cost search); and the
hexes within a radius of each hex. Hexes are dense integer indices here.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from warbench.geometry.fastpath import Adjacency
from warbench.geometry.hexgrid import Hex
from warbench.geometry.hexmap import HexMap
from warbench.rulesets.cgme.data import Crossing, Hazard, UnitType, World

if TYPE_CHECKING:
    from warbench.rulesets.cgme.movement import Reach

Step = tuple[int, int, bool]
"""(neighbour index, MP to enter it, whether the step runs along a road)."""
FAR = 1 << 20
DISTANCE_CACHE_SIZE = 5_000
"""Distance tables kept on a board before the cache starts afresh (bounds memory)."""


@dataclass(slots=True, eq=False)
class Board:
    """Map, world and derived tables; read-only once built."""

    map: HexMap
    world: World
    crossing: Crossing = "beyond_step"
    """How hexside crossing costs are paid (option ``hexside_crossing``)."""
    hexes: tuple[Hex, ...] = ()
    index: dict[Hex, int] = field(default_factory=dict)
    steps: dict[str, list[tuple[Step, ...]]] = field(default_factory=dict)
    """Per class, the steps out of each hex (any terrain the class may enter, roads too)."""
    road_steps: dict[str, list[tuple[Step, ...]]] = field(default_factory=dict)
    """Per class, the steps along roads only (for road-bound units such as the truck)."""
    adjacency: dict[tuple[str, bool], Adjacency] = field(default_factory=dict)
    """The same steps for the C least-cost search, keyed by (class, road-bound)."""
    hazard: list[Hazard | None] = field(default_factory=list)
    hazard_flag: list[int] = field(default_factory=list)
    on_road: list[bool] = field(default_factory=list)
    standable: dict[str, list[bool]] = field(default_factory=dict)
    dfn_mod: dict[str, list[int]] = field(default_factory=dict)
    att_mod: dict[str, list[int]] = field(default_factory=dict)
    to_road: list[int] = field(default_factory=list)
    to_hazard: list[int] = field(default_factory=list)
    empty: bytes = b""
    """A mask with no hex set (no blocked hex, no stop)."""
    _within: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    _distance_cache: dict[tuple[int, ...], list[int]] = field(default_factory=dict)
    reach_cache: dict[tuple[object, ...], Reach] = field(default_factory=dict)
    """Leg searches by (class, road-bound, start, MP, bonus, road MP, bonus rule, mask).

    A search depends on nothing else, so every game on this board shares it
    (a simulation repeats the same searches thousands of times)."""

    def __post_init__(self) -> None:
        world, hexmap = self.world, self.map
        grid = hexmap.grid
        self.hexes = grid.hexes
        self.index = {h: i for i, h in enumerate(self.hexes)}
        self.empty = bytes(len(self.hexes))
        road_hexes = hexmap.road_hexes()
        self.on_road = [h in road_hexes for h in self.hexes]
        rules = [world.terrain[hexmap.terrain_at(h)] for h in self.hexes]
        self.hazard = [rule.hazard for rule in rules]
        self.hazard_flag = [1 if hz is not None else 0 for hz in self.hazard]
        for cls in world.classes:
            steps: list[tuple[Step, ...]] = []
            along: list[tuple[Step, ...]] = []
            for h in self.hexes:
                row: list[Step] = []
                road_row: list[Step] = []
                for n in grid.neighbours_on_map(h):
                    cost, road = self.step_cost(h, n, cls)
                    if cost is not None:
                        row.append((self.index[n], cost, road))
                        if road:
                            road_row.append((self.index[n], cost, road))
                steps.append(tuple(row))
                along.append(tuple(road_row))
            self.steps[cls] = steps
            self.road_steps[cls] = along
            for road_only, table in ((False, steps), (True, along)):
                self.adjacency[(cls, road_only)] = Adjacency(
                    [[(j, c) for j, c, _ in row] for row in table]
                )
            entries = [rule.entry(cls) for rule in rules]
            self.standable[cls] = [
                e.cost is not None or self.on_road[i] for i, e in enumerate(entries)
            ]
            # Roads, V.E.G.: combat bonuses of the terrain under a road still
            # count, its penalties may be ignored (so they are).
            self.dfn_mod[cls] = [
                max(e.dfn, 0) if self.on_road[i] else e.dfn for i, e in enumerate(entries)
            ]
            self.att_mod[cls] = [
                max(e.att, 0) if self.on_road[i] else e.att for i, e in enumerate(entries)
            ]
        self.to_road = self._distances([i for i, r in enumerate(self.on_road) if r])
        self.to_hazard = self._distances([i for i, f in enumerate(self.hazard_flag) if f])

    # -- movement ----------------------------------------------------------------------
    def step_cost(self, frm: Hex, to: Hex, cls: str) -> tuple[int | None, bool]:
        """MP for a unit of ``cls`` to step from ``frm`` into adjacent ``to`` (None: may not).

        Along a road (both hexes on it, linked) the step costs what clear terrain
        costs, whatever the terrain or hexside (Roads). Otherwise the terrain
        entered, plus what crossing a hexside feature costs beyond a plain step
        (a stream: "2 MP to cross" for vehicles is one more than clear), or,
        under ``crossing = "additive"``, plus the crossing cost itself (a
        stream: 2 more for vehicles, 1 more for hovercraft).
        """
        world = self.world
        if self.map.road_between(frm, to):
            return world.default_cost, True
        cost = world.terrain[self.map.terrain_at(to)].entry(cls).cost
        if cost is None:
            return None, False
        feature = self.map.feature_between(frm, to)
        if feature is not None:
            extra = world.hexsides[feature].extra(cls, world.default_cost, self.crossing)
            if extra is None:
                return None, False
            cost += extra
        return cost, False

    def path_cost(self, kind: UnitType, path: list[int]) -> int:
        """MP a unit of this type pays to follow ``path`` (hex indices, start first)."""
        table = self.road_steps if kind.road_only else self.steps
        steps = table[kind.move_class]
        total = 0
        for here, there in itertools.pairwise(path):
            total += next(c for j, c, _ in steps[here] if j == there)
        return total

    def within(self, i: int, radius: int) -> tuple[int, ...]:
        """Indices of the on-map hexes within ``radius`` of hex ``i`` (cached)."""
        key = (i, radius)
        found = self._within.get(key)
        if found is None:
            centre = self.hexes[i]
            index = self.index
            found = tuple(index[h] for h in centre.within(radius) if h in index)
            self._within[key] = found
        return found

    def distances_to(self, sources: list[int]) -> list[int]:
        """:meth:`_distances`, cached by the set of sources (shared by every game)."""
        key = tuple(sorted(set(sources)))
        found = self._distance_cache.get(key)
        if found is None:
            if len(self._distance_cache) > DISTANCE_CACHE_SIZE:
                self._distance_cache.clear()
            found = self._distance_cache[key] = self._distances(list(key))
        return found

    def _distances(self, sources: list[int]) -> list[int]:
        """Hex distance from every hex to the nearest of ``sources`` (FAR if none)."""
        out = [FAR] * len(self.hexes)
        if not sources:
            return out
        neighbours = self.map.grid.neighbours_on_map
        index = self.index
        frontier = sources
        for i in sources:
            out[i] = 0
        step = 0
        while frontier:
            step += 1
            nxt = []
            for i in frontier:
                for n in neighbours(self.hexes[i]):
                    j = index[n]
                    if out[j] == FAR:
                        out[j] = step
                        nxt.append(j)
            frontier = nxt
        return out

    def label(self, i: int) -> str:
        return self.hexes[i].label

    def terrain_name(self, i: int) -> str:
        return self.map.terrain_at(self.hexes[i])
