"""The HTTP and WebSocket API of ``warbench serve`` (issue 15): every endpoint and every
error, games kept across a restart, bots answering before the reply."""

from __future__ import annotations

import json
import os
import re
import signal
from typing import Any

import pytest
from fastapi.testclient import TestClient

from warbench.core.replay import replay_record
from warbench.server.app import BOT_NICENESS, create_app

from .conftest import Api

DANVILLE_TOML = """
ruleset = "miniwars"
title = "A tiny fight"
turn_limit = 3
[map]
columns = 4
rows = 3
[[sides]]
name = "a"
[[sides]]
name = "b"
[forces]
a = [{ id = "A1", type = "militia", at = "0101" }]
b = [{ id = "B1", type = "militia", at = "0403" }]
"""


def test_scenarios_and_bots_are_listed(api: Api) -> None:
    scenarios = api.client.get("/api/scenarios").json()
    first = {"id": "miniwars/bridge", "ruleset": "miniwars", "title": "Hold the Bridge"}
    assert scenarios[0] == {**first, "calibration": False, "first": True}  # the first game leads
    kinds = [s["calibration"] for s in scenarios]
    assert kinds == sorted(kinds) and kinds[-1]  # the calibration arenas come last
    assert all(s["calibration"] == s["id"].endswith("/arena") for s in scenarios)
    suggested = api.client.get("/api/first-game").json()
    assert suggested["scenario"] == "miniwars/bridge" and "greedy" in suggested["seats"].values()
    info = api.client.get("/api/scenarios/miniwars/bridge").json()
    assert info["sides"] == ["guards", "vanguard"] and info["goal"]
    assert api.client.get("/api/scenarios/nope/nothing").status_code == 404
    assert {"random", "greedy", "mcts"} <= set(api.client.get("/api/bots").json())


def test_a_new_game_gives_a_secret_link_per_human_seat(api: Api) -> None:
    made = api.new("miniwars/bridge", {"vanguard": "greedy"}, seed=3)
    token = made["seats"]["guards"]["token"]
    assert made["seats"]["vanguard"] == {"player": "greedy", "token": None}
    assert made["links"] == {"guards": f"/play/{made['id']}#seat={token}"}
    assert made["spectate"] == f"/play/{made['id']}"
    seen = api.look(made["id"], token)
    assert seen["you"] == "guards" and seen["players"] == {"guards": "human", "vanguard": "greedy"}
    assert seen["waiting_for"] == ["guards"] and "end" in seen["legal_actions"]
    watcher = api.look(made["id"])
    assert watcher["you"] is None and watcher["legal_actions"] == []


