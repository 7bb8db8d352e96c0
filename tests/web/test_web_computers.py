"""The web table's computers think in worker processes, given only the deciding seat's view.

What is checked: a decision made in a worker is the one made in-process; what a
worker is sent is the seat's :class:`~gongzhu.PlayerView` and its strategy, never
the round (the hidden hands); the event loop goes on while a search runs; a
worker that dies is replaced.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import pickle
import time
from typing import Any

import pytest

import fresh_loop

pytest.importorskip("starlette")

from gongzhu.errors import GongzhuError
from gongzhu.view import PlayerView
from gongzhu.web import Limits
from gongzhu.web.driver import Driver
from gongzhu.web.hub import Hub
from gongzhu.web.rooms import Room, Settings
from gongzhu.web.store import MemoryStore

pytestmark = pytest.mark.slow  # worker processes start


class Recording(concurrent.futures.ThreadPoolExecutor):
    """A thread pool that keeps what it is given, as a process pool would receive it."""

    def __init__(self) -> None:
        super().__init__(1)
        self.sent: list[tuple[Any, ...]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.sent.append(pickle.loads(pickle.dumps(args)))
        return super().submit(fn, *args, **kwargs)


def _driver(executor: concurrent.futures.Executor | None = None) -> Driver:
    return Driver(None, Limits(), bot_delay=0, takeover=60, executor=executor)  # type: ignore[arg-type]


def test_a_decision_in_a_worker_process_is_the_one_made_in_process() -> None:
    driver = _driver()

    async def decide_all() -> list[Any]:
        room, _ = Room.create(MemoryStore(), Settings(level="normal"), "Ann", seed=17)
        hub = Hub(room)
        pairs = []
        for _ in range(12):
            seat = room.waiting_seats()[0]
            here = Room.decide(room.round, seat, room.strategy(seat))
            there = await driver.decide(hub, room.round, seat, room.strategy(seat))
            pairs.append((here, there))
            room.apply(there)
        return pairs

    pairs = fresh_loop.run(decide_all())
    driver.close()
    assert all(here == there for here, there in pairs)
    assert len(driver.thought) == 12


def test_a_worker_is_given_the_seats_view_never_the_round() -> None:
    recording = Recording()
    driver = _driver(recording)

    async def decide_some() -> None:
        room, _ = Room.create(MemoryStore(), Settings(level="easy"), "Ann", seed=5)
        hub = Hub(room)
        for _ in range(8):
            seat = room.waiting_seats()[0]
            seen = room.round.view(seat)
            room.apply(await driver.decide(hub, room.round, seat, room.strategy(seat)))
            view, strategy = recording.sent[-1]
            assert isinstance(view, PlayerView)
            assert view == seen  # the seat's own view: its hand, the public facts
            assert type(strategy) is type(room.strategy(seat))

    fresh_loop.run(decide_some())
    driver.close()
    for args in recording.sent:
        assert type(args[0]).__name__ == "PlayerView"
        assert not any(type(a).__name__ in ("Round", "Room", "Table") for a in args)


def test_the_event_loop_goes_on_while_a_computer_searches() -> None:
    driver = _driver()
    room, _ = Room.create(MemoryStore(), Settings(level="hard"), "Ann", seed=3)
    room.apply(Room.decide(room.round, room.waiting_seats()[0], room.strategy(0)))
    while room.round.phase.name != "PLAY":
        seat = room.waiting_seats()[0]
        room.apply(Room.decide(room.round, seat, room.strategy(seat)))
    seat = room.waiting_seats()[0]

    async def measure() -> float:
        gaps: list[float] = []
        done = False

        async def tick() -> None:
            last = time.monotonic()
            while not done:
                await asyncio.sleep(0.01)
                now = time.monotonic()
                gaps.append(now - last)
                last = now

        ticker = asyncio.create_task(tick())
        await driver.decide(Hub(room), room.round, seat, room.strategy(seat))
        done = True
        await ticker
        return max(gaps)

    worst = fresh_loop.run(measure())
    driver.close()
    assert worst < 0.5  # a search of up to a second ran meanwhile, in another process


def test_a_worker_that_dies_is_replaced() -> None:
    driver = _driver()

    async def scenario() -> int:
        with pytest.raises((concurrent.futures.process.BrokenProcessPool, GongzhuError)):
            await driver.run(os._exit, 3)  # the worker dies (twice: the retry too)
        return await driver.run(pow, 2, 10)  # a fresh pool answers

    assert fresh_loop.run(scenario()) == 1024
    driver.close()
