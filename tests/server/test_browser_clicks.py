"""Clicks land where a person clicks, and the page never goes back in time (issue 23), in
Debian's chromium driven like a person at desktop (1366x850) and phone (390x844) sizes:

- on an open table, a click on the centre of every figure, as the page draws it, is read
  as that figure's own position (it was read about 3" south: the SVG puts the picture
  under a heading, and the page converted with the root's coordinates);
- on a hex map, every movement-cost label lies in its destination hex (they were drawn
  one hex too high), and a click at the centre of every hex of every hex scenario is that
  hex's (roads took the clicks at the centres of road hexes);
- the reply to an action delayed past the live updates of the bot's answer does not roll
  the page back (it froze on "waiting for" the bot while the bot waited for you).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from warbench.core import registry
from warbench.core.loader import builtin_scenarios
from warbench.server.client import ApiClient

from .browsing import SIZES, settled, until_move

TABLES = ["vsgmr/street", "mgv/clear", "invisible-enemy/company"]
HEX_SCENARIOS = sorted(
    s for s in builtin_scenarios() if registry.get(s.split("/")[0]).info.geometry == "hex"
)


def _open(browser: Browser, base: str, link: str, size: str) -> Page:
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(base + link)
    page.wait_for_selector("#board svg g.board")
    settled(page)
    return page


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("scenario", TABLES)
def test_a_click_on_each_figure_reads_its_own_inches(
    base: str, browser: Browser, scenario: str, size: str
) -> None:
    """Typing an action, a click on the table adds the point clicked (a barrage marker's,
    say): at the centre of each figure's base it is that figure's own x,y within 0.05"."""
    api = ApiClient(base)
    made = api.new_game(scenario, {}, seed=1)
    side = api.state(made["id"])["waiting_for"][0]
    seen = api.state(made["id"], made["seats"][side]["token"])  # the figures as drawn for it
    page = _open(browser, base, made["links"][side], size)
    page.locator("#more summary").click()
    figures = [f for f in seen["view"]["figures"] if f.get("x") is not None]
    assert len(figures) >= 4
    for figure in figures:
        page.fill("#typed", "")
        page.locator("#typed").focus()  # typing: a click on the table adds its point
        drawn = page.locator(f"svg g.figure[data-figure='{figure['id']}'] .base")
        drawn.scroll_into_view_if_needed()
        box = drawn.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        x, y = (float(v) for v in page.input_value("#typed").split(","))
        assert abs(x - figure["x"]) <= 0.05 and abs(y - figure["y"]) <= 0.05, (
            f"{figure['id']} at {figure['x']},{figure['y']} read as {x},{y}"
        )
    page.close()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(
    ("scenario", "side"), [("miniwars/danville", "horde"), ("cgme/skirmish", "blue")]
)
def test_each_movement_cost_label_lies_in_its_destination_hex(
    base: str, browser: Browser, scenario: str, side: str, size: str
) -> None:
    api = ApiClient(base)
    made = api.new_game(scenario, {}, seed=2)
    tokens = {s: seat["token"] for s, seat in made["seats"].items()}
    seen = until_move(api, made["id"], tokens, side)
    unit = next(a.split()[1] for a in seen["legal_actions"] if a.startswith("move "))
    page = _open(browser, base, made["links"][side], size)
    counter = page.locator(f"svg [data-unit='{unit}']").first
    counter.scroll_into_view_if_needed()
    counter.click()
    page.wait_for_selector("svg text.cost")
    misplaced = page.evaluate(
        """() => [...document.querySelectorAll('svg text.cost')].flatMap((label) => {
            label.scrollIntoView({block: 'center', inline: 'center'});
            const r = label.getBoundingClientRect();
            const under = document.elementsFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            const hexes = under.filter((e) => e.matches('polygon[data-hex]'))
                .map((e) => e.dataset.hex);
            return hexes.includes(label.dataset.hex) ? [] : [[label.dataset.hex, hexes]];
        })"""
    )
    assert page.locator("svg text.cost").count() > 1
    assert misplaced == [], f"labels not over their hex (hex, hexes under it): {misplaced[:5]}"
    page.close()


