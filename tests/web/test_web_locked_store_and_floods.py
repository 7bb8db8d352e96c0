"""Issue 27: the web table under a locked store, hostile clients and a flood.

One test (or a few) per item of the issue, each at the level where it can
fail: the store, the room, the app in-process (Starlette's test client), or
uvicorn on a loopback port with raw sockets. Every loop is bounded in count
and time; every server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_web_server import CREATE, WS, connect, new_room, respond

from gongzhu.web import Limits, create_app
from gongzhu.web.app import SECURITY_HEADERS
from gongzhu.web.rooms import MAX_NUMBER, Room, Settings
from gongzhu.web.store import MemoryStore, SQLiteStore, StoreError, StoreInUse

SRC = str(Path(__import__("gongzhu").__file__).parents[1])


def wait_for(pred: Any, timeout: float = 10.0, step: float = 0.02) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return bool(pred())


def my_turn(ws: WS, seat: int = 0, timeout: float = 30.0) -> dict[str, Any]:
    """Read states until seat has a move to make; that state."""
    end = time.monotonic() + timeout
    state = ws.last_state
    while True:
        if state is not None and (
            state["exposure_options"]
            or (state["view"]["phase"] == "play" and state["view"]["to_act"] == seat)
        ):
            return state
        if time.monotonic() > end:
            raise TimeoutError("no move for the seat")
        m = ws.recv(max(end - time.monotonic(), 0.01))
        state = m if m["type"] == "state" else None


def log_of(store: Any, room_id: str) -> list[Any]:
    found = store.load(room_id)
    assert found is not None
    return list(found[1])


# -- 1. a store that fails: nothing lost, nothing half-changed -----------------------------


class FlakySQLite(SQLiteStore):
    """An SQLite store whose ``fail``-th save (counting from 1) meets "database is locked"."""

    def __init__(self, path: Any, fail: int) -> None:
        super().__init__(path)
        self.fail, self.saves = fail, 0

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self.saves += 1
        if self.saves == self.fail:
            raise sqlite3.OperationalError("database is locked")
        with super()._transaction() as db:
            yield db


def test_item_1_the_store_translates_every_sqlite_error(tmp_path: Path) -> None:
    store = FlakySQLite(tmp_path / "r.sqlite3", fail=1)
    room, _ = Room.create(store, Settings(exposure=False), "Ann", seed=5)
    with pytest.raises(StoreError, match="database is locked"):
        room.touch()  # never a raw sqlite3.OperationalError
    assert room.event == 1  # and the room did not change


@pytest.mark.parametrize("nth", [1, 3, 5])
def test_item_1_a_write_failing_on_the_nth_save_loses_no_move_and_may_be_retried(
    tmp_path: Path, nth: int
) -> None:
    # The player's nth move meets "database is locked": refused (store-busy), the room
    # unchanged, and the retry lands. Then a computer's write fails: it tries again.
    path = tmp_path / "rooms.sqlite3"
    store = FlakySQLite(path, fail=10**9)
    with TestClient(create_app(store, bot_delay=0, seed=7)) as client:
        data = new_room(client, exposure=False)
        with connect(client, data["room"]) as s0:
            ws = WS(s0)
            ws.hello(data["token"])
            for move in range(1, nth + 3):
                state = my_turn(ws)
                before = state["event"]
                if move == nth:
                    store.fail = store.saves + 1  # this move's write
                elif move == nth + 1:
                    store.fail = store.saves + 2  # the next computer's write
                assert respond(ws, 0, state)
                m = ws.until(lambda m: m["type"] in ("error", "state"))
                if move != nth:
                    assert m["type"] == "state"
                    continue
                assert (m["type"], m["code"]) == ("error", "store-busy"), m
                assert "try again" in m["message"]
                assert m["event"] == before  # the room did not move
                ws.send({"type": "resync"})
                again = ws.state()
                assert again["event"] == before
                assert again["view"] == state["view"]  # the same hand, the same trick
                assert respond(ws, 0, again)  # the retry goes through
                ws.until(lambda m, b=before: m["type"] == "state" and m["event"] > b)
            my_turn(ws)  # the computer whose write failed has played since
            assert store.saves > store.fail
    # The store's log replays, with no gap: each entry's event after the last one's.
    fresh = SQLiteStore(path)
    room = Room.load(fresh, data["room"])
    assert room is not None
    events = [e["e"] for e in log_of(fresh, data["room"])]
    assert events == sorted(events)
    assert len(set(events)) == len(events)
    assert sum(1 for a in room.round.history if getattr(a, "seat", None) == 0) >= nth + 2
    fresh.close()


_HOLDER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()  # until the test says so (or closes the pipe)
db.execute("ROLLBACK")
"""


