"""The terminal play loop: prompt people, let bots act, narrate, keep the record.

Only the core API is used (decisions, legal actions, apply, undo, views,
``ruleset.action_odds``), so any ruleset can be played. The record is written
(atomically) after every change, so a crash or ``quit`` loses nothing.
"""

from __future__ import annotations

import getpass
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from warbench.bots import bot_label
from warbench.cli.common import EXIT_INTERRUPTED, Reader, print_map, say
from warbench.core.decisions import DecisionKind
from warbench.core.saves import RecordFile, record_taken
from warbench.errors import IllegalAction, QuestionRefused, UndoError, excerpt
from warbench.geometry.table.text import ANGLE_CONVENTION
from warbench.render.text import side_styles

if TYPE_CHECKING:
    from warbench.bots import Bot
    from warbench.core.actions import Action
    from warbench.core.events import Event
    from warbench.core.game import Game

MAX_LINE = 10_000
"""A longer line at the prompt is refused unread (no action needs a tenth of it)."""
GROUP_ABOVE = 40
"""Longer lists of legal actions are shown grouped (``move G1: 4:0605 3:0606``)."""

HELP = """\
Commands:
  ACTION         take an action, e.g. one of those `list` shows
  list, ?        the legal actions, numbered, with why each is worth a look
                 (list WORD: only those with WORD)
  N              take action number N of the last list
  odds ACTION    the exact odds of ACTION before you commit (odds: every action with dice)
  info UNIT      what your side knows of a unit or figure (info HEX, info X,Y: of a place)
  goal           what the scenario asks: its story and how to win
  rules          the scenario's options and the rulings in force, one line each
  measure A B    distance and line of sight between two figures, features or points
                 (open tables, where the rules let a player measure)
  map            draw the map again (it is drawn at the start of each of your phases)
  undo           take back your last action, or withdraw your sealed choice
                 (not once dice were rolled or something hidden was revealed;
                 a held sealed choice only until the next action is taken)
  save FILE      write the record to FILE as well
  help           this help
  quit           stop; the record is saved, resume with --resume"""

SEALED_NOTE = "Your choice is sealed: the other side sees it only once every side has chosen."
HELD_NOTE = (
    "Your choice is sealed and held: it stays secret from the other side until it is "
    "resolved at the dice, even while the game goes on."
)
"""What the prompt of a sealed round says (``Decision.hold``: a held one)."""

Handler = Callable[[str, str], bool]
"""A prompt command: (side, the rest of the line) -> keep playing?"""


CLEAR_SCREEN = "\x1b[3J\x1b[H\x1b[2J"
"""Clears a terminal's screen and its scrollback (hot-seat: what one person saw)."""

RECENT_EVENTS = 12
"""Events shown on resuming, so a player sees where the game stood."""
REASONS_UP_TO = GROUP_ABOVE
"""Lists this long or shorter show each candidate's reason (``Ruleset.action_reason``)."""
YES = ("y", "yes")


