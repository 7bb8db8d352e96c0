"""The computers' driver: who acts for the computers, in which order, with how much CPU; hints.

Each loaded room with a connection has a driver task that waits for its room
to need a computer (a computer seat, a skipped deal, a player gone past the
takeover time, or the exposure decision of a human who holds nothing to
expose). Decisions run in worker **processes** (:func:`computers`, one per
core by default), so one server process uses every core and its event loop
never waits on a search; a worker is given only the deciding seat's
:class:`~gongzhu.PlayerView` and its strategy, never the hidden hands
(:func:`gongzhu.ai.driver.decide_view`). The decisions pass one fair queue
(:meth:`Driver.think`): at most :attr:`Limits.computer_workers
<gongzhu.web.Limits.computer_workers>` at once across all rooms, in the order
the rooms asked, except that a room that used half its
:attr:`~gongzhu.web.Limits.computer_budget` in the last minute goes after the
others, and a room past it waits until others are served. (Serving strictly
the room that used least first made a table whose one decision was slow wait
behind every other table: under load, 10-second stalls.) A room nobody is
connected to is not played on (it resumes when someone opens it). A decision
is applied only if the room has not moved on meanwhile.

The exposure decision of a human who holds nothing to expose is made by the
server after a pause drawn at random (:attr:`~gongzhu.web.Limits.exposure_pause`)
whatever the hands hold, and a sealed decision is sent only to its maker: the
others learn of the decisions when the window closes, so neither the timing
nor the messages tell whether that player held an exposable card.

:class:`Driver` is a plain class given what it needs of the rest of the server
(:class:`Rooms`: write and reload a room, push it, report an error, show the
seats) and its limits.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Collection
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from gongzhu.actions import Action
from gongzhu.ai.driver import Strategy, awaiting, decide, decide_view
from gongzhu.ai.search import Limit, SearchStrategy
from gongzhu.errors import GongzhuError
from gongzhu.phase import Phase
from gongzhu.round import Round
from gongzhu.view import PlayerView
from gongzhu.web.change import Change
from gongzhu.web.limits import Limits
from gongzhu.web.messages import HintReply, ServerMessage, Thinking, WebError
from gongzhu.web.rooms import SEATS, Room
from gongzhu.web.settings import PACES
from gongzhu.web.store import StoreConflict, StoreError

if TYPE_CHECKING:  # the hub holds the driver: these are only the types it hands over
    from gongzhu.web.hub import Conn, Hub

__all__ = ["HINT_LIMIT", "MAX_HINTS", "Driver", "Rooms", "computers", "hint_cards"]

HINT_LIMIT: Final = Limit(simulations=300)
"""The hint's search: simulations only (deterministic, tens of milliseconds)."""
MAX_HINTS: Final = 4
"""Hints computed at once in all (each is a search in a worker process)."""
_T = TypeVar("_T")
_MINUTE: Final = 60.0


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


# -- the worker processes ----------------------------------------------------------------

_pool: concurrent.futures.ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def computers() -> concurrent.futures.Executor:
    """The worker processes the computers think in: one per core, shared by every server
    of this process (they hold no state), started on first use from a fresh
    ``forkserver`` (not forked from a server with threads and sockets), and replaced if
    one of them dies."""
    global _pool
    with _pool_lock:
        if _pool is None:
            method = (
                "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
            )
            context = multiprocessing.get_context(method)
            if method == "forkserver":
                context.set_forkserver_preload(["gongzhu.web.driver"])
            _pool = concurrent.futures.ProcessPoolExecutor(
                os.cpu_count() or 1, context, initializer=_quiet_worker
            )
        return _pool


def _quiet_worker() -> None:
    """A worker leaves Ctrl-C to its server (which shuts the pool down): a terminal's
    interrupt reaches the whole process group, and each idle worker would print a
    ``KeyboardInterrupt`` traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _replace(broken: concurrent.futures.Executor) -> None:
    """Forget a pool one of whose workers died (killed, out of memory)."""
    global _pool
    with _pool_lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


def _decide(view: PlayerView, strategy: Strategy) -> tuple[Action, float]:
    """In a worker: the seat's decision from its view, and the seconds it took."""
    start = time.perf_counter()
    action = decide_view(view, strategy)
    return action, time.perf_counter() - start


