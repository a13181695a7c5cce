"""MGV (Miniature Ground Vehicles, WTJ) on a free-form table: the rules alone.

Sections cited are those of ``seeds/mgv.txt`` (it repeats 5.1 and 5.2: cite by
number and title). The game is two sides. Set-up (1.5): both sides choose the
weapon type of every mount the scenario leaves open, sealed. A turn (1.6) is
the X, Y and Z rolls (1D6 a side, ties rolled again), the F action and the
reset: each phase one side moves all its bases or fires with all of them; no
side moves twice or fires twice in a turn; without a Z roll (one side won X
and Y) the other side chooses which of its two actions comes first. A fire
phase is ranging (photon guesses, sealed and held), the declaration, the
defender's screens, the missile dice (sealed, both sides), the dice, and the
placing of hits by each target's owner; then sudden death (1.6).

This module imports none of the modules that consume the rules (odds,
evaluation, pictures): :mod:`warbench.rulesets.mgv.ruleset` assembles them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from warbench.core.actions import Action
from warbench.core.decisions import Decision
from warbench.core.game import Resolution
from warbench.errors import IllegalAction
from warbench.rulesets.kit.table.rules import SeenRules, settle, table_ruleset
from warbench.rulesets.mgv import fire, movement
from warbench.rulesets.mgv.actions import END, Arm, End, Mark, Move, Phase
from warbench.rulesets.mgv.data import WEAPON_TYPES, rules
from warbench.rulesets.mgv.scenario import Setup
from warbench.rulesets.mgv.state import PHASES, Base, Mount, State
from warbench.rulesets.mgv.view import seen_state
from warbench.scenario.model import Scenario

ACTIONS = ("move", "fire")


class MGVRules(SeenRules[State]):
    """MGV: hunter-killer micro-vehicle combat (WTJ, 2010-2013 text)."""

    info = table_ruleset(
        "mgv", "MGV: Miniature Ground Vehicles", "3", "miniature-ground-vehicles", sealed=True
    )
    package = "warbench.rulesets.mgv"

    # -- scenario and state ----------------------------------------------------------
    def initial_state(self, scenario: Scenario) -> State:
        setup: Setup = scenario.spec
        bases = {}
        for p in setup.placements:
            mounts: dict[str, Mount] = {
                slot: Mount(slot, attack, p.weapons.get(slot))
                for slot in p.model.slots
                if (attack := p.model.attack(slot)) is not None
            }
            bases[p.id] = Base.placed(p, wing=p.wing, mounts=mounts)
        state = State(setup=setup, bases=bases)
        state.done = {side: [] for side in setup.sides}
        if not any(open_mounts(state, side) for side in setup.sides):
            _start_turn(state)
        return state

    # -- what is asked -----------------------------------------------------------------
    def decision(self, state: State) -> Decision | None:
        if state.outcome is not None:
            return None
        step = state.step
        actor = state.actor or state.setup.sides[0]
        if step == "arm":
            sides = tuple(s for s in state.setup.sides if open_mounts(state, s))
            return Decision.sealed(
                sides,
                "choose the weapon type of each open mount (1.5): "
                "arm BASE[.secondary]=kinetic|missile|photon ...; kinetic is steady 2D6 fire, "
                "missile dice are split among hull layers and may go round corners, photon "
                "depends on guessing the range and a bad guess burns the firer; both sides "
                "choose unseen",
            )
        if step in ("roll", "resolve", "end_phase"):
            return Decision.auto(step)
        if step == "choose":
            return Decision.choose(
                actor,
                "choose what all your bases do this phase (1.6): phase move or phase fire; "
                "each may be taken once a turn",
            )
        if step == "move":
            return Decision.choose(actor, "move your bases one at a time, then end (4.0)")
        if step == "range":
            return Decision.sealed(
                (actor,),
                "write your photon range guesses before declaring targets (5.3)",
                hold=True,
            )
        if step == "declare":
            return Decision.choose(actor, "declare the target of every mount that fires (5.0)")
        if step == "screen":
            return Decision.choose(
                state.other(actor),
                "screen declared attacks with unfired missile mounts (5.1): "
                "screen BASE[.secondary]>ATTACK_NUMBER ... or screen none; "
                "a screen uses up that mount's shot this turn",
            )
        if step == "split":
            return Decision.sealed(
                state.setup.sides,
                "split your missile dice among surface, core and heart (5.2): "
                "the attacker types split ATTACK=S/C/H ... (its dice on a layer are hits), "
                "the defender block ATTACK=S/C/H ... (its dice there are blocks); "
                + fire.dice_counts(state),
            )
        if step == "place":
            return Decision.choose(
                state.bases[state.fire.groups[0].target].side, fire.placing_prompt(state)
            )
        return None

    def legal_actions(self, state: State, side: str) -> Sequence[Action]:
        from warbench.rulesets.mgv.candidates import candidates

        return candidates(self, state, side)

    def legal_actions_holding(
        self, state: State, side: str, held: Action | None
    ) -> Sequence[Action]:
        """As :meth:`legal_actions`, keeping photon shots to the written guesses (5.3)."""
        from warbench.rulesets.mgv.candidates import candidates

        return candidates(self, state, side, held)

    def parse_action(self, state: State, text: str) -> Action:
        from warbench.rulesets.mgv.parse import parse_action

        return parse_action(state, text)

    # -- acting --------------------------------------------------------------------------
    def check_sealed(self, state: State, side: str, action: Action) -> None:
        if state.step == "arm":
            _check_arm(state, side, action)
        elif state.step == "range":
            fire.check_range(state, side, action)
        elif state.step == "split":
            fire.check_split(state, side, action)
        else:
            raise IllegalAction(action, "no sealed choice is asked now")

    def apply_sealed(self, state: State, choices: Mapping[str, Action], res: Resolution) -> None:
        if state.step == "arm":
            for side in state.setup.sides:
                action = choices.get(side)
                if isinstance(action, Arm):
                    for base, slot, weapon in action.choices:
                        state.bases[base].mounts[slot].weapon = weapon  # type: ignore[assignment]
            res.emit(
                "armed",
                "weapons chosen: "
                + "; ".join(
                    f"{b.id} {'/'.join(str(m.weapon) for m in b.mounts.values())}"
                    for b in state.bases.values()
                ),
            )
            _start_turn(state)
            return
        if state.step == "split":
            fire.apply_split(state, choices, res)
            return
        raise IllegalAction(next(iter(choices.values())), "no sealed choice is asked now")

    def hold_sealed(self, state: State, sides: tuple[str, ...], res: Resolution) -> None:
        res.stands("a photon range guess is written before the shot and never rewritten (5.3)")
        fire.after_range(state, res)

    def apply(self, state: State, side: str, action: Action, res: Resolution) -> None:
        step = state.step
        if step == "choose":
            if not isinstance(action, Phase):
                raise IllegalAction(action, "choose the phase: phase move or phase fire")
            if action.kind in state.done[side]:
                raise IllegalAction(
                    action, f"you have already taken your {action.kind} action this turn (1.6)"
                )
            _begin(state, action.kind, res)
            return
        if step == "move":
            if isinstance(action, End):
                _end_phase(state, res)
                return
            if not isinstance(action, Move):
                raise IllegalAction(action, "move a base, or end the movement phase")
            movement.apply_move(state, side, action, res)
            if not movement.movable(state, side):
                _end_phase(state, res)
            return
        if step == "declare":
            fire.apply_declare(state, side, action, res)
            return
        if step == "screen":
            fire.apply_screen(state, side, action, res)
            return
        if step == "place":
            if not isinstance(action, Mark):
                raise IllegalAction(action, "place the hits: mark CIRCLE ... or mark auto")
            fire.apply_mark(state, action, res)
            if not state.fire.groups:
                state.step = "end_phase"
            return
        raise IllegalAction(action, "not asked now")

    def proceed(self, state: State, res: Resolution) -> None:
        if state.step == "roll":
            _roll(state, res)
        elif state.step == "resolve":
            fire.resolve(state, res)
            if not state.fire.groups:
                state.step = "end_phase"
        elif state.step == "end_phase":
            fire.sudden_death(state, res)
            _next_phase(state, res)

    # -- reading -------------------------------------------------------------------------
    def side_state(self, state: State, side: str) -> State | None:
        """The state holds no secret (the engine keeps sealed and held choices), but 5.3
        forbids measuring: the other side's bases stand where ``side`` sees them by eye
        (:mod:`warbench.rulesets.kit.eye`), as its view shows them."""
        return seen_state(state, side)


# -- set-up -------------------------------------------------------------------------------
def open_mounts(state: State, side: str) -> list[tuple[str, str]]:
    """Mounts of ``side`` whose weapon type is still to be chosen (1.5)."""
    return [
        (b.id, m.slot)
        for b in state.bases.values()
        if b.side == side
        for m in b.mounts.values()
        if m.weapon is None
    ]


def _check_arm(state: State, side: str, action: Action) -> None:
    if not isinstance(action, Arm):
        raise IllegalAction(action, "choose weapon types: arm BASE=kinetic|missile|photon ...")
    wanted = set(open_mounts(state, side))
    given: set[tuple[str, str]] = set()
    for base, slot, weapon in action.choices:
        b = state.bases.get(base)
        if b is None or b.side != side:
            raise IllegalAction(action, f"{base} is not one of your bases")
        if slot not in b.mounts:
            raise IllegalAction(action, f"the {b.model.title} has no {slot} mount")
        if (base, slot) not in wanted:
            raise IllegalAction(action, f"the scenario fixes the weapon of {base} {slot}")
        if (base, slot) in given:
            raise IllegalAction(action, f"{base} {slot} is given twice")
        if weapon not in WEAPON_TYPES:
            raise IllegalAction(action, f"'{weapon}' is not a weapon type")
        given.add((base, slot))
    missing = sorted(wanted - given)
    if missing:
        base, slot = missing[0]
        raise IllegalAction(
            action, f"choose a weapon for every open mount: {base} {slot} is missing"
        )


# -- the turn (1.6) -----------------------------------------------------------------------
def _start_turn(state: State) -> None:
    state.phase = 0
    state.winners = []
    state.done = {side: [] for side in state.setup.sides}
    state.step = "roll"


def _remaining(state: State, side: str) -> list[str]:
    return [a for a in ACTIONS if a not in state.done[side]]


def _roll(state: State, res: Resolution) -> None:
    """An X, Y or Z roll: 1D6 each side, ties rolled again (1.6)."""
    a, b = state.setup.sides
    die = rules().data.initiative_die
    label = PHASES[state.phase]
    while True:
        ra = res.roll(f"{label} roll", 1, a, sides=die)[0]
        rb = res.roll(f"{label} roll", 1, b, sides=die)[0]
        if ra != rb:
            break
        res.emit("tie", f"{label} roll tied at {ra}: rolled again")
    winner = a if ra > rb else b
    state.winners.append(winner)
    res.emit("initiative", f"{winner} wins the {label} roll", side=winner, phase=label)
    _offer(state, winner, res)


def _offer(state: State, side: str, res: Resolution) -> None:
    """``side`` has this phase: it chooses if both actions are open, else takes the one left."""
    left = _remaining(state, side)
    state.actor = side
    if len(left) == 2:
        state.step = "choose"
    else:
        _begin(state, left[0], res)


def _begin(state: State, kind: str, res: Resolution) -> None:
    side = state.actor
    assert side is not None
    state.kind = kind
    state.done[side].append(kind)
    state.phase_no += 1
    state.moved = []
    res.emit(
        "phase",
        f"phase {PHASES[state.phase]}: {side} {'moves' if kind == 'move' else 'fires'}",
        side=side,
        action=kind,
        phase=PHASES[state.phase],
    )
    if kind == "move":
        state.step = "move"
        if not movement.movable(state, side):
            res.emit("pass", f"{side} has no base able to move")
            state.step = "end_phase"
    else:
        fire.begin(state, res)


def _end_phase(state: State, res: Resolution) -> None:
    state.step = "end_phase"


def _next_phase(state: State, res: Resolution) -> None:
    """After a phase: the next roll, the side that must act, or the reset (1.6)."""
    if _decided(state, res):
        return
    state.kind = None
    state.moved = []
    a, b = state.setup.sides
    if state.phase == 0:
        state.phase = 1
        state.step = "roll"
        return
    if state.phase == 1:
        state.phase = 2
        if state.winners[0] == state.winners[1]:
            other = state.other(state.winners[0])
            res.emit(
                "no_z",
                f"{state.winners[0]} won X and Y: no Z roll; "
                f"{other} chooses which action comes first",
            )
            _offer(state, other, res)
        else:
            state.step = "roll"
        return
    if state.phase == 2:
        state.phase = 3
        side = a if _remaining(state, a) else b
        _offer(state, side, res)
        return
    _reset(state, res)


def _reset(state: State, res: Resolution) -> None:
    """5. Reset: white, red and yellow markers go; black markers stay (1.6)."""
    res.emit("reset", f"end of turn {state.turn}: markers removed")
    if state.turn >= state.setup.turns:
        from warbench.rulesets.mgv.victory import at_limit

        settle(state, res, at_limit(state))
        return
    state.turn += 1
    _start_turn(state)


def _decided(state: State, res: Resolution) -> bool:
    from warbench.rulesets.mgv.victory import decided

    return settle(state, res, decided(state))


__all__ = ["END", "MGVRules", "open_mounts"]
