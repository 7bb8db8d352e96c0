# ruff: noqa: F811  (the fixtures are imported from test_web_browser and named as arguments)
"""The web table as players use it (issue #26): safe clicks, a player's words, the game's feel,
friends and watchers, a phone — each item of the issue's test contract in a real browser.

The server and browser fixtures are tests/web/test_web_browser.py's (Playwright on the system's
Chromium, the real app under uvicorn on 127.0.0.1, computers without delay).
"""

from __future__ import annotations

import gzip
import re
import time
import urllib.request
from typing import Any

import pytest
from test_web_browser import (  # noqa: F401  (fixtures)
    FULL_HAND,
    LiveServer,
    autoplay_deal,
    browser,
    hand_cards,
    legal_cards,
    new_page,
    number,
    play_one,
    play_until_illegal,
    start_game,
    start_server,
    trick_cards,
    wait_my_move,
)

from gongzhu.i18n import LANGUAGES, translator
from gongzhu.web import words
from gongzhu.web.strings import catalogue

pytestmark = pytest.mark.timeout(180) if hasattr(pytest.mark, "timeout") else []


def click_empty_felt(page: Any) -> None:
    """Click the felt where nothing lies: its top-left corner (no plate, no card, no button)."""
    page.get_by_test_id("felt").click(position={"x": 6, "y": 6})


def skip_dealing(page: Any) -> None:
    if page.get_by_test_id("dealing").is_visible():
        click_empty_felt(page)
    page.get_by_test_id("dealing").wait_for(state="hidden")


def dealt(new_page: Any, start_server: Any, **page: Any) -> tuple[LiveServer, Any]:
    """A new game alone against the computers (no exposure), its dealing skipped."""
    server = start_server()
    tab = new_page(**page)
    start_game(tab, server, exposure=False)
    skip_dealing(tab)
    return server, tab


# -- 1. safe actions -------------------------------------------------------------------------


def test_a_click_on_the_felt_mid_deal_leaves_hand_and_trick_unchanged(
    new_page, start_server
) -> None:
    _, page = dealt(new_page, start_server)
    play_one(page)
    assert wait_my_move(page) == "play"
    hand, trick = hand_cards(page), trick_cards(page)
    for _ in range(3):
        click_empty_felt(page)
        page.get_by_test_id("trick").click()
    page.wait_for_timeout(600)  # time enough for a skipped deal to be played out
    assert hand_cards(page) == hand
    assert trick_cards(page) == trick
    assert page.get_by_test_id("score-sheet").is_hidden()


