"""The web table's review of a finished deal, its deal codes, records opened in the page,
and the deal of the day: the HTTP endpoints and what they compute.

* ``GET /api/rooms/<id>/review?deal=K&seat=S``: deal ``K`` (1-based, a finished deal of the
  room's current game) reviewed for seat ``S`` (:func:`gongzhu.ai.review.review`): every
  trick, every hand as dealt, and the seat's losses: ``"losses"`` its cards',
  ``"exposure"`` its exposure decision's (``null`` unless a clear loss;
  ``"exposure_judged"`` says whether it was judged). The search runs in the computers'
  worker processes (:meth:`Driver.think <gongzhu.web.driver.Driver.think>`, the room's
  fair share; a record's review: :meth:`Driver.run <gongzhu.web.driver.Driver.run>`), never
  on the event loop; at most :data:`MAX_REVIEWS` run at once server-wide
  (more: ``429``), and a finished review is kept (:data:`KEPT`) so asking again is free.
  A finished deal's cards are public: the record endpoint publishes them too.
* ``POST /api/review``: the same for a game record (``{"record", "deal", "seat"}``), a
  file the terminal game saved or the record endpoint gave.
* ``POST /api/deals``: a new room for a deal code (:mod:`gongzhu.web.deal_codes`): the
  player holds the same 13 cards in the same seat, against the same computers.
* ``POST /api/daily`` and ``GET /api/daily``: the deal of the day (the server's UTC date),
  and that day's board, kept in the store: one result per browser a day, the first one;
  never a deal with cards taken back (:meth:`Room.plan_undo
  <gongzhu.web.rooms.Room.plan_undo>`): the answer's ``takebacks`` counts them.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gongzhu.ai.review import Review, review
from gongzhu.errors import GongzhuError
from gongzhu.record import loads
from gongzhu.round import Round
from gongzhu.table import Table
from gongzhu.web.deal_codes import DealCode, code_of, daily, decode
from gongzhu.web.guard import origin_ok
from gongzhu.web.hub import BROWSER_COOKIE, Hub
from gongzhu.web.messages import WebError, check_name, parse_json, read_body
from gongzhu.web.rooms import Room, hash_token
from gongzhu.web.server import Server
from gongzhu.web.store import StoreConflict, StoreError

__all__ = [
    "KEPT",
    "MAX_RECORD_BYTES",
    "MAX_REVIEWS",
    "daily_board",
    "review_json",
    "routes",
]

MAX_REVIEWS: Final = 4
"""Reviews computed at once, server-wide (each is about a second of search)."""
KEPT: Final = 256
"""Finished reviews kept in memory (a review asked again is answered at once)."""
MAX_RECORD_BYTES: Final = 256 * 1024
"""The largest record the page may send to be reviewed."""
DAILY_PREFIX: Final = "daily-"
_BOARD_SIZE: Final = 500
_log = logging.getLogger("gongzhu.web")


class Reviews:
    """The server's reviews: how many are running, and the finished ones kept."""

    def __init__(self) -> None:
        self.running = 0
        self.kept: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self.board_lock = asyncio.Lock()

    async def get(
        self, key: tuple[Any, ...], run: Callable[[], Any], compute: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        """The review under ``key``: kept, or computed by ``run(compute)`` (bounded)."""
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
            return found
        if self.running >= MAX_REVIEWS:
            raise WebError("rate-limited", "the computer is reviewing other deals; try again")
        self.running += 1
        try:
            result: dict[str, Any] = await run()
        finally:
            self.running -= 1
        self.kept[key] = result
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        return result


def review_json(rnd: Round, seat: int) -> dict[str, Any]:
    """The review of ``rnd`` for ``seat`` as the page reads it (runs the search)."""
    found: Review = review(rnd, seat)
    return {
        "seat": seat,
        "score": found.score,
        "totals": list(rnd.score().totals),
        "hands": [[c.code for c in hand] for hand in rnd.dealt],
        "exposed": [[c.code for c in cards] for cards in rnd.exposures],
        "tricks": [
            {
                "number": t.number,
                "leader": t.leader,
                "winner": t.winner,
                "cards": [{"seat": s, "card": c.code} for s, c in t.cards],
            }
            for t in found.tricks
        ],
        "losses": [
            {
                "trick": loss.trick,
                "card": loss.card.code,
                "better": loss.better.code,
                "points": loss.points,
            }
            for loss in found.losses
        ],
        "judged": len(found.decisions),
        "exposure": _exposure_json(found),
        "exposure_judged": found.exposure is not None,
    }


def _exposure_json(found: Review) -> dict[str, Any] | None:
    """The exposure's loss as the page reads it (``None``: no clear loss, or not judged)."""
    loss = found.exposure_loss
    if loss is None:
        return None
    return {
        "chosen": [c.code for c in loss.chosen],
        "better": [c.code for c in loss.better],
        "points": loss.points,
    }


def _reviews(request: Request) -> Reviews:
    found: Reviews = request.app.state.reviews
    return found


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def _error(exc: WebError) -> JSONResponse:
    status = {"rate-limited": 429, "not-found": 404, "too-large": 413, "forbidden": 403}.get(
        exc.code, 400
    )
    return JSONResponse({"code": exc.code, "message": exc.message}, status)


def _int(value: object, what: str, low: int, high: int) -> int:
    try:
        number = int(str(value))
    except ValueError:
        raise WebError("bad-message", f"{what} must be a number") from None
    if not low <= number <= high:
        raise WebError("bad-message", f"{what} must be {low}-{high}")
    return number


async def room_review(request: Request) -> Response:
    server = _server(request)
    try:
        hub: Hub | None = await server.rooms.hub(request.path_params["room"])
    except StoreError:
        return JSONResponse({"code": "store-busy", "message": "try again"}, 503)
    if hub is None:
        return JSONResponse({"code": "not-found", "message": "no such room"}, 404)
    room = hub.room
    try:
        rounds = room.table.rounds
        if not rounds:
            raise WebError("not-found", "no finished deal yet")
        k = _int(request.query_params.get("deal", len(rounds)), "deal", 1, len(rounds))
        seat = _int(request.query_params.get("seat", 0), "seat", 0, 3)
        rnd = rounds[k - 1]
        key = ("room", room.id, room.game, k, seat)
        result = await _reviews(request).get(
            key, lambda: server.driver.think(hub, review_json, rnd, seat), dict
        )
    except WebError as exc:
        return _error(exc)
    except GongzhuError as exc:
        return _error(WebError("bad-message", str(exc)[:200]))
    code = code_of(rnd, seat, room.settings)
    names = list(room.names)
    return JSONResponse({**result, "deal": k, "deals": len(rounds), "code": code, "names": names})


async def record_review(request: Request) -> Response:
    server = _server(request)
    try:
        body = await _body(request, MAX_RECORD_BYTES)
        data = parse_json(body, MAX_RECORD_BYTES) if body else None
        if not isinstance(data, dict) or "record" not in data:
            raise WebError("bad-message", "send {record, deal, seat}")
        done, names = _finished_deals(data["record"])
        k = _int(data.get("deal", 1), "deal", 1, len(done))
        seat = _int(data.get("seat", 0), "seat", 0, 3)
        rnd = done[k - 1]
        key = ("record", hash(body), k, seat)
        result = await _reviews(request).get(
            key, lambda: server.driver.run(review_json, rnd, seat), dict
        )
    except WebError as exc:
        return _error(exc)
    return JSONResponse({**result, "deal": k, "deals": len(done), "names": names})


def _finished_deals(raw: object) -> tuple[list[Round], list[str]]:
    """The finished four-player deals of a game record, or of a terminal game's save
    (``gongzhu play --human --save``), and the seats' names."""
    names: tuple[str, ...] | None = None
    try:
        if isinstance(raw, dict) and raw.get("format") == "gongzhu-save":
            rounds = Table.from_dict(raw.get("table")).rounds
        else:
            record = loads(json.dumps(raw))
            rounds, names = record.rounds, record.names
    except (GongzhuError, TypeError, ValueError) as exc:
        raise WebError("bad-message", f"not a game record: {str(exc)[:200]}") from None
    done = [r for r in rounds if r.is_over and r.players == 4]
    if not done:
        raise WebError("not-found", "the record has no finished deal of four players")
    return done, list(names or ("South", "West", "North", "East"))


async def _body(request: Request, limit: int) -> bytes:
    """A POST's JSON body (as ``POST /api/rooms`` takes it: JSON only, from this page)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise WebError("bad-message", "send application/json")
    if not origin_ok(request):
        raise WebError("forbidden", "this page's origin may not do this here")
    return await read_body(request, limit)


async def deal_room(request: Request) -> Response:
    """``POST /api/deals`` ``{"code", "name"}``: a table for the deal the code names."""
    try:
        data = parse_json(await _body(request, 2048) or b"{}")
        if not isinstance(data, dict):
            raise WebError("bad-message", "the body is a JSON object")
        code = decode(data.get("code"))
        return await _create_with(request, code, data, None)
    except WebError as exc:
        return _error(exc)
    except StoreError:
        return JSONResponse({"code": "store-busy", "message": "try again"}, 503)


async def _create_with(
    request: Request, code: DealCode, data: dict[str, Any], day: str | None
) -> Response:
    server = _server(request)
    name = check_name(data.get("name") or "Player")
    address = request.client.host if request.client is not None else ""
    extra = {"first": code.first, "seat": code.seat, "daily": day}
    room, token = await server.rooms.create_room(
        code.room_settings(), name, None, address, request.cookies.get(BROWSER_COOKIE), extra=extra
    )
    return JSONResponse(
        {"room": room.id, "seat": code.seat, "token": token, "url": f"/t/{room.id}"}, 201
    )


def _today() -> datetime.date:
    return datetime.datetime.now(datetime.timezone.utc).date()


async def daily_room(request: Request) -> Response:
    """``POST /api/daily`` ``{"name"}``: a table for today's deal."""
    try:
        data = parse_json(await _body(request, 2048) or b"{}")
        if not isinstance(data, dict):
            raise WebError("bad-message", "the body is a JSON object")
        day = _today()
        return await _create_with(request, daily(day), data, day.isoformat())
    except WebError as exc:
        return _error(exc)
    except StoreError:
        return JSONResponse({"code": "store-busy", "message": "try again"}, 503)


# -- the board of the day --------------------------------------------------------------


def _load_board(store: Any, day: str) -> tuple[int, list[dict[str, Any]]]:
    found = store.load(DAILY_PREFIX + day)
    if found is None:
        return 0, []
    meta = found[0]
    return int(meta.get("event", 0)), list(meta.get("board", []))


def _save_board(store: Any, day: str, event: int, board: list[dict[str, Any]]) -> None:
    meta = {"version": 1, "event": event + 1, "played": True, "board": board,
            "created": time.time()}  # fmt: skip
    if event == 0:
        if not store.create(DAILY_PREFIX + day, meta, owner="daily"):
            raise StoreConflict("the board was made meanwhile")
    else:
        store.save(DAILY_PREFIX + day, meta, 0, [])


async def daily_board(server: Server, reviews: Reviews, day: str, entry: dict[str, Any] | None
                      ) -> list[dict[str, Any]]:  # fmt: skip
    """The board of ``day``, with ``entry`` added first if its browser has none yet."""
    async with reviews.board_lock:
        for _ in range(3):
            event, board = await server.io(_load_board, server.store, day)
            if entry is None or any(row["who"] == entry["who"] for row in board):
                return board
            if len(board) >= _BOARD_SIZE:
                return board
            board = [*board, entry]
            try:
                await server.io(_save_board, server.store, day, event, board)
            except StoreConflict:
                continue
            return board
    return board


async def board(request: Request) -> Response:
    """``GET /api/daily?room=<id>``: today's board; a finished daily room's result joins it."""
    server = _server(request)
    browser = request.cookies.get(BROWSER_COOKIE)
    me = hash_token("browser:" + browser) if browser else None
    day = _today().isoformat()
    entry = None
    takebacks = 0
    try:
        room_id = request.query_params.get("room")
        hub = await server.rooms.hub(room_id) if room_id else None
        room: Room | None = hub.room if hub is not None else None
        if room is not None and room.daily is not None:
            day = room.daily
            rounds = room.table.rounds
            seat = next((s for s in range(4) if room.kinds[s] == "human"), 0)
            # A deal with cards taken back is no clean result: it does not go on the board.
            takebacks = room.undos_of(1)
            if rounds and not takebacks:
                entry = {
                    # The browser that made the room (one result per browser a day).
                    "who": room.browsers[seat] or f"room:{room.id}",
                    "name": room.names[seat],
                    "points": rounds[0].score().totals[seat],
                }
        rows = await daily_board(server, _reviews(request), day, entry)
    except StoreError as exc:
        _log.warning("gongzhu: the daily board: %s", exc)
        return JSONResponse({"code": "store-busy", "message": "try again"}, 503)
    mine = {me} - {None}
    out = [
        {"name": r["name"], "points": r["points"], "me": r["who"] in mine}
        for r in sorted(rows, key=lambda r: -int(r["points"]))
    ]
    return JSONResponse({"day": day, "rows": out, "takebacks": takebacks})


def routes() -> list[Any]:
    """The routes of this module (:func:`gongzhu.web.app.create_app` mounts them)."""
    from starlette.routing import Route

    return [
        Route("/api/rooms/{room}/review", room_review),
        Route("/api/review", record_review, methods=["POST"]),
        Route("/api/deals", deal_room, methods=["POST"]),
        Route("/api/daily", daily_room, methods=["POST"]),
        Route("/api/daily", board, methods=["GET"]),
    ]
