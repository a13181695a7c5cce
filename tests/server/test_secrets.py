"""Secrets stay secret through the server (issue 15): in games of the rulesets with hidden
information (MGV's photon guesses and missile splits, Invisible Enemy's sealed purchases
and barrages), played to the end by two human seats through the HTTP API, no other seat's
reply, no spectator's and no WebSocket message ever holds a sealed choice not yet revealed,
and the board picture of a seat is drawn from that seat's view only."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from .conftest import Api


def _secrets(api: Api, game_id: str) -> dict[str, list[str]]:
    """The sealed choices not yet revealed, by side (read from the server's own game)."""
    live = api.hub._get(game_id)
    return {
        side: [str(t.action)]
        for side, t in {**live.game.pending_sealed(), **live.game.held_choices()}.items()
    }


def _leaks(message: Any, secrets: dict[str, list[str]], viewer: str | None) -> list[str]:
    text = json.dumps(message)
    return [
        f"{side}'s {secret!r} seen by {viewer or 'a spectator'}"
        for side, found in secrets.items()
        if side != viewer
        for secret in found
        if secret in text
    ]


@pytest.mark.parametrize("scenario", ["mgv/clear", "mgv/strike", "invisible-enemy/breach"])
def test_no_reply_holds_another_sides_secret(api: Api, scenario: str) -> None:
    made = api.new(scenario, seed=11)
    game = made["id"]
    tokens = {side: seat["token"] for side, seat in made["seats"].items()}
    rng = random.Random(5)
    sealed_seen = 0
    with api.client.websocket_connect(f"ws://localhost/api/games/{game}/live") as watcher:
        watcher.send_json({})
        watcher.receive_json()
        for _ in range(300):
            spectator = api.look(game)
            if spectator["outcome"] is not None:
                break
            side = spectator["waiting_for"][0]
            mine = api.look(game, tokens[side])
            action = rng.choice(mine["legal_actions"])
            r = api.act(game, tokens[side], mine["version"], action)
            assert r.status_code == 200, r.text
            secrets = _secrets(api, game)
            sealed_seen += any(secrets.values())
            leaks = _leaks(r.json(), secrets, side)
            for secret in secrets.get(side, []):  # its own side sees it: the check can see
                assert secret in json.dumps(r.json())
            for viewer in [None, *tokens]:
                message = api.look(game, tokens[viewer] if viewer else None)
                leaks += _leaks(message, secrets, viewer)
                board = api.client.get(
                    f"/api/games/{game}/board.svg",
                    headers={"Authorization": f"Bearer {tokens[viewer]}"} if viewer else {},
                )
                leaks += _leaks(board.text, secrets, viewer)
            leaks += _leaks(watcher.receive_json(), secrets, None)
            assert not leaks, leaks
    assert sealed_seen, "the game never asked a sealed choice: the test proved nothing"


def _by_eye(point: list[float]) -> bool:
    """A cell centre of the eye model (2-inch cells: odd whole numbers)."""
    x, y = point
    return x % 2 == 1 and y % 2 == 1


def _other_sides_points(mark: dict[str, Any], viewer: str | None) -> list[list[float]]:
    """The points of a mark that place a base of another side than ``viewer``: a move's
    path and a shot's firer (the marks a side gets are of the others' actions); for a
    spectator, a shot's target too."""
    points = list(mark.get("points") or [])
    points += [mark[k] for k in ("from", "at") if k in mark]
    if viewer is None and "to" in mark:
        points.append(mark["to"])
    return points


@pytest.mark.parametrize("scenario", ["mgv/clear", "invisible-enemy/breach"])
def test_the_marks_draw_the_other_side_by_eye_and_no_reach_while_measuring_is_barred(
    api: Api, scenario: str
) -> None:
    """The "what happened" marks (moves' paths, lines of fire) put the other side's bases
    where the viewer sees them by eye, never at the exact points moves ended at; while a
    range is guessed or markers go down the reach ring is withheld too."""
    made = api.new(scenario, seed=11)
    game = made["id"]
    tokens = {side: seat["token"] for side, seat in made["seats"].items()}
    rng = random.Random(5)
    rough_seen = marked_seen = 0
    for _ in range(400):
        spectator = api.look(game)
        if spectator["outcome"] is not None:
            break
        for viewer in [None, *tokens]:
            message = api.look(game, tokens[viewer] if viewer else None)
            for mark in message["recent"]["marks"]:
                marked_seen += 1
                points = _other_sides_points(mark, viewer)
                assert all(_by_eye(p) for p in points), (viewer, mark)
            if message["view"].get("positions"):
                rough_seen += 1
                if viewer is not None:
                    for figure in message["view"]["figures"]:
                        if figure["side"] == viewer and figure.get("x") is not None:
                            reach = api.client.get(
                                f"/api/games/{game}/reach?piece={figure['id']}",
                                headers={"Authorization": f"Bearer {tokens[viewer]}"},
                            ).json()
                            assert reach == {"reach": None}
        side = spectator["waiting_for"][0]
        mine = api.look(game, tokens[side])
        moves = [a for a in mine["legal_actions"] if a.startswith("move ")]
        action = rng.choice(moves or mine["legal_actions"])
        assert api.act(game, tokens[side], mine["version"], action).status_code == 200
    assert rough_seen, "measuring was never barred: the test proved nothing"
    assert marked_seen, "no marks were ever drawn: the test proved nothing"