def test_the_dealing_animation_runs_and_a_click_on_the_felt_ends_it(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    start_game(page, server, exposure=False)
    dealing = page.get_by_test_id("dealing")
    assert dealing.is_visible(), "no dealing animation after 'Deal the cards'"
    click_empty_felt(page)
    assert dealing.is_hidden()  # at once: no wait for the animation's end
    page.wait_for_function(FULL_HAND)
    assert len(hand_cards(page)) == 13


def test_letting_the_computer_play_my_hand_asks_first(new_page, start_server) -> None:
    _, page = dealt(new_page, start_server)
    assert wait_my_move(page) == "play"
    hand = hand_cards(page)
    # "Let the computer play my hand" is not among Play and Hint.
    assert page.locator("#actions [data-testid=autoplay]").count() == 0
    page.get_by_test_id("autoplay").click()
    page.get_by_test_id("cancel").click()
    page.wait_for_timeout(400)
    assert hand_cards(page) == hand
    assert page.get_by_test_id("score-sheet").is_hidden()
    autoplay_deal(page)  # confirmed: the computers play it out
    assert hand_cards(page) == []
    # Between deals Play and Hint are gone.
    assert page.get_by_test_id("play").is_hidden()
    assert page.get_by_test_id("hint").is_hidden()


# -- 2. a player's words -----------------------------------------------------------------------


def _said(lang: str) -> re.Pattern[str]:
    """Every sentence the server may say for a refused card, as a pattern ({card} any text)."""
    t = translator(lang)
    templates = [
        *words._FOLLOW.values(),
        *words._HELD_BACK.values(),
        words._LEAD_OPENING,
    ]
    alternatives = [re.escape(t.gettext(m)).replace(re.escape("{card}"), ".+") for m in templates]
    return re.compile("^(" + "|".join(alternatives) + ")$")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_reasons_and_card_faces_speak_the_pages_language(new_page, start_server, lang) -> None:
    server = start_server()
    page = new_page(locale=lang)
    start_game(page, server, exposure=False)
    skip_dealing(page)
    assert page.evaluate("document.documentElement.lang") == lang
    illegal = play_until_illegal(page)
    # Clearly dimmed (darkened, and lowered by 8 px), yet the suit keeps its colour.
    dim = illegal.first.locator("img").evaluate("e => getComputedStyle(e).filter")
    assert "brightness(0.72)" in dim
    assert "grayscale" not in dim
    illegal.first.click()
    page.wait_for_function("() => document.querySelector('[data-testid=reason]').textContent")
    text = page.get_by_test_id("reason").inner_text().strip()
    assert _said(lang).match(text), text
    assert not re.search(r"(seat|座位|место|місце|místo)\s*\d", text, re.IGNORECASE), text
    # The card faces: no English nickname on a card outside English.
    sources = page.locator("#table-screen img").evaluate_all(
        "els => els.map(e => e.getAttribute('src'))"
    )
    faces = [s for s in sources if s and s.startswith("/cards/") and "back" not in s]
    assert faces
    assert all(s.endswith(f"?lang={lang}") for s in faces), faces[:3]
    for code in ("QS", "JD", "TC"):
        svg = server.get(f"/cards/{code}.svg?lang={lang}").decode("utf-8")
        english = re.findall(r">\s*(?:the )?(pig|sheep|transformer)\s*<", svg)
        # English names the pig and the sheep; "transformer" is too long to be legible up
        # the card's edge and is left out (tests/svg: nicknames legible or not drawn).
        assert bool(english) == (lang == "en" and code != "TC"), (code, english)


def test_scores_are_written_with_a_real_minus_and_a_plus(new_page, start_server) -> None:
    _, page = dealt(new_page, start_server)
    autoplay_deal(page)
    cells = page.locator("[data-testid=score-sheet] td[data-seat], [data-testid=total]")
    texts = cells.all_inner_texts()
    assert texts
    for text in texts:
        assert re.fullmatch(r"0|\+[1-9][0-9]*|\u2212[1-9][0-9]*", text.strip()), text


# -- 3. rules in prose ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_rules_panel_is_prose_in_the_pages_language(new_page, start_server, lang) -> None:
    server = start_server()
    page = new_page(locale=lang)
    start_game(page, server, exposure=True)
    page.get_by_test_id("rules").click()
    panel = page.get_by_test_id("rules-panel")
    panel.wait_for()
    text = panel.inner_text()
    strings = catalogue(lang)
    # At a table the exposure and scoring paragraphs are written from its rules.
    for key in ("rules.p1", "rules.p2", "rules.exposure_restriction", "rules.example"):
        assert strings[key] in text, key
    # No option identifiers, no Python values: a player's words only.
    assert not re.search(r"\b[a-z]+_[a-z_]+\b|\bTrue\b|\bFalse\b|\bNone\b", text)
    assert strings["rules.in_force"] in text
    assert "+200" in text  # the scoring table
    assert "\u2212100" in text


# -- 8. speed: compressed, cached, one language --------------------------------------------------


def _fetch(server: LiveServer, path: str) -> tuple[dict[str, str], bytes]:
    request = urllib.request.Request(server.url + path, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return {k.lower(): v for k, v in response.headers.items()}, response.read()


def test_static_files_are_compressed_and_cached_under_versioned_urls(start_server) -> None:
    server = start_server()
    headers, body = _fetch(server, "/")
    page = gzip.decompress(body).decode() if headers.get("content-encoding") == "gzip" else body
    assert "no-cache" in headers.get("cache-control", "")
    match = re.search(r'src="(/static/([0-9a-f]{8,})/app\.js)"', str(page))
    assert match, "the page's script is not under a versioned URL"
    headers, body = _fetch(server, match.group(1))
    assert headers.get("content-encoding") == "gzip"
    assert "immutable" in headers["cache-control"]
    assert b"@ts-check" in gzip.decompress(body)
    headers, body = _fetch(server, f"/static/{match.group(2)}/i18n/zh.json")
    assert headers.get("content-encoding") == "gzip"
    assert "immutable" in headers["cache-control"]


def test_the_page_loads_only_its_own_language(new_page, start_server) -> None:
    server = start_server()
    page = new_page(locale="ru-RU")
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url))
    page.goto(server.url + "/")
    page.get_by_test_id("new-game").wait_for()
    page.wait_for_function("() => document.documentElement.lang === 'ru'")
    catalogues = [u for u in seen if "/i18n/" in u]
    assert len(catalogues) == 1
    assert catalogues[0].endswith("/ru.json")


