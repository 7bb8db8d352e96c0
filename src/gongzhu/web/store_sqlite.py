"""The SQLite room store (the standard library's :mod:`sqlite3`): :class:`SQLiteStore`.

Import it from :mod:`gongzhu.web.store` (its public home).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from gongzhu.web.store_base import (
    Changed,
    StoreError,
    StoreFull,
    StoreInUse,
    StoreUnsafe,
    _check_event,
    _conflict,
    _listed_at,
    _listed_meta,
    _unplayed,
)

__all__ = ["SQLiteStore", "default_path"]

_log = logging.getLogger("gongzhu.web.store")


@contextlib.contextmanager
def _sqlite_errors(what: str) -> Iterator[None]:
    """Raise SQLite's own errors (``database is locked``, a full disk) as StoreError."""
    try:
        yield
    except sqlite3.Error as exc:
        if getattr(exc, "sqlite_errorname", "") in _FULL:
            full = StoreFull(
                f"the disk under the room store is full ({what}: {exc}); nothing was "
                "written, the rooms stored before are intact: free some space"
            )
            _log.warning("gongzhu: %s", full)  # the players only hear "try again"
            raise full from None
        raise StoreError(f"the room store cannot be used now ({what}: {exc})") from None


_FULL = frozenset({"SQLITE_FULL", "SQLITE_IOERR_WRITE"})
"""SQLite's names for a write that found no space: a full disk, or a file past the
process's size limit (``RLIMIT_FSIZE``: SQLite sees the short write as an I/O error)."""


