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
    'pip install ".[web]" from a checkout of gongzhu'
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
    _add_limits(p)
    p.set_defaults(func=run)


def _add_limits(p: Any) -> None:
    """The server's limits and safety options, in a group of their own."""
    g = p.add_argument_group("limits and safety (docs/web.rst lists every limit)")
    g.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers to besides localhost, IP addresses and this "
        "machine's name (DNS rebinding protection); *.example.org for its subdomains",
    )
    g.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="a page origin (https://example.org) that may open the table's WebSockets "
        "and create rooms, besides the server's own",
    )
    g.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="believe X-Forwarded-For/-Proto only from these proxy addresses "
        "(comma-separated, as uvicorn's option); by default from nobody",
    )
    g.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="close a connection whose request headers are not complete this long (10)",
    )
    g.add_argument(
        "--keep-alive",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="close an idle keep-alive connection after this long (5)",
    )
    g.add_argument(
        "--limit-concurrency",
        type=int,
        default=1024,
        metavar="N",
        help="HTTP connections and requests at once, kept below the file limit (1024)",
    )
    g.add_argument(
        "--max-connections",
        type=int,
        default=1000,
        metavar="N",
        help="WebSocket connections in all, kept below the file limit (1000)",
    )
    _add_room_limits(g)


def _add_room_limits(g: Any) -> None:
    """The limits on rooms and their store."""
    g.add_argument(
        "--room-watchers",
        type=int,
        default=16,
        metavar="N",
        help="watchers (no seat) per room; a seat's holder always gets in (16)",
    )
    g.add_argument("--max-rooms", type=int, default=10_000, metavar="N", help="rooms kept (10000)")
    g.add_argument(
        "--rooms-per-address",
        type=int,
        default=10,
        metavar="N",
        help="new rooms one address may create at once; then 4 a minute (10)",
    )
    g.add_argument(
        "--rooms-per-owner",
        type=int,
        default=200,
        metavar="N",
        help="rooms one address (an IPv6 /48) keeps in the store (200)",
    )
    g.add_argument(
        "--computer-workers",
        type=int,
        default=None,
        metavar="N",
        help="computer decisions at once, each in a worker process (one per core)",
    )
    g.add_argument(
        "--unplayed-ttl",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="delete a room nobody played in or opened for this long (600)",
    )
    g.add_argument(
        "--store-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="refuse a request (try again) when the store takes longer than this (5)",
    )


def run(args: argparse.Namespace) -> int:

    try:
        import uvicorn

        from gongzhu.web import Limits, create_app
        from gongzhu.web.serving import caps
        from gongzhu.web.serving import config as serving_config
        from gongzhu.web.store import StoreError, default_path, open_store
    except ImportError:
        print(f"gongzhu serve: error: {MISSING_EXTRA}", file=sys.stderr)
        return 2
    _check(args)
    http_cap, ws_cap = caps(args.limit_concurrency, args.max_connections)
    limits = Limits(
        connections=ws_cap,
        room_watchers=args.room_watchers,
        max_rooms=args.max_rooms,
        rooms_per_address=args.rooms_per_address,
        rooms_per_owner=args.rooms_per_owner,
        computer_workers=args.computer_workers,
        unplayed_ttl=args.unplayed_ttl,
        store_timeout=args.store_timeout,
    )
    hosts = [*_own_names(args.host), *args.allow_host]
    try:
        store = open_store(args.store if args.store is not None else default_path())
        app = create_app(
            store,
            bot_delay=args.bot_delay,
            takeover=args.takeover,
            limits=limits,
            hosts=hosts,
            origins=args.allow_origin,
        )
    except StoreError as exc:
        print(f"gongzhu serve: error: {exc}", file=sys.stderr)
        return 1
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
    config = serving_config(
        app,
        host=host,
        port=args.port,
        header_timeout=args.header_timeout,
        keep_alive=args.keep_alive,
        limit_concurrency=http_cap,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    uvicorn.Server(config).run()
    return 0


def _check(args: argparse.Namespace) -> None:
    """Refuse option values out of range (a UsageError naming the option)."""
    from gongzhu.cli._common import UsageError

    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be 1-65535, got {args.port}")
    if not 0 <= args.takeover <= 86400:
        raise UsageError("--takeover must be 0-86400 seconds")
    if not 0 <= args.bot_delay <= 10:
        raise UsageError("--bot-delay must be 0-10 seconds")
    for name, value, lo in (
        ("--header-timeout", args.header_timeout, 0.5),
        ("--keep-alive", args.keep_alive, 1),
        ("--limit-concurrency", args.limit_concurrency, 8),
        ("--max-connections", args.max_connections, 1),
        ("--room-watchers", args.room_watchers, 0),
        ("--max-rooms", args.max_rooms, 1),
        ("--rooms-per-address", args.rooms_per_address, 1),
        ("--rooms-per-owner", args.rooms_per_owner, 1),
        ("--computer-workers", args.computer_workers or 1, 1),
        ("--unplayed-ttl", args.unplayed_ttl, 10),
        ("--store-timeout", args.store_timeout, 0.1),
    ):
        if not lo <= value <= 10**7:
            raise UsageError(f"{name} must be at least {lo}, got {value}")


def _own_names(host: str) -> list[str]:
    """The host names this server answers to without --allow-host: the --host name
    (when it is one) and this machine's names."""
    import contextlib
    import socket

    names = [] if host in ("0.0.0.0", "::", "") else [host]
    with contextlib.suppress(OSError):
        names += [socket.gethostname(), socket.getfqdn()]
    return [n.lower() for n in names if n]