# -- 7. a phone ----------------------------------------------------------------------------------


def test_a_phone_keeps_the_compass_fits_the_sheet_and_has_big_targets(
    new_page, start_server
) -> None:
    server = start_server()
    page = new_page(width=390, height=844)
    start_game(page, server, exposure=False)
    skip_dealing(page)
    assert wait_my_move(page) == "play"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

    def box(pos: int) -> dict[str, float]:
        return page.locator(f'.plate[data-pos="{pos}"]').bounding_box()

    me, west, north, east = box(0), box(1), box(2), box(3)
    centre = lambda b: (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)  # noqa: E731
    assert centre(north)[1] < centre(west)[1] < centre(me)[1]
    assert abs(centre(west)[1] - centre(east)[1]) < 40  # West and East face each other
    assert centre(west)[0] < centre(north)[0] < centre(east)[0]
    # Touch targets: every visible button and every card of the hand at least 44 px.
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, select, [data-testid=hand] [data-card]')]
              .filter(e => e.offsetParent !== null)
              .map(e => [e.dataset.testid || e.dataset.card || e.id, e.getBoundingClientRect()])
              .filter(([, r]) => r.width < 44 || r.height < 44)
              .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == []
    autoplay_deal(page)
    for wrap in page.locator("#sheet-panel .sheet-wrap").all():  # the deal's sheet, the history
        assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "a sheet scrolls sideways"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_reduced_motion_skips_the_animations(browser, start_server) -> None:
    server = start_server()
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1000, "height": 760})
    try:
        page = context.new_page()
        start_game(page, server, exposure=False)
        assert page.get_by_test_id("dealing").is_hidden()
        page.wait_for_function(FULL_HAND)
    finally:
        context.close()


# -- 6. friends and watchers ---------------------------------------------------------------------


def test_a_visitor_may_just_watch_and_sees_only_public_cards(new_page, start_server) -> None:
    server = start_server()
    ann = new_page()
    start_game(ann, server, exposure=False)
    invite = ann.get_by_test_id("invite").get_attribute("href")
    eve = new_page()
    eve.goto(invite)
    eve.get_by_test_id("join-name").wait_for()
    eve.get_by_test_id("join-watch").click()
    eve.get_by_test_id("join-name").wait_for(state="hidden")
    eve.get_by_test_id("trick").wait_for(state="attached")
    time.sleep(0.3)
    assert hand_cards(eve) == []
    assert eve.locator("[data-sit]").count() == 3  # the computers' seats stay free to take
    client = eve.evaluate("JSON.stringify(window.gongzhuClient.msg.view.hand)")
    assert client == "[]"


