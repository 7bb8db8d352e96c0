"""Who is here: presence across server processes, the heartbeat and the store's listener.

With a store several processes share (Redis), each process hears the others'
writes (:meth:`Store.listen <gongzhu.web.store.Store.listen>`): a loaded room
that another process changed is rebuilt from the store and every connection
is sent its new state. Which seats have a connected player is reported to the
store every :attr:`Limits.heartbeat <gongzhu.web.Limits.heartbeat>` seconds
(:meth:`Store.presence <gongzhu.web.store.Store.presence>`), so a computer
takes over a seat only when its player is gone from every process. With a
one-process store (SQLite, memory) all of this is a no-op.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from gongzhu.web.hub import Core, Hub
from gongzhu.web.rooms import SEATS, Room
from gongzhu.web.store import StoreError

__all__ = ["Presence"]

_log = logging.getLogger("gongzhu.web")


class Presence(Core):
    """One process's presence reports and its listener (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.process = secrets.token_hex(8)
        """This process's name in presence reports."""
        self.shared = False
        self.stop_listening: Callable[[], None] | None = None
        self.beater: asyncio.Task[None] | None = None

    def start_presence(self) -> None:
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

    async def stop_presence(self) -> None:
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
                self.spawn(self._refresh(hub))
            elif not hub.lock.locked():
                self.drop(hub)  # nobody here to tell: rebuilt on its next use

    async def _refresh(self, hub: Hub) -> None:
        async with hub.lock:
            await self.reload(hub, newer=True)

    def ttl(self) -> float:
        return 3 * self.limits.heartbeat

    def keep(self) -> float:
        """How long presence reports are kept: past the takeover time of a seat left."""
        return max(self.takeover, 60.0) + self.ttl()

    def lease(self, room: Room) -> dict[int, float]:
        """The presence report of this process's connected seats."""
        return {s: self.ttl() for s in range(SEATS) if room.connected[s] > 0}

    async def report(self, hub: Hub, until: Mapping[int, float] | None = None) -> None:
        """Report this process's seats of the room (``until``: the lease by default) and
        read everyone's; keeps what it knew if the store is away."""
        if not self.shared:
            return
        room = hub.room
        report = self.lease(room) if until is None else until
        try:
            found = await self.io(self.store.presence, room.id, self.process, report, self.keep())
        except StoreError:
            return
        self.seen(hub, found)

    def seen(self, hub: Hub, found: Mapping[int, float] | None) -> bool:
        """Take the store's presence; True if a seat's player came or went since the
        room was last pushed (a report arrived, or one lapsed)."""
        room = hub.room
        now = time.monotonic()
        if found is not None:
            room.elsewhere = [now + found[s] if s in found else -math.inf for s in range(SEATS)]
        return hub.shown != self.seats(hub, now)

    def seats(self, hub: Hub, now: float) -> list[tuple[bool, bool]]:
        """Each seat's (connected, autoplay): what a push shows of presence."""
        room, takeover = hub.room, self.takeover
        return [(room.here(s, now), room.autoplay(s, now, takeover)) for s in range(SEATS)]

    async def _beat(self) -> None:
        """Every heartbeat: renew this process's presence in the rooms with connections,
        and push a room whose players came or went elsewhere (a crashed process)."""
        while True:
            await asyncio.sleep(self.limits.heartbeat)
            try:
                hubs = [hub for hub in self.hubs.values() if hub.conns]
                reports = [(hub, hub.room.id, self.lease(hub.room)) for hub in hubs]
                found = await asyncio.to_thread(self._report, reports, self.keep())
                for (hub, room_id, until), seen in zip(reports, found, strict=True):
                    if self.hubs.get(room_id) is not hub:
                        continue
                    if hub.stale and seen is not None:  # the store answers again
                        async with hub.lock:
                            await self.reload(hub)
                    gone = {s: 0.0 for s in until if hub.room.connected[s] == 0}
                    if gone:  # left while the report was on its way: it must not renew them
                        await self.report(hub, {**self.lease(hub.room), **gone})
                        self.broadcast(hub)
                    elif self.seen(hub, seen):
                        self.broadcast(hub)
            except Exception:  # never let the heartbeat die; the next one tries again
                _log.exception("gongzhu: a presence heartbeat failed")

    def _report(
        self, reports: list[tuple[Hub, str, dict[int, float]]], keep: float
    ) -> list[dict[int, float] | None]:
        """The heartbeat's store calls (in a worker thread: they wait on the network)."""
        out: list[dict[int, float] | None] = []
        for _hub, room_id, until in reports:
            try:
                out.append(self.store.presence(room_id, self.process, until, keep))
            except StoreError:
                out.append(None)
        return out
