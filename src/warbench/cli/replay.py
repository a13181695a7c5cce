"""``warbench replay FILE``: rebuild a recorded game, narrating it, and check its digest.

A record stores the digest of the final state; replaying must reproduce it.
A sealed choice not yet revealed stands in the record as a commitment only;
its clear text is in its side's own file beside the record
(``FILE.SIDE-sealed.json``). With that file the replay goes through it (not
showing it unless ``--side`` names its side); without it the replay stops at
the first such choice. A stop at a secret is not damage: if public actions
follow it (a held choice), the rest cannot be checked, and the exit status
says so (3), distinct from a mismatch (1).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warbench.cli.command import add_command, argument, json_flag, point_of_view
from warbench.cli.common import Reader, out_console, print_json, print_map, say, side_named
from warbench.errors import RecordError, WarbenchError, excerpt

if TYPE_CHECKING:
    from rich.console import Console

    from warbench.cli.common import Commands
    from warbench.core.events import Event
    from warbench.core.game import Game

EXIT_MISMATCH = 1
EXIT_STOPPED = 3
"""The replay stopped at a sealed choice still secret that public actions follow:
nothing was found wrong up to there, and the rest could not be checked."""

MATCHES, MISMATCH, STOPPED = "matches", "mismatch", "stopped"
"""The verdicts of a replay (``status`` in ``--json``)."""

EPILOG = f"""\
exit status:
  0  the replay reaches the record's digest, turn and outcome
  {EXIT_MISMATCH}  MISMATCH: it does not (a changed or damaged record, or rules that
     changed since it was made)
  2  the record cannot be read or replayed (an error message says why)
  {EXIT_STOPPED}  stopped at a secret: a sealed choice not yet revealed (held for a
     later reveal) has public actions after it, and its side's file
     (FILE.SIDE-sealed.json) is not beside the record; nothing was found
     wrong up to there, the rest cannot be checked without that file

