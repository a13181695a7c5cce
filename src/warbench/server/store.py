"""Games stored as their records: the scenario, the seed, the seats and every action,
appended in a transaction before the server replies.

Three tables (``migrations/`` creates and upgrades them with Alembic):

- ``games``: id, the scenario's id and whole parsed file (JSON), the seed, when it
  was made, its revision (one more at every stored change, an undo included: what a
  page compares to never show a state older than one it has shown, and what a writer
  checks to never write over a change it has not seen) and when it last changed;
- ``seats``: one per side of a game: who plays it (``human``, or a bot spec such as
  ``mcts:iterations=50``) and the SHA-256 of the seat's secret token (the token
  itself is never stored: a stolen database gives no seat);
- ``actions``: the game's actions in order (side and text, as in a record), one row
  each, with a unique ``(game_id, number)`` so two writers can never both append
  action 12;
- ``chat``: what the seats of a game said to each other, in order (the side and
  the text; only the newest lines are kept).

A game is rebuilt by replaying its actions (:func:`warbench.core.record`'s way); an
acknowledged action is one whose row is committed, so a server killed at any moment
and restarted has every action it acknowledged. SQLite (the default, one file) runs
in WAL mode with full synchronous writes; PostgreSQL is given as a URL.
"""

from __future__ import annotations

import errno
import hashlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("scenario_id", String(200), nullable=False),
    Column("scenario", Text, nullable=False),
    Column("seed", String(20), nullable=False),
    Column("created", Float, nullable=False),
    Column("revision", Integer, nullable=False, server_default="0"),
    Column("updated", Float, nullable=True),
)
seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("side", String(40), primary_key=True),
    Column("player", String(200), nullable=False),
    Column("token_hash", String(64), nullable=False, index=True),
)


def _game_log(name: str, *columns: Column[Any], unique: str | None = None) -> Table:
    """A numbered log of a game (its actions, its chat): a row per number, with
    ``columns`` and when it was written; ``unique``: the name of a constraint that the
    numbers are unique per game."""
    constraints = [UniqueConstraint("game_id", "number", name=unique)] if unique else []
    return Table(
        name,
        metadata,
        Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
        Column("number", Integer, primary_key=True),
        *columns,
        Column("created", Float, nullable=False),
        *constraints,
    )


actions = _game_log(
    "actions",
    Column("side", String(40), nullable=False),
    Column("action", Text, nullable=False),
    unique="one_action_per_number",
)
chat = _game_log(
    "chat",
    Column("side", String(40), nullable=True),
    Column("text", Text, nullable=False),
)

HUMAN = "human"

_INSERT_GAME = insert(games)
_INSERT_SEAT = insert(seats)
_INSERT_ACTION = insert(actions)
_COUNT_ACTIONS = (
    select(func.count()).select_from(actions).where(actions.c.game_id == bindparam("game"))
)
_REVISION = select(games.c.revision).where(games.c.id == bindparam("game"))
_NEXT_REVISION = (
    update(games)
    .where(games.c.id == bindparam("game"), games.c.revision == bindparam("seen"))
    .values(revision=games.c.revision + 1, updated=bindparam("now"))
)
"""Statements built once (SQLAlchemy compiles each once and caches it)."""


def _action_rows(
    game_id: str, number: int, entries: Sequence[tuple[str, str]]
) -> list[dict[str, Any]]:
    now = time.time()
    return [
        {"game_id": game_id, "number": number + k, "side": side, "action": text, "created": now}
        for k, (side, text) in enumerate(entries)
    ]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A seat's secret: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True, slots=True)
class StoredGame:
    id: str
    scenario_id: str
    scenario: dict[str, Any]
    seed: int
    players: dict[str, str]
    """Each side's player: ``human`` or a bot spec."""
    actions: list[tuple[str, str]]
    """(side, action text) in order."""
    token_hashes: dict[str, str] = field(default_factory=dict)
    """The SHA-256 of each seat's token, to the side it opens."""
    revision: int = 0
    """The game's revision when it was read (one more at every stored change)."""
    updated: float = 0.0
    """When it last changed (seconds since the epoch)."""


class StaleVersion(Exception):
    """Another action was appended first (the writer's version is out of date)."""


class DamagedRow(Exception):
    """A stored row that cannot be read back as it was written (edited by hand)."""


class StoreFull(Exception):
    """The database could not write: its disk (or its file-size limit) is full. The
    transaction was rolled back, so nothing of the write was stored. Not a
    :class:`~warbench.errors.WarbenchError`: it is no fault of the request."""


_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)})
_SQLITE_FULL = 13
_SQLITE_IOERR_WRITE = 778  # SQLITE_IOERR | (3 << 8): a write() refused (EFBIG at a size limit)
_PG_DISK_FULL = "53100"  # disk_full (PostgreSQL's "could not extend file")
_FULL_WORDS = ("database or disk is full", "no space left on device", "file too large")


