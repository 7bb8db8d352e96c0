"""What the server does with each client message: a dispatch table by message type.

Each handler is registered with :func:`handler` under its message class
(:mod:`gongzhu.web.messages`) and says whether it changes the room
(``changes``: it runs under the room's lock, is refused while the store
cannot be read, and is tried once more on the room reloaded after another
process wrote first) and whether it needs a seat answering the room's current
event (``seated``; ``own_event``: the handler judges the request's event
itself, as ``undo`` does). A handler is given the server's services in a
:class:`Deps` record (as lila-ws's actors are), the room and the connection.
Adding a message type is a class in ``messages.py`` and a function here::

    @handler(Release, changes=True, seated=True)
    async def release(deps: Deps, hub: Hub, conn: Conn, msg: Release) -> None:
        await deps.rooms.write(hub, hub.room.plan_release(conn.seat, msg.seat, ...))
        deps.rooms.broadcast(hub)

A change is computed, written (in a worker thread) and only then kept
(:meth:`RoomCache.write <gongzhu.web.hub.RoomCache.write>`); a store that fails
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
from gongzhu.web.driver import Driver
from gongzhu.web.hub import Conn, Hub, RoomCache
from gongzhu.web.limits import Limits
from gongzhu.web.messages import (
    Act,
    ClientMessage,
    Hello,
    Hint,
    NewGame,
    Next,
    Release,
    Resync,
    Said,
    Say,
    Sit,
    Speed,
    StartDeal,
    Undo,
    WebError,
    Welcome,
)
from gongzhu.web.presence import Presence
from gongzhu.web.store import StoreConflict, StoreError

__all__ = ["HANDLERS", "Deps", "Handler", "dispatch", "handler"]

_M = TypeVar("_M", bound=ClientMessage)


@attrs.frozen
class Deps:
    """What a handler may use: the server's services, each built with its own
    dependencies (:class:`~gongzhu.web.server.Server` makes them)."""

    rooms: RoomCache
    presence: Presence
    driver: Driver
    limits: Limits
    takeover: float


Run = Callable[[Deps, Hub, Conn, Any], Awaitable[None]]


@attrs.frozen
class Handler:
    """How one message type is handled (see the module)."""

    run: Run
    changes: bool = False
    seated: bool = False
    own_event: bool = False


HANDLERS: Final[dict[type[ClientMessage], Handler]] = {}


def handler(
    kind: type[_M], *, changes: bool = False, seated: bool = False, own_event: bool = False
) -> Callable[[Callable[[Deps, Hub, Conn, _M], Awaitable[None]]], Run]:
    """Register the handler of message class ``kind``."""

    def register(run: Callable[[Deps, Hub, Conn, _M], Awaitable[None]]) -> Run:
        HANDLERS[kind] = Handler(run, changes, seated, own_event)
        return run

    return register


WRITE_TRIES: Final = 4
"""How often a change refused by another process's write is tried on the reloaded room."""


async def dispatch(deps: Deps, hub: Hub, conn: Conn, msg: ClientMessage) -> None:
    """Run ``msg``'s handler; every refusal is an ``error`` message to the client."""
    rooms = deps.rooms
    found = HANDLERS.get(type(msg))
    if found is None:
        rooms.error(hub, conn, WebError("bad-message", f"{msg.type} is not handled"), msg.type)
        return
    if not found.changes:
        try:
            _check_seated(hub, conn, msg, found)
            await found.run(deps, hub, conn, msg)
        except (IllegalActionError, WebError, StoreError) as exc:
            rooms.error(hub, conn, exc, msg.type)
        return
    async with hub.lock:
        # A write refused because another process wrote first is tried again on the room
        # rebuilt from the store: the request's checks run again there, so only a real
        # conflict (the table moved on: a stale event) is refused, not a friend's arrival.
        # A few tries, since the process driving the computers may write several times
        # in a row (a loaded machine saw two conflicts in a row on a friend's sit).
        for attempt in range(1, WRITE_TRIES + 1):
            try:
                if hub.stale and not await rooms.reload(hub):
                    raise StoreError("the room cannot be read from the store now")
                _check_seated(hub, conn, msg, found)
                await found.run(deps, hub, conn, msg)
            except (IllegalActionError, WebError) as exc:
                rooms.error(hub, conn, exc, msg.type)
            except StoreConflict:
                if await rooms.reload(hub) and attempt < WRITE_TRIES:
                    continue
                rooms.error(hub, conn, WebError("stale", "the table has moved on"), msg.type)
            except StoreError as exc:  # nothing changed: the player may try again
                rooms.error(hub, conn, exc, msg.type)
            break