A sealed choice read from its side's file is replayed but not shown, unless
--side names its side."""


def register(commands: Commands) -> None:
    """Add ``replay``."""
    add_command(
        commands,
        "replay",
        run,
        help="replay a record and check its digest",
        description=(
            "Replay a record written by play or simulate, narrating every action, and\n"
            "check that it reaches the record's digest, turn and outcome. Sealed choices\n"
            "not yet revealed are read from their sides' files beside the record\n"
            "(FILE.SIDE-sealed.json) when they are there. --json prints a summary whose\n"
            "status is matches, mismatch or stopped (see the exit statuses)."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        arguments=(
            argument("record", metavar="FILE", help="a record written by play or simulate"),
            argument(
                "--step",
                action="store_true",
                help="wait for Enter between actions, drawing the map after each (as --side "
                "sees it)",
            ),
            json_flag("only a JSON summary"),
            point_of_view("show this side's own sealed choices not yet revealed (from its file)"),
        ),
    )


# -- what of a record can be replayed here ----------------------------------------------
@dataclass
class Known:
    """A record's entries as far as they can be replayed here: up to its first sealed
    choice whose clear text is not at hand (read from the side files beside it)."""

    record: Mapping[str, Any]
    path: Path
    steps: list[tuple[int, str, str, bool]] = field(default_factory=list)
    """(index in the record, side, action text, whether a sealed choice not yet revealed)."""
    stop: int | None = None
    """The index of the first sealed entry not at hand, or None: every entry is."""
    unmatched: list[str] = field(default_factory=list)
    """Sides whose file is beside the record but does not hold (or match) a choice needed."""

    @property
    def entries(self) -> list[Any]:
        return list(self.record["actions"])

    @property
    def stop_side(self) -> str:
        assert self.stop is not None
        return str(self.entries[self.stop].get("side"))

    def public_after_stop(self) -> int:
        """How many public actions follow the stop (0: only sealed choices do)."""
        if self.stop is None:
            return 0
        return sum(1 for e in self.entries[self.stop :] if isinstance(e, dict) and "action" in e)

    def side_file(self, side: str) -> Path:
        from warbench.core.saves import sealed_path

        return sealed_path(self.path, side)


def known_entries(record: Mapping[str, Any], path: str | Path, source: str) -> Known:
    """What of ``record`` (read from ``path``) can be replayed, with the side files there."""
    from warbench.core.saves import read_sealed

    entries = record["actions"]
    sealed = [i for i, e in enumerate(entries) if isinstance(e, dict) and "sealed" in e]
    found = read_sealed(path, record, partial=True) if sealed else {}
    known = Known(record, Path(path))
    for index, entry in enumerate(entries):
        try:
            side = str(entry["side"])
            if "sealed" in entry:
                if index not in found:
                    known.stop = index
                    break
                known.steps.append((index, side, found[index][0], True))
            else:
                known.steps.append((index, side, str(entry["action"]), False))
        except (KeyError, TypeError):
            raise RecordError(f"{source}: action {index + 1} is not {{side, action}}") from None
    if known.stop is not None:
        owners = {str(entries[i].get("side")) for i in sealed if i not in found}
        known.unmatched = sorted(s for s in owners if known.side_file(s).exists())
    return known


def replay_known(
    known: Known,
    source: str,
    upto: int | None = None,
    each: Callable[[Game, int, str, str, bool, Sequence[Event]], bool] | None = None,
) -> Game:
    """Rebuild the game of ``known``'s record through its first ``upto`` known entries.

    ``each(game, index, side, text, sealed, events)`` is called after every
    action; it returns False to stop there. A replay that fails names the action.
    """
    from warbench.core.replay import replay_record

    game = replay_record({**known.record, "actions": []}, source=source, verify=False)
    steps = known.steps if upto is None else known.steps[:upto]
    for index, side, text, sealed in steps:
        try:
            events = game.apply(text, side)
        except WarbenchError as exc:
            raise RecordError(
                f"{source}: action {index + 1} cannot be replayed: {excerpt(exc, 300)}"
            ) from None
        if each is not None and not each(game, index, side, text, sealed, events):
            break
    return game


def verdict(game: Game, known: Known) -> tuple[str, list[str]]:
    """``matches``, ``mismatch`` or ``stopped`` (at a secret), with what differs.

    A stop before sealed choices only (the round now asked) changes nothing the
    digest covers, so the digest is checked. A stop followed by public actions,
    or by the last choices of a round that holds them (which moved the game on
    without showing them), cannot be checked: the verdict is ``stopped``.
    """
    from warbench.core.decisions import DecisionKind
    from warbench.core.replay import mismatches

    problems = mismatches(game, known.record)
    if known.stop is not None and known.public_after_stop():
        return STOPPED, problems
    if known.stop is None or not problems:
        return (MISMATCH if problems else MATCHES), problems
    decision = game.decision
    rest = {str(e.get("side")) for e in known.entries[known.stop :]}
    held_round = (
        decision is not None
        and decision.kind is DecisionKind.SEALED
        and decision.hold
        and set(game.waiting_for()) <= rest
    )
    return (STOPPED if held_round else MISMATCH), problems


def stop_message(known: Known) -> str:
    """Where the replay stops at a secret and what it lacks (short: errors quote it)."""
    assert known.stop is not None
    side = excerpt(known.stop_side)
    after = known.public_after_stop()
    file = excerpt(str(known.side_file(known.stop_side)), 200)
    went_on = (
        f"{after} public action{'s' if after != 1 else ''} follow{'s' if after == 1 else ''} it"
        if after
        else "its round moved the game on without showing it"
    )
    why = "does not hold it" if known.stop_side in known.unmatched else "is not beside the record"
    return (
        f"action {known.stop + 1} is {side}'s sealed choice, held secret until it is revealed, "
        f"and {went_on}; its file {file} {why}"
    )


# -- the command -----------------------------------------------------------------------
def run(args: argparse.Namespace, read: Reader | None = None) -> int:
    """Replay quietly for ``--json``; otherwise narrate every action and event."""
    from warbench.core.saves import read_record

    record = read_record(args.record)
    source = excerpt(str(args.record), 200)
    known = known_entries(record, args.record, source)
    shown = side_named(replay_known(known, source, upto=0).scenario.sides, args.side)
    if args.json:
        summary = _summary(replay_known(known, source), known)
        print_json(summary)
        return _exit(str(summary["status"]))
    console = out_console()
    game = _narrate(console, known, source, (read or input) if args.step else None, shown)
    if game is None:
        say(console, "Replay stopped.")
        return 0
    return _report(console, game, known)


def _exit(status: str) -> int:
    return {MATCHES: 0, MISMATCH: EXIT_MISMATCH}.get(status, EXIT_STOPPED)


def _summary(game: Game, known: Known) -> dict[str, Any]:
    """What ``--json`` prints: the digest, how it ended, and the verdict."""
    status, problems = verdict(game, known)
    outcome = game.outcome
    entries = known.entries
    stopped = None
    if status == STOPPED:
        side = known.stop_side
        stopped = {
            "action": (known.stop or 0) + 1,
            "side": side,
            "file": str(known.side_file(side)),
            "public_actions_after": known.public_after_stop(),
        }
    return {
        "scenario": game.scenario.id,
        "status": status,
        "matches": None if status == STOPPED else status == MATCHES,
        "problems": [] if status == STOPPED else problems,
        "stopped_at": stopped,
        "digest": game.digest(),
        "turns": game.turn,
        "winner": outcome.winner if outcome else None,
        "actions": len(game.actions),
        "recorded_actions": len(entries),
        "sealed_pending": sum(1 for entry in entries if "sealed" in entry),
        "sealed_from_files": sum(1 for step in known.steps if step[3]),
    }


def _narrate(
    console: Console, known: Known, source: str, read: Reader | None, shown: str | None
) -> Game | None:
    """Rebuild the game action by action, printing each action and its events.

    With ``read`` (``--step``) it waits before each action; None if told to quit.
    A sealed choice read from a side file is shown only to ``shown``'s side.
    """
    from warbench.core.replay import replay_record

    empty = replay_record({**known.record, "actions": []}, source=source, verify=False)
    dice = f"seed {empty.seed}" if empty.seed is not None else "secret dice (logged)"
    say(console, f"{empty.scenario.id}: {empty.scenario.title}, {dice}", style="bold")
    _print_events(console, empty.events)
    if read is not None:
        print_map(console, empty.view(shown))
    total = len(known.steps)
    waiting = [read]
    quit_ = [False]

    def before(number: int) -> bool:
        reader = waiting[0]
        if reader is None:
            return True
        answer = _wait(reader, number, total)
        if answer == "quit":
            quit_[0] = True
            return False
        if answer == "run":
            waiting[0] = None
        return True

    def each(
        game: Game, index: int, side: str, text: str, sealed: bool, events: Sequence[Event]
    ) -> bool:
        if sealed and side != shown:
            what = "a sealed choice, not yet revealed (read from its file; not shown)"
        elif sealed:
            what = f"{text} (sealed, not yet revealed to the other sides)"
        else:
            what = text
        say(console, f"{index + 1:>4}. {side}: {what}", style="bold")
        _print_events(console, events)
        if waiting[0] is not None:  # stepping: the board as it stands now
            print_map(console, game.view(shown))
        return index + 1 >= total or before(index + 2)

    if total and not before(1):
        return None
    game = replay_known(known, source, each=each)
    return None if quit_[0] else game


def _wait(read: Reader, number: int, total: int) -> str:
    """Wait before action ``number``: ``next``, ``run`` (stop waiting) or ``quit``."""
    try:
        answer = read(f"[{number}/{total}] Enter: next, c: run to the end, q: quit > ")
    except EOFError:
        return "run"
    word = answer.strip().lower()
    if word in ("q", "quit"):
        return "quit"
    return "run" if word in ("c", "continue") else "next"


def _print_events(console: Console, events: Sequence[Event]) -> None:
    for event in events:
        say(console, f"      {event.text}")


def _report(console: Console, game: Game, known: Known) -> int:
    """Print how the game ended and the verdict (exit 1 on a mismatch, 3 on a stop)."""
    status, problems = verdict(game, known)
    if status == STOPPED:
        say(console, f"Stopped at a secret: {stop_message(known)}.", style="bold")
        say(
            console,
            f"Replayed {len(game.actions)} of {len(known.entries)} actions (turn {game.turn}): "
            "nothing was found wrong up to there, but the rest cannot be replayed or checked "
            f"without {excerpt(known.stop_side)}'s sealed-choices file (with it beside the "
            "record, the replay goes through).",
        )
        return EXIT_STOPPED
    outcome = game.outcome
    if outcome is None:
        say(console, f"Not finished: turn {game.turn}, {len(game.actions)} actions.")
    else:
        winner = outcome.winner or "nobody (a draw)"
        say(console, f"Winner: {winner} ({outcome.reason}).")
    pending = len(known.entries) - len(known.steps)
    if pending:
        say(console, f"{pending} sealed choice(s) not yet revealed: not shown.")
    digest = game.digest()
    if status == MATCHES:
        say(console, f"Digest matches: {digest}")
        return 0
    say(
        console,
        f"MISMATCH: {'; '.join(problems)}; the record says digest "
        f"{known.record.get('digest')}, the replay gives {digest} (a changed record, or "
        "rules that changed since it was made)",
        style="bold red",
    )
    return EXIT_MISMATCH