def cannot_write(exc: BaseException) -> bool:
    """Whether ``exc`` says the storage could not write (a full disk, a file-size limit
    or a quota), rather than a fault of the write itself: SQLite's ``SQLITE_FULL`` or a
    refused write, PostgreSQL's ``disk_full``, an :class:`OSError` ENOSPC, EFBIG or
    EDQUOT, whether bare or wrapped by SQLAlchemy."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in _FULL_ERRNOS:
            return True
        if isinstance(exc, DBAPIError) and exc.orig is not None and cannot_write(exc.orig):
            return True
        code = getattr(exc, "sqlite_errorcode", None)
        if code in (_SQLITE_FULL, _SQLITE_IOERR_WRITE):
            return True
        if getattr(exc, "sqlstate", None) == _PG_DISK_FULL:
            return True
        if any(words in str(exc).lower() for words in _FULL_WORDS):
            return True
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return False


_Work = Callable[[Connection], Any]


@dataclass(slots=True, eq=False)
class _Write:
    """One caller's writing, waiting for the writer thread to commit it."""

    work: _Work
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None


class Store:
    """The database of games (any SQLAlchemy URL; ``sqlite:///games.db`` by default).

    Every write goes through one writer thread, which commits all the writes waiting
    at that moment in one transaction (a group commit): under load a hundred actions
    cost one commit, not a hundred, and no caller holds a lock while it waits for the
    interpreter. Each caller returns only once its own writing is committed; if a
    group fails, its writes are tried again one by one, so one stale action never sinks
    another's."""

    def __init__(self, url: str) -> None:
        if url.startswith(("postgresql://", "postgres://")):  # psycopg 3, the driver we pin
            url = "postgresql+psycopg://" + url.partition("://")[2]
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        migrate(self.engine)
        self._waiting: list[_Write] = []
        self._wake = threading.Condition()
        self._closing = False
        self._writer = threading.Thread(target=self._write_loop, name="store-writer", daemon=True)
        self._writer.start()

    def create(
        self,
        scenario_id: str,
        scenario: Mapping[str, Any],
        seed: int,
        players: Mapping[str, str],
        tokens: Mapping[str, str],
        created: float | None = None,
    ) -> str:
        """Store a new game (made at ``created``, by default now); returns its id."""
        game_id = secrets.token_hex(8)
        now = time.time() if created is None else created
        game_row = {
            "id": game_id,
            "scenario_id": scenario_id,
            "scenario": json.dumps(scenario),
            "seed": str(seed),
            "created": now,
            "revision": 0,
            "updated": now,
        }
        seat_rows = [
            {"game_id": game_id, "side": side, "player": p, "token_hash": token_hash(tokens[side])}
            for side, p in players.items()
        ]

        def work(db: Connection) -> None:
            db.execute(_INSERT_GAME, game_row)
            db.execute(_INSERT_SEAT, seat_rows)

        self._write(work)
        return game_id

    def append(
        self,
        game_id: str,
        number: int,
        entries: Sequence[tuple[str, str]],
        revision: int,
        when: float | None = None,
    ) -> None:
        """Append actions ``number``, ``number + 1``, ... (committed when this returns) to
        the game at ``revision`` (it becomes ``revision + 1``); raises
        :class:`StaleVersion` if the game has changed since (another server wrote).
        ``when``: the time of the change (by default now). A rewrite that replaces
        nothing."""
        self.rewrite(game_id, number, number, entries, revision, when)

    def rewrite(
        self,
        game_id: str,
        number: int,
        old_count: int,
        entries: Sequence[tuple[str, str]],
        revision: int,
        when: float | None = None,
    ) -> None:
        """Replace actions ``number`` onwards (there must be ``old_count`` in all) with
        ``entries``, in one transaction, on the game at ``revision`` (it becomes
        ``revision + 1``): an undo takes an action back."""
        rows = _action_rows(game_id, number, entries)
        now = time.time() if when is None else when

        def work(db: Connection) -> None:
            _next_revision(db, game_id, revision, now)
            count = db.execute(_COUNT_ACTIONS, {"game": game_id}).scalar_one()
            if count != old_count:
                raise StaleVersion(f"the game has {count} actions, not {old_count}")
            if old_count > number:  # the actions from ``number`` on
                db.execute(
                    delete(actions).where(actions.c.game_id == game_id, actions.c.number >= number)
                )
            if rows:
                db.execute(_INSERT_ACTION, rows)

        self._write(work)

    def say(self, game_id: str, side: str, text: str, keep: int) -> tuple[int, float]:
        """Add a line to the game's chat (the newest ``keep`` are kept); returns its number
        and time."""
        now = time.time()

        def work(db: Connection) -> int:
            last = db.execute(
                select(func.max(chat.c.number)).where(chat.c.game_id == game_id)
            ).scalar_one()
            number = 0 if last is None else int(last) + 1
            db.execute(
                insert(chat),
                {"game_id": game_id, "number": number, "side": side, "text": text, "created": now},
            )
            db.execute(
                delete(chat).where(chat.c.game_id == game_id, chat.c.number <= number - keep)
            )
            return number

        number: int = self._write(work)
        return number, now

    def chat(self, game_id: str) -> list[tuple[int, str | None, str, float]]:
        """The game's chat, oldest first: (number, side, text, time)."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(chat.c.number, chat.c.side, chat.c.text, chat.c.created)
                .where(chat.c.game_id == game_id)
                .order_by(chat.c.number)
            ).all()
        return [(r.number, r.side, r.text, r.created) for r in rows]

    # -- the writer thread ---------------------------------------------------------
    def _write(self, work: _Work) -> Any:
        """Run ``work`` in a committed transaction of the writer thread; its result, or
        its error (an :class:`IntegrityError` becomes :class:`StaleVersion`; a full disk
        :class:`StoreFull`)."""
        write = _Write(work)
        with self._wake:
            if self._closing:
                raise StaleVersion("the store is closed")
            self._waiting.append(write)
            self._wake.notify()
        write.done.wait()
        if write.error is not None:
            raise write.error
        return write.result

    def _write_loop(self) -> None:
        while True:
            with self._wake:
                while not self._waiting and not self._closing:
                    self._wake.wait()
                if not self._waiting:
                    return
                group, self._waiting = self._waiting, []
            self._commit(group)

    def _commit(self, group: list[_Write]) -> None:
        try:
            if len(group) > 1 and self._together(group):
                return
            for w in group:
                try:
                    with self.engine.begin() as db:
                        w.result = w.work(db)
                except IntegrityError:
                    w.error = StaleVersion("another action took that number first")
                except Exception as exc:  # handed to the caller, who raises it
                    w.error = exc
                    if cannot_write(exc):  # rolled back: nothing of it was stored
                        w.error = StoreFull(
                            f"the database could not write ({exc.__class__.__name__})"
                        )
                        w.error.__cause__ = exc
        finally:
            for w in group:
                w.done.set()

    def _together(self, group: list[_Write]) -> bool:
        """Commit the whole group in one transaction; False (nothing kept) if any failed."""
        try:
            with self.engine.begin() as db:
                results = [w.work(db) for w in group]
        except Exception:  # the caller tries each alone, to give each its own answer
            return False
        for w, result in zip(group, results, strict=True):
            w.result = result
        return True

    def revision(self, game_id: str) -> int | None:
        """The game's stored revision (None: no such game): one indexed row, read before
        a game in memory is served, since another server on this database may have
        changed it."""
        with self.engine.connect() as db:
            value = db.execute(_REVISION, {"game": game_id}).scalar_one_or_none()
        return None if value is None else int(value)

    def load(self, game_id: str) -> StoredGame | None:
        """The game as stored (None: no such game); :class:`DamagedRow` if a row of it
        cannot be read (a scenario or seed that is not what was written)."""
        with self.engine.connect() as db:
            row = db.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                return None
            seat_rows = db.execute(select(seats).where(seats.c.game_id == game_id)).all()
            action_rows = db.execute(
                select(actions.c.side, actions.c.action)
                .where(actions.c.game_id == game_id)
                .order_by(actions.c.number)
            ).all()
        try:
            scenario = json.loads(row.scenario)
            seed = int(row.seed)
        except ValueError as exc:
            raise DamagedRow(f"its scenario or seed cannot be read ({exc})") from None
        return StoredGame(
            id=row.id,
            scenario_id=row.scenario_id,
            scenario=scenario,
            seed=seed,
            players={r.side: r.player for r in seat_rows},
            actions=[(r.side, r.action) for r in action_rows],
            token_hashes={r.token_hash: r.side for r in seat_rows},
            revision=int(row.revision),
            updated=float(row.updated or row.created),
        )

    def dispose(self) -> None:
        """Finish the writes under way, then close the connections."""
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._writer.join(timeout=30)
        self.engine.dispose()


def _next_revision(db: Connection, game_id: str, seen: int, now: float) -> None:
    """Move the game from revision ``seen`` to the next (changed at ``now``), or
    StaleVersion if it is no longer at ``seen`` (a change this writer has not seen was
    stored first)."""
    moved = db.execute(_NEXT_REVISION, {"game": game_id, "seen": seen, "now": now})
    if moved.rowcount != 1:
        raise StaleVersion(f"the game has changed since revision {seen}")


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def migrate(engine: Engine) -> None:
    """Bring the database's schema to the newest version (Alembic's ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
