"""Where rooms live: SQLite by default (the standard library), Redis for several servers.

A store keeps, per room, its facts (``meta``: seed, settings, names, seat
kinds, hashed tokens, game number, event counter) and the log of the game in
progress, one JSON entry per action (:mod:`gongzhu.web.rooms` rebuilds the
room from them). Writes are append-only within a game and check the log's
length, so a write that races another server's is refused
(:class:`~gongzhu.web.rooms.StoreError`) instead of forking the game.

* :class:`SQLiteStore` — a file (``gongzhu serve`` uses one under the user's
  data directory, :func:`default_path`), or ``":memory:"``.
* :class:`RedisStore` — ``redis://…`` (the ``redis`` extra): the rooms survive
  any one server and several processes can serve them (route each room to
  one process at a time; the length check refuses a conflicting write).
* :class:`MemoryStore` — a dict, for tests and doctests.

>>> store = open_store(":memory:")
>>> store.create("r1", {"event": 1}), store.create("r1", {"event": 2})
(True, False)
>>> store.save("r1", {"event": 3}, 0, [{"a": 1}])
>>> store.load("r1")
({'event': 3}, [{'a': 1}])
>>> store.save("r1", {"event": 4}, 0, [{"a": 2}])
Traceback (most recent call last):
...
gongzhu.web.rooms.StoreError: room r1: the log changed under this server (another process?)
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, Protocol

from gongzhu.web.rooms import StoreError

__all__ = [
    "MemoryStore",
    "RedisStore",
    "SQLiteStore",
    "Store",
    "default_path",
    "open_store",
]

_KEY: Final = "gongzhu:web"


class Store(Protocol):
    """What a room store does (every method is quick and synchronous)."""

    def create(self, room_id: str, meta: dict[str, Any]) -> bool:
        """Store a new room; False if the id is taken."""
        ...

    def load(self, room_id: str) -> tuple[dict[str, Any], list[Any]] | None:
        """The room's meta and log, or None."""
        ...

    def save(
        self,
        room_id: str,
        meta: dict[str, Any],
        start: int,
        entries: Sequence[Any],
        *,
        reset: bool = False,
    ) -> None:
        """Replace the meta and append ``entries`` at log position ``start`` (after
        clearing the log when ``reset``); :class:`StoreError` if the log is not
        ``start`` long."""
        ...

    def count(self) -> int:
        """How many rooms are stored."""
        ...

    def purge(self, before: float) -> int:
        """Delete rooms last changed before ``before`` (a ``time.time()``); how many."""
        ...

    def close(self) -> None: ...


def _conflict(room_id: str) -> StoreError:
    return StoreError(f"room {room_id}: the log changed under this server (another process?)")


class MemoryStore:
    """Rooms in a dict (lost when the process ends)."""

    def __init__(self) -> None:
        self._rooms: dict[str, tuple[str, list[str], float]] = {}

    def create(self, room_id: str, meta: dict[str, Any]) -> bool:
        if room_id in self._rooms:
            return False
        self._rooms[room_id] = (json.dumps(meta), [], time.time())
        return True

    def load(self, room_id: str) -> tuple[dict[str, Any], list[Any]] | None:
        found = self._rooms.get(room_id)
        if found is None:
            return None
        return json.loads(found[0]), [json.loads(e) for e in found[1]]

    def save(
        self,
        room_id: str,
        meta: dict[str, Any],
        start: int,
        entries: Sequence[Any],
        *,
        reset: bool = False,
    ) -> None:
        found = self._rooms.get(room_id)
        if found is None:
            raise StoreError(f"room {room_id} is not stored")
        log = [] if reset else found[1]
        if len(log) != start:
            raise _conflict(room_id)
        log = log + [json.dumps(e) for e in entries]
        self._rooms[room_id] = (json.dumps(meta), log, time.time())

    def count(self) -> int:
        return len(self._rooms)

    def purge(self, before: float) -> int:
        old = [k for k, v in self._rooms.items() if v[2] < before]
        for k in old:
            del self._rooms[k]
        return len(old)

    def close(self) -> None:
        pass


