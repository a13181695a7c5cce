"""The eye and the dice swaps through the server (issue 24; the Python API's are in
``tests/conformance/test_eye_and_dice.py``, the sealed-choice swap in
``test_secrets.py``).

A game is played a little through the HTTP API; then, in the server's own live game,
(b) every base a viewer sees by eye is moved within its eye cell, or (c) the dice's
future is redrawn. Everything the viewer receives over HTTP and the WebSocket must
be what it was: the seat's message (view, legal actions, form, marks), the board
picture, ``info`` on every base, ``measure`` between them, odds of its listed
actions, and its pieces' reach.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from tests.conformance.test_eye_and_dice import shift_within_the_eye

from warbench.core.dice import Dice

from .conftest import Api

VOLATILE = ("updated",)
"""Message keys that tell the time, not the game."""


def _received(api: Api, game: str, token: str | None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    message = api.look(game, token)
    for key in VOLATILE:
        message.pop(key, None)
    ids = [f["id"] for f in message["view"]["figures"] if f.get("x") is not None]
    got: dict[str, Any] = {"message": message}
    got["board"] = api.client.get(f"/api/games/{game}/board.svg", headers=headers).text
    got["info"] = [
        api.client.get(f"/api/games/{game}/info", params={"ref": i}, headers=headers).json()
        for i in ids
    ]
    with api.client.websocket_connect(
        f"ws://localhost/api/games/{game}/live", headers=headers
    ) as ws:
        ws.send_json({})
        live = ws.receive_json()
        for key in VOLATILE:
            live.pop(key, None)
        got["websocket"] = live
    if token is None:
        return got
    got["measure"] = [
        api.client.get(
            f"/api/games/{game}/measure", params={"a": a, "b": b}, headers=headers
        ).json()
        for a, b in itertools.pairwise(ids)
    ]
    listed = message["legal_actions"][:8]
    got["explain"] = api.client.post(
        f"/api/games/{game}/explain", json={"actions": listed}, headers=headers
    ).json()
    mine = [f["id"] for f in message["view"]["figures"] if f["side"] == message["you"]]
    got["reach"] = [
        api.client.get(f"/api/games/{game}/reach", params={"piece": p}, headers=headers).json()
        for p in mine
    ]
    return got


def _played(api: Api, scenario: str, actions: int) -> tuple[str, dict[str, str]]:
    made = api.new(scenario, seed=11)
    game = made["id"]
    tokens = {side: seat["token"] for side, seat in made["seats"].items()}
    rng = random.Random(3)
    for _ in range(actions):
        spectator = api.look(game)
        if spectator["outcome"] is not None:
            break
        side = spectator["waiting_for"][0]
        mine = api.look(game, tokens[side])
        moves = [a for a in mine["legal_actions"] if a.startswith("move ")]
        action = rng.choice(moves or mine["legal_actions"])
        assert api.act(game, tokens[side], mine["version"], action).status_code == 200
    return game, tokens


@pytest.mark.parametrize("scenario", ["mgv/clear", "invisible-enemy/company"])
def test_moving_bases_within_the_eye_changes_nothing_a_viewer_receives(
    api: Api, scenario: str
) -> None:
    game, tokens = _played(api, scenario, 12)
    live = api.hub._get(game)
    rng = random.Random(9)
    for viewer in [None, *tokens]:
        token = tokens.get(viewer) if viewer else None
        before = _received(api, game, token)
        saved = live.game.state
        live.game.state = live.game.ruleset.copy_state(saved)
        shift_within_the_eye(live.game, live.game.view(viewer), rng)
        assert live.game.ruleset.state_json(live.game.state) != live.game.ruleset.state_json(saved)
        live.changed()
        after = _received(api, game, token)
        live.game.state = saved
        live.changed()
        for key in before:
            assert before[key] == after[key], f"{viewer or 'a spectator'} told apart by {key}"


@pytest.mark.parametrize("scenario", ["mgv/clear", "invisible-enemy/company"])
def test_redrawing_the_future_dice_changes_nothing_a_viewer_receives(
    api: Api, scenario: str
) -> None:
    game, tokens = _played(api, scenario, 6)
    live = api.hub._get(game)
    for viewer in [None, *tokens]:
        token = tokens.get(viewer) if viewer else None
        before = _received(api, game, token)
        saved = live.game.dice
        live.game.dice = Dice(987654321)  # another future from here on
        live.changed()
        after = _received(api, game, token)
        live.game.dice = saved
        live.changed()
        assert before == after, f"{viewer or 'a spectator'} can tell the future dice apart"
