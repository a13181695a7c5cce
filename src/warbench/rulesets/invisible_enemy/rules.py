"""Invisible Enemy (Micromachines at War, WTJ, 2010-12) on a free-form table: the rules alone.

Sections cited are those of ``seeds/invisible-enemy.txt``. A turn (1.6) is seven
phases: network command (network combat, purchases by the side with more points
first, Type 2 acquisition), marking Type 1 support fire, movement (initiative,
a free barrage each on a tie, then the sides alternate one unit at a time, each
unit first passing its Control roll), marking Type 2 support fire and
deflections, direct fire in step a (K, P) and step b (C), the barrages, and the
reset. The state says where in the turn the game is (:mod:`.state`).

This module imports none of the modules that consume the rules (odds,
evaluation, pictures): :mod:`warbench.rulesets.invisible_enemy.ruleset`
assembles them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from warbench.core.actions import Action
from warbench.core.decisions import Decision
from warbench.core.game import Resolution
from warbench.errors import IllegalAction
from warbench.rulesets.invisible_enemy import (
    barrage,
    engineering,
    fire,
    fungus,
    movement,
    network,
    victory,
)
from warbench.rulesets.invisible_enemy.actions import (
    Barrage,
    Buy,
    Deflect,
    Destruct,
    Done,
    Engineer,
    Fire,
    Move,
    Pass,
    Unit,
)
from warbench.rulesets.invisible_enemy.scenario import Setup
from warbench.rulesets.invisible_enemy.state import (
    Base,
    Network,
    State,
    Tower,
)
from warbench.rulesets.invisible_enemy.state import Unit as UnitState
from warbench.rulesets.kit.rulings import cite_ruling
from warbench.rulesets.kit.table.rules import SeenRules, settle, table_ruleset
from warbench.scenario.model import Scenario

FIRE_STEPS = ("fire_a", "fire_b")
RULINGS = "warbench.rulesets.invisible_enemy"
"""Where ``data/rulings.toml`` lives: what a ruling decides cites it from there."""


class InvisibleEnemyRules(SeenRules[State]):
    """Invisible Enemy: micromachines at war (WTJ, 2010-12 text)."""

    info = table_ruleset(
        "invisible-enemy",
        "Invisible Enemy: Micromachines at War",
        "2",
        "ie",
        "invisible_enemy",
        sealed=True,
    )
    package = "warbench.rulesets.invisible_enemy"

    # -- scenario and state ----------------------------------------------------------
    def initial_state(self, scenario: Scenario) -> State:
        setup: Setup = scenario.spec
        bases = {p.id: Base.placed(p, unit=p.unit) for p in setup.placements}
        units = {
            u.id: UnitState(u.id, u.side, u.formation, u.mission, u.bases) for u in setup.units
        }
        towers = {t.id: Tower(t.id, t.hull, live=t.live) for t in setup.towers}
        networks = {
            name: Network(s.network_dice, type2=s.type2) for name, s in setup.side_setups.items()
        }
        return State(
            setup=setup,
            bases=bases,
            units=units,
            towers=towers,
            networks=networks,
            terrain=setup.terrain,
        )

    # -- what is asked -----------------------------------------------------------------
    def decision(self, state: State) -> Decision | None:
        if state.outcome is not None:
            return None
        step = state.step
        menu = (
            "buy auto=UNIT (it moves with no Control roll), type1 (an extra Type 1 barrage), "
            "deflect (-1 to an enemy marker's rolls), suppress25|suppress50|suppress75 "
            "(harder enemy Control rolls), die (the enemy loses a network die) ..., or buy none"
        )
        if step in ("network", "initiative", "control", "resolve"):
            return Decision.auto(step)
        if step == "tie":
            return Decision.sealed(
                state.setup.sides,
                "tied initiative: place your free barrage, unseen (4.6): barrage X,Y; both "
                "markers strike at once, then initiative is rolled again",
            )
        if step == "buy" and network.simultaneous(state):
            return Decision.sealed(
                state.setup.sides,
                f"equal action points ({state.networks[state.setup.sides[0]].points} each): "
                "write your purchases, unseen until both are in (2.0); unspent points are lost: "
                f"{menu}",
            )
        actor = state.actor or state.setup.sides[0]
        prompts = {
            "buy": f"buy tactical actions with your {state.networks[actor].points} "
            f"action points; unspent points are lost (2.0): {menu}",
            "mark1": "set down your Type 1 (or Type 2) barrage markers by hand, then done (3.0): "
            "barrage X,Y [type2] puts a marker's centre there",
            "activate": "name a unit to try to move (4.0): unit UNIT rolls for Control (a "
            "failed roll spends its move this turn), pass stops moving units this turn, "
            "destruct BASE self-destructs a base",
            "unit": f"move the bases of {state.current} one at a time, or engineer; "
            "then done (4.0)",
            "last": "movement is over: self-destruct a base, or done (6.0)",
            "mark2": "set down your Type 2 barrage markers by hand, then done (3.0): "
            "barrage X,Y puts a marker's centre there",
            "deflect": "tag enemy barrage markers with your deflections, then done (3.0): "
            "deflect MARKER gives -1 to that marker's rolls",
            "fire_a": "direct fire step a, kinetic and photon: "
            "fire one base at a time, then done (5.0)",
            "fire_b": "direct fire step b, chemical: "
            "fire one base (or a battery) at a time, then done (5.0)",
        }
        prompt = prompts.get(step)
        return None if prompt is None else Decision.choose(actor, prompt)

    def legal_actions(self, state: State, side: str) -> Sequence[Action]:
        from warbench.rulesets.invisible_enemy.candidates import candidates

        return candidates(self, state, side)

    def parse_action(self, state: State, text: str) -> Action:
        from warbench.rulesets.invisible_enemy.parse import parse_action

        return parse_action(state, text)

    # -- acting --------------------------------------------------------------------------
    def check_sealed(self, state: State, side: str, action: Action) -> None:
        if state.step == "buy":
            if not isinstance(action, Buy):
                raise IllegalAction(action, "buy tactical actions: buy ... or buy none (2.0)")
            network.check_buy(state, side, action)
            return
        if state.step != "tie":
            raise IllegalAction(action, "no sealed choice is asked now")
        if not isinstance(action, Barrage):
            raise IllegalAction(action, "place your free barrage: barrage X,Y (4.6)")
        barrage.check_place(state, side, action)

    def apply_sealed(self, state: State, choices: Mapping[str, Action], res: Resolution) -> None:
        if state.step == "buy":
            for side in state.setup.sides:
                action = choices.get(side)
                if isinstance(action, Buy):
                    network.apply_buy(state, side, action, res)
            _after_buy(state, res)
            return
        if state.step != "tie":
            raise IllegalAction(next(iter(choices.values())), "no sealed choice is asked now")
        for side in state.setup.sides:
            action = choices.get(side)
            if isinstance(action, Barrage):
                barrage.place(state, side, action, res, "tie")
        barrage.resolve_all(state, res, ("tie",))
        if _decided(state, res):
            return
        state.step = "initiative"

    def apply(self, state: State, side: str, action: Action, res: Resolution) -> None:
        step = state.step
        if step == "buy":
            if not isinstance(action, Buy):
                raise IllegalAction(action, "buy tactical actions: buy ... or buy none (2.0)")
            network.apply_buy(state, side, action, res)
            _next_buyer(state, res)
            return
        if step in ("mark1", "mark2"):
            if isinstance(action, Done):
                _next_marker(state, res)
                return
            if not isinstance(action, Barrage):
                raise IllegalAction(action, "set down a barrage marker (barrage X,Y), or done")
            kind = barrage.check_place(state, side, action)
            barrage.place(state, side, action, res, kind)
            res.stands("a barrage marker set down by hand is never moved again (3.0)")
            if barrage.placeable(state, side) is None:
                _next_marker(state, res)
            return
        if step == "deflect":
            if isinstance(action, Done):
                _next_deflector(state, res)
                return
            if not isinstance(action, Deflect):
                raise IllegalAction(action, "tag an enemy marker (deflect MARKER), or done")
            barrage.apply_deflect(state, side, action, res)
            if not state.networks[side].deflections or not barrage.deflectable(state, side):
                _next_deflector(state, res)
            return
        if step in ("activate", "unit", "last") and isinstance(action, Destruct):
            fire.apply_destruct(state, side, action, res)
            if _decided(state, res):
                return
            if step == "unit" and not state.unit_bases(state.current or ""):
                _end_activation(state, res)
            elif step == "activate" and not _can_activate(state, side):
                _next_activation(state, res, side)
            return
        if step == "activate":
            if isinstance(action, Pass):
                state.passed.append(side)
                res.emit("pass", f"{side} makes no more move attempts this turn (4.0)", side=side)
                _next_activation(state, res, side)
                return
            if not isinstance(action, Unit):
                raise IllegalAction(action, "name a unit (unit U1), pass, or destruct a base")
            movement.check_attempt(state, side, action)
            unit = state.units[action.unit]
            unit.attempted_turn = state.turn
            state.current = unit.id
            state.moved = []
            if unit.auto_turn == state.turn:
                res.emit(
                    "control",
                    f"{unit.id} moves on its automatic move marker: no roll (2.0)",
                    unit=unit.id,
                    passed=True,
                )
                state.step = "unit"
            else:
                state.step = "control"
            return
        if step == "unit":
            if isinstance(action, Done):
                _end_activation(state, res)
                return
            if isinstance(action, Move):
                movement.apply_move(state, side, action, res)
            elif isinstance(action, Engineer):
                engineering.apply_engineer(state, side, action, res)
            else:
                raise IllegalAction(action, f"move a base of {state.current}, engineer, or done")
            if _decided(state, res):
                return
            if not movement.can_continue(state):
                _end_activation(state, res)
            return
        if step == "last":
            if not isinstance(action, Done):
                raise IllegalAction(action, "self-destruct a base (destruct BASE), or done")
            _next_in_order(state, res, "last")
            return
        if step in FIRE_STEPS:
            if isinstance(action, Done):
                _next_in_order(state, res, step)
                return
            if not isinstance(action, Fire):
                raise IllegalAction(action, "fire a base at a target (fire B1 R3), or done")
            fire.apply_fire(state, side, action, res)
            if not fire.may_shoot(state, side, step):
                _next_in_order(state, res, step)
            return
        raise IllegalAction(action, "not asked now")

    def proceed(self, state: State, res: Resolution) -> None:
        step = state.step
        if step == "network":
            _start_turn(state, res)
        elif step == "initiative":
            _initiative(state, res)
        elif step == "control":
            unit = state.units[state.current or ""]
            if movement.control_roll(state, unit.id, res):
                state.step = "unit"
            else:
                _end_activation(state, res)
        elif step == "resolve":
            barrage.resolve_all(state, res, ("type1", "type2"))
            if _decided(state, res):
                return
            network.reset(state, res)
            _end_turn(state, res)

    # -- reading -------------------------------------------------------------------------
    def side_state(self, state: State, side: str) -> State | None:
        """The state holds no secret (the engine keeps the sealed tie barrages), but 3.0
        sets markers down by hand: the other side's bases stand where ``side`` sees them
        by eye (:mod:`warbench.rulesets.kit.eye`), as its view shows them."""
        from warbench.rulesets.invisible_enemy.view import seen_state

        return seen_state(state, side)


# -- the turn (1.6) -----------------------------------------------------------------------
def _start_turn(state: State, res: Resolution) -> None:
    """Phase 1: network combat, then purchases (2.0)."""
    res.emit("turn", f"turn {state.turn}", turn=state.turn)
    fungus.start_turn(state, res)
    network.roll_network(state, res)
    state.order = network.buy_order(state)
    if state.order:
        state.actor = state.order[0]
        state.step = "buy"
    else:
        _after_buy(state, res)


def _next_buyer(state: State, res: Resolution) -> None:
    rest = state.order[1:]
    state.order = rest
    if rest:
        state.actor = rest[0]
        return
    _after_buy(state, res)


def _after_buy(state: State, res: Resolution) -> None:
    """2.0 c) Type 2 acquisition, then phase 2 (markers)."""
    network.acquire_type2(state, res)
    _begin_marking(state, res, "mark1")


def _begin_marking(state: State, res: Resolution, step: str) -> None:
    """Phase 2 in purchase order; phase 4 in initiative order (rulings)."""
    if step == "mark1":
        order = network.purchase_order(state)
    else:
        first = state.initiative or state.setup.sides[0]
        order = (first, state.other(first))
    state.step = step  # type: ignore[assignment]
    state.order = tuple(s for s in order if barrage.placeable(state, s) is not None)
    if state.order:
        state.actor = state.order[0]
        return
    _after_marking(state, res, step)


def _next_marker(state: State, res: Resolution) -> None:
    step = state.step
    rest = tuple(s for s in state.order[1:] if barrage.placeable(state, s) is not None)
    state.order = rest
    if rest:
        state.actor = rest[0]
        return
    _after_marking(state, res, step)


def _after_marking(state: State, res: Resolution, step: str) -> None:
    if step == "mark1":
        state.step = "initiative"
        return
    _begin_deflect(state, res)


def _begin_deflect(state: State, res: Resolution) -> None:
    """End of phase 4: deflections (2.0), in initiative order."""
    first = state.initiative or state.setup.sides[0]
    order = (first, state.other(first))
    state.step = "deflect"
    state.order = tuple(
        s for s in order if state.networks[s].deflections and barrage.deflectable(state, s)
    )
    if state.order:
        state.actor = state.order[0]
        return
    _begin_fire(state, res, "fire_a")


def _next_deflector(state: State, res: Resolution) -> None:
    rest = tuple(
        s
        for s in state.order[1:]
        if state.networks[s].deflections and barrage.deflectable(state, s)
    )
    state.order = rest
    if rest:
        state.actor = rest[0]
        return
    _begin_fire(state, res, "fire_a")


def _initiative(state: State, res: Resolution) -> None:
    """4.6 (1D6 in 1.6: option): the higher roll moves first; a tie gives each side a free
    barrage, resolved at once, then the roll again."""
    barrage.lose_type1(state, res)
    a, b = state.setup.sides
    dice = state.setup.options.initiative_dice
    ra = sum(res.roll("initiative (4.6)", dice, a))
    rb = sum(res.roll("initiative (4.6)", dice, b))
    if ra == rb:
        state.ties += 1
        res.emit("tie", f"initiative tied at {ra}: a free barrage for each side (4.6)")
        state.step = "tie"
        return
    winner = a if ra > rb else b
    state.initiative = winner
    state.passed = []
    high, low = max(ra, rb), min(ra, rb)
    res.emit("initiative", f"{winner} wins the initiative ({high} against {low})", side=winner)
    state.actor = winner
    state.step = "activate"
    if not _can_activate(state, winner):
        _next_activation(state, res, None)


def _can_activate(state: State, side: str) -> bool:
    return side not in state.passed and bool(movement.attemptable(state, side))


def _end_activation(state: State, res: Resolution) -> None:
    mover = state.units[state.current].side if state.current else state.actor
    state.current = None
    state.moved = []
    state.step = "activate"
    _next_activation(state, res, mover)


def _next_activation(state: State, res: Resolution, mover: str | None) -> None:
    """4.6: the sides alternate one unit at a time, the initiative winner first; a side
    that passed or has no unit left to try drops out and the other carries on (4.0)."""
    first = (state.initiative or state.setup.sides[0]) if mover is None else state.other(mover)
    for side in (first, state.other(first)):
        if _can_activate(state, side):
            state.actor = side
            state.step = "activate"
            return
    _end_movement(state, res)


def _end_movement(state: State, res: Resolution) -> None:
    """After every unit: the contaminated bases hunt (1.5 note 2), then the last chance
    to self-destruct (6.0), then phase 4."""
    state.current = None
    fungus.zombies_move(state, res)
    if _decided(state, res):
        return
    first = state.initiative or state.setup.sides[0]
    state.order = (first, state.other(first))
    state.order = tuple(s for s in state.order if state.active(s))
    state.step = "last"
    if state.order:
        state.actor = state.order[0]
        return
    _begin_marking(state, res, "mark2")


def _next_in_order(state: State, res: Resolution, step: str) -> None:
    rest = state.order[1:]
    if step in FIRE_STEPS:
        rest = tuple(s for s in rest if fire.may_shoot(state, s, step))
    state.order = rest
    if rest:
        state.actor = rest[0]
        return
    if step == "last":
        _begin_marking(state, res, "mark2")
    elif step == "fire_a":
        fire.end_step(state, res)
        if _decided(state, res):
            return
        _begin_fire(state, res, "fire_b")
    elif step == "fire_b":
        fire.end_step(state, res)
        if _decided(state, res):
            return
        state.step = "resolve"


def _begin_fire(state: State, res: Resolution, step: str) -> None:
    """Phase 5 (5.0): step a, K and P; step b, C; in initiative order (a ruling: hits
    land together at the step's end, so the order changes only who sees what first).
    A side with no possible shot, as both sides see the table, is not asked (ruling 53)."""
    first = state.initiative or state.setup.sides[0]
    state.step = step  # type: ignore[assignment]
    state.pending = []
    state.order = tuple(s for s in (first, state.other(first)) if fire.may_shoot(state, s, step))
    letter = step[-1]
    for side in (first, state.other(first)):
        if side not in state.order and fire.shooters(state, side, step):
            res.emit(
                "no_shot",
                f"{side} has no shot in step {letter}: no enemy within reach of its "
                f"bases as the table is seen (5.0, {cite_ruling(RULINGS, 53)})",
                side=side,
                step=step,
            )
    if state.order:
        state.actor = state.order[0]
        return
    if step == "fire_a":
        _begin_fire(state, res, "fire_b")
    else:
        state.step = "resolve"


def _end_turn(state: State, res: Resolution) -> None:
    if state.turn >= state.setup.turns:
        settle(state, res, victory.at_limit(state))
        return
    state.turn += 1
    state.ties = 0
    state.step = "network"


def _decided(state: State, res: Resolution) -> bool:
    return settle(state, res, victory.decided(state))


__all__ = ["InvisibleEnemyRules"]
