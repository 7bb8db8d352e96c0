# ruff: noqa: F811  (the fixtures are imported from test_web_browser and named as arguments)
"""Friends at one table in a real browser: the lobby of a table that waits for friends, the
friend who sits before the deal, the watchers' count, the rematch with the same players, and
what a friend who sits at a running game is told.

The server and browser fixtures are tests/web/test_web_browser.py's (Playwright on the system's
Chromium, the real app under uvicorn on 127.0.0.1, computers without delay).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from test_web_browser import (  # noqa: F401  (fixtures)
    EN,
    FULL_HAND,
    LEGAL_CARD,
    LiveServer,
    browser,
    hand_cards,
    new_page,
    play_one,
    start_server,
)

pytestmark = pytest.mark.timeout(180) if hasattr(pytest.mark, "timeout") else []


def lobby_seat(page: Any, seat: int) -> Any:
    return page.locator(f'[data-testid="lobby-seat"][data-seat="{seat}"]')


def open_with_token(page: Any, server: LiveServer, room: str, token: str) -> None:
    """Open room ``room`` as the seat whose token this is (as the page that created it)."""
    page.goto(server.url + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"gongzhu:token:{room}", token])
    page.goto(f"{server.url}/t/{room}")


def test_friends_sit_in_the_lobby_and_the_host_deals(new_page, start_server) -> None:
    server = start_server()
    ann = new_page()
    ann.goto(server.url + "/")
    ann.get_by_test_id("name").fill("Ann")
    ann.get_by_test_id("level").select_option("easy")
    ann.get_by_test_id("wait-for-friends").check()
    ann.get_by_test_id("new-game").click()
    ann.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    # The lobby: four seats, the host's start button, and no card dealt to anyone.
    ann.get_by_test_id("lobby").wait_for()
    lobby_seat(ann, 3).wait_for()
    assert ann.get_by_test_id("lobby-seat").count() == 4
    assert "Ann" in lobby_seat(ann, 0).inner_text()
    assert ann.get_by_test_id("start-deal").is_visible()
    assert hand_cards(ann) == []
    # A friend opens the invite link, types a name and sits: the host sees her by name.
    invite = ann.get_by_test_id("invite").get_attribute("href")
    lena = new_page()
    lena.goto(invite)
    lena.get_by_test_id("join-name").fill("Lena")
    assert lena.get_by_test_id("join-note").is_hidden()  # nothing to take over yet
    lena.get_by_test_id("join-sit").click()
    lena.get_by_test_id("lobby").wait_for()
    ann.wait_for_function(
        """() => document.querySelector('[data-testid=lobby-seat][data-seat="1"]')
                   ?.textContent.includes('Lena')"""
    )
    assert lobby_seat(ann, 1).get_attribute("data-kind") == "human"
    assert lena.get_by_test_id("start-deal").is_hidden()  # only the host deals
    assert hand_cards(lena) == []
    assert hand_cards(ann) == []
    # A watcher is counted on the table within seconds.
    eve = new_page()
    eve.goto(invite)
    eve.get_by_test_id("join-name").fill("Eve")
    eve.get_by_test_id("join-watch").click()
    ann.wait_for_function(
        """() => document.querySelector('[data-testid=watchers]').dataset.count === '1'
                 && document.querySelector('[data-testid=watchers]').title.includes('Eve')""",
        timeout=5000,
    )
    eve.close()
    ann.wait_for_function(
        "() => document.querySelector('[data-testid=watchers]').dataset.count === '0'",
        timeout=5000,
    )
    # The host deals: the friend holds 13 cards and has taken nothing.
    ann.get_by_test_id("start-deal").click()
    lena.wait_for_function(FULL_HAND)
    ann.wait_for_function(FULL_HAND)
    assert ann.get_by_test_id("lobby").is_hidden()
    assert not set(hand_cards(lena)) & set(hand_cards(ann))
    total = lena.locator('.plate[data-seat="1"] [data-testid="total"]')
    assert total.inner_text() == "0"


def test_an_open_table_is_listed_and_a_stranger_joins_it_from_the_list(
    new_page, start_server
) -> None:
    server = start_server()
    ann = new_page()
    ann.goto(server.url + "/")
    # Private by default: "List it" is off, and only a table that waits for friends may be.
    list_it = ann.get_by_test_id("list-it")
    assert list_it.is_disabled()
    assert not list_it.is_checked()
    ann.get_by_test_id("name").fill("Ann")
    ann.get_by_test_id("wait-for-friends").check()
    assert list_it.is_enabled()
    assert not list_it.is_checked()
    list_it.check()
    ann.get_by_test_id("new-game").click()
    ann.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    ann.get_by_test_id("lobby").wait_for()
    assert ann.get_by_test_id("lobby-open").is_visible()
    room = ann.url.rsplit("/", 1)[1]
    # Someone else, on a phone: the start page lists the table by itself (no reload).
    lena = new_page(width=390, height=844)
    lena.goto(server.url + "/")
    row = lena.locator(f'[data-testid="open-table"][data-room="{room}"]')
    row.wait_for()
    text = row.inner_text()
    assert "Ann" in text
    assert EN["rules.swap_on"] in text  # the rules in the words of the table's chips
    assert (row.get_attribute("data-taken"), row.get_attribute("data-free")) == ("1", "3")
    assert lena.get_by_test_id("open-tables-empty").is_hidden()
    join = row.get_by_test_id("open-table-join")
    box = join.bounding_box()
    assert box is not None
    assert box["height"] >= 44
    assert box["x"] + box["width"] <= 390
    assert lena.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    # Join: the table's link, as a friend's link opens it (a name, then sit).
    join.click()
    lena.wait_for_url(f"**/t/{room}")
    lena.get_by_test_id("join-name").fill("Lena")
    lena.get_by_test_id("join-sit").click()
    lena.get_by_test_id("lobby").wait_for()
    lobby_seat(ann, 1).get_by_text("Lena").wait_for()
    # The host deals: the table leaves every list.
    ann.get_by_test_id("start-deal").click()
    ann.wait_for_function(FULL_HAND)
    bob = new_page()
    bob.goto(server.url + "/")
    bob.wait_for_function(
        """() => document.querySelector('[data-testid=open-tables]').dataset.count === '0'"""
    )
    assert bob.get_by_test_id("open-tables-empty").is_visible()
    assert bob.get_by_test_id("open-table").count() == 0


def test_a_friend_who_sits_at_a_running_game_is_told_what_comes_with_the_seat(
    new_page, start_server
) -> None:
    server = start_server()
    made = server.post("/api/rooms", {"name": "Ann", "exposure": False, "level": "easy"})
    ann = new_page()
    open_with_token(ann, server, made["room"], made["token"])
    ann.wait_for_function(FULL_HAND)
    ann.wait_for_function(LEGAL_CARD)
    play_one(ann)  # the game is under way
    bob = new_page()
    bob.goto(f"{server.url}/t/{made['room']}")
    bob.get_by_test_id("join-note").wait_for()
    note = bob.get_by_test_id("join-note").inner_text()
    assert "West" in note
    assert "deal 1" in note


def test_a_rematch_keeps_the_same_players_in_the_same_seats(new_page, start_server) -> None:
    server = start_server()
    made = server.post(
        "/api/rooms", {"name": "Ann", "exposure": False, "level": "easy", "deals": 1, "wait": True}
    )
    ann = new_page()
    open_with_token(ann, server, made["room"], made["token"])
    ann.get_by_test_id("lobby").wait_for()
    bob = new_page()
    bob.goto(f"{server.url}/t/{made['room']}")
    bob.get_by_test_id("join-name").fill("Bob")
    bob.get_by_test_id("join-sit").click()
    lobby_seat(ann, 1).get_by_text("Bob").wait_for()
    ann.get_by_test_id("start-deal").click()
    # Both play their seats to the end of the (one-deal) game.
    over = ann.get_by_test_id("game-over")
    deadline = time.monotonic() + 60
    while not over.is_visible():
        assert time.monotonic() < deadline, "the one-deal game did not end"
        for page in (ann, bob):
            if page.get_by_test_id("hand").locator('[data-legal="true"]').count():
                play_one(page)
        time.sleep(0.02)
    assert ann.get_by_test_id("play-again").is_hidden()
    ann.get_by_test_id("rematch").click()
    over.wait_for(state="hidden")
    for page in (ann, bob):
        page.wait_for_function(FULL_HAND)
    assert bob.locator('.plate[data-pos="0"]').get_attribute("data-seat") == "1"
    ann.wait_for_function(
        "() => document.querySelector('.plate[data-seat=\"1\"]').textContent.includes('Bob')"
    )
    for seat in range(4):
        total = ann.locator(f'.plate[data-seat="{seat}"] [data-testid="total"]')
        assert total.inner_text() == "0"


def test_quick_messages_reach_the_table_in_each_readers_language(new_page, start_server) -> None:
    server = start_server()
    made = server.post("/api/rooms", {"name": "Ann", "exposure": False, "wait": True})
    ann = new_page()
    open_with_token(ann, server, made["room"], made["token"])
    ann.get_by_test_id("lobby").wait_for()
    li = new_page(locale="zh-CN")
    li.goto(f"{server.url}/t/{made['room']}")
    li.get_by_test_id("join-name").fill("Li")
    li.get_by_test_id("join-sit").click()
    li.get_by_test_id("lobby").wait_for()
    ann.get_by_test_id("quick-open").click()
    ann.locator('[data-testid="say"][data-phrase="hello"]').click()
    bubble = li.locator('[data-testid="said"][data-phrase="hello"]')
    bubble.wait_for(timeout=5000)
    assert "大家好" in bubble.inner_text()
    assert "Ann" in bubble.inner_text()
    ann.locator('[data-testid="said"][data-phrase="hello"]').wait_for()
