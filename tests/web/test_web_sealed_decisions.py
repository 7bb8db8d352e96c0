"""A sealed exposure decision (RULES.md §9.2) changes nothing anyone else is sent: not a
card, not a message, not the event counter. Each seat (and the watchers) has its own
counter, which moves only with what it may see.
"""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from real_redis import Backend
from starlette.testclient import TestClient
from test_web_server import WS, connect, drain, is_state, new_room

from gongzhu.phase import Phase
from gongzhu.web import Limits, create_app
from gongzhu.web.messages import WebError
from gongzhu.web.rooms import RECIPIENTS, Room, Settings
from gongzhu.web.store import MemoryStore


def _two_humans() -> Room:
    room, _ = Room.create(MemoryStore(), Settings(exposure=True), "Ann", seed=7)
    room.sit(2, "Bob", time.monotonic(), 60.0)
    assert room.round.phase is Phase.EXPOSURE
    return room


def test_a_sealed_decision_moves_only_its_makers_counter_and_state() -> None:
    room = _two_humans()
    now = time.monotonic()
    before = {r: room.state(r, now, 60.0).to_json() for r in RECIPIENTS}
    counters = {r: room.seen(r) for r in RECIPIENTS}
    room.act(2, {"type": "expose", "cards": []})
    assert room.round.phase is Phase.EXPOSURE  # the window is still open: sealed
    for r in RECIPIENTS:
        if r == 2:
            assert room.seen(2) == counters[2] + 1
        else:
            assert room.seen(r) == counters[r]
            assert room.state(r, now, 60.0).to_json() == before[r]
    room.check_event(0, counters[0])  # the others' requests stay current
    # The counters are the room's: a reload (another process, a restart) keeps them.
    again = Room.load(room.store, room.id)
    assert again is not None
    assert [again.seen(r) for r in RECIPIENTS] == [room.seen(r) for r in RECIPIENTS]


def test_a_request_answering_another_seats_counter_is_stale() -> None:
    room = _two_humans()
    room.act(2, {"type": "expose", "cards": []})
    with pytest.raises(WebError, match="moved on") as info:
        room.check_event(0, room.seen(2))  # a number seat 0 was never sent
    assert info.value.detail == {"event": room.seen(0), "position": room.moved[0]}


def test_closing_the_window_shows_every_decision_to_everyone() -> None:
    room = _two_humans()
    for seat in (2, 1, 3):
        room.act(seat, {"type": "expose", "cards": []})
    counters = {r: room.seen(r) for r in RECIPIENTS}
    room.act(0, {"type": "expose", "cards": []})  # the last decision closes the window
    assert room.round.phase is not Phase.EXPOSURE
    assert all(room.seen(r) == counters[r] + 1 for r in RECIPIENTS)
    assert all(room.moved[k] == room.seen(r) for k, r in enumerate(RECIPIENTS))


def test_a_friends_sealed_decision_sends_the_undecided_player_and_watchers_nothing() -> None:
    # The server's own decline for a seat with nothing to expose waits 30 s here: the host
    # stays undecided whatever it holds, and the friend decides by hand.
    limits = Limits(exposure_pause=(30.0, 30.0))
    with TestClient(create_app(bot_delay=0, seed=5, limits=limits)) as client:
        data = new_room(client, exposure=True)
        rid = data["room"]
        with connect(client, rid) as s0, connect(client, rid) as s2, connect(client, rid) as sw:
            host, friend, watcher = WS(s0), WS(s2), WS(sw)
            friend.send({"type": "sit", "seat": 2, "name": "Bob"})  # before any computer
            friend.until(lambda m: m["type"] == "welcome")
            host.hello(data["token"])
            watcher.hello(None)
            room = client.app.state.server.rooms.hubs[rid].room  # type: ignore[attr-defined]
            deadline = time.monotonic() + 10
            while set(room.round.exposure_pending) != {0, 2}:  # the computers decided
                assert time.monotonic() < deadline
                time.sleep(0.02)
                room = client.app.state.server.rooms.hubs[rid].room  # type: ignore[attr-defined]
            time.sleep(0.1)
            for ws in (host, watcher, friend):
                drain(ws)
                ws.send({"type": "resync"})
            before = {id(ws): ws.state() for ws in (host, watcher)}
            mine = friend.state()
            n = {id(ws): len(ws.frames) for ws in (host, watcher)}
            friend.send({"type": "action", "event": mine["event"],
                         "action": {"type": "expose", "cards": []}})  # fmt: skip
            decided = friend.until(lambda m: is_state(m) and m["event"] == mine["event"] + 1)
            assert decided["view"]["pending"] is None
            for ws in (host, watcher):
                drain(ws)
                assert len(ws.frames) == n[id(ws)]  # nothing was sent to them
                ws.send({"type": "resync"})
                assert json.dumps(ws.state()) == json.dumps(before[id(ws)])  # nor changed
            # And the host's request answering its own counter is not stale.
            host.send({"type": "next", "event": before[id(host)]["event"]})
            refusal = host.until(lambda m: m["type"] == "error")
            assert refusal["code"] != "stale"


def test_a_sealed_decision_made_through_another_server_sends_this_ones_players_nothing(
    redis_backend: Backend,
) -> None:
    # Server B writes the friend's decision; server A hears of it and rebuilds the room,
    # but sends its own players nothing: only the maker's connections would be told.
    limits = Limits(exposure_pause=(30.0, 30.0), heartbeat=0.5)
    with (
        TestClient(create_app(redis_backend.store(), bot_delay=0, seed=5, limits=limits)) as a,
        TestClient(create_app(redis_backend.store(), bot_delay=0, seed=5, limits=limits)) as b,
    ):
        data = new_room(a, exposure=True)
        rid = data["room"]
        with connect(b, rid) as s2, connect(a, rid) as s0:
            friend, host = WS(s2), WS(s0)
            friend.send({"type": "sit", "seat": 2, "name": "Bob"})  # before any computer
            friend.until(lambda m: m["type"] == "welcome")
            host.hello(data["token"])
            deadline = time.monotonic() + 10
            while True:  # the computers have decided; presence has settled on both
                time.sleep(1.6)
                drain(host)
                drain(friend)
                host.send({"type": "resync"})
                before = host.state()
                seats = before["room"]["seats"]
                if before["view"]["pending"] == "expose" and seats[2]["connected"]:
                    break
                assert time.monotonic() < deadline
            friend.send({"type": "resync"})
            mine = friend.state()
            n = len(host.frames)
            friend.send({"type": "action", "event": mine["event"],
                         "action": {"type": "expose", "cards": []}})  # fmt: skip
            friend.until(lambda m: is_state(m) and m["event"] == mine["event"] + 1)
            time.sleep(1.2)  # A hears of the write and rebuilds the room meanwhile
            drain(host)
            assert len(host.frames) == n  # nothing was sent to the host
            host.send({"type": "resync"})
            assert json.dumps(host.state()) == json.dumps(before)
