"""The web table's ASGI application (Starlette): pages, cards, rooms over HTTP and WebSocket.

Why Starlette (with uvicorn and websockets, the ``web`` extra): it is small
(pure Python, a handful of dependencies), typed, plain ASGI, serves static
files and WebSockets without a framework around them, and ships a test
client that drives HTTP and WebSocket in-process — the protocol tests need
no browser and no network.

:func:`create_app` builds the application; ``gongzhu serve`` runs it under
uvicorn. Each room's changes happen on the event loop, one at a time (no
await inside a change); computers think in a worker thread and their move is
applied only if the room has not moved on meanwhile. Every connection has a
bounded send queue: a client that stops reading is dropped when its queue is
full, and nobody else waits for it.

With a store several processes share (Redis), each process hears the others'
writes (:meth:`Store.listen <gongzhu.web.store.Store.listen>`): a loaded room
that another process changed is rebuilt from the store and every connection
is sent its new state. Which seats have a connected player is reported to the
store every :attr:`Limits.heartbeat` seconds
(:meth:`Store.presence <gongzhu.web.store.Store.presence>`), so a computer
takes over a seat only when its player is gone from every process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping
from importlib import resources
from typing import Any, Final

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import gongzhu.web.assets as assets
from gongzhu.errors import GongzhuError, IllegalActionError
from gongzhu.i18n import LANGUAGES
from gongzhu.web.messages import MAX_MESSAGE_BYTES, WebError, check_name, parse, parse_json
from gongzhu.web.rooms import SEATS, Room, Settings, StoreError, hint_cards
from gongzhu.web.store import Store, open_store
from gongzhu.web.words import player_refusal

__all__ = ["Limits", "create_app"]

_ROOM_ID: Final = re.compile(r"[A-Za-z0-9_-]{4,32}")
_MAX_HINTS: Final = 4
"""Hints computed at once in all (each is a search in a worker thread)."""
_log = logging.getLogger(__name__)
_HEADERS: Final = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a room's link is its invitation: do not pass it on
}
_PAGE_HEADERS: Final = {
    **_HEADERS,
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline';"
        " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
}


class Limits:
    """The server's bounds (all adjustable through :func:`create_app`'s ``limits``)."""

    max_rooms: int = 10_000
    """Rooms in the store; past it the oldest idle rooms are purged, else creation is refused."""
    room_ttl: float = 30 * 24 * 3600.0
    """A room untouched this long may be purged when the store is full."""
    loaded_rooms: int = 256
    """Rooms kept rebuilt in memory (idle ones are dropped first; they reload from the store)."""
    connections: int = 1000
    """WebSocket connections in all."""
    room_connections: int = 32
    """WebSocket connections per room."""
    client_connections: int = 16
    """WebSocket connections from one address (so one host cannot take every slot)."""
    send_queue: int = 64
    """Messages waiting for one connection; a client that lets it fill is dropped."""
    send_timeout: float = 10.0
    """Seconds one send may take before the connection is dropped."""
    hello_timeout: float = 10.0
    """Seconds a new connection has to say hello."""
    rate: float = 10.0
    """Messages per second a connection may send on average ..."""
    burst: float = 30.0
    """... and at once."""
    strikes: int = 20
    """Refused (malformed, rate-limited) messages before a connection is closed."""
    heartbeat: float = 2.0
    """Seconds between two reports of this process's players to a store several
    processes share (Redis); a process that stops reporting (it crashed) counts
    its players as gone three heartbeats after its last report."""

    def __init__(self, **changes: Any) -> None:
        for name, value in changes.items():
            if not hasattr(Limits, name):
                raise TypeError(f"no limit named {name!r}")
            setattr(self, name, value)


class _Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` saved up."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class _Conn:
    """One WebSocket connection: its seat, its bounded queue, its budget."""

    def __init__(self, ws: WebSocket, limits: Limits) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=limits.send_queue)
        self.seat: int | None = None
        self.hello = False
        self.lang: str | None = None
        self.bucket = _Bucket(limits.rate, limits.burst)
        self.strikes = 0
        self.dead = asyncio.Event()
        self.close_code = 1000
        self.hinting = False
        self.task: asyncio.Task[None] | None = None  # the hint being computed (kept alive)

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(json.dumps(message, ensure_ascii=False, allow_nan=False))

    def send_text(self, text: str) -> None:
        if self.dead.is_set():
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.kill(1008)  # it stopped reading: drop it, never wait for it

    def kill(self, code: int) -> None:
        if not self.dead.is_set():
            self.close_code = code
            self.dead.set()


class _Hub:
    """A loaded room and its connections, its computer driver and its wake-up signal."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.conns: set[_Conn] = set()
        self.changed: asyncio.Event | None = None
        self.driver: asyncio.Task[None] | None = None
        self.stale = False
        """A write failed and the store could not be read back: the room in memory may
        hold a change the store does not; it is rebuilt before anything else changes."""
        self.shown: list[tuple[bool, bool]] = []  # each seat's (connected, autoplay) pushed


