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
  have a connected player (and whether spectators are connected) is shared
  (:meth:`RedisStore.presence`).
* :class:`MemoryStore` — a dict, for tests and doctests.

When the store is full, the server evicts the rooms idle longest
(:meth:`Store.evict`), and each address (an IPv6 /48) keeps at most
:attr:`Limits.rooms_per_owner <gongzhu.web.Limits.rooms_per_owner>` rooms
(:func:`owner_of`, :meth:`Store.count`).

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

import os

from gongzhu.web.store_base import (
    Changed,
    MemoryStore,
    Store,
    StoreConflict,
    StoreError,
    StoreFull,
    StoreInUse,
    StoreUnsafe,
    owner_of,
)
from gongzhu.web.store_redis import CHANNEL, RedisStore
from gongzhu.web.store_sqlite import SQLiteStore, default_path

__all__ = [
    "CHANNEL",
    "Changed",
    "MemoryStore",
    "RedisStore",
    "SQLiteStore",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoreFull",
    "StoreInUse",
    "StoreUnsafe",
    "default_path",
    "open_store",
    "owner_of",
]


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
