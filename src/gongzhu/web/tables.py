"""The open tables (``GET /api/tables``): tables that wait for friends, listed by their host.

A host who creates a table that waits for friends may make it *open* (``POST
/api/rooms`` with ``"wait": true, "open": true``; the start screen's *List it*). Such
a room is listed while it waits for its host's start, has a seat a computer holds and
its host at the table (:meth:`Room.listed <gongzhu.web.rooms.Room.listed>`, written
into its stored meta with every change); the store keeps those rooms indexed
(:meth:`Store.listed <gongzhu.web.store.Store.listed>`), so every server process that
shares a store (Redis) lists the same tables. A private table, the default, is never
listed: only its link leads to it.

Each entry is made here from the stored meta and holds only what the table's link
shows anyone who opens it: the room's id and link, the host's name (checked again as
every name is), the rule set (the page words it with the table's rule chips), the
computers' level, the seats taken and free, and the seconds since the table was made.
Never a card, a seed, a token or an address. At most :data:`MAX_TABLES`, newest first;
each address has :attr:`Limits.tables_per_minute <gongzhu.web.Limits.tables_per_minute>`
requests a minute after a burst, and a process reads the store at most once every
:attr:`Limits.tables_fresh <gongzhu.web.Limits.tables_fresh>` seconds, however many ask.
"""

from __future__ import annotations

import asyncio
import functools
import math
import time
from collections.abc import Mapping
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gongzhu.errors import GongzhuError
from gongzhu.web.hub import ROOM_ID, Budgets
from gongzhu.web.limits import Limits
from gongzhu.web.messages import WebError, check_name
from gongzhu.web.rooms import HOST, SEATS, Settings
from gongzhu.web.server import Server
from gongzhu.web.store import StoreError

__all__ = ["MAX_TABLES", "OpenTables", "entry", "routes"]

MAX_TABLES: Final = 50
"""The most tables ``GET /api/tables`` lists (the newest)."""


@functools.lru_cache(maxsize=256)
def _rules(settings: Settings) -> dict[str, Any]:
    return settings.rules().to_dict()


def entry(room_id: str, meta: Mapping[str, Any]) -> dict[str, Any] | None:
    """The public entry of a listed room, from its stored meta (with ``created``, the
    time it was made), or ``None`` if the meta is not a waiting table's with a free seat.

    >>> from gongzhu.web.store import MemoryStore
    >>> from gongzhu.web.rooms import Room
    >>> room, token = Room.create(
    ...     MemoryStore(), Settings(), "Ann", seed=918273645546372, lobby=True, open_table=True
    ... )
    >>> found = entry(room.id, room.meta())
    >>> found["host"], found["taken"], found["free"], found["url"] == "/t/" + room.id
    ('Ann', 1, 3, True)
    >>> token in str(found), "918273645546372" in str(found)
    (False, False)
    """
    try:
        settings = Settings(**meta["settings"])
        kinds = [str(k) for k in meta["kinds"]]
        host = check_name(meta["names"][HOST])
        created = float(meta["created"])
    except (KeyError, IndexError, TypeError, ValueError, GongzhuError):
        return None
    free = kinds.count("computer")
    if not ROOM_ID.fullmatch(room_id) or len(kinds) != SEATS or not 0 < free < SEATS:
        return None
    return {
        "room": room_id,
        "url": f"/t/{room_id}",
        "host": host,
        "rules": _rules(settings),
        "level": settings.level,
        "taken": SEATS - free,
        "free": free,
        "created": created,
    }


class OpenTables:
    """The open tables as one server process answers them (see the module)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._budgets = Budgets(limits.tables_per_minute, limits.tables_burst)
        self._kept: list[dict[str, Any]] = []
        self._read_at = -math.inf
        self._lock = asyncio.Lock()

    async def answer(self, server: Server, address: str) -> list[dict[str, Any]]:
        """The open tables for a request from ``address``, each with ``waiting`` (seconds
        since it was made); ``WebError`` ``rate-limited`` past the address's budget,
        :class:`~gongzhu.web.store.StoreError` if the store cannot be read now."""
        if not self._budgets.take(address):
            raise WebError("rate-limited", "too many requests for the open tables; wait a little")
        async with self._lock:  # those who ask meanwhile share one read
            if time.monotonic() - self._read_at >= self.limits.tables_fresh:
                found = await server.io(server.store.listed, MAX_TABLES)
                made = (entry(room_id, meta) for room_id, meta in found)
                self._kept = [e for e in made if e is not None]
                self._read_at = time.monotonic()
        now = time.time()
        return [
            {k: v for k, v in e.items() if k != "created"}
            | {"waiting": max(0, int(now - e["created"]))}
            for e in self._kept
        ]


async def open_tables(request: Request) -> Response:
    """``GET /api/tables``: ``{"tables": [...], "max": MAX_TABLES}``, newest first."""
    server: Server = request.app.state.server
    tables: OpenTables = request.app.state.tables
    address = request.client.host if request.client is not None else ""
    try:
        found = await tables.answer(server, address)
    except WebError as exc:
        return JSONResponse(
            {"code": exc.code, "message": exc.message}, 429, headers={"Retry-After": "10"}
        )
    except StoreError:
        return JSONResponse(
            {"code": "store-busy", "message": "the open tables cannot be read now; try again"}, 503
        )
    return JSONResponse({"tables": found, "max": MAX_TABLES}, headers={"Cache-Control": "no-store"})


def routes() -> list[Any]:
    """The routes of this module (:func:`gongzhu.web.app.create_app` mounts them)."""
    from starlette.routing import Route

    return [Route("/api/tables", open_tables)]
