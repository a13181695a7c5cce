"""The MiniWars board: a hex map plus precomputed tables for the hot paths.

Built once per scenario and shared by every game played on it (a simulation
plays thousands): movement costs per movement class, the hexes each hex
projects a zone of control into, where melee may cross, and a cache of
terrain line of sight.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from warbench.geometry.fastpath import Adjacency
from warbench.geometry.hexgrid import DIRECTIONS, Hex, reachable
from warbench.geometry.hexmap import HexMap
from warbench.rulesets.miniwars.data import Charts, MoveClass

EdgeRule = Literal["both", "either"]
MOVE_CLASSES: tuple[MoveClass, ...] = ("infantry", "cavalry")


def line_routes(a: Hex, b: Hex) -> tuple[list[list[Hex]], list[tuple[Hex, Hex]]]:
    """The hexes a centre-to-centre line enters or touches, as one route or two.

    Built on :meth:`Hex.hexes_crossed_to` ("crosses any part of a hex", Missile
    Fire). Two cases give two routes, the line nudged to one side or the other:

    * the line runs exactly along a hexside: the geometry reports both hexes;
      the pairs of one line are translations of each other, so taking the first
      of every pair gives the route on one side and the last the other. Those
      pairs (the hexsides the line runs along) are also returned;
    * the line passes exactly through a hex corner on its way from one hex into
      the next: the third hex at that corner is touched at that point only
      (:func:`corners_touched`). It joins the route on its side of the line.
    """
    steps = a.hexes_crossed_to(b)
    along = [(step[0], step[1]) for step in steps if len(step) == 2]
    if along:
        return [[step[0] for step in steps], [step[-1] for step in steps]], along
    route = [step[0] for step in steps]
    touched = corners_touched(a, b, route)
    if not touched:
        return [route], along
    sides: list[list[Hex]] = [[], []]
    for i, h in enumerate(route):
        for side in sides:
            side.append(h)
        for after, hex_, left in touched:
            if after == i:
                sides[0 if left else 1].append(hex_)
    return sides, along


def corners_touched(a: Hex, b: Hex, route: list[Hex]) -> list[tuple[int, Hex, bool]]:
    """Hexes the line from ``a`` to ``b`` touches only at a corner, exactly.

    ``route`` is the line's hexes in order (no hexside pairs). Where the line
    goes from ``route[i]`` into ``route[i + 1]`` through an end of their shared
    hexside, that corner is also a corner of a third hex, which the line touches
    there and nowhere else. Returns ``(i, third hex, whether it lies left of the
    line)``. Integer arithmetic: a corner of ``P`` between directions ``d`` and
    ``d'`` is the cube point ``P + (d + d') / 3``.
    """
    dq, dr = b.q - a.q, b.r - a.r
    found: list[tuple[int, Hex, bool]] = []
    for i in range(len(route) - 1):
        p, n = route[i], route[i + 1]
        d = p.direction_to(n)
        for other in ((d + 5) % 6, (d + 1) % 6):
            (d1q, d1r), (d2q, d2r) = DIRECTIONS[d], DIRECTIONS[other]
            cq = 3 * (p.q - a.q) + d1q + d2q
            cr = 3 * (p.r - a.r) + d1r + d2r
            if cq * dr - cr * dq != 0:
                continue
            third = Hex(p.q + d2q, p.r + d2r)
            left = (third.q - a.q) * dr - (third.r - a.r) * dq > 0
            found.append((i, third, left))
    return found


@dataclass(slots=True)
class Board:
    """Map, charts and derived tables; read-only once built."""

    map: HexMap
    charts: Charts
    los_along_edge: EdgeRule = "either"
    step_cost: dict[MoveClass, dict[Hex, tuple[tuple[Hex, int], ...]]] = field(default_factory=dict)
    zoc_into: dict[Hex, tuple[Hex, ...]] = field(default_factory=dict)
    melee_into: dict[Hex, tuple[Hex, ...]] = field(default_factory=dict)
    _los_cache: dict[tuple[Hex, Hex], tuple[tuple[Hex, ...], ...] | None] = field(
        default_factory=dict
    )
    _open_reach: dict[tuple[MoveClass, int, Hex], dict[Hex, int]] = field(default_factory=dict)
    index: dict[Hex, int] = field(default_factory=dict)
    """Dense index of every hex, for the integer fast path."""
    adjacency: dict[MoveClass, Adjacency] = field(default_factory=dict)
    _road_hexes: frozenset[Hex] = frozenset()
    _melee_mods: dict[tuple[Hex, Hex], list[tuple[int, str]]] = field(default_factory=dict)
    _fire_lanes: dict[tuple[str, Hex], dict[Hex, tuple[tuple[Hex, ...], ...]]] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        grid = self.map.grid
        self._road_hexes = frozenset(self.map.road_hexes())
        for move_class in MOVE_CLASSES:
            table: dict[Hex, tuple[tuple[Hex, int], ...]] = {}
            for h in grid.hexes:
                steps = []
                for n in grid.neighbours_on_map(h):
                    cost = self.enter_cost(h, n, move_class)
                    if cost is not None:
                        steps.append((n, cost))
                table[h] = tuple(steps)
            self.step_cost[move_class] = table
        hexes = grid.hexes
        self.index = {h: i for i, h in enumerate(hexes)}
        for move_class in MOVE_CLASSES:
            self.adjacency[move_class] = Adjacency(
                [[(self.index[n], c) for n, c in self.step_cost[move_class][h]] for h in hexes]
            )
        for h in grid.hexes:
            zoc, melee = [], []
            for n in grid.neighbours_on_map(h):
                feature = self.map.feature_between(h, n)
                rule = self.charts.hexsides[feature] if feature else None
                if rule is None or rule.zoc:
                    zoc.append(n)
                if rule is None or rule.melee:
                    melee.append(n)
            self.zoc_into[h] = tuple(zoc)
            self.melee_into[h] = tuple(melee)

    # -- movement -------------------------------------------------------------
    def enter_cost(self, frm: Hex, to: Hex, move_class: MoveClass) -> int | None:
        """Half-MP to step from ``frm`` into adjacent ``to``; None if not allowed.

        Along a road only the road cost and going uphill count (footnote 4);
        otherwise the terrain entered plus the hexside crossed, plus uphill.
        """
        charts = self.charts
        uphill = (
            charts.uphill_extra if self.map.elevation_at(to) > self.map.elevation_at(frm) else 0
        )
        if self.map.road_between(frm, to):
            return charts.road_cost + uphill
        terrain = charts.terrain[self.map.terrain_at(to)].cost(move_class)
        if terrain is None:
            return None
        feature = self.map.feature_between(frm, to)
        extra = 0
        if feature is not None:
            side_cost = charts.hexsides[feature].cost(move_class)
            if side_cost is None:
                return None
            extra = side_cost
        return terrain + extra + uphill

    def open_reach(self, start: Hex, budget: int, move_class: MoveClass) -> dict[Hex, int]:
        """Where a unit could end a move on an empty board, cached (do not mutate).

        Least cost in half-MP under the terrain chart, plus every adjacent hex it
        may enter at all (a unit may always move one hex, Movement). When no
        enemy or zone of control touches this area, it is the unit's real reach.
        """
        key = (move_class, budget, start)
        found = self._open_reach.get(key)
        if found is None:
            table = self.step_cost[move_class]
            found = reachable(start, budget, table)
            for n, cost in table[start]:
                found.setdefault(n, cost)
            self._open_reach[key] = found
        return found

    def reach(
        self, start: Hex, budget: int, move_class: MoveClass, blocked: bytes, stops: bytes
    ) -> dict[Hex, int]:
        """Where a unit may end its move among enemies: least cost in half-MP.

        ``blocked`` and ``stops`` are byte masks over :attr:`index` (enemy units,
        their zones of control). Adds the one-hex minimum move (Movement).
        """
        start_i = self.index[start]
        table = self.adjacency[move_class]
        found = table.reach(start_i, budget, blocked, stops)
        for n, cost in table.steps[start_i]:
            if n not in found and not blocked[n]:
                found[n] = cost
        hexes = self.map.grid.hexes
        return {hexes[i]: c for i, c in found.items()}

    def mask(self, hexes: Iterable[Hex]) -> bytes:
        """A byte mask over :attr:`index` with the given hexes set."""
        out = bytearray(len(self.index))
        for h in hexes:
            out[self.index[h]] = 1
        return bytes(out)

    def can_enter(self, frm: Hex, to: Hex, move_class: MoveClass) -> bool:
        return self.enter_cost(frm, to, move_class) is not None

    def terrain_allows(self, h: Hex, move_class: MoveClass) -> bool:
        """Whether a unit of this class may stand in ``h`` at all (set-up check).

        A hex a road runs through counts: units moving along a road ignore the
        terrain (footnote 4), so they can end a move there and may start there.
        """
        if h in self._road_hexes:
            return True
        return self.charts.terrain[self.map.terrain_at(h)].cost(move_class) is not None

    # -- combat geometry -------------------------------------------------------
    def melee_modifier(self, attacker: Hex, defender: Hex) -> list[tuple[int, str]]:
        """Terrain modifiers to a melee roll from ``attacker`` into ``defender`` (cached)."""
        key = (attacker, defender)
        found = self._melee_mods.get(key)
        if found is None:
            found = self._melee_mods[key] = self._melee_modifier(attacker, defender)
        return list(found)

    def _melee_modifier(self, attacker: Hex, defender: Hex) -> list[tuple[int, str]]:
        charts = self.charts
        mods: list[tuple[int, str]] = []
        a_terrain = charts.terrain[self.map.terrain_at(attacker)]
        d_terrain = charts.terrain[self.map.terrain_at(defender)]
        if a_terrain.attacker:
            mods.append((a_terrain.attacker, f"attacker in {a_terrain.name}"))
        if d_terrain.defender:
            mods.append((d_terrain.defender, f"defender in {d_terrain.name}"))
        feature = self.map.feature_between(attacker, defender)
        if feature is not None and charts.hexsides[feature].melee_modifier:
            mods.append((charts.hexsides[feature].melee_modifier, f"attacking across {feature}"))
        mods.extend(self.height_modifiers(attacker, defender, melee=True))
        return mods

    def height_modifiers(self, attacker: Hex, defender: Hex, melee: bool) -> list[tuple[int, str]]:
        """The higher unit's modifier (Hill row for melee, Missile Fire for missiles)."""
        a, d = self.map.elevation_at(attacker), self.map.elevation_at(defender)
        charts = self.charts
        if a > d:
            value = charts.hill_attacker_higher if melee else charts.missile_attacker_higher
            return [(value, "attacker higher")]
        if d > a:
            value = charts.hill_defender_higher if melee else charts.missile_defender_higher
            return [(value, "defender higher")]
        return []

    def target_concealed(self, target: Hex) -> bool:
        """A target in terrain that blocks sight cannot be fired at (Missile Fire)."""
        return self.charts.terrain[self.map.terrain_at(target)].blocks_los

    def los_routes(self, a: Hex, b: Hex) -> tuple[tuple[Hex, ...], ...] | None:
        """Terrain line of sight from ``a`` to ``b``, cached.

        Returns None if terrain blocks the line, else the intermediate hexes of
        each open route (units standing in them still block; the caller checks).
        A line along a hexside or through a hex corner has two routes, one on
        each side (:func:`line_routes`); with the ``either`` rule (default) it
        is blocked if one route is, or if a feature that blocks sight lies on a
        hexside it runs along; with ``both`` only if both routes are. A route
        off the map edge does not exist (there is nothing there to see past).
        """
        key = (a, b)
        if key in self._los_cache:
            return self._los_cache[key]
        routes, along = line_routes(a, b)
        grid = self.map.grid
        on_map = [r for r in routes if all(grid.contains(h) for h in r)]
        routes = on_map or routes  # a route off the map edge is no route at all
        open_routes = [tuple(r[1:-1]) for r in routes if not self._route_blocked(a, b, r)]
        result: tuple[tuple[Hex, ...], ...] | None
        if self.los_along_edge == "either" and (
            len(open_routes) < len(routes) or any(self._side_blocks(x, y) for x, y in along)
        ):
            result = None
        else:
            result = tuple(open_routes) if open_routes else None
        self._los_cache[key] = result
        return result

    def fire_lanes(self, code: str, at: Hex) -> dict[Hex, tuple[tuple[Hex, ...], ...]]:
        """Hexes a missile unit of ``code`` at ``at`` could fire into, cached.

        Only what never changes is decided here: in range, not concealing, and a
        line of sight that terrain leaves open. Each value is the open routes
        (:meth:`los_routes`); units standing on them still block.
        """
        key = (code, at)
        found = self._fire_lanes.get(key)
        if found is None:
            found = {}
            grid = self.map.grid
            for target in at.within(self.charts.max_range(code)):
                if target == at or not grid.contains(target) or self.target_concealed(target):
                    continue
                routes = self.los_routes(at, target)
                if routes is not None:
                    found[target] = routes
            self._fire_lanes[key] = found
        return found

    def _side_blocks(self, a: Hex, b: Hex) -> bool:
        feature = self.map.feature_between(a, b)
        return feature is not None and self.charts.hexsides[feature].blocks_los

    def _route_blocked(self, a: Hex, b: Hex, route: Iterable[Hex]) -> bool:
        hexes = list(route)
        top = max(self.map.elevation_at(a), self.map.elevation_at(b))
        charts = self.charts
        for prev, h in itertools.pairwise(hexes):
            if self._side_blocks(prev, h):
                return True
        for h in hexes[1:-1]:
            if charts.terrain[self.map.terrain_at(h)].blocks_los:
                return True
            # Hill footnote 3: a hill blocks only when it lies between the two
            # units, i.e. rises above both; a unit atop it sees and is seen.
            if self.map.elevation_at(h) > top:
                return True
        return False
