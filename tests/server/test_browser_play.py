"""What a player expects of the browser (issue 23), in Debian's chromium at desktop and phone
sizes: what the other side did drawn over the board and toggled; the score during the game,
at the end and in a replay that plays itself; a chat between two seats that a spectator
reads; My games; the lobby's copy buttons; a ruler on the table and the ring of a figure's
move, neither drawn where the rules forbid measuring; MiniWars melee by clicking; a phone
that shows the whole table with the action bar in reach."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from warbench.core.game import Game
from warbench.server.client import ApiClient

from .browsing import SIZES, click_centre, settled, until_move

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def _context(browser: Browser, size: str, **extra: Any) -> BrowserContext:
    width, height = SIZES[size]
    return browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=size == "phone",
        has_touch=size == "phone",
        **extra,
    )


def _open(context: BrowserContext, base: str, link: str) -> Page:
    page = context.new_page()
    page.goto(base + link)
    settled(page)
    return page


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _play(
    api: ApiClient, game: str, tokens: dict[str, str], actions: list[tuple[str, str]]
) -> None:
    """Take the actions (side, text) through the API, in order."""
    for side, text in actions:
        seen = api.state(game, tokens[side])
        api.act(game, tokens[side], seen["version"], text)


def _random_actions(scenario: str, seed: int, count: int) -> list[tuple[str, str]]:
    game = Game.start(scenario, seed)
    rng = random.Random(seed)
    taken = []
    for _ in range(count):
        if game.is_over:
            break
        side = game.waiting_for()[0]
        text = str(rng.choice(list(game.legal_actions(side))))
        game.apply(text, side)
        taken.append((side, text))
    return taken


def _bot_has_answered(api: ApiClient, game: str, token: str, side: str) -> dict[str, Any]:
    """End the seat's phases until the bot has acted and it is the seat's move again."""
    for _ in range(80):
        seen = api.state(game, token)
        if seen["recent"]["marks"] and side in seen["waiting_for"]:
            return seen
        if side in seen["waiting_for"]:
            api.act(game, token, seen["version"], seen["legal_actions"][-1])
        else:
            time.sleep(0.05)
    raise AssertionError("the bot never did anything to draw")


@pytest.mark.parametrize("size", list(SIZES))
def test_what_the_bot_did_is_drawn_and_can_be_hidden(
    base: str, browser: Browser, size: str
) -> None:
    api = ApiClient(base)
    made = api.new_game("miniwars/danville", {"danville": "greedy"}, seed=3)
    game, token = made["id"], made["seats"]["horde"]["token"]
    seen = _bot_has_answered(api, game, token, "horde")
    context = _context(browser, size)
    page = _open(context, base, made["links"]["horde"])
    drawn = page.locator("#board svg g.overlay")
    kinds = {m["kind"] for m in seen["recent"]["marks"]}
    paths = sum(m["kind"] == "path" for m in seen["recent"]["marks"])
    assert drawn.count() > 0  # (repeated shots at one target are drawn once)
    assert page.locator("#board svg g.overlay.path").count() == paths
    if "sight" in kinds:  # a shot, labelled with its result
        assert page.locator("#board svg g.overlay.sight text").first.text_content() in (
            "hit",
            "miss",
        )
    assert "Score: danville" in page.inner_text("#score")
    _shot(page, f"recent-danville-{size}")
    page.uncheck("#recent")
    page.wait_for_function("!document.querySelector('#board svg g.overlay')")
    page.reload()  # the choice is remembered
    settled(page)
    assert not page.is_checked("#recent") and page.locator("#board svg g.overlay").count() == 0
    page.check("#recent")
    page.wait_for_selector("#board svg g.overlay")
    context.close()


def _finished(api: ApiClient, scenario: str, seed: int) -> dict[str, Any]:
    made = api.new_game(scenario, {s: "random" for s in Game.start(scenario).scenario.sides}, seed)
    for _ in range(1200):
        seen = api.state(made["id"])
        if seen["outcome"] is not None:
            return made
        time.sleep(0.05)
    raise AssertionError("the bots never finished")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_score_at_the_end_and_a_replay_that_plays_itself(
    base: str, browser: Browser, size: str
) -> None:
    api = ApiClient(base)
    made = _finished(api, "vsgmr/street", 2)
    final = api.state(made["id"])
    scores = final["outcome"]["scores"]
    winner = final["outcome"]["winner"]
    context = _context(browser, size)
    page = _open(context, base, made["spectate"])
    status = page.inner_text("#status")
    numbers = "-".join(
        f"{scores[s]:g}"
        for s in ([winner] if winner else []) + [s for s in final["sides"] if s != winner]
    )
    assert ("wins" if winner else "a draw") in status and numbers in status, status
    page.goto(f"{base}/replay/{made['id']}")
    page.wait_for_function(f"document.body.dataset.at == '{final['actions_total']}'")
    assert numbers in page.inner_text("#score")
    page.select_option("#speed", "250")
    page.click("#play")  # from the start, on its own
    page.wait_for_function("Number(document.body.dataset.at) >= 2", timeout=20_000)
    page.click("#play")  # pause (a step already on its way still lands)
    page.wait_for_timeout(600)
    paused = page.evaluate("document.body.dataset.at")
    page.wait_for_timeout(800)
    assert page.evaluate("document.body.dataset.at") == paused
    assert int(paused) < final["actions_total"]
    assert "Score:" in page.inner_text("#score")  # the score as it stood then
    page.click("#play")
    page.wait_for_selector("#board svg g.overlay", timeout=20_000)  # a step's moves drawn
    context.close()


def test_a_chat_between_two_seats_that_a_spectator_reads(base: str, browser: Browser) -> None:
    api = ApiClient(base)
    made = api.new_game("mgv/clear", {}, seed=4)
    one, two, watcher = (_context(browser, size) for size in ("desktop", "phone", "desktop"))
    blue = _open(one, base, made["links"]["blue"])
    red = _open(two, base, made["links"]["red"])
    spectator = _open(watcher, base, made["spectate"])
    blue.fill("#chat-text", "good luck <b>red</b>")
    blue.press("#chat-text", "Enter")
    for page in (blue, red, spectator):  # pushed live, shown as text, never as markup
        page.wait_for_function(
            "document.querySelector('#chat-lines').textContent.includes('good luck <b>red</b>')"
        )
        assert page.locator("#chat-lines b").count() == 0
    red.fill("#chat-text", "and to you")
    red.press("#chat-text", "Enter")
    spectator.wait_for_function(
        "document.querySelector('#chat-lines').textContent.includes('red: and to you')"
    )
    assert spectator.locator("#chat-form").is_hidden()  # spectators read, seats speak
    lines = api.call("GET", f"/api/games/{made['id']}/chat")
    assert [(line["side"], line["text"]) for line in lines] == [
        ("blue", "good luck <b>red</b>"),
        ("red", "and to you"),
    ]
    assert all(set(line) == {"number", "side", "text", "time"} for line in lines)
    spectator_post = api.call  # a spectator has no token: it may not speak
    with pytest.raises(Exception, match="401"):
        spectator_post("POST", f"/api/games/{made['id']}/chat", {"text": "hi"})
    _shot(red, "chat-phone")
    for context in (one, two, watcher):
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_my_games_lists_the_seats_this_browser_opened(
    base: str, browser: Browser, size: str
) -> None:
    api = ApiClient(base)
    first = api.new_game("miniwars/bridge", {"vanguard": "greedy"}, seed=5)
    second = api.new_game("cgme/skirmish", {}, seed=5)
    context = _context(browser, size)
    guards = _open(context, base, first["links"]["guards"])
    assert guards.title().startswith("● Your move · Hold the Bridge")  # the tab says so
    guards.close()
    red = _open(context, base, second["links"]["red"])  # not red's move: blue starts
    assert red.title() == "Skirmish at the Ruins · warbench"
    red.close()
    page = context.new_page()
    page.goto(base + "/games")
    page.wait_for_selector(f"tr[data-game='{second['id']}']")
    rows = page.locator("#games tr")
    assert rows.count() == 2
    mine = page.locator(f"tr[data-game='{first['id']}']")
    assert "guards" in mine.inner_text() and "Your move" in mine.inner_text()
    assert "your-move" in (mine.get_attribute("class") or "")
    other = page.locator(f"tr[data-game='{second['id']}']")
    assert "Waiting for blue" in other.inner_text()
    assert rows.first.get_attribute("data-game") == first["id"]  # yours to move first
    other.locator("a").click()  # the link opens the seat again
    page.wait_for_function("document.querySelector('#status').textContent.includes('You play red')")
    context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby_gives_each_seat_link_with_a_copy_button(
    base: str, browser: Browser, size: str
) -> None:
    context = _context(browser, size, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#first:not([hidden])")
    assert "Hold the Bridge" in page.locator("#scenario option").first.inner_text()
    last = page.locator("#scenario option").last.inner_text()
    assert "calibration arena" in last
    page.click("#first-pick")  # the suggested first game: guards against greedy
    page.wait_for_function("document.querySelector('#seat-vanguard')?.value == 'greedy'")
    page.click("button[type=submit]")
    row = page.locator("#links .seat[data-side='guards']")
    row.wait_for()
    box = page.locator("#links").bounding_box()
    assert box is not None and box["y"] < 850  # at the top, in view
    row.locator("button").click()
    page.wait_for_function("document.querySelector('#links .seat button').textContent == 'Copied'")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(base + "/play/") and "#seat=" in copied
    assert copied == base + (row.locator("a").get_attribute("href") or "")
    context.close()


def test_a_slow_answer_to_the_first_load_does_not_undo_the_suggested_game(
    base: str, browser: Browser
) -> None:
    """The page loads a scenario's seats while the player already clicked the suggested game:
    the earlier, slower answer must not redraw the seats over the player's pick (seen in CI:
    the seats were drawn twice and the pick's bot was replaced by the default)."""
    context = _context(browser, "desktop")
    page = context.new_page()
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/api/scenarios/miniwars/bridge", hold_the_first)
    page.goto(base + "/")
    page.wait_for_selector("#first:not([hidden])")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1  # the first load's answer is held back
    page.click("#first-pick")
    page.wait_for_function("document.querySelector('#seat-vanguard')?.value == 'greedy'")
    held[0].continue_()  # the stale answer arrives last
    page.wait_for_timeout(500)
    assert page.locator("#seat-vanguard").input_value() == "greedy"
    context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_ruler_and_a_reach_ring_on_an_open_table(base: str, browser: Browser, size: str) -> None:
    api = ApiClient(base)
    made = api.new_game("vsgmr/street", {}, seed=1)
    tokens = {s: seat["token"] for s, seat in made["seats"].items()}
    seen = until_move(api, made["id"], tokens, "red")
    mover = next(a.split()[1] for a in seen["legal_actions"] if a.startswith("move "))
    reach = api.call("GET", f"/api/games/{made['id']}/reach?piece={mover}", token=tokens["red"])
    context = _context(browser, size)
    page = _open(context, base, made["links"]["red"])
    click_centre(page, f"svg g.figure[data-figure='{mover}'] .base")
    ring = page.locator(f"svg .reach-mark[data-figure='{mover}'] circle")
    ring.wait_for()
    scale = float(page.locator("svg g.board.table").get_attribute("data-scale") or 0)
    assert float(ring.get_attribute("r") or 0) == pytest.approx(reach["reach"]["range"] * scale)
    assert f'{reach["reach"]["range"]:g}" of move' in (
        page.locator("svg .reach-mark text").text_content() or ""
    )
    page.click("#measure")
    enemy = next(f["id"] for f in seen["view"]["figures"] if f["side"] == "blue" and f.get("x"))
    for which in (mover, enemy):
        click_centre(page, f"svg g.figure[data-figure='{which}'] .base")
    ruler = page.locator("svg .ruler-mark")
    ruler.wait_for()
    answer = api.call(
        "GET", f"/api/games/{made['id']}/measure?a={mover}&b={enemy}", token=tokens["red"]
    )
    distance = answer["answer"].split("\n")[0].split(": ")[1].split(" ")[0]
    assert distance in (page.locator("svg .ruler-mark text").text_content() or "")
    blocked = "blocked" in answer["answer"]
    assert ruler.get_attribute("data-blocked") == str(blocked).lower()
    _shot(page, f"ruler-vsgmr-{size}")
    context.close()