def test_leaving_a_game_in_progress_asks_first(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    room = start_game(page, server, exposure=False)
    skip_dealing(page)
    page.locator("#brand").click()
    page.get_by_test_id("cancel").click()
    assert page.url.endswith(f"/t/{room}")
    assert page.get_by_test_id("hand").is_visible()
    page.locator("#brand").click()
    page.get_by_test_id("confirm").click()
    page.get_by_test_id("new-game").wait_for()


def test_the_hints_thinking_line_is_cleared_by_the_answer(new_page, start_server) -> None:
    _, page = dealt(new_page, start_server)
    assert wait_my_move(page) == "play"
    page.get_by_test_id("hint").click()
    page.get_by_test_id("hand").locator("[data-hint]").first.wait_for(timeout=60_000)
    assert page.get_by_test_id("reason").inner_text().strip() == ""


# -- 4. history, thinking; 5. the deal number; 6. away seats; 3. variants (server support) ---------


def test_the_history_has_a_row_per_finished_deal_with_a_cell_per_seat(
    new_page, start_server
) -> None:
    _, page = dealt(new_page, start_server)
    for deal in (1, 2):
        autoplay_deal(page)
        if deal == 1:
            page.get_by_test_id("next-deal").click()
            page.get_by_test_id("score-sheet").wait_for(state="hidden")
            skip_dealing(page)
    page.get_by_test_id("history-open").click()
    history = page.get_by_test_id("history")
    history.wait_for()
    rows = history.locator("[data-deal]")
    assert rows.evaluate_all("els => els.map(e => e.dataset.deal)") == ["1", "2"]
    for row in range(2):
        cells = rows.nth(row).locator("[data-seat]")
        assert cells.evaluate_all("els => els.map(e => e.dataset.seat)") == ["0", "1", "2", "3"]
    # Each cell holds the running total alone; the last row's are the plates' game totals,
    # and each row adds the deal's score (data-score) to the row before.
    scores = [
        [
            number(x)
            for x in rows.nth(r)
            .locator("[data-seat]")
            .evaluate_all("els => els.map(e => e.dataset.score)")
        ]
        for r in range(2)
    ]
    totals = [
        [number(x) for x in rows.nth(r).locator("[data-seat]").all_inner_texts()] for r in range(2)
    ]
    assert totals[0] == scores[0]
    assert totals[1] == [a + b for a, b in zip(totals[0], scores[1], strict=True)]
    last = rows.nth(1).locator("[data-seat]").all_inner_texts()
    plates = [
        page.locator(f'.plate[data-seat="{s}"] [data-testid="total"]').inner_text()
        for s in range(4)
    ]
    assert last == plates


def test_a_game_started_from_a_number_shows_it_and_deals_the_same_cards(
    new_page, start_server
) -> None:
    server = start_server()
    hands = []
    for _ in range(2):
        page = new_page()
        page.goto(server.url + "/")
        page.get_by_test_id("seed").fill("4242")
        page.get_by_test_id("exposure").set_checked(False)
        page.get_by_test_id("new-game").click()
        page.get_by_test_id("hand").locator("[data-card]").first.wait_for()
        page.wait_for_function(FULL_HAND)
        page.wait_for_function(
            "() => document.querySelector('[data-testid=deal-number]').textContent.includes('4242')"
        )
        hands.append(hand_cards(page))
    assert hands[0] == hands[1]
    # A game started without a number does not show one (until it is over).
    page = new_page()
    start_game(page, server, exposure=False)
    page.wait_for_function(FULL_HAND)
    assert not re.search(r"\d{3,}", page.get_by_test_id("deal-number").inner_text())


def test_the_deciding_computers_plate_is_marked_thinking(new_page, start_server) -> None:
    server = start_server(bot_delay=0.8)
    page = new_page()
    start_game(page, server, exposure=False)
    skip_dealing(page)
    either = """() => {
        const plates = document.querySelectorAll('.plate[data-thinking="true"]');
        const thinking = [...plates].map(p => p.dataset.seat);
        if (thinking.length) return {thinking};
        const mine = document.querySelector('[data-testid=hand] [data-legal=true]');
        return mine ? {mine: true} : null;
    }"""
    for _ in range(13):  # play on until a computer decides while the page looks
        found = page.wait_for_function(either, timeout=30_000).json_value()
        if "thinking" in found:
            break
        play_one(page)
    else:
        pytest.fail("no computer's plate was ever marked thinking")
    assert len(found["thinking"]) == 1  # one computer decides at a time
    assert found["thinking"][0] != "0"  # never this page's own seat


def test_an_away_friend_counts_down_and_the_host_returns_the_seat(new_page, start_server) -> None:
    server = start_server(takeover=6.0)
    ann = new_page()
    start_game(ann, server, exposure=False)
    invite = ann.get_by_test_id("invite").get_attribute("href")
    bob = new_page()
    bob.goto(invite)
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-sit").click()
    bob.get_by_test_id("hand").locator("[data-card]").first.wait_for()
    ann.wait_for_function(
        "() => document.querySelector('.plate[data-seat=\"1\"]').textContent.includes('Bob')"
    )
    bob.close()
    plate = ann.locator('.plate[data-seat="1"]')
    ann.wait_for_selector('.plate[data-seat="1"][data-away="true"]')
    ann.wait_for_function(
        "() => Number(document.querySelector('.plate[data-seat=\"1\"]').dataset.countdown) > 0"
    )
    first = int(plate.get_attribute("data-countdown"))
    assert 0 < first <= 6
    assert plate.get_by_test_id("return-to-computer").count() == 0  # not while it runs
    ann.wait_for_timeout(2300)
    assert int(plate.get_attribute("data-countdown")) < first  # it counts down
    plate.get_by_test_id("return-to-computer").click(timeout=15_000)  # once it ran out
    ann.get_by_test_id("confirm").click()
    ann.wait_for_function(
        "() => !document.querySelector('.plate[data-seat=\"1\"]').dataset.away"
        " && !document.querySelector('.plate[data-seat=\"1\"]').textContent.includes('Bob')"
    )


def test_the_start_screens_variants_become_the_tables_rules(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    page.goto(server.url + "/")
    page.get_by_test_id("threshold").select_option("deals8")
    page.get_by_test_id("more-rules").locator("summary").click()
    page.get_by_test_id("all-hearts").select_option("400")
    page.get_by_test_id("exposable").select_option("pig-transformer")
    page.get_by_test_id("new-game").click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    room = page.url.rsplit("/", 1)[1]
    page.get_by_test_id("hand").locator("[data-card]").first.wait_for()
    import json

    rules = json.loads(server.get(f"/api/rooms/{room}"))["rules"]
    assert rules["all_hearts_value"] == 400
    assert sorted(rules["exposable"].split()) == ["QS", "TC"]
    assert rules["max_deals"] == 8
    assert rules["win_threshold"] is None
    page.get_by_test_id("rules").click()
    text = page.get_by_test_id("rules-panel").inner_text()
    assert "+400" in text


def test_the_start_screen_sums_up_the_chosen_rules_in_the_tables_words(
    new_page, start_server
) -> None:
    # reviews/webplayer-2026-12c §4: one line under the rule-set choice, in the words of the
    # table's rule chips, following every choice; the table then shows the same chips.
    en = catalogue("en")
    server = start_server()
    page = new_page()
    page.goto(server.url + "/")
    summary = page.get_by_test_id("rules-summary")

    def says(*parts: str) -> str:
        page.wait_for_function(
            "parts => { const box = document.querySelector('[data-testid=rules-summary]');"
            " return box.dataset.ready === 'true'"
            " && parts.every(p => box.textContent.includes(p)); }",
            arg=list(parts),
        )
        return str(summary.inner_text())

    text = says(en["rules.threshold"].format(n=1000), en["rules.swap_on"])
    assert en["rules.max_deals"].format(n=30) in text
    assert en["rules.all_hearts_value"].format(n="+200") in text
    assert "Q\u2660" in text  # the four exposable cards
    assert "A\u2665" in text
    assert "\n" not in text.strip()  # one line of text (it may wrap on a narrow screen)
    page.get_by_test_id("threshold").select_option("500")
    says(en["rules.threshold"].format(n=500))
    page.get_by_test_id("sign-swap").set_checked(False)
    says(en["rules.swap_off"])
    page.get_by_test_id("threshold").select_option("deals8")
    text = says(en["rules.fixed_deals"].format(n=8))
    assert "±" not in text
    page.get_by_test_id("more-rules").locator("summary").click()
    page.get_by_test_id("all-hearts").select_option("400")
    page.get_by_test_id("exposable").select_option("pig-transformer")
    text = says(en["rules.all_hearts_value"].format(n="+400"), "Q\u2660")
    assert "A\u2665" not in text
    assert "J\u2666" not in text
    page.get_by_test_id("exposure").set_checked(False)
    text = says(en["rules.exposure_off"])
    page.get_by_test_id("exposure").set_checked(True)
    text = says(en["rules.exposable"].format(cards=""), "Q\u2660", "10\u2663")
    # The table, once dealt, shows the same words (its chips add the computers' level).
    page.get_by_test_id("new-game").click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.wait_for_function(FULL_HAND)
    page.get_by_test_id("rules").click()
    chips = page.locator("#rules-chips li").all_inner_texts()
    level = en["rules.level"].format(level=en["level.normal"])
    assert [c for c in chips if c != level] == text.split(" \u00b7 ")
    # In another language the line speaks it.
    page.goto(server.url + "/")
    page.get_by_test_id("lang").select_option("zh")
    zh = catalogue("zh")
    says(zh["rules.threshold"].format(n=1000))


def test_the_web_hard_level_thinks_to_a_time_limit() -> None:
    from gongzhu.ai.registry import HARD_LIMIT
    from gongzhu.ai.search import SearchStrategy
    from gongzhu.web.rooms import HARD_SECONDS, Room, Settings
    from gongzhu.web.store import MemoryStore

    room, _ = Room.create(MemoryStore(), Settings(level="hard"), "Ann", seed=5)
    strategy = room.strategy(1)
    assert isinstance(strategy, SearchStrategy)
    assert strategy.limit.time == HARD_SECONDS <= 1.0
    assert strategy.limit.simulations == HARD_LIMIT.simulations


def test_the_last_trick_is_shown_again_on_demand(new_page, start_server) -> None:
    _, page = dealt(new_page, start_server)
    for _ in range(8):
        assert wait_my_move(page) == "play"
        if page.get_by_test_id("last-trick").is_visible():
            break
        play_one(page)
    last = page.get_by_test_id("last-trick")
    assert last.locator("img").count() == 4
    page.get_by_test_id("last-trick-show").click()
    flash = page.locator("#trick-flash")
    flash.wait_for()
    assert flash.locator("img").count() == 4


def test_a_card_taken_back_returns_to_the_hand_and_the_trick_is_as_before(
    new_page, start_server
) -> None:
    _, page = dealt(new_page, start_server)
    assert wait_my_move(page) == "play"
    assert page.get_by_test_id("undo").is_hidden()  # nothing of mine played yet
    for how in ("button", "key"):
        assert wait_my_move(page) == "play"
        hand, trick = hand_cards(page), trick_cards(page)
        card = legal_cards(page)[0]
        play_one(page)
        assert card not in hand_cards(page)
        undo = page.get_by_test_id("undo")
        undo.wait_for(state="visible")
        if how == "button":
            undo.click()
        else:
            page.keyboard.press("u")
        page.wait_for_function(
            "c => document.querySelector(`[data-testid=hand] [data-card=\"${c}\"]`)", arg=card
        )
        assert wait_my_move(page) == "play"
        assert hand_cards(page) == hand
        page.wait_for_function(
            """t => JSON.stringify([...document.querySelectorAll('[data-testid=trick] [data-card]')]
                                   .map(e => e.dataset.card)) === JSON.stringify(t)""",
            arg=trick,
        )
        assert trick_cards(page) == trick
    stats = page.evaluate("() => JSON.parse(localStorage.getItem('gongzhu:stats') || '{}')")
    assert stats.get("undos") == 2
    assert stats.get("undoDeals") == 1
