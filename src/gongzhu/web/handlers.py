"""What the server does with each client message: a dispatch table by message type.

Each handler is registered with :func:`handler` under its message class
(:mod:`gongzhu.web.messages`) and says whether it changes the room
(``changes``: it runs under the room's lock, is refused while the store
cannot be read, and is tried once more on the room reloaded after another
process wrote first) and whether it needs a seat answering the room's current
event (``seated``). Adding a message type is a class in ``messages.py`` and a
function here::

    @handler(Release, changes=True, seated=True)
    async def release(server: Core, hub: Hub, conn: Conn, msg: Release) -> None:
        await server.write(hub, hub.room.plan_release(conn.seat, msg.seat))
        server.broadcast(hub)

A change is computed, written (in a worker thread) and only then kept
(:meth:`Core.write <gongzhu.web.hub.Core.write>`); a store that fails
leaves the room as it was and the client is told ``store-busy`` (try again).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

import attrs

from gongzhu.errors import IllegalActionError
from gongzhu.i18n import LANGUAGES
from gongzhu.web.hub import Conn, Core, Hub
from gongzhu.web.messages import (
    Act,
    ClientMessage,
    Hello,
    Hint,
    NewGame,
    Next,
    Release,
    Resync,
    Say,
    Sit,
    Speed,
    StartDeal,
    WebError,
)
from gongzhu.web.store import StoreConflict, StoreError

__all__ = ["HANDLERS", "Handler", "dispatch", "handler"]

_M = TypeVar("_M", bound=ClientMessage)
Run = Callable[[Core, Hub, Conn, Any], Awaitable[None]]


@attrs.frozen
class Handler:
    """How one message type is handled (see the module)."""

    run: Run
    changes: bool = False
    seated: bool = False


HANDLERS: Final[dict[type[ClientMessage], Handler]] = {}


def handler(
    kind: type[_M], *, changes: bool = False, seated: bool = False
) -> Callable[[Callable[[Core, Hub, Conn, _M], Awaitable[None]]], Run]:
    """Register the handler of message class ``kind``."""

    def register(run: Callable[[Core, Hub, Conn, _M], Awaitable[None]]) -> Run:
        HANDLERS[kind] = Handler(run, changes, seated)
        return run

    return register


async def dispatch(server: Core, hub: Hub, conn: Conn, msg: ClientMessage) -> None:
    """Run ``msg``'s handler; every refusal is an ``error`` message to the client."""
    found = HANDLERS.get(type(msg))
    if found is None:
        server.error(hub, conn, WebError("bad-message", f"{msg.type} is not handled"), msg.type)
        return
    if not found.changes:
        try:
            _check_seated(hub, conn, msg, found)
            await found.run(server, hub, conn, msg)
        except (IllegalActionError, WebError, StoreError) as exc:
            server.error(hub, conn, exc, msg.type)
        return
    async with hub.lock:
        # A write refused because another process wrote first is tried once more on the
        # room rebuilt from the store: the request's checks run again there, so only a
        # real conflict (the table moved on) is refused, not a friend's arrival.
        for retry in (True, False):
            try:
                if hub.stale and not await server.reload(hub):
                    raise StoreError("the room cannot be read from the store now")
                _check_seated(hub, conn, msg, found)
                await found.run(server, hub, conn, msg)
            except (IllegalActionError, WebError) as exc:
                server.error(hub, conn, exc, msg.type)
            except StoreConflict:
                if await server.reload(hub) and retry:
                    continue
                server.error(hub, conn, WebError("stale", "the table has moved on"), msg.type)
            except StoreError as exc:  # nothing changed: the player may try again
                server.error(hub, conn, exc, msg.type)
            break


def _check_seated(hub: Hub, conn: Conn, msg: ClientMessage, found: Handler) -> None:
    if not found.seated:
        return
    if conn.seat is None:
        raise WebError("bad-message", "spectators cannot play: take a seat first")
    event = getattr(msg, "event", None)
    if isinstance(event, int):
        hub.room.check_event(event)


# -- the handlers ---------------------------------------------------------------------


@handler(Hello, changes=True)
async def hello(server: Core, hub: Hub, conn: Conn, msg: Hello) -> None:
    if conn.hello:
        raise WebError("bad-message", "hello was already said")
    room = hub.room
    seat = room.resume(msg.token) if msg.token is not None else None
    limits = server.limits
    if seat is None and hub.watchers() >= limits.room_watchers:
        # A watcher past the room's cap; a seat's holder always gets in.
        server.error(
            hub, conn, WebError("room-full", "this room has as many watchers as it takes"), "hello"
        )
        conn.finish(1013)
        return
    if seat is not None and sum(1 for c in hub.conns if c.seat == seat) >= limits.seat_connections:
        server.error(
            hub, conn, WebError("room-full", "this seat is open in too many tabs"), "hello"
        )
        conn.finish(1013)
        return
    conn.hello = True
    conn.lang = _language(msg.lang)
    conn.name = msg.name
    if msg.token is not None and seat is None:
        server.error(hub, conn, WebError("bad-token", "no seat has this token"), "hello")
    if seat is not None:
        await seat_conn(server, hub, conn, seat)
        if msg.name is not None:
            change = hub.room.plan_rename(seat, msg.name)  # (reloaded if need be)
            if change is not None:
                with contextlib.suppress(StoreError):  # the old name stays: no harm
                    await server.write(hub, change)
    welcome(server, hub, conn, None)


