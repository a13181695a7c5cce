"""``warbench play ID``: play a scenario in the terminal, people and bots together.

Sets the game up (new, or rebuilt from a record with ``--resume``), decides
who plays each side, then hands over to :class:`~warbench.cli.session.PlaySession`.
The record is rewritten after every action, so quitting or a crash loses nothing.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from warbench.cli.command import add_command, argument, scenario, seating
from warbench.cli.common import Reader, bot_names, out_console, parse_sides, say, seed_int
from warbench.errors import WarbenchError, excerpt

if TYPE_CHECKING:
    from warbench.bots import Bot
    from warbench.cli.common import Commands
    from warbench.core.game import Game

HUMAN = "human"
RECORDS = Path("records")
MAX_NAME = 150
"""The longest record file name: a side file's temporary adds up to about 90
characters, and file systems allow 255."""
"""Where records go unless ``--record`` says otherwise."""


def register(commands: Commands) -> None:
    """Add ``play``."""
    add_command(
        commands,
        "play",
        run,
        help="play a scenario in the terminal",
        arguments=(
            scenario(nargs="?"),
            seating(
                "NAME=WHO",
                "who plays a side: human, a level (easy, normal, hard[:time=S]) or a bot "
                "(random, greedy, planner, search, mcts[:key=value,...]; see warbench bots); "
                "repeatable; default human",
            ),
            argument(
                "--seed",
                type=seed_int,
                metavar="N",
                help="dice seed, for a practice game (it tells every die); by default a game "
                "with a person in it has secret dice, and one of bots alone (--auto) a random "
                "seed",
            ),
            argument(
                "--option",
                action="append",
                default=[],
                metavar="KEY=VALUE",
                help="set a scenario option the text leaves to the players (measuring=free, "
                "core_rule=b; `warbench validate ID` lists them); repeatable",
            ),
            argument(
                "--record",
                type=Path,
                metavar="FILE",
                help="record file, rewritten after every action (default "
                "records/<scenario>.json, or records/<scenario>-<seed>.json for a seeded game)",
            ),
            argument("--resume", type=Path, metavar="FILE", help="continue a recorded game"),
            argument(
                "--withdraw-sealed",
                action="store_true",
                help="with --resume: if a side's file of sealed choices is lost, let it choose "
                "again",
            ),
            argument(
                "--auto",
                action="store_true",
                help="bots play every side (default random) without pausing",
            ),
        ),
    )


def run(args: argparse.Namespace, read: Reader | None = None) -> int:
    """Set up the game and the players, then play until the end or ``quit``."""
    from warbench.cli.session import PlaySession

    game, saved = _open_game(args)
    players, specs = _players(game, args.side, args.auto, saved)
    record_path, note = _record_path(args, game)
    console = out_console()
    if note:
        say(console, note)
    session = PlaySession(
        game,
        players,
        record_path,
        console,
        read=read or input,
        pause=not args.auto,
        interactive=read is None and sys.stdin is not None and sys.stdin.isatty(),
        specs=specs,
    )
    return session.run(resumed=args.resume is not None)


def _open_game(args: argparse.Namespace) -> tuple[Game, dict[str, str]]:
    """A new game of ``args.scenario``, or the game rebuilt from ``args.resume``.

    Also returns who played each side in the record (empty for a new game).
    """
    from warbench.core.game import Game
    from warbench.core.loader import load_scenario, parse_options, with_options
    from warbench.core.saves import load_game

    if args.withdraw_sealed and args.resume is None:
        raise WarbenchError("--withdraw-sealed goes with --resume FILE")
    if args.resume is None:
        if args.scenario is None:
            raise WarbenchError("play needs a scenario ID (or --resume FILE)")
        # A seed tells every future die: a game with a person in it has none unless it
        # is asked for (a practice game); its dice are secret and the record logs them.
        seed = args.seed
        if seed is None and args.auto:
            seed = random.randrange(1_000_000)  # bots alone: reproducible, nobody to cheat
        scenario = with_options(load_scenario(args.scenario), parse_options(args.option))
        return Game(scenario, seed), {}
    if args.option:
        raise WarbenchError("--option sets up a new game: a resumed game keeps its own")
    game, record = load_game(args.resume, withdraw_sealed=args.withdraw_sealed)
    if args.seed is not None and game.seed is None:
        raise WarbenchError(
            f"{excerpt(str(args.resume), 200)} is a game of secret dice: it has no seed to give"
        )
    if args.seed is not None and args.seed != game.seed:
        raise WarbenchError(
            f"{excerpt(str(args.resume), 200)} was played with seed {game.seed}, not {args.seed}"
        )
    if args.scenario is not None:
        _check_same_scenario(args.scenario, game)
    saved = record.get("players")
    return game, {str(k): str(v) for k, v in saved.items()} if isinstance(saved, dict) else {}


def _check_same_scenario(ref: str, game: Game) -> None:
    """Refuse to resume a record of another scenario than the one named."""
    from warbench.core.loader import load_scenario

    named = load_scenario(ref).id
    if named != game.scenario.id:
        raise WarbenchError(f"the record is a game of {game.scenario.id}, not of {named}")


def _record_path(args: argparse.Namespace, game: Game) -> tuple[Path, str]:
    """Where this game's record goes, and a note to print about it (or "").

    A new game never writes over a file that exists: a ``--record`` file that
    exists is refused, and when the default name is taken the game gets the
    next free one (``danville-7-2.json``), which the note names. A resumed game
    goes back into its own record unless ``--record`` names a new file.
    """
    from warbench.core.saves import record_taken

    own = args.resume
    target = args.record if args.record is not None else own
    if target is not None and len(target.name) > MAX_NAME:
        raise WarbenchError(
            f"a record's file name has at most {MAX_NAME} characters (its side files and "
            "temporaries add to it): give a shorter --record"
        )
    if args.record is not None:
        if record_taken(args.record) and not (own is not None and _same_file(args.record, own)):
            raise WarbenchError(
                f"{excerpt(str(args.record), 200)} already exists: resume it with --resume, "
                "or give another --record file"
            )
        return args.record, ""
    if own is not None:
        return own, ""
    name = game.scenario.id.rsplit("/", 1)[-1][:100]
    stem = f"{name}-{game.seed}" if game.seed is not None else name  # secret dice: no seed
    first = RECORDS / f"{stem}.json"
    path, number = first, 1
    while record_taken(path) or not _claim(path):
        number += 1
        path = RECORDS / f"{stem}-{number}.json"
    note = "" if path == first else f"{first} holds another game: this one is recorded in {path}"
    return path, note


def _claim(path: Path) -> bool:
    """Create ``path`` empty if nobody has (atomically), so that two games started
    at once never pick the same name; the session writes the record over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(path, "x", encoding="utf-8"):
            pass
    except FileExistsError:
        return False
    return True


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _players(
    game: Game, pairs: list[str], auto: bool, saved: dict[str, str]
) -> tuple[dict[str, Bot | None], dict[str, str]]:
    """Each side's bot, or None for a person, and who plays it as it was named.

    A side not named in ``--side`` keeps who played it in a resumed record (a bot
    with its options, ``mcts:iterations=50``); otherwise it is human, or the random
    bot with ``--auto``.
    """
    from warbench.bots import check_bot, is_bot_path, make_bot

    sides = game.scenario.sides
    info = game.ruleset.info
    secret = info.hidden_information or info.simultaneous_choices
    allowed = (HUMAN, *bot_names())
    chosen = parse_sides(pairs, sides, allowed)
    default = "random" if auto else HUMAN
    players: dict[str, Bot | None] = {}
    specs: dict[str, str] = {}
    for index, side in enumerate(sides):
        who = chosen.get(side) or saved.get(side, default)
        known = who in allowed or is_bot_path(who)
        if not known or (auto and who == HUMAN and side not in chosen):
            who = default
        if who == HUMAN and auto:
            raise WarbenchError(f"--auto needs a bot on every side; {side} is human")
        if who != HUMAN:
            check_bot(who, game.ruleset.info)
        seed = (game.seed or 0) * 100 + index + len(game.actions)
        if (secret or game.seed is None) and who != HUMAN:
            # The dice seed is printed and in the record: a bot seeded from it would
            # make choices a person could work out (its sealed choices, say).
            seed = secrets.randbits(63)
        players[side] = None if who == HUMAN else make_bot(who, seed)
        specs[side] = who
    return players, specs
