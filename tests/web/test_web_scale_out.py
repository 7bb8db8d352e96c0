"""Two ``gongzhu serve`` processes on one real Redis: friends on either play one table,
and a process killed mid-deal (SIGKILL) loses nothing.

A host on server A and a friend on server B play a deal with WebSocket clients
(the ``websockets`` library, not a browser) and see the same table; A is
killed with SIGKILL mid-deal; the host reconnects through B with the seat's
token and finishes the deal; the record B publishes is whole. Everything
listens on 127.0.0.1, every wait has a deadline.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("redis")
pytest.importorskip("websockets.sync.client")

from real_redis import RealRedis, free_port
from websockets.sync.client import connect

from gongzhu import record

pytestmark = pytest.mark.slow
SRC = str(Path(__import__("gongzhu").__file__).parents[1])


def serve(redis_url: str, port: int, home: Path) -> subprocess.Popen[bytes]:
    """``gongzhu serve`` on 127.0.0.1:``port`` with the rooms in Redis; waits until it answers."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gongzhu",
            "serve",
            "--port",
            str(port),
            "--store",
            redis_url,
            "--bot-delay",
            "0.02",
        ],
        env={**os.environ, "PYTHONPATH": SRC, "HOME": str(home), "XDG_DATA_HOME": str(home)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60.0
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rooms/none", timeout=2):
                pass
        except urllib.error.HTTPError:
            return process  # a 404: it answers
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                err = process.stderr.read().decode() if process.stderr else ""
                raise RuntimeError(f"gongzhu serve did not start: {err}") from None
            time.sleep(0.1)


class Player:
    """One WebSocket client of a room: JSON in and out, the last state kept."""

    def __init__(self, port: int, room: str, browser: str) -> None:
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(
            connect(
                f"ws://127.0.0.1:{port}/ws/{room}",
                additional_headers={"Cookie": f"gongzhu_browser={browser}"},
                open_timeout=10,
            )
        )
        self.state: dict[str, Any] | None = None
        self.acted = -1

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, timeout: float) -> dict[str, Any] | None:
        try:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        except TimeoutError:
            return None
        if message["type"] == "state":
            self.state = message
        return message

    def until(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20.0
    ) -> dict[str, Any]:
        end = time.monotonic() + timeout
        others: list[str] = []
        while time.monotonic() < end:
            message = self.recv(0.2)
            if message is not None and pred(message):
                return message
            if message is not None and message["type"] != "state":
                others.append(json.dumps(message)[:300])
        raise TimeoutError(f"the message did not come; meanwhile: {others[-5:]}")

    def move(self, seat: int) -> None:
        """Make seat's move if the last state asks it for one (decline exposure; the first
        legal card)."""
        state = self.state
        if state is None or state["event"] <= self.acted:
            return
        view = state["view"]
        if state["exposure_options"]:
            action: dict[str, Any] = {"type": "expose", "cards": []}
        elif view["phase"] == "play" and view["to_act"] == seat:
            action = {"type": "play", "card": view["legal_plays"][0]}
        else:
            return
        self.acted = state["event"]
        self.send({"type": "action", "event": state["event"], "action": action})

    def close(self) -> None:
        self.stack.close()


def tricks_done(state: dict[str, Any] | None) -> int:
    return 0 if state is None else len(state["view"]["tricks"])


def cards_played(state: dict[str, Any]) -> int:
    view = state["view"]
    current = view.get("current_trick") or {}
    return sum(len(t["cards"]) for t in view["tricks"]) + len(current.get("cards") or [])


def play(players: list[tuple[Player, int]], done: Callable[[], bool], timeout: float) -> None:
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, "the table did not get there in time"
        for player, seat in players:
            player.recv(0.05)
            player.move(seat)


@pytest.fixture
def two_processes(real_redis: RealRedis, tmp_path: Path) -> Iterator[list[Any]]:
    real_redis.flush()
    ports = [free_port(), free_port()]
    processes = [serve(real_redis.url, port, tmp_path) for port in ports]
    try:
        yield [*zip(ports, processes, strict=True)]
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)


def test_friends_on_two_processes_share_a_table_and_survive_one_killed_mid_deal(
    two_processes: list[Any],
) -> None:
    (port_a, server_a), (port_b, _server_b) = two_processes
    body = json.dumps({"name": "Ann", "exposure": True, "level": "easy"}).encode()
    created = urllib.request.urlopen(
        urllib.request.Request(
            f"http://127.0.0.1:{port_a}/api/rooms",
            data=body,
            headers={"Content-Type": "application/json"},
        ),
        timeout=10,
    )
    data = json.loads(created.read())
    room, token = data["room"], data["token"]
    host = Player(port_a, room, secrets.token_hex(8))
    friend = Player(port_b, room, secrets.token_hex(8))
    try:
        host.send({"type": "hello", "token": token, "name": None})
        assert host.until(lambda m: m["type"] == "welcome")["seat"] == 0
        friend.send({"type": "hello", "token": None, "name": None})
        friend.until(lambda m: m["type"] == "welcome")
        friend.send({"type": "sit", "seat": 2, "name": "Bob"})
        assert friend.until(lambda m: m["type"] == "welcome")["seat"] == 2
        # Both play until five tricks are done, each on its own process.
        play([(host, 0), (friend, 2)], lambda: tricks_done(host.state) >= 5, 60.0)
        # The same table on both sides: what is public is equal at the same position (the
        # cards played; each seat's event counter moves only with what that seat may see,
        # so a sealed exposure can set the two counters apart).
        seen = host.state
        assert seen is not None
        here = cards_played(seen)
        same = friend.until(lambda m: m["type"] == "state" and cards_played(m) >= here)
        if cards_played(same) == here:
            for key in ("tricks", "current_trick", "captured_points", "exposures"):
                assert same["view"][key] == seen["view"][key], key
        assert same["room"]["seats"][0]["name"] == "Ann"
        assert seen["room"]["seats"][2]["name"] == "Bob"
        # Server A dies mid-deal, without a word.
        assert host.state is not None
        assert host.state["last_score"] is None
        server_a.send_signal(signal.SIGKILL)
        server_a.wait(10)
        host.close()
        # The host comes back through B with the seat's token, and both finish the deal.
        host = Player(port_b, room, secrets.token_hex(8))
        host.send({"type": "hello", "token": token, "name": None})
        assert host.until(lambda m: m["type"] == "welcome")["seat"] == 0
        assert tricks_done(host.until(lambda m: m["type"] == "state")) >= 5
        play(
            [(host, 0), (friend, 2)],
            lambda: host.state is not None and host.state["last_score"] is not None,
            90.0,
        )
    finally:
        host.close()
        friend.close()
    with urllib.request.urlopen(f"http://127.0.0.1:{port_b}/api/rooms/{room}/record") as got:
        rec = record.loads(got.read().decode())
    assert len(rec.rounds) == 1
    assert rec.rounds[0].is_over
    assert sum(len(t.cards) for t in rec.rounds[0].tricks) == 52