@handler(Resync)
async def resync(server: Core, hub: Hub, conn: Conn, msg: Resync) -> None:
    server.send_state(hub, conn)


@handler(Sit, changes=True)
async def sit(server: Core, hub: Hub, conn: Conn, msg: Sit) -> None:
    if conn.seat is not None:
        raise WebError("bad-message", f"you already sit at seat {conn.seat}")
    room = hub.room
    change = room.plan_sit(msg.seat, msg.name, time.monotonic(), server.takeover, conn.browser)
    await server.write(hub, change)
    await seat_conn(server, hub, conn, msg.seat)
    welcome(server, hub, conn, change.token)


@handler(Act, changes=True, seated=True)
async def act(server: Core, hub: Hub, conn: Conn, msg: Act) -> None:
    assert conn.seat is not None
    room = hub.room
    change = room.plan_act(conn.seat, dict(msg.action))
    await server.write(hub, change)
    sealed = change.position != change.event
    server.broadcast(hub, only=conn.seat if sealed else None)


@handler(Next, changes=True, seated=True)
async def next_deal(server: Core, hub: Hub, conn: Conn, msg: Next) -> None:
    assert conn.seat is not None
    await server.write(hub, hub.room.plan_next(conn.seat))
    server.broadcast(hub)


@handler(NewGame, changes=True, seated=True)
async def new_game(server: Core, hub: Hub, conn: Conn, msg: NewGame) -> None:
    assert conn.seat is not None
    await server.write(hub, hub.room.plan_new_game(conn.seat))
    server.broadcast(hub)


SAY_EVERY: Final = 2.0
"""Seconds between two quick messages from one connection (more are refused ``rate-limited``)."""


@handler(Say, seated=True)
async def say(server: Core, hub: Hub, conn: Conn, msg: Say) -> None:
    now = time.monotonic()
    if now - conn.said_at < SAY_EVERY:
        raise WebError("rate-limited", "one quick message every two seconds")
    conn.said_at = now
    said = {"type": "said", "event": hub.room.event, "seat": conn.seat, "phrase": msg.phrase}
    for other in list(hub.conns):
        if other.hello:
            other.send(said)


@handler(Speed, changes=True, seated=True)
async def speed(server: Core, hub: Hub, conn: Conn, msg: Speed) -> None:
    change = hub.room.plan_pace(msg.pace)
    if change is not None:
        await server.write(hub, change)
        server.broadcast(hub)


@handler(StartDeal, changes=True, seated=True)
async def start_deal(server: Core, hub: Hub, conn: Conn, msg: StartDeal) -> None:
    assert conn.seat is not None
    await server.write(hub, hub.room.plan_start(conn.seat))
    server.broadcast(hub)


@handler(Release, changes=True, seated=True)
async def release(server: Core, hub: Hub, conn: Conn, msg: Release) -> None:
    assert conn.seat is not None
    now = time.monotonic()
    await server.write(hub, hub.room.plan_release(conn.seat, msg.seat, now, server.takeover))
    server.broadcast(hub)


@handler(Hint, seated=True)
async def hint(server: Core, hub: Hub, conn: Conn, msg: Hint) -> None:
    assert conn.seat is not None
    view = hub.room.hint_view(conn.seat)
    if not server.driver.take_hint(conn):
        raise WebError("rate-limited", "one hint at a time")
    conn.task = asyncio.create_task(server.driver.hint(hub, conn, view))


# -- helpers ---------------------------------------------------------------------------


async def seat_conn(server: Core, hub: Hub, conn: Conn, seat: int) -> None:
    """Count ``conn`` as seat ``seat``'s (the caller holds the room's lock)."""
    room = hub.room
    conn.seated(seat, server.limits)
    room.connected[seat] += 1
    if room.connected[seat] == 1:
        await server.report(hub)  # here now: before the write others will hear of
    await server.touch(hub)


def welcome(server: Core, hub: Hub, conn: Conn, token: str | None) -> None:
    room = hub.room
    room.watching = hub.watcher_names()
    conn.send(
        {
            "type": "welcome",
            "event": room.event,
            "seat": conn.seat,
            "token": token,
            "room": room.info(time.monotonic(), server.takeover),
        }
    )
    server.broadcast(hub)  # this one's state, and everyone sees the seat taken/connected


def _language(tag: str | None) -> str | None:
    """The library's language for a browser's tag ("zh-CN" → "zh"), or None (English)."""
    if tag is None:
        return None
    base = tag.replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None
