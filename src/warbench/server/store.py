"""Games stored as their records: the scenario, the seed, the seats and every action,
appended in a transaction before the server replies.

Three tables (``migrations/`` creates and upgrades them with Alembic):

- ``games``: id, the scenario's id and whole parsed file (JSON), the seed, when it
  was made;
- ``seats``: one per side of a game: who plays it (``human``, or a bot spec such as
  ``mcts:iterations=50``) and the SHA-256 of the seat's secret token (the token
  itself is never stored: a stolen database gives no seat);
- ``actions``: the game's actions in order (side and text, as in a record), one row
  each, with a unique ``(game_id, number)`` so two writers can never both append
  action 12.

A game is rebuilt by replaying its actions (:func:`warbench.core.record`'s way); an
acknowledged action is one whose row is committed, so a server killed at any moment
and restarted has every action it acknowledged. SQLite (the default, one file) runs
in WAL mode with full synchronous writes; PostgreSQL is given as a URL.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
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
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("scenario_id", String(200), nullable=False),
    Column("scenario", Text, nullable=False),
    Column("seed", String(20), nullable=False),
    Column("created", Float, nullable=False),
)
seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("side", String(40), primary_key=True),
    Column("player", String(200), nullable=False),
    Column("token_hash", String(64), nullable=False, index=True),
)
actions = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("side", String(40), nullable=False),
    Column("action", Text, nullable=False),
    Column("created", Float, nullable=False),
    UniqueConstraint("game_id", "number", name="one_action_per_number"),
)

HUMAN = "human"


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


class StaleVersion(Exception):
    """Another action was appended first (the writer's version is out of date)."""


class Store:
    """The database of games (any SQLAlchemy URL; ``sqlite:///games.db`` by default)."""

    def __init__(self, url: str) -> None:
        if url.startswith(("postgresql://", "postgres://")):  # psycopg 3, the driver we pin
            url = "postgresql+psycopg://" + url.partition("://")[2]
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        self._writing = threading.Lock()
        """SQLite takes one writer at a time and makes others sleep and retry (tens of
        milliseconds); the server's own writers queue here instead."""
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        migrate(self.engine)

    def create(
        self,
        scenario_id: str,
        scenario: Mapping[str, Any],
        seed: int,
        players: Mapping[str, str],
        tokens: Mapping[str, str],
    ) -> str:
        """Store a new game; returns its id."""
        game_id = secrets.token_hex(8)
        with self._writing, self.engine.begin() as db:
            db.execute(
                insert(games).values(
                    id=game_id,
                    scenario_id=scenario_id,
                    scenario=json.dumps(scenario),
                    seed=str(seed),
                    created=time.time(),
                )
            )
            for side, player in players.items():
                db.execute(
                    insert(seats).values(
                        game_id=game_id,
                        side=side,
                        player=player,
                        token_hash=token_hash(tokens[side]),
                    )
                )
        return game_id

    def append(self, game_id: str, number: int, entries: Sequence[tuple[str, str]]) -> None:
        """Append actions ``number``, ``number + 1``, ... in one transaction; raises
        :class:`StaleVersion` if the game already has action ``number``."""
        try:
            with self._writing, self.engine.begin() as db:
                count = db.execute(
                    select(func.count()).select_from(actions).where(actions.c.game_id == game_id)
                ).scalar_one()
                if count != number:
                    raise StaleVersion(f"the game has {count} actions, not {number}")
                now = time.time()
                for k, (side, text) in enumerate(entries):
                    db.execute(
                        insert(actions).values(
                            game_id=game_id, number=number + k, side=side, action=text, created=now
                        )
                    )
        except IntegrityError:
            raise StaleVersion("another action took that number first") from None

    def rewrite(
        self, game_id: str, number: int, old_count: int, entries: Sequence[tuple[str, str]]
    ) -> None:
        """Replace actions ``number`` onwards (there must be ``old_count`` in all) with
        ``entries``, in one transaction: an undo takes an action back."""
        with self._writing, self.engine.begin() as db:
            count = db.execute(
                select(func.count()).select_from(actions).where(actions.c.game_id == game_id)
            ).scalar_one()
            if count != old_count:
                raise StaleVersion(f"the game has {count} actions, not {old_count}")
            db.execute(
                delete(actions).where(actions.c.game_id == game_id, actions.c.number >= number)
            )
            now = time.time()
            for k, (side, text) in enumerate(entries):
                db.execute(
                    insert(actions).values(
                        game_id=game_id, number=number + k, side=side, action=text, created=now
                    )
                )

    def load(self, game_id: str) -> StoredGame | None:
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
        return StoredGame(
            id=row.id,
            scenario_id=row.scenario_id,
            scenario=json.loads(row.scenario),
            seed=int(row.seed),
            players={r.side: r.player for r in seat_rows},
            actions=[(r.side, r.action) for r in action_rows],
            token_hashes={r.token_hash: r.side for r in seat_rows},
        )

    def dispose(self) -> None:
        self.engine.dispose()


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
