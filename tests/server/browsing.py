"""What the browser tests share: waiting for a page to show the board of the game's
current version, opening a seat's page, clicking a piece's centre as a person aims, and
playing a game on through the API to the moment a test needs."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from warbench.server.client import ApiClient

SIZES = {"desktop": (1366, 850), "phone": (390, 844)}
"""The two screens every browser test may run at: a laptop and a phone."""


def settled(page: Page) -> None:
    """Wait until the page shows a board, drawn for the version it shows."""
    page.wait_for_function(
        "document.body.dataset.version && document.querySelector('#board svg g.board') && "
        "document.querySelector('#board').dataset.version == document.body.dataset.version"
    )


def click_centre(page: Page, selector: str, tap: bool = False) -> None:
    """Click (or tap) the centre of what ``selector`` finds, as a person aims at a
    figure's middle."""
    found = page.locator(selector).first
    found.scroll_into_view_if_needed()
    box = found.bounding_box()
    assert box is not None, selector
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if tap:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def until_move(api: ApiClient, game: str, tokens: dict[str, str], side: str) -> dict[str, Any]:
    """Play each asked seat's last legal action (often ``end``) until ``side`` may move;
    returns ``side``'s state then."""
    for _ in range(200):
        asked = api.state(game)["waiting_for"][0]
        seen = api.state(game, tokens[asked])
        if asked == side and any(a.startswith("move ") for a in seen["legal_actions"]):
            return seen
        api.act(game, tokens[asked], seen["version"], seen["legal_actions"][-1])
    raise AssertionError(f"{side} never had a move")
