"""The web table's server against hostile and broken clients: issue #22 items 2-4 and 17.

The review (../shared/reviews/redteam-2026-12.md) found these holes in
``examples/server.py``; issue #22 binds ``gongzhu serve`` to the same rules.
Each test is named after its item.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from test_web_server import WS, connect, new_room, play_out_deal

from gongzhu.web import Limits, create_app


def test_item_2_a_client_that_stops_reading_is_dropped_and_the_others_are_served() -> None:
    app = create_app(bot_delay=0, seed=3, limits=Limits(send_queue=4, send_timeout=0.5))
    server = app.state.server
    with TestClient(app) as client:
        data = new_room(client)
        with connect(client, data["room"]) as s_slow, connect(client, data["room"]) as s0:
            slow = WS(s_slow)
            slow.hello(None)
            (conn,) = [c for c in server.rooms.hubs[data["room"]].conns if c.hello]

            async def never(text: str) -> None:  # a peer whose socket never drains
                await asyncio.Event().wait()

            conn.ws.send_text = never
            me = WS(s0)
            me.hello(data["token"])
            end = play_out_deal(me, 0)  # the table never waits for the slow one
            assert end["room"]["deals_played"] == 1
            assert conn not in server.rooms.hubs[data["room"]].conns  # dropped
            assert conn.close_code == 1008


def test_item_3_a_seat_that_leaves_is_announced_and_played_by_a_computer() -> None:
    with TestClient(create_app(bot_delay=0, takeover=0.2, seed=4)) as client:
        data = new_room(client, exposure=False)
        with connect(client, data["room"]) as s_friend:
            friend = WS(s_friend)
            friend.hello(None)
            friend.send({"type": "sit", "seat": 1, "name": "Bob"})
            token = friend.until(lambda m: m["type"] == "welcome")["token"]
        with connect(client, data["room"]) as s0:
            me = WS(s0)
            me.hello(data["token"])
            seats = me.last_state["room"]["seats"] if me.last_state else []
            assert seats[1]["kind"] == "human"
            assert seats[1]["connected"] is False  # the others are told
            end = play_out_deal(me, 0)  # seat 1 is played by a computer meanwhile
            assert end["room"]["seats"][1]["autoplay"] is True
            # But nobody else may take the seat of a player gone that long (issue 27,
            # item 6: a seat goes only to its token's holder) ...
            with connect(client, data["room"]) as s_new:
                new = WS(s_new)
                new.hello(None)
                new.send({"type": "sit", "seat": 1, "name": "Cid"})
                assert new.until(lambda m: m["type"] == "error")["code"] == "seat-taken"
        # ... who comes back to it.
        with connect(client, data["room"]) as s_old:
            old = WS(s_old)
            assert old.hello(token)["seat"] == 1


def test_item_3_an_over_long_message_is_refused_and_the_seat_stays() -> None:
    with TestClient(create_app(bot_delay=0, seed=4)) as client:
        data = new_room(client)
        with connect(client, data["room"]) as s0:
            me = WS(s0)
            me.hello(data["token"])
            me.send("x" * 70000)
            assert me.until(lambda m: m["type"] == "error")["code"] == "too-large"
            me.send({"type": "resync"})
            state = me.state()
            assert state["view"]["seat"] == 0
            assert state["room"]["seats"][0]["connected"] is True


def test_item_4a_a_connection_closed_before_hello_takes_no_seat_and_no_slot() -> None:
    app = create_app(bot_delay=0, seed=4)
    server = app.state.server
    with TestClient(app) as client:
        data = new_room(client)
        for _ in range(5):
            with connect(client, data["room"]):
                pass  # a port check: open, close
        deadline = time.monotonic() + 5
        while server.connections and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.connections == 0
        info = client.get(f"/api/rooms/{data['room']}").json()
        assert [s["connected"] for s in info["seats"]] == [False] * 4
        assert [s["kind"] for s in info["seats"]] == ["human", "computer", "computer", "computer"]
        with connect(client, data["room"]) as s0:  # the creator still gets the seat
            assert WS(s0).hello(data["token"])["seat"] == 0


def test_item_4b_a_deeply_nested_message_gets_an_error_reply_and_the_deal_goes_on() -> None:
    with TestClient(create_app(bot_delay=0, seed=6)) as client:
        data = new_room(client)
        with connect(client, data["room"]) as s0:
            me = WS(s0)
            me.hello(data["token"])
            for frame in ("[" * 8000, '{"a":' * 1000 + "1" + "}" * 1000):
                me.send(frame)
                error = me.until(lambda m: m["type"] == "error")
                assert error["code"] == "bad-message"
                assert "nested" in error["message"]
            assert play_out_deal(me, 0)["room"]["deals_played"] == 1


def test_item_17_a_connection_that_never_says_hello_is_closed() -> None:
    app = create_app(bot_delay=0, seed=6, limits=Limits(hello_timeout=0.2, client_connections=3))
    server = app.state.server
    with TestClient(app) as client:
        data = new_room(client)
        with connect(client, data["room"]) as idle:
            assert WS(idle).closed(timeout=5) == 1008
        assert server.connections == 0
        # Connections are bounded (in all, and per address: the test client is one address):
        # past the limit a new one is refused at once.
        with (
            connect(client, data["room"]),
            connect(client, data["room"]),
            connect(client, data["room"]),
        ):
            from starlette.websockets import WebSocketDisconnect

            with pytest.raises(WebSocketDisconnect), connect(client, data["room"]):
                pass


def test_item_17_duplicate_json_keys_are_refused() -> None:
    with TestClient(create_app(bot_delay=0, seed=6)) as client:
        data = new_room(client)
        with connect(client, data["room"]) as s0:
            me = WS(s0)
            me.hello(data["token"])
            state = me.last_state
            assert state is not None
            frame = (
                '{"type": "action", "event": EVENT, "action": {"type": "play", "seat": 1,'
                ' "seat": 0, "card": "2C"}}'
            ).replace("EVENT", str(state["event"]))
            me.send(frame)
            error = me.until(lambda m: m["type"] == "error")
            assert error["code"] == "bad-message"
            assert "duplicate" in error["message"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_item_17_gongzhu_serve_ends_without_tracebacks(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    ws_client = pytest.importorskip("websockets.sync.client")
    import httpx

    port = _free_port()
    import gongzhu

    # The gongzhu under test (the checkout's src/, or the installed one in CI).
    env = {**os.environ, "PYTHONPATH": str(Path(gongzhu.__file__).parents[1])}
    store = tmp_path / "rooms.sqlite3"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gongzhu",
            "serve",
            "--port",
            str(port),
            "--store",
            str(store),
            "--bot-delay",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                created = httpx.post(
                    f"http://127.0.0.1:{port}/api/rooms", json={"name": "Ann"}, timeout=2
                )
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the server did not start"
                assert proc.poll() is None, proc.communicate()
                time.sleep(0.2)
        data = created.json()
        url = f"ws://127.0.0.1:{port}/ws/{data['room']}"
        # A player mid-deal, a spectator that vanishes without a close, a half-open one.
        player = ws_client.connect(url)
        player.send(json.dumps({"type": "hello", "token": data["token"], "name": None}))
        assert json.loads(player.recv(timeout=10))["type"] == "welcome"
        watcher = ws_client.connect(url)
        watcher.send(json.dumps({"type": "hello", "token": None, "name": None}))
        watcher.recv(timeout=10)
        watcher.socket.close()  # gone without a closing handshake
        half = socket.create_connection(("127.0.0.1", port))
        half.sendall(b"GET /ws/x HTTP/1.1\r\nHost: x\r\n")  # never finished
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=20)
        half.close()
        player.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert "Traceback" not in err, err
    assert "Error" not in err, err
    assert f"http://127.0.0.1:{port}/" in _out
