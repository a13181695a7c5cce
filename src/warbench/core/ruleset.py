"""The Ruleset interface: metadata plus the few methods the engine and bots call.

A ruleset owns its state type ``S`` (a mutable object the engine never looks
inside), its actions, its data and its rules. The engine (:class:`~warbench.
core.game.Game`) drives it; interfaces and bots only ever talk to the engine
and to the ruleset's pure functions (views, odds, evaluation).

Contract for :meth:`Ruleset.apply`: check everything first and raise
:class:`~warbench.errors.IllegalAction` *before* changing the state or rolling
a die. The engine double-checks: an illegal action that rolled dice or left
events behind is treated as a bug and the state is rebuilt from the record.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from warbench.core.actions import Action
from warbench.core.decisions import Decision
from warbench.core.odds import OddsQuery, OddsResult
from warbench.core.outcome import Outcome
from warbench.core.sampling import Group, sample_uniform
from warbench.errors import QuestionRefused

if TYPE_CHECKING:
    from warbench.core.events import Event
    from warbench.core.playout import Playout
    from warbench.core.resolution import Resolution
    from warbench.scenario.model import Scenario

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class RulesetInfo:
    """What bots and tools need to know about a rule system up front."""

    name: str
    title: str
    version: str
    """Changes only when behaviour changes; records name it."""
    geometry: Literal["hex", "table"]
    aliases: tuple[str, ...] = ()
    min_sides: int = 2
    max_sides: int | None = 2
    hidden_information: bool = False
    simultaneous_choices: bool = False
    side_states: bool = False
    """Whether, despite hidden information, the ruleset can give each side a state
    holding only what that side may know (``Ruleset.side_state``), so that bots
    which read a state (greedy) may play it."""
    exhaustive_actions: bool = True
    """Whether ``legal_actions`` lists every legal action. On an open table it
    cannot (a move may end at any point): there it lists candidates for bots,
    and ``parse_action`` plus ``apply`` accept any legal concrete action."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One unit, figure or base as a balance run counts it (``Ruleset.pieces``)."""

    id: str
    side: str
    kind: str
    """Its type, as the scenario names it (what per-type statistics group by)."""
    cost: float
    """Its points (MiniWars cost, CGME value, VSGMR, MGV and Invisible Enemy points)."""
    alive: bool
    """Still the side's: on the table, or safely off it by an objective's edge."""


@dataclass(frozen=True, slots=True)
class UnitKind:
    """A unit type a calibration may field in any slot of a side (``Ruleset.unit_kinds``)."""

    key: str
    """As a scenario file names it (a MiniWars ``type``, a VSGMR ``profile``, a ``model``)."""
    name: str
    """As :attr:`Piece.kind` names it (what reports show)."""
    cost: float
    """Its printed points (or the stand-in's)."""


KILLER = "credit"
"""The event data key naming who is credited with a piece's removal (a ``removed``,
``destroyed`` or ``defeated`` event: the attacker, or None for terrain, hazards and
blasts); balance runs count kills and value destroyed per type by it."""
REMOVALS = frozenset({"removed", "destroyed", "defeated"})
"""The kinds of event that take a piece out of the game (its id under ``unit``, ``base``
or ``figure``); a ruleset may add its own (:attr:`Ruleset.removal_kinds`)."""
CAUSE = "cause"
"""The event data key saying how a removal came about, in one of the ruleset's own
words (:attr:`Ruleset.kill_causes`: a weapon, an attack kind, a hazard, ...). Removal
events are public, so the word never tells anything hidden; balance runs count the
removals by it."""


