"""Who is here: presence across server processes, reported to and read from a shared store.

With a store several processes share (Redis), each process hears the others'
writes (:meth:`Store.listen <gongzhu.web.store.Store.listen>`; the room cache
(:class:`~gongzhu.web.hub.RoomCache`) then rebuilds the room it changed), and
reports which seats have a connected player every :attr:`Limits.heartbeat
<gongzhu.web.Limits.heartbeat>` seconds (:meth:`Store.presence
<gongzhu.web.store.Store.presence>`), so a computer takes over a seat only when
its player is gone from every process. It reports its spectators too, apart
from the seats (:data:`WATCHERS`): a room watched on any process is not purged
as idle, but a spectator is no seat's player. With a one-process store (SQLite,
memory) all of this is a no-op.

:class:`Presence` is a plain service given its dependencies: the store, the
store's worker threads (``io``), the limits and the takeover time. It knows
rooms, not the loaded-room cache.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final

from gongzhu.web.limits import Limits
from gongzhu.web.rooms import SEATS, Room
from gongzhu.web.store import Store, StoreError

__all__ = ["WATCHERS", "Heard", "Presence"]

WATCHERS: Final = None
"""The key of a presence report's spectators (connections without a seat), beside the
seats' numbers: as :data:`~gongzhu.web.rooms.RECIPIENTS` names the watchers."""

Heard = Callable[[str | None, int], None]
"""Told, on the event loop, that another process wrote room ``id`` at ``event`` (``None``:
maybe any room)."""


class Presence:
    """One process's presence reports and its listener (see the module)."""

    def __init__(
        self,
        store: Store,
        io: Callable[..., Awaitable[Any]],
        limits: Limits,
        takeover: float,
    ) -> None:
        self.store = store
        self.io = io
        self.limits = limits
        self.takeover = takeover
        self.process = secrets.token_hex(8)
        """This process's name in presence reports."""
        self.shared = False
        """The store is shared with other processes (it has a listener)."""
        self._stop_listening: Callable[[], None] | None = None

    def listen(self, heard: Heard) -> bool:
        """Hear other processes' writes (``heard`` is called on this event loop), if the
        store is shared; True if it is."""
        listen = getattr(self.store, "listen", None)
        if listen is None:
            return False
        loop = asyncio.get_running_loop()

        def changed(room_id: str | None, event: int) -> None:  # the listener's thread
            with contextlib.suppress(RuntimeError):  # the loop has closed: shutting down
                loop.call_soon_threadsafe(heard, room_id, event)

        self._stop_listening = listen(changed)
        self.shared = self._stop_listening is not None
        return self.shared

    async def close(self) -> None:
        if self._stop_listening is not None:
            await asyncio.to_thread(self._stop_listening)  # joins the thread: not on the loop

    def ttl(self) -> float:
        return 3 * self.limits.heartbeat

    def keep(self) -> float:
        """How long presence reports are kept: past the takeover time of a seat left."""
        return max(self.takeover, 60.0) + self.ttl()

    def lease(self, room: Room, watched: bool) -> dict[int | None, float]:
        """The presence report of this process's connected seats, and of its spectators
        (:data:`WATCHERS`) if ``watched``: they keep the room from being purged on
        another process, so they are reported, but under their own key, since a
        spectator is no seat's player (the seats' reports decide takeovers)."""
        until: dict[int | None, float] = {
            s: self.ttl() for s in range(SEATS) if room.connected[s] > 0
        }
        if watched:
            until[WATCHERS] = self.ttl()
        return until

    async def report(self, room: Room, until: Mapping[int | None, float]) -> None:
        """Report this process's connections to the room (``until``, as :meth:`lease`
        makes it) and read everyone's seats into the room; keeps what it knew if the
        store is away."""
        if not self.shared:
            return
        try:
            found = await self.io(self.store.presence, room.id, self.process, until, self.keep())
        except StoreError:
            return
        self.take(room, found)

    @staticmethod
    def take(room: Room, found: Mapping[int, float] | None) -> None:
        """Keep the store's presence (seconds each seat's player is still here somewhere)."""
        if found is not None:
            now = time.monotonic()
            room.elsewhere = [now + found[s] if s in found else -math.inf for s in range(SEATS)]

    def renew(
        self, reports: Sequence[tuple[str, Mapping[int | None, float]]]
    ) -> list[dict[int, float] | None]:
        """The heartbeat's store calls, one per room (run it in a worker thread: they wait
        on the network); None for a room the store did not answer for."""
        out: list[dict[int, float] | None] = []
        for room_id, until in reports:
            try:
                out.append(self.store.presence(room_id, self.process, dict(until), self.keep()))
            except StoreError:
                out.append(None)
        return out