def test_no_ruler_and_no_ring_where_the_rules_forbid_measuring(base: str, browser: Browser) -> None:
    """MGV 5.3: a base that may carry a photon weapon may not measure to an enemy; the
    refusal is shown and nothing is drawn on the table (no line to read a range from)."""
    api = ApiClient(base)
    made = api.new_game("mgv/clear", {}, seed=3)
    tokens = {s: seat["token"] for s, seat in made["seats"].items()}
    until_move(api, made["id"], tokens, "blue")
    context = _context(browser, "desktop")
    page = _open(context, base, made["links"]["blue"])
    page.click("#measure")
    for which in ("B1", "R1"):
        click_centre(page, f"svg g.figure[data-figure='{which}'] .base")
    page.wait_for_function("document.querySelector('#info').textContent.includes('5.3')")
    page.wait_for_timeout(300)
    assert page.locator("svg .ruler-mark").count() == 0
    context.close()
    guessing = api.new_game("mgv/clear", {}, seed=7)
    tokens = {s: seat["token"] for s, seat in guessing["seats"].items()}
    for _ in range(300):  # on until a photon range is to be guessed
        seen = api.state(guessing["id"])
        prompt = (seen["view"].get("decision") or {}).get("prompt", "")
        if seen["outcome"] or "photon range guesses" in prompt:
            break
        side = seen["waiting_for"][0]
        mine = api.state(guessing["id"], tokens[side])
        photon = [a for a in mine["legal_actions"] if "photon" in a]
        choice = photon[0] if photon else mine["legal_actions"][-1]
        api.act(guessing["id"], tokens[side], mine["version"], choice)
    assert "photon range guesses" in api.state(guessing["id"])["view"]["decision"]["prompt"]
    side = api.state(guessing["id"])["waiting_for"][0]
    own = next(
        f["id"]
        for f in api.state(guessing["id"], tokens[side])["view"]["figures"]
        if f["side"] == side and f.get("x") is not None
    )
    reach = api.call("GET", f"/api/games/{guessing['id']}/reach?piece={own}", token=tokens[side])
    assert reach == {"reach": None}


