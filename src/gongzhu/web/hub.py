"""The loaded rooms and their connections: :class:`RoomCache`, :class:`Hub`, :class:`Conn`.

Each room's changes happen one at a time under the room's lock: a change is
computed (:class:`~gongzhu.web.rooms.Change`), written to the store in a
worker thread with a timeout (:class:`StoreCalls`; the event loop never waits
on the store), and kept only once the write succeeded. Every connection has a
bounded send queue: a client that stops reading is dropped when its queue is
full, and nobody else waits for it. The cache is given its dependencies: the
store, its worker threads and the presence service
(:class:`~gongzhu.web.presence.Presence`); the computers
(:class:`~gongzhu.web.driver.Driver`) and the message handlers
(:mod:`gongzhu.web.handlers`) are given the cache in turn.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ipaddress
import logging
import math
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Coroutine, Mapping
from typing import Any, Final, Protocol, TypeVar

from starlette.websockets import WebSocket

from gongzhu.errors import GongzhuError, IllegalActionError
from gongzhu.view import PlayerView
from gongzhu.web.limits import Limits
from gongzhu.web.messages import ErrorReply, ServerMessage, WebError
from gongzhu.web.presence import Presence
from gongzhu.web.rooms import RECIPIENTS, Change, Room, Settings
from gongzhu.web.store import Store, StoreConflict, StoreError, owner_of
from gongzhu.web.words import player_refusal

__all__ = [
    "BROWSER_COOKIE",
    "Bucket",
    "Budgets",
    "Conn",
    "Hub",
    "RoomCache",
    "StoreBusy",
    "StoreCalls",
    "client_key",
]

ROOM_ID: Final = re.compile(r"[A-Za-z0-9_-]{4,32}")
_log = logging.getLogger("gongzhu.web")
_T = TypeVar("_T")


def client_key(address: str) -> str:
    """Who counts as one client for the per-address limits: the IPv4 address, or the
    /64 network of an IPv6 one (one host usually holds a whole /64)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class StoreBusy(StoreError):
    """A store call took longer than :attr:`Limits.store_timeout` (it may still land: the
    room is reloaded before its next change)."""


class Bucket:
    """A token bucket: ``capacity`` at once, refilled at ``rate`` a second."""

    def __init__(self, rate: float, capacity: float) -> None:
        self.rate, self.capacity = rate, capacity
        self.tokens = capacity
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Budgets:
    """A :class:`Bucket` per client (:func:`client_key`): the HTTP requests that cost work
    (a game record, the open tables), ``per_minute`` after a burst of ``burst``. Past
    ``clients`` clients, those whose bucket is full again (quiet lately) are forgotten."""

    def __init__(self, per_minute: float, burst: int, *, clients: int = 10_000) -> None:
        self.rate, self.burst, self.clients = per_minute / 60.0, burst, clients
        self._buckets: dict[str, Bucket] = {}

    def take(self, address: str) -> bool:
        """One request from ``address``: False if its client is past its budget."""
        key = client_key(address)
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.clients:
                self._buckets = {a: b for a, b in self._buckets.items() if b.tokens < b.capacity}
            bucket = self._buckets[key] = Bucket(self.rate, self.burst)
        return bucket.take()