class Rooms(Protocol):
    """What the driver needs of the server's rooms (the room cache and the pushing)."""

    async def write(self, hub: Hub, change: Change) -> None:
        """Store ``change`` and keep it (the caller holds ``hub.lock``)."""
        ...

    async def reload(self, hub: Hub) -> bool:
        """Rebuild the room from the store; False if the store cannot give it back."""
        ...

    def broadcast(self, hub: Hub, to: Collection[int | None] | None = None) -> None:
        """Send the room's connections (``to``: of these seats) their states (this wakes
        the driver: :meth:`Driver.kick`)."""
        ...

    def tell(self, hub: Hub, message: Callable[[int | None], ServerMessage]) -> None:
        """Send every connection ``message(its seat)``."""
        ...

    def seats(self, hub: Hub, now: float) -> list[tuple[bool, bool]]:
        """Each seat's (connected, autoplay)."""
        ...

    def error(self, hub: Hub, conn: Conn, exc: GongzhuError, reply_to: str) -> None:
        """Send ``conn`` an error."""
        ...


class Driver:
    """The computers of every room of one server (see the module).

    ``rooms``: the server's rooms (:class:`Rooms`); ``executor``: where decisions
    and hints run (by default the worker processes, :func:`computers`; a thread
    pool works too). Interface for the server: :meth:`kick`, :meth:`stop`,
    :meth:`close`, :meth:`hint` (with :meth:`take_hint`)."""

    def __init__(
        self,
        rooms: Rooms,
        limits: Limits,
        *,
        bot_delay: float,
        takeover: float,
        executor: concurrent.futures.Executor | None = None,
    ) -> None:
        self.rooms = rooms
        self.limits = limits
        self.bot_delay = bot_delay
        self.takeover = takeover
        self._executor = executor
        workers = limits.computer_workers
        self.workers = max(1, int(workers if workers is not None else os.cpu_count() or 1))
        self.busy = 0
        self.waiting: list[tuple[float, Hub, asyncio.Future[None]]] = []
        self.hints = 0
        """Hints being computed (at most :data:`MAX_HINTS`)."""
        self.rng = random.SystemRandom()
        self.pending: set[concurrent.futures.Future[Any]] = set()
        self.thought: list[float] = []
        """Seconds each computer decision took in its worker (the last 1,000; benchmarks)."""

    @property
    def executor(self) -> concurrent.futures.Executor:
        return self._executor if self._executor is not None else computers()

    async def run(self, call: Callable[..., _T], *args: Any) -> _T:
        """``call(*args)`` in the executor (once more in a fresh pool if a worker died)."""
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            pool = self.executor
            try:
                future = pool.submit(call, *args)
            except BrokenProcessPool:
                _replace(pool)
                continue
            self.pending.add(future)
            future.add_done_callback(self.pending.discard)
            try:
                return await asyncio.wrap_future(future, loop=loop)
            except BrokenProcessPool:
                _replace(pool)
                if attempt:
                    raise
        raise GongzhuError("the computers' worker processes cannot be started")

    # -- the fair queue ----------------------------------------------------------------

    @staticmethod
    def used(hub: Hub, now: float) -> float:
        """Seconds of computer thinking the room used in the last minute."""
        hub.used = [(t, s) for t, s in hub.used if t > now - _MINUTE]
        return sum(s for _, s in hub.used)

    async def think(self, hub: Hub, call: Callable[..., _T], *args: Any) -> _T:
        """``call(*args)`` in a computer worker, when the fair queue says so."""
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
            return await self.run(call, *args)
        finally:
            now = time.monotonic()
            hub.used.append((now, now - start))
            self._release()

    def _release(self) -> None:
        now = time.monotonic()
        while self.waiting:
            half = self.limits.computer_budget / 2
            entry = min(self.waiting, key=lambda e: (self.used(e[1], now) >= half, e[0]))
            self.waiting.remove(entry)
            if not entry[2].done():
                entry[2].set_result(None)  # the slot passes to it
                return
        self.busy -= 1

    async def decide(self, hub: Hub, rnd: Round, seat: int, strategy: Strategy) -> Action:
        """The computer's action for ``seat``, decided in a worker from the seat's view."""
        if seat not in awaiting(rnd):
            return decide(rnd, seat, strategy)  # refused at once (the turn driver's error)
        action, seconds = await self.think(hub, _decide, rnd.view(seat), strategy)
        self.thought = [*self.thought[-999:], seconds]
        return action

    # -- one room's driver --------------------------------------------------------------

    def kick(self, hub: Hub) -> None:
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

    def stop(self, hub: Hub) -> None:
        """Stop the room's computers (it is dropped, or the server stops)."""
        if hub.driver is not None:
            hub.driver.cancel()

    def close(self) -> None:
        """Cancel this server's decisions and hints not started yet (the worker
        processes are shared: they stay for the next server of this process)."""
        for future in list(self.pending):
            future.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

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
            if hub.stale:
                async with hub.lock:
                    ok = not hub.stale or await self.rooms.reload(hub)
                if not ok:
                    await asyncio.sleep(1.0)  # the store is unreachable: try again later
                    continue
            room = hub.room  # a new object after a reload from the store
            changed.clear()
            if not hub.conns:
                await changed.wait()  # nobody here: nothing is played until someone comes
                continue
            now = time.monotonic()
            seat, wait = room.next_computer(now, self.takeover, self._declines(hub))
            if seat is None:
                if wait is None:
                    await changed.wait()
                else:
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(changed.wait(), wait + 0.01)
                    if not changed.is_set() and hub.shown != self.rooms.seats(
                        hub, time.monotonic()
                    ):
                        self.rooms.broadcast(hub)  # a takeover began: seats show "autoplay"
                continue
            rnd = room.round
            if rnd.phase is Phase.PLAY and not room.skipping:
                # Who is deciding, for the thinking mark on its plate (issue 26). Only while
                # cards are played: exposure decisions stay silent (their timing is sealed).
                # (Each recipient's message carries its own counter; told at once, so the
                # loop's variables are still this turn's.)
                self.rooms.tell(hub, lambda r: Thinking(room.seen(r), seat))  # noqa: B023
            if self.bot_delay > 0 and not room.skipping and rnd.phase is Phase.PLAY:
                await asyncio.sleep(self.bot_delay * PACES[room.pace])  # the table's speed
                if room.round is not rnd:
                    continue
            strategy = room.strategy(seat)
            try:
                action = await self.decide(hub, rnd, seat, strategy)
            except GongzhuError:  # a bot that cannot decide must not kill the room
                await asyncio.sleep(1.0)
                continue
            async with hub.lock:
                now = time.monotonic()
                if (
                    hub.room is not room
                    or room.round is not rnd
                    or not room.acts_for(seat, now, self.takeover)
                ):
                    continue  # someone moved meanwhile (here or elsewhere), or the human came back
                try:
                    change = room.plan_apply(action)
                    await self.rooms.write(hub, change)
                except StoreConflict:  # another server wrote first: the store is the truth
                    if not await self.rooms.reload(hub):
                        await asyncio.sleep(1.0)
                    continue
                except (StoreError, GongzhuError):  # the store is away: try again later
                    await asyncio.sleep(1.0)
                    continue
            sealed = Room.sealed(action, room.round)
            self.rooms.broadcast(hub, [seat] if sealed else None)

    # -- hints ---------------------------------------------------------------------------

    def take_hint(self, conn: Conn) -> bool:
        """Count a hint for ``conn`` if it may have one now (one per connection at a time,
        :data:`MAX_HINTS` in all); :meth:`hint` gives the slot back."""
        if conn.hinting or self.hints >= MAX_HINTS:
            return False
        conn.hinting = True
        self.hints += 1
        return True

    async def hint(self, hub: Hub, conn: Conn, view: PlayerView) -> None:
        """Compute a hint (a slot taken with :meth:`take_hint`) and send it, if the room
        has not moved on meanwhile."""
        room = hub.room
        event = room.position
        try:
            cards = await self.run(hint_cards, view, room.seed)
        except GongzhuError as exc:
            self.rooms.error(hub, conn, WebError("illegal", str(exc)), "hint")
            return
        finally:
            conn.hinting = False
            self.hints -= 1
        if room.position == event:
            conn.send(HintReply(room.seen(conn.seat), cards))