def test_melee_by_clicking_an_adjacent_enemy(base: str, browser: Browser) -> None:
    """MiniWars: a unit that has not moved clicks an adjacent enemy; the page says why the
    attack is refused (ruling 21) and offers to hold the hex, then attack, with the odds."""
    scenario, seed = "miniwars/bridge", 1
    game = Game.start(scenario, seed)
    rng = random.Random(seed)
    taken: list[tuple[str, str]] = []
    found = None
    while found is None:
        side = game.waiting_for()[0]
        legal = [str(a) for a in game.legal_actions(side)]
        if any(a.startswith("move ") for a in legal):
            for unit in game.state.units.values():
                if unit.side != side or unit.pos is None or unit.acted:
                    continue
                for enemy in game.state.units.values():
                    adjacent = enemy.pos is not None and unit.pos.distance(enemy.pos) == 1
                    if (
                        enemy.side != side
                        and adjacent
                        and f"attack {unit.id} {enemy.id}" not in legal
                    ):
                        found = (side, unit.id, enemy.id, unit.pos.label)
        if found is None:
            text = rng.choice(legal)
            game.apply(text, side)
            taken.append((side, text))
    side, unit, enemy, here = found
    api = ApiClient(base)
    made = api.new_game(scenario, {}, seed=seed)
    tokens = {s: seat["token"] for s, seat in made["seats"].items()}
    _play(api, made["id"], tokens, taken)
    context = _context(browser, "desktop")
    page = _open(context, base, made["links"][side])
    click_centre(page, f"svg [data-unit='{unit}']")
    click_centre(page, f"svg [data-unit='{enemy}']")
    page.wait_for_selector("#pending .plan")
    assert "ruling 21" in page.inner_text("#pending")
    hold = page.locator(f"#pending button[data-plan='move {unit} {here} | attack {unit} {enemy}']")
    assert hold.inner_text().startswith(f"Hold {unit} here, then attack {enemy}")
    version = int(page.evaluate("document.body.dataset.version"))
    hold.click()
    attack = page.locator(f"#pending button[data-action='attack {unit} {enemy}']")
    attack.wait_for()
    assert int(page.evaluate("document.body.dataset.version")) == version + 1
    assert "%" in page.inner_text("#pending .odds")  # the odds before anything is rolled
    attack.click()
    page.wait_for_function(f"Number(document.body.dataset.version) >= {version + 2}")
    events = json.dumps(api.state(made["id"])["events"])
    assert f"{unit}" in events and "melee" in events.lower()
    context.close()


