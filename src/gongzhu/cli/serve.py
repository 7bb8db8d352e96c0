"""``gongzhu serve``: the web table (issue #20) on http://127.0.0.1:8000/ (the ``web`` extra).

Help texts are English only for now: the message catalogues are shared, and
this command's strings join them when they are next translated.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

MISSING_EXTRA = (
    "gongzhu serve needs the web extra (Starlette, uvicorn, websockets, platformdirs): "
    'pip install "gongzhu[web]"'
)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="play in a browser: serve the web table (alone against computers or with friends)",
        description=(
            "Serve the web table: open the printed address, pick the threshold, the "
            "computers' level and the house rules, and play; share a room's link so friends "
            "take seats. Rooms are saved (SQLite under your data directory by default), "
            "so closing the page or stopping the server loses nothing."
        ),
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    p.add_argument(
        "--store",
        default=None,
        metavar="PATH|URL",
        help="where rooms are kept: an SQLite file (default: rooms.sqlite3 in your data "
        "directory), :memory:, or redis://host:port/db (the redis extra)",
    )
    p.add_argument("--open", action="store_true", help="open the table in a web browser")
    p.add_argument(
        "--takeover",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="a computer plays for a player gone this long, until they return (60)",
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="pause before a computer plays a card, so a person sees the trick (0.6)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gongzhu.cli._common import UsageError

    try:
        import uvicorn

        from gongzhu.web import create_app
        from gongzhu.web.store import default_path, open_store
    except ImportError:
        print(f"gongzhu serve: error: {MISSING_EXTRA}", file=sys.stderr)
        return 2
    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be 1-65535, got {args.port}")
    if not 0 <= args.takeover <= 86400:
        raise UsageError("--takeover must be 0-86400 seconds")
    if not 0 <= args.bot_delay <= 10:
        raise UsageError("--bot-delay must be 0-10 seconds")
    store = open_store(args.store if args.store is not None else default_path())
    app = create_app(store, bot_delay=args.bot_delay, takeover=args.takeover)
    host = args.host
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{args.port}/"
    where = args.store if args.store is not None else str(default_path())
    print(f"gongzhu web table: {url}  (rooms in {where}; Ctrl-C stops)", flush=True)
    if args.open:
        import threading
        import webbrowser

        # After a moment, so the server listens when the browser asks.
        threading.Timer(0.8, webbrowser.open, (url,)).start()
    config = uvicorn.Config(
        app,
        host=host,
        port=args.port,
        log_level="warning",
        # Frames past 64 KiB are cut by the protocol layer; the app refuses those past 8 KiB.
        ws_max_size=65536,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        timeout_graceful_shutdown=3,
    )
    uvicorn.Server(config).run()
    return 0