class SQLiteStore:
    """Rooms in an SQLite database (the standard library's :mod:`sqlite3`).

    One connection, guarded by a lock; each save is one transaction.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        with self._lock:
            if path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS rooms"
                " (id TEXT PRIMARY KEY, meta TEXT NOT NULL, updated REAL NOT NULL)"
            )
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS log (room TEXT NOT NULL, n INTEGER NOT NULL,"
                " entry TEXT NOT NULL, PRIMARY KEY (room, n))"
            )

    def create(self, room_id: str, meta: dict[str, Any]) -> bool:
        with self._lock:
            try:
                self._db.execute(
                    "INSERT INTO rooms (id, meta, updated) VALUES (?, ?, ?)",
                    (room_id, json.dumps(meta), time.time()),
                )
            except sqlite3.IntegrityError:
                return False
            return True

    def load(self, room_id: str) -> tuple[dict[str, Any], list[Any]] | None:
        with self._lock:
            row = self._db.execute("SELECT meta FROM rooms WHERE id = ?", (room_id,)).fetchone()
            if row is None:
                return None
            rows = self._db.execute(
                "SELECT entry FROM log WHERE room = ? ORDER BY n", (room_id,)
            ).fetchall()
        try:
            return json.loads(row[0]), [json.loads(r[0]) for r in rows]
        except ValueError as exc:
            raise StoreError(f"room {room_id}: unreadable ({exc})") from None

    def save(
        self,
        room_id: str,
        meta: dict[str, Any],
        start: int,
        entries: Sequence[Any],
        *,
        reset: bool = False,
    ) -> None:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                if reset:
                    db.execute("DELETE FROM log WHERE room = ?", (room_id,))
                (length,) = db.execute(
                    "SELECT COUNT(*) FROM log WHERE room = ?", (room_id,)
                ).fetchone()
                if length != start:
                    raise _conflict(room_id)
                changed = db.execute(
                    "UPDATE rooms SET meta = ?, updated = ? WHERE id = ?",
                    (json.dumps(meta), time.time(), room_id),
                ).rowcount
                if not changed:
                    raise StoreError(f"room {room_id} is not stored")
                db.executemany(
                    "INSERT INTO log (room, n, entry) VALUES (?, ?, ?)",
                    [(room_id, start + i, json.dumps(e)) for i, e in enumerate(entries)],
                )
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def count(self) -> int:
        with self._lock:
            (n,) = self._db.execute("SELECT COUNT(*) FROM rooms").fetchone()
        return int(n)

    def purge(self, before: float) -> int:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                rows = db.execute("SELECT id FROM rooms WHERE updated < ?", (before,))
                old = [r[0] for r in rows]
                db.executemany("DELETE FROM log WHERE room = ?", [(r,) for r in old])
                db.executemany("DELETE FROM rooms WHERE id = ?", [(r,) for r in old])
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        return len(old)

    def close(self) -> None:
        with self._lock:
            self._db.close()


class RedisStore:
    """Rooms in Redis (the ``redis`` extra): ``RedisStore(url="redis://…")`` or ``client=``.

    Keys: ``gongzhu:web:room:<id>`` (meta, JSON), ``gongzhu:web:log:<id>``
    (a list of JSON entries) and the sorted set ``gongzhu:web:rooms``
    (id → last change). A save is one MULTI/EXEC under WATCH of the log, so a
    concurrent write by another server is refused, not interleaved.
    """

    def __init__(self, url: str | None = None, *, client: Any = None) -> None:
        if client is None:
            try:
                import redis
            except ImportError as exc:
                raise StoreError(
                    "a redis:// store needs the redis extra: pip install 'gongzhu[redis]'"
                ) from exc
            client = redis.Redis.from_url(url or "redis://localhost:6379/0")
        self._r = client

    @staticmethod
    def _meta_key(room_id: str) -> str:
        return f"{_KEY}:room:{room_id}"

    @staticmethod
    def _log_key(room_id: str) -> str:
        return f"{_KEY}:log:{room_id}"

    def create(self, room_id: str, meta: dict[str, Any]) -> bool:
        if not self._r.set(self._meta_key(room_id), json.dumps(meta), nx=True):
            return False
        self._r.zadd(f"{_KEY}:rooms", {room_id: time.time()})
        return True

    def load(self, room_id: str) -> tuple[dict[str, Any], list[Any]] | None:
        raw = self._r.get(self._meta_key(room_id))
        if raw is None:
            return None
        entries = self._r.lrange(self._log_key(room_id), 0, -1)
        try:
            return json.loads(raw), [json.loads(e) for e in entries]
        except ValueError as exc:
            raise StoreError(f"room {room_id}: unreadable ({exc})") from None

    def save(
        self,
        room_id: str,
        meta: dict[str, Any],
        start: int,
        entries: Sequence[Any],
        *,
        reset: bool = False,
    ) -> None:
        from redis.exceptions import WatchError

        log_key = self._log_key(room_id)
        with self._r.pipeline() as pipe:
            try:
                pipe.watch(log_key)
                if not reset and pipe.llen(log_key) != start:
                    raise _conflict(room_id)
                if not pipe.exists(self._meta_key(room_id)):
                    raise StoreError(f"room {room_id} is not stored")
                pipe.multi()
                pipe.set(self._meta_key(room_id), json.dumps(meta))
                if reset:
                    pipe.delete(log_key)
                if entries:
                    pipe.rpush(log_key, *[json.dumps(e) for e in entries])
                pipe.zadd(f"{_KEY}:rooms", {room_id: time.time()})
                pipe.execute()
            except WatchError:
                raise _conflict(room_id) from None

    def count(self) -> int:
        return int(self._r.zcard(f"{_KEY}:rooms"))

    def purge(self, before: float) -> int:
        old = [
            r.decode() if isinstance(r, bytes) else str(r)
            for r in self._r.zrangebyscore(f"{_KEY}:rooms", "-inf", f"({before}")
        ]
        for room_id in old:
            self._r.delete(self._meta_key(room_id), self._log_key(room_id))
            self._r.zrem(f"{_KEY}:rooms", room_id)
        return len(old)

    def close(self) -> None:
        close = getattr(self._r, "close", None)
        if callable(close):
            close()


def default_path() -> Path:
    """The default SQLite file: ``rooms.sqlite3`` in the user's data directory (platformdirs)."""
    try:
        from platformdirs import user_data_dir
    except ImportError:  # the web extra brings platformdirs; without it, the home directory
        return Path.home() / ".gongzhu" / "rooms.sqlite3"
    return Path(user_data_dir("gongzhu", appauthor=False)) / "rooms.sqlite3"


def open_store(spec: str | os.PathLike[str] | Store | None = None) -> Store:
    """A store from ``--store``: ``None`` (the default file), a path, ``":memory:"``,
    ``redis://…``/``rediss://…``/``unix://…``, or a store object (returned as it is)."""
    if spec is None:
        return SQLiteStore(default_path())
    if isinstance(spec, (str, os.PathLike)):
        text = os.fspath(spec)
        if text.startswith(("redis://", "rediss://", "unix://")):
            return RedisStore(text)
        return SQLiteStore(text)
    return spec
