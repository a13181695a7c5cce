"""Very Simple Generic Miniatures Rules (v7), sections I-III, on a free-form table.

Sections cited are those of ``seeds/vsgmr.txt``. A round walks the steps listed
in ``data/rules.toml`` ([sequence]): initiative (every side rolls, ties among
the highest roll again, the winner names the starting side), then movement,
distance attacks, hand to hand attacks and skill rolls; in each step the sides
act in play order, from the starting side to its left (the next side listed).
A side with nothing it could do in a step is passed over automatically. With
the Everyone Acts option a side acts with one figure and play passes on, until
every side has ended the step.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any, TypeVar

from warbench.core.actions import Action
from warbench.core.decisions import Decision
from warbench.core.game import Resolution
from warbench.core.outcome import DecidedBy, Outcome
from warbench.errors import IllegalAction
from warbench.geometry.table import Figure
from warbench.rulesets.kit.rulings import cite_ruling
from warbench.rulesets.kit.table.rules import TableRules, table_ruleset
from warbench.rulesets.vsgmr import attacks, combat, space
from warbench.rulesets.vsgmr.actions import (
    END,
    End,
    Fight,
    First,
    Move,
    Shoot,
    Skill,
    Take,
)
from warbench.rulesets.vsgmr.attacks import Situation
from warbench.rulesets.vsgmr.memo import memo, widest
from warbench.rulesets.vsgmr.scenario import Setup, Task
from warbench.rulesets.vsgmr.state import Fig, Item, State, copy_fields, copy_fig, copy_item
from warbench.scenario.model import Scenario

T = TypeVar("T")


class VSGMRRules(TableRules[State]):
    """Very Simple Generic Miniatures Rules v7 (Andrew Domino, 2013), sections I-III."""

    info = table_ruleset(
        "vsgmr",
        "Very Simple Generic Miniatures Rules v7",
        "1",
        "very-simple",
        "vsgm",
        max_sides=None,
    )
    package = "warbench.rulesets.vsgmr"
    kill_causes = ("distance attack", "hand to hand")
    """III: a figure is defeated by a distance attack or a hand to hand attack."""

    # -- scenario and state ----------------------------------------------------------
    def initial_state(self, scenario: Scenario) -> State:
        setup: Setup = scenario.spec
        figs = {p.id: Fig(p.id, p.side, p.profile, p.figure) for p in setup.placements}
        for p in setup.placements:
            if p.riding is not None:
                figs[p.id].where = "mounted"
                figs[p.id].mount = p.riding
                figs[p.riding].rider = p.id
        items = {
            it.id: Item(it.id, it.label, it.points, it.at, locked=it.locked) for it in setup.items
        }
        state = State(setup=setup, figs=figs, items=items)
        state.scores = dict.fromkeys(setup.sides, 0.0)
        state.rolling = setup.sides
        return state

    def turn(self, state: State) -> int:
        return state.round

    def scores(self, state: State) -> dict[str, float]:
        """II: the points of opponents' figures each side has destroyed (and any the
        scenario gives)."""
        return {s: float(state.scores[s]) for s in state.setup.sides}

    # -- decisions ----------------------------------------------------------------------
    def decision(self, state: State) -> Decision | None:
        if state.outcome is not None:
            return None
        if state.phase == "initiative":
            if state.chooser is None:
                return Decision.auto("roll for initiative")
            sides = state.setup.sides
            rest = (
                "the other acts second"
                if len(sides) == 2
                else "the others follow in the scenario's order from it"
            )
            return Decision.choose(
                state.chooser,
                f"{state.chooser} won the initiative: choose the side that acts first in "
                f"every step of this round ({' or '.join(f'first {s}' for s in sides)}); " + rest,
            )
        side = state.order[state.actor]
        if not self.can_act(state, side):
            return Decision.auto(f"{side} has nothing to do in {self.phase_title(state)}")
        if state.setup.options.everyone_acts:
            return Decision.choose(
                side,
                f"{_PROMPTS[state.phase]} (Everyone Acts: one figure, then the next player)",
            )
        return Decision.choose(side, _PROMPTS[state.phase])

    def can_act(self, state: State, side: str) -> bool:
        """Whether ``side`` could do anything in the current step (else it is passed over)."""
        key = ("can_act", side, state.phase)
        found: bool | None = state.caches.get(key)
        if found is None:
            phase = state.phase
            if phase == "movement":
                found = any(self.may_move(state, f) for f in state.side_figs(side)) or bool(
                    self.take_options(state, side)
                )
            elif phase in ("distance", "hand"):  # the first figure with an attack will do
                hand = phase == "hand"
                found = any(self.may_attack(state, f, hand) for f in state.side_figs(side))
            else:
                found = bool(self.skill_options(state, side))
            state.caches[key] = found
        return found

    def legal_actions(self, state: State, side: str) -> Sequence[Action]:
        if not self.asked(state, side):
            return []
        if state.phase == "initiative":
            return [First(s) for s in state.setup.sides]
        if state.phase == "movement":
            from warbench.rulesets.vsgmr.candidates import movement_candidates

            return [*movement_candidates(self, state, side), *self.take_options(state, side), END]
        if state.phase == "distance":
            return [*self.shoot_options(state, side), END]
        if state.phase == "hand":
            return [*self.fight_options(state, side), END]
        return [*self.skill_options(state, side), END]

    def proceed(self, state: State, res: Resolution) -> None:
        if state.phase == "initiative":
            self._roll_initiative(state, res)
        else:
            side = state.order[state.actor]
            res.emit("pass", f"{side} has nothing to do in {self.phase_title(state)}", side=side)
            self._side_done(state, side, res)

    def _roll_initiative(self, state: State, res: Resolution) -> None:
        # II.1: each player rolls one die; the highest chooses who takes the first
        # turn; ties are rolled again (ruling: only the sides tied for highest).
        die = state.setup.rules.initiative_die
        rolls = {s: res.roll("initiative", side=s, sides=die)[0] for s in state.rolling}
        state.rolls = rolls
        best = max(rolls.values())
        top = tuple(s for s in state.rolling if rolls[s] == best)
        if len(top) > 1:
            state.rolling = top
            res.emit(
                "initiative",
                f"initiative tied at {best} between {', '.join(top)}: they roll again",
                rolls=rolls,
            )
            return
        state.chooser = top[0]
        state.rolling = ()
        res.emit(
            "initiative", f"{top[0]} wins the initiative with {best}", winner=top[0], rolls=rolls
        )

    def _side_done(self, state: State, side: str, res: Resolution) -> None:
        """``side`` has finished this step: play passes on, or the next step begins."""
        state.done.add(side)
        state.caches.pop(("can_act", side, state.phase), None)
        if len(state.done) >= len(state.order):
            self._next_phase(state, res)
            return
        self._pass_on(state)

    def _pass_on(self, state: State) -> None:
        """The next side (to the left) that has not ended this step takes its turn."""
        n = len(state.order)
        for step in range(1, n + 1):
            candidate = (state.actor + step) % n
            if state.order[candidate] not in state.done:
                state.actor = candidate
                return

    def _next_phase(self, state: State, res: Resolution) -> None:
        phases = state.setup.rules.phases
        index = phases.index(state.phase) + 1
        state.done = set()
        state.actor = 0
        if index < len(phases):
            state.phase = phases[index]
            res.emit(
                "phase",
                f"round {state.round}: {self.phase_title(state)}",
                phase=state.phase,
                round=state.round,
            )
            return
        # II step 6: the round ends; after the last round the game ends.
        if state.round >= state.setup.rounds:
            self._end(state, res, f"{state.setup.rounds} rounds finished", "points")
            return
        state.round += 1
        state.phase = "initiative"
        state.order = ()
        state.chooser = None
        state.rolling = state.setup.sides
        for fig in state.figs.values():
            fig.moved = fig.attacked = fig.skilled = False
        state.changed()
        res.emit("turn", f"round {state.round} begins", turn=state.round)

    # -- the end ---------------------------------------------------------------------
    def _check_end(self, state: State, res: Resolution) -> None:
        """II: the game ends as soon as one side's whole group is gone from the table."""
        if state.outcome is not None:
            return
        gone = [s for s in state.setup.sides if not state.side_figs(s)]
        if gone:
            gone_words = f"{', '.join(gone)} has no figure left on the table"
            self._end(state, res, gone_words, "elimination")
            return
        if state.setup.victory.end_when_item_leaves and any(i.gone for i in state.items.values()):
            self._end(state, res, "an item has been carried off the table", "mission")

    def _end(self, state: State, res: Resolution, why: str, decided_by: DecidedBy) -> None:
        # II: the winner destroyed the most points of opponents' figures (plus any
        # points the scenario gives); equal best scores are a draw. ``decided_by`` says
        # what ended the game (the last round: the points alone).
        scores = self.scores(state)
        best = max(scores.values())
        top = [s for s, v in scores.items() if v == best]
        winner = top[0] if len(top) == 1 else None
        reason = f"{why}; " + ("most points" if winner else "equal points")
        state.outcome = Outcome(winner, reason, scores, decided_by=decided_by)
        res.emit(
            "end",
            f"game over ({reason}): " + (f"{winner} wins" if winner else "a draw"),
            winner=winner,
            scores=scores,
        )

    # -- acting ----------------------------------------------------------------------
    def apply(self, state: State, side: str, action: Action, res: Resolution) -> None:
        decision = self.decision(state)
        if decision is None:
            raise IllegalAction(action, "the game is over")
        if side not in decision.sides:
            raise IllegalAction(action, f"it is not {side}'s decision")
        phase = state.phase
        if phase == "initiative":
            if not isinstance(action, First):
                raise IllegalAction(action, "the initiative winner must name who goes first")
            self._first(state, action, res)
            return
        if isinstance(action, End):
            res.emit("end_step", f"{side} ends {self.phase_title(state)}", side=side)
            self._side_done(state, side, res)
            return
        if phase == "movement" and isinstance(action, Move):
            self._move(state, side, action, res)
        elif phase == "movement" and isinstance(action, Take):
            self._take(state, side, action, res)
        elif phase == "distance" and isinstance(action, Shoot):
            self._attack(state, side, action, res, hand=False)
        elif phase == "hand" and isinstance(action, Fight):
            self._attack(state, side, action, res, hand=True)
        elif phase == "skill" and isinstance(action, Skill):
            self._skill(state, side, action, res)
        else:
            raise IllegalAction(action, f"not an action of the {self.phase_title(state)} step")
        self._check_end(state, res)
        if state.outcome is None and state.setup.options.everyone_acts:
            # OPTIONAL RULE (Everyone Acts): one figure, then the next player.
            self._pass_on(state)

    def _first(self, state: State, action: First, res: Resolution) -> None:
        sides = state.setup.sides
        if action.side not in sides:
            raise IllegalAction(action, f"no side '{action.side}'")
        # II.1: play passes to the starter's left, then on round the table
        # (ruling: the sides are listed in seating order, so "left" is next listed).
        start = sides.index(action.side)
        state.order = sides[start:] + sides[:start]
        state.actor = 0
        state.done = set()
        state.chooser = None
        state.phase = state.setup.rules.phases[1]
        res.emit(
            "initiative",
            f"{action.side} takes the first turn; play order {', '.join(state.order)}",
            order=list(state.order),
        )
        res.emit("phase", f"round {state.round}: {self.phase_title(state)}", phase=state.phase)

    # -- lookups ---------------------------------------------------------------------
    def _own(self, state: State, side: str, ref: str, action: Action) -> Fig:
        fig = state.figs.get(ref)
        if fig is None:
            raise IllegalAction(action, f"there is no figure '{ref}'")
        if fig.side != side:
            raise IllegalAction(action, f"{ref} is not {side}'s figure")
        if not fig.active:
            raise IllegalAction(action, f"{ref} is no longer on the table ({fig.where})")
        return fig

    # -- movement (II.2) -----------------------------------------------------------------
    def can_move(self, state: State, fig: Fig) -> str | None:
        """Why ``fig`` may not move now at all, or None."""
        if not fig.active:
            return f"{fig.id} is no longer on the table"
        if fig.moved:
            if fig.where == "mounted":
                return (
                    f"{fig.id} has been carried by {fig.mount} this round, which was its move "
                    f"({cite_ruling(attacks.RULINGS, 8)})"
                )
            return f"{fig.id} has already moved this round"
        if fig.profile.is_mount and fig.rider is None:
            return f"{fig.id} has no rider or driver, so it cannot move at all"
        return None

    def may_move(self, state: State, fig: Fig) -> bool:
        """``can_move(state, fig) is None``, without writing out why not (asked of every
        figure whenever the moves are listed)."""
        return fig.active and not fig.moved and not (fig.profile.is_mount and fig.rider is None)

    def move_problem(
        self,
        state: State,
        fig: Fig,
        action: Move,
        known_legal: bool = False,
        smooth: bool = False,
    ) -> tuple[str | None, Any]:
        """Why ``fig`` may not make ``action`` (or None), and the move as checked
        (``known_legal``: a move the candidates listed for this state, costed only;
        ``smooth``: one they found far from rough ground, see ``space.check_move``)."""
        why = self.can_move(state, fig)
        if why:
            return why, None
        if fig.where == "mounted" and not action.path:
            return (
                f"{fig.id} rides {fig.mount} and does not move on its own; "
                "to dismount, move it off its mount",
                None,
            )
        check = space.check_move(
            state, fig, action.path, action.facing, action.facings, known_legal, smooth
        )
        return check.problem, check

    def _move(self, state: State, side: str, action: Move, res: Resolution) -> None:
        from warbench.rulesets.vsgmr.candidates import listed, smooth

        fig = self._own(state, side, action.figure, action)
        # A move the candidates listed for this state was built legal: it is not checked
        # again, only costed (the same end, cost and half move as the full check).
        known = listed(state, fig, action)
        problem, check = self.move_problem(
            state, fig, action, known, known and smooth(state, fig, action.path)
        )
        _allowed(action, problem)
        assert isinstance(check, space.MoveCheck)
        end = check.end
        dismounted = None
        if fig.where == "mounted":
            mount = state.figs[fig.mount or ""]
            mount.rider = None
            dismounted = mount.id
            fig.mount = None
            fig.where = "table"
        fig.geo = end
        fig.moved = True
        rider = state.figs[fig.rider] if fig.rider else None
        if rider is not None:  # II.2: the rider moves along with its mount
            rider.geo = rider.geo.moved_to(end.at, end.facing)
            rider.moved = True
        if check.mounts is not None:
            mount = state.figs[check.mounts]
            mount.rider = fig.id
            fig.mount = mount.id
            fig.where = "mounted"
            fig.geo = fig.geo.moved_to(mount.geo.at, mount.geo.facing)
        state.changed()
        path = [[x, y] for x, y in check.path]
        bits = [f'{fig.id} moves {check.result.cost:.2f}" of {check.allowance:g}"']
        if check.half:
            bits.append("(half move: rough terrain)")
        if dismounted:
            bits.append(f"leaving {dismounted}")
        if check.mounts:
            bits.append(f"and mounts {check.mounts}")
        bits.append(f"facing {fig.geo.facing:g}")
        res.emit(
            "move",
            " ".join(bits),
            figure=fig.id,
            side=side,
            path=path,
            facing=fig.geo.facing,
            cost=check.result.cost,
            half=check.half,
            mounts=check.mounts,
            dismounts=dismounted,
        )
        if check.leaves:
            self._leave(state, fig, end.at, res)

    def _leave(self, state: State, fig: Fig, at: tuple[float, float], res: Resolution) -> None:
        """II.2: a figure that moves off the table cannot return; III: items go with it."""
        setup = state.setup
        edge = _edge_crossed(setup.table.width, setup.table.height, at)
        leaving = [fig] + ([state.figs[fig.rider]] if fig.rider else [])
        for f in leaving:
            f.where = "left"
            res.emit("left", f"{f.id} leaves the table by the {edge} edge", figure=f.id, edge=edge)
            for item_id in f.items:
                item = state.items[item_id]
                item.gone = True
                own = setup.edges.get(f.side)
                scores = setup.victory.item_exit == "any_edge" or own == edge
                if scores and item.points:
                    item.scored_by = f.side
                    state.scores[f.side] += item.points
                res.emit(
                    "item_off",
                    f"{item.label} is carried off the table by {f.id}"
                    + (f": {item.points} points to {f.side}" if item.scored_by else ""),
                    item=item.id,
                    side=f.side,
                    scored=item.scored_by is not None,
                )
        state.changed()

    def take_options(self, state: State, side: str) -> list[Take]:
        key = ("take", side)
        found: list[Take] | None = state.caches.get(key)
        if found is None:
            found = []
            figs = state.figs
            for item in state.items.values():
                if item.at is None or item.gone:
                    continue
                for fid in space.standing_near(state, side, item.at, state.setup.rules.touch):
                    if self.take_problem(state, figs[fid], item) is None:
                        found.append(Take(fid, item.id))
            state.caches[key] = found
        return list(found)

    def take_problem(self, state: State, fig: Fig, item: Item) -> str | None:
        """III: any figure touching a dropped item may pick it up, ending its movement."""
        if fig.where != "table":
            return f"{fig.id} is not on the table in its own right"
        if fig.profile.is_mount and fig.rider is None:
            return (
                f"{fig.id} has no rider or driver: it cannot move, so it cannot end a move "
                "to pick anything up (II.2, III)"
            )
        if item.carrier is not None or item.at is None:
            return (
                f"{item.id} is carried by {item.carrier}" if item.carrier else f"{item.id} is gone"
            )
        if item.locked:
            return f"{item.label} is locked (a skill roll may open it)"
        if not fig.geo.covers(item.at, tolerance=state.setup.rules.touch):
            return f"{fig.id} is not touching {item.label}"
        return None

    def _take(self, state: State, side: str, action: Take, res: Resolution) -> None:
        fig = self._own(state, side, action.figure, action)
        item = _known(state.items.get(action.item), action, "item", action.item)
        _allowed(action, self.take_problem(state, fig, item))
        item.carrier = fig.id
        item.at = None
        fig.items.append(item.id)
        fig.moved = True
        state.changed()
        res.emit(
            "take",
            f"{fig.id} picks up {item.label}, ending its movement",
            figure=fig.id,
            item=item.id,
        )

    # -- attacks (II.3, II.4, III) -----------------------------------------------------------
    def situation(self, state: State, fig: Fig, target: str, hand: bool) -> Situation | str:
        """The attack as it stands, kept for this version of the state (a pure read of
        it: the options listed, the greedy bot's scores and the roll share one)."""
        own = state.figs.get(fig.id) is fig
        key = ("situation", fig.id, target, hand)
        if own:
            found: Situation | str | None = state.caches.get(key)
            if found is not None:
                return found
        if hand:
            found = attacks.hand_situation(state, fig, target)
        else:
            found = attacks.distance_situation(state, fig, target)
        if own:
            state.caches[key] = found
        return found

    def _attack_options(self, state: State, side: str, hand: bool) -> list[Action]:
        """Every legal attack on a figure; attacks on terrain only for a figure that has
        no figure to attack, the nearest few (any legal one is still accepted).

        Each figure's attacks are kept across actions (:mod:`.memo`) until something
        changes within reach of it (sight lines included): an enemy, or a friend when
        figures block sight."""
        key = ("attacks", side, hand)
        found: list[Action] | None = state.caches.get(key)
        if found is None:
            found = [a for fig in state.side_figs(side) for a in self.fig_attacks(state, fig, hand)]
            state.caches[key] = found
        return list(found)

    def fig_attacks(self, state: State, fig: Fig, hand: bool) -> list[Action]:
        """``fig``'s part of :meth:`_attack_options`, kept across actions."""
        found = list(self.fig_attacks_lazily(state, fig, hand))
        return found

    def fig_attacks_lazily(self, state: State, fig: Fig, hand: bool) -> Iterator[Action]:
        """:meth:`fig_attacks` one at a time, each found only when asked for (a bot that
        draws one action reads as far as its draw); read through, they are kept as the
        list is."""
        m = memo(state)
        kind = ("attacks", hand)
        kept = m.kept(kind, fig)
        if kept is not None:
            yield from kept
            return
        region, made = self._attacks_made(state, fig, hand)
        found: list[Action] = []
        for attack in made:
            found.append(attack)
            yield attack
        # Friends stand in no attack's way unless they block sight (hand to hand: only
        # the two bases and the walls between them count).
        m.keep(kind, fig, region, found, hand or not state.setup.options.figures_block_sight)

    def may_attack(self, state: State, fig: Fig, hand: bool) -> bool:
        """Whether :meth:`fig_attacks` lists any attack, found at the first (kept across
        actions like the list, which answers when it is kept)."""
        m = memo(state)
        listed = m.kept(("attacks", hand), fig)
        if listed is not None:
            return bool(listed)
        kind = ("any attack", hand)
        found: bool | None = m.kept(kind, fig)
        if found is None:
            region, made = self._attacks_made(state, fig, hand)
            found = next(made, None) is not None
            m.keep(kind, fig, region, found, hand or not state.setup.options.figures_block_sight)
        return found

    def attack_bound(self, state: State, fig: Fig, hand: bool) -> int:
        """At most this many in :meth:`fig_attacks`: the enemies whose bases may be in
        reach, or the nearest few features (none for a figure that may not attack)."""
        if attacks.can_attack(state, fig) is not None or not (hand or fig.profile.distance):
            return 0
        me, _, pad = self._attack_reach(state, fig, hand)
        return max(len(space.bodies_in_box(state, fig.side, me.x, me.y, pad)), FEATURE_TARGETS)

    def _attack_reach(self, state: State, fig: Fig, hand: bool) -> tuple[Figure, float, float]:
        """The figure's body, its reach, and how far off an enemy base's centre may be
        and its edge still in reach: the widest base of the set-up beyond it (a 10"
        dragon is offered like a trooper)."""
        me = space.body(state, fig)
        rules = state.setup.rules
        reach = rules.range if not hand else rules.touch + max(rules.lay_flat.values())
        return me, reach, reach + me.base.bounding_radius + widest(state) + 0.5

    def _attacks_made(
        self, state: State, fig: Fig, hand: bool
    ) -> tuple[tuple[float, float, float], Iterator[Action]]:
        """The circle around the figure its attacks depend on, and the attacks, each
        worked out as it is asked for."""
        me, reach, pad = self._attack_reach(state, fig, hand)
        radius = reach + me.base.bounding_radius + 3.0 * widest(state) + 0.5
        return (me.x, me.y, radius), self._attacks_of(state, fig, hand, me, reach, pad)

    def _attacks_of(
        self, state: State, fig: Fig, hand: bool, me: Figure, reach: float, pad: float
    ) -> Iterator[Action]:
        if attacks.can_attack(state, fig) is not None:
            return
        if not hand and not fig.profile.distance:
            return
        make = Fight if hand else Shoot
        any_figure = False
        for enemy_id in space.bodies_in_box(state, fig.side, me.x, me.y, pad):
            if isinstance(self.situation(state, fig, enemy_id, hand), Situation):
                any_figure = True
                yield make(fig.id, enemy_id)
        if any_figure:
            return
        legal = 0
        for _, fid in space.features_within(state, me, reach):
            if isinstance(self.situation(state, fig, fid, hand), Situation):
                yield make(fig.id, fid)
                legal += 1
                if legal >= FEATURE_TARGETS:
                    return

    def shoot_options(self, state: State, side: str) -> list[Action]:
        return self._attack_options(state, side, hand=False)

    def fight_options(self, state: State, side: str) -> list[Action]:
        return self._attack_options(state, side, hand=True)

    def _attack(
        self, state: State, side: str, action: Shoot | Fight, res: Resolution, hand: bool
    ) -> None:
        fig = self._own(state, side, action.figure, action)
        sit = self.situation(state, fig, action.target, hand)
        if isinstance(sit, str):
            raise IllegalAction(action, sit)
        rules = state.setup.rules
        fig.attacked = True
        state.changed()
        kind = "hand to hand" if hand else "distance attack"
        base = dict(
            figure=fig.id,
            target=sit.target,
            side=side,
            hand=hand,
            sight_from=list(sit.sight_from),
            sight_to=list(sit.sight_to),
        )
        if sit.see_dispute:
            roll = res.roll(f"dispute: can {fig.id} see {sit.target}? (4-6 sees)", side=side)[0]
            if roll < rules.sees_on:
                res.emit(
                    "attack",
                    f"{fig.id} cannot see {sit.target} after all ({roll}): the attack is lost",
                    result="unseen",
                    clear=False,
                    **base,
                )
                return
        cover = sit.cover
        if sit.cover_dispute:
            roll = res.roll(f"dispute: is {sit.target} covered? (4-6 covered)", side=side)[0]
            cover = roll >= rules.covered_on
        need, bonus = combat.attack_needs(rules, fig.profile.kind, hand=hand, cover=cover)
        dice = rules.auto_dice if fig.profile.auto and not hand else 1
        what = f"{kind} {fig.id} at {sit.target}, needs {need}+"
        if dice > 1:  # II.3 AUTOMATIC FIRE: each die logged on its own, the higher kept
            rolled = tuple(
                res.roll(f"{what}: die {k + 1} of {dice}, the higher counts", 1, side)[0]
                for k in range(dice)
            )
        else:
            rolled = res.roll(what, 1, side)
        kept = combat.keep(rolled)
        total = kept + bonus
        shown = f"{kept}" + (f"+{bonus}" if bonus else "")
        cover_note = " (in cover)" if cover and not hand else ""
        if dice > 1:
            shown = f"best of {', '.join(map(str, rolled))}: {shown}"
        if total < need:
            res.emit(
                "attack",
                f"{fig.id} attacks {sit.target}{cover_note}: {shown} against {need}+: miss",
                result="miss",
                clear=True,
                roll=kept,
                need=need,
                **base,
            )
            return
        if sit.feature:
            self._hit_feature(state, fig, sit, shown, need, base, res)
            return
        target = state.figs[sit.target]
        save = combat.save_needs(rules, target.profile.kind, target.profile.armour)
        if save is not None:
            owner = target.side
            s_need, s_bonus = save
            # The hit is logged before the armour roll that answers it (III order).
            res.emit(
                "hit",
                f"{fig.id} hits {target.id}{cover_note} ({shown} against {need}+); "
                f"{target.id} rolls for its armour",
                attacker=fig.id,
                target=target.id,
            )
            s_roll = res.roll(
                f"{target.profile.armour} armour of {target.id}, saves on {s_need}+", side=owner
            )[0]
            if s_roll + s_bonus >= s_need:
                res.emit(
                    "attack",
                    f"{fig.id} hits {target.id}{cover_note} ({shown} against {need}+) "
                    f"but its armour saves ({s_roll}" + (f"+{s_bonus}" if s_bonus else "") + ")",
                    result="saved",
                    clear=True,
                    roll=kept,
                    need=need,
                    **base,
                )
                return
        res.emit(
            "attack",
            f"{fig.id} hits {target.id}{cover_note} ({shown} against {need}+): defeated",
            result="hit",
            clear=True,
            roll=kept,
            need=need,
            **base,
        )
        self._defeat(state, target, side, res, credit=fig.id, cause=kind)

    def _hit_feature(
        self,
        state: State,
        fig: Fig,
        sit: Situation,
        shown: str,
        need: int,
        base: dict[str, Any],
        res: Resolution,
    ) -> None:
        # III: the building or feature makes an armour roll, 3 or more saves;
        # otherwise it is destroyed (stand-in: the whole feature the attack named).
        rules = state.setup.rules
        res.emit(
            "hit",
            f"{fig.id} hits {sit.target} ({shown} against {need}+); it rolls to hold",
            attacker=fig.id,
            target=sit.target,
        )
        roll = res.roll(f"{sit.target} resists, saves on {rules.terrain_save}+")[0]
        if roll >= rules.terrain_save:
            res.emit(
                "attack",
                f"{fig.id} hits {sit.target} ({shown} against {need}+) but it holds ({roll})",
                result="saved",
                clear=True,
                **base,
            )
            return
        state.destroyed.add(sit.target)
        state.changed()
        res.emit(
            "attack",
            f"{fig.id} hits {sit.target} ({shown} against {need}+): it is destroyed ({roll})",
            result="hit",
            clear=True,
            **base,
        )
        self._free_from_rubble(state, sit.target, res)

    def _free_from_rubble(self, state: State, feature_id: str, res: Resolution) -> None:
        """Ruling 13: a destroyed feature that sealed an item (a task there unlocks it) frees
        the item in its rubble, so the objective stays open (else nobody could ever unlock it)."""
        feature = state.setup.feature(feature_id)
        name = (feature.label if feature is not None else "") or feature_id
        for task in state.setup.tasks:
            item = state.items.get(task.target or "")
            if task.feature != feature_id or task.effect != "unlock_item" or item is None:
                continue
            if not item.locked:
                continue
            item.locked = False
            state.changed()
            res.emit(
                "task",
                f"{name} is destroyed: {item.label} lies free in the rubble and can now be "
                "picked up",
                item=item.id,
                feature=feature_id,
            )

    def _defeat(
        self,
        state: State,
        target: Fig,
        by: str,
        res: Resolution,
        credit: str | None = None,
        cause: str | None = None,
    ) -> None:
        """III: the figure leaves the table; its rider and items drop where it stood."""
        place = space.body(state, target)
        state.scores[by] += target.profile.points
        if target.where == "mounted" and target.mount is not None:
            state.figs[target.mount].rider = None
            target.mount = None
        target.where = "defeated"
        res.emit(
            "defeated",
            f"{target.id} is defeated: {target.profile.points} points to {by}",
            figure=target.id,
            by=by,
            credit=credit,
            cause=cause,
            points=target.profile.points,
            at=list(place.at),
        )
        if target.rider is not None:
            rider = state.figs[target.rider]
            rider.where = "table"
            rider.mount = None
            rider.geo = rider.geo.moved_to(place.at, place.facing)
            # Ruling 8: the pair's attack this round was the rider's too (it controlled
            # the mount); dropped, it does not get a second one.
            rider.attacked = rider.attacked or target.attacked
            target.rider = None
            res.emit("dropped", f"{rider.id} is dropped where {target.id} stood", figure=rider.id)
        for item_id in target.items:
            item = state.items[item_id]
            item.carrier = None
            item.at = place.at
            res.emit("dropped", f"{item.label} is dropped where {target.id} stood", item=item_id)
        target.items = []
        state.changed()

    # -- skill rolls (II.5) ----------------------------------------------------------------
    def skill_problem(self, state: State, fig: Fig, task: Task) -> str | None:
        if fig.where == "mounted":
            return f"{fig.id} rides {fig.mount}: riders make skill rolls only once they leave it"
        if not fig.active:
            return f"{fig.id} is no longer on the table"
        if not fig.profile.is_guy:
            return f"{fig.id} is a {fig.profile.kind}: only guys make skill rolls"
        if fig.skilled:
            return (
                f"{fig.id} has already made a skill roll this round "
                f"(one a round: {cite_ruling(attacks.RULINGS, 13)})"
            )
        if task.id in state.tasks_done or f"{task.id}:{fig.side}" in state.tasks_done:
            return f"{task.label} is done already"
        if task.feature is not None:
            if task.feature in state.destroyed:
                return (
                    f"{task.feature} has been destroyed, so {task.label} can no longer be "
                    f"tried ({cite_ruling(attacks.RULINGS, 13)})"
                )
            gap = space.terrain(state).distance_to(fig.geo, task.feature)
        else:
            assert task.at is not None
            from warbench.geometry.table import edge_distance

            gap = edge_distance(fig.geo, task.at)
        if gap > task.reach + 1e-9:
            return f'{fig.id} is {gap:.2f}" from {task.label}; it must be within {task.reach:g}"'
        if task.effect == "unlock_item" and not state.items[task.target or ""].locked:
            return f"{task.label}: nothing left to unlock"
        if task.effect == "remove_feature" and (task.target or "") in state.destroyed:
            return f"{task.label}: {task.target} is gone already"
        return None

    def skill_options(self, state: State, side: str) -> list[Action]:
        key = ("skill", side)
        found: list[Action] | None = state.caches.get(key)
        if found is None:
            found = []
            m = memo(state)
            for fig in state.side_figs(side):
                found.extend(m.per_figure("skill", fig, partial(self._fig_skills, state, fig)))
            state.caches[key] = found
        return list(found)

    def _fig_skills(
        self, state: State, fig: Fig
    ) -> tuple[tuple[float, float, float], list[Action]]:
        """One figure's skill rolls: only the figure itself and the tasks decide them."""
        here = (fig.geo.x, fig.geo.y, 0.0)
        tasks = state.setup.tasks
        if not tasks or fig.where != "table" or not fig.profile.is_guy or fig.skilled:
            return here, []  # skill_problem refuses every task
        return here, [
            Skill(fig.id, tasks[i].id)
            for i in space.tasks_near(state, fig.geo)
            if self.skill_problem(state, fig, tasks[i]) is None
        ]

    def skill_chance(self, state: State, fig: Fig, task: Task) -> Any:
        specific = (
            state.setup.options.specific_skills
            and task.skill is not None
            and task.skill in fig.profile.skills
        )
        return combat.skill_chance(state.setup.rules, fig.profile.kind == "hero", specific)

    def _skill(self, state: State, side: str, action: Skill, res: Resolution) -> None:
        fig = self._own(state, side, action.figure, action)
        task = _known(state.setup.task(action.task), action, "task", action.task)
        _allowed(action, self.skill_problem(state, fig, task))
        rules = state.setup.rules
        bonus = rules.skill_hero_bonus if fig.profile.kind == "hero" else 0
        specific = (
            state.setup.options.specific_skills
            and task.skill is not None
            and task.skill in fig.profile.skills
        )
        if specific:
            bonus += rules.skill_specific_bonus
        fig.skilled = True
        state.changed()
        roll = res.roll(
            f"skill roll of {fig.id} at {task.label}, needs {rules.skill_target}+", side=side
        )[0]
        ok = roll + bonus >= rules.skill_target
        res.emit(
            "skill",
            f"{fig.id} tries {task.label}: {roll}"
            + (f"+{bonus}" if bonus else "")
            + f" against {rules.skill_target}+: "
            + ("success" if ok else "failure"),
            figure=fig.id,
            task=task.id,
            roll=roll,
            success=ok,
        )
        if not ok:
            return
        state.tasks_done.add(task.id if task.limit == "once" else f"{task.id}:{side}")
        if task.effect == "points":
            state.scores[side] += task.points
            res.emit("task", f"{task.label}: {task.points} points to {side}", side=side)
        elif task.effect == "remove_feature":
            state.destroyed.add(task.target or "")
            res.emit("task", f"{task.label}: {task.target} is removed", feature=task.target)
            self._free_from_rubble(state, task.target or "", res)
        else:
            state.items[task.target or ""].locked = False
            res.emit("task", f"{task.label}: {task.target} can now be picked up", item=task.target)
        state.changed()

    # -- reading ---------------------------------------------------------------------------
    def parse_action(self, state: State, text: str) -> Action:
        from warbench.rulesets.vsgmr.parse import parse_action

        return parse_action(state, text)

    def phase_title(self, state: State) -> str:
        title = state.setup.rules.phase_titles[state.phase]
        if state.phase != "initiative" and state.order:
            title = f"{title} ({state.order[state.actor]})"
        return title

    def view(self, state: State, side: str | None) -> dict[str, Any]:
        from warbench.rulesets.vsgmr.view import make_view

        view = make_view(state, side)
        view["phase_title"] = self.phase_title(state)
        return view

    def copy_state(self, state: State) -> State:
        clone = copy_fields(state)
        clone.figs = {k: copy_fig(f) for k, f in state.figs.items()}
        for f in clone.figs.values():
            f.items = list(f.items)
        clone.items = {k: copy_item(i) for k, i in state.items.items()}
        clone.destroyed = set(state.destroyed)
        clone.rolls = dict(state.rolls)
        clone.done = set(state.done)
        clone.scores = dict(state.scores)
        clone.tasks_done = set(state.tasks_done)
        # What was worked out for this version holds for the copy until it changes
        # (``State.changed`` empties the copy's own dict); the kept per-figure results
        # go with it, so a search's copies do not work them out again.
        clone.caches = dict(state.caches)
        kept = state.kept.get("memo")
        clone.kept = {} if kept is None else {"memo": kept.copy()}
        return clone


FEATURE_TARGETS = 3
"""Attacks on terrain offered per figure (the nearest legal ones)."""

_PROMPTS = {
    "movement": "movement: move FIGURE X,Y [X,Y ...] [face DEGREES] (or forward, reverse, "
    "turn, toward: see help), take FIGURE ITEM, or end",
    "distance": "distance attacks: shoot FIGURE TARGET, or end",
    "hand": "hand to hand attacks: fight FIGURE TARGET, or end",
    "skill": "skill rolls: skill FIGURE TASK, or end",
}


def _known(found: T | None, action: Action, what: str, ref: str) -> T:
    """The ``what`` an action names (``ref``), or IllegalAction."""
    if found is None:
        raise IllegalAction(action, f"there is no {what} '{ref}'")
    return found


def _allowed(action: Action, problem: str | None) -> None:
    """IllegalAction with the rules' ``problem`` with an action, if they found one."""
    if problem:
        raise IllegalAction(action, problem)


def _edge_crossed(width: float, height: float, at: tuple[float, float]) -> str:
    """The table edge a centre at ``at`` (off the table) went over: the farthest beyond."""
    x, y = at
    beyond = {"west": -x, "east": x - width, "south": -y, "north": y - height}
    return max(beyond, key=beyond.__getitem__)
