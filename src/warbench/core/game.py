"""The Game: a scenario in play, with its state, seeded dice, actions and events.

Everything a person or a program does with a game goes through this class:

>>> from warbench.core.game import Game
>>> game = Game.start("miniwars/danville", seed=3)
>>> game.decision.sides
('horde',)
>>> first = game.legal_actions()[0]
>>> events = game.apply(first)
>>> game.actions[-1].action == first
True
"""

from __future__ import annotations

import copy
import hashlib
import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.decisions import Decision, DecisionKind
from warbench.core.dice import Dice, ScriptedDice, SecretDice
from warbench.core.events import Event
from warbench.core.loader import load_scenario
from warbench.core.outcome import Outcome
from warbench.core.record import make_record
from warbench.core.resolution import Resolution as Resolution
from warbench.core.resolution import TakenAction as TakenAction
from warbench.core.ruleset import Ruleset
from warbench.core.seat import Seat
from warbench.errors import IllegalAction, NotYourDecision, UndoError, excerpt
from warbench.scenario.model import Scenario

MAX_AUTO_STEPS = 10_000


class Game:
    """A scenario in play. Create one with :meth:`start` or the constructor."""

    def __init__(self, scenario: Scenario, seed: int | None, dice: Dice | None = None) -> None:
        self.scenario = scenario
        self.ruleset: Ruleset[Any] = registry.get(scenario.ruleset)
        self.seed = seed
        """The dice's seed, or None for secret dice (:class:`~warbench.core.dice.SecretDice`:
        a game with a person in it, whose record logs the dice rolled instead)."""
        if dice is None:
            dice = Dice(seed) if seed is not None else SecretDice()
        self.dice = dice
        self.state: Any = self.ruleset.initial_state(scenario)
        self.events: list[Event] = []
        self.actions: list[TakenAction] = []
        self._sealed: dict[str, Action] = {}
        """The choices made so far in the sealed round now asked (the last actions)."""
        self._held: dict[str, int] = {}
        """Held choices not yet opened: side -> index of its sealed choice in ``actions``."""
        self._decision: Decision | None = None
        res = Resolution(self.dice)
        self._advance(res)
        self.events.extend(res.events)

    @classmethod
    def start(cls, scenario: str | Scenario, seed: int | None = 0) -> Game:
        """Start a game of a built-in scenario id, a file path, or a Scenario."""
        if isinstance(scenario, str):
            scenario = load_scenario(scenario)
        return cls(scenario, seed)

    # -- what is asked now ---------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        """What the game waits for; ``None`` once it is over."""
        return self._decision

    @property
    def is_over(self) -> bool:
        return self._decision is None

    @property
    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self.state)

    @property
    def turn(self) -> int:
        return self.ruleset.turn(self.state)

    def waiting_for(self) -> tuple[str, ...]:
        """The sides whose choice the game still needs (sealed choices made excluded)."""
        decision = self._decision
        if decision is None:
            return ()
        if not self._sealed:  # the common case, kept cheap: it is asked at every action
            return decision.sides
        return tuple(s for s in decision.sides if s not in self._sealed)

    def legal_actions(self, side: str | None = None) -> Sequence[Action]:
        """Legal actions of ``side`` (default: the one side asked now)."""
        side = self._side_or_default(side)
        if side is None or side not in self.waiting_for():
            return []
        return self.ruleset.legal_actions_holding(self.state, side, self._held_actions().get(side))

    def sample_action(self, draw: Callable[[], float], side: str | None = None) -> Action | None:
        """One of :meth:`legal_actions` drawn uniformly with ``draw`` (the bot's own
        stream), built only as far as the draw needs (:mod:`warbench.core.sampling`);
        None if the side has none."""
        side = self._side_or_default(side)
        if side is None or side not in self.waiting_for():
            return None
        held = self._held_actions().get(side)
        return self.ruleset.sample_action(self.state, side, held, draw)

    def view(self, side: str | None = None) -> dict[str, Any]:
        """What ``side`` may see (``None``: a spectator), JSON-ready.

        Sealed choices not yet revealed appear only in their own side's view:
        ``my_sealed_choice`` is the side's choice in the round now asked, or
        else the choice it holds; ``my_held_choice`` is the choice it holds (a
        side may hold one and choose in a later round before it is opened).
        """
        data = self.ruleset.view(self.state, side)
        data["decision"] = None
        if self._decision is not None:
            data["decision"] = {
                "kind": self._decision.kind.value,
                "sides": list(self._decision.sides),
                "waiting_for": list(self.waiting_for()),
                "prompt": self._decision.prompt,
            }
            if self._decision.hold:
                data["decision"]["hold"] = True
        if side is not None and side in self._held:
            held = str(self.actions[self._held[side]].action)
            data["my_sealed_choice"] = data["my_held_choice"] = held
        if side is not None and side in self._sealed:
            data["my_sealed_choice"] = str(self._sealed[side])
        return data

    def seat(self, side: str) -> Seat:
        """What ``side`` may use of this game (what bots are given): see :class:`Seat`."""
        return Seat(self, side)

    # -- acting --------------------------------------------------------------
    def parse(self, text: str) -> Action:
        """Parse the text form of an action of this ruleset."""
        return self.ruleset.parse_action(self.state, text.strip())

    def apply(self, action: Action | str, side: str | None = None) -> list[Event]:
        """Carry out one action; returns the events it caused.

        Raises :class:`IllegalAction` (or a subclass) with the reason if the
        action is not legal now; the game is then exactly as it was.
        """
        if isinstance(action, str):
            action = self.parse(action)
        side = self._side_or_default(side)
        decision = self._decision
        if decision is None:
            raise IllegalAction(action, "the game is over")
        if side is None:
            raise NotYourDecision(
                action, f"say which side acts: one of {', '.join(decision.sides)}"
            )
        if side not in self.waiting_for():
            asked = ", ".join(self.waiting_for()) or "nobody"
            raise NotYourDecision(
                action, f"{excerpt(side)} is not asked to decide now ({asked} is)"
            )
        res = Resolution(self.dice, self._held_actions())
        rolled_before = self.dice.rolled
        sealed = decision.kind is DecisionKind.SEALED
        hold = sealed and decision.hold
        nonce = secrets.token_hex(16) if sealed else ""
        if sealed:
            self.ruleset.check_sealed(self.state, side, action)
            self._sealed[side] = action
            if self.waiting_for():
                self.actions.append(TakenAction(side, action, False, sealed=True, nonce=nonce))
                return []
        # The round's other choices are the last actions; this one comes at ``here``.
        here = len(self.actions)
        earlier = range(here - len(self._sealed) + 1, here) if sealed else range(0)
        round_at = {self.actions[i].side: i for i in earlier} | {side: here}
        try:
            if sealed:
                choices = {s: self._sealed[s] for s in decision.sides}
                self._sealed = {}
                if hold:
                    self.ruleset.hold_sealed(self.state, tuple(decision.sides), res)
                else:
                    self.ruleset.apply_sealed(self.state, choices, res)
            else:
                self.ruleset.apply(self.state, side, action, res)
            self._advance(res)
            if hold:
                twice = [s for s in decision.sides if s in self._held and s not in res.opened]
                if twice:
                    raise RuntimeError(
                        f"a held round completed while {twice[0]} still holds a choice not "
                        "opened (a ruleset bug: a side holds one choice at a time)"
                    )
        except IllegalAction:
            changed = res.events or res.opened or self.dice.rolled != rolled_before
            if decision.kind is DecisionKind.SEALED or changed:
                self._rebuild()  # a ruleset bug: it changed things before refusing
            raise
        except Exception:
            self._rebuild()  # whatever broke, the game is as it was before this action
            raise
        for opened in res.opened:  # shown to everyone now: in clear from here on
            index = self._held.pop(opened)
            self.actions[index] = replace(self.actions[index], revealed=True)
        self.actions.append(
            TakenAction(
                side,
                action,
                self.dice.rolled != rolled_before,
                revealed=(sealed and not hold) or res.revealed or bool(res.opened),
                sealed=sealed,
                nonce=nonce,
                stands=res.standing,
            )
        )
        if hold:
            self._held.update({s: round_at[s] for s in decision.sides})
        self.events.extend(res.events)
        return res.events

    def refusal(self, action: Action, side: str | None = None) -> str | None:
        """Why ``action`` by ``side`` would be refused now, or None if it would be taken.

        Tried on a copy of the state and dice: the game itself does not change,
        and a held choice the rules open while trying stays held. For rulesets
        whose legal-action list is not exhaustive (open tables), this is how to
        ask about an action the list does not show.
        """
        side = self._side_or_default(side)
        decision = self._decision
        if decision is None:
            return "the game is over"
        if side is None or side not in self.waiting_for():
            return f"{excerpt(side)} is not asked to decide now"
        state = self.ruleset.copy_state(self.state)
        try:
            if decision.kind is DecisionKind.SEALED:
                self.ruleset.check_sealed(state, side, action)
            else:
                trial = Resolution(copy.deepcopy(self.dice), self._held_actions())
                self.ruleset.apply(state, side, action, trial)
        except IllegalAction as exc:
            return exc.reason
        return None

    def pending_sealed(self) -> dict[str, TakenAction]:
        """The sealed choices not yet revealed, by side: the round's and held ones.

        Each is secret from every other side: only its own side may see it
        (``view``) or withdraw it (``undo``; a held choice only while nothing
        followed it). A side that holds a choice and has also chosen in the
        round now asked has two: this gives the round's, :meth:`unrevealed`
        and :meth:`held_choices` give both.
        """
        pending = self.held_choices()
        pending.update({self.actions[i].side: self.actions[i] for i in self._round_indices()})
        return pending

    def held_choices(self) -> dict[str, TakenAction]:
        """The choices held from rounds with ``Decision.hold`` and not yet opened, by side."""
        return {side: self.actions[index] for side, index in self._held.items()}

    def unrevealed(self) -> dict[int, TakenAction]:
        """Every sealed choice not yet revealed (held or in the round now asked), by
        its index in :attr:`actions`, in order: what a record must keep secret."""
        at = sorted({*self._held.values(), *self._round_indices()})
        return {index: self.actions[index] for index in at}

    def undo(self, side: str) -> TakenAction:
        """Take back ``side``'s own last action, or withdraw its pending sealed choice.

        Refused for another side's action, for one the rules call irrevocable
        (:meth:`Resolution.stands`), once any die was rolled in resolving
        it, and for an action that revealed something (the last sealed choice of
        a round, which revealed every other one, or an action whose resolution
        opened a held choice): knowing what it showed, the side could otherwise
        choose again. A sealed choice still pending in the round now asked may
        be withdrawn by its own side at any time, and by nobody else. A held
        choice may be taken back only while it is the very last action: once
        anything followed it, the other sides acted knowing it was made.
        """
        for index in self._round_indices():
            if self.actions[index].side == side:
                del self._sealed[side]
                return self.actions.pop(index)
        if not self.actions:
            raise UndoError("nothing to undo")
        last = self.actions[-1]
        if last.side != side:
            if side in self._held:
                raise UndoError(
                    f"{side}'s sealed choice is held for a later reveal and the game went on "
                    "after it; it stands"
                )
            raise UndoError(f"the last action was {last.side}'s; only {last.side} may take it back")
        if last.stands:
            raise UndoError(f"{last.stands}; it stands")
        if last.revealed:
            raise UndoError("that action revealed hidden information; it stands")
        if last.rolled:
            raise UndoError("dice were rolled since that action; it stands")
        history = self.actions[:-1]
        self._replay(history)
        return last

    # -- records -------------------------------------------------------------
    def digest(self) -> str:
        """SHA-256 of the state's canonical JSON."""
        return state_digest(self.ruleset.state_json(self.state))

    def record(self, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The game as a record (JSON-ready): scenario, seed, actions, digest, checksum.

        ``extra`` adds optional fields a command keeps (``players``, ``bots``).
        """
        return make_record(self, extra)

    # -- internals -----------------------------------------------------------
    def _side_or_default(self, side: str | None) -> str | None:
        if side is not None:
            return side
        waiting = self.waiting_for()
        return waiting[0] if len(waiting) == 1 else None

    def _round_indices(self) -> range:
        """Where the choices made so far in the sealed round now asked are: the last
        actions (nothing else is taken while a round is open)."""
        return range(len(self.actions) - len(self._sealed), len(self.actions))

    def _held_actions(self) -> dict[str, Action]:
        return {side: self.actions[index].action for side, index in self._held.items()}

    def _advance(self, res: Resolution) -> None:
        for _ in range(MAX_AUTO_STEPS):
            decision = self.ruleset.decision(self.state)
            if decision is None or decision.kind is not DecisionKind.AUTO:
                self._decision = decision
                return
            self.ruleset.proceed(self.state, res)
        raise RuntimeError("the ruleset proceeded automatically for too long")

    def _replay(self, history: Sequence[TakenAction]) -> None:
        """Rebuild this game from its seed (or dice script) and ``history``."""
        fresh = Game(self.scenario, self.seed, _fresh_dice(self.dice))
        for taken in history:
            fresh.apply(taken.action, taken.side)
            if taken.sealed:  # keep the salt, so the record's sealed entries stay the same
                fresh.actions[-1] = replace(fresh.actions[-1], nonce=taken.nonce)
        self.__dict__.update(fresh.__dict__)

    def _rebuild(self) -> None:
        self._replay(list(self.actions))


def _fresh_dice(dice: Dice) -> Dice | None:
    """Dice that replay the same rolls from the start (None: seeded dice from the seed)."""
    return dice.fresh() if isinstance(dice, ScriptedDice | SecretDice) else None


def state_digest(state: Mapping[str, Any]) -> str:
    """SHA-256 hex digest of canonical JSON (sorted keys, no spaces)."""
    blob = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(blob.encode("ascii")).hexdigest()