CENTRES = """() => [...document.querySelectorAll('svg polygon.hex[data-hex]')].flatMap((hex) => {
    hex.scrollIntoView({block: 'center', inline: 'center'});
    const r = hex.getBoundingClientRect();
    const {label} = pick(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
    return label === hex.dataset.hex ? [] : [[hex.dataset.hex, label]];
})"""
"""Every hex whose centre the page does not read as that hex (or a counter standing in
it): the page's own reading (``pick``) of what the browser finds under the point."""


@pytest.mark.parametrize("scenario", HEX_SCENARIOS)
def test_the_centre_of_every_hex_is_that_hex(base: str, browser: Browser, scenario: str) -> None:
    made = ApiClient(base).new_game(scenario, {}, seed=1)
    page = _open(browser, base, made["spectate"], "desktop")
    assert page.locator("svg polygon.hex").count() > 20
    wrong = page.evaluate(CENTRES)
    assert wrong == [], f"{len(wrong)} hex centres read wrong (hex, read as): {wrong[:8]}"
    page.close()


def test_a_click_at_the_centre_of_a_road_hex_shows_that_hex(base: str, browser: Browser) -> None:
    """The road line took the click and nothing happened; now the hex beneath answers."""
    made = ApiClient(base).new_game("miniwars/danville", {}, seed=1)
    page = _open(browser, base, made["spectate"], "desktop")
    occupied = set(page.eval_on_selector_all("svg [data-unit]", "gs => gs.map(g => g.dataset.hex)"))
    roads = page.eval_on_selector_all("svg line.road", "ls => ls.map(l => l.dataset.hexes)")
    hexes = sorted({h for pair in roads for h in pair.split("/")} - occupied)
    assert len(hexes) >= 6
    for label in hexes:
        hex_ = page.locator(f"svg polygon.hex[data-hex='{label}']")
        hex_.scroll_into_view_if_needed()
        box = hex_.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function(
            f"document.querySelector('#info strong')?.textContent == '{label}'", timeout=5_000
        )
    page.close()


def test_a_late_reply_never_rolls_the_page_back(base: str, browser: Browser) -> None:
    """The reply to an action is held back until the live updates have shown the bot's
    answer; when it comes, the page stays on the newest state (and asks for your move)."""
    api = ApiClient(base)
    made = api.new_game("miniwars/bridge", {"vanguard": "greedy"}, seed=4)
    game, token = made["id"], made["seats"]["guards"]["token"]
    page = _open(browser, base, made["links"]["guards"], "desktop")
    page.wait_for_function("document.querySelector('#status').textContent.includes('your move')")
    held: dict[str, Any] = {}

    def late(route: Route) -> None:
        reply = route.fetch()  # the server has stored the action and answered
        version = reply.json()["version"]
        try:  # the bot's answer, pushed live, reaches the page first
            page.wait_for_function(
                f"Number(document.body.dataset.version) > {version}", timeout=4_000
            )
            held["overtaken"] = version
        except PlaywrightTimeout:  # the bot was not asked by this action
            pass
        route.fulfill(response=reply)

    page.route("**/actions", late)
    for _ in range(30):  # end phases (or choose) until the bot's answer overtakes a reply
        before = int(page.evaluate("document.body.dataset.version"))
        page.locator("#choices button").last.click()  # end, or choose B
        page.locator("#pending button[data-action]").first.click()
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
        page.wait_for_timeout(300)
        if held:
            break
    else:
        raise AssertionError("the bot never answered")
    page.wait_for_timeout(500)  # the late reply has been handled
    newest = api.state(game, token)
    assert int(page.evaluate("document.body.dataset.version")) == newest["version"]
    if "guards" in newest["waiting_for"]:
        assert "your move" in page.inner_text("#status")
    page.unroute_all(behavior="wait")  # no late reply still held when the page closes
    page.close()
