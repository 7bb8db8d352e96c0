"""The open tables: a table that waits for friends and that its host listed (``"open": true``).

The stores keep an index of the rooms whose meta says ``"listed": true`` (every store, the
Redis one against fakeredis and a real ``redis-server``); a room decides that (an open
table waiting for its host's start, with a free seat and its host at the table); ``GET
/api/tables`` reads the index and answers each table's public entry, bounded and
rate-limited. The browser's side is in tests/web/test_web_lobby.py.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from real_redis import Backend

from gongzhu.web.messages import WebError
from gongzhu.web.rooms import Room, Settings
from gongzhu.web.store import MemoryStore, SQLiteStore

TAKEOVER = 60.0


def _stores(tmp_path: Path, redis: Backend) -> list[Any]:
    """Every kind of store (the Redis one of the backend: fakeredis, then a real server)."""
    return [MemoryStore(), SQLiteStore(tmp_path / "a.sqlite3"), redis.store()]


def _ids(store: Any, limit: int = 50) -> list[str]:
    return [room_id for room_id, _ in store.listed(limit)]


def _meta(n: int, *, listed: bool = True, event: int = 1) -> dict[str, Any]:
    return {"event": event, "listed": listed, "created": 1000.0 + n, "names": [f"host{n}"]}


# -- the stores ---------------------------------------------------------------------------


def test_every_store_lists_the_listed_rooms_newest_first_and_bounded(
    tmp_path: Path, redis_backend: Backend
) -> None:
    for store in _stores(tmp_path, redis_backend):
        kind = type(store).__name__
        for n in range(6):
            assert store.create(f"room{n}", _meta(n, listed=n % 2 == 0))
        assert _ids(store) == ["room4", "room2", "room0"], kind
        assert _ids(store, 2) == ["room4", "room2"], kind
        assert store.listed(0) == [], kind
        assert store.listed(50)[0][1] == _meta(4), kind  # the meta as stored
        # Every write puts a room on the list or takes it off (room 4 deals, room 1 opens).
        store.save("room4", _meta(4, listed=False, event=2), 0, [])
        store.save("room1", _meta(1, event=2), 0, [])
        assert _ids(store) == ["room2", "room1", "room0"], kind
        # A deleted room is off the list: purged, evicted.
        assert store.purge(time.time() + 1, keep={"room0", "room1"}) == 4
        assert _ids(store) == ["room1", "room0"], kind
        assert store.evict(time.time() + 1, 1) == 1
        assert len(_ids(store)) == 1, kind
        assert store.purge(time.time() + 1) == 1
        assert _ids(store) == [], kind
        store.close()


def test_a_listed_room_needs_listed_true_and_an_unreadable_one_is_left_out(
    tmp_path: Path, redis_backend: Backend
) -> None:
    for store in _stores(tmp_path, redis_backend):
        store.create("a", {"event": 1, "listed": 1, "created": 5.0})  # not `true`
        store.create("b", {"event": 1, "listed": "yes"})
        store.create("c", {"event": 1, "created": 6.0})
        store.create("d", {"event": 1, "listed": True})  # no creation time: listed last
        store.create("e", {"event": 1, "listed": True, "created": 7.0})
        assert _ids(store) == ["e", "d"], type(store).__name__
        store.close()


def test_a_sqlite_store_made_before_tables_were_listed_opens_and_lists(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE rooms (id TEXT PRIMARY KEY, meta TEXT NOT NULL, updated REAL NOT NULL,"
            " owner TEXT NOT NULL DEFAULT '')"
        )
        db.execute(
            "CREATE TABLE log (room TEXT NOT NULL, n INTEGER NOT NULL, entry TEXT NOT NULL,"
            " PRIMARY KEY (room, n))"
        )
        db.execute("INSERT INTO rooms VALUES ('old', ?, 1.0, '')", (json.dumps(_meta(1)),))
    store = SQLiteStore(path)
    assert _ids(store) == []  # rooms stored before are not indexed until written again
    store.save("old", _meta(1, event=2), 0, [])
    store.create("new", _meta(2))
    assert _ids(store) == ["new", "old"]
    store.close()
    again = SQLiteStore(path)  # and the column is there for good
    assert _ids(again) == ["new", "old"]
    again.close()


# -- the rooms ----------------------------------------------------------------------------


def _here(room: Room) -> None:
    """The host connects (the server counts it, then stores a touch)."""
    room.connected[0] += 1
    room.touch()


def test_an_open_table_is_listed_while_it_waits_with_its_host_and_a_free_seat(
    tmp_path: Path, redis_backend: Backend
) -> None:
    for store in _stores(tmp_path, redis_backend):
        kind = type(store).__name__
        room, _ = Room.create(store, Settings(), "Ann", lobby=True, open_table=True)
        private, _ = Room.create(store, Settings(), "Bob", lobby=True)
        alone, _ = Room.create(store, Settings(), "Cy")
        assert _ids(store) == [], kind  # nobody is at any table yet
        for r in (room, private, alone):
            _here(r)
        assert _ids(store) == [room.id], kind  # only the open one: private tables never
        assert room.meta()["open"]
        assert not private.meta()["open"]
        assert room.info(time.monotonic(), TAKEOVER)["open"] is True
        # The host leaves: off the list; back: on it again.
        room.connected[0] -= 1
        room.touch()
        assert _ids(store) == [], kind
        _here(room)
        assert _ids(store) == [room.id], kind
        # The seats fill: listed while one is free.
        now = time.monotonic()
        room.sit(1, "Di", now, TAKEOVER)
        room.sit(2, "Ed", now, TAKEOVER)
        assert _ids(store) == [room.id], kind
        room.sit(3, "Flo", now, TAKEOVER)
        assert _ids(store) == [], kind
        # The host deals: off the list for good, even with a seat free again.
        other, _ = Room.create(store, Settings(), "Gus", lobby=True, open_table=True)
        _here(other)
        assert _ids(store) == [other.id], kind
        other.start(0)
        assert _ids(store) == [], kind
        loaded = Room.load(store, other.id)
        assert loaded is not None
        assert loaded.open_table
        assert not loaded.lobby
        store.close()


def test_only_a_table_that_waits_for_friends_can_be_open() -> None:
    with pytest.raises(WebError) as info:
        Room.create(MemoryStore(), Settings(), "Ann", open_table=True)
    assert info.value.code == "bad-message"
