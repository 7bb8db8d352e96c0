"""Where rooms live: SQLite by default (the standard library), Redis for several servers.

A store keeps, per room, its facts (``meta``: seed, settings, names, seat
kinds, hashed tokens, game number, event counter) and the log of the game in
progress, one JSON entry per action (:mod:`gongzhu.web.rooms` rebuilds the
room from them). Writes are append-only within a game and check the log's
length, so a write that races another server's is refused
(:class:`~gongzhu.web.store.StoreError`) instead of forking the game.

* :class:`SQLiteStore` — a file (``gongzhu serve`` uses one under the user's
  data directory, :func:`default_path`), or ``":memory:"``; for one server
  process (it announces nothing and shares no presence).
* :class:`RedisStore` — ``redis://…`` (the ``redis`` extra): the rooms survive
  any one server and several processes serve them together: every write is
  announced on a pub/sub channel (:meth:`RedisStore.listen`), and which seats
  have a connected player is shared (:meth:`RedisStore.presence`).
* :class:`MemoryStore` — a dict, for tests and doctests.

A write must also raise the room's ``event`` counter (``meta["event"]``): a
write that does not is refused, so two processes that change the same room
at once (two friends taking seats) cannot both succeed and lose one change.

>>> store = open_store(":memory:")
>>> store.create("r1", {"event": 1}), store.create("r1", {"event": 2})
(True, False)
>>> store.save("r1", {"event": 3}, 0, [{"a": 1}])
>>> store.load("r1")
({'event': 3}, [{'a': 1}])
>>> store.save("r1", {"event": 4}, 0, [{"a": 2}])
Traceback (most recent call last):
...
gongzhu.web.store.StoreConflict: room r1: the log changed under this server (another process?)
>>> store.save("r1", {"event": 3}, 1, [])  # the log fits, but event 3 is written already
Traceback (most recent call last):
...
gongzhu.web.store.StoreConflict: room r1: the log changed under this server (another process?)
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

from gongzhu.errors import GongzhuError

__all__ = [
    "MemoryStore",
    "RedisStore",
    "SQLiteStore",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoreInUse",
    "default_path",
    "open_store",
]

_KEY: Final = "gongzhu:web"
CHANNEL: Final = f"{_KEY}:changed"
"""The Redis pub/sub channel on which every write announces ``"<room-id> <event>"``."""

Changed = Callable[[str | None, int], None]
"""A listener: ``(room_id, event)`` after another write, or ``(None, 0)`` when anything may
have changed (the subscription was (re)made: announcements may have been missed)."""

_log = logging.getLogger(__name__)


class StoreError(GongzhuError, RuntimeError):
    """A stored room cannot be read back or written now (the store is locked, away or
    broken), or a write conflicts with another server's. Every failure of a store is
    raised as this (the driver's own errors never escape)."""


class StoreConflict(StoreError):
    """A write refused because the room changed in the store meanwhile (another process
    wrote first): reload the room and try again."""


class StoreInUse(StoreError):
    """Another server process already serves this store file (:meth:`SQLiteStore.claim`)."""


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

    def purge(
        self,
        before: float,
        *,
        unplayed_before: float | None = None,
        keep: Collection[str] = (),
    ) -> int:
        """Delete rooms last changed before ``before`` (a ``time.time()``), and rooms that
        never saw a move last changed before ``unplayed_before``, except those in
        ``keep`` (rooms someone is in); how many."""
        ...

    def listen(self, changed: Changed) -> Callable[[], None] | None:
        """Call ``changed`` (from another thread) after every write to the store, until
        the returned function is called; ``None`` if only this process writes to the
        store (SQLite, memory), so there is nothing to hear."""
        ...

    def presence(
        self, room_id: str, process: str, until: Mapping[int, float], keep: float
    ) -> dict[int, float] | None:
        """Share which seats have a connected player, across processes.

        ``until``: for each seat this process reports, the seconds from now until
        which its player counts as here (a heartbeat's lifetime; ``0`` when they
        have just left). Returns, per seat anyone reported, the seconds from now
        until which its player is here in some process (negative: gone that long
        ago); reports older than ``keep`` seconds are forgotten. ``None`` for a
        one-process store: presence is this process's own connections.
        """
        ...

    def close(self) -> None: ...


def _conflict(room_id: str) -> StoreError:
    return StoreConflict(f"room {room_id}: the log changed under this server (another process?)")


def _event_of(meta_text: str | bytes | None) -> int:
    try:
        event = json.loads(meta_text or "{}").get("event", 0)
    except (ValueError, AttributeError):
        return 0
    return event if isinstance(event, int) else 0


def _check_event(room_id: str, stored: str | bytes | None, meta: dict[str, Any]) -> None:
    """Refuse a write that does not raise the event counter (someone else wrote it first)."""
    if _event_of(stored) >= meta.get("event", 0):
        raise _conflict(room_id)


class _OneProcess:
    """The shared-store methods of a store only this process writes: nothing to share."""

    def listen(self, changed: Changed) -> Callable[[], None] | None:
        return None

    def presence(
        self, room_id: str, process: str, until: Mapping[int, float], keep: float
    ) -> dict[int, float] | None:
        return None


class MemoryStore(_OneProcess):
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
        _check_event(room_id, found[0], meta)
        log = [] if reset else found[1]
        if len(log) != start:
            raise _conflict(room_id)
        log = log + [json.dumps(e) for e in entries]
        self._rooms[room_id] = (json.dumps(meta), log, time.time())

    def count(self) -> int:
        return len(self._rooms)

    def purge(
        self,
        before: float,
        *,
        unplayed_before: float | None = None,
        keep: Collection[str] = (),
    ) -> int:
        old = [
            k
            for k, v in self._rooms.items()
            if v[2] < before
            or (unplayed_before is not None and v[2] < unplayed_before and _unplayed(v[0]))
        ]
        old = [k for k in old if k not in keep]
        for k in old:
            del self._rooms[k]
        return len(old)

    def close(self) -> None:
        pass


@contextlib.contextmanager
def _sqlite_errors(what: str) -> Iterator[None]:
    """Raise SQLite's own errors (``database is locked``, a full disk) as StoreError."""
    try:
        yield
    except sqlite3.Error as exc:
        raise StoreError(f"the room store cannot be used now ({what}: {exc})") from None


class SQLiteStore(_OneProcess):
    """Rooms in an SQLite database (the standard library's :mod:`sqlite3`).

    One connection, guarded by a lock; each save is one transaction, so a
    failed save (the file locked by another process past ``busy_timeout``
    seconds, a full disk) writes nothing and raises :class:`StoreError`. A new
    file is created readable by its owner only (0600, in a 0700 directory):
    it holds every room's seed. A server claims the file (:meth:`claim`) so that
    a second server on it refuses to start.
    """

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout: float = 2.0) -> None:
        path = str(path)
        if path != ":memory:":
            _private_file(Path(path))
        self.path = path
        self._lock = threading.Lock()
        self._claim: Any = None
        with _sqlite_errors("open " + path):
            self._db = sqlite3.connect(
                path, timeout=busy_timeout, check_same_thread=False, isolation_level=None
            )
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

    def claim(self) -> None:
        """Take this file for this process (an advisory lock on ``<file>.lock``, held until
        :meth:`close`); :class:`StoreInUse`, naming the other process, if a server has it."""
        if self.path == ":memory:" or self._claim is not None:
            return
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: no advisory locks to take
            return
        lock_path = self.path + ".lock"
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 200).decode("utf-8", "replace").strip() or "another process"
            os.close(fd)
            raise StoreInUse(
                f"the room store {self.path} is in use by {holder}: one server per SQLite "
                "file (stop that one, use another --store, or share a redis:// store)"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"process {os.getpid()} (gongzhu serve)".encode())
        self._claim = fd

    def create(self, room_id: str, meta: dict[str, Any]) -> bool:
        with self._lock, _sqlite_errors("create a room"):
            try:
                self._db.execute(
                    "INSERT INTO rooms (id, meta, updated) VALUES (?, ?, ?)",
                    (room_id, json.dumps(meta), time.time()),
                )
            except sqlite3.IntegrityError:
                return False
            return True

    def load(self, room_id: str) -> tuple[dict[str, Any], list[Any]] | None:
        with self._lock, _sqlite_errors(f"read room {room_id}"):
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
        with self._lock, _sqlite_errors(f"write room {room_id}"), self._transaction() as db:
            stored = db.execute("SELECT meta FROM rooms WHERE id = ?", (room_id,)).fetchone()
            if stored is None:
                raise StoreError(f"room {room_id} is not stored")
            _check_event(room_id, stored[0], meta)
            if reset:
                db.execute("DELETE FROM log WHERE room = ?", (room_id,))
            (length,) = db.execute("SELECT COUNT(*) FROM log WHERE room = ?", (room_id,)).fetchone()
            if length != start:
                raise _conflict(room_id)
            db.execute(
                "UPDATE rooms SET meta = ?, updated = ? WHERE id = ?",
                (json.dumps(meta), time.time(), room_id),
            )
            db.executemany(
                "INSERT INTO log (room, n, entry) VALUES (?, ?, ?)",
                [(room_id, start + i, json.dumps(e)) for i, e in enumerate(entries)],
            )

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT; anything raised (a refusal, ``database is locked`` at
        the start or the commit) rolls it all back."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise

    def count(self) -> int:
        with self._lock, _sqlite_errors("count the rooms"):
            (n,) = self._db.execute("SELECT COUNT(*) FROM rooms").fetchone()
        return int(n)

    def purge(
        self,
        before: float,
        *,
        unplayed_before: float | None = None,
        keep: Collection[str] = (),
    ) -> int:
        with self._lock, _sqlite_errors("purge rooms"), self._transaction() as db:
            old = [r[0] for r in db.execute("SELECT id FROM rooms WHERE updated < ?", (before,))]
            if unplayed_before is not None:
                rows = db.execute(
                    "SELECT id, meta FROM rooms WHERE updated < ? AND updated >= ?",
                    (unplayed_before, before),
                )
                old += [r[0] for r in rows if _unplayed(r[1])]
            old = [r for r in old if r not in keep]
            db.executemany("DELETE FROM log WHERE room = ?", [(r,) for r in old])
            db.executemany("DELETE FROM rooms WHERE id = ?", [(r,) for r in old])
        return len(old)

    def close(self) -> None:
        with self._lock:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            if self._claim is not None:
                os.close(self._claim)  # closing the descriptor releases the lock
                self._claim = None