class _Server:
    def __init__(
        self,
        store: Store,
        bot_delay: float,
        takeover: float,
        seed: int | None,
        limits: Limits,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.takeover = takeover
        self.seed = seed
        self.limits = limits
        self.hubs: OrderedDict[str, _Hub] = OrderedDict()
        self.connections = 0
        self.by_client: dict[str, int] = {}
        self.hints = 0  # hints being computed, server-wide (each is a search)
        # A store several processes share: this process's name in presence reports, the
        # listener's stop function and the heartbeat task (see start()).
        self.process = secrets.token_hex(8)
        self.shared = False
        self.stop_listening: Callable[[], None] | None = None
        self.beater: asyncio.Task[None] | None = None

    # -- rooms -----------------------------------------------------------------------

    def hub(self, room_id: str) -> _Hub | None:
        """The loaded room, rebuilt from the store on first access."""
        if not _ROOM_ID.fullmatch(room_id):
            return None
        hub = self.hubs.get(room_id)
        if hub is None:
            room = Room.load(self.store, room_id)
            if room is None:
                return None
            hub = _Hub(room)
            self.hubs[room_id] = hub
            self._evict()
        self.hubs.move_to_end(room_id)
        return hub

    def _evict(self) -> None:
        for rid in list(self.hubs):
            if len(self.hubs) <= self.limits.loaded_rooms:
                return
            hub = self.hubs[rid]
            if not hub.conns:
                self._drop(hub)

    def _drop(self, hub: _Hub) -> None:
        """Forget a loaded room (no connection is in it): it is rebuilt on its next use."""
        if hub.driver is not None:
            hub.driver.cancel()
        if self.hubs.get(hub.room.id) is hub:
            del self.hubs[hub.room.id]

    def create_room(self, settings: Settings, name: str, seed: int | None) -> tuple[Room, str]:
        if self.store.count() >= self.limits.max_rooms:
            self.store.purge(time.time() - self.limits.room_ttl)
            if self.store.count() >= self.limits.max_rooms:
                raise WebError("room-full", "the server has as many rooms as it keeps")
        if seed is None:
            seed = self.seed
        room, token = Room.create(self.store, settings, name, seed)
        return room, token

    # -- pushing ------------------------------------------------------------------------

    def broadcast(self, hub: _Hub) -> None:
        """Send every connection of the room its own state, then wake the computers."""
        now = time.monotonic()
        hub.shown = self._seats(hub, now)
        texts: dict[int | None, str] = {}
        for conn in list(hub.conns):
            if not conn.hello:
                continue
            text = texts.get(conn.seat)
            if text is None:
                text = texts[conn.seat] = json.dumps(
                    hub.room.state(conn.seat, now, self.takeover), ensure_ascii=False
                )
            conn.send_text(text)
        self.kick(hub)

    def send_state(self, hub: _Hub, conn: _Conn) -> None:
        conn.send(hub.room.state(conn.seat, time.monotonic(), self.takeover))

    def error(self, hub: _Hub, conn: _Conn, exc: GongzhuError, reply_to: str) -> None:
        if isinstance(exc, IllegalActionError):
            # The sentence in the client's language (hello's lang); detail stays language-free.
            # In the player's words: the suit to follow, the opening card, never a seat number.
            message = player_refusal(exc, hub.room.round, conn.lang or "en")
            code, detail = "illegal", exc.to_dict()
        elif isinstance(exc, WebError):
            code, message, detail = exc.code, exc.message, exc.detail
        else:
            code, message, detail = "bad-message", str(exc), {}
        conn.send(
            {
                "type": "error",
                "event": hub.room.event,
                "code": code,
                "message": message,
                "reply_to": reply_to,
                "detail": detail,
            }
        )

    # -- computers ----------------------------------------------------------------------

    def kick(self, hub: _Hub) -> None:
        """Wake the room's computer driver (start it if it is not running on this loop)."""
        loop = asyncio.get_running_loop()
        if (
            hub.changed is None
            or hub.driver is None
            or hub.driver.done()
            or (hub.driver.get_loop() is not loop)
        ):
            hub.changed = asyncio.Event()
            hub.driver = loop.create_task(self._drive(hub))
        hub.changed.set()

    async def _drive(self, hub: _Hub) -> None:
        changed = hub.changed
        assert changed is not None
        while True:
            if hub.stale and not self._reload(hub):
                await asyncio.sleep(1.0)  # the store is unreachable: try again later
                continue
            room = hub.room  # a new object after a reload from the store
            changed.clear()
            seat, wait = room.next_computer(time.monotonic(), self.takeover)
            if seat is None:
                if wait is None:
                    await changed.wait()
                else:
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(changed.wait(), wait + 0.01)
                    if not changed.is_set() and hub.shown != self._seats(hub, time.monotonic()):
                        self.broadcast(hub)  # a takeover began: seats show "autoplay"
                continue
            rnd = room.round
            if self.bot_delay > 0 and not room.skipping and rnd.phase.name == "PLAY":
                await asyncio.sleep(self.bot_delay)
                if room.round is not rnd:
                    continue
            strategy = room.strategy(seat)
            try:
                action = await asyncio.to_thread(Room.decide, rnd, seat, strategy)
            except GongzhuError:  # a bot that cannot decide must not kill the room
                await asyncio.sleep(1.0)
                continue
            now = time.monotonic()
            if (
                hub.room is not room
                or room.round is not rnd
                or not room.acts_for(seat, now, self.takeover)
            ):
                continue  # someone moved meanwhile (here or elsewhere), or the human came back
            try:
                room.apply(action)
            except StoreError:  # another server wrote first: the store is the truth
                if not self._reload(hub):
                    await asyncio.sleep(1.0)
                continue
            except GongzhuError:
                await asyncio.sleep(1.0)
                continue
            self.broadcast(hub)

    def _reload(self, hub: _Hub, *, newer: bool = False) -> bool:
        """Rebuild the room from the store (after a refused write, or another process's
        write), keeping who is here, and push it; with ``newer``, only if the store's
        room is further on. False if the store cannot give it back: the room is then
        stale (:class:`_Hub`) until a reload succeeds."""
        old = hub.room
        try:
            fresh = Room.load(self.store, old.id)
        except StoreError:
            fresh = None
        if fresh is None:
            hub.stale = True
            return False
        was_stale, hub.stale = hub.stale, False
        if newer and not was_stale and fresh.event <= old.event:
            return True
        fresh.connected, fresh.gone_since = old.connected, old.gone_since
        fresh.elsewhere = old.elsewhere
        if (fresh.game, fresh.deal_no) == (old.game, old.deal_no):
            fresh.skipping = old.skipping
        hub.room = fresh
        self._presence(hub)
        self.broadcast(hub)
        return True

    def _touch(self, hub: _Hub) -> None:
        """Store a change that is not a move (a seat connected or left), reloading and
        trying once more if another process wrote first; given up if the store is away."""
        for _ in range(2):
            if hub.stale and not self._reload(hub):
                return
            try:
                hub.room.touch()
                return
            except StoreError:
                if not self._reload(hub):
                    return

    # -- several processes on one store ---------------------------------------------------

    def start(self) -> None:
        """Hear other processes' writes and share presence, if the store is shared."""
        listen = getattr(self.store, "listen", None)
        if listen is None:
            return
        loop = asyncio.get_running_loop()

        def changed(room_id: str | None, event: int) -> None:  # the listener's thread
            with contextlib.suppress(RuntimeError):  # the loop has closed: shutting down
                loop.call_soon_threadsafe(self._changed, room_id, event)

        self.stop_listening = listen(changed)
        if self.stop_listening is not None:
            self.shared = True
            self.beater = loop.create_task(self._beat())

    async def stop(self) -> None:
        if self.beater is not None:
            self.beater.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.beater
        if self.stop_listening is not None:
            await asyncio.to_thread(self.stop_listening)  # joins the thread: not on the loop

    def _changed(self, room_id: str | None, event: int) -> None:
        """Another process wrote ``room_id`` at ``event`` (None: maybe any room)."""
        if room_id is None:
            hubs = list(self.hubs.values())
        else:
            hub = self.hubs.get(room_id)
            if hub is None or event <= hub.room.event:
                return  # not loaded, or this process's own write (or an older one)
            hubs = [hub]
        for hub in hubs:
            if hub.conns:
                self._reload(hub, newer=True)
            else:
                self._drop(hub)  # nobody here to tell: rebuilt on its next use

    def _ttl(self) -> float:
        return 3 * self.limits.heartbeat

    def _keep(self) -> float:
        """How long presence reports are kept: past the takeover time of a seat left."""
        return max(self.takeover, 60.0) + self._ttl()

    def _lease(self, room: Room) -> dict[int, float]:
        """The presence report of this process's connected seats."""
        return {s: self._ttl() for s in range(SEATS) if room.connected[s] > 0}

    def _presence(self, hub: _Hub, until: Mapping[int, float] | None = None) -> None:
        """Report this process's seats of the room (``until``: the lease by default) and
        read everyone's; keeps what it knew if the store is away."""
        if not self.shared:
            return
        room = hub.room
        report = self._lease(room) if until is None else until
        try:
            found = self.store.presence(room.id, self.process, report, self._keep())
        except StoreError:
            return
        self._seen(hub, found)

    def _seen(self, hub: _Hub, found: Mapping[int, float] | None) -> bool:
        """Take the store's presence; True if a seat's player came or went since the
        room was last pushed (a report arrived, or one lapsed)."""
        room = hub.room
        now = time.monotonic()
        if found is not None:
            room.elsewhere = [now + found[s] if s in found else -math.inf for s in range(SEATS)]
        return hub.shown != self._seats(hub, now)

    def _seats(self, hub: _Hub, now: float) -> list[tuple[bool, bool]]:
        """Each seat's (connected, autoplay): what a push shows of presence."""
        room = hub.room
        return [(room.here(s, now), room.autoplay(s, now, self.takeover)) for s in range(SEATS)]

    async def _beat(self) -> None:
        """Every heartbeat: renew this process's presence in the rooms with connections,
        and push a room whose players came or went elsewhere (a crashed process)."""
        while True:
            await asyncio.sleep(self.limits.heartbeat)
            try:
                hubs = [hub for hub in self.hubs.values() if hub.conns]
                reports = [(hub, hub.room.id, self._lease(hub.room)) for hub in hubs]
                found = await asyncio.to_thread(self._report, reports, self._keep())
                for (hub, room_id, until), seen in zip(reports, found, strict=True):
                    if self.hubs.get(room_id) is not hub:
                        continue
                    if hub.stale and seen is not None:  # the store answers again
                        self._reload(hub)
                    gone = {s: 0.0 for s in until if hub.room.connected[s] == 0}
                    if gone:  # left while the report was on its way: it must not renew them
                        self._presence(hub, {**self._lease(hub.room), **gone})
                        self.broadcast(hub)
                    elif self._seen(hub, seen):
                        self.broadcast(hub)
            except Exception:  # never let the heartbeat die; the next one tries again
                _log.exception("gongzhu: a presence heartbeat failed")

    def _report(
        self, reports: list[tuple[_Hub, str, dict[int, float]]], keep: float
    ) -> list[dict[int, float] | None]:
        """The heartbeat's store calls (in a worker thread: they wait on the network)."""
        out: list[dict[int, float] | None] = []
        for _hub, room_id, until in reports:
            try:
                out.append(self.store.presence(room_id, self.process, until, keep))
            except StoreError:
                out.append(None)
        return out

    # -- one connection -----------------------------------------------------------------

    async def serve(self, ws: WebSocket) -> None:
        room_id = ws.path_params.get("room", "")
        hub = self.hub(room_id)
        limits = self.limits
        if hub is None:
            await ws.close(code=4404)
            return
        address = ws.client.host if ws.client is not None else ""
        if (
            self.connections >= limits.connections
            or len(hub.conns) >= limits.room_connections
            or self.by_client.get(address, 0) >= limits.client_connections
        ):
            await ws.close(code=1013)
            return
        await ws.accept()
        # The room may have been dropped while accept() waited (evicted, or changed by
        # another process while nobody was in it): take the loaded one.
        hub = self.hub(room_id)
        if hub is None:
            await ws.close(code=4404)
            return
        conn = _Conn(ws, limits)
        self.connections += 1
        self.by_client[address] = self.by_client.get(address, 0) + 1
        hub.conns.add(conn)
        if len(hub.conns) == 1:
            self._presence(hub)  # the first here: learn who is elsewhere before anything moves
        sender = asyncio.create_task(self._sender(conn))
        receiver = asyncio.create_task(self._receiver(conn, hub))
        dead = asyncio.create_task(conn.dead.wait())
        tasks = {sender, receiver, dead}
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            # The bookkeeping first, with no await before it: a cancellation (server
            # shutdown) cannot skip it. asyncio.wait, unlike gather, lets a cancellation of
            # this task through as it came (the ASGI server's cancel scope recognises it).
            for task in tasks:
                task.cancel()
            self.connections -= 1
            left = self.by_client.pop(address, 1) - 1
            if left:
                self.by_client[address] = left
            hub.conns.discard(conn)
            if conn.seat is not None:
                self._leave(hub, conn.seat)
            # Python < 3.12's wait_for may swallow a cancellation that meets a finished send:
            # a sentinel ends the sender anyway, and nobody waits for a straggler forever.
            while not conn.queue.empty():
                conn.queue.get_nowait()
            conn.queue.put_nowait(None)
            await asyncio.wait(tasks, timeout=2.0)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=conn.close_code), 1.0)

    def _leave(self, hub: _Hub, seat: int) -> None:
        room = hub.room
        room.connected[seat] -= 1
        if room.connected[seat] == 0:
            room.gone_since[seat] = time.monotonic()
            self._presence(hub, {**self._lease(room), seat: 0.0})  # gone from here now
        self._touch(hub)
        self.broadcast(hub)

    async def _sender(self, conn: _Conn) -> None:
        while True:
            text = await conn.queue.get()
            if text is None or conn.dead.is_set():
                return
            try:
                await asyncio.wait_for(conn.ws.send_text(text), self.limits.send_timeout)
            except asyncio.TimeoutError:
                conn.kill(1008)
                return
            except (WebSocketDisconnect, RuntimeError, OSError):
                # The client went (or the server is shutting down): nothing more to send,
                # and the receiver sees the same end.
                return

    async def _receiver(self, conn: _Conn, hub: _Hub) -> None:
        ws = conn.ws
        limits = self.limits
        while True:
            try:
                if not conn.hello:
                    message = await asyncio.wait_for(ws.receive(), limits.hello_timeout)
                else:
                    message = await ws.receive()
            except asyncio.TimeoutError:
                conn.kill(1008)  # no hello in time: it takes no seat and no slot
                return
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            if not conn.bucket.take():
                self._strike(hub, conn, WebError("rate-limited", "too many messages"), "")
                continue
            text = message.get("text")
            if text is None:
                data = message.get("bytes") or b""
                if len(data) > MAX_MESSAGE_BYTES:
                    self._strike(hub, conn, WebError("too-large", "message too large"), "")
                else:
                    self._strike(hub, conn, WebError("bad-message", "send JSON text frames"), "")
                continue
            try:
                request = parse(text)
            except WebError as exc:
                self._strike(hub, conn, exc, "")
                continue
            kind = request["type"]
            if not conn.hello and kind != "hello":
                self._strike(hub, conn, WebError("bad-message", "say hello first"), kind)
                continue
            if hub.stale and kind in _CHANGES and not self._reload(hub):
                self.error(hub, conn, WebError("stale", "the room cannot be stored now"), kind)
                continue
            # A write refused because another process wrote first is tried once more on
            # the room rebuilt from the store: the request's checks run again there, so
            # only a real conflict (the table moved on) is refused, not a friend's arrival.
            for retry in (kind in _CHANGES, False):
                try:
                    self._handle(hub, conn, request)
                except (IllegalActionError, WebError) as exc:
                    self.error(hub, conn, exc, kind)
                except StoreError:
                    if self._reload(hub) and retry:
                        continue
                    self.error(hub, conn, WebError("stale", "the table has moved on"), kind)
                break

    def _strike(self, hub: _Hub, conn: _Conn, exc: WebError, reply_to: str) -> None:
        conn.strikes += 1
        self.error(hub, conn, exc, reply_to)
        if conn.strikes >= self.limits.strikes:
            conn.kill(1008)  # hostile or broken: disconnected; the room goes on

    def _handle(self, hub: _Hub, conn: _Conn, request: dict[str, Any]) -> None:
        room = hub.room
        kind = request["type"]
        now = time.monotonic()
        if kind == "hello":
            if conn.hello:
                raise WebError("bad-message", "hello was already said")
            conn.hello = True
            conn.lang = _language(request.get("lang"))
            token = request["token"]
            bad = False
            if token is not None:
                seat = room.resume(token)
                if seat is None:
                    bad = True
                else:
                    self._seat(hub, conn, seat)
                    if request["name"] is not None:
                        hub.room.rename(seat, request["name"])  # (reloaded if need be)
            if bad:
                self.error(hub, conn, WebError("bad-token", "no seat has this token"), "hello")
            self._welcome(hub, conn, None)
            return
        if kind == "resync":
            self.send_state(hub, conn)
            return
        if kind == "sit":
            if conn.seat is not None:
                raise WebError("bad-message", f"you already sit at seat {conn.seat}")
            seat = request["seat"]
            token = room.sit(seat, request["name"], now, self.takeover)
            self._seat(hub, conn, seat)
            self._welcome(hub, conn, token)
            return
        seat = conn.seat
        if seat is None:
            raise WebError("bad-message", "spectators cannot play: take a seat first")
        room.check_event(request["event"])
        if kind == "action":
            room.act(seat, request["action"])
            self.broadcast(hub)
        elif kind == "next":
            room.next_deal(seat)
            self.broadcast(hub)
        elif kind == "new_game":
            room.new_game(seat)
            self.broadcast(hub)
        elif kind == "hint":
            view = room.hint_view(seat)
            if conn.hinting or self.hints >= _MAX_HINTS:
                raise WebError("rate-limited", "one hint at a time")
            conn.hinting = True
            self.hints += 1
            conn.task = asyncio.create_task(self._hint(hub, conn, view))

    def _seat(self, hub: _Hub, conn: _Conn, seat: int) -> None:
        room = hub.room
        conn.seat = seat
        room.connected[seat] += 1
        if room.connected[seat] == 1:
            self._presence(hub)  # here now: before the write others will hear of
        self._touch(hub)

    def _welcome(self, hub: _Hub, conn: _Conn, token: str | None) -> None:
        room = hub.room
        conn.send(
            {
                "type": "welcome",
                "event": room.event,
                "seat": conn.seat,
                "token": token,
                "room": room.info(time.monotonic(), self.takeover),
            }
        )
        self.broadcast(hub)  # this one's state, and everyone sees the seat taken/connected

    async def _hint(self, hub: _Hub, conn: _Conn, view: Any) -> None:
        room = hub.room
        event = room.position
        try:
            cards = await asyncio.to_thread(hint_cards, view, room.seed)
        except GongzhuError as exc:
            self.error(hub, conn, WebError("illegal", str(exc)), "hint")
            return
        finally:
            conn.hinting = False
            self.hints -= 1
        if room.position == event:
            conn.send({"type": "hint", "event": room.event, "cards": cards})