def _check_seated(hub: Hub, conn: Conn, msg: ClientMessage, found: Handler) -> None:
    if not found.seated:
        return
    if conn.seat is None:
        raise WebError("bad-message", "spectators cannot play: take a seat first")
    event = getattr(msg, "event", None)
    if isinstance(event, int) and not found.own_event:
        hub.room.check_event(conn.seat, event)


# -- the handlers ---------------------------------------------------------------------


@handler(Hello, changes=True)
async def hello(deps: Deps, hub: Hub, conn: Conn, msg: Hello) -> None:
    if conn.hello:
        raise WebError("bad-message", "hello was already said")
    rooms, room, limits = deps.rooms, hub.room, deps.limits
    seat = room.resume(msg.token) if msg.token is not None else None
    if seat is None and not _watcher_slot(deps, hub, conn):
        return
    if seat is not None and sum(1 for c in hub.conns if c.seat == seat) >= limits.seat_connections:
        rooms.error(hub, conn, WebError("room-full", "this seat is open in too many tabs"), "hello")
        conn.finish(1013)
        return
    conn.hello = True
    conn.lang = _language(msg.lang)
    conn.name = msg.name
    if msg.token is not None and seat is None:
        rooms.error(hub, conn, WebError("bad-token", "no seat has this token"), "hello")
    if seat is not None:
        await seat_conn(deps, hub, conn, seat)
        if msg.name is not None:
            change = hub.room.plan_rename(seat, msg.name)  # (reloaded if need be)
            if change is not None:
                with contextlib.suppress(StoreError):  # the old name stays: no harm
                    await rooms.write(hub, change)
    welcome(deps, hub, conn, None)


def _watcher_slot(deps: Deps, hub: Hub, conn: Conn) -> bool:
    """Let ``conn`` in without a seat (a watcher, or a newcomer about to sit), or refuse
    it (``room-full``) and close it. Watchers from one address are capped; when the room's
    watchers are at their cap, the one silent longest (past :attr:`Limits.watcher_idle`)
    makes room, and otherwise a newcomer is let in while a seat is free, to take it
    within :attr:`Limits.seat_wait` seconds."""
    limits, rooms = deps.limits, deps.rooms
    watchers = [c for c in hub.conns if c.seat is None and c.hello]
    if sum(1 for c in watchers if c.address == conn.address) >= limits.address_watchers:
        why = "this room has as many watchers from your address as it takes"
    elif len(watchers) < limits.room_watchers:
        return True
    else:
        now = time.monotonic()
        silent = min(watchers, key=lambda c: c.heard)
        if now - silent.heard >= limits.watcher_idle:
            rooms.error(hub, silent, WebError("room-full", "closed: silent too long"), "")
            silent.finish(1013)
            hub.conns.discard(silent)  # its slot is the newcomer's now
            return True
        if any(hub.room.seat_free(s, now, deps.takeover) for s in range(len(hub.room.kinds))):
            asyncio.get_running_loop().call_later(limits.seat_wait, _sit_or_go, deps, hub, conn)
            return True
        why = "this room has as many watchers as it takes"
    rooms.error(hub, conn, WebError("room-full", why), "hello")
    conn.finish(1013)
    return False


def _sit_or_go(deps: Deps, hub: Hub, conn: Conn) -> None:
    """A newcomer let in past the watchers' cap to take a seat, and who did not."""
    if conn.seat is None and not conn.dead.is_set():
        deps.rooms.error(hub, conn, WebError("room-full", "no seat was taken in time"), "")
        conn.finish(1013)


@handler(Resync)
async def resync(deps: Deps, hub: Hub, conn: Conn, msg: Resync) -> None:
    deps.rooms.send_state(hub, conn)


@handler(Sit, changes=True)
async def sit(deps: Deps, hub: Hub, conn: Conn, msg: Sit) -> None:
    """Take a free seat (also as a connection's first message, instead of ``hello``: a
    newcomer who wants a seat needs no watcher's slot)."""
    if conn.seat is not None:
        raise WebError("bad-message", f"you already sit at seat {conn.seat}")
    room = hub.room
    change = room.plan_sit(
        msg.seat, msg.name, time.monotonic(), deps.takeover, conn.browser, conn.address
    )
    await deps.rooms.write(hub, change)
    conn.hello = True
    await seat_conn(deps, hub, conn, msg.seat)
    welcome(deps, hub, conn, change.token)