def _unplayed(meta_text: str | bytes | None) -> bool:
    """A stored room that never saw a move (its meta says ``"played": false``)."""
    try:
        return json.loads(meta_text or "{}").get("played", True) is False
    except (ValueError, AttributeError):
        return False


def _private_file(path: Path) -> None:
    """Make the store's directory (0700) and file (0600) if they are new; a file another
    tool made readable to others is narrowed to its owner."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        with contextlib.suppress(OSError):
            if path.stat().st_mode & 0o077:
                path.chmod(0o600)
        return
    except OSError as exc:
        raise StoreError(f"the room store {path} cannot be created ({exc})") from None
    os.close(fd)


class RedisStore:
    """Rooms in Redis (the ``redis`` extra): ``RedisStore(url="redis://…")`` or ``client=``.

    Keys: ``gongzhu:web:room:<id>`` (meta, JSON), ``gongzhu:web:log:<id>``
    (a list of JSON entries), the sorted set ``gongzhu:web:rooms`` (id → last
    change) and, per room with players, the sorted set ``gongzhu:web:here:<id>``
    (``<seat>/<process>`` → until when that process's player counts as here,
    in Redis's clock; it expires on its own). A save is one MULTI/EXEC under
    WATCH of the log and the meta, so a concurrent write by another server is
    refused, not interleaved, and the same transaction publishes
    ``"<id> <event>"`` on :data:`CHANNEL`.

    Every Redis error (an outage, a timeout) is raised as a
    :class:`~gongzhu.web.store.StoreError`. A store made from a URL times out
    after a few seconds instead of hanging (``socket_timeout`` and
    ``socket_connect_timeout`` in the URL's query override it).
    """

    RETRY_MAX: float = 5.0
    """The longest pause (seconds) between two attempts to resubscribe after an error."""

    def __init__(self, url: str | None = None, *, client: Any = None) -> None:
        if client is None:
            try:
                import redis
            except ImportError as exc:
                raise StoreError(
                    "a redis:// store needs the redis extra: pip install 'gongzhu[redis]'"
                ) from exc
            client = redis.Redis.from_url(
                url or "redis://localhost:6379/0",
                socket_connect_timeout=2.0,
                socket_timeout=5.0,
                health_check_interval=15,  # a silently dead subscription is noticed
            )
        self._r = client

    @staticmethod
    def _meta_key(room_id: str) -> str:
        return f"{_KEY}:room:{room_id}"

    @staticmethod
    def _log_key(room_id: str) -> str:
        return f"{_KEY}:log:{room_id}"

    @staticmethod
    def _here_key(room_id: str) -> str:
        return f"{_KEY}:here:{room_id}"

    def create(self, room_id: str, meta: dict[str, Any]) -> bool:
        with _redis_errors():
            if not self._r.set(self._meta_key(room_id), json.dumps(meta), nx=True):
                return False
            self._r.zadd(f"{_KEY}:rooms", {room_id: time.time()})
            return True

    def load(self, room_id: str) -> tuple[dict[str, Any], list[Any]] | None:
        with _redis_errors():
            pipe = self._r.pipeline()  # one snapshot of the meta and the log
            pipe.get(self._meta_key(room_id))
            pipe.lrange(self._log_key(room_id), 0, -1)
            raw, entries = pipe.execute()
        if raw is None:
            return None
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

        log_key, meta_key = self._log_key(room_id), self._meta_key(room_id)
        with _redis_errors(), self._r.pipeline() as pipe:
            try:
                pipe.watch(log_key, meta_key)
                if not reset and pipe.llen(log_key) != start:
                    raise _conflict(room_id)
                stored = pipe.get(meta_key)
                if stored is None:
                    raise StoreError(f"room {room_id} is not stored")
                _check_event(room_id, stored, meta)
                pipe.multi()
                pipe.set(meta_key, json.dumps(meta))
                if reset:
                    pipe.delete(log_key)
                if entries:
                    pipe.rpush(log_key, *[json.dumps(e) for e in entries])
                pipe.zadd(f"{_KEY}:rooms", {room_id: time.time()})
                # In the transaction: a write that lands is always announced.
                pipe.publish(CHANNEL, f"{room_id} {meta.get('event', 0)}")
                pipe.execute()
            except WatchError:
                raise _conflict(room_id) from None

    def count(self) -> int:
        with _redis_errors():
            return int(self._r.zcard(f"{_KEY}:rooms"))

    def purge(
        self,
        before: float,
        *,
        unplayed_before: float | None = None,
        keep: Collection[str] = (),
    ) -> int:
        with _redis_errors():
            old = [
                r.decode() if isinstance(r, bytes) else str(r)
                for r in self._r.zrangebyscore(f"{_KEY}:rooms", "-inf", f"({before}")
            ]
            if unplayed_before is not None and unplayed_before > before:
                for r in self._r.zrangebyscore(f"{_KEY}:rooms", before, f"({unplayed_before}"):
                    room_id = r.decode() if isinstance(r, bytes) else str(r)
                    if _unplayed(self._r.get(self._meta_key(room_id))):
                        old.append(room_id)
            old = [r for r in old if r not in keep]
            for room_id in old:
                self._r.delete(
                    self._meta_key(room_id), self._log_key(room_id), self._here_key(room_id)
                )
                self._r.zrem(f"{_KEY}:rooms", room_id)
        return len(old)

    def presence(
        self, room_id: str, process: str, until: Mapping[int, float], keep: float
    ) -> dict[int, float] | None:
        key = self._here_key(room_id)
        with _redis_errors():
            # Redis's clock, not this machine's: processes on machines whose clocks
            # disagree still agree on who is here.
            secs, micros = self._r.time()
            now = int(secs) + int(micros) / 1e6
            pipe = self._r.pipeline()
            if until:
                pipe.zadd(key, {f"{seat}/{process}": now + u for seat, u in until.items()})
                # The key outlives its last report by ``keep``: a room nobody plays leaves
                # nothing behind, and forgotten processes' reports are trimmed below.
                pipe.expire(key, max(1, math.ceil(keep + max(until.values()))))
            pipe.zremrangebyscore(key, "-inf", f"({now - keep}")
            pipe.zrange(key, 0, -1, withscores=True)
            members = pipe.execute()[-1]
        out: dict[int, float] = {}
        for member, score in members:
            text = member.decode() if isinstance(member, bytes) else str(member)
            seat_text, _, _ = text.partition("/")
            if not seat_text.isdigit():
                continue
            seat = int(seat_text)
            out[seat] = max(out.get(seat, -math.inf), float(score) - now)
        return out

    def listen(self, changed: Changed) -> Callable[[], None] | None:
        """Hear every write on :data:`CHANNEL` in a daemon thread (see :class:`Store`).

        A thread, not ``redis.asyncio``: the store is the synchronous client (or
        the one it was given), and its subscription then needs no second client
        and no event loop; the thread waits on the socket at most half a second
        at a time, so the returned stop function ends it promptly. After an error
        it resubscribes with a growing pause (at most :attr:`RETRY_MAX`), and each
        (re)subscription is reported as ``changed(None, 0)``: announcements made
        while it was away were lost, so every room may have changed.
        """
        stop = threading.Event()
        thread = threading.Thread(
            target=self._listen, args=(changed, stop), name="gongzhu-redis-listener", daemon=True
        )
        thread.start()

        def stop_listening() -> None:
            stop.set()
            thread.join(timeout=5.0)

        return stop_listening

    def _listen(self, changed: Changed, stop: threading.Event) -> None:
        pause = 0.1
        while not stop.is_set():
            pubsub = None
            try:
                pubsub = self._r.pubsub()
                pubsub.subscribe(CHANNEL)
                while not stop.is_set():
                    message = pubsub.get_message(timeout=0.5)
                    if message is None:
                        continue
                    if message["type"] == "subscribe":
                        pause = 0.1  # connected: the next error starts its pauses afresh
                        changed(None, 0)
                    elif message["type"] == "message":
                        parsed = _announcement(message["data"])
                        if parsed is not None:
                            changed(*parsed)
            except Exception as exc:  # any failure: never let the thread die, try again later
                _log.warning("gongzhu: the Redis subscription failed (%s); retrying", exc)
                stop.wait(pause)
                pause = min(pause * 2, self.RETRY_MAX)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):  # closing a broken connection may fail
                        pubsub.close()

    def close(self) -> None:
        close = getattr(self._r, "close", None)
        if callable(close):
            close()


def _announcement(data: Any) -> tuple[str, int] | None:
    """``"<room-id> <event>"`` read back, or None for anything else."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)
    room_id, _, event = text.partition(" ")
    if not room_id or not event.isdigit() or len(event) > 18:
        return None
    return room_id, int(event)


@contextlib.contextmanager
def _redis_errors() -> Iterator[None]:
    """Raise Redis's own errors (connection lost, timeout) as StoreError."""
    from redis.exceptions import RedisError, WatchError

    try:
        yield
    except WatchError:
        raise
    except RedisError as exc:
        raise StoreError(f"the Redis store failed: {exc}") from None


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
