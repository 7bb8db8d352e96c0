"""A real ``redis-server`` for the tests (Debian's package), and the in-memory imitation.

:func:`redis_backend` is a fixture parametrised over ``fake`` (fakeredis) and
``real`` (a ``redis-server`` this session starts on a free loopback port with
no persistence, stopped at the end). A test takes stores and clients from the
backend, so the same test runs against both. Without ``redis-server`` the
``real`` case is skipped, saying why, unless ``GONGZHU_REQUIRE_REDIS=1`` (CI),
where it fails instead.

Tests import the fixtures by name (``from real_redis import redis_backend``).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

__all__ = ["Backend", "RealRedis", "free_port", "real_redis", "redis_backend"]

REDIS_SERVER = "redis-server"


def free_port() -> int:
    """A TCP port nobody listens on now (127.0.0.1)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _redis_server() -> str | None:
    return shutil.which(REDIS_SERVER) or (
        "/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server") else None
    )


def _missing(reason: str) -> None:
    if os.environ.get("GONGZHU_REQUIRE_REDIS") == "1":
        pytest.fail(f"GONGZHU_REQUIRE_REDIS=1 but {reason}")
    pytest.skip(reason)


class RealRedis:
    """One ``redis-server`` process on 127.0.0.1:``port`` (``--save ''``: nothing is
    written unless :meth:`down` asks for a snapshot to come back with)."""

    def __init__(self, binary: str, workdir: Path) -> None:
        self.binary = binary
        self.workdir = workdir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
                "--dbfilename",
                "snapshot.rdb",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = self.client()
        deadline = time.monotonic() + 15.0
        while True:
            try:
                if client.ping():
                    return
            except Exception:  # not listening yet
                if self.process.poll() is not None:
                    raise RuntimeError(f"redis-server exited: {self.process.returncode}") from None
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("redis-server did not answer in 15 s") from None
                time.sleep(0.05)
            finally:
                client.close()

    def client(self) -> Any:
        import redis

        return redis.Redis.from_url(self.url, socket_connect_timeout=2.0, socket_timeout=5.0)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(5.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5.0)

    def down(self) -> None:
        """Go away (an outage), keeping the data for :meth:`up` (a snapshot on disk)."""
        client = self.client()
        try:
            client.save()
        finally:
            client.close()
        self.stop()

    def up(self) -> None:
        self.start()  # the same port; the snapshot is read back

    def flush(self) -> None:
        client = self.client()
        try:
            client.flushall()
        finally:
            client.close()


@pytest.fixture(scope="session")
def real_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealRedis]:
    """A ``redis-server`` for the whole session (skipped if missing; see the module)."""
    pytest.importorskip("redis")
    binary = _redis_server()
    if binary is None:
        _missing("redis-server is not installed (Debian: apt-get install redis-server)")
    assert binary is not None
    server = RealRedis(binary, tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Backend:
    """Where a test's Redis stores live: ``fake`` (fakeredis) or ``real`` (redis-server)."""

    def __init__(self, kind: str, fake_server: Any = None, real: RealRedis | None = None):
        self.kind = kind
        self.fake_server = fake_server
        self.real = real

    def client(self) -> Any:
        """A raw client of this Redis (for checks behind the stores' backs)."""
        if self.real is not None:
            return self.real.client()
        import fakeredis

        return fakeredis.FakeRedis(server=self.fake_server)

    def store(self) -> Any:
        """One process's store: its own client of the shared Redis."""
        from gongzhu.web.store import RedisStore

        if self.real is not None:
            return RedisStore(self.real.url)
        return RedisStore(client=self.client())

    def down(self) -> None:
        """A Redis outage (:meth:`up` ends it; the rooms are kept)."""
        if self.real is not None:
            self.real.down()
        else:
            self.fake_server.connected = False

    def up(self) -> None:
        if self.real is not None:
            if self.real.process is None:
                self.real.up()
        else:
            self.fake_server.connected = True


@pytest.fixture(params=["fake", "real"])
def redis_backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    """A fresh, empty Redis of each kind in turn (see :class:`Backend`)."""
    if request.param == "fake":
        fakeredis = pytest.importorskip("fakeredis")
        pytest.importorskip("redis")
        yield Backend("fake", fake_server=fakeredis.FakeServer())
        return
    real: RealRedis = request.getfixturevalue("real_redis")
    if real.process is None:  # a test left it down
        real.up()
    real.flush()
    backend = Backend("real", real=real)
    try:
        yield backend
    finally:
        backend.up()
