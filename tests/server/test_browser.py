"""The browser client driven by Playwright in Debian's chromium, headless (issue 15): a game
made in the lobby, a unit moved with its cost shown and an attack made with its odds shown
before committing; a sealed choice entered in one browser context that the other never
shows; a replay with its timeline; a screenshot of each ruleset's board, saved under
``build/screenshots/`` to be looked at. ``make test`` installs chromium when it is absent, so
none of these is skipped."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from warbench.server.client import ApiClient, ApiError

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def _post(base: str, path: str, body: Any, token: str | None = None) -> Any:
    return ApiClient(base).call("POST", path, body, token)


def _get(base: str, path: str, token: str | None = None) -> Any:
    return ApiClient(base).call("GET", path, token=token)


def _take(page: Page, wanted: str) -> None:
    """Click the loose action ``wanted`` (a choice of the phase), confirm it, and wait
    until the page shows the game after it."""
    version = page.evaluate("document.body.dataset.version")
    page.locator("#choices button", has_text=wanted).first.click()
    page.locator("#pending button[data-action]").first.click()
    page.wait_for_function(f"document.body.dataset.version != '{version}'")


def _settled(page: Page) -> None:
    """Wait until the board drawn is the version the page shows."""
    page.wait_for_function(
        "document.body.dataset.version && "
        "document.querySelector('#board').dataset.version == document.body.dataset.version"
    )


def _until_prompt(page: Page, words: str, tries: int = 30) -> None:
    for _ in range(tries):
        page.wait_for_function(
            "document.querySelector('#status').textContent.includes('your move')"
        )
        _settled(page)
        if words in page.inner_text("#prompt"):
            return
        _take(page, "end" if "choose" not in page.inner_text("#prompt") else "choose A")
    raise AssertionError(f"never asked '{words}': {page.inner_text('#prompt')}")


def test_lobby_move_with_its_cost_and_attack_with_its_odds(base: str, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(base + "/")
    page.select_option("#scenario", "miniwars/bridge")
    page.wait_for_selector("#seat-vanguard")
    page.select_option("#seat-guards", "human")
    page.select_option("#seat-vanguard", "greedy")
    assert page.is_hidden("#seed")  # a game with a person in it: secret dice by default
    page.check("#practice")  # a practice game may choose its dice
    page.fill("#seed", "2")
    page.click("button[type=submit]")
    link = page.locator("#links a", has_text="Play guards")
    link.wait_for()
    link.click()
    page.wait_for_selector("#board svg [data-unit='G1']")
    assert "You play guards" in page.inner_text("#status")

    # Missile fire: G1's targets are marked, and the odds show before anything is rolled.
    _until_prompt(page, "fire UNIT TARGET")
    page.locator("svg [data-unit='G1']").click()
    try:
        page.wait_for_selector("svg .target", timeout=8_000)
    except Exception:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "miniwars-no-target.png"))
        print("prompt", page.inner_text("#prompt"), "status", page.inner_text("#status"))
        print("choices", page.inner_text("#choices"), "selected", page.inner_text("#selected"))
        raise
    events_before = page.locator("#events p").count()
    page.locator("svg .target").first.click()
    odds = page.locator("#pending .odds").first
    odds.wait_for()
    assert "hit" in odds.inner_text() and "%" in odds.inner_text()
    assert page.locator("#events p").count() == events_before  # nothing happened yet
    page.locator("#pending button[data-action^='fire G1']").click()
    page.wait_for_function(f"document.querySelectorAll('#events p').length > {events_before}")
    assert "G1" in page.inner_text("#events")

    # Movement: T1's destinations are highlighted with their cost; the move is made.
    _until_prompt(page, "move UNIT HEX")
    start = page.locator("svg [data-unit='T1']").get_attribute("data-hex")
    page.locator("svg [data-unit='T1']").click()
    page.wait_for_selector("svg polygon.dest")
    assert page.locator("svg text.cost").count() == page.locator("svg polygon.dest").count()
    target = page.locator("svg polygon.dest").first
    where = target.get_attribute("data-hex")
    target.click()
    assert "of 3 MP" in page.inner_text("#pending")
    page.locator("#pending button[data-action]").first.click()
    page.wait_for_selector(f"svg [data-unit='T1'][data-hex='{where}']")
    assert where != start
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "miniwars-played.png"))
    page.close()


def test_a_scenario_file_uploaded_in_the_lobby(base: str, browser: Browser, tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[2] / "src/warbench/rulesets/cgme/scenarios"
    mine = tmp_path / "my-skirmish.toml"
    mine.write_text(
        (source / "skirmish.toml")
        .read_text("utf-8")
        .replace('title = "Skirmish at the Ruins"', 'title = "My Own Skirmish"'),
        "utf-8",
    )
    broken = tmp_path / "broken.toml"
    broken.write_text("ruleset = 'cgme'\n", "utf-8")
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    page.goto(base + "/")
    page.wait_for_selector("#seats select")
    page.set_input_files("#upload", str(broken))
    page.wait_for_function(
        "document.querySelector('#problem').textContent.includes('broken') "
        "|| document.querySelector('#problem').textContent.length > 0"
    )
    assert "uploaded scenario" in page.inner_text("#problem")
    page.set_input_files("#upload", str(mine))
    page.wait_for_function(  # the upload's goal replaces the listed scenario's
        "document.querySelector('#goal').textContent.includes('destroyed more enemy value')"
    )
    page.select_option("#seat-red", "mcts")
    page.fill("#options-red", "iterations=8")
    page.click("button[type=submit]")
    page.locator("#links a", has_text="Play blue").click()
    page.wait_for_selector("#board svg")
    assert page.inner_text("#title") == "My Own Skirmish"
    game = page.url.split("/play/")[1].split("#")[0]
    assert _get(base, f"/api/games/{game}")["players"]["red"] == "mcts:iterations=8"
    page.close()


def test_a_move_drawn_on_an_open_table(base: str, browser: Browser) -> None:
    """MGV: a base's move drawn leg by leg with the rules' verdict (inches of the allowance,
    turning included) following the pointer, a facing pointed at, then made."""
    api = ApiClient(base)
    made = api.new_game("mgv/clear", {"red": "greedy"}, seed=3)
    game, token = made["id"], made["seats"]["blue"]["token"]
    for _ in range(100):
        seen = api.state(game, token)
        if any(a.startswith("move B1 ") for a in seen["legal_actions"]):
            break
        try:
            api.act(game, token, seen["version"], seen["legal_actions"][0])
        except (ApiError, IndexError):  # the bot is choosing (its move lands meanwhile)
            time.sleep(0.05)
    else:
        raise AssertionError("B1 never had a move")
    start = next(f for f in seen["view"]["figures"] if f["id"] == "B1")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(base + made["links"]["blue"])
    _settled(page)
    figure = page.locator("svg g.figure[data-figure='B1']")
    figure.click()
    page.wait_for_selector("#drawing:not([hidden])")
    box = figure.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2 + 45, box["y"] + box["height"] / 2 - 5
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*centre)
    page.mouse.down()  # a drag from the base: the verdict follows the pointer
    page.mouse.move(x, y, steps=8)
    page.wait_for_function("document.querySelector('#verdict').textContent.includes('of 8')")
    assert page.locator("svg .move-path").count() == 1
    page.mouse.up()  # released: the leg ends here
    page.wait_for_function("document.querySelector('#verdict').textContent.includes('turning')")
    assert page.inner_text("#verdict").count(",") == 1  # one leg, not two
    page.click("#finish")
    page.mouse.move(x + 80, y)
    page.mouse.click(x + 80, y)
    pending = page.locator("#pending button[data-action]").first
    pending.wait_for()
    text = pending.get_attribute("data-action") or ""
    assert text.startswith("move B1 ") and " face " in text
    assert '" of 8"' in page.inner_text("#pending")
    version = seen["version"]
    pending.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {version}")
    moved = next(f for f in api.state(game, token)["view"]["figures"] if f["id"] == "B1")
    assert (moved["x"], moved["y"]) != (start["x"], start["y"])
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "mgv-moved.png"))
    # Line of sight and distance on demand, between two of its own bases.
    _settled(page)
    page.click("#measure")
    page.locator("svg g.figure[data-figure='B2']").click()
    page.locator("svg g.figure[data-figure='B4']").click()
    page.wait_for_function("document.querySelector('#info').textContent.includes('\"')")
    assert "B2" in page.inner_text("#info") or "sight" in page.inner_text("#info")
    page.close()


def _sealed_secret(base: str, game: str, tokens: dict[str, str]) -> tuple[str, str]:
    """Play random legal actions through the API until a sealed choice is asked and no
    side has made it yet; returns (a side asked, one of its choices)."""
    rng = random.Random(4)
    for _ in range(400):
        seen = _get(base, f"/api/games/{game}")
        decision = seen["view"].get("decision") or {}
        side = seen["waiting_for"][0]
        mine = _get(base, f"/api/games/{game}", tokens[side])
        if decision.get("kind") == "sealed" and len(seen["waiting_for"]) == len(decision["sides"]):
            return side, rng.choice(mine["legal_actions"])
        _post(
            base,
            f"/api/games/{game}/actions",
            {"version": mine["version"], "action": rng.choice(mine["legal_actions"])},
            tokens[side],
        )
    raise AssertionError("no sealed choice was asked")


def test_a_sealed_choice_from_one_context_never_shows_in_the_other(
    base: str, browser: Browser
) -> None:
    made = _post(
        base, "/api/games", {"scenario": "mgv/clear", "seats": {}, "seed": 7, "practice": True}
    )
    tokens = {side: s["token"] for side, s in made["seats"].items()}
    side, secret = _sealed_secret(base, made["id"], tokens)
    other = next(s for s in tokens if s != side)
    mine = browser.new_context(viewport={"width": 1100, "height": 800})
    theirs = browser.new_context(viewport={"width": 1100, "height": 800})
    chooser, watcher = mine.new_page(), theirs.new_page()
    chooser.goto(base + made["links"][side])
    watcher.goto(base + made["links"][other])
    version = _get(base, f"/api/games/{made['id']}")["version"]
    for page in (chooser, watcher):
        page.wait_for_function(f"document.body.dataset.version == '{version}'")
    assert not chooser.locator("#sealed").is_hidden()  # the seat is told it is sealed
    chooser.locator("#more summary").click()
    chooser.fill("#typed", secret)
    chooser.press("#typed", "Enter")
    chooser.locator("#pending button[data-action]").first.click()
    for page in (chooser, watcher):  # both have been told of the new version, live
        page.wait_for_function(f"document.body.dataset.version == '{version + 1}'")
    own = _get(base, f"/api/games/{made['id']}", tokens[side])
    assert secret in (own["view"].get("my_sealed_choice"), own["view"].get("my_held_choice"))
    assert f"Your choice: {secret}" in chooser.inner_text("#sealed")
    assert secret not in watcher.content()
    assert "Your choice" not in watcher.inner_text("body")
    assert secret not in json.dumps(_get(base, f"/api/games/{made['id']}", tokens[other]))
    mine.close()
    theirs.close()


def test_a_missile_split_and_the_weapons_are_written_in_a_form_the_other_side_never_sees(
    base: str, browser: Browser
) -> None:
    """MGV's sealed choices have too many forms to list (a split of nine dice has 55 per
    attack): the seat gets a form of the ruleset's fields, and the text it makes is
    judged by the rules as any typed action."""
    made = _post(
        base, "/api/games", {"scenario": "mgv/clear", "seats": {}, "seed": 7, "practice": True}
    )
    tokens = {side: s["token"] for side, s in made["seats"].items()}
    blue, red = "blue", "red"
    assert _get(base, f"/api/games/{made['id']}")["view"]["decision"]["kind"] == "sealed"
    mine = browser.new_context(viewport={"width": 1100, "height": 900})
    theirs = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    chooser, watcher = mine.new_page(), theirs.new_page()
    chooser.goto(base + made["links"][blue])
    watcher.goto(base + made["links"][red])
    for page in (chooser, watcher):
        page.wait_for_function("document.body.dataset.version == '0'")
        assert not page.locator("#choice-form").is_hidden()  # both arm, unseen
    chooser.locator("#choice-form select").first.select_option("missile")
    chooser.locator("#choice-form select").nth(1).select_option("photon")
    chooser.screenshot(path=str(SHOTS / "mgv-arm-form.png"), full_page=True)
    chooser.locator("#form-propose").click()
    chooser.wait_for_selector("#pending button[data-action]")
    written = chooser.locator("#pending .action-text").first.inner_text()
    assert written.startswith("arm B1=missile B1.secondary=photon ")
    chooser.locator("#pending button[data-action]").first.click()
    for page in (chooser, watcher):
        page.wait_for_function("document.body.dataset.version == '1'")
    own = _get(base, f"/api/games/{made['id']}", tokens[blue])
    assert own["view"]["my_sealed_choice"] == written
    assert written not in watcher.content()
    assert "B1=missile" not in json.dumps(_get(base, f"/api/games/{made['id']}", tokens[red]))
    assert not watcher.locator("#choice-form").is_hidden()  # red still chooses its own
    watcher.screenshot(path=str(SHOTS / "mgv-arm-form-phone.png"), full_page=True)
    # A wrong split is refused by the rules, with their reason, before anything is sent.
    game = made["id"]
    _post(
        base,
        f"/api/games/{game}/actions",
        {"version": 1, "action": _get(base, f"/api/games/{game}", tokens[red])["legal_actions"][0]},
        tokens[red],
    )
    for _ in range(300):  # play on through the API until blue is asked to split missile dice
        seen = _get(base, f"/api/games/{game}")
        if seen["outcome"] is not None:
            break
        side = seen["waiting_for"][0]
        state = _get(base, f"/api/games/{game}", tokens[side])
        if state["form"] and state["form"]["template"].startswith("split") and side == blue:
            break
        action = state["legal_actions"][-1] if side == blue else state["legal_actions"][0]
        _post(
            base,
            f"/api/games/{game}/actions",
            {"version": state["version"], "action": action},
            tokens[side],
        )
    else:
        raise AssertionError("no missile split was asked")
    version = state["version"]
    chooser.wait_for_function(f"document.body.dataset.version == '{version}'")
    first = chooser.locator("#choice-form input[type=number]").first
    first.fill(str(int(first.input_value()) + 1))  # one die too many
    chooser.locator("#form-propose").click()
    chooser.wait_for_selector("#pending .error")
    assert "dice to split" in chooser.inner_text("#pending")
    assert chooser.locator("#pending button[data-action]").first.is_disabled()
    first.fill(str(int(first.input_value()) - 1))
    chooser.locator("#form-propose").click()
    chooser.wait_for_function("!document.querySelector('#pending .error')")
    chooser.screenshot(path=str(SHOTS / "mgv-split-form.png"), full_page=True)
    chooser.locator("#pending button[data-action]").first.click()
    chooser.wait_for_function(f"document.body.dataset.version == '{version + 1}'")
    assert _get(base, f"/api/games/{game}", tokens[blue])["view"]["my_sealed_choice"].startswith(
        "split "
    )
    mine.close()
    theirs.close()


def test_a_replay_with_its_timeline(base: str, browser: Browser) -> None:
    made = _post(
        base,
        "/api/games",
        {"scenario": "miniwars/bridge", "seats": {"guards": "random", "vanguard": "random"}},
    )
    for _ in range(600):  # the bots play it out in the background
        seen = _get(base, f"/api/games/{made['id']}")
        if seen["outcome"] is not None:
            break
        time.sleep(0.05)
    total = seen["actions_total"]
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.goto(f"{base}/replay/{made['id']}")
    page.wait_for_function(f"document.querySelector('#total').textContent == '{total}'")
    page.wait_for_selector("#board svg")
    end_events = page.locator("#events p").count()
    page.locator("#timeline").fill("0")
    page.wait_for_function("document.querySelector('#at').textContent == '0'")
    page.wait_for_function(f"document.querySelectorAll('#events p').length < {end_events}")
    page.click("#next")
    page.wait_for_function("document.querySelector('#at').textContent == '1'")
    page.close()


@pytest.mark.parametrize(
    "scenario",
    [
        "miniwars/bridge",
        "cgme/skirmish",
        "veg/tank-battle",
        "vsgmr/street",
        "mgv/clear",
        "invisible-enemy/company",
    ],
)
def test_screenshot_of_each_rulesets_board(base: str, browser: Browser, scenario: str) -> None:
    made = _post(
        base, "/api/games", {"scenario": scenario, "seats": {}, "seed": 1, "practice": True}
    )
    side = next(iter(made["links"]))
    for width, name in ((1200, "desktop"), (390, "phone")):
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto(base + made["links"][side])
        page.wait_for_selector("#board svg")
        assert "You play" in page.inner_text("#status")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(
            path=str(SHOTS / f"{scenario.replace('/', '-')}-{name}.png"), full_page=True
        )
        page.close()