@pytest.mark.parametrize("scenario", ["vsgmr/street", "mgv/clear", "miniwars/danville"])
def test_a_phone_shows_the_whole_board_and_the_action_bar(
    base: str, browser: Browser, scenario: str
) -> None:
    api = ApiClient(base)
    made = api.new_game(scenario, {}, seed=1)
    side = api.state(made["id"])["waiting_for"][0]
    context = _context(browser, "phone")
    page = _open(context, base, made["links"][side])
    width = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
    board = page.evaluate("document.querySelector('#board').clientWidth")
    assert width <= board <= 390  # the whole table across the screen, nothing cut off
    bar = page.locator("#actionbar").bounding_box()
    assert bar is not None and bar["y"] + bar["height"] <= 844 + 1  # in reach, unscrolled
    small = page.evaluate(
        """() => [...document.querySelectorAll(
                'button, summary, select, input:not([type=checkbox])')]
            .filter((e) => e.offsetParent !== null)
            .map((e) => [e.textContent.trim() || e.id, e.getBoundingClientRect().height])
            .filter(([, h]) => h < 40)"""
    )
    assert small == [], f"tap targets under 40 px: {small}"
    page.click("#zoom-in")
    wider = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
    assert wider == pytest.approx(width * 1.5, abs=2)
    page.click("#zoom-fit")
    assert page.evaluate(
        "document.querySelector('#board svg').getBoundingClientRect().width"
    ) == pytest.approx(width, abs=1)
    _shot(page, f"phone-{scenario.replace('/', '-')}")
    context.close()


