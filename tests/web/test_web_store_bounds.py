"""The room store's bounds: a full store evicts the idle rooms, one address keeps only so
many, a store file of another user or behind a symbolic link is refused, and a full disk
is a typed error that leaves the store whole."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from real_redis import Backend

from gongzhu.web.rooms import Room, Settings
from gongzhu.web.store import (
    MemoryStore,
    SQLiteStore,
    StoreError,
    StoreFull,
    StoreUnsafe,
    owner_of,
)

SRC = str(Path(__import__("gongzhu").__file__).parents[1])


def _every_store(tmp_path: Path, redis: Backend) -> list[Any]:
    return [MemoryStore(), SQLiteStore(tmp_path / "a.sqlite3"), redis.store()]


def test_a_full_store_evicts_the_least_recently_used_idle_rooms_first(
    tmp_path: Path, redis_backend: Backend
) -> None:
    for store in _every_store(tmp_path, redis_backend):
        ids = []
        for n in range(4):
            ids.append(Room.create(store, Settings(), "Ann", seed=n, owner="x")[0].id)
            time.sleep(0.01)
        Room.load(store, ids[0]).touch()  # type: ignore[union-attr]  # used again: newest
        cut = time.time() + 1
        assert store.evict(cut, 2, keep={ids[1]}) == 2
        assert store.count() == 2
        assert store.count("x") == 2
        assert {r for r in ids if store.load(r) is not None} == {ids[0], ids[1]}
        assert store.evict(0.0, 5) == 0  # nothing idle before the epoch
        store.close()


def test_one_address_keeps_only_so_many_rooms(tmp_path: Path, redis_backend: Backend) -> None:
    assert owner_of("2001:db8:7:1::1") == owner_of("2001:db8:7:2::1")  # one /48
    assert owner_of("2001:db8:7:1::1") != owner_of("2001:db8:8:1::1")
    for store in _every_store(tmp_path, redis_backend):
        a, b = owner_of("192.0.2.1"), owner_of("192.0.2.2")
        for n in range(3):
            Room.create(store, Settings(), "Ann", seed=n, owner=a)
        Room.create(store, Settings(), "Bob", seed=9, owner=b)
        assert (store.count(a), store.count(b), store.count()) == (3, 1, 4)
        assert store.purge(time.time() + 1) == 4
        assert (store.count(a), store.count(b), store.count()) == (0, 0, 0)
        store.close()


def test_the_server_refuses_a_room_past_an_addresss_share_and_evicts_when_full() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from gongzhu.web import Limits, create_app

    store = MemoryStore()
    limits = Limits(rooms_per_owner=3, max_rooms=4, idle_ttl=0.0, unplayed_per_address=100)
    with TestClient(create_app(store, limits=limits)) as client:
        made = [client.post("/api/rooms", json={"name": "Ann"}) for _ in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 429]
        # Another address fills the store; the next creation evicts the idle rooms
        # (idle_ttl 0: all of them) instead of refusing.
        other = TestClient(client.app, client=("198.51.100.7", 5000))
        assert other.post("/api/rooms", json={"name": "Cy"}).status_code == 201
        assert store.count() == 4
        late = TestClient(client.app, client=("203.0.113.9", 5000))
        assert late.post("/api/rooms", json={"name": "Di"}).status_code == 201
        assert store.count() <= 4


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="POSIX only")
def test_a_store_behind_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    real = tmp_path / "real.sqlite3"
    SQLiteStore(real).close()
    link = tmp_path / "link.sqlite3"
    link.symlink_to(real)
    with pytest.raises(StoreUnsafe, match="symbolic link"):
        SQLiteStore(link)
    # A lock file planted as a link (to a file the server would truncate) is refused too.
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / "s.sqlite3.lock").symlink_to(victim)
    with pytest.raises(StoreUnsafe):
        SQLiteStore(tmp_path / "s.sqlite3")
    assert victim.read_text() == "keep me"


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="needs root to make a file of another user",
)
def test_a_store_of_another_user_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "theirs.sqlite3"
    SQLiteStore(path).close()
    os.chown(path, 12345, 12345)
    with pytest.raises(StoreUnsafe, match="another user"):
        SQLiteStore(path)
    lock_dir = tmp_path / "d"
    lock_dir.mkdir()
    SQLiteStore(lock_dir / "s.sqlite3").close()
    (lock_dir / "s.sqlite3.lock").touch()
    os.chown(lock_dir / "s.sqlite3.lock", 12345, 12345)
    with pytest.raises(StoreUnsafe):
        SQLiteStore(lock_dir / "s.sqlite3")


_FILL = r"""
import json, sys
from gongzhu.web.rooms import Room, Settings
from gongzhu.web.store import SQLiteStore, StoreError
store = SQLiteStore(sys.argv[1])
stored = {}
try:
    for n in range(10_000):
        room, _ = Room.create(store, Settings(), "Ann", seed=n)
        stored[room.id] = 0
        for _ in range(8):
            seat = room.waiting_seats()[0]
            room.apply(Room.decide(room.round, seat, room.strategy(seat)))
            stored[room.id] = room.log_length
except StoreError as exc:
    print(json.dumps({"type": type(exc).__name__, "message": str(exc), "stored": stored}))
"""


@pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs prlimit (util-linux)")
def test_a_full_disk_is_a_typed_error_and_the_store_stays_whole(tmp_path: Path) -> None:
    path = tmp_path / "full.sqlite3"
    done = subprocess.run(
        ["prlimit", "--fsize=1000000", sys.executable, "-c", _FILL, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": SRC},
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["type"] == "StoreFull"
    assert "disk under the room store is full" in report["message"]
    assert len(report["stored"]) >= 2
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    store = SQLiteStore(path)
    for room_id, length in report["stored"].items():
        room = Room.load(store, room_id)
        assert room is not None
        assert room.log_length == length  # every write acknowledged is there, no more
    store.close()
    assert issubclass(StoreFull, StoreError)


def test_a_store_made_before_owners_were_counted_opens_and_counts(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE rooms (id TEXT PRIMARY KEY, meta TEXT NOT NULL, updated REAL)")
        db.execute(
            "CREATE TABLE log (room TEXT NOT NULL, n INTEGER NOT NULL, entry TEXT NOT NULL,"
            " PRIMARY KEY (room, n))"
        )
    store = SQLiteStore(path)
    Room.create(store, Settings(), "Ann", seed=1, owner="x")
    assert (store.count(), store.count("x"), store.count("y")) == (1, 1, 0)
    store.close()