@handler(Act, changes=True, seated=True)
async def act(deps: Deps, hub: Hub, conn: Conn, msg: Act) -> None:
    assert conn.seat is not None
    change = hub.room.plan_apply(msg.by(conn.seat))
    await deps.rooms.write(hub, change)
    sealed = change.position != change.event
    deps.rooms.broadcast(hub, [conn.seat] if sealed else None)


@handler(Next, changes=True, seated=True)
async def next_deal(deps: Deps, hub: Hub, conn: Conn, msg: Next) -> None:
    assert conn.seat is not None
    await deps.rooms.write(hub, hub.room.plan_next(conn.seat))
    deps.rooms.broadcast(hub)


@handler(NewGame, changes=True, seated=True)
async def new_game(deps: Deps, hub: Hub, conn: Conn, msg: NewGame) -> None:
    assert conn.seat is not None
    await deps.rooms.write(hub, hub.room.plan_new_game(conn.seat))
    deps.rooms.broadcast(hub)


SAY_EVERY: Final = 2.0
"""Seconds between two quick messages from one connection (more are refused ``rate-limited``)."""


@handler(Say, seated=True)
async def say(deps: Deps, hub: Hub, conn: Conn, msg: Say) -> None:
    now = time.monotonic()
    if now - conn.said_at < SAY_EVERY:
        raise WebError("rate-limited", "one quick message every two seconds")
    conn.said_at = now
    seat, room = conn.seat, hub.room
    assert seat is not None
    deps.rooms.tell(hub, lambda r: Said(room.seen(r), seat, msg.phrase))


@handler(Speed, changes=True, seated=True)
async def speed(deps: Deps, hub: Hub, conn: Conn, msg: Speed) -> None:
    change = hub.room.plan_pace(msg.pace)
    if change is not None:
        await deps.rooms.write(hub, change)
        deps.rooms.broadcast(hub)


@handler(StartDeal, changes=True, seated=True)
async def start_deal(deps: Deps, hub: Hub, conn: Conn, msg: StartDeal) -> None:
    assert conn.seat is not None
    await deps.rooms.write(hub, hub.room.plan_start(conn.seat))
    deps.rooms.broadcast(hub)


@handler(Undo, changes=True, seated=True, own_event=True)
async def undo(deps: Deps, hub: Hub, conn: Conn, msg: Undo) -> None:
    """Take back the sender's last card (:meth:`Room.plan_undo
    <gongzhu.web.rooms.Room.plan_undo>`, which judges the request's event: cards the
    computers played since it are taken back too). Under the room's lock, so no
    computer's card is written meanwhile; a computer deciding in a worker decided for a
    position that is gone (the driver drops its card: the room's round is not the one it
    was given)."""
    assert conn.seat is not None
    await deps.rooms.write(hub, hub.room.plan_undo(conn.seat, msg.event))
    deps.rooms.broadcast(hub)


@handler(Release, changes=True, seated=True)
async def release(deps: Deps, hub: Hub, conn: Conn, msg: Release) -> None:
    assert conn.seat is not None
    now = time.monotonic()
    await deps.rooms.write(hub, hub.room.plan_release(conn.seat, msg.seat, now, deps.takeover))
    deps.rooms.broadcast(hub)


@handler(Hint, seated=True)
async def hint(deps: Deps, hub: Hub, conn: Conn, msg: Hint) -> None:
    assert conn.seat is not None
    view = hub.room.hint_view(conn.seat)
    if not deps.driver.take_hint(conn):
        raise WebError("rate-limited", "one hint at a time")
    conn.task = asyncio.create_task(deps.driver.hint(hub, conn, view))


# -- helpers ---------------------------------------------------------------------------


async def seat_conn(deps: Deps, hub: Hub, conn: Conn, seat: int) -> None:
    """Count ``conn`` as seat ``seat``'s (the caller holds the room's lock)."""
    room = hub.room
    conn.seated(seat, deps.limits)
    room.connected[seat] += 1
    if room.connected[seat] == 1:
        await deps.rooms.report(hub)  # here now: before the write others will hear of
    await deps.rooms.touch(hub)


def welcome(deps: Deps, hub: Hub, conn: Conn, token: str | None) -> None:
    room = hub.room
    room.watching = hub.watcher_names()
    info = room.info(time.monotonic(), deps.takeover)
    conn.send(Welcome(room.seen(conn.seat), conn.seat, token, info))
    deps.rooms.broadcast(hub)  # this one's state, and everyone sees the seat taken/connected


def _language(tag: str | None) -> str | None:
    """The library's language for a browser's tag ("zh-CN" → "zh"), or None (English)."""
    if tag is None:
        return None
    base = tag.replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None