def test_a_finger_held_still_previews_a_moves_verdict(base: str, browser: Browser) -> None:
    """On a touch screen nothing hovers: holding a finger still on the table shows the
    rules' verdict for a move there, as the pointer's hover does on a desktop, and adds
    no leg."""
    api = ApiClient(base)
    made = api.new_game("vsgmr/street", {}, seed=1)
    tokens = {s: seat["token"] for s, seat in made["seats"].items()}
    seen = until_move(api, made["id"], tokens, "red")
    mover = next(a.split()[1] for a in seen["legal_actions"] if a.startswith("move "))
    context = _context(browser, "phone")
    page = _open(context, base, made["links"]["red"])
    click_centre(page, f"svg g.figure[data-figure='{mover}'] .base", tap=True)
    figure = page.locator(f"svg g.figure[data-figure='{mover}'] .base")
    page.wait_for_selector("#drawing:not([hidden])")
    box = figure.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] - 20  # a little ahead of it
    page.evaluate(
        """([x, y]) => {
            const svg = document.querySelector('#board svg');
            const at = {clientX: x, clientY: y, pointerType: 'touch', bubbles: true};
            svg.dispatchEvent(new PointerEvent('pointerdown', at));
            window.__release = () => svg.dispatchEvent(new PointerEvent('pointerup', at));
        }""",
        [x, y],
    )
    page.wait_for_function("document.querySelector('#verdict').textContent.includes('move ')")
    assert '"' in page.inner_text("#verdict")  # the inches it would use, or the refusal
    page.evaluate("window.__release()")
    assert page.evaluate("document.querySelectorAll('#board svg .move-path').length") == 1
    context.close()


