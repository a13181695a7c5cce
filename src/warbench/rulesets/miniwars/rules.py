"""MiniWars v0.2 rules: the turn sequence, missile fire, movement, melee, morale.

Sections cited are those of ``seeds/miniwars.txt``. The engine walks the six
phases listed in ``data/rules.toml`` ([sequence]); each phase has steps:

- initiative: ``roll`` (automatic) then ``choose`` (the winner picks A or B);
- missile_a / missile_b: ``fire`` (skipped automatically if nobody can fire);
- move_b / move_a: ``select`` (move a unit or end), ``attack`` (the unit just
  moved may melee), ``advance`` (after an elimination in melee);
- morale: ``A`` then ``B`` (each side's leaders rally; skipped if none can).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from warbench.core.actions import Action
from warbench.core.decisions import Decision
from warbench.core.game import Resolution
from warbench.core.outcome import DecidedBy, Outcome
from warbench.core.ruleset import Ruleset
from warbench.errors import IllegalAction
from warbench.geometry.hexgrid import Hex
from warbench.rulesets.kit.rules import Lookups, end_at_turn_limit
from warbench.rulesets.kit.ruleset import hex_ruleset
from warbench.rulesets.kit.rulings import cite, cite_ruling
from warbench.rulesets.miniwars import combat
from warbench.rulesets.miniwars.actions import (
    END,
    PASS,
    USAGE,
    Advance,
    Attack,
    ChooseRole,
    End,
    Fire,
    Move,
    MoveOptions,
    Pass,
    Rally,
)
from warbench.rulesets.miniwars.board import line_routes
from warbench.rulesets.miniwars.scenario import Setup, build_scenario
from warbench.rulesets.miniwars.state import State, Unit
from warbench.scenario.model import Scenario

RULINGS = "warbench.rulesets.miniwars"
"""Where ``data/rulings.toml`` lives: refusals caused by a ruling cite it from there."""

ROLE_OF_PHASE = {"missile_a": "A", "missile_b": "B", "move_a": "A", "move_b": "B"}
FIRST_STEP = {
    "initiative": "roll",
    "missile_a": "fire",
    "missile_b": "fire",
    "move_a": "select",
    "move_b": "select",
    "morale": "A",
}


class MiniWarsRules(Lookups[Unit], Ruleset[State]):
    """MiniWars v0.2 (Majestic Twelve Games, 2000) on a hex grid."""

    info = hex_ruleset("miniwars", "MiniWars v0.2", "mw", "mini-wars")
    kill_causes = ("missile fire", "melee")
    gone = "is no longer on the board"
    """The two ways a hit lands (a second hit removes a disrupted unit)."""

    # -- scenario and state ----------------------------------------------------
    def build_scenario(self, raw: Mapping[str, Any], source: str, scenario_id: str) -> Scenario:
        return build_scenario(raw, source, scenario_id)

    def initial_state(self, scenario: Scenario) -> State:
        setup: Setup = scenario.spec
        units = {p.id: Unit(p.id, p.side, p.type, p.at) for p in setup.units}
        state = State(
            setup=setup,
            units=units,
            occupant={u.pos: u for u in units.values() if u.pos is not None},
        )
        for side in setup.sides:
            state.start_count[side] = len(state.side_units(side))
            state.lost_cost[side] = 0
        return state

    def scores(self, state: State) -> dict[str, float]:
        """The enemy cost each side has destroyed (what a "points" turn limit compares)."""
        first, second = state.setup.sides
        return {first: float(state.lost_cost[second]), second: float(state.lost_cost[first])}

    # -- decisions -------------------------------------------------------------
    def acting_side(self, state: State) -> str | None:
        """The side whose phase or step it is (None during the initiative roll)."""
        phase = state.phase_name
        if phase == "initiative":
            return state.chooser if state.step == "choose" else None
        if phase == "morale":
            return state.roles[state.step]
        return state.roles[ROLE_OF_PHASE[phase]]

    def decision(self, state: State) -> Decision | None:
        if state.outcome is not None:
            return None
        phase, step = state.phase_name, state.step
        side = self.acting_side(state)
        if side is None:
            return _decision("auto", "roll for initiative")
        if phase == "initiative":
            return _decision(
                "choose",
                f"{side} won the initiative: choose A (fire first, move and fight last, "
                "rally first) or B (fire second, move and fight first)",
                side,
            )
        if phase.startswith("missile"):
            if not self._fire_options(state, side):
                return _decision("auto", f"{side} has no missile fire")
            return _decision("choose", "missile fire: fire UNIT TARGET, or end", side)
        if phase == "morale":
            if not self._rally_options(state, side):
                return _decision("auto", f"{side} has no rally to try")
            return _decision("choose", "morale: rally LEADER UNIT, or end", side)
        if step == "attack":
            return _decision(
                "choose", f"{state.active} may attack: attack {state.active} TARGET, or pass", side
            )
        if step == "advance":
            where = state.vacated.label if state.vacated else "?"
            return _decision(
                "choose",
                f"{state.active} may advance into {where}: advance {state.active}, or pass",
                side,
            )
        return _decision("choose", "movement/combat: move UNIT HEX, or end", side)

    def legal_actions(self, state: State, side: str) -> Sequence[Action]:
        if state.outcome is not None or side != self.acting_side(state):
            return []
        phase, step = state.phase_name, state.step
        if phase == "initiative":
            return [ChooseRole("A"), ChooseRole("B")]
        if phase.startswith("missile"):
            return [*self._fire_options(state, side), END]
        if phase == "morale":
            return [*self._rally_options(state, side), END]
        if step == "attack":
            unit = state.units[state.active or ""]
            return [*(Attack(unit.id, t.id) for t in self._melee_targets(state, unit)), PASS]
        if step == "advance":
            return [Advance(state.active or ""), PASS]
        return self._move_options(state, side)

    # -- automatic steps -------------------------------------------------------
    def proceed(self, state: State, res: Resolution) -> None:
        phase = state.phase_name
        if phase == "initiative":
            self._roll_initiative(state, res)
        elif phase == "morale":
            self._next_step_of_morale(state, res)
        else:
            self._next_phase(state, res)

    def _roll_initiative(self, state: State, res: Resolution) -> None:
        # Initiative: each side rolls a die; the higher picks A or B; a tie gives
        # the choice to the side that lost the previous roll.
        first, second = state.setup.sides
        a = res.roll("initiative", side=first)[0]
        b = res.roll("initiative", side=second)[0]
        state.rolls = {first: a, second: b}
        if a != b:
            winner = first if a > b else second
        elif state.last_loser is not None:
            winner = state.last_loser
        elif state.setup.options.first_initiative_tie == "first_side":
            winner = first
        else:
            res.emit("initiative", "initiative tied on the first turn: roll again")
            return
        state.chooser = winner
        state.last_loser = state.enemy_of(winner)
        state.step = "choose"
        res.emit("initiative", f"{winner} wins the initiative", winner=winner, rolls=state.rolls)

    def _next_step_of_morale(self, state: State, res: Resolution) -> None:
        if state.step == "A":
            state.step = "B"
            for unit in state.units.values():
                unit.acted = False
        else:
            self._next_phase(state, res)

    def _next_phase(self, state: State, res: Resolution) -> None:
        phases = state.setup.board.charts.phases
        state.active = None
        state.vacated = None
        state.caches.clear()
        for unit in state.units.values():
            unit.acted = False
        if state.phase + 1 < len(phases):
            state.phase += 1
        else:
            if state.turn >= state.setup.turn_limit:
                self._end_at_turn_limit(state, res)
                return
            state.turn += 1
            state.phase = 0
            res.emit("turn", f"turn {state.turn} begins", turn=state.turn)
        state.step = FIRST_STEP[state.phase_name]
        res.emit(
            "phase",
            f"turn {state.turn}: {self.phase_title(state)}",
            phase=state.phase_name,
            side=self.acting_side(state),
        )

    def _end_at_turn_limit(self, state: State, res: Resolution) -> None:
        # Ruling 11: the text ends the game only with the last army on the board; at
        # the scenario's turn limit (a safeguard) the [victory] at_turn_limit rule
        # decides: "units" (default) the side with more units on the board.
        first, second = state.setup.sides
        scores = self.scores(state)
        rule = state.setup.at_turn_limit
        winner: str | None
        decided_by: DecidedBy = "points" if rule in ("units", "points") else "time"
        if rule == "units":
            left = {side: len(state.side_units(side)) for side in (first, second)}
            winner = None if left[first] == left[second] else max(left, key=left.__getitem__)
            reason = (
                "turn limit: more units on the board"
                if winner
                else "turn limit: equal units on the board"
            )
        elif rule == "points":
            winner = (
                None if scores[first] == scores[second] else max(scores, key=scores.__getitem__)
            )
            reason = (
                "turn limit: more enemy cost destroyed" if winner else "turn limit: equal losses"
            )
        else:
            end_at_turn_limit(state, res, scores, decided_by, None)
            return
        end_at_turn_limit(state, res, scores, decided_by, (winner, reason))

    # -- acting ------------------------------------------------------------------
    def apply(self, state: State, side: str, action: Action, res: Resolution) -> None:
        if state.outcome is not None:
            raise IllegalAction(action, "the game is over")
        if side != self.acting_side(state):
            raise IllegalAction(action, f"it is not {side}'s decision")
        phase, step = state.phase_name, state.step
        if phase == "initiative":
            if not isinstance(action, ChooseRole):
                raise IllegalAction(action, "the initiative winner must choose A or B")
            self._choose_role(state, side, action, res)
        elif phase.startswith("missile") or phase == "morale":
            # One kind of action, or end: fire in missile fire, rally in the morale phase.
            if isinstance(action, Fire) and phase != "morale":
                self._fire(state, side, action, res)
            elif isinstance(action, Rally) and phase == "morale":
                self._rally(state, side, action, res)
            elif isinstance(action, End):
                (self._next_step_of_morale if phase == "morale" else self._next_phase)(state, res)
            elif phase == "morale":
                raise IllegalAction(action, "in the morale phase you may only rally or end")
            else:
                raise IllegalAction(action, "in missile fire you may only fire or end")
        elif step == "attack":
            if isinstance(action, Attack):
                self._attack(state, side, action, res)
            elif isinstance(action, Pass):
                state.step, state.active = "select", None
            else:
                raise IllegalAction(
                    action, f"first decide {state.active}'s attack (attack or pass)"
                )
        elif step == "advance":
            if isinstance(action, Advance) and action.unit == state.active:
                self._advance(state, res)
            elif isinstance(action, Pass):
                state.step, state.active, state.vacated = "select", None, None
            else:
                raise IllegalAction(
                    action,
                    f"first decide {state.active}'s advance (advance {state.active} or pass)",
                )
        elif isinstance(action, Move):
            self._move(state, side, action, res)
        elif isinstance(action, End):
            self._next_phase(state, res)
        elif isinstance(action, Attack):
            raise IllegalAction(action, self._attack_refusal(state, side, action))
        else:
            raise IllegalAction(action, "in movement/combat you may move a unit or end")

    def _choose_role(self, state: State, side: str, action: ChooseRole, res: Resolution) -> None:
        if action.role not in ("A", "B"):
            raise IllegalAction(action, "choose A or B")
        other = state.enemy_of(side)
        state.roles = {action.role: side, ("B" if action.role == "A" else "A"): other}
        res.emit("initiative", f"{side} is player {action.role}", roles=dict(state.roles))
        # End of the Initiative phase: the missile fire markers come off.
        for unit in state.units.values():
            unit.fired = False
        self._next_phase(state, res)

    # -- lookups ------------------------------------------------------------------
    def _enemy(self, state: State, side: str, ref: str, action: Action) -> Unit:
        unit = self._unit(state, ref, action)
        if unit.side == side:
            raise IllegalAction(action, f"{ref} is your own unit")
        return unit

    # -- missile fire ---------------------------------------------------------------
    def line_of_sight(self, state: State, a: Hex, b: Hex) -> bool:
        """Open line of sight from ``a`` to ``b`` past terrain and units (Missile Fire)."""
        routes = state.setup.board.los_routes(a, b)
        return routes is not None and self._routes_clear(state, routes)

    def _routes_clear(self, state: State, routes: tuple[tuple[Hex, ...], ...]) -> bool:
        """Whether units leave a line of sight open along its terrain-open routes."""
        occupant = state.occupant
        clear = [all(h not in occupant for h in route) for route in routes]
        if state.setup.board.los_along_edge == "either":
            return all(clear)
        return any(clear)

    def fire_problem(self, state: State, unit: Unit, target: Unit) -> str | None:
        """Why ``unit`` cannot fire at ``target`` now, or None if it can."""
        board = state.setup.board
        if not unit.type.missile:
            return f"{unit.id} has no missile weapon"
        if unit.fired:
            return f"{unit.id} has already fired this turn"
        assert unit.pos is not None and target.pos is not None
        distance = unit.pos.distance(target.pos)
        if board.charts.missile_target(unit.type.missile, distance) is None:
            return f"{target.id} is {distance} hexes away, beyond code {unit.type.missile}'s range"
        if board.target_concealed(target.pos):
            return f"{target.id} is in {board.map.terrain_at(target.pos)}, which blocks sight"
        if not self.line_of_sight(state, unit.pos, target.pos):
            routes = line_routes(unit.pos, target.pos)[0]
            on_map = [r for r in routes if all(board.map.grid.contains(h) for h in r)]
            if board.los_along_edge == "either" and len(on_map or routes) > 1:
                return (
                    f"no line of sight from {unit.id} to {target.id}: the line runs along a "
                    "hexside or through a hex corner, and a blocker on either side blocks it "
                    f"({cite(RULINGS, 'los_along_edge')})"
                )
            return f"no line of sight from {unit.id} to {target.id}"
        return None

    def _fire_options(self, state: State, side: str) -> list[Action]:
        key = ("fire", side)
        cached = state.caches.get(key)
        if cached is not None:
            return list(cached)
        # The same test as fire_problem, with what never changes (range, concealing
        # terrain, terrain line of sight) looked up in the board's fire lanes.
        shooters = [u for u in state.side_units(side) if u.type.missile and not u.fired]
        options: list[Action] = []
        if shooters:
            board = state.setup.board
            targets = state.side_units(state.enemy_of(side))
            for unit in shooters:
                assert unit.pos is not None
                lanes = board.fire_lanes(unit.type.missile, unit.pos)
                for target in targets:
                    routes = lanes.get(target.pos)  # type: ignore[arg-type]
                    if routes is not None and self._routes_clear(state, routes):
                        options.append(Fire(unit.id, target.id))
        state.caches[key] = tuple(options)
        return options

    def missile_situation(
        self, state: State, unit: Unit, target: Unit
    ) -> tuple[int | None, combat.Modifiers]:
        board = state.setup.board
        assert unit.pos is not None and target.pos is not None
        needed = board.charts.missile_target(unit.type.missile, unit.pos.distance(target.pos))
        height = board.height_modifiers(unit.pos, target.pos, melee=False)
        morale = target.type.morale
        mods = combat.roll_modifiers(board.charts, "missile", morale, unit.disrupted, height)
        return needed, mods

    def _fire(self, state: State, side: str, action: Fire, res: Resolution) -> None:
        unit = self._own(state, side, action.unit, action)
        target = self._enemy(state, side, action.target, action)
        problem = self.fire_problem(state, unit, target)
        if problem:
            raise IllegalAction(action, problem)
        needed, mods = self.missile_situation(state, unit, target)
        assert needed is not None
        unit.fired = True
        state.caches.pop(("fire", side), None)
        roll = res.roll(f"missile fire {unit.id} at {target.id}, needs {needed}+", side=side)[0]
        hit = combat.missile_hits(roll, needed, combat.total(mods), state.setup.board.charts)
        res.emit(
            "missile",
            f"{unit.id} fires at {target.id}: {roll}{_fmt(mods)} against {needed}+: "
            + ("hit" if hit else "miss"),
            unit=unit.id,
            target=target.id,
            roll=roll,
            needed=needed,
            modifiers=[m for m, _ in mods],
            hit=hit,
        )
        if hit:
            self._harm(state, target, res, "missile fire", unit.id)

    # -- movement -------------------------------------------------------------------
    def zones(self, state: State, side: str) -> tuple[frozenset[Hex], frozenset[Hex], bytes, bytes]:
        """Hexes ``side`` may not enter (enemies) and where it must stop (their ZOCs).

        As sets and as byte masks over the board's index (for the fast path).
        """
        key = ("zones", side)
        cached = state.caches.get(key)
        if cached is None:
            board = state.setup.board
            zoc_into = board.zoc_into
            enemies = [u.pos for u in state.side_units(state.enemy_of(side))]
            blocked = frozenset(p for p in enemies if p is not None)
            stops = frozenset(h for p in blocked for h in zoc_into[p])
            cached = (blocked, stops, board.mask(blocked), board.mask(stops))
            state.caches[key] = cached
        return cached

    def reach(self, state: State, unit: Unit) -> dict[Hex, int]:
        """Every hex ``unit`` may end its move in now, with its cost in half-MP.

        Least-cost movement under the terrain chart; enemies block, their zones
        of control stop; a unit may always move one hex (Movement). Hexes held
        by friends are included: the caller filters where it may end.
        Do not mutate the result: it may be shared through the board's cache.
        """
        key = ("reach", unit.id)
        cached: dict[Hex, int] | None = state.caches.get(key)
        if cached is not None:
            return cached
        assert unit.pos is not None
        board = state.setup.board
        move_class = unit.type.move_class
        budget = unit.type.move * board.charts.half_mp_per_mp
        result = board.open_reach(unit.pos, budget, move_class)
        blocked, stops, blocked_mask, stops_mask = self.zones(state, unit.side)
        if not (blocked.isdisjoint(result) and stops.isdisjoint(result)):
            result = board.reach(unit.pos, budget, move_class, blocked_mask, stops_mask)
        state.caches[key] = result
        return result

    def move_problem(self, state: State, unit: Unit, to: Hex) -> str | None:
        if unit.acted:
            return f"{unit.id} has already moved this phase"
        if unit.fired and state.setup.options.fired_units == "hold":
            return (
                f"{unit.id} fired this turn and must hold: "
                f"{cite(RULINGS, 'fired_units', allow='free')}"
            )
        if to == unit.pos:
            return None
        other = state.occupant.get(to)
        if other is not None:
            whose = "a friendly" if other.side == unit.side else "an enemy"
            return f"{to.label} holds {whose} unit ({other.id}); a move may not end there"
        if to not in self.reach(state, unit):
            return (
                f"{unit.id} cannot reach {to.label} this phase "
                f"(move {unit.type.move}, terrain, enemy units and zones of control)"
            )
        return None

    def _move_options(self, state: State, side: str) -> MoveOptions:
        """Legal moves of ``side``: per unit not yet moved, where it may end.

        Kept for the whole phase and updated move by move (a move frees one
        hex and fills another), since rebuilding it at every decision was the
        largest cost of a simulation.
        """
        key = ("moves", side)
        per_unit: dict[str, list[Hex]] | None = state.caches.get(key)
        if per_unit is None:
            hold_rule = state.setup.options.fired_units == "hold"
            occupant = state.occupant
            per_unit = {}
            for unit in state.side_units(side):
                if unit.acted or (hold_rule and unit.fired):
                    continue
                assert unit.pos is not None
                dests = [h for h in self.reach(state, unit) if h not in occupant]
                dests.append(unit.pos)
                per_unit[unit.id] = dests
            state.caches[key] = per_unit
        return MoveOptions([(uid, tuple(dests)) for uid, dests in per_unit.items()])

    def _update_move_options(self, state: State, unit: Unit, start: Hex) -> None:
        """After ``unit`` moved from ``start``: its hex is free, its new one is not."""
        per_unit: dict[str, list[Hex]] | None = state.caches.get(("moves", unit.side))
        if per_unit is None:
            return
        per_unit.pop(unit.id, None)
        to = unit.pos
        if to == start:
            return
        caches = state.caches
        for uid, dests in per_unit.items():
            if to in dests:
                dests.remove(to)  # never a unit's own hex: that one holds a friend
            if start in caches[("reach", uid)]:  # filled when the lists were made
                dests.append(start)

    def _move(self, state: State, side: str, action: Move, res: Resolution) -> None:
        unit = self._own(state, side, action.unit, action)
        problem = self.move_problem(state, unit, action.to)
        if problem:
            raise IllegalAction(action, problem)
        start = unit.pos
        assert start is not None
        unit.acted = True
        if action.to != start:
            cost = self.reach(state, unit)[action.to]
            _relocate(state, unit, action.to)
            state.caches.pop(("reach", unit.id), None)
            state.caches.pop(("fire", side), None)
            half = state.setup.board.charts.half_mp_per_mp
            res.emit(
                "move",
                f"{unit.id} moves {start.label} -> {action.to.label} ({_mp(cost, half)} MP)",
                unit=unit.id,
                frm=start.label,
                to=action.to.label,
                cost=cost / half,
            )
        else:
            res.emit(
                "move",
                f"{unit.id} holds at {start.label}",
                unit=unit.id,
                frm=start.label,
                to=start.label,
                cost=0,
            )
        self._update_move_options(state, unit, start)
        if self._melee_targets(state, unit, moved=action.to != start):
            state.step, state.active = "attack", unit.id

    # -- melee ----------------------------------------------------------------------
    def _melee_targets(self, state: State, unit: Unit, moved: bool = True) -> list[Unit]:
        options = state.setup.options
        if unit.fired and options.fired_units != "free":
            return []
        if not moved and not options.hold_and_melee:
            return []
        assert unit.pos is not None
        occupant = state.occupant
        found = []
        for h in state.setup.board.melee_into[unit.pos]:
            other = occupant.get(h)
            if other is not None and other.side != unit.side:
                found.append(other)
        return found

    def melee_problem(self, state: State, unit: Unit, target: Unit) -> str | None:
        """Why ``unit`` could not melee ``target`` after moving, or None if it could."""
        if unit.side == target.side:
            return f"{target.id} is {unit.side}'s own unit"
        if unit.fired and state.setup.options.fired_units != "free":
            return (
                f"{unit.id} fired this turn and may not melee: "
                f"{cite(RULINGS, 'fired_units', allow='free')}"
            )
        if not any(t is target for t in self._melee_targets(state, unit)):
            return f"{target.id} is not adjacent to {unit.id} across a hexside melee may cross"
        return None

    def _attack_refusal(self, state: State, side: str, action: Attack) -> str:
        """Why ``attack`` is refused between moves: melee comes right after a move."""
        unit = self._own(state, side, action.unit, action)
        options = state.setup.options
        if unit.fired and options.fired_units != "free":
            return (
                f"{unit.id} fired this turn and may not melee: "
                f"{cite(RULINGS, 'fired_units', allow='free')}"
            )
        if unit.acted:
            return (
                f"{unit.id} has already moved this phase; a unit attacks right after its "
                f"move or not at all: {cite_ruling(RULINGS, 21)}"
            )
        if not options.hold_and_melee:
            return (
                f"{unit.id} must first move into a new hex (move {unit.id} HEX), then attack: "
                f"{cite(RULINGS, 'hold_and_melee', allow='true')}"
            )
        assert unit.pos is not None
        return (
            f"move {unit.id} first (move {unit.id} {unit.pos.label} to stay where it is), "
            f"then attack: {cite_ruling(RULINGS, 21)}"
        )

    def melee_situation(
        self, state: State, unit: Unit, target: Unit
    ) -> tuple[int, combat.Modifiers]:
        board = state.setup.board
        assert unit.pos is not None and target.pos is not None
        needed = board.charts.melee_target(unit.type.cs, target.type.cs)
        terrain = board.melee_modifier(unit.pos, target.pos)
        morale = target.type.morale
        mods = combat.roll_modifiers(board.charts, "melee", morale, unit.disrupted, terrain)
        return needed, mods

    def _attack(self, state: State, side: str, action: Attack, res: Resolution) -> None:
        if action.unit != state.active:
            raise IllegalAction(
                action,
                f"only {state.active}, which just moved, may attack now: "
                f"{cite_ruling(RULINGS, 21)}",
            )
        unit = self._own(state, side, action.unit, action)
        target = self._enemy(state, side, action.target, action)
        if not any(t is target for t in self._melee_targets(state, unit)):
            raise IllegalAction(
                action, f"{target.id} is not adjacent to {unit.id} across a hexside melee may cross"
            )
        needed, mods = self.melee_situation(state, unit, target)
        dice = res.roll(f"melee {unit.id} against {target.id}, needs {needed}+", 2, side=side)
        success = combat.melee_succeeds(dice, needed, combat.total(mods))
        doubles = dice[0] == dice[1]
        res.emit(
            "melee",
            f"{unit.id} attacks {target.id}: {sum(dice)}{_fmt(mods)} against {needed}+: "
            + ("success" if success else "fails")
            + (" (doubles)" if doubles else ""),
            unit=unit.id,
            target=target.id,
            dice=list(dice),
            needed=needed,
            modifiers=[m for m, _ in mods],
            success=success,
            doubles=doubles,
        )
        state.step, state.active = "select", None
        removed_at = target.pos if (success and target.disrupted) else None
        if success:
            self._harm(state, target, res, "melee", unit.id)
        if doubles and not unit.disrupted and unit.pos is not None:
            unit.disrupted = True
            _forget_scores(state)
            res.emit("disrupted", f"{unit.id} is disrupted by rolling doubles", unit=unit.id)
        if (
            state.outcome is None
            and removed_at is not None
            and unit.pos is not None
            and state.setup.board.can_enter(unit.pos, removed_at, unit.type.move_class)
        ):
            state.step, state.active, state.vacated = "advance", unit.id, removed_at

    def _advance(self, state: State, res: Resolution) -> None:
        unit = state.units[state.active or ""]
        assert unit.pos is not None and state.vacated is not None
        start, to = unit.pos, state.vacated
        _relocate(state, unit, to)
        state.caches.clear()
        res.emit(
            "move",
            f"{unit.id} advances {start.label} -> {to.label}",
            unit=unit.id,
            frm=start.label,
            to=to.label,
            cost=0,
        )
        state.step, state.active, state.vacated = "select", None, None

    # -- hits, removal, break point, victory --------------------------------------------
    def _harm(self, state: State, target: Unit, res: Resolution, cause: str, by: str) -> None:
        """A hit by ``by``: disrupt the target, or remove it if it was already disrupted."""
        _forget_scores(state)
        if not target.disrupted:
            target.disrupted = True
            res.emit("disrupted", f"{target.id} is disrupted ({cause})", unit=target.id, credit=by)
            return
        assert target.pos is not None
        res.emit(
            "removed",
            f"{target.id} is removed from the game ({cause})",
            unit=target.id,
            at=target.pos.label,
            credit=by,
            cause=cause,
        )
        del state.occupant[target.pos]
        target.pos = None
        state.caches.clear()
        side = target.side
        state.lost_cost[side] += target.type.cost
        remaining = state.side_units(side)
        if not remaining:
            winner = state.enemy_of(side)
            state.outcome = Outcome(
                winner, "last army on the board", self.scores(state), decided_by="elimination"
            )
            res.emit("end", f"game over: {winner} has the last army on the board; {winner} wins")
            return
        # Break Point: at half the starting units or fewer, once per game.
        if side not in state.broken and len(remaining) * 2 <= state.start_count[side]:
            state.broken.add(side)
            for unit in remaining:
                unit.disrupted = True
            res.emit("break", f"{side}'s army breaks: every unit left is disrupted", side=side)

    # -- morale -----------------------------------------------------------------------
    def rally_problem(self, state: State, leader: Unit, unit: Unit) -> str | None:
        if not leader.type.is_leader:
            return f"{leader.id} is not a leader"
        if leader.acted:
            return f"{leader.id} has already tried a rally this phase"
        if not unit.disrupted:
            return f"{unit.id} is not disrupted"
        if leader.disrupted and unit is not leader:
            return f"{leader.id} is disrupted and may only rally itself"
        return None

    def rally_situation(
        self, state: State, leader: Unit, unit: Unit
    ) -> tuple[int, combat.Modifiers]:
        """Distance to beat and modifiers; a self-rally needs only to avoid a 1."""
        charts = state.setup.board.charts
        if leader is unit:
            return charts.rally_self_min - 1, []
        assert leader.pos is not None and unit.pos is not None
        mods: combat.Modifiers = []
        value = charts.rally_modifier[unit.type.morale]
        if value:
            mods.append((value, f"unit morale {unit.type.morale}"))
        if unit.type.is_leader:
            mods.append((charts.rally_leader_to_leader, "leader rallying a leader"))
        return leader.pos.distance(unit.pos), mods

    def _rally_options(self, state: State, side: str) -> list[Action]:
        own = state.side_units(side)
        disrupted = [u for u in own if u.disrupted]
        if not disrupted:
            return []
        options: list[Action] = []
        for leader in own:
            if not leader.type.is_leader or leader.acted:
                continue
            if leader.disrupted:
                options.append(Rally(leader.id, leader.id))
            else:
                options.extend(Rally(leader.id, u.id) for u in disrupted)
        return options

    def _rally(self, state: State, side: str, action: Rally, res: Resolution) -> None:
        leader = self._own(state, side, action.leader, action)
        unit = self._own(state, side, action.unit, action)
        problem = self.rally_problem(state, leader, unit)
        if problem:
            raise IllegalAction(action, problem)
        charts = state.setup.board.charts
        distance, mods = self.rally_situation(state, leader, unit)
        leader.acted = True
        roll = res.roll(f"rally {unit.id} by {leader.id}, must beat {distance}", side=side)[0]
        ok = combat.rally_succeeds(roll, distance, combat.total(mods), charts)
        res.emit(
            "rally",
            f"{leader.id} rallies {unit.id}: {roll}{_fmt(mods)} against more than {distance}: "
            + ("rallied" if ok else "fails"),
            leader=leader.id,
            unit=unit.id,
            roll=roll,
            distance=distance,
            success=ok,
        )
        if ok:
            unit.disrupted = False

    # -- reading -------------------------------------------------------------------------
    def parse_action(self, state: State, text: str) -> Action:
        from warbench.rulesets.miniwars.parse import parse_action

        return parse_action(state, text)

    def view(self, state: State, side: str | None) -> dict[str, Any]:
        # MiniWars hides nothing: every side sees the whole board.
        setup = state.setup
        data = state.to_json()
        # A counter's ratings as pictures print them: CS-Move (* cavalry), missile code.
        data["units"] = [{**u, "ratings": _ratings(u)} for u in data["units"]]
        return {
            "ruleset": self.info.name,
            "geometry": "hex",
            "sides": list(setup.sides),
            "titles": dict(setup.titles),
            "turn_limit": setup.turn_limit,
            "map": setup.board.map.to_json(),
            "viewer": side,
            **data,
            "ratings_key": "Combat Strength-Move (* cavalry), missile code",
            "phase_title": self.phase_title(state),
        }

    def phase_title(self, state: State) -> str:
        """The phase for people: "player B missile fire (horde)"."""
        title = state.setup.board.charts.phase_titles[state.phase_name]
        if state.phase_name in ROLE_OF_PHASE and state.roles:
            title = f"{title} ({state.roles[ROLE_OF_PHASE[state.phase_name]]})"
        return title

    def state_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def copy_state(self, state: State) -> State:
        return state.copy()

    @staticmethod
    def usage() -> Mapping[str, str]:
        return USAGE


def _forget_scores(state: State) -> None:
    """A disruption changes every attack's odds but no unit's reach or sight."""
    for key in [k for k in state.caches if k[0] == "move_scores"]:
        del state.caches[key]


def _relocate(state: State, unit: Unit, to: Hex) -> None:
    """Move ``unit`` to ``to`` on the board, keeping the occupancy index true."""
    assert unit.pos is not None
    del state.occupant[unit.pos]
    unit.pos = to
    state.occupant[to] = unit


def _fmt(mods: combat.Modifiers) -> str:
    return "".join(f" {v:+d} ({why})" for v, why in mods)


def _mp(cost: int, half: int) -> str:
    """Half-MP as MP for people: 5 -> "2.5", 4 -> "2"."""
    return f"{cost / half:g}"


_DECISIONS: dict[tuple[str, str, str], Decision] = {}


def _decision(kind: str, prompt: str, side: str = "") -> Decision:
    """The decision of this kind, prompt and side; made once, since one is asked per action."""
    key = (kind, prompt, side)
    found = _DECISIONS.get(key)
    if found is None:
        found = Decision.auto(prompt) if kind == "auto" else Decision.choose(side, prompt)
        _DECISIONS[key] = found
    return found


def _ratings(unit: Mapping[str, Any]) -> str:
    """``2-3 B``: Combat Strength, Move (``*`` for cavalry), missile code if any."""
    cavalry = "*" if unit.get("cavalry") else ""
    missile = f" {unit['missile']}" if unit.get("missile") else ""
    return f"{unit.get('cs')}-{unit.get('move')}{cavalry}{missile}"