def test_item_1_and_4_a_second_process_holding_the_file_refuses_the_move_not_the_server(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rooms.sqlite3"
    store = SQLiteStore(path, busy_timeout=0.3)
    limits = Limits(store_timeout=1.0)
    with TestClient(create_app(store, bot_delay=0, seed=9, limits=limits)) as client:
        data = new_room(client, exposure=False)
        with connect(client, data["room"]) as s0:
            ws = WS(s0)
            ws.hello(data["token"])
            state = my_turn(ws)
            holder = subprocess.Popen(
                [sys.executable, "-c", _HOLDER, str(path)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            try:
                assert holder.stdout is not None
                assert holder.stdout.readline().strip() == "locked"
                started = time.monotonic()
                assert respond(ws, 0, state)
                error = ws.until(lambda m: m["type"] == "error", timeout=10)
                assert error["code"] == "store-busy"
                assert time.monotonic() - started < 5  # a clear answer, not a hang
                # Meanwhile the event loop serves everything else at once (item 4).
                t0 = time.monotonic()
                assert client.get("/cards/QS.svg").status_code == 200
                assert client.get(f"/api/rooms/{data['room']}").status_code == 200
                assert time.monotonic() - t0 < 1.0
            finally:
                assert holder.stdin is not None
                holder.stdin.close()
                holder.wait(timeout=10)
            ws.send({"type": "resync"})
            again = ws.state()
            assert again["event"] == state["event"]
            assert respond(ws, 0, again)  # the lock is gone: the move goes through
            moved = ws.until(lambda m: m["type"] == "state" and m["event"] > state["event"])
            assert moved["event"] > state["event"]
    fresh = SQLiteStore(path)
    assert Room.load(fresh, data["room"]) is not None  # it replays after a restart
    fresh.close()


# -- 2 and 17. chosen numbers are shown; random ones are 128 bits and hidden ---------------


def test_item_2_a_chosen_number_is_shown_to_everyone_who_opens_the_room() -> None:
    with TestClient(create_app(bot_delay=0)) as client:
        data = new_room(client, seed=4242)
        info = client.get(f"/api/rooms/{data['room']}").json()
        assert (info["seed"], info["seeded"]) == ("4242", True)
        with connect(client, data["room"]) as s1:
            watcher = WS(s1)
            welcome = watcher.hello(None)
            assert welcome["room"]["seed"] == "4242"  # a friend opening the link sees it
            assert watcher.last_state is not None
            assert watcher.last_state["room"]["seed"] == "4242"


def test_item_2_and_17_an_unchosen_number_is_15_random_digits_seen_by_nobody() -> None:
    # At most 15 digits, so that typed back at the start it deals the same game (issue 36).
    app = create_app(bot_delay=0)
    with TestClient(app) as client:
        seeds = []
        for i in range(4):
            client.cookies.set("gongzhu_browser", f"b{i}")
            data = new_room(client)
            room = app.state.server.rooms.hubs[data["room"]].room
            seeds.append(room.seed)
            info = client.get(f"/api/rooms/{data['room']}").json()
            assert (info["seed"], info["seeded"]) == (None, False)
            with connect(client, data["room"]) as s0:
                ws = WS(s0)
                ws.hello(data["token"])
                for frame in ws.frames:
                    assert str(room.seed) not in frame
                    assert str(room.table.match_seed) not in frame
        assert all(0 <= s < MAX_NUMBER for s in seeds)
        assert max(s.bit_length() for s in seeds) > 40  # 4 draws all below: p < 2**-36


def test_item_2_a_random_number_is_shown_once_the_game_is_over_and_the_next_is_new() -> None:
    store = MemoryStore()
    room, _ = Room.create(store, Settings(threshold=500, exposure=False, level="easy"), "Ann")
    room.kinds[0] = "computer"  # let the computers play the whole game
    first = room.seed
    for _ in range(40):  # a game of at most 30 deals
        while room.waiting_seats():
            seat = room.waiting_seats()[0]
            assert room.info(0.0, 60.0)["seed"] is None
            room.apply(Room.decide(room.round, seat, room.strategy(seat)))
        if room.is_over:
            break
        room.next_deal(0)
    assert room.is_over
    assert room.info(0.0, 60.0)["seed"] == str(first)
    room.new_game(0)
    assert room.seed != first
    assert room.info(0.0, 60.0)["seed"] is None
    again = Room.load(store, room.id)
    assert again is not None
    assert again.round == room.round  # the new seed is stored


# -- 3. room-creation floods ---------------------------------------------------------------


def test_item_3_room_creation_is_limited_per_address_and_window() -> None:
    limits = Limits(rooms_per_address=5, rooms_per_minute=1.0, unplayed_per_address=100)
    with TestClient(create_app(bot_delay=0, seed=1, limits=limits)) as client:
        started = time.monotonic()
        codes = [client.post("/api/rooms", json=CREATE).status_code for _ in range(40)]
        assert time.monotonic() - started < 30
        assert codes.count(201) == 5
        assert set(codes[5:]) == {429}
        refused = client.post("/api/rooms", json=CREATE)
        assert refused.json()["code"] == "rate-limited"
        assert refused.headers["retry-after"] == "60"


def test_item_3_unplayed_rooms_per_address_are_bounded_and_played_ones_free_a_place() -> None:
    limits = Limits(rooms_per_address=100, unplayed_per_address=2)
    with TestClient(create_app(bot_delay=0, seed=1, limits=limits)) as client:
        first = new_room(client, exposure=False)
        new_room(client)
        assert client.post("/api/rooms", json=CREATE).status_code == 429
        with connect(client, first["room"]) as s0:
            ws = WS(s0)
            ws.hello(first["token"])
            assert respond(ws, 0, my_turn(ws))  # a move: the room is played
            ws.until(lambda m: m["type"] == "state")
        assert client.post("/api/rooms", json=CREATE).status_code == 201


def test_item_3_at_the_cap_unplayed_rooms_are_purged_and_existing_rooms_stay_served(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rooms.sqlite3"
    limits = Limits(max_rooms=3, rooms_per_address=100, unplayed_per_address=100)
    with TestClient(create_app(str(path), bot_delay=0, seed=2, limits=limits)) as client:
        rooms = [new_room(client, exposure=False) for _ in range(3)]
        with connect(client, rooms[0]["room"]) as s0:
            ws = WS(s0)
            ws.hello(rooms[0]["token"])
            assert respond(ws, 0, my_turn(ws))
            ws.until(lambda m: m["type"] == "state")
        full = client.post("/api/rooms", json=CREATE)
        assert (full.status_code, full.json()["code"]) == (503, "room-full")
        for r in rooms:  # existing rooms are served at the cap
            assert client.get(f"/api/rooms/{r['room']}").status_code == 200
    # Minutes later (here: a limit of 0 s), never-played rooms nobody is in are purged.
    limits = Limits(max_rooms=3, unplayed_ttl=0.0, rooms_per_address=100)
    with TestClient(create_app(str(path), bot_delay=0, seed=2, limits=limits)) as client:
        assert client.post("/api/rooms", json=CREATE).status_code == 201
        assert client.get(f"/api/rooms/{rooms[0]['room']}").status_code == 200  # played: kept
        assert client.get(f"/api/rooms/{rooms[1]['room']}").status_code == 404


def test_item_3_a_room_someone_is_in_is_not_purged_even_unplayed() -> None:
    limits = Limits(unplayed_ttl=0.0)
    app = create_app(bot_delay=0, seed=2, limits=limits)
    with TestClient(app) as client:
        data = new_room(client)
        with connect(client, data["room"]) as s0:
            WS(s0).hello(data["token"])
            time.sleep(0.05)
            assert client.portal.call(app.state.server.rooms.purge) == 0  # type: ignore[attr-defined]
            assert client.get(f"/api/rooms/{data['room']}").status_code == 200


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_item_3_a_waiting_table_is_kept_while_its_host_is_in_then_purged(
    kind: str, tmp_path: Path
) -> None:
    # One process (a shared store's case is in test_web_redis): the host waits for friends
    # past the unplayed limit, the table stays; once the host has left, it is purged.
    limits = Limits(unplayed_ttl=0.0)
    store = None if kind == "memory" else str(tmp_path / "rooms.sqlite3")
    app = create_app(store, bot_delay=0, seed=2, limits=limits)
    purge = app.state.server.rooms.purge  # type: ignore[attr-defined]
    with TestClient(app) as client:
        data = new_room(client, wait=True)
        with connect(client, data["room"]) as s0:
            WS(s0).hello(data["token"])
            time.sleep(0.05)
            assert client.portal.call(purge) == 0
            assert client.get(f"/api/rooms/{data['room']}").status_code == 200
        deadline = time.monotonic() + 10.0
        while client.portal.call(purge) == 0:  # the leaving is handled after the close
            assert time.monotonic() < deadline, "the abandoned table was never purged"
            time.sleep(0.05)
        assert client.get(f"/api/rooms/{data['room']}").status_code == 404


# -- 5. computers: bounded, fair, and idle when nobody is there ----------------------------


def test_item_5_a_room_nobody_is_in_is_not_played_on() -> None:
    # The player leaves at their turn; with takeover 0 a computer would play their seat at
    # once, and the other computers after it: with nobody connected, nothing moves.
    app = create_app(bot_delay=0.02, takeover=0.0, seed=3)
    store = app.state.server.store
    with TestClient(app) as client:
        data = new_room(client, exposure=False, level="easy")
        with connect(client, data["room"]) as s0:
            ws = WS(s0)
            ws.hello(data["token"])
            my_turn(ws)
        time.sleep(0.2)  # a move in flight lands
        n = len(log_of(store, data["room"]))
        time.sleep(1.0)  # 50 turns at 0.02 s if the computers went on
        assert len(log_of(store, data["room"])) == n
        with connect(client, data["room"]) as s0:  # someone comes back: it goes on
            ws = WS(s0)
            ws.hello(None)
            assert wait_for(lambda: len(log_of(store, data["room"])) > n + 3, 10)


def test_item_5_the_computers_queue_serves_the_room_that_used_least_first() -> None:
    import concurrent.futures

    from gongzhu.web.driver import Driver
    from gongzhu.web.hub import Hub

    app = create_app(bot_delay=0, seed=3)
    threads = concurrent.futures.ThreadPoolExecutor(1)  # the test's calls wait on an Event
    server = Driver(
        app.state.server.rooms,
        Limits(computer_workers=1),
        bot_delay=0,
        takeover=60,
        executor=threads,
    )
    room, _ = Room.create(MemoryStore(), Settings(), "Ann", seed=1)
    order: list[str] = []

    async def scenario() -> None:
        greedy, fair, blocker = Hub(room), Hub(room), Hub(room)
        greedy.used = [(time.monotonic(), 25.0)]  # used 25 s of the last minute
        gate = threading.Event()
        first = asyncio.create_task(server.think(blocker, gate.wait, 5))
        await asyncio.sleep(0.05)
        a = asyncio.create_task(server.think(greedy, order.append, "greedy"))
        await asyncio.sleep(0.01)
        b = asyncio.create_task(server.think(fair, order.append, "fair"))
        await asyncio.sleep(0.05)
        assert order == []  # one worker, held by the first room
        gate.set()
        await asyncio.wait_for(asyncio.gather(first, a, b), 10)

    # In a thread of its own: a test before may leave this thread's event loop set.
    runner = threading.Thread(target=asyncio.run, args=(scenario(),))
    runner.start()
    runner.join(20)
    server.close()
    assert order == ["fair", "greedy"]  # it came later but had used less


# -- 6 and 7. watchers cannot squat; one browser, one seat ---------------------------------


def test_watchers_from_one_address_have_their_own_cap_and_the_seated_player_always_gets_in() -> (
    None
):
    limits = Limits(room_watchers=16, address_watchers=3, client_connections=100)
    with TestClient(create_app(bot_delay=0, seed=4, limits=limits)) as client:
        data = new_room(client)
        with contextlib.ExitStack() as stack:
            watchers = [WS(stack.enter_context(connect(client, data["room"]))) for _ in range(3)]
            for w in watchers:
                w.hello(None)
            extra = WS(stack.enter_context(connect(client, data["room"])))
            extra.send({"type": "hello", "token": None, "name": None})
            assert extra.until(lambda m: m["type"] == "error")["code"] == "room-full"
            assert extra.closed() == 1013
            host = WS(stack.enter_context(connect(client, data["room"])))
            assert host.hello(data["token"])["seat"] == 0  # the squatters do not lock it out


def test_item_7_one_browser_holds_one_seat_per_room() -> None:
    with TestClient(create_app(bot_delay=0, seed=4)) as client:
        page = client.get("/")
        cookie = page.headers["set-cookie"]
        assert "gongzhu_browser=" in cookie
        assert "HttpOnly" in cookie
        assert "samesite=strict" in cookie.lower()
        data = new_room(client)  # the page's cookie went with the creation: seat 0
        with connect(client, data["room"]) as s0, connect(client, data["room"]) as s1:
            WS(s0).hello(data["token"])
            tab = WS(s1)  # a second tab of the same browser, no token
            tab.hello(None)
            tab.send({"type": "sit", "seat": 1, "name": "Me again"})
            error = tab.until(lambda m: m["type"] == "error")
            assert (error["code"], error["detail"]) == ("seat-taken", {"seat": 0})
        client.cookies.set("gongzhu_browser", "another-browser")
        with connect(client, data["room"]) as s2:
            friend = WS(s2)
            friend.hello(None)
            friend.send({"type": "sit", "seat": 1, "name": "Bob"})
            assert friend.until(lambda m: m["type"] == "welcome")["seat"] == 1


# -- limits per connection (lichess's) -----------------------------------------------------


@pytest.mark.parametrize(("seated", "allowed"), [(True, 12), (False, 5)])
def test_a_connection_past_its_message_budget_is_closed_with_1008(
    seated: bool, allowed: int
) -> None:
    limits = Limits(messages=12, watcher_messages=5, window=60.0)
    with TestClient(create_app(bot_delay=0, seed=4, limits=limits)) as client:
        data = new_room(client)
        with connect(client, data["room"]) as s0:
            ws = WS(s0)
            ws.hello(data["token"] if seated else None)  # the hello is the first message
            for _ in range(allowed + 5):
                with contextlib.suppress(Exception):
                    ws.send({"type": "resync"})
            got: list[dict[str, Any]] = []

            def read_until_closed() -> None:
                for _ in range(100):
                    got.append(ws.recv(timeout=5))

            with pytest.raises(ConnectionError, match="1008"):
                read_until_closed()
            assert [m["code"] for m in got if m["type"] == "error"] == ["rate-limited"]
            assert sum(m["type"] == "state" for m in got) >= allowed - 2


# -- 8 and 10. uvicorn: header deadline, caps below the file limit, no forwarded trust -----


@contextlib.contextmanager
def uvicorn_on_loopback(app: Any, **options: Any) -> Iterator[int]:
    import uvicorn

    from gongzhu.web.serving import config

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = uvicorn.Server(config(app, host="127.0.0.1", port=port, **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        assert wait_for(lambda: server.started, 15)
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


def test_item_8_a_request_whose_headers_never_end_is_closed(tmp_path: Path) -> None:
    app = create_app(bot_delay=0)
    with uvicorn_on_loopback(app, header_timeout=0.5, keep_alive=1) as port:
        slow = socket.create_connection(("127.0.0.1", port), timeout=5)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started = time.monotonic()
        closed = False
        for _ in range(40):  # one header line every 0.1 s: never the blank line
            try:
                slow.sendall(b"X-Slow: 1\r\n")
                slow.settimeout(0.1)
                if slow.recv(1024) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:
                closed = True
                break
        assert closed
        assert time.monotonic() - started < 3
        slow.close()
        silent = socket.create_connection(("127.0.0.1", port), timeout=5)  # sends nothing
        silent.settimeout(3)
        assert silent.recv(10) == b""
        silent.close()
        # A whole request is served as ever.
        ok = socket.create_connection(("127.0.0.1", port), timeout=5)
        ok.sendall(b"GET /cards/QS.svg HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        reply = b""
        with contextlib.suppress(socket.timeout):
            while chunk := ok.recv(65536):
                reply += chunk
        assert reply.startswith(b"HTTP/1.1 200")
        ok.close()


def test_item_8_connection_caps_stay_below_the_file_limit() -> None:
    from gongzhu.web.serving import caps, file_limit

    limit = file_limit()
    http, ws = caps(10**6, 10**6)
    if limit is not None:
        assert http < limit
        assert ws < http
    assert caps(100, 50) == (100, 50) or (limit is not None and limit < 200)


def test_item_10_forwarded_headers_are_believed_only_when_told() -> None:
    from gongzhu.web.serving import config

    app = create_app(bot_delay=0)
    assert config(app, host="127.0.0.1", port=1).proxy_headers is False
    told = config(app, host="127.0.0.1", port=1, forwarded_allow_ips="10.0.0.1")
    assert told.proxy_headers is True
    assert told.forwarded_allow_ips == "10.0.0.1"
    limits = Limits(rooms_per_address=1)
    with uvicorn_on_loopback(create_app(bot_delay=0, limits=limits)) as port:
        import httpx

        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            codes = [
                http.post(
                    "/api/rooms", json=CREATE, headers={"X-Forwarded-For": f"10.0.0.{i}"}
                ).status_code
                for i in range(1, 4)
            ]
    assert codes == [201, 429, 429]  # one address, whatever the header claims


# -- 9. one server per SQLite file ---------------------------------------------------------


def test_item_9_a_second_server_on_one_file_is_refused_naming_the_first(tmp_path: Path) -> None:
    path = tmp_path / "rooms.sqlite3"
    first = create_app(str(path), bot_delay=0)
    with pytest.raises(StoreInUse, match=rf"process {os.getpid()}"):
        create_app(str(path), bot_delay=0)
    out = subprocess.run(
        [sys.executable, "-m", "gongzhu", "serve", "--store", str(path), "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": SRC},
    )
    assert out.returncode == 1
    assert f"in use by process {os.getpid()}" in out.stderr
    assert "Traceback" not in out.stderr
    first.state.server.store.close()
    second = create_app(str(path), bot_delay=0)  # the first one has gone: it may start
    second.state.server.store.close()


# -- 11 and 12. Origin and Host ------------------------------------------------------------


def test_item_11_websockets_from_a_foreign_origin_are_refused() -> None:
    with TestClient(create_app(bot_delay=0, seed=1)) as client:
        data = new_room(client)
        room = data["room"]
        evil = {"origin": "http://evil.example"}
        with (
            pytest.raises(WebSocketDisconnect) as info,
            client.websocket_connect(f"/ws/{room}", headers=evil),
        ):
            pass
        assert info.value.code == 4403
        with client.websocket_connect(f"/ws/{room}", headers={"origin": "http://testserver"}) as s:
            WS(s).hello(None)
        with client.websocket_connect(f"/ws/{room}") as s:  # no Origin: not a browser
            WS(s).hello(None)
        foreign = client.post("/api/rooms", json=CREATE, headers={"origin": "http://evil.example"})
        assert foreign.status_code == 403
    app = create_app(bot_delay=0, seed=1, origins=["https://friends.example"])
    with TestClient(app) as client:
        data = new_room(client)
        origin = {"origin": "https://friends.example"}
        with client.websocket_connect(f"/ws/{data['room']}", headers=origin) as s:
            WS(s).hello(None)


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("game.example", 200),
        ("game.example:8000", 200),
        ("localhost:8000", 200),
        ("127.0.0.1:8000", 200),
        ("[::1]:8000", 200),
        ("evil.example", 400),
        ("game.example.evil.example", 400),
    ],
)
def test_item_12_only_the_configured_host_names_are_answered(host: str, status: int) -> None:
    app = create_app(bot_delay=0, hosts=["game.example"])
    with TestClient(app) as client:
        response = client.get("/", headers={"host": host})
        assert response.status_code == status
        assert response.headers["x-content-type-options"] == "nosniff"


# -- 13. the store file is its owner's -----------------------------------------------------


def test_item_13_the_store_file_and_its_directory_are_private(tmp_path: Path) -> None:
    path = tmp_path / "new" / "dir" / "rooms.sqlite3"
    store = SQLiteStore(path)
    Room.create(store, Settings(), "Ann", seed=1)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    for extra in path.parent.iterdir():  # the WAL and shared-memory files too
        assert stat.S_IMODE(extra.stat().st_mode) & 0o077 == 0, extra.name
    store.close()
    loose = tmp_path / "loose.sqlite3"
    loose.touch(mode=0o644)
    loose.chmod(0o644)
    SQLiteStore(loose).close()
    assert stat.S_IMODE(loose.stat().st_mode) == 0o600


# -- 14. the same security headers everywhere ----------------------------------------------


def test_item_14_every_response_carries_the_security_headers() -> None:
    with TestClient(create_app(bot_delay=0, seed=1)) as client:
        data = new_room(client)
        responses = [
            client.get("/"),
            client.get(f"/t/{data['room']}"),
            client.get("/cards/QS.svg"),
            client.get("/cards/back.svg"),
            client.get("/static/app.js"),
            client.get("/static/nosuch.js"),
            client.get("/nosuch"),
            client.get("/api/rooms/nosuchroom"),
            client.get(f"/api/rooms/{data['room']}"),
            client.post("/api/rooms", content="x", headers={"content-type": "text/plain"}),
            client.delete("/api/rooms"),
        ]
        for response in responses:
            for name, value in SECURITY_HEADERS.items():
                assert response.headers.get(name) == value, (response.url, name)


# -- 15. no seat token in a cookie ---------------------------------------------------------


def test_item_15_the_browser_code_keeps_seat_tokens_out_of_cookies() -> None:
    from importlib import resources

    static = resources.files("gongzhu.web") / "static"
    scripts = [p for p in static.iterdir() if p.name.endswith(".js")]
    for sub in static.iterdir():
        if sub.is_dir():
            scripts += [p for p in sub.iterdir() if p.name.endswith(".js")]
    assert scripts
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        for line in re.findall(r"document\.cookie\s*=[^;\n]*[^\n]*", text):
            assert "max-age=0" in line, f"{script.name} writes a cookie: {line}"


# -- 16. exposure decisions tell nothing about hidden hands --------------------------------


def _two_human_room(holder_has_card: bool) -> Room:
    """A room where seats 0 and 2 are human; seat 2 holds an exposable card or not."""
    for seed in range(200):
        room, _ = Room.create(MemoryStore(), Settings(), "Ann", seed=seed)
        room.sit(2, "Bob", 0.0, 60.0)
        holds = bool(room.exposure_options(2))
        if holds == holder_has_card and room.exposure_options(0):
            return room
    raise AssertionError("no such seed in 200")


@pytest.mark.parametrize("has_card", [False, True])
def test_item_16_an_empty_handed_human_is_declined_only_after_the_random_pause(
    has_card: bool,
) -> None:
    room = _two_human_room(has_card)
    now = time.monotonic()
    room.connected[0] = room.connected[2] = 1
    later = [now + 2.0] * 4
    seat, wait = room.next_computer(now, 60.0, later)
    # Computers decide at once; seat 2 is never decided for before its pause, holder or not.
    assert seat in (1, 3)
    for s in (1, 3):
        room.apply(Room.decide(room.round, s, room.strategy(s)))
    seat, wait = room.next_computer(now, 60.0, later)
    assert seat is None
    if has_card:
        assert wait is None  # the player decides
    else:
        assert wait == pytest.approx(2.0, abs=0.01)  # the same pause a holder may take
    seat, _ = room.next_computer(now + 2.1, 60.0, later)
    assert seat == (None if has_card else 2)  # after the pause: declined, if nothing to expose


def test_item_16_a_sealed_decision_is_sent_to_its_maker_only() -> None:
    limits = Limits(exposure_pause=(30.0, 30.0))  # nobody is declined for in this test
    app = create_app(bot_delay=0, limits=limits)
    server = app.state.server
    with TestClient(app) as client:
        for seed in range(200):
            data = client.post("/api/rooms", json={**CREATE, "seed": seed}).json()
            room = server.rooms.hubs[data["room"]].room
            if not (room.exposure_options(0) and room.exposure_options(2)):
                continue
            token2 = room.sit(2, "Bob", time.monotonic(), 60.0)  # before anyone connects
            with connect(client, data["room"]) as s0, connect(client, data["room"]) as s2:
                me, friend = WS(s0), WS(s2)
                me.hello(data["token"])
                friend.hello(token2)
                mine = my_turn(me)
                theirs = my_turn(friend, 2)
                time.sleep(0.2)  # the computers' decisions (sealed too) are made
                assert respond(me, 0, mine)  # seat 0 decides; the window stays open for seat 2
                me.until(lambda m, e=mine["event"]: m["type"] == "state" and m["event"] > e)
                time.sleep(0.2)
                friend.send({"type": "resync"})
                news = []
                with contextlib.suppress(TimeoutError):
                    for _ in range(20):
                        news.append(friend.recv(timeout=0.5))
                assert [m["type"] for m in news] == ["state"]  # only the state it asked for
                again = news[0]
                assert again["view"]["exposures"] == theirs["view"]["exposures"]
                assert again["exposure_options"] == theirs["exposure_options"]
                return
        pytest.skip("no seed in 200 gives both humans an exposable card")


def test_item_3_an_ipv6_host_counts_as_one_client_for_its_whole_64() -> None:
    from gongzhu.web.hub import client_key

    assert client_key("2001:db8::1") == client_key("2001:db8::ffff:7") == "2001:db8::/64"
    assert client_key("2001:db8:0:1::1") != client_key("2001:db8::1")
    assert client_key("::ffff:10.0.0.1") == client_key("10.0.0.1") == "10.0.0.1"
