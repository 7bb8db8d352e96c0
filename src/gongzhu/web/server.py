"""The web table's server: the services one process runs, and its connections' loop.

:class:`Server` is built by composition: the store's worker threads
(:class:`~gongzhu.web.hub.StoreCalls`), the presence service
(:class:`~gongzhu.web.presence.Presence`), the room cache
(:class:`~gongzhu.web.hub.RoomCache`) with the computers' driver it holds
(:class:`~gongzhu.web.driver.Driver`), each a plain object given its
dependencies; the message handlers (:mod:`gongzhu.web.handlers`) receive them in
a :class:`~gongzhu.web.handlers.Deps` record. It serves one WebSocket
connection per task: a sender that drains the connection's bounded queue, a
receiver that checks each frame against the limits and passes it to the
dispatch table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from starlette.websockets import WebSocket, WebSocketDisconnect

from gongzhu.web.driver import Driver
from gongzhu.web.handlers import Deps, dispatch
from gongzhu.web.hub import BROWSER_COOKIE, Conn, Hub, RoomCache, StoreCalls, client_key
from gongzhu.web.limits import Limits
from gongzhu.web.messages import MAX_MESSAGE_BYTES, Hello, Sit, WebError, parse
from gongzhu.web.presence import Presence
from gongzhu.web.store import Store, StoreError

__all__ = ["Server"]

_log = logging.getLogger("gongzhu.web")


class Server:
    """Everything one server process runs (see the module)."""

    def __init__(
        self, store: Store, bot_delay: float, takeover: float, seed: int | None, limits: Limits
    ) -> None:
        self.store = store
        self.limits = limits
        self.takeover = takeover
        self.io = StoreCalls(limits.store_timeout)
        self.presence = Presence(store, self.io, limits, takeover)

        def computers(rooms: RoomCache) -> Driver:
            self.driver = Driver(rooms, limits, bot_delay=bot_delay, takeover=takeover)
            return self.driver

        self.rooms = RoomCache(
            store, self.io, self.presence, limits, computers, takeover=takeover, seed=seed
        )
        self.deps = Deps(self.rooms, self.presence, self.driver, limits, takeover)
        self.connections = 0
        self.by_client: dict[str, int] = {}

    # -- one connection -----------------------------------------------------------------

    async def serve(self, ws: WebSocket) -> None:
        room_id = ws.path_params.get("room", "")
        limits = self.limits
        address = client_key(ws.client.host if ws.client is not None else "")
        if (
            self.connections >= limits.connections
            or self.by_client.get(address, 0) >= limits.client_connections
        ):
            await ws.close(code=1013)
            return
        try:
            hub = await self.rooms.hub(room_id)
        except StoreError:
            await ws.close(code=1011)
            return
        if hub is None:
            await ws.close(code=4404)
            return
        # Counted before accept(): a flood of handshakes cannot pass the caps meanwhile.
        self.connections += 1
        self.by_client[address] = self.by_client.get(address, 0) + 1
        conn: Conn | None = None
        try:
            await ws.accept()
            # The room may have been dropped while accept() waited (evicted, or changed by
            # another process while nobody was in it): take the loaded one.
            hub = await self.rooms.hub(room_id)
            if hub is None:
                await ws.close(code=4404)
                return
            conn = Conn(ws, limits, address, ws.cookies.get(BROWSER_COOKIE))
            await self._run(hub, conn)
        except StoreError:
            with contextlib.suppress(Exception):
                await ws.close(code=1011)
        finally:
            self.connections -= 1
            left = self.by_client.pop(address, 1) - 1
            if left:
                self.by_client[address] = left

    async def _run(self, hub: Hub, conn: Conn) -> None:
        hub.conns.add(conn)
        if len(hub.conns) == 1:
            await self.rooms.report(hub)  # learn who is elsewhere before anything moves
        sender = asyncio.create_task(self._sender(conn))
        receiver = asyncio.create_task(self._receiver(conn, hub))
        dead = asyncio.create_task(conn.dead.wait())
        tasks = {sender, receiver, dead}
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            if receiver in done and conn.close_code != 1000 and not sender.done():
                # Closed by a limit (finish): what is queued (the refusal) goes out first.
                await asyncio.wait(
                    {sender, dead},
                    timeout=self.limits.send_timeout,
                    return_when=asyncio.FIRST_COMPLETED,
                )
        finally:
            # The bookkeeping first, with no await before it: a cancellation (server
            # shutdown) cannot skip it. asyncio.wait, unlike gather, lets a cancellation of
            # this task through as it came (the ASGI server's cancel scope recognises it).
            for task in tasks:
                task.cancel()
            hub.conns.discard(conn)
            if conn.seat is not None:
                self._leave(hub, conn.seat)
            elif conn.hello and hub.conns:
                self.rooms.broadcast(hub)  # one watcher fewer: the table's count goes down
            # Python < 3.12's wait_for may swallow a cancellation that meets a finished send:
            # a sentinel ends the sender anyway, and nobody waits for a straggler forever.
            while not conn.queue.empty():
                conn.queue.get_nowait()
            conn.queue.put_nowait(None)
            await asyncio.wait(tasks, timeout=2.0)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.ws.close(code=conn.close_code), 1.0)

    def _leave(self, hub: Hub, seat: int) -> None:
        room = hub.room
        room.connected[seat] -= 1
        if room.connected[seat] == 0:
            room.gone_since[seat] = time.monotonic()
        self.rooms.spawn(self._left(hub, seat))

    async def _left(self, hub: Hub, seat: int) -> None:
        if hub.room.connected[seat] == 0:  # gone from here: other processes hear it first
            await self.rooms.report(hub, [seat])
        async with hub.lock:
            await self.rooms.touch(hub)
        self.rooms.broadcast(hub)

    async def _sender(self, conn: Conn) -> None:
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

    async def _receiver(self, conn: Conn, hub: Hub) -> None:
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
            conn.heard = time.monotonic()
            if not conn.bucket.take():
                self.rooms.error(hub, conn, WebError("rate-limited", "too many messages"), "")
                conn.finish(1008)  # a broken limit closes the connection (as lichess)
                return
            text = message.get("text")
            if text is None:
                data = message.get("bytes") or b""
                if len(data) > MAX_MESSAGE_BYTES:
                    self.strike(hub, conn, WebError("too-large", "message too large"), "")
                else:
                    self.strike(hub, conn, WebError("bad-message", "send JSON text frames"), "")
                continue
            try:
                request = parse(text)
            except WebError as exc:
                self.strike(hub, conn, exc, "")
                continue
            if not conn.hello and not isinstance(request, (Hello, Sit)):
                self.strike(hub, conn, WebError("bad-message", "say hello first"), request.type)
                continue
            await dispatch(self.deps, hub, conn, request)
            if conn.close_code != 1000:
                return

    def strike(self, hub: Hub, conn: Conn, exc: WebError, reply_to: str) -> None:
        conn.strikes += 1
        self.rooms.error(hub, conn, exc, reply_to)
        if conn.strikes >= self.limits.strikes:
            conn.finish(1008)  # hostile or broken: disconnected; the room goes on

    # -- the server's life -----------------------------------------------------------------

    def start(self) -> None:
        self.rooms.start()

    async def stop(self) -> None:
        await self.rooms.stop()  # and the rooms' computers
        self.io.close()