def test_veg_odds_are_a_small_table(base: str, browser: Browser) -> None:
    """V.E.G.: an attack's odds as a table of destroy, wound and none, a row for the
    attack and one for each unit its spillover may hit, before anything is rolled."""
    api = ApiClient(base)
    scenario, seed = "veg/tank-battle", 2
    game = Game.start(scenario, seed)
    rng = random.Random(3)
    taken: list[tuple[str, str]] = []
    while True:
        side = game.waiting_for()[0]
        legal = [str(a) for a in game.legal_actions(side)]
        attacks = [a for a in legal if a.startswith("attack ")]
        if attacks:
            break
        text = rng.choice(legal)
        game.apply(text, side)
        taken.append((side, text))
    made = api.new_game(scenario, {}, seed=seed)
    tokens = {s: seat["token"] for s, seat in made["seats"].items()}
    _play(api, made["id"], tokens, taken)
    context = _context(browser, "desktop")
    page = _open(context, base, made["links"][side])
    page.locator("#more summary").click()
    page.fill("#typed", attacks[0])
    page.press("#typed", "Enter")
    table = page.locator("#pending .odds-table table")
    table.wait_for()
    assert [c.strip() for c in table.locator("tr").first.inner_text().split("\t")][1:] == [
        "destroy",
        "wound",
        "none",
    ]
    assert table.locator("tr").nth(1).inner_text().startswith("the attack")
    assert table.locator("tr").count() >= 2 and "%" in table.inner_text()
    _shot(page, "veg-odds-table")
    context.close()


def test_the_lobby_says_how_long_a_bot_thinks_and_sets_its_time_limit(
    base: str, browser: Browser
) -> None:
    context = _context(browser, "desktop")
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#seats select")
    page.select_option("#scenario", "mgv/clear")
    page.wait_for_selector("#seat-red")
    page.select_option("#seat-red", "mcts")
    page.wait_for_function(
        "document.querySelector('#time-red').textContent.includes('s a decision')"
    )
    slow = page.inner_text("#time-red")
    page.fill("#limit-red", "2")
    page.dispatch_event("#limit-red", "change")
    page.wait_for_function(
        "document.querySelector('#time-red').textContent.includes('about 2.0 s')"
    )
    assert slow != page.inner_text("#time-red")
    page.select_option("#seat-blue", "human")
    page.click("button[type=submit]")
    page.locator("#links .seat[data-side='blue'] a").click()
    page.wait_for_selector("#board svg")
    game = page.url.split("/play/")[1].split("#")[0]
    assert ApiClient(base).state(game)["players"]["red"] == "mcts:time=2"
    # The greedy bot has no time limit to set.
    page.goto(base + "/")
    page.wait_for_selector("#seat-vanguard")
    page.select_option("#seat-vanguard", "greedy")
    page.wait_for_function(
        "document.querySelector('#time-vanguard').textContent.includes('greedy')"
    )
    assert page.is_disabled("#limit-vanguard")
    assert page.is_hidden("#seed")  # a person plays the guards: the dice stay secret
    page.select_option("#seat-guards", "random")
    page.wait_for_selector("#seed", state="visible")  # bots alone may take a seed
    context.close()


def test_the_lobby_offers_the_scenarios_options_and_the_game_keeps_them(
    base: str, browser: Browser
) -> None:
    """Choices the text leaves to the players (MGV: measuring by eye or freely, the core
    rule, who guesses photon ranges) are set in the lobby, with what each value means."""
    context = _context(browser, "desktop")
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#seats select")
    page.select_option("#scenario", "mgv/clear")
    page.wait_for_selector("#option-measuring", state="attached")
    page.locator("#options-box summary").click()
    assert page.input_value("#option-measuring") == "eye"
    page.select_option("#option-measuring", "free")
    assert "exactly" in page.inner_text("#options")
    page.select_option("#option-core_rule", "b")
    page.click("button[type=submit]")
    page.locator("#links .seat[data-side='blue'] a").click()
    page.wait_for_selector("#board svg")
    game = page.url.split("/play/")[1].split("#")[0]
    view = ApiClient(base).state(game)["view"]
    assert view["options"]["measuring"] == "free" and view["options"]["core_rule"] == "b"
    assert "eye" not in view and not any(f.get("by_eye") for f in view["figures"])
    context.close()
