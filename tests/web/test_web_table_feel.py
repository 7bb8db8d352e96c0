# ruff: noqa: F811  (the fixtures are imported from test_web_browser and named as arguments)
"""The table's feel in a real browser: rules prose that follows the table's rules, and the
controls and marks a player sees while playing.

The server and browser fixtures are tests/web/test_web_browser.py's (Playwright on the system's
Chromium, the real app under uvicorn on 127.0.0.1, computers without delay).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_web_browser import (  # noqa: F401  (fixtures)
    FULL_HAND,
    LiveServer,
    browser,
    new_page,
    start_server,
)

pytestmark = pytest.mark.timeout(180) if hasattr(pytest.mark, "timeout") else []


def open_room(page: Any, server: LiveServer, **settings: Any) -> str:
    """A room made with ``settings`` (the API's fields), opened as its host."""
    made = server.post("/api/rooms", {"name": "Ann", "level": "easy", **settings})
    room = made["room"]
    page.goto(server.url + "/")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"gongzhu:token:{room}", made["token"]]
    )
    page.goto(f"{server.url}/t/{room}")
    page.wait_for_function(FULL_HAND)
    return str(room)


def rules_text(page: Any) -> str:
    page.get_by_test_id("rules").click()
    panel = page.get_by_test_id("rules-panel")
    panel.wait_for()
    text = str(panel.inner_text())
    panel.get_by_role("button").last.click()
    return text


def test_the_rules_prose_quotes_the_tables_all_hearts_and_flip(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    open_room(page, server, all_hearts=400, sign_swap=False)
    text = rules_text(page)
    assert "+400" in text
    assert not re.search(r"(?<![0-9])200(?![0-9])", text), text
    assert "keep their signs" in text
    assert "+300" in text  # all hearts with the pig, scored by the library
    assert "+800" in text  # the grand slam, doubled by the transformer
    assert "+1000" in text  # ... with the sheep shown


def test_the_rules_prose_explains_the_flip_and_the_slam(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    open_room(page, server)
    text = rules_text(page)
    assert "Pig/sheep flip" in text
    assert "the pig counts +100 and the sheep \u2212100" in text
    assert "+800" in text
    assert "\u221220" in text  # 10♣ with 5♥: doubled
    assert "A shown A\u2665 doubles every heart (all thirteen hearts then count +400)" in text


def test_without_exposure_the_rules_do_not_describe_exposing(new_page, start_server) -> None:
    server = start_server()
    page = new_page()
    open_room(page, server, exposure=False, deals=8)
    text = rules_text(page)
    assert "expos" not in text.lower()
    assert "The game lasts 8 deals" in text
    assert "reaches" not in text
