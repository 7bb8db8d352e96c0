"""Several server processes sharing rooms through Redis (issue #20, item 5: ``--store redis://``).

Two applications (two Starlette test clients, each with its own event loop
in its own thread, like two processes) share one Redis, each through its own
client: every test runs against the in-memory imitation (fakeredis) and
against a real ``redis-server`` (:mod:`real_redis`). What is checked:
a move made through one server is pushed to a player of the other without
that player acting; a seat whose player is connected only to server B is
not taken over by server A's computer, and is taken over once the player has
gone from both (and given back when they return); a Redis outage refuses
changes without crashing either server, and both carry on afterwards.

Every wait polls with a deadline; the one waiting period (that a computer
does NOT move) watches the frames for the whole period.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("redis")

from real_redis import Backend
from starlette.testclient import TestClient
from test_web_server import WS, connect, is_state, new_room, respond

from gongzhu.web import Limits, create_app
from gongzhu.web.rooms import Room, Settings, StoreError
from gongzhu.web.store import CHANNEL, MemoryStore, SQLiteStore

HEARTBEAT = 0.5
"""Presence heartbeats in these tests (a crashed process's players count as gone 1.5 s later;
slower beats would make the tests longer, faster ones flaky on a loaded machine)."""


@contextmanager
def two_servers(
    redis_backend: Backend, *, takeover: float = 60.0, seed: int = 21
) -> Iterator[tuple[TestClient, TestClient]]:
    with ExitStack() as stack:
        clients = tuple(
            stack.enter_context(
                TestClient(
                    create_app(
                        redis_backend.store(),
                        bot_delay=0,
                        takeover=takeover,
                        seed=seed,
                        limits=Limits(heartbeat=HEARTBEAT),
                    )
                )
            )
            for _ in range(2)
        )
        yield clients[0], clients[1]


def poll(ws: WS, timeout: float = 0.05) -> dict[str, Any] | None:
    """The next frame if one comes within ``timeout``, else None."""
    try:
        return ws.recv(timeout)
    except TimeoutError:
        return None


def cards_played(state: dict[str, Any], seat: int) -> int:
    """How many cards seat has played in this deal."""
    view = state["view"]
    tricks = [view["current_trick"], *view["tricks"]]
    return sum(t["seats"].count(seat) for t in tricks)


def played_by(state: dict[str, Any], seat: int) -> bool:
    """Seat has played a card in this deal (the trick in progress or a finished one)."""
    return cards_played(state, seat) > 0


def run_until(
    players: list[tuple[WS, int | None]],
    done: Callable[[], bool],
    timeout: float = 30.0,
) -> None:
    """Read every connection and let each player (a seat; None: only reads) make its
    moves, until ``done()``."""
    end = time.monotonic() + timeout
    acted: dict[int, int] = {}
    while not done():
        if time.monotonic() > end:
            raise TimeoutError("the condition was not reached")
        for ws, seat in players:
            message = poll(ws)
            if message is None or not is_state(message) or seat is None:
                continue
            if message["event"] > acted.get(seat, -1) and respond(ws, seat, message):
                acted[seat] = message["event"]


def wait_state(
    ws: WS, pred: Callable[[dict[str, Any]], bool], timeout: float = 30.0
) -> dict[str, Any]:
    return ws.until(lambda m: is_state(m) and pred(m), timeout)


# -- the store's two shared-store methods ----------------------------------------------


def test_every_write_is_announced_with_its_event_and_only_redis_has_listeners(
    redis_backend: Backend,
) -> None:
    store = redis_backend.store()
    heard: list[tuple[str | None, int]] = []
    got = threading.Condition()

    def changed(room_id: str | None, event: int) -> None:
        with got:
            heard.append((room_id, event))
            got.notify_all()

    stop = store.listen(changed)
    assert stop is not None
    try:
        with got:  # the subscription is confirmed first: "anything may have changed"
            assert got.wait_for(lambda: heard, 5.0)
        assert heard[0] == (None, 0)
        room, _ = Room.create(store, Settings(exposure=False), "Ann", seed=4)
        seat = room.waiting_seats()[0]
        room.apply(Room.decide(room.round, seat, room.strategy(seat)))
        room.touch()
        with got:
            assert got.wait_for(lambda: len(heard) >= 3, 5.0)
        assert heard[1:] == [(room.id, room.event - 1), (room.id, room.event)]
        # Something else on the channel is not an announcement.
        redis_backend.client().publish(CHANNEL, "no event here")
        room.touch()
        with got:
            assert got.wait_for(lambda: len(heard) >= 4, 5.0)
        assert heard[3] == (room.id, room.event)
    finally:
        stop()
    for one_process in (MemoryStore(), SQLiteStore(":memory:")):
        assert one_process.listen(changed) is None
        assert one_process.presence("r", "p", {0: 1.0}, 60.0) is None


def test_a_write_that_does_not_raise_the_event_is_refused_in_every_store(
    redis_backend: Backend,
) -> None:
    # Two processes changing the same room at once (two friends sitting down) must not
    # both succeed: the log length alone does not see a change that adds no action.
    for store in (MemoryStore(), SQLiteStore(":memory:"), redis_backend.store()):
        room, _ = Room.create(store, Settings(), "Ann", seed=2)
        other = Room.load(store, room.id)
        assert other is not None
        room.touch()
        with pytest.raises(StoreError):
            other.touch()
        assert Room.load(store, room.id).event == room.event  # type: ignore[union-attr]


def test_presence_is_shared_leases_end_and_nothing_outlives_keep(redis_backend: Backend) -> None:
    a, b = redis_backend.store(), redis_backend.store()
    raw = redis_backend.client()
    assert b.presence("room1", "B", {}, 60.0) == {}  # nobody reported
    a.presence("room1", "A", {2: 5.0}, 60.0)  # A's player at seat 2, a 5 s lease
    seen = b.presence("room1", "B", {}, 60.0)
    assert seen is not None
    assert set(seen) == {2}
    assert 4.0 < seen[2] <= 5.0
    b.presence("room1", "B", {2: 5.0, 0: 5.0}, 60.0)
    a.presence("room1", "A", {2: 0.0}, 60.0)  # A's player left: B's still counts
    seen = b.presence("room1", "B", {}, 60.0)
    assert seen is not None
    assert seen[2] > 4.0
    assert seen[0] > 4.0
    b.presence("room1", "B", {2: 0.0, 0: 0.0}, 60.0)
    seen = b.presence("room1", "B", {}, 60.0)
    assert seen is not None
    assert -1.0 < seen[2] <= 0.0
    # Bounded: the key expires, and reports older than ``keep`` are dropped.
    assert 0 < raw.ttl("gongzhu:web:here:room1") <= 61
    a.presence("room1", "A", {1: 0.0}, 0.2)
    deadline = time.monotonic() + 5.0
    while (b.presence("room1", "B", {}, 0.2) or {}) != {}:
        assert time.monotonic() < deadline, "old reports were never dropped"
        time.sleep(0.05)
    # A purged room leaves no presence behind (its player has left: a room someone is
    # in is never purged).
    store = redis_backend.store()
    room, _ = Room.create(store, Settings(), "Ann", seed=1)
    store.presence(room.id, "A", {0: 0.0}, 60.0)
    assert store.purge(time.time() + 1) == 1
    assert raw.keys(f"gongzhu:web:*{room.id}*") == []


def test_a_room_with_a_player_on_any_process_is_not_purged_until_the_lease_lapses(
    redis_backend: Backend,
) -> None:
    store, ghost = redis_backend.store(), redis_backend.store()
    raw = redis_backend.client()
    room, _ = Room.create(store, Settings(), "Ann", seed=1, lobby=True)  # a waiting table
    played, _ = Room.create(store, Settings(), "Bo", seed=2)
    # Another process (it will crash) reports the host here, with a 1.5 s lease.
    ghost.presence(room.id, "crashed", {0: 1.5}, 60.0)
    far = time.time() + 3600  # a clock past every limit
    assert store.purge(far, unplayed_before=far) == 1  # only the room nobody is in
    assert store.evict(far, 10) == 0
    assert raw.exists(f"gongzhu:web:room:{room.id}")
    assert not raw.exists(f"gongzhu:web:room:{played.id}")
    # The crashed process renews nothing: once its lease lapses the room goes as before.
    deadline = time.monotonic() + 10.0
    while store.purge(time.time() - 3600, unplayed_before=far) == 0:
        assert time.monotonic() < deadline, "the lapsed lease still kept the room"
        time.sleep(0.1)
    assert raw.keys(f"gongzhu:web:*{room.id}*") == []
    assert store.count() == 0


def test_a_spectators_lease_keeps_the_room_but_holds_no_seat(redis_backend: Backend) -> None:
    store, other = redis_backend.store(), redis_backend.store()
    room, _ = Room.create(store, Settings(), "Ann", seed=1, lobby=True)
    other.presence(room.id, "B", {None: 1.5}, 60.0)  # a spectator on B, a 1.5 s lease
    assert store.presence(room.id, "A", {}, 60.0) == {}  # nobody at any seat
    far = time.time() + 3600
    assert store.purge(far, unplayed_before=far) == 0
    assert store.evict(far, 10) == 0
    deadline = time.monotonic() + 10.0  # B stops renewing: the lease lapses
    while store.purge(far, unplayed_before=far) == 0:
        assert time.monotonic() < deadline, "the lapsed lease still kept the room"
        time.sleep(0.1)
    assert store.count() == 0


def test_a_player_arriving_during_a_purge_keeps_the_room(
    redis_backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The purge has checked that nobody is in the room and that it is unplayed; before its
    # delete runs, another process reports a player (or writes the room): the delete must
    # not happen (the check and the delete are one transaction).
    from gongzhu.web import store_redis

    store, other = redis_backend.store(), redis_backend.store()
    room, _ = Room.create(store, Settings(), "Ann", seed=1, lobby=True)
    real = store_redis._unplayed
    arrivals: list[str] = []

    def unplayed_then_someone_arrives(meta: Any) -> bool:
        arrivals.append(room.id)
        other.presence(room.id, "B", {0: 6.0}, 60.0)  # the host connects to B right now
        return real(meta)

    monkeypatch.setattr(store_redis, "_unplayed", unplayed_then_someone_arrives)
    far = time.time() + 3600
    assert store.purge(time.time() - 3600, unplayed_before=far) == 0
    assert arrivals == [room.id]  # the race was run
    assert store.load(room.id) is not None
    monkeypatch.setattr(store_redis, "_unplayed", real)
    other.presence(room.id, "B", {0: 0.0}, 60.0)  # and leaves
    assert store.purge(time.time() - 3600, unplayed_before=far) == 1


# -- two servers, one Redis -------------------------------------------------------------


def test_a_waiting_table_whose_host_is_on_another_server_is_not_purged_by_this_one(
    redis_backend: Backend,
) -> None:
    # The host waits for friends, quietly, on A; B purges with a clock past the unplayed
    # limit. B has no connection to the room, but the host is here (on A): it stays.
    with two_servers(redis_backend) as (a, b):
        data = new_room(a, exposure=False, wait=True, open=True)
        room_id = data["room"]
        raw = redis_backend.client()
        server_b = b.app.state.server  # type: ignore[attr-defined]
        server_b.rooms.limits.unplayed_ttl = 0.0  # B's clock: long past the limit
        with connect(a, room_id) as sa:
            host = WS(sa)
            host.hello(data["token"])  # reported here before the state is sent
            assert host.last_state is not None
            assert host.last_state["room"]["seats"][0]["connected"]
            end = time.monotonic() + 4 * HEARTBEAT  # a few quiet heartbeats, purging on B
            while time.monotonic() < end:
                assert b.portal.call(server_b.rooms.purge) == 0
                assert raw.exists(f"gongzhu:web:room:{room_id}")
                poll(host, 0.1)
            assert [t["room"] for t in b.get("/api/tables").json()["tables"]] == [room_id]
            assert b.get(f"/api/rooms/{room_id}").status_code == 200  # loaded on B, unused
            assert b.portal.call(server_b.rooms.purge) == 0
        # The host has gone from A (A reports it at once; a crash would take a lease):
        # B's purge removes the abandoned table as before.
        probe = redis_backend.store()
        deadline = time.monotonic() + 10.0
        while (probe.presence(room_id, "probe", {}, 60.0) or {}).get(0, -1.0) > 0:
            assert time.monotonic() < deadline, "the host's presence never ended"
            time.sleep(0.05)
        # A may still save the room after the host's leave (a write moves its last change
        # past B's cut-off, and a write during B's check aborts the delete): the abandoned
        # table goes at one of B's next purges.
        deadline = time.monotonic() + 10.0
        while (purged := b.portal.call(server_b.rooms.purge)) == 0:
            assert time.monotonic() < deadline, "the abandoned table was never purged"
            time.sleep(0.05)
        assert purged == 1
        assert not raw.exists(f"gongzhu:web:room:{room_id}")
        assert b.get(f"/api/rooms/{room_id}").status_code == 404
        assert probe.listed(10) == []  # off the open tables


def test_a_room_watched_only_on_another_server_is_not_purged_by_this_one(
    redis_backend: Backend,
) -> None:
    # Nobody sits at the table; a spectator watches it on A. B purges with a clock past
    # every limit: the spectator's connection keeps the room, without being a seat's player.
    with two_servers(redis_backend) as (a, b):
        data = new_room(a, exposure=False, wait=True)
        room_id = data["room"]
        raw = redis_backend.client()
        probe = redis_backend.store()
        limits_b = b.app.state.server.rooms.limits  # type: ignore[attr-defined]
        limits_b.unplayed_ttl = limits_b.room_ttl = 0.0  # B's clock: long past both
        purge_b = b.app.state.server.rooms.purge  # type: ignore[attr-defined]
        with connect(a, room_id) as sa:
            spectator = WS(sa)
            spectator.hello(None)
            assert spectator.last_state is not None
            assert not spectator.last_state["room"]["seats"][0]["connected"]
            end = time.monotonic() + 4 * HEARTBEAT  # a few heartbeats, purging on B
            while time.monotonic() < end:
                assert b.portal.call(purge_b) == 0
                assert raw.exists(f"gongzhu:web:room:{room_id}")
                assert probe.presence(room_id, "probe", {}, 60.0) == {}  # no seat's player
                poll(spectator, 0.1)
        # The spectator has gone: once A's last lease for them lapses, B purges the room.
        deadline = time.monotonic() + 10.0
        while (purged := b.portal.call(purge_b)) == 0:
            assert time.monotonic() < deadline, "the unwatched room was never purged"
            time.sleep(0.05)
        assert purged == 1
        assert not raw.exists(f"gongzhu:web:room:{room_id}")


def test_a_move_on_one_server_is_pushed_to_a_player_on_the_other(redis_backend: Backend) -> None:
    with two_servers(redis_backend) as (a, b):
        data = new_room(a, exposure=False)
        with connect(a, data["room"]) as sa, connect(b, data["room"]) as sb:
            ann, bob = WS(sa), WS(sb)
            ann.hello(data["token"])
            bob.hello(None)
            bob.send({"type": "sit", "seat": 2, "name": "Bob"})
            assert bob.until(lambda m: m["type"] == "welcome")["seat"] == 2
            # Ann (server A) sees Bob (server B) arrive, without acting.
            wait_state(ann, lambda m: m["room"]["seats"][2]["name"] == "Bob")
            # Both play until it is Ann's turn, then Ann plays on A; Bob, on B, must see
            # her card while sending nothing.
            run_until(
                [(ann, None), (bob, 2)],
                lambda: (
                    ann.last_state is not None
                    and ann.last_state["view"]["to_act"] == 0
                    and not played_by(ann.last_state, 0)
                ),
            )
            sent = len(bob.frames)
            assert respond(ann, 0, ann.last_state)
            seen = wait_state(bob, lambda m: played_by(m, 0))
            assert seen["view"]["seat"] == 2
            assert len(bob.frames) > sent
            # And the other way round: Bob's next card reaches Ann on A.
            run_until(
                [(ann, 0), (bob, None)],
                lambda: bob.last_state is not None and bob.last_state["view"]["to_act"] == 2,
            )
            before = cards_played(bob.last_state, 2)
            assert respond(bob, 2, bob.last_state)
            wait_state(ann, lambda m: cards_played(m, 2) > before)
            # The two servers hold the same room (and a spectator-free comparison of the
            # rooms each rebuilt: the same actions in the same order).
            room_a = a.app.state.server.rooms.hubs[data["room"]].room  # type: ignore[attr-defined]
            room_b = b.app.state.server.rooms.hubs[data["room"]].room  # type: ignore[attr-defined]
            end = time.monotonic() + 30.0
            while room_a.event != room_b.event or room_a.round != room_b.round:
                assert time.monotonic() < end, "the servers did not converge"
                poll(ann)
                poll(bob)
                room_a = a.app.state.server.rooms.hubs[data["room"]].room  # type: ignore[attr-defined]
                room_b = b.app.state.server.rooms.hubs[data["room"]].room  # type: ignore[attr-defined]


def test_a_seat_is_taken_over_only_when_its_player_is_gone_from_every_server(
    redis_backend: Backend,
) -> None:
    # Long enough that Ann connects before her seat counts as away on a loaded machine (a
    # seat never connected is away once the takeover time has passed since the room began).
    takeover = 1.0
    with two_servers(redis_backend, takeover=takeover, seed=5) as (a, b):
        data = new_room(a, exposure=False)
        room_id = data["room"]
        with connect(a, room_id) as s_watch:
            watch = WS(s_watch)  # a spectator on A: A has the room loaded and drives it
            watch.hello(None)
            with connect(b, room_id) as s_ann:
                ann = WS(s_ann)  # Ann, seat 0, connected to B only
                ann.hello(data["token"])
                turn = wait_state(
                    watch,
                    lambda m: m["view"]["to_act"] == 0 and m["room"]["seats"][0]["connected"],
                )
                assert not played_by(turn, 0)
                # Several takeover delays and heartbeats pass: A's computer must not play
                # for Ann (A has no connection of hers), nor may A show her as gone.
                end = time.monotonic() + 4 * takeover + 5 * HEARTBEAT
                while time.monotonic() < end:
                    message = poll(watch)
                    if message is not None and is_state(message):
                        assert not played_by(message, 0), "A's computer played Ann's seat"
                        assert message["room"]["seats"][0]["connected"]
                        assert not message["room"]["seats"][0]["autoplay"]
                    poll(ann)
                server_a = a.app.state.server  # type: ignore[attr-defined]
                room_a = server_a.rooms.hubs[room_id].room
                now = time.monotonic()
                assert room_a.connected[0] == 0
                assert room_a.here(0, now)
                assert not room_a.autoplay(0, now, takeover)
            # Ann has left B (and was never on A): A shows it, then plays for her.
            gone = wait_state(watch, lambda m: not m["room"]["seats"][0]["connected"])
            assert not played_by(gone, 0)
            taken = wait_state(watch, lambda m: played_by(m, 0))
            assert taken["room"]["seats"][0]["autoplay"]
            # Back on B: the seat is hers again, as A sees it too.
            with connect(b, room_id) as s_ann:
                WS(s_ann).hello(data["token"])
                back = wait_state(
                    watch,
                    lambda m: (
                        m["room"]["seats"][0]["connected"] and not m["room"]["seats"][0]["autoplay"]
                    ),
                )
                assert back["room"]["seats"][0]["name"] == "Ann"


def test_a_crashed_servers_players_count_as_gone_when_its_heartbeats_stop(
    redis_backend: Backend,
) -> None:
    # A server that dies without saying goodbye: its reports simply stop being renewed.
    with two_servers(redis_backend, takeover=0.2, seed=5) as (a, _b):
        data = new_room(a, exposure=False)
        room_id = data["room"]
        ghost = redis_backend.store()
        ghost.presence(room_id, "crashed", {0: 4.0}, 60.0)  # its last report: a 4 s lease
        with connect(a, room_id) as s_watch:
            watch = WS(s_watch)
            watch.hello(None)
            # Ann was on the crashed server: A shows her connected while the lease runs...
            wait_state(watch, lambda m: m["room"]["seats"][0]["connected"])
            # ... then gone, and then A's computer takes her seat over.
            gone = wait_state(watch, lambda m: not m["room"]["seats"][0]["connected"])
            assert not played_by(gone, 0)
            wait_state(watch, lambda m: played_by(m, 0) and m["room"]["seats"][0]["autoplay"])


def test_a_redis_outage_refuses_changes_and_both_servers_carry_on(redis_backend: Backend) -> None:
    with two_servers(redis_backend, seed=8) as (a, b):
        data = new_room(a, exposure=False)
        room_id = data["room"]
        with connect(a, room_id) as sa, connect(b, room_id) as sb:
            ann, bob = WS(sa), WS(sb)
            ann.hello(data["token"])
            bob.hello(None)  # a spectator on B
            run_until(
                [(ann, None), (bob, None)],
                lambda: ann.last_state is not None and ann.last_state["view"]["to_act"] == 0,
            )
            state = ann.last_state
            assert state is not None
            assert not played_by(state, 0)
            redis_backend.down()  # Redis goes away
            try:
                assert respond(ann, 0, state)
                error = ann.until(lambda m: m["type"] == "error")
                assert error["code"] == "store-busy"  # did not go through: try again
                busy = a.post("/api/rooms", json={"name": "Cy"})
                assert busy.status_code == 503
                unread = b.get("/api/rooms/notloadedhere")  # B must ask Redis: it cannot
                assert unread.status_code == 503
                assert unread.json()["message"] == "the room cannot be read now; try again"
                time.sleep(3 * HEARTBEAT)  # heartbeats and the listener meet the outage
            finally:
                redis_backend.up()  # and comes back
            for client in (a, b):
                server = client.app.state.server  # type: ignore[attr-defined]
                assert server.rooms.beater is not None
                assert not server.rooms.beater.done()
            # The move that failed was not stored: Ann plays it again, and B pushes it to
            # its spectator (B's subscription came back).
            ann.send({"type": "resync"})
            fresh = wait_state(ann, lambda m: m["view"]["to_act"] == 0)
            assert not played_by(fresh, 0)
            assert respond(ann, 0, fresh)
            wait_state(bob, lambda m: played_by(m, 0), timeout=15.0)
            assert a.get(f"/api/rooms/{room_id}").status_code == 200
            assert b.post("/api/rooms", json={"name": "Cy"}).status_code == 201
        stored = redis_backend.store().load(room_id)
        assert stored is not None
        replayed = Room(MemoryStore(), room_id, *stored)
        assert played_by({"view": replayed.view(None)}, 0)


def test_presence_helpers_keep_one_process_behaviour() -> None:
    # SQLite and memory stores share nothing: a room's presence is its own connections.
    room, _ = Room.create(MemoryStore(), Settings(), "Ann", seed=1)
    now = time.monotonic()
    assert room.elsewhere == [-math.inf] * 4
    assert not room.here(0, now)
    assert room.gone_at(0) == room.gone_since[0]
    room.connected[0] = 1
    assert room.here(0, now)
    assert not room.autoplay(0, now + 1000, 1.0)
    room.connected[0] = 0
    room.elsewhere[0] = now + 5  # another process's player
    assert room.here(0, now)
    assert not room.seat_free(0, now + 1, 1.0)
    assert room.autoplay(0, now + 6.5, 1.0)  # 1.5 s after the lease ran out
    assert not room.seat_free(0, now + 6.5, 1.0)  # a seat goes only to its token's holder


def test_a_seat_taken_while_another_server_wrote_unheard_is_retried_not_refused(
    redis_backend: Backend,
) -> None:
    # Another process changed the room (a friend connected there) and the announcement
    # has not arrived yet: the sit's write is refused by the store, and the server rebuilds
    # the room and sits the newcomer anyway, since nothing they asked for changed.
    with two_servers(redis_backend) as (a, b):
        data = new_room(a, exposure=False)
        with connect(b, data["room"]) as sb:
            bob = WS(sb)
            bob.hello(None)
            raw = redis_backend.client()
            key = f"gongzhu:web:room:{data['room']}"
            meta = json.loads(raw.get(key))
            meta["event"] += 1  # written behind B's back, with no announcement
            raw.set(key, json.dumps(meta))
            bob.send({"type": "sit", "seat": 2, "name": "Bob"})
            welcome = bob.until(lambda m: m["type"] in ("welcome", "error"))
            assert welcome["type"] == "welcome"
            assert welcome["seat"] == 2
            stored = redis_backend.store().load(data["room"])
            assert stored is not None
            assert stored[0]["names"][2] == "Bob"
            assert stored[0]["event"] > meta["event"]