class PlaySession:
    """One game in the terminal: whose turn, what to show, what to write.

    ``players`` maps each side to its bot, or None for a person at the keyboard.
    ``pause`` makes a game without people wait for Enter after each bot action.
    """

    def __init__(
        self,
        game: Game,
        players: Mapping[str, Bot | None],
        record_path: Path,
        console: Console,
        read: Reader,
        pause: bool,
        interactive: bool = False,
        specs: Mapping[str, str] | None = None,
    ) -> None:
        self.game = game
        self.players = dict(players)
        self.specs = dict(specs or {})
        """Who plays each side as named (a bot with its options), for the record."""
        self.record_path = record_path
        self.bots = tuple(side for side, bot in players.items() if bot is not None)
        """A bot's pending sealed choice is never written (it chooses again on resume):
        a file holding it would be readable by the person playing against it."""
        self.record_file = RecordFile(record_path, self.bots)
        self.console = console
        self.read = read
        self.pause = pause and all(bot is not None for bot in players.values())
        self.hot_seat = interactive and sum(bot is None for bot in players.values()) >= 2
        """Two or more people at one terminal: the screen is cleared and the keyboard
        handed over between them, and a sealed choice is typed without echo (at a
        terminal: piped input has no screen to hide anything from)."""
        self.at_keyboard: str | None = None
        """The side whose person has the keyboard now (hot-seat)."""
        self.interactive = interactive
        """A person at a terminal (not piped input): an ``end`` that skips actions is
        confirmed first."""
        self.styles = side_styles(game.scenario.sides)
        self.changes = 0
        """Counts changes to the game, to know when the map and lists are stale."""
        self.shown = -1
        self.mapped: dict[str, tuple[object, ...]] = {}
        """Each side's (turn, phase) when the map was last drawn for it: the map is drawn
        again at the start of the side's next phase, or on ``map``."""
        self.listed: tuple[int, dict[int, Action]] | None = None
        """The numbered actions last shown, and the change count they belong to."""
        self.handlers: dict[str, Handler] = {
            "list": self._list,
            "?": self._list,
            "odds": self._odds,
            "info": self._info,
            "goal": self._goal,
            "rules": self._rules,
            "measure": self._measure,
            "map": self._map,
            "undo": self._undo,
            "save": self._save_as,
            "help": self._help,
            "quit": self._quit,
            "exit": self._quit,
        }

    # -- the loop ------------------------------------------------------------------
    def run(self, resumed: bool = False) -> int:
        """Play until the game ends or a person quits; exit status 0 either way."""
        self._intro(resumed)
        self._save()
        try:
            while not self.game.is_over:
                side = self.game.waiting_for()[0]
                bot = self.players[side]
                keep = self._human_turn(side) if bot is None else self._bot_turn(side, bot)
                if not keep:
                    self._how_to_resume()
                    return 0
        except KeyboardInterrupt:
            self._say("\nInterrupted.")
            self._how_to_resume()
            return EXIT_INTERRUPTED
        self._finish()
        return 0

    def _how_to_resume(self) -> None:
        self._say(f"The record is saved in {self.record_path}; continue with:")
        self._say(f"  warbench play --resume {self.record_path}")

    def _intro(self, resumed: bool) -> None:
        game = self.game
        dice = f"seed {game.seed}" if game.seed is not None else "secret dice"
        say(self.console, f"{game.scenario.title} ({game.scenario.id}), {dice}", "bold")
        if game.seed is not None and any(bot is None for bot in self.players.values()):
            self._say(
                f"A practice game: seed {game.seed} tells every die before it is rolled "
                "(leave --seed out for dice nobody can foresee)."
            )
        who = ", ".join(
            f"{side}: {'human' if bot is None else bot_label(bot) + ' bot'}"
            for side, bot in self.players.items()
        )
        self._say(who)
        if not resumed:
            self._print_goal()
        self._say(f"Record: {self.record_path} (rewritten after every action)")
        if resumed:
            self._say(f"Resumed after {len(game.actions)} actions.")
            recent = game.events[-RECENT_EVENTS:]
            if recent:
                self._say(f"The last {len(recent)} events (all are public):")
                self._print_events(recent)
            self._say_secrets()
        else:
            self._print_events(game.events)
        if any(bot is None for bot in self.players.values()):
            self._say("Type help for commands, list for the legal actions, goal for the aim.")
            if game.ruleset.info.geometry == "table":
                self._say(
                    f"Points are x,y in inches from the bottom-left corner; {ANGLE_CONVENTION}."
                )
        else:
            self._show_map(None)

    def _say_secrets(self) -> None:
        """Which sides have sealed choices not yet revealed (public: the record tells it)."""
        held = {taken.side for taken in self.game.held_choices().values()}
        pending = [taken.side for taken in self.game.unrevealed().values()]
        labels = {
            (True, False): " (held until it is resolved)",
            (False, True): " (in the round now asked)",
            (True, True): " (one held until it is resolved, one in the round now asked)",
        }
        who = [
            side + labels[side in held, pending.count(side) > (side in held)]
            for side in self.game.scenario.sides
            if side in pending
        ]
        if who:
            self._say(f"Sealed choices not yet revealed: {', '.join(who)}.")

    def _bot_turn(self, side: str, bot: Bot) -> bool:
        """Let the bot act; in a game of bots only, wait for Enter unless told not to."""
        self._act(side, bot.choose(self.game.seat(side), side))
        if not self.pause or self.game.is_over:
            return True
        try:
            answer = self.read("Enter: next action, a: play on, m: map, q: quit > ")
        except EOFError:
            answer = "a"
        word = answer.strip().lower()
        if word in ("m", "map"):
            self._show_map(None)
        elif word in ("a", "auto"):
            self.pause = False
        return word not in ("q", "quit")

    def _human_turn(self, side: str) -> bool:
        """Read one line from the person playing ``side`` and do it; False to quit.

        The map is drawn at the start of each of the side's phases (and on ``map``);
        after an action only what changed is printed, then where the game stands."""
        if self.hot_seat and side != self.at_keyboard and not self._hand_over(side):
            return False
        if self.mapped.get(side) != self._phase_key(side):
            self._show_map(side)
            self._status(side)
        elif self.shown != self.changes:
            self._status(side)
        decision = self.game.decision
        hidden = self.hot_seat and decision is not None and decision.kind is DecisionKind.SEALED
        try:
            if hidden:  # the other person may be looking at the screen: no echo
                line = getpass.getpass(f"{side} (typed unseen: a sealed choice)> ").strip()
            else:
                line = self.read(f"{side}> ").strip()
        except EOFError:
            self._say("")
            return False
        except UnicodeDecodeError:
            self._error("that line was not readable text (not UTF-8); type it again")
            return True
        if not line:
            return True
        if len(line) > MAX_LINE:
            self._error(f"that line is {len(line)} characters long; at most {MAX_LINE} are read")
            return True
        word, _, rest = line.partition(" ")
        handler = self.handlers.get(word.lower())
        if handler is not None:
            return handler(side, rest.strip())
        if line.isascii() and line.isdigit():
            return self._pick(side, line)
        return self._try(side, line)

    def _hand_over(self, side: str) -> bool:
        """Hot-seat: clear the screen (and its scrollback) of what the last person saw,
        and wait until the keyboard is with ``side``'s person; False if they quit."""
        self.console.file.write(CLEAR_SCREEN)
        self.console.file.flush()
        try:
            self.read(f"Pass the keyboard to {side}, then press Enter > ")
        except EOFError:
            self._say("")
            return False
        self.console.file.write(CLEAR_SCREEN)
        self.console.file.flush()
        self.at_keyboard = side
        self.mapped.pop(side, None)  # the screen was cleared: draw the map again
        self.shown = -1
        return True

    # -- acting --------------------------------------------------------------------
    def _try(self, side: str, text: str) -> bool:
        """Parse and apply an action typed by a person; a refusal changes nothing."""
        try:
            action = self.game.parse(text)
            if self._confirmed(side, action):
                self._act(side, action)
        except IllegalAction as exc:
            self._error(str(exc))
        return True

    def _confirmed(self, side: str, action: Action) -> bool:
        """Whether to go on with ``action``: an ``end`` (any action that
        ``ends_step``, Invisible Enemy's ``done`` too) that would skip every other
        action left to the side is asked about first, at a terminal only (piped input
        and scripts are taken as meant)."""
        if not self.interactive or not action.ends_step:
            return True
        others = [a for a in self.game.legal_actions(side) if not a.ends_step]
        if not others:
            return True
        units = sorted({words[1] for a in others if len(words := str(a).split()) > 1})
        shown = ", ".join(units[:8]) + (", ..." if len(units) > 8 else "")
        try:
            answer = self.read(
                f"{action} skips {len(others)} more legal action(s) of {side}"
                + (f" ({shown})" if shown else "")
                + ". End anyway? [y/N] "
            )
        except EOFError:
            return False
        if answer.strip().lower() in YES:
            return True
        self._say("Not ended.")
        return False

    def _act(self, side: str, action: Action) -> None:
        """Apply ``action`` for ``side``, save the record and narrate what happened."""
        decision = self.game.decision
        sealed = decision is not None and decision.kind is DecisionKind.SEALED
        held = sealed and decision is not None and decision.hold
        events = self.game.apply(action, side)
        self._changed()
        number = f"{len(self.game.actions):>4}. "  # as replay and render --at N number them
        told = str(action) if self.players.get(side) is None else self._told(side, action)
        shown = number + (f"{side} makes a sealed choice" if sealed else f"{side}: {told}")
        if held:
            shown += ", held secret until it is resolved"
        say(self.console, shown, self.styles.get(side, "bold"))
        self._print_events(events)

    def _told(self, side: str, action: Action) -> str:
        """A bot's action as the person at the keyboard may know it (a move seen by eye
        where the rules forbid measuring); with several people or none, as a spectator."""
        people = [s for s, bot in self.players.items() if bot is None]
        viewer = people[0] if len(people) == 1 else None
        return self.game.ruleset.told_action(self.game.state, side, action, viewer)

    def _changed(self) -> None:
        self.changes += 1
        self.listed = None
        self._save()

    def _save(self) -> None:
        self.record_file.save(self.game, self._extra())

    def _extra(self) -> dict[str, Any]:
        """What the record adds to the game: who plays each side (``--resume`` keeps them)."""
        return {
            "players": {
                side: self.specs.get(side) or ("human" if bot is None else bot_label(bot))
                for side, bot in self.players.items()
            }
        }

    # -- prompt commands -------------------------------------------------------------
    def _list(self, side: str, rest: str) -> bool:
        """Show the legal actions numbered (grouped when many; ``rest`` filters)."""
        numbered = list(enumerate(self.game.legal_actions(side), start=1))
        if rest:
            wanted = rest.lower().split()
            numbered = [(n, a) for n, a in numbered if all(w in str(a).lower() for w in wanted)]
        self.listed = (self.changes, dict(numbered))
        if not numbered:
            self._say("No legal action matches." if rest else "No legal action.")
        elif len(numbered) > GROUP_ABOVE:
            self._list_grouped(numbered)
        else:
            for number, action in numbered:
                reason = self._reason(side, action) if len(numbered) <= REASONS_UP_TO else None
                self._say(f"{number:>4}) {action}" + (f"   ({reason})" if reason else ""))
        return True

    def _reason(self, side: str, action: Action) -> str | None:
        """Why ``action`` is worth a look, from what ``side`` may know."""
        ruleset = self.game.ruleset
        return ruleset.action_reason(self._known(side), side, action)

    def _known(self, side: str) -> Any:
        """The state as ``side`` may know it where the ruleset gives one, else the whole
        (whose helpers then read only what the side may know)."""
        known = self.game.ruleset.side_state(self.game.state, side)
        return self.game.state if known is None else known

    def _list_grouped(self, numbered: Sequence[tuple[int, Action]]) -> None:
        """One line per verb and unit, the rest sorted: ``move G1: 4:0605 3:0606``."""
        groups: dict[str, list[tuple[str, int]]] = {}
        for number, action in numbered:
            words = str(action).split()
            head = " ".join(words[:2]) if len(words) > 2 else words[0]
            tail = " ".join(words[2:]) if len(words) > 2 else " ".join(words)
            groups.setdefault(head, []).append((tail, number))
        for head, items in groups.items():
            line = f"{head}: " + "  ".join(f"{n}:{tail}" for tail, n in sorted(items))
            self.console.print(Text(line))  # long: let rich wrap it between items
        self._say(f"({len(numbered)} actions; type a number, or list WORD to narrow)")

    def _pick(self, side: str, digits: str) -> bool:
        """Take action number ``digits`` from the list shown for the current situation."""
        if self.listed is None or self.listed[0] != self.changes:
            self._error("type list first: numbers refer to the latest list")
            return True
        action = self.listed[1].get(int(digits)) if len(digits) <= 9 else None
        if action is None:
            self._error(f"no action {excerpt(digits, 20)} in the latest list")
            return True
        if self._confirmed(side, action):
            self._act(side, action)
        return True

    def _odds(self, side: str, rest: str) -> bool:
        """Explain the exact odds of one action, or of every legal action that rolls."""
        if rest:
            try:
                action = self.game.parse(rest)
            except IllegalAction as exc:
                self._error(str(exc))
                return True
            explained = self._explain(side, action)
            problem = self._problem(side, action)
            if problem is not None:
                # The ruleset may still say why it cannot happen, or what the odds
                # would be (an attack before the unit has moved, say).
                self._error(f"{action} {problem}" + (f"; {explained}" if explained else ""))
                return True
            self._say(explained or f"{action}: no dice are rolled, so there are no odds")
            return True
        lines = [
            e if e.startswith(str(a)) else f"{a}: {e}"
            for a in self.game.legal_actions(side)
            if (e := self._explain(side, a))
        ]
        for line in lines:
            self._say(line)
        if not lines:
            self._say("No legal action now involves dice.")
        return True

    def _problem(self, side: str, action: Action) -> str | None:
        """Why ``action`` cannot be taken now (phrased after its text), or None."""
        if action in self.game.legal_actions(side):
            return None
        if self.game.ruleset.info.exhaustive_actions:
            return "is not a legal action now"
        # An open table lists candidates only: ask the rules about this one.
        reason = self.game.refusal(action, side)
        return None if reason is None else f"is not possible now: {reason}"

    def _explain(self, side: str, action: Action) -> str | None:
        """The ruleset's odds of ``action``, worked out from what ``side`` may know (its
        ``side_state`` where the ruleset gives one: the prompt must tell a person nothing
        the side's view hides, such as a distance while a range guess is asked)."""
        return self.game.ruleset.action_odds(self._known(side), side, action)

    def _info(self, side: str, rest: str) -> bool:
        """What ``side`` may know of a unit, hex or point (from its own view only)."""
        if not rest:
            self._error("info UNIT (or a hex, or a point x,y): say what to look at")
            return True
        try:
            lines = self.game.ruleset.unit_info(self.game.view(side), rest)
        except QuestionRefused as exc:
            self._error(str(exc))
            return True
        for line in lines:
            self._say(line)
        return True

    def _goal(self, side: str, rest: str) -> bool:
        self._print_goal()
        return True

    def _print_goal(self) -> None:
        lines = self.game.ruleset.goal(self.game.scenario)
        if lines:
            self._say("Goal:")
            for line in lines:
                self._say(f"  {line}")

    def _rules(self, side: str, rest: str) -> bool:
        """The scenario's options and the rulings in force, one line each."""
        lines = self.game.ruleset.rules_in_force(self.game.scenario)
        title = self.game.ruleset.info.title
        if not lines:
            self._say(f"{title} as written: no options or rulings apply to this scenario.")
        for line in lines:
            self._say(line)
        return True

    def _measure(self, side: str, rest: str) -> bool:
        """Distance and line of sight between two named things, where the rules allow."""
        names = rest.split()
        if len(names) != 2:
            self._error("measure A B: name two figures, features or points x,y")
            return True
        try:
            self._say(self.game.ruleset.measure(self._known(side), side, names[0], names[1]))
        except QuestionRefused as exc:
            self._error(str(exc))
        return True

    def _map(self, side: str, rest: str) -> bool:
        self._show_map(side)
        self._status(side)
        return True

    def _undo(self, side: str, rest: str) -> bool:
        """Take back the last action of ``side``, the side at the keyboard now.

        Only its own action: in hot-seat play the other person is not at the
        keyboard, and what it says never shows another side's sealed choice.
        """
        try:
            taken = self.game.undo(side)
        except UndoError as exc:
            self._error(f"cannot undo: {exc}")
            return True
        self._changed()
        what = "your sealed choice" if taken.sealed else "your action"
        self._say(f"Took back {what}: {taken.action}")
        return True

    def _save_as(self, side: str, rest: str) -> bool:
        if not rest:
            self._error("save FILE: say where to write the record")
            return True
        target = Path(rest)
        shown = excerpt(rest, 200)
        try:
            if record_taken(target):
                self._error(f"{shown} already exists (or its sealed files do); save to a new file")
                return True
            RecordFile(target, self.bots).save(self.game, self._extra())
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or str(exc)
            if isinstance(exc, FileExistsError | NotADirectoryError):
                why = "a file stands where its folder would be"
            self._error(f"cannot save to {shown}: {excerpt(why)}")
            return True
        self._say(f"Saved to {shown} (continue with: warbench play --resume {shown})")
        return True

    def _help(self, side: str, rest: str) -> bool:
        self._say(HELP)
        usage = getattr(self.game.ruleset, "usage", None)
        forms = usage() if callable(usage) else {}
        if forms:
            self._say("Actions of " + self.game.ruleset.info.title + ":")
            for form in forms.values():
                self._say(f"  {form}")
        return True

    def _quit(self, side: str, rest: str) -> bool:
        return False

    # -- showing -------------------------------------------------------------------
    def _show_map(self, side: str | None) -> None:
        print_map(self.console, self.game.view(side))
        self.shown = self.changes
        if side is not None:
            self.mapped[side] = self._phase_key(side)

    def _phase_key(self, side: str) -> tuple[object, ...]:
        """The turn, phase and step ``side`` is asked in (the map is drawn once in each)."""
        view = self.game.view(side)
        return (self.game.turn, *(str(view.get(k)) for k in ("phase", "phase_title", "step")))

    def _status(self, side: str) -> None:
        """Turn, phase (if the view names one) and what the game asks of ``side``."""
        decision = self.game.decision
        view = self.game.view(side)
        phase = view.get("phase_title", view.get("phase"))
        where = f"Turn {self.game.turn}" + (f", {phase}" if isinstance(phase, str) else "")
        prompt = decision.prompt if decision else ""
        say(self.console, f"{where}. {side}: {prompt}", self.styles.get(side, "bold"))
        if decision is not None and decision.kind is DecisionKind.SEALED:
            self._say(HELD_NOTE if decision.hold else SEALED_NOTE)

    def _finish(self) -> None:
        """The final map and the outcome: winner, reason, scores."""
        self._show_map(None)
        outcome = self.game.outcome
        if outcome is None:
            self._say("The game is over.")
            return
        if outcome.winner is None:
            headline = f"Game over after turn {self.game.turn}: a draw ({outcome.reason})."
        else:
            headline = (
                f"Game over after turn {self.game.turn}: {outcome.winner} wins ({outcome.reason})."
            )
        say(self.console, headline, "bold")
        if outcome.scores:
            scores = ", ".join(f"{side} {score:g}" for side, score in outcome.scores.items())
            self._say(f"Scores: {scores}")
        self._say(f"Record: {self.record_path}")

    def _print_events(self, events: Sequence[Event]) -> None:
        for event in events:
            say(self.console, f"  {event.text}")

    def _say(self, text: str) -> None:
        say(self.console, text)

    def _error(self, text: str) -> None:
        say(self.console, text, style="bold red")