def _language(tag: str | None) -> str | None:
    """The library's language for a browser's tag ("zh-CN" → "zh"), or None (English)."""
    if tag is None:
        return None
    base = tag.replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


# -- HTTP -----------------------------------------------------------------------------


def _static_dir() -> Any:
    return resources.files("gongzhu.web") / "static"


def _json_error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status, headers=_HEADERS)


async def _read_body(request: Request, limit: int = MAX_MESSAGE_BYTES) -> bytes:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise WebError("too-large", f"at most {limit} bytes")
    return body


_CHANGES: Final = frozenset({"sit", "action", "next", "new_game"})
"""The requests that change a room (refused while its store cannot be reached)."""

_CREATE_FIELDS: Final = ("threshold", "sign_swap", "exposure", "level", "name", "seed")


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
    )
    name = check_name(data.get("name", "You"))
    seed = data.get("seed")
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**53
    ):
        raise WebError("bad-message", "seed must be an integer 0 - 2**53")
    return settings, name, seed


def create_app(
    store: Store | str | None = None,
    bot_delay: float = 0.6,
    takeover: float = 60.0,
    seed: int | None = None,
    *,
    limits: Limits | None = None,
) -> Starlette:
    """The web table as a Starlette (ASGI) application.

    ``store``: a :mod:`~gongzhu.web.store` object, a path, ``":memory:"`` or a
    ``redis://`` URL; ``None`` keeps rooms in memory (``gongzhu serve`` uses a
    file under the user's data directory). ``bot_delay``: seconds a computer
    waits before it plays a card, so a person sees the trick (0 in tests).
    ``takeover``: seconds after which a computer plays for a seat whose player
    has gone. ``seed``: the seed of every room created without one (tests;
    otherwise each room gets a random seed). ``limits``: :class:`Limits`.
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
    server = _Server(the_store, float(bot_delay), float(takeover), seed, limits or Limits())

    async def page(request: Request) -> Response:
        text = assets.page_html()
        if text is not None:
            return HTMLResponse(text, headers={**_PAGE_HEADERS, "Cache-Control": "no-cache"})
        return HTMLResponse(
            "<!doctype html><title>gongzhu</title><p>The web client is not installed.</p>",
            headers=_PAGE_HEADERS,
        )

    async def create_room(request: Request) -> Response:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            # Also keeps plain cross-site forms out: JSON needs a CORS preflight.
            return _json_error(415, "bad-message", "send application/json")
        try:
            body = await _read_body(request)
            settings, name, seed = _settings_from(parse_json(body))
            room, token = server.create_room(settings, name, seed)
        except WebError as exc:
            status = {"too-large": 413, "room-full": 503}.get(exc.code, 400)
            return _json_error(status, exc.code, exc.message)
        except StoreError:
            return _json_error(503, "room-full", "the rooms cannot be stored now; try again")
        server.hubs[room.id] = _Hub(room)
        server._evict()
        return JSONResponse(
            {"room": room.id, "seat": 0, "token": token, "url": f"/t/{room.id}"},
            201,
            headers=_HEADERS,
        )

    def _hub_or_404(request: Request) -> _Hub | Response:
        try:
            hub = server.hub(request.path_params["room"])
        except StoreError as exc:
            # The details (a Redis address, say) are for the log, not for any client.
            _log.warning("gongzhu: room %s: %s", request.path_params["room"], exc)
            return _json_error(500, "not-found", "the room cannot be read now")
        if hub is None:
            return _json_error(404, "not-found", "no such room")
        return hub

    async def room_info(request: Request) -> Response:
        hub = _hub_or_404(request)
        if isinstance(hub, Response):
            return hub
        return JSONResponse(hub.room.info(time.monotonic(), server.takeover), headers=_HEADERS)

    async def room_record(request: Request) -> Response:
        hub = _hub_or_404(request)
        if isinstance(hub, Response):
            return hub
        try:
            text = hub.room.record_text()
        except WebError as exc:
            return _json_error(404, exc.code, exc.message)
        name = f"gongzhu-{hub.room.id}-game{hub.room.game}.json"
        return Response(
            text + "\n",
            media_type="application/json",
            headers={**_HEADERS, "Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def websocket(ws: WebSocket) -> None:
        try:
            await server.serve(ws)
        except StoreError:
            with contextlib.suppress(Exception):
                await ws.close(code=1011)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.start()
        try:
            yield
        finally:
            await server.stop()
            for hub in server.hubs.values():
                if hub.driver is not None:
                    hub.driver.cancel()
            with contextlib.suppress(Exception):
                the_store.close()

    routes = [
        Route("/", page),
        Route("/t/{room}", page),
        *assets.routes(_HEADERS),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room}", room_info),
        Route("/api/rooms/{room}/record", room_record),
        WebSocketRoute("/ws/{room}", websocket),
        Mount("/static", StaticFiles(directory=str(_static_dir()), check_dir=False), name="static"),
    ]
    app = Starlette(
        routes=routes, lifespan=lifespan, middleware=[Middleware(GZipMiddleware, minimum_size=512)]
    )
    app.state.server = server
    return app