def test_bad_new_games_are_clear_errors(api: Api) -> None:
    post = api.client.post
    cases = [
        ({"scenario": "miniwars/nowhere"}, 400, "no built-in scenario 'miniwars/nowhere'"),
        ({"scenario": "pyproject.toml"}, 400, "no built-in scenario"),  # never a server path
        ({}, 400, "give a built-in scenario id"),
        ({"scenario": "miniwars/bridge", "seats": {"elves": "random"}}, 400, "no side elves"),
        ({"scenario": "miniwars/bridge", "seats": {"guards": "wizard"}}, 400, "wizard"),
        ({"scenario_toml": "ruleset = [", "seats": {}}, 400, "uploaded scenario"),
        (
            {"scenario_toml": DANVILLE_TOML.replace('"militia"', '"dragons"', 1)},
            400,
            "forces.a[0].type",
        ),
        (
            {"scenario": "miniwars/bridge", "seed": -1},
            422,
            "seed: Input should be greater than or equal to 0",
        ),
    ]
    for body, status, words in cases:
        r = post("/api/games", json=body)
        assert r.status_code == status, (body, r.text)
        if words:
            assert words in r.json()["error"], r.json()
    big = {"scenario_toml": "# " + "x" * (1024 * 1024 + 10)}  # (see below for the rest)
    r = post("/api/games", content=json.dumps(big), headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_an_uploaded_scenario_is_played(api: Api) -> None:
    r = api.client.post(
        "/api/games", json={"scenario_toml": DANVILLE_TOML, "seats": {"b": "random"}}
    )
    assert r.status_code == 201, r.text
    made = r.json()
    assert api.look(made["id"], made["seats"]["a"]["token"])["scenario"]["title"] == "A tiny fight"


def test_acting_stores_the_action_and_the_bots_answer(api: Api) -> None:
    made = api.new("miniwars/bridge", {"vanguard": "greedy"}, seed=3)
    game, token = made["id"], made["seats"]["guards"]["token"]
    answered = False
    for _ in range(12):
        before = api.look(game, token)
        if before["outcome"] is not None:
            break
        assert before["waiting_for"] == ["guards"]  # the bots have had their say
        choice = "end" if "end" in before["legal_actions"] else before["legal_actions"][0]
        r = api.act(game, token, before["version"], choice)  # waits for the bots, as a client
        assert r.status_code == 200, r.text
        assert r.json()["version"] == before["version"] + 1  # acknowledged at once: stored
        stored = api.hub.store.load(game)
        assert stored.actions[before["version"]] == ("guards", choice)
        later = stored.actions[before["version"] + 1 :]
        assert {side for side, _ in later} <= {"vanguard"}
        answered = answered or bool(later)
        assert api.look(game, token)["version"] == len(stored.actions)
    assert answered, "the bot never answered"


def test_action_errors(api: Api) -> None:
    made = api.new("miniwars/bridge", {"vanguard": "greedy"}, seed=3)
    other = api.new("miniwars/bridge", {"vanguard": "greedy"}, seed=4)
    game, token = made["id"], made["seats"]["guards"]["token"]
    version = api.look(game, token)["version"]
    r = api.act(game, token, version, "move G1 0909")
    assert r.status_code == 422 and "illegal action 'move G1 0909'" in r.json()["error"]
    r = api.act(game, token, version, "dance wildly")
    assert r.status_code == 422
    assert api.look(game, token)["version"] == version  # nothing changed
    r = api.act(game, token, version + 5, "end")
    assert r.status_code == 409 and "not " + str(version + 5) in r.json()["error"]
    assert r.json()["state"]["version"] == version
    assert api.act(game, None, version, "end").status_code == 401
    r = api.act(game, other["seats"]["guards"]["token"], version, "end")
    assert r.status_code == 403 and "opens no seat of this game" in r.json()["error"]
    r = api.client.get(f"/api/games/{game}", headers={"Authorization": "Basic abc"})
    assert r.status_code == 403
    assert api.client.get("/api/games/0000").status_code == 404
    r = api.act(game, token, version, "x" * 2001)
    assert r.status_code == 422


def test_not_your_turn(api: Api) -> None:
    made = api.new("miniwars/bridge", seed=3)
    tokens = {side: s["token"] for side, s in made["seats"].items()}
    seen = api.look(made["id"], tokens["guards"])
    idle = next(s for s in ("guards", "vanguard") if s not in seen["waiting_for"])
    r = api.act(made["id"], tokens[idle], seen["version"], "end")
    assert r.status_code == 422 and f"it is not {idle}'s turn" in r.json()["error"]


def test_a_restarted_server_has_every_game_and_action(api: Api) -> None:
    made = api.new("miniwars/bridge", {"vanguard": "greedy"}, seed=3)
    game, token = made["id"], made["seats"]["guards"]["token"]
    for _ in range(3):
        seen = api.look(game, token)
        if seen["outcome"]:
            break
        assert api.act(game, token, seen["version"], seen["legal_actions"][0]).status_code == 200
    here = api.look(game, token)
    with TestClient(create_app(api.db), base_url="http://localhost") as again:
        there = again.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {token}"}).json()
    # The legal actions are the same; their order may follow the game's history in memory.
    assert sorted(there.pop("legal_actions")) == sorted(here.pop("legal_actions"))
    assert there == here


def test_the_board_and_the_record(api: Api) -> None:
    made = api.new("miniwars/bridge", {"vanguard": "greedy"}, seed=3)
    r = api.client.get(f"/api/games/{made['id']}/board.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in r.text and "Hold the Bridge" in r.text
    r = api.client.get(f"/api/games/{made['id']}/record")
    assert r.status_code == 409 and "once the game is over" in r.json()["error"]
    done = api.new("miniwars/bridge", {"guards": "random", "vanguard": "random"}, seed=5)
    assert api.look(done["id"])["outcome"] is not None  # bots alone play it out at once
    record = api.client.get(f"/api/games/{done['id']}/record").json()
    assert record["players"] == {"guards": "random", "vanguard": "random"}
    replayed = replay_record(record, "downloaded")
    assert replayed.is_over


def test_live_updates_reach_every_watcher_with_its_own_view(api: Api) -> None:
    made = api.new("miniwars/bridge", seed=3)
    game = made["id"]
    tokens = {side: s["token"] for side, s in made["seats"].items()}
    with (
        api.client.websocket_connect(f"ws://localhost/api/games/{game}/live") as guards_ws,
        api.client.websocket_connect(f"ws://localhost/api/games/{game}/live") as watcher_ws,
    ):
        guards_ws.send_json({"token": tokens["guards"]})
        watcher_ws.send_json({})
        first = guards_ws.receive_json()
        assert first["you"] == "guards"
        assert watcher_ws.receive_json()["you"] is None
        side = first["waiting_for"][0]
        seen = api.look(game, tokens[side])
        assert (
            api.act(game, tokens[side], seen["version"], seen["legal_actions"][0]).status_code
            == 200
        )
        update = guards_ws.receive_json()
        assert update["you"] == "guards" and update["version"] == seen["version"] + 1
        assert watcher_ws.receive_json()["version"] == seen["version"] + 1
    with api.client.websocket_connect(f"ws://localhost/api/games/{game}/live") as bad:
        bad.send_json({"token": "not-a-token"})
        assert "opens no seat" in bad.receive_json()["error"]


def _to_phase(api: Api, game: str, token: str, words: str) -> dict[str, Any]:
    """Take the first legal loose choice until the seat is asked ``words``."""
    for _ in range(30):
        seen = api.look(game, token)
        if words in (seen["view"]["decision"] or {}).get("prompt", ""):
            return seen
        choice = "choose A" if "choose A" in seen["legal_actions"] else "end"
        assert api.act(game, token, seen["version"], choice).status_code == 200
    raise AssertionError(f"never asked {words}")


def test_explain_gives_costs_odds_and_refusals_from_the_seat(api: Api) -> None:
    made = api.new("miniwars/bridge", {"vanguard": "greedy"}, seed=2)
    game, token = made["id"], made["seats"]["guards"]["token"]
    seen = _to_phase(api, game, token, "fire UNIT TARGET")
    fire = next(a for a in seen["legal_actions"] if a.startswith("fire G1"))
    r = api.client.post(
        f"/api/games/{game}/explain",
        json={"actions": [fire, "fire G1 GO", "fly away"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 200, r.text
    shot, friend, nonsense = r.json()
    assert shot["refusal"] is None and "needs 6+" in shot["odds"] and "%" in shot["odds"]
    assert friend["refusal"] and nonsense["refusal"]
    assert (
        api.client.post(f"/api/games/{game}/explain", json={"actions": [fire]}).status_code == 401
    )
    seen = _to_phase(api, game, token, "move UNIT HEX")
    moves = [a for a in seen["legal_actions"] if a.startswith("move T1")]
    r = api.client.post(
        f"/api/games/{game}/explain",
        json={"actions": moves},
        headers={"Authorization": f"Bearer {token}"},
    )
    costs = {n["action"]: n["cost"] for n in r.json()}
    assert all(c.endswith("of 3 MP") for c in costs.values()), costs
    assert len(r.json()) == len(moves)


def test_info_undo_and_pictures(api: Api) -> None:
    made = api.new("miniwars/bridge", {"vanguard": "greedy"}, seed=2)
    game, token = made["id"], made["seats"]["guards"]["token"]
    r = api.client.get(f"/api/games/{game}/info", params={"ref": "G1"})
    assert r.status_code == 200 and any("Town Guardsmen" in line for line in r.json()["lines"])
    seen = _to_phase(api, game, token, "move UNIT HEX")
    move = next(a for a in seen["legal_actions"] if a.startswith("move T1"))
    after = api.act(game, token, seen["version"], move).json()
    auth = {"Authorization": f"Bearer {token}"}
    r = api.client.post(f"/api/games/{game}/undo", json={"version": after["version"]}, headers=auth)
    assert r.status_code == 200, r.text
    assert r.json()["version"] == seen["version"]
    assert len(api.hub.store.load(game).actions) == seen["version"]  # the store follows
    r = api.client.post(f"/api/games/{game}/undo", json={"version": seen["version"]}, headers=auth)
    assert r.status_code == 422  # the rules' own refusal, word for word
    assert r.json()["error"] == "the last action was vanguard's; only vanguard may take it back"
    r = api.client.post(f"/api/games/{game}/undo", json={"version": 0}, headers=auth)
    assert r.status_code == 409
    png = api.client.get(f"/api/games/{game}/board.png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    assert api.client.get(f"/api/games/{game}/at/0").status_code == 409  # not over yet


def test_a_finished_game_replays_action_by_action(api: Api) -> None:
    made = api.new("miniwars/bridge", {"guards": "random", "vanguard": "random"}, seed=5)
    game = made["id"]
    total = api.look(game)["actions_total"]
    start = api.client.get(f"/api/games/{game}/at/0").json()
    middle = api.client.get(f"/api/games/{game}/at/{total // 2}").json()
    end = api.client.get(f"/api/games/{game}/at/{total}").json()
    assert start["version"] == 0 and middle["version"] == total // 2 and end["version"] == total
    assert start["actions_total"] == total and end["outcome"] is not None
    assert len(start["events"]) < len(middle["events"]) < len(end["events"])
    assert api.client.get(f"/api/games/{game}/at/{total + 1}").status_code == 404
    svg = api.client.get(f"/api/games/{game}/board.svg", params={"at": 0})
    assert svg.status_code == 200 and "<svg" in svg.text


def test_an_uploaded_file_is_checked_before_a_game_is_made(api: Api) -> None:
    r = api.client.post("/api/scenarios/check", json={"scenario_toml": DANVILLE_TOML})
    assert r.status_code == 200, r.text
    assert r.json()["sides"] == ["a", "b"] and r.json()["title"] == "A tiny fight"
    bad = DANVILLE_TOML.replace('at = "0403"', 'at = "0909"')
    r = api.client.post("/api/scenarios/check", json={"scenario_toml": bad})
    assert r.status_code == 400 and "uploaded scenario" in r.json()["error"]
    assert "forces.b[0].at" in r.json()["error"]


def test_measuring_follows_the_rules_of_the_seat(api: Api) -> None:
    made = api.new("mgv/clear", {"red": "random"}, seed=1)
    game, token = made["id"], made["seats"]["blue"]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    r = api.client.get(f"/api/games/{game}/measure", params={"a": "B1", "b": "R1"}, headers=auth)
    assert r.status_code == 422 and "5.3 forbids pre-measuring" in r.json()["error"]
    r = api.client.get(f"/api/games/{game}/measure", params={"a": "B1", "b": "B2"}, headers=auth)
    assert r.status_code == 200 and '"' in r.json()["answer"]
    r = api.client.get(f"/api/games/{game}/measure", params={"a": "B1", "b": "B2"})
    assert r.status_code == 401


def test_arcs_of_fire_on_demand_for_the_seats_own_pieces_only(api: Api) -> None:
    made = api.new("vsgmr/street", {"blue": "random"}, seed=1)
    game, token = made["id"], made["seats"]["red"]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    own = api.client.get(f"/api/games/{game}/board.svg", params={"arcs": "R2"}, headers=auth)
    assert own.status_code == 200 and 'class="overlay arc"' in own.text
    theirs = api.client.get(f"/api/games/{game}/board.svg", params={"arcs": "B2"}, headers=auth)
    assert 'class="overlay arc"' not in theirs.text  # not another side's piece
    watcher = api.client.get(f"/api/games/{game}/board.svg", params={"arcs": "R2"})
    assert 'class="overlay arc"' not in watcher.text  # a spectator has no pieces
    plain = api.client.get(f"/api/games/{game}/board.svg", headers=auth)
    assert 'class="overlay arc"' not in plain.text


def test_mgv_arcs_follow_the_weapons_the_side_chose(api: Api) -> None:
    made = api.new("mgv/clear", {"red": "random"}, seed=1)
    game, token = made["id"], made["seats"]["blue"]["token"]
    seen = api.look(game, token)
    arm = next(a for a in seen["legal_actions"] if "missile" in a and "kinetic" in a)
    assert api.act(game, token, seen["version"], arm).status_code == 200
    auth = {"Authorization": f"Bearer {token}"}
    svg = api.client.get(f"/api/games/{game}/board.svg", params={"arcs": "B1"}, headers=auth)
    halves = set(re.findall(r'data-half-angle="([0-9.]+)"', svg.text))
    mounts = api.hub._get(game).game.state.bases["B1"].mounts.values()
    kinds = {m.weapon == "missile" for m in mounts if m.weapon is not None}
    assert len(halves) == len(kinds) >= 1  # a missile mount's arc is the wider one
    red = api.hub._get(game).game.seat("red")
    assert red.fire_arcs("B1") == []  # red may not learn blue's weapons from the arcs


def test_bots_in_a_process_that_dies_are_started_again(db_url: str) -> None:
    """With --bot-processes the bots think in a spawned process; if it is killed, the
    next bot turn starts a new one and the game goes on."""
    with TestClient(create_app(db_url, bot_processes=1), base_url="http://localhost") as client:
        api = Api(client, db_url)
        seats = {"guards": "random", "vanguard": "random"}
        first = api.new("miniwars/bridge", seats, seed=1)
        assert api.look(first["id"])["outcome"] is not None
        pool = client.app.state.bots._pool  # type: ignore[attr-defined]
        for process in list(pool._processes.values()):
            os.kill(process.pid, signal.SIGKILL)
        second = api.new("miniwars/bridge", seats, seed=2)
        assert api.look(second["id"])["outcome"] is not None
        assert client.app.state.bots._pool is not pool  # type: ignore[attr-defined]


def test_bot_processes_think_at_a_lower_priority(db_url: str) -> None:
    """A bot's long think never takes the processor from a person's request: the bot
    processes run ``BOT_NICENESS`` steps nicer than the server."""
    with TestClient(create_app(db_url, bot_processes=1), base_url="http://localhost") as client:
        pool = client.app.state.bots._pool  # type: ignore[attr-defined]
        assert pool.submit(os.nice, 0).result(timeout=60) == min(19, os.nice(0) + BOT_NICENESS)


def test_a_seat_over_the_network_names_only_a_registered_bot(
    api: Api, capfd: pytest.CaptureFixture[str]
) -> None:
    """``module:attr`` would import any module and call any function on the server
    (``builtins:print`` printed, ``os:_exit`` would stop it): over the API a seat is
    ``human`` or a registered bot, with its options checked."""
    post = api.client.post
    for seat in ("builtins:print", "os:_exit", "warbench.bots.random_bot:RandomBot"):
        r = post("/api/games", json={"scenario": "miniwars/bridge", "seats": {"guards": seat}})
        assert r.status_code == 400, r.text
        assert "unknown bot" in r.json()["error"] and "command line" in r.json()["error"]
    assert "0" not in capfd.readouterr().out  # print was never called
    r = post("/api/games", json={"scenario": "miniwars/bridge", "seats": {"guards": "mcts:nope=1"}})
    assert r.status_code == 400 and "no option 'nope'" in r.json()["error"]
    r = post(
        "/api/games",
        json={"scenario": "miniwars/bridge", "seats": {"guards": "mcts:iterations=8"}},
    )
    assert r.status_code == 201


def test_an_unknown_key_in_any_body_is_refused_by_name(api: Api) -> None:
    """``players`` for ``seats`` used to make both seats human without a word."""
    r = api.client.post(
        "/api/games", json={"scenario": "miniwars/bridge", "players": {"guards": "greedy"}}
    )
    assert r.status_code == 422 and "unknown key 'players'" in r.json()["error"]
    made = api.new("miniwars/bridge")
    game, token = made["id"], made["seats"]["guards"]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    for path, body in (
        ("actions", {"version": 0, "action": "end", "side": "vanguard"}),
        ("undo", {"version": 0, "force": True}),
        ("explain", {"actions": ["end"], "as": "vanguard"}),
    ):
        r = api.client.post(f"/api/games/{game}/{path}", json=body, headers=headers)
        assert r.status_code == 422, (path, r.text)
        assert "unknown key" in r.json()["error"], r.json()
    assert api.look(game, token)["version"] == 0  # nothing changed


def test_each_bot_says_how_long_it_takes_and_whether_it_takes_a_time_limit(api: Api) -> None:
    about = {b["name"]: b for b in api.client.get("/api/bots/about?ruleset=mgv").json()}
    assert about["mcts"]["time_limit"] and not about["greedy"]["time_limit"]
    assert about["greedy"]["seconds"] < about["mcts"]["seconds"]  # measured, per ruleset
    get = api.client.get
    full = get("/api/bots/estimate?ruleset=mgv&bot=mcts").json()["seconds"]
    capped = get("/api/bots/estimate?ruleset=mgv&bot=mcts:time=0.5").json()["seconds"]
    assert capped == 0.5 < full
    assert get("/api/bots/estimate?ruleset=mgv&bot=mcts:iterations=10").json()["seconds"] < full
    bad = get("/api/bots/estimate?ruleset=mgv&bot=os:_exit")
    assert bad.status_code == 400 and "unknown bot" in bad.json()["error"]


def test_the_dice_of_a_game_with_a_person_in_it_are_secret(api: Api) -> None:
    """Issue 24 (fair point 1, on the server): a seed tells every future die, so a game
    with a person in it takes none unless it is a practice game; without one the server
    draws a secret seed, which no reply, state or board holds before the game ends, and
    the bots' seeds, drawn from it, are as secret."""
    post = api.client.post
    refused = post(
        "/api/games",
        json={"scenario": "miniwars/bridge", "seats": {"vanguard": "greedy"}, "seed": 7},
    )
    assert refused.status_code == 400 and "practice" in refused.json()["error"]
    made = [
        post("/api/games", json={"scenario": "miniwars/bridge", "seats": {"vanguard": "greedy"}})
        for _ in range(2)
    ]
    assert all(r.status_code == 201 for r in made)
    seeds = [api.hub._get(r.json()["id"]).stored.seed for r in made]
    assert seeds[0] != seeds[1] and min(seeds) > 2**20  # drawn, not a default
    game, token = made[0].json()["id"], made[0].json()["seats"]["guards"]["token"]
    api.settle(game)
    seen = [made[0].text, json.dumps(api.look(game, token)), json.dumps(api.look(game))]
    seen.append(api.client.get(f"/api/games/{game}/board.svg").text)
    assert not any(str(seeds[0]) in text for text in seen)
    assert api.client.get(f"/api/games/{game}/record").status_code == 409  # not before the end
    practice = post(
        "/api/games",
        json={"scenario": "miniwars/bridge", "seats": {}, "seed": 7, "practice": True},
    )
    assert practice.status_code == 201 and api.hub._get(practice.json()["id"]).stored.seed == 7
    bots = post(
        "/api/games",
        json={
            "scenario": "miniwars/bridge",
            "seats": {"guards": "random", "vanguard": "random"},
            "seed": 9,
        },
    )
    assert bots.status_code == 201  # nobody to foresee the dice of
    api.settle(bots.json()["id"])
    assert api.client.get(f"/api/games/{bots.json()['id']}/record").json()["seed"] == 9


def test_a_barrage_marker_set_down_is_not_undone_through_the_server(api: Api) -> None:
    """Placed is placed at the server too: the undo of a marker is refused with the rule,
    and the game is as it was."""
    import random

    made = api.new("invisible-enemy/breach", seed=11)
    game = made["id"]
    tokens = {side: seat["token"] for side, seat in made["seats"].items()}
    rng = random.Random(5)
    for _ in range(800):
        side = api.look(game)["waiting_for"][0]
        mine = api.look(game, tokens[side])
        markers = [a for a in mine["legal_actions"] if a.startswith("barrage ")]
        if markers:
            break
        assert api.act(game, tokens[side], mine["version"], rng.choice(mine["legal_actions"]))
    else:
        raise AssertionError("no barrage marker was asked")
    placed = api.act(game, tokens[side], mine["version"], markers[0]).json()
    r = api.client.post(
        f"/api/games/{game}/undo",
        json={"version": placed["version"]},
        headers={"Authorization": f"Bearer {tokens[side]}"},
    )
    assert r.status_code == 422 and "never moved again (3.0)" in r.json()["error"]
    assert api.look(game, tokens[side])["version"] == placed["version"]


def test_a_new_game_takes_the_scenarios_options_and_refuses_unknown_ones(api: Api) -> None:
    about = api.client.get("/api/scenarios/mgv/clear").json()
    offered = {o["key"]: o for o in about["options"]}
    assert offered["measuring"]["value"] == "eye" and "free" in offered["measuring"]["choices"]
    made = api.client.post(
        "/api/games", json={"scenario": "mgv/clear", "options": {"measuring": "free"}}
    )
    assert made.status_code == 201, made.text
    view = api.look(made.json()["id"])["view"]
    assert view["options"]["measuring"] == "free" and "eye" not in view
    for options, why in (
        ({"measuring": "rough"}, "options.measuring: eye or free, not 'rough'"),
        ({"speed": "3"}, "no option 'speed' (options: core_rule, "),
    ):
        r = api.client.post("/api/games", json={"scenario": "mgv/clear", "options": options})
        assert r.status_code == 400 and why in r.json()["error"], r.text


def test_the_difficulty_levels_are_offered_with_what_each_does_and_its_time(api: Api) -> None:
    """easy, normal and hard (issue 26, point 5): listed first, each saying what it does and
    the bot it stands for, hard under a time limit per decision that a seat may change."""
    names = api.client.get("/api/bots").json()
    assert names[:3] == ["easy", "normal", "hard"]
    about = {b["name"]: b for b in api.client.get("/api/bots/about?ruleset=miniwars").json()}
    assert about["easy"]["level"] and "(greedy)" in about["easy"]["about"]
    assert "(planner)" in about["normal"]["about"] and "(search:time=1)" in about["hard"]["about"]
    assert about["hard"]["time_limit"] and about["hard"]["seconds"] == 1.0
    get = api.client.get
    assert get("/api/bots/estimate?ruleset=miniwars&bot=hard:time=0.5").json()["seconds"] == 0.5
    made = api.client.post(
        "/api/games",
        json={"scenario": "miniwars/bridge", "seats": {"guards": "human", "vanguard": "hard"}},
    )
    assert made.status_code == 201, made.text
