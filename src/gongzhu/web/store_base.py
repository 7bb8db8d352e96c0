"""The room store's contract and simplest form: :class:`Store`, its errors, :class:`MemoryStore`.

The public names are :mod:`gongzhu.web.store`'s (import them from there); the
SQLite and Redis stores are :mod:`gongzhu.web.store_sqlite` and
:mod:`gongzhu.web.store_redis`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Protocol

from gongzhu.errors import GongzhuError

__all__ = [
    "Changed",
    "MemoryStore",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoreInUse",
]

Changed = Callable[[str | None, int], None]
"""A listener: ``(room_id, event)`` after another write, or ``(None, 0)`` when anything may
have changed (the subscription was (re)made: announcements may have been missed)."""


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


def _unplayed(meta_text: str | bytes | None) -> bool:
    """A stored room that never saw a move (its meta says ``"played": false``)."""
    try:
        return json.loads(meta_text or "{}").get("played", True) is False
    except (ValueError, AttributeError):
        return False


# Their public home (tracebacks, docs): gongzhu.web.store.
for _cls in (StoreError, StoreConflict, StoreInUse, Store, MemoryStore):
    _cls.__module__ = "gongzhu.web.store"
del _cls