class SQLiteStore:
    """Rooms in an SQLite database (the standard library's :mod:`sqlite3`), written by
    this process only.

    One connection, guarded by a lock; each save is one transaction, so a
    failed save (the file locked by another process past ``busy_timeout``
    seconds) writes nothing and raises :class:`StoreError`, and a full disk
    :class:`StoreFull`. A new file is created readable by its owner only (0600,
    in a 0700 directory): it holds every room's seed. A file (or its lock or
    journal) that is a symbolic link or belongs to another user is refused
    (:class:`StoreUnsafe`). A server claims the file (:meth:`claim`) so that a
    second server on it refuses to start.
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
                columns = {r[1] for r in self._db.execute("PRAGMA table_info(rooms)")}
                if "owner" not in columns:  # a store made before owners were counted
                    self._db.execute("ALTER TABLE rooms ADD COLUMN owner TEXT NOT NULL DEFAULT ''")
                if "listed" not in columns:  # a store made before tables were listed
                    self._db.execute("ALTER TABLE rooms ADD COLUMN listed REAL")
                self._db.execute("CREATE INDEX IF NOT EXISTS rooms_owner ON rooms (owner)")
                self._db.execute(
                    "CREATE INDEX IF NOT EXISTS rooms_listed ON rooms (listed)"
                    " WHERE listed IS NOT NULL"
                )
                self._db.execute("CREATE INDEX IF NOT EXISTS rooms_updated ON rooms (updated)")

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
        fd = _open_own(Path(lock_path), os.O_RDWR | os.O_CREAT)
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

    def create(self, room_id: str, meta: dict[str, Any], *, owner: str = "") -> bool:
        with self._lock, _sqlite_errors("create a room"):
            try:
                self._db.execute(
                    "INSERT INTO rooms (id, meta, updated, owner, listed) VALUES (?, ?, ?, ?, ?)",
                    (room_id, json.dumps(meta), time.time(), owner, _listed_at(meta)),
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
                "UPDATE rooms SET meta = ?, updated = ?, listed = ? WHERE id = ?",
                (json.dumps(meta), time.time(), _listed_at(meta), room_id),
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

    def count(self, owner: str | None = None) -> int:
        with self._lock, _sqlite_errors("count the rooms"):
            if owner is None:
                (n,) = self._db.execute("SELECT COUNT(*) FROM rooms").fetchone()
            else:
                query = "SELECT COUNT(*) FROM rooms WHERE owner = ?"
                (n,) = self._db.execute(query, (owner,)).fetchone()
        return int(n)

    def listed(self, limit: int) -> list[tuple[str, dict[str, Any]]]:
        with self._lock, _sqlite_errors("list the open tables"):
            rows = self._db.execute(
                "SELECT id, meta FROM rooms WHERE listed IS NOT NULL"
                " ORDER BY listed DESC, id LIMIT ?",
                (max(0, limit),),
            ).fetchall()
        found = [(r[0], _listed_meta(r[1])) for r in rows]
        return [(room_id, meta) for room_id, meta in found if meta is not None]

    def evict(self, before: float, limit: int, *, keep: Collection[str] = ()) -> int:
        with self._lock, _sqlite_errors("evict rooms"), self._transaction() as db:
            rows = db.execute(
                "SELECT id FROM rooms WHERE updated < ? ORDER BY updated LIMIT ?",
                (before, max(0, limit) + len(keep)),
            )
            old = [r[0] for r in rows if r[0] not in keep][: max(0, limit)]
            self._delete(db, old)
        return len(old)

    @staticmethod
    def _delete(db: sqlite3.Connection, rooms: list[str]) -> None:
        db.executemany("DELETE FROM log WHERE room = ?", [(r,) for r in rooms])
        db.executemany("DELETE FROM rooms WHERE id = ?", [(r,) for r in rooms])

    def listen(self, changed: Changed) -> Callable[[], None] | None:
        return None  # only this process writes: nothing to hear

    def presence(
        self, room_id: str, process: str, until: Mapping[int | None, float], keep: float
    ) -> dict[int, float] | None:
        return None  # presence is this process's own connections

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
            self._delete(db, old)
        return len(old)

    def close(self) -> None:
        with self._lock:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            if self._claim is not None:
                os.close(self._claim)  # closing the descriptor releases the lock
                self._claim = None


def _private_file(path: Path) -> None:
    """Make the store's directory (0700) and file (0600) if they are new; a file another
    tool made readable to others is narrowed to its owner. A file, journal or lock that
    is a symbolic link or another user's is refused (:class:`StoreUnsafe`)."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.close(_open_own(path, os.O_RDWR | os.O_CREAT))
    for suffix in ("-wal", "-shm", "-journal", ".lock"):
        companion = path.with_name(path.name + suffix)
        if os.path.lexists(companion):
            os.close(_open_own(companion, os.O_RDWR))


def _open_own(path: Path, flags: int) -> int:
    """Open ``path`` without following a symbolic link, as a file of this user (0600 if
    new; narrowed to 0600 if others could read it); :class:`StoreUnsafe` otherwise."""
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags | nofollow, 0o600)
    except OSError as exc:
        if os.path.islink(path):
            raise StoreUnsafe(
                f"the room store {path} is a symbolic link: refused (point --store at the "
                "file itself, in a directory of yours)"
            ) from None
        raise StoreError(f"the room store {path} cannot be opened ({exc})") from None
    try:
        st = os.fstat(fd)
        geteuid = getattr(os, "geteuid", None)
        if geteuid is not None and st.st_uid != geteuid():
            raise StoreUnsafe(
                f"the room store {path} belongs to another user (uid {st.st_uid}): refused "
                "(it could be read or swapped by them; use a file in a directory of yours)"
            )
        if st.st_mode & 0o077 and hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)
    except BaseException:
        os.close(fd)
        raise
    return fd


def default_path() -> Path:
    """The default SQLite file: ``rooms.sqlite3`` in the user's data directory (platformdirs)."""
    try:
        from platformdirs import user_data_dir
    except ImportError:  # the web extra brings platformdirs; without it, the home directory
        return Path.home() / ".gongzhu" / "rooms.sqlite3"
    return Path(user_data_dir("gongzhu", appauthor=False)) / "rooms.sqlite3"


SQLiteStore.__module__ = "gongzhu.web.store"
