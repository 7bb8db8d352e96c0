"""The room store's contract and simplest form: :class:`Store`, its errors, :class:`MemoryStore`.

The public names are :mod:`gongzhu.web.store`'s (import them from there); the
SQLite and Redis stores are :mod:`gongzhu.web.store_sqlite` and
:mod:`gongzhu.web.store_redis`.
"""

from __future__ import annotations

import hashlib
import ipaddress
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
    "StoreFull",
    "StoreInUse",
    "StoreUnsafe",
    "owner_of",
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


class StoreFull(StoreError):
    """The disk (or the file size limit) under the store is full: nothing was written,
    and what was written before is intact; free some space."""


class StoreUnsafe(StoreError):
    """The store's file (or its lock, journal) is a symbolic link or belongs to another
    user: it is not used (someone else could read every room's seed, or swap it)."""


def owner_of(address: str) -> str:
    """Who keeps a room, for the per-address cap (:attr:`Limits.rooms_per_owner
    <gongzhu.web.Limits.rooms_per_owner>`): the IPv4 address, or the /48 network of an
    IPv6 one (a site's allocation), hashed, so the store holds no address.

    >>> owner_of("2001:db8:1:2::5") == owner_of("2001:db8:1:ffff::9") == owner_of("2001:db8:1::/64")
    True
    >>> owner_of("192.0.2.1") == owner_of("192.0.2.2"), len(owner_of("192.0.2.1"))
    (False, 16)
    """
    try:  # an address, or the network a per-address limit already made of it
        net = ipaddress.ip_network(address, strict=False)
    except ValueError:
        key = address
    else:
        ip = net.network_address
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            key = str(ip.ipv4_mapped)
        elif isinstance(ip, ipaddress.IPv6Address):
            key = str(ipaddress.ip_network(f"{ip}/{min(48, net.prefixlen)}", strict=False))
        else:
            key = str(net)
    return hashlib.sha256(f"gongzhu-owner:{key}".encode()).hexdigest()[:16]


class Store(Protocol):
    """What a room store does (every method is quick and synchronous)."""

    def create(self, room_id: str, meta: dict[str, Any], *, owner: str = "") -> bool:
        """Store a new room; False if the id is taken. ``owner``: who keeps it (the
        creator's :func:`owner_of`), counted by :meth:`count`."""
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

    def count(self, owner: str | None = None) -> int:
        """How many rooms are stored (``owner``: that owner's only)."""
        ...

    def listed(self, limit: int) -> list[tuple[str, dict[str, Any]]]:
        """The open tables: the rooms whose meta says ``"listed": true``, newest first
        (by the meta's ``created``), at most ``limit``; each one's id and meta (its log
        is not read). A room whose meta cannot be read is left out. SQLite and Redis keep
        an index of them, updated by every write, so this reads no other room."""
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
        ``keep`` (rooms someone is in on this process) and, in a shared store, those
        with a seat's player or a spectator here on any process (:meth:`presence`),
        checked in the same transaction as the delete; how many."""
        ...

    def evict(self, before: float, limit: int, *, keep: Collection[str] = ()) -> int:
        """Delete at most ``limit`` rooms last changed before ``before``, the least
        recently changed first, except those in ``keep`` (and, in a shared store, those
        with a player here on any process, as :meth:`purge`); how many (a full store
        makes room for new ones this way)."""
        ...

    def listen(self, changed: Changed) -> Callable[[], None] | None:
        """Call ``changed`` (from another thread) after every write to the store, until
        the returned function is called; ``None`` if only this process writes to the
        store (SQLite, memory), so there is nothing to hear."""
        ...

    def presence(
        self, room_id: str, process: str, until: Mapping[int | None, float], keep: float
    ) -> dict[int, float] | None:
        """Share which seats have a connected player, across processes.

        ``until``: for each seat this process reports, the seconds from now until
        which its player counts as here (a heartbeat's lifetime; ``0`` when they
        have just left); the key ``None``, the same for its spectators. Returns, per
        seat anyone reported, the seconds from now until which its player is here in
        some process (negative: gone that long ago); spectators are no seat's
        players and are not in it, but a room with a spectator's report running, like
        one with a seat's, is not purged (:meth:`purge`). Reports older than ``keep``
        seconds are forgotten. ``None`` for a one-process store: presence is this
        process's own connections.
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


class MemoryStore:
    """Rooms in a dict (lost when the process ends); only this process writes them."""

    def __init__(self) -> None:
        self._rooms: dict[str, tuple[str, list[str], float]] = {}
        self._owners: dict[str, str] = {}

    def create(self, room_id: str, meta: dict[str, Any], *, owner: str = "") -> bool:
        if room_id in self._rooms:
            return False
        self._rooms[room_id] = (json.dumps(meta), [], time.time())
        self._owners[room_id] = owner
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

    def count(self, owner: str | None = None) -> int:
        if owner is None:
            return len(self._rooms)
        return sum(1 for o in self._owners.values() if o == owner)

    def listed(self, limit: int) -> list[tuple[str, dict[str, Any]]]:
        found = []
        for room_id, (meta_text, _, _) in self._rooms.items():
            meta = _listed_meta(meta_text)
            if meta is not None:
                found.append((_listed_at(meta) or 0.0, room_id, meta))
        found.sort(key=lambda f: (-f[0], f[1]))
        return [(room_id, meta) for _, room_id, meta in found[: max(0, limit)]]

    def evict(self, before: float, limit: int, *, keep: Collection[str] = ()) -> int:
        idle = sorted((v[2], k) for k, v in self._rooms.items() if v[2] < before and k not in keep)
        for _, k in idle[: max(0, limit)]:
            self._delete(k)
        return min(len(idle), max(0, limit))

    def _delete(self, room_id: str) -> None:
        del self._rooms[room_id]
        self._owners.pop(room_id, None)

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
        old = [
            k
            for k, v in self._rooms.items()
            if v[2] < before
            or (unplayed_before is not None and v[2] < unplayed_before and _unplayed(v[0]))
        ]
        old = [k for k in old if k not in keep]
        for k in old:
            self._delete(k)
        return len(old)

    def close(self) -> None:
        pass


def _listed_at(meta: Mapping[str, Any]) -> float | None:
    """Where a room stands in :meth:`Store.listed`: its ``created`` time if its meta says
    ``"listed": true`` (:class:`gongzhu.web.rooms.Room` decides that), else ``None``.

    >>> _listed_at({"listed": True, "created": 5.0}), _listed_at({"listed": 1}), _listed_at({})
    (5.0, None, None)
    """
    if meta.get("listed") is not True:
        return None
    created = meta.get("created")
    if isinstance(created, bool) or not isinstance(created, (int, float)):
        return 0.0
    return float(created)


def _listed_meta(meta_text: str | bytes | None) -> dict[str, Any] | None:
    """A stored meta (JSON text) read back if it is listed, else (or unreadable) None."""
    try:
        meta = json.loads(meta_text or "{}")
    except ValueError:
        return None
    return meta if isinstance(meta, dict) and _listed_at(meta) is not None else None


def _unplayed(meta_text: str | bytes | None) -> bool:
    """A stored room that never saw a move (its meta says ``"played": false``)."""
    try:
        return json.loads(meta_text or "{}").get("played", True) is False
    except (ValueError, AttributeError):
        return False


# Their public home (tracebacks, docs): gongzhu.web.store.
for _cls in (StoreError, StoreConflict, StoreInUse, StoreFull, StoreUnsafe, Store, MemoryStore):
    _cls.__module__ = "gongzhu.web.store"
del _cls
