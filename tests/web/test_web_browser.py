"""The web table in a real browser (issue #20): Playwright drives Debian's Chromium.

Each test starts the real server (``gongzhu.web.create_app`` under uvicorn, in a
thread, on a free 127.0.0.1 port, a temporary SQLite store, computers without
delay) and plays through the page as a person does: clicks, keys, reloads.

No browser is downloaded: Playwright's pip package ships only its driver, and
the tests launch the system's Chromium (``/usr/bin/chromium``, or the path in
``GONGZHU_CHROMIUM``). Without Playwright, Chromium or the ``web`` extra the
tests skip with the reason; ``GONGZHU_REQUIRE_BROWSER=1`` (set by ``.ci/run``)
turns that skip into a failure, so CI cannot pass without running them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gongzhu import record
from gongzhu.web.strings import catalogue

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 15_000
EN = catalogue("en")
# Predicates are functions, never expression strings: the page's CSP forbids eval, which
# Playwright would need to poll a string expression.
FULL_HAND = "() => document.querySelectorAll('[data-testid=hand] [data-card]').length == 13"
LEGAL_CARD = "() => document.querySelector('[data-testid=hand] [data-legal=true]')"
pytestmark = pytest.mark.timeout(120) if importlib.util.find_spec("pytest_timeout") else []


def _chromium() -> str | None:
    for path in (os.environ.get("GONGZHU_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium"):
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def _missing() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    for module, what in (
        ("playwright", "the playwright package (pip install playwright; no browser download)"),
        ("uvicorn", 'uvicorn (the web extra: pip install ".[web]")'),
        ("starlette", 'starlette (the web extra: pip install ".[web]")'),
    ):
        if importlib.util.find_spec(module) is None:
            return f"no {what}"
    try:
        from gongzhu.web import create_app  # noqa: F401
    except ImportError as exc:
        return f"gongzhu.web.create_app is not importable ({exc})"
    if _chromium() is None:
        return (
            "no Chromium at /usr/bin/chromium (apt-get install chromium, or set GONGZHU_CHROMIUM)"
        )
    return None


def _unavailable(reason: str) -> None:
    message = f"browser tests not run: {reason}"
    if os.environ.get("GONGZHU_REQUIRE_BROWSER") == "1":
        pytest.fail(message + " (GONGZHU_REQUIRE_BROWSER=1 requires them)", pytrace=False)
    pytest.skip(message)


# -- the server --------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """The real app under uvicorn in a thread; stop() and start() again keep port and store."""

    def __init__(
        self,
        store: Path,
        seed: int | None = None,
        bot_delay: float = 0.0,
        takeover: float = 60.0,
    ) -> None:
        self.store = store
        self.seed = seed
        self.bot_delay = bot_delay
        self.takeover = takeover
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def start(self, new_port: bool = False) -> None:
        import uvicorn

        if new_port:
            self.port = _free_port()
            self.url = f"http://127.0.0.1:{self.port}"

        from gongzhu.web import create_app

        app = create_app(
            store=str(self.store), bot_delay=self.bot_delay, takeover=self.takeover, seed=self.seed
        )
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="auto",
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 15
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the web server did not start on port {self.port}")
            time.sleep(0.02)

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(15)
            assert not self._thread.is_alive(), "the web server did not stop"
        self._server = self._thread = None

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            return bytes(response.read())

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return dict(json.loads(response.read()))


_SHARED: dict[str, Any] = {"users": 0}
"""One Playwright and one Chromium for the session, whichever test module asks first
(tests/web/test_web_play.py imports these fixtures: two sync Playwrights cannot run at once)."""


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    reason = _missing()
    if reason is not None:
        _unavailable(reason)
    from playwright.sync_api import sync_playwright

    if _SHARED["users"] == 0:
        _SHARED["playwright"] = sync_playwright().start()
        _SHARED["browser"] = _SHARED["playwright"].chromium.launch(
            executable_path=_chromium(), args=CHROMIUM_ARGS
        )
    _SHARED["users"] += 1
    try:
        yield _SHARED["browser"]
    finally:
        _SHARED["users"] -= 1
        if _SHARED["users"] == 0:
            _SHARED.pop("browser").close()
            _SHARED.pop("playwright").stop()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    servers: list[LiveServer] = []

    def start(seed: int | None = None, **options: float) -> LiveServer:
        server = LiveServer(tmp_path / f"rooms-{len(servers)}.sqlite3", seed, **options)
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    contexts: list[Any] = []

    def make(locale: str = "en-US", width: int = 1100, height: int = 780) -> Any:
        context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.js_errors = errors  # checked at the end of each test
        return page

    yield make
    for context in contexts:
        errors = [e for p in context.pages for e in p.js_errors]
        context.close()
        assert not errors, f"JavaScript errors on the page: {errors}"


# -- what a player does ------------------------------------------------------------------------


def hand_cards(page: Any) -> list[str]:
    return [
        str(c)
        for c in page.get_by_test_id("hand")
        .locator("[data-card]")
        .evaluate_all("els => els.map(e => e.dataset.card)")
    ]


def trick_cards(page: Any) -> list[str]:
    return [
        str(c)
        for c in page.get_by_test_id("trick")
        .locator("[data-card]")
        .evaluate_all("els => els.map(e => e.dataset.card)")
    ]


def legal_cards(page: Any) -> list[str]:
    return [
        str(c)
        for c in page.get_by_test_id("hand")
        .locator('[data-legal="true"]')
        .evaluate_all("els => els.map(e => e.dataset.card)")
    ]


def start_game(
    page: Any,
    server: LiveServer,
    *,
    threshold: str = "1000",
    exposure: bool = True,
    level: str = "easy",
    name: str = "Ann",
) -> str:
    """Fill the start form and deal; returns the room id (from the URL /t/<id>)."""
    page.goto(server.url + "/")
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("threshold").select_option(threshold)
    page.get_by_test_id("level").select_option(level)
    page.get_by_test_id("exposure").set_checked(exposure)
    page.get_by_test_id("new-game").click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.get_by_test_id("hand").locator("[data-card]").first.wait_for()
    return page.url.rsplit("/", 1)[1]


def wait_my_move(page: Any) -> str:
    """Wait until this seat must act: 'exposure', 'play' or 'sheet' (the deal is scored)."""
    page.wait_for_function(
        """() => !document.getElementById('exposure-panel').hidden
              || !document.getElementById('sheet-panel').hidden
              || document.querySelector('[data-testid=hand] [data-legal=true]')"""
    )
    if page.get_by_test_id("score-sheet").is_visible():
        return "sheet"
    if page.get_by_test_id("exposure-panel").is_visible():
        return "exposure"
    return "play"


def play_one(page: Any, how: str = "twice") -> str:
    """Play a legal card: a click lifts it, a second click (or Play, or Enter) plays it."""
    card = legal_cards(page)[0]
    before = len(hand_cards(page))
    button = page.get_by_test_id("hand").locator(f'[data-card="{card}"]')
    if how == "keys":  # 1 … 9, 0: the first … tenth playable card
        page.keyboard.press("1")
        assert button.get_attribute("data-lifted") == "true"
        page.keyboard.press("Enter")
    elif how == "arrows":  # → from nothing lifted: the first playable card
        page.keyboard.press("ArrowRight")
        assert button.get_attribute("data-lifted") == "true"
        page.keyboard.press("Enter")
    else:
        button.click()
        assert button.get_attribute("data-lifted") == "true"
        if how == "button":
            page.get_by_test_id("play").click()
        else:
            button.click()
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=hand] [data-card]').length < n", arg=before
    )
    return card


def play_until(page: Any, stop: Callable[[], bool], limit: int = 14) -> list[str]:
    played = []
    for _ in range(limit):
        state = wait_my_move(page)
        if stop():
            break
        if state == "exposure":
            page.get_by_test_id("expose-decline").click()
        elif state == "sheet":
            break
        else:
            played.append(play_one(page))
    return played


def play_until_illegal(page: Any) -> Any:
    """Play on until this seat, at its turn, holds a card it may not play; its locator."""
    for _ in range(13):
        assert wait_my_move(page) == "play"
        illegal = page.get_by_test_id("hand").locator('[data-legal="false"]')
        if illegal.count():
            return illegal
        play_one(page)
    pytest.fail("never held an illegal card at this seat's turn")


def sheet_numbers(page: Any, line: int) -> dict[int, int]:
    cells = page.get_by_test_id("score-sheet").locator(f'[data-line="{line}"] [data-seat]')
    pairs = cells.evaluate_all("els => els.map(e => [e.dataset.seat, e.textContent])")
    return {int(seat): number(text) for seat, text in pairs}


def number(text: str) -> int:
    """A score as the page prints it: "+100", "−40" (U+2212, never a hyphen), "0"."""
    text = text.strip()
    assert "-" not in text, f"{text!r}: a hyphen where U+2212 belongs"
    assert not re.fullmatch(r"[1-9][0-9]*", text), f"{text!r}: a positive number without its +"
    return int(text.replace("\u2212", "-"))


def _find_seed(server: LiveServer, want: Callable[[dict[str, Any]], bool]) -> int:
    """A room seed whose first state for seat 0 satisfies ``want``, asked through the protocol."""
    from websockets.sync.client import connect

    for seed in range(40):
        made = server.post(
            "/api/rooms",
            {
                "threshold": 1000,
                "sign_swap": True,
                "exposure": True,
                "level": "easy",
                "name": "probe",
                "seed": seed,
            },
        )
        with connect(f"ws://127.0.0.1:{server.port}/ws/{made['room']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"], "name": "probe"}))
            while True:
                msg = json.loads(ws.recv(timeout=10))
                if msg["type"] == "state":
                    break
        if want(msg):
            return seed
    raise AssertionError("no seed in 0..39 gives the wanted first deal")


# -- the tests ------------------------------------------------------------------------------------


def test_a_whole_deal_by_clicking_matches_the_record(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    room = start_game(page, server, exposure=False)
    assert page.get_by_test_id("exposure-panel").is_hidden()
    assert page.get_by_test_id("invite").get_attribute("href").endswith(f"/t/{room}")
    played = []
    ways = ["keys", "button", "twice", "arrows"]
    while True:
        state = wait_my_move(page)
        if state == "sheet":
            break
        assert state == "play"
        played.append(play_one(page, ways[len(played) % len(ways)]))
    assert len(played) == 13
    assert hand_cards(page) == []

    # The seven-line sheet against the library's own scoring of the server's game record.
    rec = record.loads(server.get(f"/api/rooms/{room}/record"))
    deal = rec.rounds[0]
    assert [
        a.card.code for a in deal.history if getattr(a, "seat", None) == 0 and a.type == "play"
    ] == played
    sheet = deal.score()
    for line, field in ((1, "hearts"), (2, "pig"), (3, "sheep"), (4, "base"), (6, "total")):
        assert sheet_numbers(page, line) == {p.seat: getattr(p, field) for p in sheet.players}, (
            f"line {line}"
        )
    assert sheet_numbers(page, 7) == dict(enumerate(sheet.totals))
    assert sheet_numbers(page, 5) == {p.seat: p.total - p.base - p.bonus for p in sheet.players}
    plates = {
        s: page.locator(f'.plate[data-seat="{s}"] [data-testid="total"]').text_content()
        for s in range(4)
    }
    assert {s: number(v) for s, v in plates.items()} == dict(enumerate(sheet.totals))
    assert page.get_by_test_id("standings").locator("li").count() == 4
    assert page.get_by_test_id("game-over").is_hidden()

    page.get_by_test_id("next-deal").click()
    page.get_by_test_id("score-sheet").wait_for(state="hidden")
    page.wait_for_function(FULL_HAND)


def test_exposure_is_decided_in_the_panel(new_page, start_server) -> None:
    seed = _find_seed(start_server(), lambda m: len(m["exposure_options"]) >= 2)
    server = start_server(seed)
    page = new_page()
    start_game(page, server)
    panel = page.get_by_test_id("exposure-panel")
    panel.wait_for()
    boxes = panel.locator("[data-expose]")
    offered = boxes.evaluate_all("els => els.map(e => e.dataset.expose)")
    assert len(offered) >= 2
    assert set(offered) <= {"QS", "JD", "TC", "AH"}
    assert set(offered) <= set(hand_cards(page))
    # Each option says what exposing it changes ("Pig −100 → −200").
    assert all(
        "→" in panel.locator(f'label:has([data-expose="{c}"])').inner_text() for c in offered
    )
    confirm = panel.get_by_test_id("expose-confirm")
    assert confirm.is_hidden()  # never "Expose 0 and play": only "Don't expose" is offered
    boxes.first.check()
    assert re.search(r"\b1\b", confirm.inner_text())
    confirm.click()
    panel.wait_for(state="hidden")
    # The exposed card stays on this seat's plate for the whole deal.
    mine = page.locator('.plate[data-seat="0"] [data-testid="exposed"] [data-card]')
    mine.first.wait_for()
    assert mine.evaluate_all("els => els.map(e => e.dataset.card)") == [offered[0]]
    play_until(page, lambda: False, limit=3)
    exposed_now = mine.evaluate_all("els => els.map(e => e.dataset.card)")
    assert exposed_now == [offered[0]]


def test_an_illegal_card_is_greyed_and_explains_why(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    start_game(page, server, exposure=False)
    illegal = play_until_illegal(page)
    hand = hand_cards(page)
    card = illegal.first.get_attribute("data-card")
    illegal.first.click()
    reason = page.get_by_test_id("reason")
    # The server's sentence, in a player's words: the suit to follow, never a seat number.
    page.wait_for_function("() => document.querySelector('[data-testid=reason]').textContent")
    text = reason.inner_text().strip()
    assert re.match(
        r"(Follow suit: play a (club|diamond|heart|spade)|Lead the 2♣|Your exposed)", text
    )
    assert not re.search(r"seat \d", text)
    assert (
        page.get_by_test_id("hand").locator(f'[data-card="{card}"]').get_attribute("data-lifted")
        == "false"
    )
    assert hand_cards(page) == hand  # refused: nothing changed


def test_reload_mid_trick_finds_the_same_hand_and_trick(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    room = start_game(page, server, exposure=False)
    # Play on until this seat must answer a trick others have started.
    play_until(page, lambda: bool(trick_cards(page)))
    assert trick_cards(page), "no trick was in progress at this seat's turn"
    hand, trick = hand_cards(page), trick_cards(page)
    token = page.evaluate(f"localStorage.getItem('gongzhu:token:{room}')")
    assert token
    page.reload()
    page.get_by_test_id("hand").locator("[data-card]").first.wait_for()
    page.wait_for_function(LEGAL_CARD)
    assert hand_cards(page) == hand
    assert trick_cards(page) == trick
    play_one(page)  # and the seat is still this page's to play


def test_a_friend_joins_by_the_invite_link_and_plays_a_seat(new_page, start_server) -> None:
    server = start_server()
    ann = new_page()
    room = start_game(ann, server, exposure=False, name="Ann")
    invite = ann.get_by_test_id("invite").get_attribute("href")
    bob = new_page(width=420, height=860)  # a phone-sized screen
    bob.context.add_init_script("localStorage.setItem('gongzhu:name', 'Bob')")
    bob.goto(invite)
    # Opening the link asks for a name and whether to sit or watch; sitting takes the first
    # seat a computer holds (West, seat 1).
    bob.get_by_test_id("join-name").wait_for()
    assert bob.get_by_test_id("join-name").input_value() == "Bob"
    bob.get_by_test_id("join-sit").click()
    bob.get_by_test_id("hand").locator("[data-card]").first.wait_for()
    assert bob.locator('.plate[data-pos="0"]').get_attribute("data-seat") == "1"
    assert not set(hand_cards(bob)) & set(hand_cards(ann))
    ann.wait_for_function(
        "() => document.querySelector('.plate[data-seat=\"1\"]').textContent.includes('Bob')"
    )
    # West may have played before Bob sat: his hand is what Ann sees of West's (once her
    # dealing animation, which hides the plates' backs, is over).
    ann.wait_for_function("() => document.getElementById('felt').dataset.dealing !== 'true'")
    assert (
        str(len(hand_cards(bob))) == ann.locator('.plate[data-seat="1"] .backs .count').inner_text()
    )
    assert bob.evaluate(f"localStorage.getItem('gongzhu:token:{room}')")
    assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    # Both play their seats until two tricks are complete.
    moves = {"ann": 0, "bob": 0}
    deadline = time.monotonic() + 30
    while moves["ann"] < 2 or moves["bob"] < 2:
        assert time.monotonic() < deadline, f"stuck after {moves}"
        for name, page in (("ann", ann), ("bob", bob)):
            if page.get_by_test_id("hand").locator('[data-legal="true"]').count():
                play_one(page)
                moves[name] += 1
        time.sleep(0.02)
    assert len(hand_cards(bob)) <= 11


def test_the_server_restarts_mid_deal_and_the_game_goes_on(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    room = start_game(page, server, exposure=False)
    play_until(page, lambda: False, limit=3)
    wait_my_move(page)
    hand, trick = hand_cards(page), trick_cards(page)
    server.stop()
    page.get_by_text(EN["conn.reconnecting"]).first.wait_for()
    server.start()  # same port, same SQLite file: the room is rebuilt from its log
    page.get_by_text(EN["conn.online"]).first.wait_for()
    page.wait_for_function(LEGAL_CARD)
    assert hand_cards(page) == hand
    assert trick_cards(page) == trick
    played = play_one(page)
    # On another port (another origin) the seat's token is not there: it lives in this
    # origin's storage only (issue 27 item 15), so the page comes as a visitor.
    wait_my_move(page)
    assert played not in hand_cards(page)
    server.stop()
    server.start(new_port=True)
    page.goto(f"{server.url}/t/{room}")
    page.get_by_test_id("join-watch").wait_for()
    page.get_by_text(EN["conn.online"]).first.wait_for()
    page.wait_for_timeout(500)
    assert hand_cards(page) == []  # not seat 0's hand (and no other seat for this browser)


def test_a_stale_click_is_refused(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    held: list[Any] = []
    hold = threading.Event()
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        # A slow network: while `hold` is set the server's frames wait before reaching the page.
        upstream = ws.connect_to_server()
        sockets.append((ws, upstream))
        upstream.on_message(lambda m: held.append(m) if hold.is_set() else ws.send(m))

    page.route_web_socket(re.compile(r"/ws/"), route)
    start_game(page, server, exposure=False)
    play_until(page, lambda: len(legal_cards(page)) >= 2)
    first, second = legal_cards(page)[:2]
    size = len(hand_cards(page))
    hold.set()
    hand = page.get_by_test_id("hand")
    hand.locator(f'[data-card="{first}"]').click()
    hand.locator(f'[data-card="{first}"]').click()  # played: the server moves on, the page lags
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:  # the server's answer to the first card
        page.wait_for_timeout(20)
    assert held, "the server never answered the first card"
    # The page still shows the old position: the second card looks playable. Click it twice.
    hand.locator(f'[data-card="{second}"]').click()
    if hand.locator(f'[data-card="{second}"]').get_attribute("data-lifted") == "true":
        hand.locator(f'[data-card="{second}"]').click()
    deadline = time.monotonic() + 10
    while not any('"stale"' in str(m) for m in held) and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert any('"stale"' in str(m) for m in held), "the late click was not refused as stale"
    hold.clear()
    for message in held:
        sockets[-1][0].send(message)
    page.get_by_test_id("reason").get_by_text(EN["error.stale"]).wait_for()
    # Only the first card was played; the late one is still in the hand.
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=hand] [data-card]').length === n",
        arg=size - 1,
    )
    assert first not in hand_cards(page)
    assert second in hand_cards(page)


def test_the_language_follows_the_browser_and_can_be_switched(new_page, start_server) -> None:
    server = start_server()
    page = new_page(locale="uk-UA")
    page.goto(server.url + "/")
    uk = catalogue("uk")
    # The page switches language once its module has fetched the catalogue, which may be
    # after the load event (under load it was): wait for the switch, then check the page.
    page.wait_for_function("() => document.documentElement.lang.startsWith('uk')")
    assert page.get_by_test_id("lang").input_value() == "uk"
    assert page.get_by_test_id("new-game").inner_text() == uk["start.deal"]
    zh = catalogue("zh")
    page.get_by_test_id("lang").select_option("zh")
    page.wait_for_function("() => document.documentElement.lang.startsWith('zh')")
    assert page.get_by_test_id("new-game").inner_text() == zh["start.deal"]
    start_game(page, server, exposure=False)
    assert page.get_by_test_id("play").inner_text() == zh["hand.play"]
    ru = catalogue("ru")
    page.get_by_test_id("lang").select_option("ru")
    page.wait_for_function(
        "text => document.querySelector('[data-testid=play]').textContent === text",
        arg=ru["hand.play"],
    )
    page.reload()  # the choice is kept
    page.get_by_test_id("hand").locator("[data-card]").first.wait_for()
    assert page.get_by_test_id("play").inner_text() == ru["hand.play"]


def test_a_gap_in_the_room_events_makes_the_page_ask_for_a_resync(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    sent: list[dict[str, Any]] = []
    drop = threading.Event()
    dropped: list[int] = []

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def to_server(message: Any) -> None:
            sent.append(json.loads(message))
            upstream.send(message)

        def to_page(message: Any) -> None:
            data = json.loads(message)
            if drop.is_set() and data.get("type") == "state":
                drop.clear()  # one lost frame: the next one shows the gap
                dropped.append(data["event"])
                return
            ws.send(message)

        ws.on_message(to_server)
        upstream.on_message(to_page)

    page.route_web_socket(re.compile(r"/ws/"), route)
    start_game(page, server, exposure=False)
    # A moment when a computer plays after this seat, so more than one event follows the card.
    play_until(page, lambda: len(trick_cards(page)) < 3)
    assert all(m.get("event") is not None for m in sent if m["type"] == "action")
    drop.set()
    play_one(page)
    assert dropped
    deadline = time.monotonic() + 10
    while not any(m["type"] == "resync" for m in sent) and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert any(m["type"] == "resync" for m in sent), "the page did not ask for a resync"


def test_the_hint_shows_an_expected_score_on_each_legal_card(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    start_game(page, server, exposure=False)
    assert wait_my_move(page) == "play"
    legal = legal_cards(page)
    page.get_by_test_id("hint").click()
    badges = page.get_by_test_id("hand").locator("[data-hint]")
    badges.first.wait_for(timeout=60_000)
    hinted = badges.evaluate_all(
        "els => els.map(e => [e.closest('[data-card]').dataset.card, Number(e.dataset.hint)])"
    )
    assert sorted(c for c, _ in hinted) == sorted(legal)
    assert all(v == v and abs(v) < 2000 for _, v in hinted)  # numbers, in the game's range


def autoplay_deal(page: Any) -> None:
    """托管: let the computer play this seat's hand to the end of the deal (confirmed)."""
    page.get_by_test_id("autoplay").click()
    page.get_by_test_id("confirm").click()
    page.get_by_test_id("score-sheet").wait_for()


