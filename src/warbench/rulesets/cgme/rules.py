"""The CGME core as a ruleset: the turn sequence, movement, attacks, hazards, victory.

The phases of a player turn come from the core's data (``[sequence] phases``);
each side in scenario order takes a player turn. The engine knows three kinds
of phase:

- ``hazard`` (automatic): every hazard hex attacks the side's units staying in it;
- ``move``: legs of movement (``move``), and where the world has transport
  ``load`` / ``unload``; with the attacks-during-movement option, ``attack``;
- ``attack``: ``attack U T`` opens an attack; other units ``join`` it (a
  combined attack) until it is rolled (``roll``). An attack nobody else could
  join is rolled at once.

A game world (``data/rules.toml`` of a package) switches on the extensions it
has: stacking, spillover, a range-0 attack bonus, roads with a movement bonus,
transport, buildings. :class:`CGME` is the bare core with the cgme package's
small world; V.E.G. (``rulesets/veg``) is the same engine with its own world
and options.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from warbench.core.actions import Action
from warbench.core.decisions import Decision
from warbench.core.events import Event
from warbench.core.game import Resolution
from warbench.core.outcome import DecidedBy, Outcome
from warbench.core.ruleset import Ruleset
from warbench.errors import IllegalAction
from warbench.geometry.hexgrid import Hex
from warbench.rulesets.cgme import combat
from warbench.rulesets.cgme.actions import (
    END,
    ROLL,
    USAGE,
    Attack,
    End,
    Join,
    Load,
    Move,
    MoveOptions,
    Roll,
    Unload,
)
from warbench.rulesets.cgme.data import Hazard, ResultName
from warbench.rulesets.cgme.movement import Reach, search
from warbench.rulesets.cgme.scenario import CoreOptionsSpec, Setup, build_scenario
from warbench.rulesets.cgme.state import Building, OpenAttack, State, Unit
from warbench.rulesets.kit.rules import Lookups, end_at_turn_limit
from warbench.rulesets.kit.ruleset import hex_ruleset
from warbench.rulesets.kit.rulings import cite, offers
from warbench.scenario.model import Scenario

REACH_CACHE_SIZE = 10_000
"""Leg searches kept on a board before the cache starts afresh (bounds memory)."""


class CGMERules(Lookups[Unit], Ruleset[State]):
    """The CounterMoves Generic Microgame Engine, as a documented stand-in core."""

    info = hex_ruleset("cgme", "CGME stand-in core", "countermoves")
    world_package: ClassVar[str] = "warbench.rulesets.cgme"
    """The package whose ``data/`` holds this ruleset's world."""
    options_model: ClassVar[type[CoreOptionsSpec]] = CoreOptionsSpec
    """The ``[options]`` a scenario of this world may set."""
    kill_causes = ("attack", "spillover", "hazard", "with carrier")
    """An attack (joined or not), its V.E.G. spillover, a hazard hex, or riding in a
    carrier that was destroyed."""

    # -- scenario and state --------------------------------------------------------
    def build_scenario(self, raw: Mapping[str, Any], source: str, scenario_id: str) -> Scenario:
        return build_scenario(
            raw, source, scenario_id, self.info.name, self.world_package, self.options_model
        )

    def initial_state(self, scenario: Scenario) -> State:
        setup: Setup = scenario.spec
        units = {
            p.id: Unit(p.id, p.side, p.type, p.at, wounded=p.wounded, carrier=p.riding)
            for p in setup.units
        }
        stacks: dict[Hex, list[Unit]] = {}
        parts: dict[Hex, int] = {}
        for unit in units.values():
            if unit.carrier is not None:
                units[unit.carrier].riders.append(unit.id)
            elif unit.pos is not None:
                stacks.setdefault(unit.pos, []).append(unit)
                parts[unit.pos] = parts.get(unit.pos, 0) + unit.type.parts
        buildings = {
            b.id: Building(b.id, b.side, b.at, b.dfn, b.sp, b.sp, b.value) for b in setup.buildings
        }
        state = State(setup, units, stacks, parts, buildings)
        state.lost = dict.fromkeys(setup.sides, 0)
        self._begin_player_turn(state)
        self._enter_phase(state)
        return state

    # -- ratings with their modifiers ----------------------------------------------
    def att(self, state: State, unit: Unit) -> int:
        """Current ATT (0 for ATT "x"), with the wound's modifier."""
        base = unit.type.att or 0
        return max(base + state.setup.world.core.wound_att, 0) if unit.wounded else base

    def dfn(self, state: State, unit: Unit) -> int:
        """Current DEF, with the wound's modifier (terrain not included)."""
        base = unit.type.dfn
        return max(base + state.setup.world.core.wound_def, 0) if unit.wounded else base

    def mov(self, state: State, unit: Unit) -> int:
        base = unit.type.mov
        return max(base + state.setup.world.core.wound_mov, 0) if unit.wounded else base

    # -- decisions -------------------------------------------------------------------
    def decision(self, state: State) -> Decision | None:
        if state.outcome is not None:
            return None
        kind, side = state.phase_name, state.side
        if kind == "hazard":
            return Decision.auto(f"hazards strike {side}'s units")
        if state.attack is not None:
            attack = state.attack
            return Decision.choose(
                side,
                f"attack on {attack.target} by {'+'.join(attack.attackers)}: "
                "join UNIT to add its ATT to this attack, or roll to resolve it",
            )
        if kind == "move":
            if len(self._move_options(state, side)) == 1:
                return Decision.auto(f"{side} has nothing to move")
            return Decision.choose(side, self._move_prompt(state))
        if not self._attack_options(state, side):
            return Decision.auto(f"{side} has no attack to make")
        return Decision.choose(side, "attacks: attack UNIT TARGET, or end")

    def _move_prompt(self, state: State) -> str:
        verbs = ["move UNIT HEX"]
        if state.setup.world.rider_class is not None:
            verbs.append("load CARRIER UNIT, unload UNIT")
        if state.setup.options.attack_during_movement:
            verbs.append("attack UNIT TARGET")
        return f"movement: {', '.join(verbs)}, or end"

    def legal_actions(self, state: State, side: str) -> Sequence[Action]:
        if state.outcome is not None or side != state.side:
            return []
        kind = state.phase_name
        if kind == "hazard":
            return []
        if state.attack is not None:
            return [*(Join(u.id) for u in self._joiners(state)), ROLL]
        if kind == "move":
            return self._move_options(state, side)
        return [*self._attack_options(state, side), END]

    # -- automatic steps and the turn sequence ---------------------------------------
    def proceed(self, state: State, res: Resolution) -> None:
        if state.phase_name == "hazard":
            self._hazards(state, res)
            if state.outcome is not None:
                return
        self._next_phase(state, res)

    def _begin_player_turn(self, state: State) -> None:
        for unit in state.units.values():
            if unit.side == state.side:
                unit.moved = unit.attacked = False

    def _enter_phase(self, state: State) -> None:
        if state.phase_name == "move":
            for unit in state.units.values():
                if unit.side == state.side and unit.pos is not None:
                    unit.mp, unit.bonus, unit.road = self.mov(state, unit), 0, 0

    def _leave_phase(self, state: State) -> None:
        # Unused MP, road bonus points included, are lost (Roads).
        if state.phase_name == "move":
            for unit in state.units.values():
                unit.mp = unit.bonus = unit.road = 0

    def _next_phase(self, state: State, res: Resolution) -> None:
        setup = state.setup
        self._leave_phase(state)
        state.attack = None
        state.caches.clear()
        if state.phase + 1 < len(setup.world.core.phases):
            state.phase += 1
        else:
            self._end_player_turn(state, res)
            if state.outcome is not None:
                return
            state.phase = 0
            if state.player + 1 < len(setup.sides):
                state.player += 1
            else:
                if state.turn >= setup.turn_limit:
                    self._end_at_turn_limit(state, res)
                    return
                state.turn += 1
                state.player = 0
                res.emit("turn", f"turn {state.turn} begins", turn=state.turn)
            self._begin_player_turn(state)
        self._enter_phase(state)
        res.emit(
            "phase",
            f"turn {state.turn}: {self.phase_title(state)}",
            phase=state.phase_name,
            side=state.side,
        )

    def _end_player_turn(self, state: State, res: Resolution) -> None:
        """Reach objectives are judged at the end of their side's player turn."""
        side = state.side
        for objective in state.setup.objectives:
            if objective.side != side or objective.kind != "reach":
                continue
            inside = [u for u in state.side_units(side) if u.pos in objective.zone]
            if len(inside) >= objective.count:
                self._finish(state, res, side, f"{side} reached its objective", "mission")
                return

    def _end_at_turn_limit(self, state: State, res: Resolution) -> None:
        rule = state.setup.at_turn_limit
        scores = self.scores(state)
        if rule != "points":
            end_at_turn_limit(state, res, scores, "time", None)
            return
        first, second = state.setup.sides
        if scores[first] == scores[second]:
            decided: tuple[str | None, str] = (None, "turn limit: equal losses")
        else:
            decided = (
                max(scores, key=scores.__getitem__),
                "turn limit: more enemy value destroyed",
            )
        end_at_turn_limit(state, res, scores, "points", decided)

    def scores(self, state: State) -> dict[str, float]:
        """Each side's score: the value its enemy has lost."""
        return {side: float(state.lost[state.enemy_of(side)]) for side in state.setup.sides}

    def _finish(
        self,
        state: State,
        res: Resolution,
        winner: str | None,
        reason: str,
        decided_by: DecidedBy,
    ) -> None:
        state.outcome = Outcome(winner, reason, self.scores(state), decided_by=decided_by)
        res.emit("end", f"game over: {reason}; " + (f"{winner} wins" if winner else "a draw"))

    def _check_victory(self, state: State, res: Resolution) -> None:
        """After losses: a side with no unit left loses; a destroy objective met wins."""
        if state.outcome is not None:
            return
        alive = {side: bool(state.side_units(side)) for side in state.setup.sides}
        if not all(alive.values()):
            if not any(alive.values()):
                self._finish(state, res, None, "both sides are wiped out", "elimination")
            else:
                winner = next(side for side, ok in alive.items() if ok)
                self._finish(
                    state,
                    res,
                    winner,
                    f"{state.enemy_of(winner)} has no units left",
                    "elimination",
                )
            return
        for objective in state.setup.objectives:
            if objective.kind == "destroy" and all(
                not self._target_standing(state, t) for t in objective.targets
            ):
                self._finish(
                    state,
                    res,
                    objective.side,
                    f"{objective.side} destroyed its objective",
                    "mission",
                )
                return

    def _target_standing(self, state: State, ref: str) -> bool:
        if ref in state.buildings:
            return state.buildings[ref].standing
        return state.units[ref].pos is not None

    # -- acting ------------------------------------------------------------------------
    def apply(self, state: State, side: str, action: Action, res: Resolution) -> None:
        if state.outcome is not None:
            raise IllegalAction(action, "the game is over")
        if side != state.side:
            raise IllegalAction(action, f"it is {state.side}'s player turn, not {side}'s")
        kind = state.phase_name
        if kind == "hazard":
            raise IllegalAction(action, "hazards are resolved without a choice")
        if state.attack is not None:
            if isinstance(action, Join):
                self._join(state, side, action)
            elif isinstance(action, Roll):
                self._resolve_open(state, res)
            else:
                raise IllegalAction(
                    action, f"first finish the attack on {state.attack.target}: join UNIT or roll"
                )
            return
        if isinstance(action, End):
            self._next_phase(state, res)
        elif isinstance(action, (Join, Roll)):
            raise IllegalAction(action, "there is no open attack to join or roll")
        elif kind == "move":
            if isinstance(action, Move):
                self._move(state, side, action, res)
            elif isinstance(action, Load):
                self._load(state, side, action, res)
            elif isinstance(action, Unload):
                self._unload(state, side, action, res)
            elif isinstance(action, Attack):
                if not state.setup.options.attack_during_movement:
                    raise IllegalAction(
                        action,
                        "attacks come in the attack phase: "
                        + self._cite("attack_during_movement", allow="true"),
                    )
                self._declare(state, side, action, res, during_move=True)
            else:
                raise IllegalAction(action, "in movement you may move, load, unload or end")
        elif isinstance(action, Attack):
            self._declare(state, side, action, res, during_move=False)
        else:
            raise IllegalAction(action, "in the attack phase you may attack or end")

    # -- lookups ---------------------------------------------------------------------------
    # -- stacking --------------------------------------------------------------------------
    def room(self, state: State, h: Hex, parts: int) -> bool:
        """Whether ``parts`` more may stack in ``h`` (both sides' units count)."""
        limit = state.setup.parts_limit
        return limit is None or state.parts.get(h, 0) + parts <= limit

    def _blocked(self, state: State, parts: int) -> bytes:
        """Hexes a mover of this weight may not enter (stacking), as a byte mask."""
        limit = state.setup.parts_limit
        board = state.setup.board
        if limit is None:
            return board.empty
        masks: dict[int, bytes] = state.caches.setdefault("blocked", {})
        found = masks.get(parts)
        if found is None:
            mask = bytearray(board.empty)
            index = board.index
            for h, weight in state.parts.items():
                if weight + parts > limit:
                    mask[index[h]] = 1
            found = masks[parts] = bytes(mask)
        return found

    def _set_parts(self, state: State, h: Hex, delta: int) -> None:
        old = state.parts.get(h, 0)
        new = old + delta
        if new:
            state.parts[h] = new
        else:
            state.parts.pop(h, None)
        limit = state.setup.parts_limit
        if limit is None:
            return
        # A reach is computed with the mask of its unit's weight, so masks and
        # reaches go stale together: only when a hex fills up or frees room.
        for weight in state.caches.get("blocked", {}):
            if (old + weight > limit) != (new + weight > limit):
                state.caches.pop("blocked", None)
                state.caches.pop("reach", None)
                state.caches.pop("move_options", None)
                return

    def _lift(self, state: State, unit: Unit) -> None:
        """Take ``unit`` off its hex's stack (it is leaving, boarding or destroyed)."""
        assert unit.pos is not None
        stack = state.stacks[unit.pos]
        stack.remove(unit)
        if not stack:
            del state.stacks[unit.pos]
        self._set_parts(state, unit.pos, -unit.type.parts)
        state.touch(unit.side)

    def _put(self, state: State, unit: Unit, to: Hex) -> None:
        """Stand ``unit`` (and whoever rides in it) in hex ``to``."""
        unit.pos = to
        state.stacks.setdefault(to, []).append(unit)
        self._set_parts(state, to, unit.type.parts)
        for rid in unit.riders:
            state.units[rid].pos = to
        state.touch(unit.side)

    # -- movement -------------------------------------------------------------------------
    def reach(self, state: State, unit: Unit) -> Reach:
        """Where ``unit`` may go on its next leg this phase (cached until it changes)."""
        cache: dict[str, Reach] = state.caches.setdefault("reach", {})
        found = cache.get(unit.id)
        if found is None:
            assert unit.pos is not None
            board = state.setup.board
            every = state.setup.world.road_bonus_every if unit.type.road_bonus else 0
            kind = unit.type
            start = board.index[unit.pos]
            blocked = self._blocked(state, kind.parts)
            key = (kind.move_class, kind.road_only, start, unit.mp, unit.bonus, unit.road, every)
            shared = board.reach_cache
            found = shared.get((*key, blocked))
            if found is None:
                found = search(board, kind.move_class, kind.road_only, start, *key[3:], blocked)
                if len(shared) > REACH_CACHE_SIZE:
                    shared.clear()
                shared[(*key, blocked)] = found
            cache[unit.id] = found
        return found

    def _forget(self, state: State, units: Iterable[Unit]) -> None:
        cache = state.caches.get("reach")
        if cache is not None:
            for unit in units:
                cache.pop(unit.id, None)
        state.caches.pop("move_options", None)

    def move_blocked(self, state: State, unit: Unit) -> str | None:
        """Why ``unit`` may not move (or load) at all now, or None."""
        if unit.carrier is not None:
            return f"{unit.id} rides in {unit.carrier}; unload it first"
        if unit.mp + unit.bonus <= 0:
            return f"{unit.id} has no movement points left"
        return self._moving_or_shooting(state, unit, unit.attacked, "has fired", "move")

    def _moving_or_shooting(
        self, state: State, unit: Unit, done: bool, did: str, may_not: str
    ) -> str | None:
        """The move-or-shoot option's refusal of a unit that ``did`` this turn, if ``done``."""
        if self._move_or_shoot(state, unit) and done:
            ruling = self._cite("move_or_shoot", allow="false")
            return f"{unit.id} {did} this turn and may not {may_not}: {ruling}"
        return None

    def _cite(self, option: str, allow: str | None = None) -> str:
        """The ruling and option behind a refusal, or that the world fixes the rule."""
        if not offers(self.world_package, option):
            return "a fixed rule of this game (no scenario option changes it)"
        return cite(self.world_package, option, allow=allow)

    def _move_or_shoot(self, state: State, unit: Unit) -> bool:
        return state.setup.options.move_or_shoot and unit.type.move_or_shoot

    def _movers(self, state: State, side: str) -> list[Unit]:
        return [
            u
            for u in state.units.values()
            if u.side == side and u.pos is not None and self.move_blocked(state, u) is None
        ]

    def _dests(self, state: State, unit: Unit) -> tuple[Hex, ...]:
        reach = self.reach(state, unit)
        if reach.dest_hexes is None:
            hexes = state.setup.board.hexes
            reach.dest_hexes = tuple(hexes[j] for j in reach.dests)
        return reach.dest_hexes

    def _move_options(self, state: State, side: str) -> MoveOptions:
        cached: MoveOptions | None = state.caches.get("move_options")
        if cached is not None:
            return cached
        movers = self._movers(state, side)
        entries: list[tuple[tuple[str, ...], tuple[Hex, ...]]] = []
        dests: dict[str, tuple[Hex, ...]] = {}
        for unit in movers:
            dests[unit.id] = self._dests(state, unit)
            if dests[unit.id]:
                entries.append(((unit.id,), dests[unit.id]))
        # Stacks moving together: every unit able to move in a hex, as one mover.
        by_hex: dict[Hex, list[Unit]] = {}
        for unit in movers:
            assert unit.pos is not None
            by_hex.setdefault(unit.pos, []).append(unit)
        for group in by_hex.values():
            if len(group) < 2:
                continue
            group.sort(key=self._order(state))
            common = set(dests[group[0].id]).intersection(*(dests[u.id] for u in group[1:]))
            weight = sum(u.type.parts for u in group)
            shared = tuple(
                h for h in dests[group[0].id] if h in common and self.room(state, h, weight)
            )
            if shared:
                entries.append((tuple(u.id for u in group), shared))
        extras: list[Action] = [
            *self._load_options(state, side),
            *self._unload_options(state, side),
        ]
        if state.setup.options.attack_during_movement:
            extras.extend(self._attack_options(state, side))
        options = MoveOptions(entries, extras)
        state.caches["move_options"] = options
        return options

    @staticmethod
    def _order(state: State) -> Callable[[Unit], int]:
        """Sort key putting units in scenario order (the canonical order of a group)."""
        rank: dict[str, int] | None = state.caches.get("rank")
        if rank is None:
            rank = state.caches["rank"] = {uid: i for i, uid in enumerate(state.units)}
        return lambda unit: rank[unit.id]

    def move_problem(self, state: State, units: Sequence[Unit], to: Hex) -> str | None:
        """Why these units may not move to ``to`` together now, or None.

        A stack moving together is every unit able to move in its hex; the
        others may always move one by one.
        """
        first = units[0]
        twice = _named_twice(units)
        if twice:
            return f"{twice} is named twice; each unit of a stack moves once"
        for unit in units:
            problem = self.move_blocked(state, unit)
            if problem:
                return problem
            if unit.pos != first.pos:
                return f"{unit.id} is not in {first.id}'s hex; a stack moves from one hex"
        if len(units) > 1:
            assert first.pos is not None
            stack = [
                u
                for u in state.stacks.get(first.pos, ())
                if u.side == first.side and self.move_blocked(state, u) is None
            ]
            stack.sort(key=self._order(state))
            if [u.id for u in stack] != [u.id for u in units]:
                names = "+".join(u.id for u in stack)
                return (
                    f"a stack moves whole: move {names} {to.label} takes every unit that "
                    f"can still move in {first.pos.label}; to move only some of them, move "
                    f"them one at a time (move {units[0].id} {to.label}, ...)"
                )
        if to == first.pos:
            return f"{'+'.join(u.id for u in units)} already in {to.label}"
        index = state.setup.board.index
        if to not in index:
            return f"{to.label} is not on the map"
        for unit in units:
            if index[to] not in self.reach(state, unit).ends:
                return f"{unit.id} cannot reach {to.label}: {self._unreachable(state, unit, to)}"
        weight = sum(u.type.parts for u in units)
        if len(units) > 1 and not self.room(state, to, weight):
            return (
                f"{to.label} has no room for all of {'+'.join(u.id for u in units)} "
                f"(stacking: {self._cite('stacking_limit')})"
            )
        return None

    def _unreachable(self, state: State, unit: Unit, to: Hex) -> str:
        """Why ``to`` is not among ``unit``'s destinations now: the first cause found of
        a full hex, terrain its class may not enter, no way there, or too few MP."""
        board = state.setup.board
        kind = unit.type
        j = board.index[to]
        if not self.room(state, to, kind.parts):
            return (
                f"the hex is full (stacking limit {state.setup.options.stacking_limit} units, "
                f"both sides count: {self._cite('stacking_limit')})"
            )
        if kind.road_only and not board.on_road[j]:
            return f"{kind.name} may only travel on roads, and {to.label} is not on one"
        cls = kind.move_class
        if not board.standable[cls][j]:
            return (
                f"{kind.name} ({state.setup.world.classes[cls]}) may not enter "
                f"{board.terrain_name(j)}"
            )
        assert unit.pos is not None
        start = board.index[unit.pos]
        adjacency = board.adjacency[(cls, kind.road_only)]
        # Least costs with MP enough to cross the whole map: the cheapest way there.
        budget = len(board.hexes) * max(
            (c for row in board.steps[cls] for _, c, _ in row), default=1
        )
        if j not in adjacency.reach(start, budget, board.empty, board.empty):
            return f"no way leads there for {kind.name} (terrain in the way)"
        blocked = self._blocked(state, kind.parts)
        open_ways = adjacency.reach(start, budget, blocked, board.empty)
        if j not in open_ways:
            return f"full hexes block every way there (stacking: {self._cite('stacking_limit')})"
        return (
            f"the cheapest way costs {open_ways[j]} MP and {unit.id} has "
            f"{unit.mp + unit.bonus} MP left"
        )

    def _move(self, state: State, side: str, action: Move, res: Resolution) -> None:
        units = [self._own(state, side, uid, action) for uid in action.units]
        problem = self.move_problem(state, units, action.to)
        if problem:
            raise IllegalAction(action, problem)
        dest = state.setup.board.index[action.to]
        legs = [(unit, self.reach(state, unit)) for unit in units]
        for unit, reach in legs:
            self._travel(state, unit, reach, dest, res)
            if state.outcome is not None:
                return
        self._forget(state, units)

    def _travel(self, state: State, unit: Unit, reach: Reach, dest: int, res: Resolution) -> None:
        """Move ``unit`` along its chosen path; hazards on the way attack it as it enters."""
        board = state.setup.board
        _, key = reach.ends[dest]
        path = reach.path(dest)
        start = unit.pos
        assert start is not None
        before = unit.mp + unit.bonus
        unit.mp, unit.bonus, unit.road = key[1], key[2], key[3]
        unit.moved = True
        left = unit.mp + unit.bonus
        cost = before - left if reach.prev is None else board.path_cost(unit.type, path)
        earned = left - before + cost
        shown = "-".join(board.label(i) for i in path) if len(path) > 2 else ""
        res.emit(
            "move",
            f"{unit.id} moves {start.label} -> {board.label(dest)}"
            + (f" via {shown}" if shown else "")
            + f" ({cost} MP"
            + (f", road bonus +{earned}" if earned else "")
            + f"; {left} left)",
            unit=unit.id,
            frm=start.label,
            to=board.label(dest),
            path=[board.label(i) for i in path],
            mp_left=unit.mp,
            bonus_left=unit.bonus,
        )
        self._lift(state, unit)
        for i in path[1:]:
            hazard = board.hazard[i]
            if hazard is None:
                continue
            self._put(state, unit, board.hexes[i])
            self._hazard_attack(state, unit, hazard, res, "enters")
            if unit.pos is None:
                self._check_victory(state, res)
                return
            self._lift(state, unit)
        self._put(state, unit, board.hexes[dest])

    # -- transport -------------------------------------------------------------------------
    def _load_room(self, state: State, carrier: Unit) -> int:
        used = sum(state.units[r].type.parts for r in carrier.riders)
        return carrier.type.capacity - used

    def load_problem(self, state: State, carrier: Unit, riders: Sequence[Unit]) -> str | None:
        world = state.setup.world
        if world.rider_class is None:
            return f"{world.name} has no transport"
        if carrier.type.capacity <= 0:
            return f"{carrier.id} ({carrier.type.name}) carries nobody"
        problem = self.move_blocked(state, carrier)
        if problem:
            return problem
        if carrier.mp + carrier.bonus < world.load_cost:
            return f"{carrier.id} needs {world.load_cost} MP to load"
        twice = _named_twice(riders)
        if twice:
            return f"{twice} is named twice; each rider boards once"
        for rider in riders:
            if rider is carrier:
                return f"{carrier.id} cannot board itself"
            if rider.type.move_class != world.rider_class:
                return f"{rider.id} ({rider.type.name}) cannot ride in a carrier"
            if rider.carrier is not None:
                return f"{rider.id} already rides in {rider.carrier}"
            if rider.pos != carrier.pos:
                return f"{rider.id} is not in {carrier.id}'s hex"
            if rider.mp + rider.bonus < world.load_cost:
                return f"{rider.id} needs {world.load_cost} MP to board"
        weight = sum(r.type.parts for r in riders)
        if weight > self._load_room(state, carrier):
            return f"{carrier.id} has no room for {'+'.join(r.id for r in riders)}"
        return None

    def _load_options(self, state: State, side: str) -> list[Action]:
        world = state.setup.world
        if world.rider_class is None:
            return []
        out: list[Action] = []
        for carrier in state.units.values():
            if carrier.side != side or carrier.pos is None or carrier.type.capacity <= 0:
                continue
            if self.load_problem(state, carrier, []) is not None:
                continue
            room = self._load_room(state, carrier)
            candidates = [
                u
                for u in state.stacks.get(carrier.pos, ())
                if u.side == side
                and u.type.move_class == world.rider_class
                and u.mp + u.bonus >= world.load_cost
                and u.type.parts <= room
            ]
            candidates.sort(key=self._order(state))
            for size in range(1, len(candidates) + 1):
                for group in itertools.combinations(candidates, size):
                    if sum(u.type.parts for u in group) <= room:
                        out.append(Load(carrier.id, tuple(u.id for u in group)))
        return out

    def _load(self, state: State, side: str, action: Load, res: Resolution) -> None:
        carrier = self._own(state, side, action.carrier, action)
        riders = [self._own(state, side, uid, action) for uid in action.riders]
        if riders != sorted(riders, key=self._order(state)):
            names = "+".join(u.id for u in sorted(riders, key=self._order(state)))
            raise IllegalAction(
                action,
                f"list the riders in scenario order, as the legal actions do: "
                f"load {carrier.id} {names}",
            )
        problem = self.load_problem(state, carrier, riders)
        if problem:
            raise IllegalAction(action, problem)
        cost = state.setup.world.load_cost
        for unit in (carrier, *riders):
            _spend(unit, cost)
        for rider in riders:
            self._lift(state, rider)
            rider.carrier = carrier.id
            rider.pos = carrier.pos
            carrier.riders.append(rider.id)
        res.emit(
            "load",
            f"{'+'.join(action.riders)} board {carrier.id} ({cost} MP each)",
            carrier=carrier.id,
            riders=list(action.riders),
        )
        self._forget(state, (carrier, *riders))

    def unload_problem(self, state: State, unit: Unit) -> str | None:
        world = state.setup.world
        if unit.carrier is None:
            return f"{unit.id} is not riding in a carrier"
        if unit.mp + unit.bonus < world.unload_cost:
            return f"{unit.id} needs {world.unload_cost} MP to dismount"
        assert unit.pos is not None
        if not self.room(state, unit.pos, unit.type.parts):
            return (
                f"{unit.pos.label} is full; {unit.id} may not dismount there "
                f"(stacking: {self._cite('stacking_limit')})"
            )
        return None

    def _unload_options(self, state: State, side: str) -> list[Action]:
        if state.setup.world.rider_class is None:
            return []
        return [
            Unload(u.id)
            for u in state.units.values()
            if u.side == side
            and u.carrier is not None
            and u.pos is not None
            and self.unload_problem(state, u) is None
        ]

    def _unload(self, state: State, side: str, action: Unload, res: Resolution) -> None:
        unit = self._own(state, side, action.unit, action)
        problem = self.unload_problem(state, unit)
        if problem:
            raise IllegalAction(action, problem)
        carrier = state.units[unit.carrier or ""]
        assert unit.pos is not None
        _spend(unit, state.setup.world.unload_cost)
        carrier.riders.remove(unit.id)
        unit.carrier = None
        unit.moved = True
        self._put(state, unit, unit.pos)
        res.emit(
            "unload",
            f"{unit.id} dismounts from {carrier.id} into {unit.pos.label}",
            unit=unit.id,
            carrier=carrier.id,
            at=unit.pos.label,
        )
        hazard = state.setup.board.hazard[state.setup.board.index[unit.pos]]
        if hazard is not None:
            self._hazard_attack(state, unit, hazard, res, "dismounts into")
            self._check_victory(state, res)
        self._forget(state, (unit, carrier))

    # -- attacks ----------------------------------------------------------------------------
    def attack_blocked(self, state: State, unit: Unit) -> str | None:
        """Why ``unit`` may not attack (or join an attack) now, or None."""
        if unit.type.att is None:
            return f"{unit.id} ({unit.type.name}) has ATT x and may not attack"
        if unit.attacked:
            return f"{unit.id} has already attacked this turn"
        if unit.carrier is not None and not state.units[unit.carrier].type.riders_attack:
            return f"{unit.id} rides in {unit.carrier} and may not attack from it"
        return self._moving_or_shooting(state, unit, unit.moved, "has moved", "fire")

    def target_pos(self, state: State, ref: str) -> Hex | None:
        """Where an attack on unit or building ``ref`` is aimed (None: not a target now)."""
        building = state.buildings.get(ref)
        if building is not None:
            return building.pos if building.standing else None
        unit = state.units.get(ref)
        if unit is None or unit.carrier is not None:
            return None
        return unit.pos

    def target_side(self, state: State, ref: str) -> str:
        building = state.buildings.get(ref)
        return building.side if building is not None else state.units[ref].side

    def attack_problem(self, state: State, unit: Unit, ref: str) -> str | None:
        """Why ``unit`` may not attack ``ref`` now (range, ATT x, ...), or None."""
        problem = self.attack_blocked(state, unit)
        if problem:
            return problem
        if ref not in state.units and ref not in state.buildings:
            return f"there is no unit or building '{ref}'"
        if self.target_side(state, ref) == unit.side:
            return f"{ref} is {unit.side}'s own"
        where = self.target_pos(state, ref)
        if where is None:
            if ref in state.units and state.units[ref].pos is not None:
                return f"{ref} rides in a carrier and cannot be attacked on its own"
            return f"{ref} is already destroyed"
        assert unit.pos is not None
        distance = unit.pos.distance(where)
        if distance > unit.type.rng:
            return f"{ref} is {distance} hexes away, beyond {unit.id}'s range {unit.type.rng}"
        return None

    def _targets(self, state: State, unit: Unit) -> list[str]:
        """Enemy units and buildings within ``unit``'s range (cached per position set)."""
        return self._target_entry(state, unit)[2]

    def _target_entry(self, state: State, unit: Unit) -> tuple[Hex, int, list[str], list[Attack]]:
        """(where, enemy version, targets in range, the attacks on them), cached."""
        cache: dict[str, tuple[Hex, int, list[str], list[Attack]]] = state.caches.setdefault(
            "targets", {}
        )
        assert unit.pos is not None
        pos, rng = unit.pos, unit.type.rng
        enemy = state.side_version.get(state.enemy_of(unit.side), 0)
        found = cache.get(unit.id)
        if found is not None and found[0] == pos and found[1] == enemy:
            return found
        q, r = pos
        out = []
        for ref, tq, tr in self._target_hexes(state, state.enemy_of(unit.side), enemy):
            dq, dr = q - tq, r - tr
            if (abs(dq) + abs(dr) + abs(dq + dr)) >> 1 <= rng:  # Hex.distance, inlined
                out.append(ref)
        found = cache[unit.id] = (pos, enemy, out, [Attack(unit.id, t) for t in out])
        return found

    def _target_hexes(self, state: State, side: str, version: int) -> list[tuple[str, int, int]]:
        """Every target ``side`` offers (units not riding, standing buildings) and its hex."""
        key = ("target_hexes", side)
        found = state.caches.get(key)
        if found is not None and found[0] == version:
            listed: list[tuple[str, int, int]] = found[1]
            return listed
        listed = [
            (t.id, t.pos.q, t.pos.r)
            for t in state.units.values()
            if t.side == side and t.pos is not None and t.carrier is None
        ]
        listed.extend(
            (b.id, b.pos.q, b.pos.r)
            for b in state.buildings.values()
            if b.side == side and b.standing
        )
        state.caches[key] = (version, listed)
        return listed

    def _attack_options(self, state: State, side: str) -> list[Attack]:
        out: list[Attack] = []
        cache = state.caches.get("targets", {})
        enemy = state.side_version.get(state.enemy_of(side), 0)
        for unit in state.units.values():
            if (
                unit.side != side
                or unit.pos is None
                or unit.attacked
                or unit.type.att is None
                or (
                    (unit.carrier is not None or unit.type.move_or_shoot)
                    and self.attack_blocked(state, unit)
                )
            ):
                continue
            found = cache.get(unit.id)
            if found is None or found[0] != unit.pos or found[1] != enemy:
                found = self._target_entry(state, unit)
            out.extend(found[3])
        return out

    def _joiners(self, state: State, attack: OpenAttack | None = None) -> list[Unit]:
        """Units that may still combine into the open attack."""
        attack = attack or state.attack
        if attack is None or not state.setup.options.combined_attacks:
            return []
        opener = state.units[attack.attackers[0]]
        out = []
        for unit in state.units.values():
            if (
                unit.side != opener.side
                or unit.pos is None
                or unit.id in attack.attackers
                or self.attack_blocked(state, unit)
            ):
                continue
            # During movement only units in the attacker's own hex may combine.
            if attack.during_move and unit.pos != opener.pos:
                continue
            if attack.target in self._targets(state, unit):
                out.append(unit)
        return out

    def _declare(
        self, state: State, side: str, action: Attack, res: Resolution, during_move: bool
    ) -> None:
        unit = self._own(state, side, action.unit, action)
        problem = self.attack_problem(state, unit, action.target)
        if problem:
            raise IllegalAction(action, problem)
        state.attack = OpenAttack(action.target, [unit.id], during_move)
        state.caches.pop("move_options", None)
        if not self._joiners(state):
            self._resolve_open(state, res)

    def _join(self, state: State, side: str, action: Join) -> None:
        attack = state.attack
        assert attack is not None
        unit = self._own(state, side, action.unit, action)
        if unit.id in attack.attackers:
            raise IllegalAction(action, f"{unit.id} is already in this attack")
        if not state.setup.options.combined_attacks:
            raise IllegalAction(
                action,
                "combined attacks are off: " + self._cite("combined_attacks", allow="true"),
            )
        problem = self.attack_problem(state, unit, attack.target)
        if problem:
            raise IllegalAction(action, problem)
        opener = state.units[attack.attackers[0]]
        if attack.during_move and unit.pos != opener.pos:
            raise IllegalAction(
                action,
                f"during movement only units in {opener.id}'s hex may combine with its attack",
            )
        attack.attackers.append(unit.id)

    def attack_strength(
        self, state: State, attackers: Sequence[Unit], target: Hex, on_unit: bool = True
    ) -> tuple[int, combat.Modifiers]:
        """Summed ATT of a (combined) attack on ``target``, and its modifiers.

        The range-0 bonus (V.E.G. Infantry) is for attacking *units* at range 0,
        so an attack on a building (``on_unit`` false) does not get it.
        """
        world = state.setup.world
        board = state.setup.board
        base = 0
        mods: combat.Modifiers = []
        for unit in attackers:
            assert unit.pos is not None
            rating = unit.type.att or 0
            base += rating
            current = self.att(state, unit)
            if current != rating:
                mods.append((current - rating, f"{unit.id} wounded"))
            terrain = board.att_mod[unit.type.move_class][board.index[unit.pos]]
            if terrain:
                mods.append((terrain, f"{unit.id} in {board.map.terrain_at(unit.pos)}"))
            if (
                on_unit
                and world.range0_att
                and unit.type.move_class == world.range0_class
                and unit.pos == target
            ):
                mods.append((world.range0_att, f"{unit.id}: {world.range0_class} at range 0"))
        return base, mods

    def defence(self, state: State, unit: Unit) -> tuple[int, combat.Modifiers]:
        """DEF of ``unit`` where it stands, and its modifiers (wound, terrain)."""
        board = state.setup.board
        assert unit.pos is not None
        base = unit.type.dfn
        mods: combat.Modifiers = []
        current = self.dfn(state, unit)
        if current != base:
            mods.append((current - base, "wounded"))
        terrain = board.dfn_mod[unit.type.move_class][board.index[unit.pos]]
        if terrain:
            mods.append((terrain, f"in {board.map.terrain_at(unit.pos)}"))
        return base, mods

    def _roll(
        self,
        state: State,
        res: Resolution,
        what: str,
        att: int,
        dfn: int,
        attacker_side: str | None,
        defender_side: str,
    ) -> tuple[ResultName, int]:
        """One attack roll against one defence roll; the result and the difference."""
        core = state.setup.world.core
        a = res.roll(f"{what}: attack roll, ATT {att}", core.attack_dice, attacker_side)
        d = res.roll(f"{what}: defence roll, DEF {dfn}", core.defence_dice, defender_side)
        difference = (att + sum(a)) - (dfn + sum(d))
        return core.result(difference), difference

    def _resolve_open(self, state: State, res: Resolution) -> None:
        attack = state.attack
        assert attack is not None
        state.attack = None
        state.caches.pop("move_options", None)
        side = state.side
        attackers = [state.units[uid] for uid in attack.attackers]
        for unit in attackers:
            unit.attacked = True
        where = self.target_pos(state, attack.target)
        assert where is not None
        building = state.buildings.get(attack.target)
        base, mods = self.attack_strength(state, attackers, where, building is None)
        names = "+".join(attack.attackers)
        if building is not None:
            self._attack_building(state, res, names, base, mods, building)
        else:
            target = state.units[attack.target]
            others = [u for u in state.stacks.get(where, ()) if u is not target]
            sources = [u.pos.label for u in attackers if u.pos is not None]
            what = f"{names} attack {target.id}"
            self._attack_unit(
                state,
                res,
                what,
                base,
                mods,
                target,
                side,
                "attack",
                sources,
                by=attack.attackers[0],
            )
            att = base + combat.total(mods)
            spared = set(attack.attackers)
            self._spillover(state, res, names, att, others, side, spared)
        self._check_victory(state, res)

    def _attack_unit(
        self,
        state: State,
        res: Resolution,
        what: str,
        base: int,
        mods: combat.Modifiers,
        target: Unit,
        side: str | None,
        cause: str,
        sources: Sequence[str] = (),
        defence: tuple[int, combat.Modifiers] | None = None,
        by: str | None = None,
    ) -> None:
        """One attack of ATT ``base`` with ``mods`` on ``target``; ``cause`` is attack,
        spillover or hazard, ``sources`` the attackers' hexes (for narration and drawings);
        ``defence`` the DEF rolled against, if not the target's own; ``by`` the attacker
        credited with a wound or a kill (the leading attacker; None for a hazard)."""
        assert target.pos is not None
        att = base + combat.total(mods)
        dbase, dmods = defence if defence is not None else self.defence(state, target)
        dfn = dbase + combat.total(dmods)
        result, difference = self._roll(state, res, what, att, dfn, side, target.side)
        res.emit(
            "attack",
            f"{what}: ATT {combat.rating(base, mods)} against DEF {combat.rating(dbase, dmods)}, "
            f"beats it by {difference}: {result}",
            target=target.id,
            at=target.pos.label,
            cause=cause,
            sources=list(sources),
            att=att,
            dfn=dfn,
            difference=difference,
            result=result,
        )
        self._apply_result(state, target, result, res, by, cause)

    def _spillover(
        self,
        state: State,
        res: Resolution,
        names: str,
        att: int,
        others: list[Unit],
        side: str,
        attackers: Collection[str] = (),
    ) -> None:
        """V.E.G. Spillover: every other unit in the hex undergoes its own attack
        (option ``spillover_hits``: all but ``attackers``, or enemies only)."""
        world = state.setup.world
        if world.spillover_att is None:
            return
        mods = [(world.spillover_att, "spillover")]
        for other in others:
            if other.pos is None:
                continue
            if self.spared_by_spillover(state, other, side, attackers):
                continue
            what = f"spillover of {names}'s attack on {other.id}"
            by = names.split("+")[0]
            self._attack_unit(state, res, what, att, mods, other, side, "spillover", by=by)

    @staticmethod
    def spared_by_spillover(
        state: State, unit: Unit, side: str, attackers: Collection[str]
    ) -> bool:
        """Whether the option ``spillover_hits`` spares ``unit`` from an attack by
        ``attackers`` of ``side`` ("all": nobody; "not_attackers": the units firing;
        "enemies": every unit of the attacking side)."""
        hits = state.setup.options.spillover_hits
        if hits == "enemies":
            return unit.side == side
        if hits == "not_attackers":
            return unit.id in attackers
        return False

    def building_damage(self, state: State, result: ResultName, att: int, difference: int) -> int:
        """Structural points an attack of this result does (Buildings, and its option).

        Under ``building_damage = "margin"`` a Wound does half the difference, which
        is 0 (V.E.G.: a Wound is a tie; ruling 15 of ``docs/rules/veg.md``)."""
        world = state.setup.world
        amount = difference if state.setup.options.building_damage == "margin" else att
        if result == "destroy":
            return max(amount, 0)
        if result == "wound":
            return max(amount, 0) // world.building_wound_divisor
        return 0

    def _attack_building(
        self,
        state: State,
        res: Resolution,
        names: str,
        base: int,
        mods: combat.Modifiers,
        building: Building,
    ) -> None:
        att = base + combat.total(mods)
        result, difference = self._roll(
            state,
            res,
            f"{names} attack {building.id}",
            att,
            building.dfn,
            state.side,
            building.side,
        )
        damage = min(self.building_damage(state, result, att, difference), building.sp)
        building.sp -= damage
        res.emit(
            "attack",
            f"{names} attack {building.id}: ATT {combat.rating(base, mods)} "
            f"against DEF {building.dfn}, "
            f"beats it by {difference}: {result}, {damage} structural points "
            f"({building.sp} of {building.max_sp} left)",
            target=building.id,
            att=att,
            dfn=building.dfn,
            difference=difference,
            result=result,
            damage=damage,
        )
        if not building.standing:
            state.lost[building.side] += building.value
            state.touch(building.side)
            res.emit("destroyed", f"{building.id} is destroyed", unit=building.id, cause="attack")

    def _apply_result(
        self,
        state: State,
        unit: Unit,
        result: ResultName,
        res: Resolution,
        by: str | None,
        cause: str,
    ) -> None:
        if result == "none":
            return
        if result == "wound" and not unit.wounded:
            unit.wounded = True
            state.touch(unit.side)
            res.emit("wounded", f"{unit.id} is wounded", unit=unit.id, credit=by)
            return
        if result == "wound" and state.setup.world.core.second_wound != "destroy":
            return
        why = "a second wound" if result == "wound" else "destroyed"
        self._destroy(state, unit, res, why, by, cause)

    def _destroy(
        self, state: State, unit: Unit, res: Resolution, why: str, by: str | None, cause: str
    ) -> None:
        """``unit`` is gone, and its riders with it; ``by`` is credited, ``cause`` (attack,
        spillover or hazard) says how (riders: ``with carrier``)."""
        assert unit.pos is not None
        at = unit.pos.label
        if unit.carrier is not None:
            state.units[unit.carrier].riders.remove(unit.id)
            unit.carrier = None
        else:
            self._lift(state, unit)
        unit.pos = None
        state.lost[unit.side] += unit.type.value
        res.emit(
            "destroyed",
            f"{unit.id} is destroyed ({why}) at {at}",
            unit=unit.id,
            at=at,
            credit=by,
            cause=cause,
        )
        for rid in list(unit.riders):
            rider = state.units[rid]
            rider.carrier = None
            rider.pos = None
            state.lost[rider.side] += rider.type.value
            res.emit(
                "destroyed",
                f"{rid} is destroyed with its carrier {unit.id}",
                unit=rid,
                at=at,
                credit=by,
                cause="with carrier",
            )
        unit.riders.clear()
        state.touch(unit.side)
        state.caches.clear()

    # -- hazards -------------------------------------------------------------------------------
    def hazard_strength(self, state: State, unit: Unit, hazard: Hazard) -> int:
        """The hazard's ATT against ``unit``: its current DEF, a wound's included."""
        return hazard.strength(self.dfn(state, unit))

    def hazard_dfn(self, state: State, unit: Unit, dfn: int) -> int:
        """What a hazard rolls against, ``dfn`` being the unit's DEF where it stands
        (core ``[hazard] defence``: that DEF, or the defence dice alone)."""
        return dfn if state.setup.world.core.hazard_defence == "def" else 0

    def _hazard_attack(
        self, state: State, unit: Unit, hazard: Hazard, res: Resolution, how: str
    ) -> None:
        assert unit.pos is not None
        att = self.hazard_strength(state, unit, hazard)
        terrain = state.setup.board.map.terrain_at(unit.pos)
        what = f"{hazard.label} of the {terrain} {unit.pos.label} on {unit.id}, which {how} it"
        # Core [hazard] defence: the unit's own DEF (None), or the defence dice alone.
        against: tuple[int, combat.Modifiers] | None = (
            None if state.setup.world.core.hazard_defence == "def" else (0, [])
        )
        self._attack_unit(state, res, what, att, [], unit, None, "hazard", defence=against)

    def _hazards(self, state: State, res: Resolution) -> None:
        """Hazard phase: each of the side's units staying in a hazard hex is attacked."""
        board = state.setup.board
        for unit in state.side_units(state.side):
            if unit.carrier is not None or unit.pos is None:
                continue
            hazard = board.hazard[board.index[unit.pos]]
            if hazard is not None:
                self._hazard_attack(state, unit, hazard, res, "stays in")
        self._check_victory(state, res)

    # -- reading ----------------------------------------------------------------------------
    def parse_action(self, state: State, text: str) -> Action:
        from warbench.rulesets.cgme.parse import parse_action

        return parse_action(state, text)

    def phase_title(self, state: State) -> str:
        titles = state.setup.world.core.phase_titles
        return f"{titles.get(state.phase_name, state.phase_name)} ({state.side})"

    def view(self, state: State, side: str | None) -> dict[str, Any]:
        # Nothing is hidden on the CGME core: every side sees the whole board.
        setup = state.setup
        data = state.to_json()
        # Renderers read "status" (free flags) and "marks" (the flags the text map
        # marks); "disrupted" is MiniWars' state, which no CGME unit has.
        # "value": the unit type's (public) value, what the points victory counts.
        shown = [
            {
                **u,
                "disrupted": False,
                "status": _status(u),
                "value": state.units[u["id"]].type.value,
            }
            for u in data["units"]
        ]
        shown += [
            {**b, "kind": "building", "disrupted": False, "status": [f"{b['sp']}/{b['max_sp']} SP"]}
            for b in data["buildings"]
            if b["standing"]
        ]
        return {
            "ruleset": self.info.name,
            "geometry": "hex",
            "ratings_key": "A attack, R range, D defence, M move",
            "sides": list(setup.sides),
            "titles": dict(setup.titles),
            "turn_limit": setup.turn_limit,
            "map": setup.board.map.to_json(),
            "viewer": side,
            **data,
            "units": shown,
            "marks": {"wounded": "~"},
            "phase_title": self.phase_title(state),
            "objectives": [o.describe() for o in setup.objectives],
        }

    def state_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def annotations(
        self, state: State, events: Sequence[Event], side: str | None
    ) -> list[dict[str, Any]]:
        """Paths of the moves and lines of the attacks in ``events`` (nothing is hidden)."""
        marks: list[dict[str, Any]] = []
        for event in events:
            data = event.data
            if event.kind == "move" and len(data["path"]) > 1:
                owner = state.units[data["unit"]].side
                marks.append(
                    {
                        "kind": "path",
                        "points": list(data["path"]),
                        "side": owner,
                        "label": data["unit"],
                    }
                )
            elif event.kind == "attack" and data["cause"] == "attack":
                for source in dict.fromkeys(data["sources"]):
                    if source != data["at"]:
                        marks.append(
                            {
                                "kind": "sight",
                                "from": source,
                                "to": data["at"],
                                "clear": True,
                                "label": data["result"],
                            }
                        )
        return marks

    def copy_state(self, state: State) -> State:
        return state.copy()

    @staticmethod
    def usage() -> Mapping[str, str]:
        return USAGE


def _status(unit: Mapping[str, Any]) -> list[str]:
    """Free-text flags of a unit for renderers: wounded, riding, carrying."""
    flags = ["wounded"] if unit["wounded"] else []
    if unit["carrier"]:
        flags.append(f"rides in {unit['carrier']}")
    if unit["riders"]:
        flags.append(f"carries {'+'.join(unit['riders'])}")
    return flags


def _named_twice(units: Sequence[Unit]) -> str | None:
    """The id of a unit listed more than once (an action built through the API), or None."""
    seen: set[str] = set()
    for unit in units:
        if unit.id in seen:
            return unit.id
        seen.add(unit.id)
    return None


def _spend(unit: Unit, cost: int) -> None:
    """Pay ``cost`` MP for a non-road action (bonus points first, like an off-road step)."""
    spent = min(cost, unit.bonus)
    unit.bonus -= spent
    unit.mp -= cost - spent
    unit.moved = True
