"""``warbench serve``: the web server (FastAPI on uvicorn) over a database of games."""

from __future__ import annotations

import argparse
import errno
import socket
from typing import TYPE_CHECKING

from warbench.cli.command import add_command, argument, whole
from warbench.cli.common import err_console, say
from warbench.errors import WarbenchError

if TYPE_CHECKING:
    from warbench.cli.common import Commands

DEFAULT_DB = "sqlite:///warbench-games.db"
LIVE_GAMES = 1000
"""The default of ``--live-games`` (``warbench.server.hub.LIVE_GAMES``, not imported
here: the command line loads no server code until it serves)."""
BOT_GAMES = 32
"""The default of ``--bot-games`` (``warbench.server.limits.BOT_GAMES``)."""


def register(commands: Commands) -> None:
    """Add ``serve``."""
    add_command(
        commands,
        "serve",
        run,
        help="play in the browser: a web server with a lobby, seats and live updates",
        description=(
            "Serve the browser client and its API. Games are stored in a database "
            "(every action committed before the reply), so a restarted server has "
            "every game and every acknowledged action."
        ),
        arguments=(
            argument(
                "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
            ),
            whole("--port", 8000, None, "port (default 8000)", high=65535),
            argument(
                "--db",
                default=DEFAULT_DB,
                metavar="URL",
                help=f"database URL (default {DEFAULT_DB}, a file here; "
                "postgresql://user@host/name for a shared server)",
            ),
            whole(
                "--bot-processes",
                1,
                "N",
                "processes the bots think in, so that requests never wait for them "
                "(default 1; 0: in the server's own threads)",
                low=0,
                high=64,
            ),
            whole(
                "--bot-games",
                BOT_GAMES,
                "N",
                f"games whose bots may play at once (default {BOT_GAMES}); while that many "
                "have bots thinking or waiting to think, a new game with a bot seat is refused "
                "(503, try again later), so that bot games cannot crowd each other's decisions "
                "out (each is answered within 60 s of its turn, its wait included)",
                high=100_000,
            ),
            whole(
                "--live-games",
                LIVE_GAMES,
                "N",
                f"games kept in memory (default {LIVE_GAMES}); the least recently used "
                "beyond are rebuilt from the database when next asked for",
                high=10_000_000,
            ),
            argument(
                "--allowed-host",
                action="append",
                default=[],
                metavar="NAME",
                help="a name the server may be reached by besides 127.0.0.1, localhost, ::1 and "
                "--host (repeatable; '*': any, e.g. behind a proxy that checks it). A request "
                "naming another Host is refused (400): a web page of another site cannot reach "
                "the server through a name pointed at it (DNS rebinding)",
            ),
        ),
    )


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from warbench.server.app import create_app, settle_process
    from warbench.server.limits import HALF_OPEN_SECONDS, allowed_hosts, patient_protocol

    listening = _listen(args.host, args.port)  # before the database: a busy port creates nothing
    try:
        hosts = allowed_hosts(args.host, args.allowed_host)
        app = create_app(
            args.db,
            bot_processes=args.bot_processes,
            live_games=args.live_games,
            allowed_hosts=hosts,
            bot_games=args.bot_games,
        )
    except Exception as exc:  # an unknown URL, a missing driver, a database not there
        listening.close()
        first = (str(exc).splitlines() or [type(exc).__name__])[0]  # not SQLAlchemy's links
        raise WarbenchError(f"cannot open the database {args.db}: {first}") from None
    settle_process()
    say(
        err_console(),
        f"warbench is serving at http://{args.host}:{args.port}/ (games in {args.db})",
    )
    if args.host in ("0.0.0.0", "::") and not args.allowed_host:
        say(
            err_console(),
            "it answers only requests naming 127.0.0.1, localhost or ::1: give the names "
            "others reach it by with --allowed-host NAME",
        )
    config = uvicorn.Config(
        app,
        access_log=False,
        log_level="warning",
        ws_per_message_deflate=False,  # compressing every update cost more than it saved
        http=patient_protocol(),  # a connection that never sends a request is closed
        timeout_keep_alive=5,  # so is one idle after a reply
        ws_ping_interval=HALF_OPEN_SECONDS,  # a WebSocket whose peer is gone is closed
        ws_ping_timeout=HALF_OPEN_SECONDS,
    )
    uvicorn.Server(config).run(sockets=[listening])
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening, or one clear line saying why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(2048)
    except OSError as exc:
        listening.close()
        if exc.errno == errno.EADDRINUSE:
            raise WarbenchError(
                f"port {port} on {host} is already in use (another server?): "
                f"choose another with --port, e.g. --port {port + 1}"
            ) from None
        raise WarbenchError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    listening.set_inheritable(True)
    return listening
