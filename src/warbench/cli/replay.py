"""``warbench replay FILE``: rebuild a recorded game, narrating it, and check its digest.

A record stores the digest of the final state; replaying must reproduce it.
A mismatch (a tampered record, or another ruleset version) exits with status 1.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console

from warbench.cli.common import Reader, out_console, print_json, say
from warbench.errors import RecordError, WarbenchError

if TYPE_CHECKING:
    from warbench.cli.common import Commands
    from warbench.core.events import Event
    from warbench.core.game import Game

EXIT_MISMATCH = 1


def register(commands: Commands) -> None:
    """Add ``replay``."""
    parser = commands.add_parser("replay", help="replay a record and check its digest")
    parser.add_argument("record", metavar="FILE", help="a record written by play or simulate")
    parser.add_argument("--step", action="store_true", help="wait for Enter between actions")
    parser.add_argument("--json", action="store_true", help="print only a JSON summary")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, read: Reader | None = None) -> int:
    """Replay quietly for ``--json``; otherwise narrate every action and event."""
    from warbench.core.record import replay_record
    from warbench.core.saves import read_record

    record = read_record(args.record)
    if args.json:
        summary = _summary(replay_record(record, source=args.record, verify=False), record)
        print_json(summary)
        return 0 if summary["matches"] else EXIT_MISMATCH
    console = out_console()
    game = _narrate(console, record, args.record, (read or input) if args.step else None)
    if game is None:
        say(console, "Replay stopped.")
        return 0
    return _report(console, game, record)


def _summary(game: Game, record: dict[str, Any]) -> dict[str, Any]:
    """What ``--json`` prints: the digest, how it ended, and whether it matches."""
    from warbench.core.record import mismatches

    outcome = game.outcome
    problems = mismatches(game, record)
    return {
        "scenario": game.scenario.id,
        "digest": game.digest(),
        "turns": game.turn,
        "winner": outcome.winner if outcome else None,
        "matches": not problems,
        "problems": problems,
        "actions": len(game.actions),
        "sealed_pending": sum(1 for entry in record["actions"] if "sealed" in entry),
    }


def _narrate(
    console: Console, record: dict[str, Any], source: str, read: Reader | None
) -> Game | None:
    """Rebuild the game action by action, printing each action and its events.

    The empty game comes from ``replay_record`` (which checks the scenario and
    the ruleset version); the actions are then applied here to narrate them.
    With ``read`` (``--step``) it waits before each action; None if told to quit.
    """
    from warbench.core.record import replay_record

    game = replay_record({**record, "actions": []}, source=source, verify=False)
    say(console, f"{game.scenario.id}: {game.scenario.title}, seed {game.seed}", style="bold")
    _print_events(console, game.events)
    entries: Sequence[Any] = [entry for entry in record["actions"] if "sealed" not in entry]
    for number, entry in enumerate(entries, start=1):
        if read is not None:
            answer = _wait(read, number, len(entries))
            if answer == "quit":
                return None
            if answer == "run":
                read = None
        side, text = _entry(entry, number, source)
        try:
            events = game.apply(text, side)
        except WarbenchError as exc:
            raise RecordError(f"{source}: action {number} cannot be replayed: {exc}") from None
        say(console, f"{number:>4}. {side}: {text}", style="bold")
        _print_events(console, events)
    return game


def _entry(entry: Any, number: int, source: str) -> tuple[str, str]:
    """The side and action text of one record entry."""
    try:
        return str(entry["side"]), str(entry["action"])
    except (KeyError, TypeError):
        raise RecordError(f"{source}: action {number} is not {{side, action}}") from None


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


def _report(console: Console, game: Game, record: dict[str, Any]) -> int:
    """Print how the game ended and whether the digest matches (exit 1 if not)."""
    outcome = game.outcome
    if outcome is None:
        say(console, f"Not finished: turn {game.turn}, {len(game.actions)} actions.")
    else:
        winner = outcome.winner or "nobody (a draw)"
        say(console, f"Winner: {winner} ({outcome.reason}).")
    from warbench.core.record import mismatches

    pending = sum(1 for entry in record["actions"] if "sealed" in entry)
    if pending:
        say(console, f"{pending} sealed choice(s) not yet revealed: not shown.")
    digest = game.digest()
    problems = mismatches(game, record)
    if not problems:
        say(console, f"Digest matches: {digest}")
        return 0
    say(
        console,
        f"MISMATCH: {'; '.join(problems)}; the record says digest {record.get('digest')}, "
        f"the replay gives {digest} (a changed record, or rules that changed since it was made)",
        style="bold red",
    )
    return EXIT_MISMATCH