class Ruleset(ABC, Generic[S]):
    """A registered rule system. Subclasses set ``info`` and implement the hooks."""

    info: ClassVar[RulesetInfo]

    # -- scenarios -----------------------------------------------------------
    @abstractmethod
    def build_scenario(self, raw: Mapping[str, Any], source: str, scenario_id: str) -> Scenario:
        """Validate a parsed scenario file; raise ScenarioError naming the field."""

    # -- the game ------------------------------------------------------------
    @abstractmethod
    def initial_state(self, scenario: Scenario) -> S:
        """A fresh state for the scenario (no dice rolled yet)."""

    @abstractmethod
    def decision(self, state: S) -> Decision | None:
        """What the game waits for now; ``None`` once the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, side: str) -> Sequence[Action]:
        """Every legal action of ``side`` now (empty if it is not asked)."""

    @abstractmethod
    def parse_action(self, state: S, text: str) -> Action:
        """Turn the text form back into an action (ActionSyntaxError if it fails)."""

    @abstractmethod
    def apply(self, state: S, side: str, action: Action, res: Resolution) -> None:
        """Check then carry out one action of ``side``; see the module contract."""

    def legal_actions_holding(self, state: S, side: str, held: Action | None) -> Sequence[Action]:
        """The legal actions of ``side``, which holds ``held`` (its own sealed choice from
        an earlier round, :meth:`Resolution.own_held`; None: none, or unknown to the
        caller). Where a held choice binds later actions (MGV: a photon shot fires at the
        target its written guess names) the list keeps to it. The default ignores it."""
        return self.legal_actions(state, side)

    def action_groups(
        self, state: S, side: str, held: Action | None
    ) -> Sequence[Group[Action]] | None:
        """:meth:`legal_actions_holding` in parts, for a bot that needs one action drawn
        at random (:mod:`warbench.core.sampling`): each an upper bound on its size and
        its actions, built lazily where that saves work; the parts' actions in order
        are exactly the legal list. None (the default): no parts, the list is built."""
        return None

    def sample_action(
        self, state: S, side: str, held: Action | None, draw: Callable[[], float]
    ) -> Action | None:
        """One of :meth:`legal_actions_holding` drawn uniformly with ``draw`` (floats in
        [0, 1) from the bot's own stream), or None if there is none. Without
        :meth:`action_groups` one draw picks an index of the whole list."""
        groups = self.action_groups(state, side, held)
        if groups is None:
            actions = self.legal_actions_holding(state, side, held)
            return actions[int(draw() * len(actions))] if actions else None
        return sample_uniform(groups, draw)

    def told_action(self, state: S, side: str, action: Action, viewer: str | None) -> str:
        """How ``side``'s ``action``, just taken (``state`` is after it), is told to
        ``viewer`` (None: a spectator). Its text, unless the rules let the viewer see it
        only roughly (MGV and Invisible Enemy: another side's move, by eye)."""
        return str(action)

    def proceed(self, state: S, res: Resolution) -> None:
        """Carry the game on through an AUTO decision (roll initiative, say)."""
        raise NotImplementedError(f"{self.info.name} has no automatic steps")

    def apply_sealed(self, state: S, choices: Mapping[str, Action], res: Resolution) -> None:
        """Reveal and resolve the sealed choices of several sides together."""
        raise NotImplementedError(f"{self.info.name} has no sealed decisions")

    def hold_sealed(self, state: S, sides: tuple[str, ...], res: Resolution) -> None:
        """Carry the game on after a round that holds its choices (``Decision.hold``).

        Only *which* sides chose is told, never what: the engine keeps the
        choices out of the state (so out of the digest, the views and the
        shared record) until rules code reads one with ``res.open_held(side)``
        in a later ``apply``, ``apply_sealed`` or ``proceed``. A side may hold
        one choice at a time: a hold round completing while one of its sides
        still holds an unopened choice is a ruleset bug (RuntimeError).
        """
        raise NotImplementedError(f"{self.info.name} has no held sealed decisions")

    def check_sealed(self, state: S, side: str, action: Action) -> None:
        """Raise IllegalAction if ``action`` is not a legal sealed choice of ``side``."""
        if action not in self.legal_actions(state, side):
            from warbench.errors import IllegalAction

            raise IllegalAction(action, "not one of the choices offered")

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abstractmethod
    def turn(self, state: S) -> int:
        """The current game turn (1-based)."""

    # -- reading the state ---------------------------------------------------
    @abstractmethod
    def view(self, state: S, side: str | None) -> dict[str, Any]:
        """What ``side`` may see, as JSON-ready data (``None``: a spectator)."""

    @abstractmethod
    def state_json(self, state: S) -> dict[str, Any]:
        """The whole state as canonical JSON-ready data; its hash is the digest."""

    def annotations(
        self, state: S, events: Sequence[Event], side: str | None
    ) -> list[dict[str, Any]]:
        """Drawing marks for ``events`` (those of the last action), as ``side`` may see them.

        The state is the one after the action. Marks are generic shapes in hex
        labels or table inches, drawn over the picture by the renderers:
        ``{"kind": "path", "points": [...], "side": ...}`` (movement made),
        ``{"kind": "sight", "from": ..., "to": ..., "clear": bool}`` (line of
        sight of a shot), ``{"kind": "arc", "at": [x, y], "facing": degrees,
        "half_angle": degrees, "range": ...}``, each with an optional ``label``.
        The full contract is in the docstring of :mod:`warbench.render.svg`.
        The default draws nothing.
        """
        return []

    def playout(
        self, scenario: Scenario, seed: int, bots: Mapping[str, str], bot_seeds: Mapping[str, int]
    ) -> Playout | None:
        """Play a whole game of named bots at once, or None to let the engine play it.

        ``bots`` maps every side to a bot name and ``bot_seeds`` to its seed.
        A ruleset that answers must return the very game the engine would play
        with these seeds (see :mod:`warbench.core.playout`). The default: None.
        """
        return None

    def play_from(
        self,
        state: S,
        dice: random.Random,
        bots: Mapping[str, str],
        streams: Mapping[str, random.Random],
    ) -> Playout | None:
        """Play on from ``state`` to the end of the game with named bots, at once, or None
        to let the engine play it (the default).

        ``state`` is read, never changed, and must wait on no sealed choice made in
        part; ``dice`` is the generator the game's dice draw from
        (:attr:`~warbench.core.dice.Dice.generator`) and ``streams`` each side's bot
        stream (a :class:`~warbench.bots.base.SeededBot`'s), all drawn from where
        they stand. A ruleset that answers must play the very game the engine would
        play on from a copy of ``state`` with those generators: the same actions (only
        those from ``state`` on), outcome and turn. What a search bot's rollouts use.
        """
        return None

    def copy_state(self, state: S) -> S:
        """An independent copy of the state (for look-ahead bots)."""
        import copy

        return copy.deepcopy(state)

    def side_state(self, state: S, side: str) -> S | None:
        """The state as ``side`` may know it, or None if the ruleset cannot give one.

        What a seat hands a state-reading bot. Without hidden information that
        is the state itself. A ruleset with hidden information that sets
        ``RulesetInfo.side_states`` returns a copy with every secret of the
        other sides removed (its views are made from the same knowledge).
        """
        return None if self.info.hidden_information else state

    def sealed_strategy(self, state: S, side: str, rng: random.Random) -> Action | None:
        """A sealed choice drawn from a mixed strategy (an equilibrium), or None.

        For bots in a sealed simultaneous decision, where any fixed choice can
        be read and beaten: the ruleset solves the small game and draws from
        ``rng`` (the bot's own stream). ``state`` is the side's own
        (:meth:`side_state`). None: no strategy for this decision.
        """
        return None

    # -- helpers for bots and interfaces --------------------------------------
    def evaluate(self, state: S, side: str, actions: Sequence[Action]) -> list[float]:
        """One-ply scores of ``actions`` for ``side`` (higher is better).

        Scores are expected gains in the ruleset's own value unit (for MiniWars,
        unit cost), computed from the exact odds. The greedy bot picks the best.
        """
        raise NotImplementedError(f"{self.info.name} offers no evaluation")

    def plan(self, state: S, side: str, actions: Sequence[Action]) -> list[float]:
        """One-ply scores of ``actions`` for ``side`` that also play the scenario (the
        planner bot's): :meth:`evaluate`'s expected material, plus what the victory
        conditions ask (holding a place until the turn it wins, reaching an objective),
        the worth of holding back, and attacks valued with the friends that can join
        them on one target. The default: :meth:`evaluate`."""
        return self.evaluate(state, side, actions)

    def standing(self, state: S) -> Mapping[str, float] | None:
        """Each side's standing: the worth of what it still has on the board plus the
        points it has scored, in the value unit of :meth:`evaluate`'s scores (for
        MiniWars, unit cost), or None where the ruleset gives none.

        A search bot values a position it stopped short of the end by how the
        standings moved since its root (what the dice actually did), so a side's
        standing must fall by about what ``evaluate`` expects an attack on it to
        gain. ``state`` may be a side's own (:meth:`side_state`): only what it
        holds is read.
        """
        return None

    def scores(self, state: S) -> Mapping[str, float] | None:
        """Each side's score now, as the scenario's victory conditions count it (points
        of enemy destroyed, plus any the scenario gives), known to every side; the same
        figures :attr:`Outcome.scores` gives at the end. None where there is no score."""
        return None

    removal_kinds: ClassVar[frozenset[str]] = REMOVALS
    """The kinds of event that take a piece out of its side's hands for good (the
    first one a piece meets counts: a balance run's kills and their causes)."""
    kill_causes: ClassVar[tuple[str, ...]] = ()
    """Every word a removal event of this ruleset may give under :data:`CAUSE`."""

    def tallies(self, scenario: Scenario, events: Sequence[Event]) -> dict[str, float]:
        """Named counts of one finished game, read from all its ``events``, that a balance
        run averages over its games (MGV: hits that found no circle; Invisible Enemy:
        turns a side had no action points). Every game gives the same names. The
        default: none."""
        return {}

    def pieces(self, state: S) -> list[Piece] | None:
        """Every unit, figure or base of the scenario with its type, cost and whether it
        is still its side's (None where the ruleset gives none). A balance run reads it
        at the start and the end of a game, and credits removals by the events'
        :data:`KILLER` key."""
        return None

    # -- calibration (``warbench calibrate``) ----------------------------------------
    arena: ClassVar[str | None] = None
    """The built-in scenario a calibration plays by default: two sides with as many
    slots each, laid out so that either force may stand on either side."""

    def unit_kinds(self, scenario: Scenario, side: str) -> list[UnitKind] | None:
        """The unit types that may stand in any of ``side``'s slots of ``scenario``
        (None where the ruleset cannot recast its forces)."""
        return None

    def recast(self, scenario: Scenario, changes: Mapping[str, str | None]) -> Scenario:
        """``scenario`` with each piece named in ``changes`` turned into the unit type of
        that key (a :attr:`UnitKind.key`), or taken out where the key is None; validated
        as a scenario file is (a ``ScenarioError`` when the result is not a scenario)."""
        raise NotImplementedError(f"{self.info.name} cannot recast its forces")

    def initiative(self, state: S) -> str | None:
        """The side that won this turn's initiative (or otherwise goes first this turn),
        None before it is settled or where the ruleset has no such thing (a fixed order).
        Balance runs read it once per game to weigh the first player's advantage."""
        return None

    def odds_queries(self) -> Mapping[str, OddsQuery]:
        """The attacks whose exact odds can be asked, by name."""
        return {}

    def action_odds(self, state: S, side: str, action: Action) -> str | None:
        """A short explanation of the odds of ``action`` now, or None if it rolls nothing."""
        return None

    def odds_result(self, state: S, side: str, action: Action) -> OddsResult | None:
        """The odds of ``action`` now as data (exact fractions), or None if it rolls nothing.

        The same figures :meth:`action_odds` explains in words, for programs (bots
        read them through ``Seat.odds``). ``state`` is as in :meth:`action_reason`.
        """
        return None

    # -- telling a person what the game is and asks --------------------------
    def goal(self, scenario: Scenario) -> list[str]:
        """What the scenario asks of the players: its description, then each victory
        condition in words, one line each (``goal`` at the prompt, ``play``'s start,
        ``validate`` and ``scenarios``). The default: the description alone."""
        text = scenario.raw.get("description")
        return [" ".join(str(text).split())] if text else []

    def rules_in_force(self, scenario: Scenario) -> list[str]:
        """The scenario's options and the ruleset's rulings in force, one line each
        (``rules`` at the prompt). The default lists the options as set."""
        return [f"option {name} = {value}" for name, value in sorted(scenario.options.items())]

    def scenario_options(self, scenario: Scenario) -> list[dict[str, Any]]:
        """The options a scenario may set, as players choose them before a game: each
        ``{"key", "value", "default", "choices": {value: meaning}, "open", "source"}``
        (values as a scenario file writes them; ``open``: other values may be written).
        :func:`warbench.core.loader.with_options` sets them. The default: none."""
        return []

    def unit_info(self, view: Mapping[str, Any], ref: str) -> list[str]:
        """Everything ``view``'s side may know about the unit, figure, hex or point
        ``ref`` (type and ratings, status, position), one line each.

        Built from the view alone, so it can never show what the side may not see.
        Raises :class:`~warbench.errors.QuestionRefused` when ``ref`` names nothing
        there, saying what may be named.
        """
        raise QuestionRefused(f"{self.info.title} gives no unit information")

    def fire_arcs(self, state: S, side: str, piece: str) -> list[dict[str, Any]]:
        """The arcs of fire of ``side``'s own ``piece`` as picture marks (``{"kind":
        "arc", "at", "facing", "half_angle", "range"}``), for a board to show on demand;
        none for another side's piece (its weapons may be secret) or where the ruleset
        has no arcs. ``state`` may be the side's own."""
        return []

    def choice_form(self, state: S, side: str) -> dict[str, Any] | None:
        """A form for a person to write ``side``'s action now, where the legal actions
        are only a sample of a large choice (a sealed split of dice, the weapon of every
        mount), or None. Plain data a page draws without knowing the rules::

            {"title": "...", "template": "split 1={a1s}/{a1c}/{a1h}",
             "fields": [{"key": "a1s", "label": "surface", "group": "attack 1: 6 dice",
                         "kind": "number" | "choice" | "text", "value": 2,
                         "min": 0, "max": 6, "step": 1, "options": [...]}, ...]}

        The page fills each ``{key}`` of the template with its field's value and the
        rules judge the text as any typed action. ``state`` may be the side's own; the
        form holds nothing the side may not know (it is sent to that seat only)."""
        return None

    def action_cost(self, state: S, side: str, action: Action) -> str | None:
        """What ``action`` spends, for a board to show beside it before it is taken (a
        move's movement points: ``2 of 3 MP``), or None. ``state`` may be the side's own."""
        return None

    def action_reason(self, state: S, side: str, action: Action) -> str | None:
        """Why ``action`` is worth a look (``charge B5``, ``to cover``, ``to relic``),
        shown beside each candidate by ``list``; None when there is nothing to say.

        ``state`` is the side's own (:meth:`side_state`) where the ruleset gives one,
        else the whole state, from which only what ``side`` may know is to be read.
        """
        return None

    def plans_against(self, state: S, side: str, piece: str, target: str) -> list[dict[str, Any]]:
        """Ways for ``side``'s own ``piece`` to act on ``target``, for a board where a person
        clicked the one, then the other: ``{"label": "hold G1 here, then attack W1",
        "steps": ["move G1 0807", "attack G1 W1"]}``, each step an action text, taken in
        turn (only the first need be legal now). The interface asks the rules whether each
        first step is refused and why. The default: none."""
        return []

    def move_reach(self, state: S, side: str, piece: str) -> dict[str, Any] | None:
        """How far ``side``'s own ``piece`` may still move now, as a picture mark
        (``{"kind": "reach", "at": [x, y], "range": inches, "label": ...}``) for a board
        to ring it with; None for a piece that cannot move now, another side's piece, a
        hex map, or while the rules forbid measuring. ``state`` may be the side's own."""
        return None

    def measure(self, state: S, side: str, first: str, second: str) -> str:
        """The distance and line of sight between two things named at the prompt
        (figures, features, points), where the rules let a player measure.

        Raises :class:`~warbench.errors.QuestionRefused` saying why not, where they do
        not. ``state`` is as in :meth:`action_reason`.
        """
        raise QuestionRefused(f"{self.info.title} has no measuring on its board")
