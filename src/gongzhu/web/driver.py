"""The computers' driver: who acts for the computers, in which order, with how much CPU; hints.

Each loaded room with a connection has a driver task that waits for its room
to need a computer (a computer seat, a skipped deal, a player gone past the
takeover time, or the exposure decision of a human who holds nothing to
expose). Decisions run in worker threads behind one fair queue
(:meth:`Driver.think`): at most :attr:`Limits.computer_workers
<gongzhu.web.Limits.computer_workers>` at once across all rooms, the room
that used the least computer time in the last minute first, and a room past
its :attr:`~gongzhu.web.Limits.computer_budget` waits until others are
served. A room nobody is connected to is not played on (it resumes when
someone opens it). A decision is applied only if the room has not moved on
meanwhile.

The exposure decision of a human who holds nothing to expose is made by the
server after a pause drawn at random (:attr:`~gongzhu.web.Limits.exposure_pause`)
whatever the hands hold, and a sealed decision is sent only to its maker: the
others learn of the decisions when the window closes, so neither the timing
nor the messages tell whether that player held an exposable card.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import random
import time
from collections.abc import Callable
from typing import Any, Final, TypeVar

from gongzhu.ai.search import Limit, SearchStrategy
from gongzhu.errors import GongzhuError
from gongzhu.phase import Phase
from gongzhu.view import PlayerView
from gongzhu.web.hub import Conn, Hub, RoomCache
from gongzhu.web.limits import Limits
from gongzhu.web.messages import HintReply, Thinking, WebError
from gongzhu.web.rooms import SEATS, Room
from gongzhu.web.store import StoreConflict, StoreError

__all__ = ["HINT_LIMIT", "MAX_HINTS", "Driver", "hint_cards"]

HINT_LIMIT: Final = Limit(simulations=300)
"""The hint's search: simulations only (deterministic, tens of milliseconds)."""
MAX_HINTS: Final = 4
"""Hints computed at once in all (each is a search in a worker thread)."""
_T = TypeVar("_T")
_MINUTE: Final = 60.0
_log = logging.getLogger("gongzhu.web")


def hint_cards(view: PlayerView, seed: int | str) -> list[dict[str, Any]]:
    """The search bot's expected deal score for each legal card (best first)."""
    analysis = SearchStrategy(HINT_LIMIT, seed=seed).analyse(view)
    return [
        {
            "card": m.card.code,
            "expected": round(m.expected, 2),
            "stderr": round(m.stderr, 2),
            "samples": m.samples,
        }
        for m in analysis.moves
    ]