def test_autoplayed_deals_play_to_game_over(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    start_game(page, server, threshold="500", exposure=False)
    sheet, over = page.get_by_test_id("score-sheet"), page.get_by_test_id("game-over")
    deals = 0
    while not over.is_visible():
        assert deals <= 30, "the game did not end within 30 deals"
        if sheet.is_visible():
            page.get_by_test_id("next-deal").click()
            sheet.wait_for(state="hidden")
        autoplay_deal(page)
        deals += 1
    totals = sheet_numbers(page, 7)
    assert max(totals.values()) >= 500 or min(totals.values()) <= -500 or deals == 30
    # The ranking, first place first, each row a seat; the pig is last. Seats on equal
    # totals may come in either order (the page breaks ties by seat), so the test asks
    # for the totals' order, not for one seat of a tie.
    rows = over.get_by_test_id("ranking").locator("[data-seat]")
    seats = [int(x) for x in rows.evaluate_all("els => els.map(e => e.dataset.seat)")]
    assert sorted(seats) == [0, 1, 2, 3]
    assert totals[seats[0]] == max(totals.values())
    assert totals[seats[-1]] == min(totals.values())
    assert [totals[s] for s in seats] == sorted(totals.values(), reverse=True)
    names = ["You", "West", "North", "East"]
    assert names[seats[0]] in over.inner_text()
    assert page.get_by_test_id("next-deal").is_hidden()
    # Closed, the final table stays to look at; the ranking can be opened again.
    page.get_by_test_id("game-over-close").click()
    over.wait_for(state="hidden")
    page.get_by_test_id("game-over-show").click()
    over.wait_for()
    # A new game with the same settings starts from zero.
    page.get_by_test_id("play-again").click()
    over.wait_for(state="hidden")
    page.wait_for_function(FULL_HAND)
    for seat in range(4):
        total = page.locator(f'.plate[data-seat="{seat}"] [data-testid="total"]')
        assert total.inner_text() == "0"


def test_an_unknown_room_says_so(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    page.goto(server.url + "/t/nosuchroom123")
    page.get_by_test_id("reason").get_by_text(EN["error.no-room"]).wait_for()
    assert page.get_by_test_id("hand").locator("[data-card]").count() == 0
