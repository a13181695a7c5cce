"""``warbench render ID|RECORD``: draw a scenario's set-up or a moment of a recorded game.

A scenario (built-in id or TOML file) is drawn as set up. A record (the JSON
that ``play`` and ``simulate --record-dir`` write) is replayed to just after
action N (``--at``; default: the last) and drawn with the overlays of that
action (``Ruleset.annotations``): the move made, the line of sight of a shot.
``--side`` draws what that side may see; the default is a spectator's view.

Sealed choices not yet revealed are never drawn or named. The replay reads
them from their sides' files beside the record when they are there; without
one, a record whose game went on after such a choice (a held choice) can be
drawn up to just before it (``--at``; by default there, with a note), not after.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warbench.cli.command import add_command, argument, pictures, point_of_view
from warbench.cli.common import err_console, natural_int, out_console, say, side_named
from warbench.errors import RecordError, WarbenchError, excerpt

if TYPE_CHECKING:
    from warbench.cli.common import Commands
    from warbench.core.game import Game


def register(commands: Commands) -> None:
    """Add ``render``."""
    add_command(
        commands,
        "render",
        run,
        help="draw a scenario or a recorded game as SVG (and PNG)",
        description=(
            "Draw a scenario's set-up (ID: a built-in id or a scenario file) or a recorded "
            "game (RECORD: a .json record) just after action N, with the overlays of that "
            "action. Give --svg, --png or both. Sealed choices not yet revealed are never "
            "drawn; without its side's file (RECORD.SIDE-sealed.json) beside the record, a "
            "game that went on after one (a held choice) can be drawn up to just before it."
        ),
        arguments=(
            argument("source", metavar="ID|RECORD", help="scenario id or file, or a record"),
            argument(
                "--at",
                type=natural_int,
                metavar="N",
                help="after action N of the record (0: the set-up)",
            ),
            point_of_view("draw what this side may see"),
            *pictures(),
            argument(
                "--overlays",
                action=argparse.BooleanOptionalAction,
                default=True,
                help="draw the last action's movement, line of sight and arcs (default: yes)",
            ),
            argument(
                "--events",
                action="store_true",
                help="also list what happened: action N and its events, every die with its purpose",
            ),
        ),
    )


def run(args: argparse.Namespace) -> int:
    """Build the game at the wanted moment, draw it, write the files asked for."""
    from warbench.render.svg import render_svg, svg_size

    if not args.svg and not args.png and not args.events:
        raise WarbenchError(
            "render: say where to write the picture: --svg FILE, --png FILE or both "
            "(or --events to list what happened)"
        )
    if _is_record(args.source):
        game, events, notes = _from_record(args.source, args.at)
    else:
        if args.at is not None:
            raise WarbenchError(f"--at needs a record; '{args.source}' is a scenario")
        game, events, notes = _from_scenario(args.source)
    side = side_named(game.scenario.sides, args.side, "this scenario")
    notes.insert(
        0, f"view of {side}: what {side} may see" if side else "view: everyone (spectator)"
    )
    outcome = game.outcome
    if outcome is not None:
        result = f"{outcome.winner} wins" if outcome.winner else "a draw"
        notes.append(f"Game over: {result} ({outcome.reason})")
    console = out_console()
    if args.events:
        for note in notes[1:2]:
            say(console, note, "bold")
        for event in events:
            say(console, f"  {event.text}")
        if not events:
            say(console, "  (no events)")
        if not args.svg and not args.png:
            return 0
    marks = game.ruleset.annotations(game.state, events, side) if args.overlays and events else []
    svg = render_svg(game.view(side), title=game.scenario.title, notes=notes, annotations=marks)
    width, height = svg_size(svg)
    if args.svg:
        Path(args.svg).write_text(svg, "utf-8")
        say(console, f"wrote {args.svg} ({width} x {height})")
    if args.png:
        from warbench.render.png import png_size, write_png

        png = write_png(svg, args.png)
        say(console, "wrote {} ({} x {})".format(args.png, *png_size(png)))
    return 0


def _is_record(source: str) -> bool:
    """A record is a JSON file: by its ``.json`` name, or (other files) by its first character."""
    path = Path(source)
    if not path.is_file():
        return False
    if path.suffix.lower() == ".json":
        return True
    if path.suffix.lower() == ".toml":
        return False
    try:
        with path.open("rb") as handle:
            return handle.read(64).lstrip().startswith(b"{")
    except OSError:
        return False


def _from_scenario(ref: str) -> tuple[Game, list[Any], list[str]]:
    from warbench.core.game import Game

    game = Game.start(ref)
    return game, [], [f"{game.scenario.id}: the set-up, before any action"]


def _from_record(source: str, at: int | None) -> tuple[Game, list[Any], list[str]]:
    """Replay ``source`` up to action ``at`` and keep that action's events.

    The whole record is replayed first, so one that does not match its digest
    is refused. Sealed choices not yet revealed are read from their sides'
    files beside the record when they are there (never drawn or named); without
    one, the record can be drawn up to the first of its side's choices only,
    if the game went on after it (a held choice), since the rest needs it.
    """
    from warbench.cli.replay import (
        MISMATCH,
        STOPPED,
        known_entries,
        replay_known,
        stop_message,
        verdict,
    )
    from warbench.core.replay import verify_replay
    from warbench.core.saves import read_record

    record = read_record(source)
    shown = excerpt(source, 200)
    known = known_entries(record, source, shown)
    whole = replay_known(known, shown)
    status, _ = verdict(whole, known)
    if status == MISMATCH:
        verify_replay(whole, record, shown)  # raises, saying what differs
    entries = record["actions"]
    total = len(entries)
    reached = len(known.steps)
    notes: list[str] = []
    if at is None:
        number = reached if status == STOPPED else total
        if status == STOPPED:
            notes.append(f"drawn at action {reached}, where the replay stops")
            say(err_console(), f"render: drawn after action {reached}: {stop_message(known)}")
    else:
        number = at
    if not 0 <= number <= total:
        raise WarbenchError(f"--at {at}: {shown} has {total} actions; give 0 to {total}")
    if status == STOPPED and number > reached:
        raise WarbenchError(
            f"--at {number}: the record can be drawn up to action {reached} only: "
            f"{stop_message(known)}"
        )
    head = f"{whole.scenario.id}, " + (
        f"seed {whole.seed}" if whole.seed is not None else "secret dice (logged)"
    )
    if number > reached:  # choices of the round now asked, still secret: nothing changed
        side = str(entries[number - 1].get("side"))
        what = f"{side}: a sealed choice, not yet revealed"
        return whole, [], [f"{head}: after action {number} of {total}, {what}", *notes]
    game = replay_known(known, shown, upto=max(number - 1, 0))
    if number == 0:
        first = f"{head}: the set-up, before any of the record's {total} actions"
        return game, [], [first, *notes]
    _, side, text, sealed = known.steps[number - 1]
    try:
        events = game.apply(text, side)
    except WarbenchError as exc:
        raise RecordError(f"{shown}: action {number} cannot be replayed: {exc}") from None
    what = f"{side}: a sealed choice, not yet revealed" if sealed else f"{side}: {text}"
    return game, list(events), [f"{head}: after action {number} of {total}, {what}", *notes]