class Driver:
    """The computers of every room of one server (see the module): a plain service given
    the room cache it plays in, the limits, the computers' pause and the takeover time."""

    def __init__(self, rooms: RoomCache, limits: Limits, bot_delay: float, takeover: float) -> None:
        self.rooms = rooms
        self.limits = limits
        self.bot_delay = bot_delay
        self.takeover = takeover
        self.hints = 0  # hints being computed, server-wide (each is a search)
        workers = max(1, int(self.limits.computer_workers))
        self.workers = workers
        self.computer_pool = concurrent.futures.ThreadPoolExecutor(workers, "gongzhu-computer")
        self.hint_pool = concurrent.futures.ThreadPoolExecutor(2, "gongzhu-hint")
        self.busy = 0
        self.waiting: list[tuple[float, Hub, asyncio.Future[None]]] = []
        self.rng = random.SystemRandom()

    # -- the fair queue ----------------------------------------------------------------

    @staticmethod
    def used(hub: Hub, now: float) -> float:
        """Seconds of computer thinking the room used in the last minute."""
        hub.used = [(t, s) for t, s in hub.used if t > now - _MINUTE]
        return sum(s for _, s in hub.used)

    async def think(self, hub: Hub, call: Callable[..., _T], *args: Any) -> _T:
        """``call(*args)`` in a computer worker thread, when the fair queue says so."""
        loop = asyncio.get_running_loop()
        budget = self.limits.computer_budget
        while self.used(hub, time.monotonic()) >= budget and self.waiting:
            await asyncio.sleep(0.5)  # over budget while others wait: they go first
        if self.busy < self.workers and not self.waiting:
            self.busy += 1
        else:
            turn: asyncio.Future[None] = loop.create_future()
            entry = (time.monotonic(), hub, turn)
            self.waiting.append(entry)
            try:
                await turn  # the slot is handed over with the result
            except asyncio.CancelledError:
                if entry in self.waiting:
                    self.waiting.remove(entry)
                elif turn.done() and not turn.cancelled():
                    self._release()
                raise
        start = time.monotonic()
        try:
            return await loop.run_in_executor(self.computer_pool, lambda: call(*args))
        finally:
            now = time.monotonic()
            hub.used.append((now, now - start))
            self._release()

    def _release(self) -> None:
        now = time.monotonic()
        while self.waiting:
            entry = min(self.waiting, key=lambda e: (self.used(e[1], now), e[0]))
            self.waiting.remove(entry)
            if not entry[2].done():
                entry[2].set_result(None)  # the slot passes to it
                return
        self.busy -= 1

    # -- one room's driver --------------------------------------------------------------

    def kick(self, hub: Hub) -> None:
        """Wake the room's computer driver (start it if it is not running on this loop);
        after that a push wakes it (:meth:`Hub.wake <gongzhu.web.hub.Hub.wake>`)."""
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

    def close(self) -> None:
        self.computer_pool.shutdown(wait=False, cancel_futures=True)
        self.hint_pool.shutdown(wait=False, cancel_futures=True)

    def _declines(self, hub: Hub) -> list[float]:
        """When (monotonic) the server may decline each seat's exposure this deal: a fresh
        random pause per deal and seat, the same whatever the hands hold."""
        room = hub.room
        key = (room.game, room.deal_no)
        if hub.decline_key != key:
            pause = self.limits.exposure_pause
            if pause is None:  # by default paced like the computers' cards
                pause = (2 * self.bot_delay, 6 * self.bot_delay)
            lo, hi = pause
            if len(room.humans()) < 2:
                lo = hi = 0.0  # nobody else to learn anything from the timing
            now = time.monotonic()
            hub.decline_key = key
            hub.decline_at = [now + self.rng.uniform(lo, hi) for _ in range(SEATS)]
        return hub.decline_at

    async def _drive(self, hub: Hub) -> None:
        changed = hub.changed
        assert changed is not None
        while True:
            try:
                await self._step(hub, changed)
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug must not stop the room's computers for good
                _log.exception("gongzhu: the computers of room %s", hub.room.id)
                await asyncio.sleep(1.0)

    async def _step(self, hub: Hub, changed: asyncio.Event) -> None:
        """One turn of a room's computers: wait until one must decide, then decide."""
        rooms = self.rooms
        if hub.stale:
            async with hub.lock:
                ok = not hub.stale or await rooms.reload(hub)
            if not ok:
                await asyncio.sleep(1.0)  # the store is unreachable: try again later
                return
        room = hub.room  # a new object after a reload from the store
        changed.clear()
        if not hub.conns:
            await changed.wait()  # nobody here: nothing is played until someone comes
            return
        now = time.monotonic()
        seat, wait = room.next_computer(now, self.takeover, self._declines(hub))
        if seat is None:
            if wait is None:
                await changed.wait()
            else:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(changed.wait(), wait + 0.01)
                now = time.monotonic()
                if not changed.is_set() and hub.shown != room.shown_seats(now, self.takeover):
                    rooms.broadcast(hub)  # a takeover began: seats show "autoplay"
            return
        rnd = room.round
        if rnd.phase is Phase.PLAY and not room.skipping:
            # Who is deciding, for the thinking mark on its plate (issue 26). Only while
            # cards are played: exposure decisions stay silent (their timing is sealed).
            rooms.tell(hub, lambda recipient: Thinking(room.seen(recipient), seat))
        if self.bot_delay > 0 and not room.skipping and rnd.phase is Phase.PLAY:
            await asyncio.sleep(self.bot_delay)
            if room.round is not rnd:
                return
        strategy = room.strategy(seat)
        try:
            action = await self.think(hub, Room.decide, rnd, seat, strategy)
        except GongzhuError:  # a bot that cannot decide must not kill the room
            await asyncio.sleep(1.0)
            return
        async with hub.lock:
            now = time.monotonic()
            if (
                hub.room is not room
                or room.round is not rnd
                or not room.acts_for(seat, now, self.takeover)
            ):
                return  # someone moved meanwhile (here or elsewhere), or the human came back
            try:
                await rooms.write(hub, room.plan_apply(action))
            except StoreConflict:  # another server wrote first: the store is the truth
                if not await rooms.reload(hub):
                    await asyncio.sleep(1.0)
                return
            except (StoreError, GongzhuError):  # the store is away: try again later
                await asyncio.sleep(1.0)
                return
        sealed = Room.sealed(action, room.round)
        rooms.broadcast(hub, [seat] if sealed else None)

    # -- hints ---------------------------------------------------------------------------

    async def hint(self, hub: Hub, conn: Conn, view: PlayerView) -> None:
        room = hub.room
        event = room.position
        loop = asyncio.get_running_loop()
        try:
            cards = await loop.run_in_executor(self.hint_pool, hint_cards, view, room.seed)
        except GongzhuError as exc:
            self.rooms.error(hub, conn, WebError("illegal", str(exc)), "hint")
            return
        finally:
            conn.hinting = False
            self.hints -= 1
        if room.position == event:
            conn.send(HintReply(room.seen(conn.seat), cards))
