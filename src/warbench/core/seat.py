"""A seat: what one side may use of a game, and nothing more. Bots get one.

A bot (or any program acting for a side) must decide from what its side may
know. A :class:`Seat` exposes the game's public API narrowed to one side: its
view, its legal actions, parsing, refusals and odds for its own actions, the
public events, the decision and the outcome. It never shows another side's
pending sealed choice, and in a ruleset with hidden information it hands out
only the state as this side may know it (``Ruleset.side_state``), or none at
all (``state`` raises): such a ruleset's bots read ``view()``.

>>> from warbench.core.game import Game
>>> game = Game.start("miniwars/danville", seed=3)
>>> seat = game.seat("horde")
>>> list(seat.legal_actions()) == list(game.legal_actions("horde"))
True
>>> seat.view("danville")
Traceback (most recent call last):
...
warbench.errors.HiddenInformation: the horde seat may see only the horde view
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from warbench.core.actions import Action
from warbench.core.ruleset import Ruleset
from warbench.errors import HiddenInformation, WarbenchError, excerpt

if TYPE_CHECKING:
    from warbench.core.decisions import Decision
    from warbench.core.events import Event
    from warbench.core.odds import OddsResult
    from warbench.core.outcome import Outcome
    from warbench.core.ruleset import RulesetInfo
    from warbench.scenario.model import Scenario


class Seated(Protocol):
    """What a seat reads of its game: a :class:`~warbench.core.game.Game` (named by what
    it offers, so that this module stays below the game, which hands out seats)."""

    @property
    def scenario(self) -> Scenario: ...
    @property
    def ruleset(self) -> Ruleset[Any]: ...
    @property
    def state(self) -> Any: ...
    @property
    def events(self) -> list[Event]: ...
    @property
    def decision(self) -> Decision | None: ...
    @property
    def turn(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def outcome(self) -> Outcome | None: ...
    def waiting_for(self) -> tuple[str, ...]: ...
    def view(self, side: str | None = None) -> dict[str, Any]: ...
    def legal_actions(self, side: str | None = None) -> Sequence[Action]: ...
    def sample_action(
        self, draw: Callable[[], float], side: str | None = None
    ) -> Action | None: ...
    def parse(self, text: str) -> Action: ...
    def refusal(self, action: Action, side: str | None = None) -> str | None: ...


class Seat:
    """One side's window on a game. The ``side`` arguments exist so that a seat
    reads like a :class:`~warbench.core.game.Game`; any side but its own is refused."""

    __slots__ = ("_game", "side")

    def __init__(self, game: Seated, side: str) -> None:
        if side not in game.scenario.sides:
            raise HiddenInformation(f"no side '{excerpt(side)}' in this game")
        self._game = game
        self.side = side

    def _own(self, side: str | None) -> str:
        if side is not None and side != self.side:
            raise HiddenInformation(f"the {self.side} seat may see only the {self.side} view")
        return self.side

    # -- what the game is and asks ------------------------------------------------
    @property
    def ruleset(self) -> Ruleset[Any]:
        return self._game.ruleset

    @property
    def info(self) -> RulesetInfo:
        return self._game.ruleset.info

    @property
    def sides(self) -> tuple[str, ...]:
        return self._game.scenario.sides

    @property
    def decision(self) -> Decision | None:
        return self._game.decision

    def waiting_for(self) -> tuple[str, ...]:
        return self._game.waiting_for()

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def outcome(self) -> Outcome | None:
        return self._game.outcome

    @property
    def events(self) -> Sequence[Event]:
        """The events so far (every event is public: rules never narrate a secret)."""
        return tuple(self._game.events)

    @property
    def state(self) -> Any:
        """The state as this side may know it (greedy reads it): the whole state
        without hidden information, the ruleset's ``side_state`` with it."""
        known = self._game.ruleset.side_state(self._game.state, self.side)
        if known is None:
            raise HiddenInformation(
                f"{self.info.name} has hidden information: a seat reads view(), not the state"
            )
        return known

    # -- acting for this side -----------------------------------------------------
    def view(self, side: str | None = None) -> dict[str, Any]:
        return self._game.view(self._own(side))

    def legal_actions(self, side: str | None = None) -> Sequence[Action]:
        """The side's legal actions, as the ruleset gives them (maybe a lazy sequence)."""
        return self._game.legal_actions(self._own(side))

    def sample_action(self, draw: Callable[[], float], side: str | None = None) -> Action | None:
        """One of the side's legal actions drawn uniformly with ``draw`` (the bot's own
        stream), without building the whole list where the ruleset can avoid it."""
        return self._game.sample_action(draw, self._own(side))

    def parse(self, text: str) -> Action:
        return self._game.parse(text)

    def refusal(self, action: Action, side: str | None = None) -> str | None:
        return self._game.refusal(action, self._own(side))

    def action_odds(self, action: Action) -> str | None:
        """The ruleset's explanation of the odds of this side's ``action``."""
        return self._game.ruleset.action_odds(self._known(), self.side, action)

    def odds(self, action: Action) -> OddsResult | None:
        """The odds of this side's ``action`` as data: exact fractions per outcome
        (``OddsResult.outcomes``), or None if it rolls nothing."""
        return self._game.ruleset.odds_result(self._known(), self.side, action)

    def fire_arcs(self, piece: str) -> list[dict[str, Any]]:
        """The arcs of fire of one of this side's own pieces, as picture marks."""
        return self._game.ruleset.fire_arcs(self._known(), self.side, piece)

    def plans_against(self, piece: str, target: str) -> list[dict[str, Any]]:
        """Ways for one of this side's pieces to act on ``target``, each with whether its
        first step is refused now and why (``refusal``; :meth:`Ruleset.plans_against`)."""
        plans = self._game.ruleset.plans_against(self._known(), self.side, piece, target)
        out = []
        for plan in plans:
            try:
                refusal = self._game.refusal(self._game.parse(plan["steps"][0]), self.side)
            except WarbenchError as exc:
                refusal = str(exc)
            out.append({**plan, "refusal": refusal})
        return out

    def move_reach(self, piece: str) -> dict[str, Any] | None:
        """The ring of how far one of this side's own pieces may still move now, as a
        picture mark, or None (:meth:`Ruleset.move_reach`)."""
        return self._game.ruleset.move_reach(self._known(), self.side, piece)

    def choice_form(self) -> dict[str, Any] | None:
        """A form to write this side's action now (:meth:`Ruleset.choice_form`), or None
        when the side is not asked or the legal actions are the whole choice."""
        ruleset = self._game.ruleset
        if type(ruleset).choice_form is Ruleset.choice_form:
            return None  # no forms: spare building the side's own state for nothing
        if self.side not in self._game.waiting_for():
            return None
        return ruleset.choice_form(self._known(), self.side)

    def action_cost(self, action: Action) -> str | None:
        """What this side's ``action`` spends (a move's movement points), or None."""
        return self._game.ruleset.action_cost(self._known(), self.side, action)

    def action_reason(self, action: Action) -> str | None:
        """Why ``action`` is worth a look (``to cover``, ``charge B5``), or None."""
        return self._game.ruleset.action_reason(self._known(), self.side, action)

    def measure(self, first: str, second: str) -> str:
        """Distance and line of sight between two named things, where the rules allow."""
        return self._game.ruleset.measure(self._known(), self.side, first, second)

    def unit_info(self, ref: str) -> list[str]:
        """What this side may know of the unit, hex or point ``ref`` (from its view)."""
        return self._game.ruleset.unit_info(self.view(), ref)

    def _known(self) -> Any:
        """The state the ruleset's helpers read for this side: its own where the
        ruleset gives one, else the whole (those helpers then read only what the
        side may know)."""
        state = self._game.state
        known = self._game.ruleset.side_state(state, self.side)
        return state if known is None else known
