"""What an action leaves in a game's history, and what rules code resolves it with.

:class:`TakenAction` is one entry of ``Game.actions``; :class:`Resolution` is what
``Ruleset.apply`` rolls dice and logs events through. Both live below the game and
the ruleset, which both use them (``warbench.core.game`` names them too).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warbench.core.actions import Action
from warbench.core.dice import Dice
from warbench.core.events import Event


@dataclass(frozen=True, slots=True)
class TakenAction:
    """An action in the game's history: who took it, and what it was."""

    side: str
    action: Action
    rolled: bool
    """Whether resolving it (or the automatic steps after it) rolled any die."""
    revealed: bool = False
    """Whether it showed its side something hidden before (it completed a sealed
    round, or the rules said so): such an action can never be taken back."""
    sealed: bool = False
    """A sealed choice: secret from the other sides until its round is revealed."""
    nonce: str = ""
    """For a sealed choice, a random salt: the shared record carries only a
    salted hash of a choice not yet revealed (see :mod:`warbench.core.record`)."""
    stands: str = ""
    """Why the rules call this action irrevocable (``Resolution.stands``), or empty: a
    marker set down by hand, a written guess; such an action is never taken back."""


class Resolution:
    """What rules code uses while resolving: roll dice, log events, open held choices.

    Events are buffered and only reach the game when the action succeeds; so
    does the opening of held choices (:meth:`open_held`).
    """

    __slots__ = ("_dice", "_held", "events", "opened", "revealed", "rolls", "standing")

    def __init__(self, dice: Dice, held: Mapping[str, Action] | None = None) -> None:
        self._dice = dice
        self._held = dict(held or {})
        self.events: list[Event] = []
        self.rolls = 0
        self.revealed = False
        self.standing = ""
        self.opened: list[str] = []
        """The sides whose held choices this resolution read, in the order it read them."""

    def reveal(self) -> None:
        """Say that this action shows the acting side something hidden until now.

        The engine then never lets the action be taken back (an undo would let
        the side choose again knowing what it saw). Completing a sealed round
        counts as a reveal without being told, and so does opening a held choice.
        """
        self.revealed = True

    def stands(self, why: str) -> None:
        """Say that the rules make this action irrevocable, and why (a barrage marker set
        down by hand is never moved again; a written range guess is never rewritten): the
        engine never lets anyone take it back, and the refusal says ``why``."""
        self.standing = why

    def open_held(self, side: str) -> Action | None:
        """The choice ``side`` holds from a round with ``Decision.hold``, or None.

        Reading it reveals it: once the action being resolved succeeds, the
        engine shows the choice in clear from then on (in the record too) and
        no longer holds it, and the action can never be taken back. If the
        action fails, nothing was opened. As with dice, check everything that
        may refuse the action *before* opening: a refusal must never depend on
        a secret (its text would tell it).
        """
        action = self._held.get(side)
        if action is not None and side not in self.opened:
            self.opened.append(side)
        return action

    def own_held(self, side: str) -> Action | None:
        """The choice ``side`` holds, read without opening it: only for checking an action
        of ``side`` itself against its own secret (MGV: a declaration must fire at the
        target its sealed range guess names). The refusal may tell the acting side its own
        choice and nothing else; never call this for another side."""
        return self._held.get(side)

    def roll(
        self,
        purpose: str,
        n: int = 1,
        side: str | None = None,
        sides: int = 6,
        total: bool = True,
    ) -> tuple[int, ...]:
        """Roll ``n`` dice of ``sides`` faces for ``purpose``, logged as a ``roll`` event.

        ``total``: the event shows the dice's sum; False where the sum plays no part
        (dice that each score or not), so the text never suggests one does.
        """
        dice = self._dice.roll(n, sides)
        self.rolls += n
        who = f"{side} rolls" if side else "rolled"
        shown = ", ".join(map(str, dice)) if not total else "+".join(map(str, dice))
        if n > 1 and total:
            shown = f"{shown} = {sum(dice)}"
        self.events.append(
            Event(
                "roll",
                f"{who} {shown} ({purpose})",
                {"purpose": purpose, "dice": dice, "side": side},
            )
        )
        return dice

    def emit(self, kind: str, text: str, **data: Any) -> None:
        """Log one event."""
        self.events.append(Event(kind, text, data))