class Conn:
    """One WebSocket connection: its seat, its bounded queue, its budget."""

    def __init__(self, ws: WebSocket, limits: Limits, address: str, browser: str | None) -> None:
        self.ws = ws
        self.address = address
        self.browser = browser
        """The browser's id (the HttpOnly ``gongzhu_browser`` cookie), if it sent one."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=limits.send_queue)
        self.seat: int | None = None
        self.hello = False
        self.lang: str | None = None
        self.name: str | None = None
        self.said_at = -math.inf  # when it last sent a quick message (monotonic)
        """The name its hello gave (a watcher's is shown to the table)."""
        self.bucket = Bucket(limits.watcher_messages / limits.window, limits.watcher_messages)
        self.strikes = 0
        self.dead = asyncio.Event()
        self.close_code = 1000
        self.heard = time.monotonic()
        """When it last sent a frame (a watcher silent long may make room for a newcomer)."""
        self.hinting = False
        self.task: asyncio.Task[None] | None = None  # the hint being computed (kept alive)

    def seated(self, seat: int, limits: Limits) -> None:
        self.seat = seat
        self.bucket = Bucket(limits.messages / limits.window, limits.messages)

    def send(self, message: ServerMessage) -> None:
        self.send_text(message.to_json())

    def send_text(self, text: str) -> None:
        if self.dead.is_set():
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.kill(1008)  # it stopped reading: drop it, never wait for it

    def finish(self, code: int) -> None:
        """Close with ``code`` once what is queued has been sent."""
        self.close_code = code
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.kill(code)

    def kill(self, code: int) -> None:
        if not self.dead.is_set():
            self.close_code = code
            self.dead.set()


class Hub:
    """A loaded room, its connections, its lock, its computers' wake-up signal."""

    def __init__(self, room: Room, creator: str | None = None) -> None:
        self.room = room
        self.creator = creator
        """The address that created the room (while it has not seen a move)."""
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        """Held while the room changes (a change awaits its write)."""
        self.changed: asyncio.Event | None = None
        self.driver: asyncio.Task[None] | None = None
        self.stale = False
        """A store call timed out or a reload failed: the store may hold a change the room
        in memory does not; it is rebuilt before anything else changes."""
        self.shown: list[tuple[bool, bool]] = []  # each seat's (connected, autoplay) pushed
        self.used: list[tuple[float, float]] = []  # (when, seconds) of computer thinking
        self.decline_key: tuple[int, int] | None = None  # the deal of decline_at
        self.decline_at: list[float] = []  # when a human's empty exposure may be declined

    def seated(self) -> int:
        return sum(1 for c in self.conns if c.seat is not None)

    def watchers(self) -> int:
        """Connections that said hello without a seat."""
        return sum(1 for c in self.conns if c.seat is None and c.hello)

    def watcher_names(self) -> list[str]:
        """Who watches, one entry a watcher ("" for one who gave no name), sorted."""
        return sorted(c.name or "" for c in self.conns if c.seat is None and c.hello)

    def watched(self) -> bool:
        """A connection without a seat is here (a spectator, or a newcomer before its
        hello): what this process reports of them in the shared presence."""
        return any(c.seat is None for c in self.conns)


class Computers(Protocol):
    """What the room cache asks of its computers' driver (:class:`gongzhu.web.driver.Driver`,
    which :class:`~gongzhu.web.server.Server` has it build)."""

    def kick(self, hub: Hub) -> None: ...
    def stop(self, hub: Hub) -> None: ...
    def close(self) -> None: ...
    def take_hint(self, conn: Conn) -> bool: ...
    async def hint(self, hub: Hub, conn: Conn, view: PlayerView) -> None: ...


class StoreCalls:
    """The store's worker threads: every store call runs off the event loop, with a timeout."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._pool = concurrent.futures.ThreadPoolExecutor(4, "gongzhu-store")

    async def __call__(self, call: Callable[..., _T], *args: Any) -> _T:
        """``call(*args)`` in a store worker thread, at most ``timeout`` seconds (then
        :class:`StoreBusy`); every store failure is a :class:`StoreError`."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._pool, lambda: call(*args))
        try:
            return await asyncio.wait_for(future, self.timeout)
        except asyncio.TimeoutError:
            _log.warning("gongzhu: the room store did not answer in %ss", self.timeout)
            raise StoreBusy("the room store is busy (another program holds it?)") from None

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class RoomCache:
    """The loaded rooms of one server process: rebuilt from the store on first use, changed
    one at a time (plan, write off the loop, keep), pushed to their connections.

    Its dependencies are given: the store and its worker threads (``io``), the presence
    service (:class:`~gongzhu.web.presence.Presence`, asked after each reload who is
    here elsewhere), the limits, the takeover time, and how to build the rooms'
    computers on it (``computers``: the server builds a :class:`~gongzhu.web.driver.Driver`
    given this cache, through which they write, reload and push rooms); it wakes them
    on every push."""

    def __init__(
        self,
        store: Store,
        io: StoreCalls,
        presence: Presence,
        limits: Limits,
        computers: Callable[[RoomCache], Computers],
        *,
        takeover: float,
        seed: int | None,
    ) -> None:
        self.store = store
        self.io = io
        self.presence = presence
        self.limits = limits
        self.takeover = takeover
        self.seed = seed
        self.hubs: OrderedDict[str, Hub] = OrderedDict()
        self.created: dict[str, Bucket] = {}  # room creations per address
        self.fresh: dict[str, set[str]] = {}  # unplayed rooms per creating address
        self.background: set[asyncio.Task[Any]] = set()
        self.beater: asyncio.Task[None] | None = None
        """The presence heartbeat (a shared store only)."""
        self.driver = computers(self)
        """The rooms' computers, built on this cache (they write, reload and push rooms)."""

    # -- rooms -----------------------------------------------------------------------

    async def hub(self, room_id: str) -> Hub | None:
        """The loaded room, rebuilt from the store on first access."""
        if not ROOM_ID.fullmatch(room_id):
            return None
        hub = self.hubs.get(room_id)
        if hub is None:
            room = await self.io(Room.load, self.store, room_id)
            if room is None:
                return None
            hub = self.hubs.get(room_id)  # loaded meanwhile by another request?
            if hub is None:
                hub = self.hubs[room_id] = Hub(room)
                self._evict()
        self.hubs.move_to_end(room_id)
        return hub

    def _evict(self) -> None:
        for rid in list(self.hubs):
            if len(self.hubs) <= self.limits.loaded_rooms:
                return
            hub = self.hubs[rid]
            if not hub.conns and not hub.lock.locked():
                self.drop(hub)

    def drop(self, hub: Hub) -> None:
        """Forget a loaded room (no connection is in it): it is rebuilt on its next use."""
        self.driver.stop(hub)
        if self.hubs.get(hub.room.id) is hub:
            del self.hubs[hub.room.id]

    async def create_room(
        self,
        settings: Settings,
        name: str,
        seed: int | None,
        address: str,
        browser: str | None = None,
        *,
        lobby: bool = False,
        open_table: bool = False,
        extra: Mapping[str, Any] | None = None,
    ) -> tuple[Room, str]:
        """A new room for a player at ``address`` (limits: per address, unplayed, in all).
        ``lobby``, ``open_table``: it waits for friends, listed among the open tables
        (:meth:`Room.create`). ``extra``: more of :meth:`Room.create`'s arguments (a shared
        deal: ``first``, ``seat``)."""
        if open_table and not lobby:  # refused before anything is counted
            raise WebError("bad-message", "only a table that waits for friends can be open")
        limits = self.limits
        address = client_key(address)
        bucket = self.created.get(address)
        if bucket is None:
            if len(self.created) > 10_000:  # forget the quiet addresses
                self.created = {a: b for a, b in self.created.items() if b.tokens < b.capacity}
                self.fresh = {a: f for a, f in self.fresh.items() if f & self.hubs.keys()}
            bucket = self.created[address] = Bucket(
                limits.rooms_per_minute / 60.0, limits.rooms_per_address
            )
        fresh = self.fresh.setdefault(address, set())
        fresh.intersection_update(self.hubs)  # purged or dropped unplayed rooms count no more
        if len(fresh) >= limits.unplayed_per_address:
            raise WebError("rate-limited", f"you have {len(fresh)} rooms nobody has played in yet")
        if not bucket.take():
            raise WebError("rate-limited", "too many new rooms from your address; wait a minute")
        owner = owner_of(address)
        if await self.io(self.store.count, owner) >= limits.rooms_per_owner:
            raise WebError("rate-limited", "your address keeps as many rooms as it may")
        await self.make_room()
        chosen = seed is not None
        if seed is None:
            seed = self.seed
        room, token = await self.io(
            lambda: Room.create(
                self.store,
                settings,
                name,
                seed,
                seeded=chosen,
                browser=browser,
                address=address,
                owner=owner,
                lobby=lobby,
                open_table=open_table,
                **(extra or {}),
            )
        )
        self.hubs[room.id] = Hub(room, creator=address)
        fresh.add(room.id)
        self._evict()
        return room, token

    async def make_room(self) -> None:
        """Room in the store for one more: when it is full, purge, then evict the rooms
        idle past :attr:`Limits.idle_ttl` (least recently used first); else ``room-full``."""
        limits = self.limits
        if await self.io(self.store.count) < limits.max_rooms:
            return
        await self.purge()
        if await self.io(self.store.count) < limits.max_rooms:
            return
        before = time.time() - limits.idle_ttl
        batch = max(1, limits.max_rooms // 100)  # a few at a time: the next ones stay a while
        if await self.io(lambda: self.store.evict(before, batch, keep=self._here())):
            self._drop_idle()
            if await self.io(self.store.count) < limits.max_rooms:
                return
        raise WebError("room-full", "the server has as many rooms as it keeps")

    def _here(self) -> set[str]:
        return {rid for rid, hub in self.hubs.items() if hub.conns or hub.lock.locked()}

    def _drop_idle(self) -> None:
        """A loaded room nobody is in may have been deleted: rebuilt (or not found) next time."""
        for hub in [h for h in self.hubs.values() if not h.conns and not h.lock.locked()]:
            self.drop(hub)

    async def purge(self) -> int:
        """Delete idle rooms, and unplayed ones nobody is in after :attr:`Limits.unplayed_ttl`."""
        now = time.time()
        before = now - self.limits.room_ttl
        unplayed = now - self.limits.unplayed_ttl
        here = self._here()
        n = await self.io(lambda: self.store.purge(before, unplayed_before=unplayed, keep=here))
        if n:
            self._drop_idle()
        return n

    # -- in step with the store and the other processes --------------------------------

    def start(self) -> None:
        """Hear other processes' writes and share presence (a shared store); purge idle
        rooms now and then."""
        if self.presence.listen(self._heard):
            self.beater = asyncio.get_running_loop().create_task(self._beat())
        self.spawn(self._purging())

    async def stop(self) -> None:
        """Stop listening, beating, purging and every loaded room's computers."""
        for task in list(self.background):
            task.cancel()
        if self.beater is not None:
            self.beater.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.beater
        await self.presence.close()
        for hub in self.hubs.values():
            self.driver.stop(hub)
        self.driver.close()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background, kept alive until it ends."""
        task = asyncio.get_running_loop().create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _purging(self) -> None:
        while True:
            await asyncio.sleep(self.limits.purge_every)
            try:
                await self.purge()
            except StoreError as exc:
                _log.warning("gongzhu: purging rooms failed: %s", exc)

    def _heard(self, room_id: str | None, event: int) -> None:
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
                self.spawn(self._refresh(hub))
            elif not hub.lock.locked():
                self.drop(hub)  # nobody here to tell: rebuilt on its next use

    async def _refresh(self, hub: Hub) -> None:
        async with hub.lock:
            await self.reload(hub, newer=True)

    async def _beat(self) -> None:
        """Every heartbeat: renew this process's presence in the rooms with connections,
        and push a room whose players came or went elsewhere (a crashed process)."""
        presence = self.presence
        while True:
            await asyncio.sleep(self.limits.heartbeat)
            try:
                hubs = [hub for hub in self.hubs.values() if hub.conns]
                leases = [presence.lease(hub.room, hub.watched()) for hub in hubs]
                reports = [(hub.room.id, lease) for hub, lease in zip(hubs, leases, strict=True)]
                found = await asyncio.to_thread(presence.renew, reports)
                for hub, until, seen in zip(hubs, leases, found, strict=True):
                    if self.hubs.get(hub.room.id) is not hub:
                        continue
                    if hub.stale and seen is not None:  # the store answers again
                        async with hub.lock:
                            await self.reload(hub)
                    # A spectator who left meanwhile only keeps the room a lease longer; a
                    # seat's player decides takeovers, so theirs is ended at once.
                    gone = [s for s in until if s is not None and hub.room.connected[s] == 0]
                    if gone:  # left while the report was on its way: it must not renew them
                        await self.report(hub, gone)
                        self.broadcast(hub)
                        continue
                    presence.take(hub.room, seen)
                    if hub.shown != hub.room.shown_seats(time.monotonic(), self.takeover):
                        self.broadcast(hub)
            except Exception:  # never let the heartbeat die; the next one tries again
                _log.exception("gongzhu: a presence heartbeat failed")

    # -- changes ---------------------------------------------------------------------------

    async def write(self, hub: Hub, change: Change) -> None:
        """Store ``change`` (off the loop) and only then keep it; the caller holds
        ``hub.lock``. A :class:`StoreError` leaves the room as it was."""
        room = hub.room
        try:
            await self.io(room.write, change)
        except StoreBusy:
            hub.stale = True  # the write may still land: read the store before the next one
            raise
        room.commit(change)
        if room.played and hub.creator is not None:
            self.fresh.get(hub.creator, set()).discard(room.id)
            hub.creator = None

    async def reload(self, hub: Hub, *, newer: bool = False) -> bool:
        """Rebuild the room from the store (after a refused write, a timeout, or another
        process's write), keeping who is here, and push it; with ``newer``, only if the
        store's room is further on. False if the store cannot give it back: the room is
        then stale (:class:`Hub`) until a reload succeeds."""
        old = hub.room
        try:
            fresh = await self.io(Room.load, self.store, old.id)
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
        await self.report(hub)
        # Only those who may see what changed are sent it: another seat's sealed exposure
        # decision, written by another process, moves nobody else's counter (nor sends them
        # anything).
        if hub.shown != fresh.shown_seats(time.monotonic(), self.takeover):
            self.broadcast(hub)  # who is here changed: everyone sees it
        else:
            self.broadcast(hub, [r for r in RECIPIENTS if fresh.seen(r) != old.seen(r)])
        return True

    async def report(self, hub: Hub, left: Collection[int] = ()) -> None:
        """Report this process's connections to the room in the shared presence (its
        seats' players and its spectators: :meth:`Presence.lease
        <gongzhu.web.presence.Presence.lease>`; ``left``: seats whose player has just
        gone, reported so at once) and read who is here elsewhere into the room."""
        until = self.presence.lease(hub.room, hub.watched())
        until.update(dict.fromkeys(left, 0.0))
        await self.presence.report(hub.room, until)

    async def touch(self, hub: Hub) -> None:
        """Store a change that is not a move (a seat connected or left), reloading and
        trying once more if another process wrote first; given up if the store is away.
        The caller holds ``hub.lock``."""
        for _ in range(2):
            if hub.stale and not await self.reload(hub):
                return
            try:
                await self.write(hub, hub.room.plan_touch())
                return
            except StoreConflict:
                if not await self.reload(hub):
                    return
            except StoreError:
                return

    # -- pushing ------------------------------------------------------------------------

    def broadcast(self, hub: Hub, to: Collection[int | None] | None = None) -> None:
        """Send every connection of the room its own state (``to``: only those of these
        seats, ``None`` in it for the watchers), then wake the computers."""
        now = time.monotonic()
        room = hub.room
        hub.shown = room.shown_seats(now, self.takeover)
        room.watching = hub.watcher_names()
        texts: dict[int | None, str] = {}
        for conn in list(hub.conns):
            if not conn.hello or (to is not None and conn.seat not in to):
                continue
            text = texts.get(conn.seat)
            if text is None:
                text = texts[conn.seat] = room.state(conn.seat, now, self.takeover).to_json()
            conn.send_text(text)
        self.driver.kick(hub)

    def seats(self, hub: Hub, now: float) -> list[tuple[bool, bool]]:
        """Each seat's (connected, autoplay): what a push shows of presence."""
        return hub.room.shown_seats(now, self.takeover)

    def send_state(self, hub: Hub, conn: Conn) -> None:
        hub.room.watching = hub.watcher_names()
        conn.send(hub.room.state(conn.seat, time.monotonic(), self.takeover))

    @staticmethod
    def tell(hub: Hub, message: Callable[[int | None], ServerMessage]) -> None:
        """Send every connection of the room that has said hello ``message(its seat)``
        (each recipient's message carries its own event counter)."""
        texts: dict[int | None, str] = {}
        for conn in list(hub.conns):
            if conn.hello:
                if conn.seat not in texts:
                    texts[conn.seat] = message(conn.seat).to_json()
                conn.send_text(texts[conn.seat])

    @staticmethod
    def error(hub: Hub, conn: Conn, exc: GongzhuError, reply_to: str) -> None:
        if isinstance(exc, IllegalActionError):
            # In the player's words: the suit to follow, the opening card, never a seat number.
            message = player_refusal(exc, hub.room.round, conn.lang or "en")
            code, detail = "illegal", exc.to_dict()
        elif isinstance(exc, WebError):
            code, message, detail = exc.code, exc.message, exc.detail
        elif isinstance(exc, StoreError):
            code, message, detail = (
                "store-busy",
                "that did not go through: the room could not be saved just now; try again",
                {},
            )
        else:
            code, message, detail = "bad-message", str(exc), {}
        conn.send(ErrorReply(hub.room.seen(conn.seat), code, message, reply_to, detail))


BROWSER_COOKIE: Final = "gongzhu_browser"
"""The HttpOnly cookie naming a browser (a random id; the page sets it), so that one
browser holds at most one seat per room."""


def new_browser_id() -> str:
    return secrets.token_urlsafe(16)
