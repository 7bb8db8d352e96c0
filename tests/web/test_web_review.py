# ruff: noqa: F811  (the fixtures are imported from test_web_browser and named as arguments)
"""The review of a deal, deal codes, the deal of the day and records, in a real browser.

The server and browser fixtures are tests/web/test_web_browser.py's (Playwright on the system's
Chromium against the real app with computers that do not wait). Every check goes through the
page's ``data-testid`` hooks (docs/web_table.rst, "Review, deal codes and the deal of the day").
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import (  # noqa: F401  (fixtures)
    LiveServer,
    autoplay_deal,
    browser,
    hand_cards,
    legal_cards,
    new_page,
    start_game,
    start_server,
    wait_my_move,
)

from gongzhu import record
from gongzhu.table import Table
from gongzhu.web.settings import Settings
from sample_rounds import exposed_pig_deal

pytestmark = pytest.mark.timeout(180) if hasattr(pytest.mark, "timeout") else []
CODE = re.compile(r"[0-9A-Z]{1,16}")
REVIEW_MS = 60_000
"""A review searches about a second a deal on a quiet machine; a loaded CI box gets longer."""


def play_deal(page: Any, pick: str = "first") -> list[str]:
    """Play this seat's cards to the deal's end: the first legal card, or the highest-ranked
    (``"worst"``: the ace that takes the trick, the pig thrown on one's own trick)."""
    played = []
    for _ in range(20):
        state = wait_my_move(page)
        if state == "sheet":
            return played
        if state == "exposure":
            page.get_by_test_id("expose-decline").click()
            continue
        legal = legal_cards(page)
        card = legal[-1] if pick == "worst" else legal[0]
        before = len(hand_cards(page))
        button = page.get_by_test_id("hand").locator(f'[data-card="{card}"]')
        button.click()
        button.click()
        page.wait_for_function(
            "n => document.querySelectorAll('[data-testid=hand] [data-card]').length < n",
            arg=before,
        )
        played.append(card)
    raise AssertionError("the deal did not end")


def review_tricks(page: Any) -> list[tuple[int, int, list[str]]]:
    items = page.get_by_test_id("review-trick")
    return [
        (int(n), int(w), cards)
        for n, w, cards in items.evaluate_all(
            """els => els.map(e => [e.dataset.trick, e.dataset.winner,
                 [...e.querySelectorAll('[data-card]')].map(c => c.dataset.card)])"""
        )
    ]


def record_tricks(rnd: Any) -> list[tuple[int, int, list[str]]]:
    return [(k, t.winner, [c.code for c in t.cards]) for k, t in enumerate(rnd.tricks, 1)]


def test_a_deal_played_badly_shows_where_points_were_lost(new_page, start_server) -> None:
    server = start_server(seed=20261205)
    page = new_page()
    room = start_game(page, server, exposure=False)
    play_deal(page, "worst")
    page.get_by_test_id("review").click()
    panel = page.get_by_test_id("review-panel")
    panel.wait_for()
    page.get_by_test_id("review-trick").nth(12).wait_for(timeout=REVIEW_MS)

    # The 13 tricks as the server's record has them: cards in play order and the winner.
    rnd = record.loads(server.get(f"/api/rooms/{room}/record")).rounds[0]
    assert review_tricks(page) == record_tricks(rnd)

    # Points lost: whole positive numbers, on the player's own tricks, with a better card
    # that was legal for the player then.
    losses = page.get_by_test_id("review-loss")
    assert losses.count() >= 1
    plays = [a for a in rnd.history if getattr(a, "card", None) is not None]
    for k in range(losses.count()):
        loss = losses.nth(k)
        trick, points = (
            int(loss.get_attribute("data-trick")),
            int(loss.get_attribute("data-points")),
        )
        better = loss.get_attribute("data-better")
        assert 1 <= trick <= 13
        assert points > 0
        mine = next(a for a in plays[(trick - 1) * 4 : trick * 4] if a.seat == 0)
        assert better != mine.card.code
        assert better in (c.code for c in _legal_at(rnd, mine))
        assert str(points) in loss.inner_text()  # a sentence, not only a number

    # Stepping: buttons and keys, the current trick marked aria-current="step".
    current = "[data-testid=review-trick][aria-current=step]"
    assert page.locator(current).get_attribute("data-trick") == "1"
    page.get_by_test_id("review-next").click()
    assert page.locator(current).get_attribute("data-trick") == "2"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator(current).get_attribute("data-trick") == "4"
    page.keyboard.press("ArrowLeft")
    page.get_by_test_id("review-prev").click()
    assert page.locator(current).get_attribute("data-trick") == "2"
    page.keyboard.press("End")
    assert page.locator(current).get_attribute("data-trick") == "13"


def play_to_the_end(page: Any) -> str:
    """Let the computer play this seat's deals to the game's end; the number then shown."""
    sheet, over = page.get_by_test_id("score-sheet"), page.get_by_test_id("game-over")
    for _ in range(31):
        if over.is_visible():
            break
        if sheet.is_visible():
            page.get_by_test_id("next-deal").click()
            sheet.wait_for(state="hidden")
        autoplay_deal(page)
    assert over.is_visible()
    number = page.get_by_test_id("deal-number").get_attribute("data-number")
    assert number
    assert re.fullmatch(r"[0-9]{1,15}", number)
    return str(number)


def _legal_at(rnd: Any, action: Any) -> Any:
    from gongzhu.ai.review import start_of

    state = start_of(rnd)
    for a in rnd.history:
        if a == action:
            return state.legal_plays
        state = state.apply(a)
    raise AssertionError("not in the history")


def test_the_deal_link_deals_the_same_cards_in_another_browser(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    room = start_game(page, server, exposure=False)
    first_hand = sorted(hand_cards(page))
    play_deal(page)
    code = page.get_by_test_id("deal-code")
    code.wait_for()
    assert CODE.fullmatch(code.inner_text().strip())
    href = page.get_by_test_id("copy-deal-link").get_attribute("data-href")
    assert href
    assert href.endswith("/d/" + code.inner_text().strip())

    # Another browser (a fresh context: no storage, no cookie) opens the link.
    friend = new_page()
    friend.goto(href)
    friend.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    friend.get_by_test_id("hand").locator("[data-card]").nth(12).wait_for()
    assert sorted(hand_cards(friend)) == first_hand
    assert friend.url.rsplit("/", 1)[1] != room

    # Replay: a new table, the same hand again; the computers play the deal as before.
    page.get_by_test_id("replay-deal").click()
    page.wait_for_url(lambda url: "/t/" in url and not url.endswith(room))
    page.get_by_test_id("hand").locator("[data-card]").nth(12).wait_for()
    assert sorted(hand_cards(page)) == first_hand


def test_the_deal_of_the_day_is_one_deal_and_one_board(new_page, start_server) -> None:
    server = start_server()
    hands, pages = [], []
    for name in ("Ann", "Bob <b>"):
        page = new_page()
        page.goto(server.url + "/")
        page.get_by_test_id("name").fill(name)
        page.get_by_test_id("daily").click()
        page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        page.get_by_test_id("hand").locator("[data-card]").nth(12).wait_for()
        hands.append(sorted(hand_cards(page)))
        pages.append(page)
    assert hands[0] == hands[1]
    for page in pages:
        play_deal(page)
    for page in pages:
        page.reload()  # the board as it stands now, both results in
        page.get_by_test_id("daily-row").nth(1).wait_for()
        rows = page.get_by_test_id("daily-row")
        assert rows.count() == 2
        mine = page.locator("[data-testid=daily-row][data-me=true]")
        assert mine.count() == 1
        for k in range(2):
            int(rows.nth(k).get_attribute("data-points"))  # a signed whole number
    # The name is shown as text, never as markup.
    assert "Bob <b>" in pages[0].get_by_test_id("daily-board").inner_text()
    # The same browser playing again does not count twice.
    again = pages[0]
    again.goto(server.url + "/")
    again.get_by_test_id("daily").click()
    again.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    play_deal(again)
    again.get_by_test_id("daily-row").nth(1).wait_for()
    assert again.get_by_test_id("daily-row").count() == 2


def test_a_record_opens_in_the_page(new_page, start_server, tmp_path: Path) -> None:
    server = start_server()
    page = new_page()
    room = start_game(page, server, exposure=False)
    play_deal(page)
    text = server.get(f"/api/rooms/{room}/record")
    path = tmp_path / "game.json"
    path.write_bytes(text)
    viewer = new_page(width=390, height=844)
    viewer.goto(server.url + "/replay")
    viewer.get_by_test_id("open-record").set_input_files(str(path))
    viewer.get_by_test_id("review-trick").nth(12).wait_for(timeout=REVIEW_MS)
    rnd = record.loads(text).rounds[0]
    assert review_tricks(viewer) == record_tricks(rnd)
    # The list of tricks is seen, not squeezed to nothing by the dialog.
    height = viewer.evaluate("() => document.getElementById('review-tricks').clientHeight")
    assert height > 100
    # The phone layout: nothing wider than the screen.
    width = viewer.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390


def test_a_finished_games_number_reproduces_it(new_page, start_server) -> None:
    # The number a game shows at its end has at most 15 digits and deals the same game; a
    # longer one is refused, not cut.
    server = start_server()
    page = new_page()
    room = start_game(page, server, threshold="500", exposure=False)
    first_hand = sorted(hand_cards(page))
    rules = Settings(threshold=500, exposure=False).rules()
    numbers = []
    for game in (1, 2):  # the game, then "new game, same settings"
        number = play_to_the_end(page)
        played = record.loads(server.get(f"/api/rooms/{room}/record"))
        # The number deals this game: its first deal, and every deal after it.
        again = Table.replay(rules, int(number), 1, [])
        assert again.round.dealt == played.rounds[0].dealt, f"game {game}"
        numbers.append(number)
        if game == 1:
            page.get_by_test_id("play-again").click()
            page.get_by_test_id("game-over").wait_for(state="hidden")
    assert numbers[0] != numbers[1]
    # Typed into the start screen, the first number deals the same game.
    page.goto(server.url + "/")
    page.get_by_test_id("seed").fill(numbers[0])
    page.get_by_test_id("exposure").set_checked(False)
    page.get_by_test_id("threshold").select_option("500")
    page.get_by_test_id("level").select_option("easy")
    page.get_by_test_id("new-game").click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.get_by_test_id("hand").locator("[data-card]").nth(12).wait_for()
    assert sorted(hand_cards(page)) == first_hand
    page.goto(server.url + "/")
    page.get_by_test_id("seed").fill("1234567890123456")
    page.get_by_test_id("new-game").click()
    page.wait_for_function("() => document.getElementById('start-error').textContent.length > 0")
    assert "/t/" not in page.url
    assert page.get_by_test_id("seed").input_value() == "1234567890123456"


# -- the exposure decision ----------------------------------------------------------------------


def test_the_reviews_json_carries_the_exposure_decision() -> None:
    from gongzhu import deal
    from gongzhu.web.review import review_json

    data = review_json(exposed_pig_deal(), 0)
    assert data["exposure_judged"] is True
    exposure = data["exposure"]
    assert exposure["chosen"] == ["QS"]
    assert exposure["better"] == []
    assert isinstance(exposure["points"], int)
    assert exposure["points"] >= 10
    # No exposure in the rule set: nothing judged, nothing lost.
    flat = deal(rules="flat-pig", seed=3).pass_exposure()
    while not flat.is_over:
        flat = flat.play(flat.legal_plays.cards[0])
    data = review_json(flat, 0)
    assert data["exposure_judged"] is False
    assert data["exposure"] is None


def test_a_costly_exposure_is_the_first_loss_shown(new_page, start_server, tmp_path: Path) -> None:
    server = start_server()
    rnd = exposed_pig_deal()
    path = tmp_path / "game.json"
    path.write_text(record.dumps(rnd, names=["Ann", "Bob", "Cid", "Dee"]), encoding="utf-8")
    viewer = new_page()
    viewer.goto(server.url + "/replay")
    viewer.get_by_test_id("open-record").set_input_files(str(path))
    viewer.get_by_test_id("review-trick").nth(12).wait_for(timeout=REVIEW_MS)
    losses = viewer.get_by_test_id("review-loss")
    first = losses.nth(0)
    assert first.get_attribute("data-exposure") == "1"
    assert first.get_attribute("data-chosen") == "QS"
    assert first.get_attribute("data-better") == ""
    points = int(first.get_attribute("data-points"))
    assert points >= 10
    text = first.inner_text()
    assert str(points) in text
    assert "Q♠" in text  # the card as the loss lines show cards
    assert "declining" in text
    # Only the first item is the exposure; the summary counts it with the cards.
    assert viewer.locator("[data-testid=review-loss][data-exposure]").count() == 1
    cards = [int(losses.nth(k).get_attribute("data-points")) for k in range(1, losses.count())]
    summary = viewer.locator("#review-summary").inner_text()
    assert f"{losses.count()} costly choices, about {points + sum(cards)} points" in summary
