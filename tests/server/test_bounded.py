"""A server keeps at most ``--live-games`` games in memory and rebuilds the others from the
database, identical; a stored game that no longer replays (a row edited by hand) is
answered with a clear error naming it as damaged, the other games are served, and once
the row is repaired the game is back (issue 27)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text, update

from warbench.cli.main import main
from warbench.server.app import create_app
from warbench.server.store import actions

from .conftest import Api


def _play(api: Api, game: str, tokens: dict[str, str], count: int) -> None:
    for _ in range(count):
        side = api.look(game)["waiting_for"][0]
        state = api.look(game, tokens[side])
        legal = state["legal_actions"]
        action = next((a for a in legal if a.startswith("move")), legal[0])
        reply = api.act(game, tokens[side], state["version"], action)
        assert reply.status_code == 200, reply.text


def _tokens(made: dict[str, Any]) -> dict[str, str]:
    return {side: seat["token"] for side, seat in made["seats"].items()}


def test_at_most_live_games_are_kept_and_the_others_come_back_identical(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    with TestClient(create_app(db, live_games=3), base_url="http://localhost") as client:
        api = Api(client, db)
        made = [api.new(("miniwars/bridge", "cgme/skirmish")[k % 2], seed=k) for k in range(8)]
        states: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
        for k, game in enumerate(made):
            tokens = _tokens(game)
            _play(api, game["id"], tokens, 2 + k % 3)
            assert len(api.hub._live) <= 3
            seat = api.look(game["id"])["waiting_for"][0]
            states[game["id"]] = (api.look(game["id"]), api.look(game["id"], tokens[seat]))
        assert len(api.hub._live) == 3
        assert made[0]["id"] not in api.hub._live  # the least recently used went first
        for game in made:  # every one rebuilt from the database (or still in memory)
            tokens = _tokens(game)
            spectator, seat = states[game["id"]]
            again = api.look(game["id"])
            assert again == spectator
            seat_again = api.look(game["id"], tokens[seat["you"]])
            assert {**seat_again, "legal_actions": sorted(seat_again["legal_actions"])} == {
                **seat,
                "legal_actions": sorted(seat["legal_actions"]),
            }
            assert len(api.hub._live) <= 3
        _play(api, made[0]["id"], _tokens(made[0]), 1)  # and an evicted game plays on
        assert api.look(made[0]["id"])["version"] == states[made[0]["id"]][0]["version"] + 1


def test_serve_takes_live_games(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "--live-games N" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:  # at least one game in memory
        main(["serve", "--live-games", "0"])
    assert refused.value.code == 2
    assert "--live-games: 0 is out of range" in capsys.readouterr().err


def test_a_damaged_row_is_a_clear_error_for_its_game_only(api: Api, db_url: str) -> None:
    one, two = api.new("miniwars/bridge", seed=1), api.new("miniwars/bridge", seed=2)
    _play(api, one["id"], _tokens(one), 3)
    _play(api, two["id"], _tokens(two), 3)
    engine = create_engine(db_url)
    row = actions.c.game_id == one["id"], actions.c.number == 2
    with engine.connect() as db:
        kept = db.execute(actions.select().where(*row)).one().action
    with engine.begin() as db:  # edited by hand: a move no unit can make
        db.execute(update(actions).where(*row).values(action="move G1 9999"))
    api.hub._live.clear()  # as after a restart (or once the game left memory)
    for _ in range(2):  # every time, not just the first
        reply = api.client.get(f"/api/games/{one['id']}")
        assert reply.status_code == 500
        error = reply.json()["error"]
        assert f"stored game '{one['id']}' is damaged" in error
        assert "action 2 (of 3) no longer replays" in error
        assert "9999" not in error  # an action's text may be a sealed choice: logged only
        assert reply.json()["damaged"] is True
    token = _tokens(one)["guards"]
    path, bearer = f"/api/games/{one['id']}/undo", {"Authorization": f"Bearer {token}"}
    undo = api.client.post(path, json={"version": 3}, headers=bearer)
    assert undo.status_code == 500 and "damaged" in undo.json()["error"]
    assert api.look(two["id"])["version"] == 3  # the other games are served
    mine = api.client.post(
        "/api/mine", json={"seats": [{"game": one["id"], "token": token}]}
    ).json()
    assert "damaged" in mine[0]["error"]
    with engine.begin() as db:  # repaired: the game is back
        db.execute(update(actions).where(*row).values(action=kept))
    assert api.look(one["id"])["version"] == 3
    engine.dispose()


def test_a_row_damaged_under_a_game_in_memory_is_found_at_the_next_change(
    api: Api, db_url: str
) -> None:
    """Another process stores a change to a game whose earlier row was edited: the game in
    memory catches up by replaying, finds the damage, says so and leaves memory."""
    one = api.new("miniwars/bridge", seed=1)
    _play(api, one["id"], _tokens(one), 3)
    engine = create_engine(db_url)
    with engine.begin() as db:
        db.execute(
            update(actions)
            .where(actions.c.game_id == one["id"], actions.c.number == 0)
            .values(action="choose Z")
        )
        db.execute(text("update games set revision = revision + 1 where id = :g"), {"g": one["id"]})
    engine.dispose()
    reply = api.client.get(f"/api/games/{one['id']}")
    assert reply.status_code == 500 and "is damaged" in reply.json()["error"]
    assert one["id"] not in api.hub._live
