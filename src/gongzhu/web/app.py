"""The web table's ASGI application (Starlette): pages, cards, rooms over HTTP and WebSocket.

Why Starlette (with uvicorn and websockets, the ``web`` extra): it is small
(pure Python, a handful of dependencies), typed, plain ASGI, serves static
files and WebSockets without a framework around them, and ships a test
client that drives HTTP and WebSocket in-process — the protocol tests need
no browser and no network.

:func:`create_app` only assembles the routes and the middleware; the
endpoints below read the :class:`~gongzhu.web.server.Server` from
``request.app.state.server``. The rest lives by concern: connections, send
queues and the loaded rooms in :mod:`gongzhu.web.hub`, presence across
processes in :mod:`gongzhu.web.presence`, the computers in
:mod:`gongzhu.web.driver` (the server holds one of each: :mod:`gongzhu.web.server`),
the messages in :mod:`gongzhu.web.messages` and :mod:`gongzhu.web.handlers`, and
uvicorn's settings (timeouts, caps, proxies) in :mod:`gongzhu.web.serving`.

The checks made on every request (security headers, ``Host``, ``Origin``)
are :mod:`gongzhu.web.guard`'s.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator, Sequence
from importlib import resources
from typing import Any, Final

from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

import gongzhu.web.assets as assets
from gongzhu.web.guard import SECURITY_HEADERS, Guard, origin_ok, server_error
from gongzhu.web.hub import BROWSER_COOKIE, new_browser_id
from gongzhu.web.limits import Limits
from gongzhu.web.messages import WebError, check_name, parse_json, read_body
from gongzhu.web.records import Records
from gongzhu.web.review import Reviews
from gongzhu.web.review import routes as review_routes
from gongzhu.web.rooms import MAX_NUMBER, Settings
from gongzhu.web.server import Server
from gongzhu.web.store import Store, StoreError, open_store
from gongzhu.web.tables import OpenTables
from gongzhu.web.tables import routes as table_routes

__all__ = ["SECURITY_HEADERS", "Limits", "create_app"]

_CARD: Final = re.compile(r"[2-9TJQKA][CDHS]")
_log = logging.getLogger("gongzhu.web")


def _server(conn: HTTPConnection) -> Server:
    server: Server = conn.app.state.server
    return server


def _static_dir() -> Any:
    return resources.files("gongzhu.web") / "static"


def _json_error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status)


def _address(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client is not None else ""


# -- endpoints -------------------------------------------------------------------------


async def page(request: Request) -> Response:
    # index.html with its /static/ addresses versioned (gongzhu.web.assets); never cached.
    text = assets.page_html()
    if text is not None:
        response: Response = HTMLResponse(text, headers={"Cache-Control": "no-cache"})
    else:
        response = HTMLResponse(
            "<!doctype html><title>gongzhu</title><p>The web client is not installed.</p>"
        )
    if not request.cookies.get(BROWSER_COOKIE):
        response.set_cookie(
            BROWSER_COOKIE,
            new_browser_id(),
            max_age=365 * 24 * 3600,
            path="/",
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )
    return response


_CREATE_FIELDS: Final = (
    "threshold",
    "sign_swap",
    "exposure",
    "level",
    "name",
    "seed",
    # The start screen's "more rules" (source 001's common variants).
    "all_hearts",
    "exposable",
    "deals",
    # A table that waits for friends: nothing is dealt until the host starts.
    "wait",
    # ... and is listed among the open tables (GET /api/tables) while it waits.
    "open",
)
MAX_SEED: Final = MAX_NUMBER
"""A chosen room number is an integer below this (15 digits: what the start screen takes)."""


def _settings_from(data: Any) -> tuple[Settings, str, int | None]:
    if not isinstance(data, dict):
        raise WebError("bad-message", "the body is a JSON object")
    unknown = sorted(set(data) - set(_CREATE_FIELDS))
    if unknown:
        raise WebError("bad-message", f"unknown field(s): {', '.join(unknown)}")
    settings = Settings(
        threshold=data.get("threshold", 1000),
        sign_swap=data.get("sign_swap", True),
        exposure=data.get("exposure", True),
        level=data.get("level", "normal"),
        all_hearts=data.get("all_hearts", 200),
        exposable=data.get("exposable", "all"),
        deals=data.get("deals"),
    )
    name = check_name(data.get("name", "You"))
    seed = data.get("seed")
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED
    ):
        raise WebError("bad-message", "seed must be an integer of at most 15 digits")
    return settings, name, seed


_read_body = read_body


_STATUS: Final = {"too-large": 413, "room-full": 503, "rate-limited": 429, "forbidden": 403}


async def create_room(request: Request) -> Response:
    server = _server(request)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        # Also keeps plain cross-site forms out: JSON needs a CORS preflight.
        return _json_error(415, "bad-message", "send application/json")
    if not origin_ok(request):
        return _json_error(403, "bad-message", "this page's origin may not create rooms here")
    try:
        body = await _read_body(request)
        data = parse_json(body)
        settings, name, seed = _settings_from(data)
        wait, open_table = data.get("wait", False), data.get("open", False)
        if not isinstance(wait, bool) or not isinstance(open_table, bool):
            raise WebError("bad-message", "wait and open must be true or false")
        room, token = await server.rooms.create_room(
            settings,
            name,
            seed,
            _address(request),
            request.cookies.get(BROWSER_COOKIE),
            lobby=wait,
            open_table=open_table,
        )
    except WebError as exc:
        headers = {"Retry-After": "60"} if exc.code == "rate-limited" else None
        return JSONResponse(
            {"code": exc.code, "message": exc.message}, _STATUS.get(exc.code, 400), headers
        )
    except StoreError as exc:
        _log.warning("gongzhu: creating a room: %s", exc)
        return _json_error(503, "store-busy", "the rooms cannot be stored now; try again")
    return JSONResponse({"room": room.id, "seat": 0, "token": token, "url": f"/t/{room.id}"}, 201)


_RULES_INTS: Final = ("threshold", "all_hearts", "deals")
_RULES_FLAGS: Final = ("sign_swap", "exposure")
_RULES_WORDS: Final = ("level", "exposable")


async def rules_for(request: Request) -> Response:
    """The rule set the start screen's choices make (``GET /api/rules?threshold=500&…``):
    the page words its summary of them with the table's rule chips. The same fields as a
    new room's, as query parameters; the room itself is not made."""
    query = request.query_params
    data: dict[str, Any] = {}
    try:
        unknown = sorted(set(query) - {*_RULES_INTS, *_RULES_FLAGS, *_RULES_WORDS})
        if unknown:
            raise WebError("bad-message", f"unknown field(s): {', '.join(unknown)}")
        for key in _RULES_INTS:
            if key in query:
                if not re.fullmatch(r"[0-9]{1,4}", query[key]):
                    raise WebError("bad-message", f"{key} must be a number")
                data[key] = int(query[key])
        for key in _RULES_FLAGS:
            if key in query:
                if query[key] not in ("true", "false"):
                    raise WebError("bad-message", f"{key} must be true or false")
                data[key] = query[key] == "true"
        for key in _RULES_WORDS:
            if key in query:
                data[key] = query[key]
        settings, _, _ = _settings_from(data)
    except WebError as exc:
        return _json_error(400, exc.code, exc.message)
    return JSONResponse({"rules": settings.rules().to_dict()})


