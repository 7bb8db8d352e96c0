"""The web table's server: the connections' loop over the rooms, presence and computers.

:class:`Server` is :class:`~gongzhu.web.hub.Core` (rooms, the store off the
loop, pushing, and its :class:`~gongzhu.web.driver.Driver`) with
:class:`~gongzhu.web.presence.Presence`, and serves one WebSocket connection at a
time per task: a sender that drains the connection's bounded queue, a receiver
that checks each frame against the limits and passes it to the dispatch table
(:mod:`gongzhu.web.handlers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from gongzhu.web.driver import Driver
from gongzhu.web.handlers import dispatch
from gongzhu.web.hub import BROWSER_COOKIE, Conn, Hub, client_key
from gongzhu.web.messages import MAX_MESSAGE_BYTES, Hello, WebError, parse
from gongzhu.web.presence import Presence
from gongzhu.web.store import StoreError

__all__ = ["Server"]

_log = logging.getLogger("gongzhu.web")


class Server(Presence):
    """Everything one server process runs (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.driver = Driver(self, self.limits, bot_delay=self.bot_delay, takeover=self.takeover)

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
            hub = await self.hub(room_id)
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
            hub = await self.hub(room_id)
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
            await self.report(hub)  # learn who is elsewhere before anything moves
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
                self.broadcast(hub)  # one watcher fewer: the table's count goes down
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
        self.spawn(self._left(hub, seat))

    async def _left(self, hub: Hub, seat: int) -> None:
        if hub.room.connected[seat] == 0:  # gone from here: other processes hear it first
            await self.report(hub, {**self.lease(hub.room), seat: 0.0})
        async with hub.lock:
            await self.touch(hub)
        self.broadcast(hub)

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
            if not conn.bucket.take():
                self.error(hub, conn, WebError("rate-limited", "too many messages"), "")
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
            if not conn.hello and not isinstance(request, Hello):
                self.strike(hub, conn, WebError("bad-message", "say hello first"), request.type)
                continue
            await dispatch(self, hub, conn, request)
            if conn.close_code != 1000:
                return

    def strike(self, hub: Hub, conn: Conn, exc: WebError, reply_to: str) -> None:
        conn.strikes += 1
        self.error(hub, conn, exc, reply_to)
        if conn.strikes >= self.limits.strikes:
            conn.finish(1008)  # hostile or broken: disconnected; the room goes on

    # -- the server's life -----------------------------------------------------------------

    def start(self) -> None:
        self.start_presence()
        self.spawn(self._purging())

    async def _purging(self) -> None:
        while True:
            await asyncio.sleep(self.limits.purge_every)
            try:
                await self.purge()
            except StoreError as exc:
                _log.warning("gongzhu: purging rooms failed: %s", exc)

    async def stop(self) -> None:
        for task in list(self.background):
            task.cancel()
        await self.stop_presence()
        for hub in self.hubs.values():
            self.stop_driver(hub)
        self.driver.close()
        self._store_pool.shutdown(wait=False, cancel_futures=True)
