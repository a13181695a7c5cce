"""The store's writer thread: writes made at the same moment share one commit, each
caller returns once its own write is committed, and one bad write in a group never
sinks the others."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import orjson
import pytest

from warbench.core.loader import load_scenario
from warbench.server.hub import Hub, Stale, shared_scenario
from warbench.server.store import _INSERT_ACTION, StaleVersion, Store, _action_rows, _Write


def _games(store: Store, count: int) -> list[str]:
    return [
        store.create("test/x", {"n": k}, k, {"a": "human"}, {"a": f"token-{k}"})
        for k in range(count)
    ]


def test_concurrent_appends_are_all_committed_in_order(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path}/g.db")
    games = _games(store, 8)
    errors: list[BaseException] = []

    def play(game: str) -> None:
        try:
            for number in range(25):
                store.append(game, number, [("a", f"move {number}")], number)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    store.dispose()
    again = Store(f"sqlite:///{tmp_path}/g.db")  # what a restarted server reads
    for game in games:
        stored = again.load(game)
        assert stored is not None
        assert stored.actions == [("a", f"move {n}") for n in range(25)]
    again.dispose()


def test_a_stale_write_fails_alone_when_it_shares_a_commit(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path}/g.db")
    first, second = _games(store, 2)
    store.append(first, 0, [("a", "one")], 0)
    calls: list[str] = []

    def stale(db: Any) -> None:
        calls.append("stale")
        raise StaleVersion("the game has 1 actions, not 0")

    def good(db: Any) -> str:
        calls.append("good")
        db.execute(_INSERT_ACTION, _action_rows(second, 0, [("a", "good")]))
        return "stored"

    group = [_Write(stale), _Write(good)]
    store._commit(group)  # as the writer thread commits what waits at one moment
    assert calls == ["stale", "stale", "good"]  # the group stopped at once, then one by one
    assert isinstance(group[0].error, StaleVersion)
    assert group[1].error is None and group[1].result == "stored"
    assert all(w.done.is_set() for w in group)
    stored_first, stored_second = store.load(first), store.load(second)
    assert stored_first is not None and stored_first.actions == [("a", "one")]
    assert stored_second is not None and stored_second.actions == [("a", "good")]
    store.dispose()


def test_a_closed_store_refuses_writes(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path}/g.db")
    (game,) = _games(store, 1)
    store.dispose()
    with pytest.raises(StaleVersion, match="closed"):
        store.append(game, 0, [("a", "late")], 0)


def test_games_of_one_scenario_share_it_also_after_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/g.db"
    hub = Hub(Store(db))
    scenario = load_scenario("cgme/skirmish")
    one, _ = hub.create(scenario, {}, 1, practice=True)
    two, _ = hub.create(load_scenario("cgme/skirmish"), {}, 2, practice=True)
    assert hub._get(one).game.scenario is hub._get(two).game.scenario
    hub.store.dispose()
    restarted = Hub(Store(db))  # rebuilt from the stored file: the same shared scenario
    assert restarted._get(one).game.scenario is hub._get(one).game.scenario
    assert shared_scenario(scenario.id, scenario.raw) is hub._get(two).game.scenario
    restarted.store.dispose()


def _fresh(hub: Hub, live: Any, side: str) -> Any:
    """The seat's message built anew (not from the cache), as JSON carries it."""
    return orjson.loads(orjson.dumps(hub._message(live, side)))


def test_a_cached_message_follows_every_change_and_undo(tmp_path: Path) -> None:
    hub = Hub(Store(f"sqlite:///{tmp_path}/g.db"))
    game, _ = hub.create(load_scenario("miniwars/bridge"), {}, 3, practice=True)
    live = hub._get(game)
    side = live.game.waiting_for()[0]
    before = hub.message(game, side)
    action = before["legal_actions"][0]
    hub.act(game, side, before["version"], action)
    after = hub.message(game, side)
    assert after["version"] == before["version"] + 1
    assert len(after["events"]) >= len(before["events"])
    assert after == _fresh(hub, live, side)
    hub.undo(game, side, after["version"])
    undone = hub.message(game, side)
    assert undone["version"] == before["version"]
    assert undone["events"] == before["events"]
    assert undone == _fresh(hub, live, side)
    hub.store.dispose()


