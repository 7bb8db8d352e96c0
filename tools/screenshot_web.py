"""Take a screenshot of the web table (docs/_static/web-table.png) with Playwright.

Starts the real server (``gongzhu.web.create_app``, uvicorn in a thread, a
temporary store, computers without delay, a fixed room seed), opens the page
in the system's Chromium, deals, plays a few tricks through the page and
photographs the table::

    python tools/screenshot_web.py                       # docs/_static/web-table.png
    python tools/screenshot_web.py --scene sheet --lang zh --out /tmp/sheet.png
    python tools/screenshot_web.py --width 390 --height 844 --out /tmp/phone.png

Scenes: ``table`` (a trick in progress, a card lifted, an exposed card on the
plate), ``exposure`` (the exposure panel), ``sheet`` (the score sheet after
a deal), ``start`` (the start screen, its "more rules" open), ``dealing``
(the cards going out), ``rules`` (the rules panel), ``history`` (the score
history after three deals), ``gameover`` (the final ranking), ``confirm``
(letting the computer play the hand, asked first), ``join`` (a friend opening
the invite link). For Chinese a CJK font must be known to fontconfig
(``FONTCONFIG_FILE``). Needs the ``web`` extra, the
``playwright`` package and Chromium (``/usr/bin/chromium`` or ``--chromium``);
nothing is downloaded.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _serve(store: Path, seed: int) -> tuple[Any, str]:
    import uvicorn

    from gongzhu.web import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(store=str(store), bot_delay=0.0, seed=seed)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline:
            sys.exit("the web server did not start")
        time.sleep(0.02)
    return server, f"http://127.0.0.1:{port}"


def _wait_turn(page: Any) -> str:
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


def _play(page: Any) -> None:
    hand = page.get_by_test_id("hand")
    n = hand.locator("[data-card]").count()
    card = hand.locator('[data-legal="true"]').first
    card.click()
    card.click()
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=hand] [data-card]').length < n", arg=n
    )


def shoot(args: argparse.Namespace) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server, url = _serve(Path(tmp) / "rooms.sqlite3", args.seed)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
                page = browser.new_page(
                    viewport={"width": args.width, "height": args.height},
                    locale=args.lang,
                    device_scale_factor=args.scale,
                )
                page.goto(url + "/")
                page.get_by_test_id("lang").select_option(args.lang)
                page.get_by_test_id("name").fill(args.name)
                page.get_by_test_id("threshold").select_option("500")
                if args.scene == "start":
                    page.get_by_test_id("more-rules").locator("summary").click()
                    page.screenshot(path=args.out)
                    return
                page.get_by_test_id("new-game").click()
                page.get_by_test_id("hand").locator("[data-card]").first.wait_for()
                if args.scene == "dealing":
                    page.wait_for_timeout(700)
                    page.screenshot(path=args.out)
                    return
                if page.get_by_test_id("dealing").is_visible():
                    page.get_by_test_id("felt").click(position={"x": 6, "y": 6})
                if args.scene == "join":
                    friend = browser.new_page(
                        viewport={"width": args.width, "height": args.height},
                        locale=args.lang,
                        device_scale_factor=args.scale,
                    )
                    friend.goto(page.get_by_test_id("invite").get_attribute("href"))
                    friend.get_by_test_id("join-name").fill("Bob")
                    friend.wait_for_timeout(300)
                    friend.screenshot(path=args.out)
                    return
                if args.scene in ("history", "gameover"):
                    over = page.get_by_test_id("game-over")
                    deals = 0
                    while not over.is_visible() and (args.scene == "gameover" or deals < 3):
                        if page.get_by_test_id("score-sheet").is_visible():
                            page.get_by_test_id("next-deal").click()
                            page.get_by_test_id("score-sheet").wait_for(state="hidden")
                        if page.get_by_test_id("dealing").is_visible():
                            page.get_by_test_id("felt").click(position={"x": 6, "y": 6})
                        if page.get_by_test_id("exposure-panel").is_visible():
                            page.get_by_test_id("expose-decline").click()
                        page.get_by_test_id("autoplay").click()
                        page.get_by_test_id("confirm").click()
                        page.get_by_test_id("score-sheet").wait_for()
                        deals += 1
                    if args.scene == "history":
                        if over.is_visible():
                            page.get_by_test_id("game-over-close").click()
                        page.get_by_test_id("history-open").click()
                    page.wait_for_timeout(250)
                    page.screenshot(path=args.out)
                    return
                state = _wait_turn(page)
                if args.scene == "rules":
                    page.get_by_test_id("rules").click()
                    page.get_by_test_id("rules-panel").wait_for()
                    page.screenshot(path=args.out)
                    return
                if args.scene == "confirm":
                    if state == "exposure":
                        page.get_by_test_id("expose-decline").click()
                    page.get_by_test_id("autoplay").click()
                    page.screenshot(path=args.out)
                    return
                if args.scene == "exposure":
                    page.get_by_test_id("exposure-panel").locator("[data-expose]").first.check()
                    page.screenshot(path=args.out)
                    return
                if state == "exposure":
                    page.get_by_test_id("exposure-panel").locator("[data-expose]").first.check()
                    page.get_by_test_id("expose-confirm").click()
                tricks = 0
                while True:
                    state = _wait_turn(page)
                    if state == "sheet":
                        break
                    trick = page.get_by_test_id("trick").locator("[data-card]").count()
                    if args.scene == "table" and tricks >= args.tricks and trick >= 2:
                        page.get_by_test_id("hand").locator('[data-legal="true"]').first.click()
                        break
                    _play(page)
                    tricks += 1
                page.wait_for_timeout(250)  # let the card images settle
                page.screenshot(path=args.out)
                browser.close()
        finally:
            server.should_exit = True
    print(f"wrote {args.out}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs/_static/web-table.png"))
    parser.add_argument(
        "--scene",
        choices=[
            "table",
            "exposure",
            "sheet",
            "start",
            "dealing",
            "rules",
            "history",
            "gameover",
            "confirm",
            "join",
        ],
        default="table",
    )
    parser.add_argument("--lang", default="en", choices=["en", "zh", "ru", "uk", "cs"])
    parser.add_argument("--width", type=int, default=1200)
    parser.add_argument("--height", type=int, default=780)
    parser.add_argument("--scale", type=float, default=1.0, help="device pixel ratio")
    parser.add_argument("--seed", type=int, default=11, help="the room's seed (the cards dealt)")
    parser.add_argument("--tricks", type=int, default=2, help="cards to play before the picture")
    parser.add_argument("--name", default="Ann")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    shoot(parser.parse_args(argv))


if __name__ == "__main__":
    main()