async def _hub_or_error(request: Request) -> Any:
    try:
        hub = await _server(request).rooms.hub(request.path_params["room"])
    except StoreError as exc:
        # The details (a Redis address, say) are for the log, not for any client.
        _log.warning("gongzhu: room %s: %s", request.path_params["room"], exc)
        return _json_error(503, "store-busy", "the room cannot be read now; try again")
    if hub is None:
        return _json_error(404, "not-found", "no such room")
    return hub


async def room_info(request: Request) -> Response:
    import time

    hub = await _hub_or_error(request)
    if isinstance(hub, Response):
        return hub
    return JSONResponse(hub.room.info(time.monotonic(), _server(request).takeover))


async def room_record(request: Request) -> Response:
    hub = await _hub_or_error(request)
    if isinstance(hub, Response):
        return hub
    try:
        text = await request.app.state.records.text(hub.room, _address(request))
    except WebError as exc:
        return _json_error(_STATUS.get(exc.code, 404), exc.code, exc.message)
    name = f"gongzhu-{hub.room.id}-game{hub.room.game}.json"
    return Response(
        text + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


async def websocket(ws: WebSocket) -> None:
    if not origin_ok(ws):
        await ws.close(code=4403)  # before accept: the handshake is refused (403)
        return
    await _server(ws).serve(ws)


# -- the application -----------------------------------------------------------------------


def create_app(
    store: Store | str | None = None,
    bot_delay: float = 0.6,
    takeover: float = 60.0,
    seed: int | None = None,
    *,
    limits: Limits | None = None,
    hosts: Sequence[str] | None = None,
    origins: Sequence[str] = (),
) -> Starlette:
    """The web table as a Starlette (ASGI) application.

    ``store``: a :mod:`~gongzhu.web.store` object, a path, ``":memory:"`` or a
    ``redis://`` URL; ``None`` keeps rooms in memory (``gongzhu serve`` passes
    the file store). An SQLite file is claimed for this process: a second app on
    it raises :class:`~gongzhu.web.store.StoreInUse`. ``bot_delay``: seconds a
    computer waits before it plays a card, so a person sees the trick (0 in
    tests). ``takeover``: seconds after which a computer plays for a seat whose
    player has gone. ``seed``: the seed of every room created without one
    (tests; otherwise each room gets 128 random bits). ``limits``:
    :class:`Limits`. ``hosts``: the ``Host`` names answered besides
    ``localhost`` and IP addresses (``None``: no check; ``gongzhu serve``
    always checks). ``origins``: page origins (``https://example.org``) whose
    pages may open WebSockets and create rooms, besides the server's own.
    """
    if (
        isinstance(bot_delay, bool)
        or not isinstance(bot_delay, (int, float))
        or not (0 <= bot_delay <= 10)
    ):
        raise WebError("bad-message", "bot_delay must be 0-10 seconds")
    if (
        isinstance(takeover, bool)
        or not isinstance(takeover, (int, float))
        or not (0 <= takeover <= 86400)
    ):
        raise WebError("bad-message", "takeover must be 0-86400 seconds")
    the_store = open_store(":memory:" if store is None else store)
    claim = getattr(the_store, "claim", None)
    if callable(claim):
        claim()
    server = Server(the_store, float(bot_delay), float(takeover), seed, limits or Limits())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.start()
        try:
            yield
        finally:
            await server.stop()
            with contextlib.suppress(Exception):
                the_store.close()

    routes = [
        Route("/", page),
        Route("/t/{room}", page),
        *assets.routes({}),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rules", rules_for),
        Route("/api/rooms/{room}", room_info),
        Route("/api/rooms/{room}/record", room_record),
        *review_routes(),
        *table_routes(),
        Route("/replay", page),
        Route("/d/{code}", page),
        WebSocketRoute("/ws/{room}", websocket),
        Mount("/static", StaticFiles(directory=str(_static_dir()), check_dir=False), name="static"),
    ]
    # A 500 is sent by Starlette's error middleware, outside Guard: it brings its own headers.
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={Exception: server_error})
    app.state.server = server
    app.state.reviews = Reviews()
    app.state.records = Records(server.limits)
    app.state.tables = OpenTables(server.limits)
    app.state.origins = frozenset(o.rstrip("/").lower() for o in origins)
    app.add_middleware(GZipMiddleware, minimum_size=512)
    app.add_middleware(Guard, hosts=hosts)
    return app