def test_a_server_catches_up_with_another_before_it_acts(tmp_path: Path) -> None:
    """A game in memory is brought up to date before it is served or acted on: an action
    sent against the version another server has moved past is refused as stale, and the
    game is the one the database holds."""
    db = f"sqlite:///{tmp_path}/g.db"
    first, second = Hub(Store(db)), Hub(Store(db))
    game, _ = first.create(load_scenario("miniwars/bridge"), {}, 5, practice=True)
    seen = second.message(game, None)  # the second server has the game in memory too
    side = seen["waiting_for"][0]
    legal = first.message(game, side)["legal_actions"]
    assert len(legal) > 1
    first.act(game, side, 0, legal[0])
    assert second.message(game, None) == first.message(game, None)  # caught up
    with pytest.raises(Stale, match="at version 1, not 0"):
        second.act(game, side, 0, legal[-1])
    assert second._get(game).stored.actions == [(side, legal[0])]
    first.store.dispose()
    second.store.dispose()


def _step(hub: Hub, game: str) -> str:
    """The side to move takes its first move (or its first action); returns the side."""
    side: str = hub.message(game, None)["waiting_for"][0]
    state = hub.message(game, side)
    legal = state["legal_actions"]
    hub.act(
        game, side, state["version"], next((a for a in legal if a.startswith("move")), legal[0])
    )
    return side


@pytest.mark.parametrize("write", ["act", "undo"])
def test_a_write_lost_to_another_server_puts_the_game_back_as_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write: str
) -> None:
    """Memory never runs ahead of the store: when another server's change lands between
    this one's look at the stored revision and its write, the write (checked against the
    revision in its own transaction) is refused, nothing is stored, and this server
    rebuilds the game from the database."""
    db = f"sqlite:///{tmp_path}/g.db"
    first, second = Hub(Store(db)), Hub(Store(db))
    game, _ = first.create(load_scenario("miniwars/bridge"), {}, 1, practice=True)
    for _ in range(3):  # the vanguard chooses its entry, the guards fire and move
        side = _step(first, game)
    assert second.message(game, None)["version"] == 3  # the guards' move may be undone
    assert _step(first, game) == side
    stored = first.store.load(game)
    assert stored is not None
    # The second server looks at the revision just before the first server's change.
    monkeypatch.setattr(second.store, "revision", lambda _game: stored.revision - 1)
    with pytest.raises(Stale, match=r"stored first.*reload"):
        if write == "act":
            second.act(game, side, 3, second.message(game, side)["legal_actions"][-1])
        else:
            second.undo(game, side, 3)
    monkeypatch.undo()
    assert second.store.load(game) == stored  # untouched
    assert second.message(game, None) == first.message(game, None)
    assert second._get(game).stored.actions == stored.actions
    first.store.dispose()
    second.store.dispose()


def test_a_database_of_the_first_schema_is_upgraded_with_its_games(tmp_path: Path) -> None:
    """A server of this version opens a database made by the first schema (0001): its
    games get revision 0 and their creation as their last change, and play on."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    url = f"sqlite:///{tmp_path}/old.db"
    engine = create_engine(url)
    config = Config()
    config.set_main_option(
        "script_location", str(Path(__file__).parents[2] / "src/warbench/server/migrations")
    )
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(
            text(
                "insert into games (id, scenario_id, scenario, seed, created) "
                "values ('old', 'test/x', '{}', '3', 100.0)"
            )
        )
    engine.dispose()
    store = Store(url)
    stored = store.load("old")
    assert stored is not None and stored.revision == 0 and stored.updated == 100.0
    store.append("old", 0, [("a", "one")], 0)
    again = store.load("old")
    assert again is not None and again.revision == 1 and again.updated > 100.0
    with pytest.raises(StaleVersion, match="changed since revision 0"):
        store.append("old", 1, [("a", "two")], 0)  # a writer that has not seen revision 1
    store.dispose()
