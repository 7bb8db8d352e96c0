"""Load the web table with scripted tables: one process, then two processes on one Redis.

Each table is one human client (a WebSocket client that plays as soon as it may:
it declines exposure, plays its first legal card, deals the next deal, starts a
new game) and three computers. Every table comes from its own loopback address
(127.0.0.10, .11, ...), as real players would, so the per-address limits apply
as they would in use. Printed per configuration:

* the human's action round trip (sending an action to the state that shows it),
  p50 and p95;
* the computers' time per card, seen from outside (from the state that asks a
  computer to play to the state that shows its card), median and p95;
* the cores each server used, its worker processes included (psutil if it is
  installed, else /proc), averaged over the run;
* the tables sustained (a table that waits more than ``--stall`` seconds for a
  state is stalled), the deals and the computers' cards played per minute.

Run (a Redis for both configurations is started on a free port)::

    python benchmarks/load.py --tables 48 --level normal
    python benchmarks/load.py --tables 8 --level hard
    python benchmarks/load.py --quick          # a smoke run, under a minute

It needs the web extra, ``websockets`` and ``redis-server`` (Debian's package).
docs/scaling.rst has the figures and the targets.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import importlib.util
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SRC = str(Path(__file__).resolve().parents[1] / "src")
# The servers run the build this interpreter has installed (the compiled one, where it is);
# the checkout's sources only where gongzhu is not installed.
SERVE_PATH = {} if importlib.util.find_spec("gongzhu") else {"PYTHONPATH": SRC}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- processes ----------------------------------------------------------------------------


@contextlib.contextmanager
def redis_server(workdir: Path) -> Iterator[str]:
    """A ``redis-server`` on a free loopback port, without persistence; its URL."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(workdir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 15
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def serve(store: str, port: int, home: Path) -> subprocess.Popen[bytes]:
    """``gongzhu serve`` (no pause before a computer's card: the load is the point)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gongzhu", "serve", "--port", str(port), "--store", store,
         "--bot-delay", "0", "--rooms-per-address", "100", "--max-connections", "2000"],
        env={**os.environ, **SERVE_PATH, "HOME": str(home), "XDG_DATA_HOME": str(home)},
        stdout=subprocess.DEVNULL,
        stderr=(home / f"serve-{port}.log").open("wb"),  # shown if it fails to start
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/rooms/none")
            conn.getresponse().read()
            return process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                stop(process)
                log = (home / f"serve-{port}.log").read_text(errors="replace")
                raise SystemExit(f"gongzhu serve did not start:\n{log}") from None
            time.sleep(0.1)


def cpu_seconds(pid: int) -> float:
    """CPU seconds used by ``pid`` and every process below it (its workers)."""
    try:
        import psutil
    except ImportError:
        return _proc_cpu_seconds(pid)
    try:
        root = psutil.Process(pid)
        total = 0.0
        for p in [root, *root.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                total += t.user + t.system
        return total
    except psutil.Error:
        return 0.0


def _proc_cpu_seconds(pid: int) -> float:
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            text = Path(f"/proc/{entry}/stat").read_text()
            fields = text[text.rindex(")") + 2 :].split()
            stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    tree, grew = {pid}, True
    while grew:
        below = {p for p, (ppid, _) in stats.items() if ppid in tree} - tree
        grew = bool(below)
        tree |= below
    return sum(stats[p][1] for p in tree if p in stats)


# -- one scripted table -------------------------------------------------------------------


class Table:
    """One human client at one table (see the module)."""

    def __init__(self, n: int, port: int, level: str, stall: float) -> None:
        self.address = f"127.0.0.{10 + n}"
        self.port = port
        self.level = level
        self.stall = stall
        self.round_trips: list[float] = []
        self.computer_cards: list[float] = []
        self.deals = 0
        self.stalled = False
        self.error: str | None = None
        self.last: list[str] = []  # the last messages, shown if the table stalls
        self.refused = 0

    def create(self) -> tuple[str, str]:
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(self.address, 0)
        )
        body = json.dumps({"name": "Load", "level": self.level, "exposure": True})
        conn.request("POST", "/api/rooms", body, {"Content-Type": "application/json"})
        response = conn.getresponse()
        data = json.loads(response.read())
        if response.status != 201:
            raise RuntimeError(f"room not created: {response.status} {data}")
        return data["room"], data["token"]

    async def run(self, until: float) -> None:
        from websockets.asyncio.client import connect

        try:
            room, token = await asyncio.to_thread(self.create)
            async with connect(
                f"ws://127.0.0.1:{self.port}/ws/{room}",
                local_addr=(self.address, 0),
                additional_headers={"Cookie": f"gongzhu_browser=load{self.address}"},
                open_timeout=30,
                max_size=2**20,
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "name": None}))
                await self._play(ws, until)
        except Exception as exc:  # reported, not raised: the other tables go on
            self.error = f"{type(exc).__name__}: {exc}"

    async def _play(self, ws: Any, until: float) -> None:
        sent_at: float | None = None
        computer_since: tuple[int, int, float] | None = None  # seat, cards played, when
        acted = -1
        while time.monotonic() < until:
            try:
                text = await asyncio.wait_for(ws.recv(), self.stall)
            except asyncio.TimeoutError:
                self.stalled = True
                self.error = f"stalled after {self.last}"
                return
            now = time.monotonic()
            msg = json.loads(text)
            self.last = [*self.last[-2:], text[:120]]
            if msg["type"] == "error":  # refused (the table moved on): ask for the table again
                self.refused += 1
                await ws.send(json.dumps({"type": "resync"}))
                continue
            if msg["type"] != "state":
                continue
            if sent_at is not None and msg["event"] > acted:
                self.round_trips.append(now - sent_at)
                sent_at = None
            view = msg["view"]
            played = len(view["tricks"]) * 4 + len(view["current_trick"]["cards"])
            if computer_since is not None and played > computer_since[1]:
                self.computer_cards.append(now - computer_since[2])
                computer_since = None
            asks_computer = view["phase"] == "play" and view["to_act"] not in (None, 0)
            if asks_computer and (computer_since is None or computer_since[1] != played):
                computer_since = (view["to_act"], played, now)
            action = self._action(msg)
            if action is not None and msg["event"] > acted:
                acted = msg["event"]
                sent_at = time.monotonic()
                await ws.send(json.dumps(action))

    def _action(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        view, event = msg["view"], msg["event"]
        if msg.get("game_over") is not None:
            self.deals += 1
            return {"type": "new_game", "event": event}
        if msg["last_score"] is not None:
            self.deals += 1
            return {"type": "next", "event": event}
        if msg["exposure_options"]:
            return {"type": "action", "event": event, "action": {"type": "expose", "cards": []}}
        if view["phase"] == "play" and view["to_act"] == 0:
            card = view["legal_plays"][0]
            return {"type": "action", "event": event, "action": {"type": "play", "card": card}}
        return None


# -- one configuration --------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_config(
    name: str, stores: list[str], tables: int, level: str, seconds: float, stall: float
) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(prefix="gongzhu-load-"))
    ports = [free_port() for _ in stores]
    servers = [serve(store, port, home) for store, port in zip(stores, ports, strict=True)]
    try:
        players = [Table(n, ports[n % len(ports)], level, stall) for n in range(tables)]
        cpu0 = [cpu_seconds(s.pid) for s in servers]
        start = time.monotonic()

        async def all_tables() -> None:
            until = time.monotonic() + seconds
            await asyncio.gather(*(p.run(until) for p in players))

        asyncio.run(all_tables())
        wall = time.monotonic() - start
        cores = [(cpu_seconds(s.pid) - c) / wall for s, c in zip(servers, cpu0, strict=True)]
    finally:
        for s in servers:
            stop(s)
        shutil.rmtree(home, ignore_errors=True)
    trips = [t for p in players for t in p.round_trips]
    cards = [t for p in players for t in p.computer_cards]
    sustained = sum(1 for p in players if not p.stalled and p.error is None)
    return {
        "config": name,
        "tables": tables,
        "level": level,
        "seconds": round(wall, 1),
        "rtt_p50_ms": round(1000 * percentile(trips, 0.5), 1),
        "rtt_p95_ms": round(1000 * percentile(trips, 0.95), 1),
        "card_median_ms": round(1000 * statistics.median(cards), 1) if cards else None,
        "card_p95_ms": round(1000 * percentile(cards, 0.95), 1),
        "cores": [round(c, 2) for c in cores],
        "sustained": sustained,
        "stalled": sum(1 for p in players if p.stalled),
        "errors": sorted({p.error for p in players if p.error})[:3],
        "refused": sum(p.refused for p in players),
        "deals_per_minute": round(sum(p.deals for p in players) * 60 / wall, 1),
        "computer_cards_per_minute": round(len(cards) * 60 / wall),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=48)
    parser.add_argument("--level", choices=("easy", "normal", "hard"), default="normal")
    parser.add_argument("--seconds", type=float, default=60.0, help="per configuration (60)")
    parser.add_argument("--stall", type=float, default=10.0, help="a table stalls past this (10)")
    parser.add_argument("--only", choices=("one", "two"), default=None)
    parser.add_argument("--quick", action="store_true", help="4 tables, 15 s each: a smoke run")
    parser.add_argument("--json", action="store_true", help="print JSON lines only")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.seconds = min(args.tables, 4), 15.0
    if not 1 <= args.tables <= 240:
        parser.error("--tables must be 1-240 (one loopback address each)")
    with tempfile.TemporaryDirectory() as tmp, redis_server(Path(tmp)) as url:
        configs = [("one process", [url]), ("two processes", [url, url])]
        for name, stores in configs:
            if args.only and not name.startswith(args.only):
                continue
            result = run_config(name, stores, args.tables, args.level, args.seconds, args.stall)
            if args.json:
                print(json.dumps(result), flush=True)
            else:
                print(
                    f"{name}: {args.tables} tables at {args.level}, {result['seconds']} s: "
                    f"action round trip p50 {result['rtt_p50_ms']} ms p95 "
                    f"{result['rtt_p95_ms']} ms; computer card median "
                    f"{result['card_median_ms']} ms p95 {result['card_p95_ms']} ms; cores "
                    f"{result['cores']}; sustained {result['sustained']}/{args.tables} "
                    f"(stalled {result['stalled']}); {result['deals_per_minute']} deals/min, "
                    f"{result['computer_cards_per_minute']} computer cards/min"
                    + (f"; errors {result['errors']}" if result["errors"] else ""),
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
