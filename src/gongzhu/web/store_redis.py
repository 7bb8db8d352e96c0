"""The Redis room store (the ``redis`` extra), for several servers: :class:`RedisStore`.

Import it from :mod:`gongzhu.web.store` (its public home).
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any, Final

from gongzhu.web.store_base import (
    Changed,
    StoreError,
    _check_event,
    _conflict,
    _listed_at,
    _listed_meta,
    _unplayed,
)

__all__ = ["CHANNEL", "RedisStore"]

_KEY: Final = "gongzhu:web"
CHANNEL: Final = f"{_KEY}:changed"
"""The Redis pub/sub channel on which every write announces ``"<room-id> <event>"``."""
_OPEN: Final = f"{_KEY}:open"
_WATCHERS: Final = "watchers"
"""A presence member's name for a process's spectators, where a seat's has its number."""

_log = logging.getLogger("gongzhu.web.store")


class RedisStore:
    """Rooms in Redis (the ``redis`` extra): ``RedisStore(url="redis://…")`` or ``client=``.

    Keys: ``gongzhu:web:room:<id>`` (meta, JSON), ``gongzhu:web:log:<id>``
    (a list of JSON entries), the sorted set ``gongzhu:web:rooms`` (id → last
    change), the hash ``gongzhu:web:owners`` (id → owner) with a set
    ``gongzhu:web:owned:<owner>`` per owner, the sorted set ``gongzhu:web:open``
    (the open tables, :meth:`listed`: id → creation, kept in the same transaction
    as the room's meta), and, per room with players or spectators, the
    sorted set ``gongzhu:web:here:<id>``
    (``<seat>/<process>`` → until when that process's player counts as here,
    and ``watchers/<process>`` → the same for its spectators, in Redis's clock;
    it expires on its own). A save is one MULTI/EXEC under
    WATCH of the log and the meta, so a concurrent write by another server is
    refused, not interleaved, and the same transaction publishes
    ``"<id> <event>"`` on :data:`CHANNEL`. A purge or an eviction deletes each
    room in one MULTI/EXEC under WATCH of its meta and its presence, and only if
    nobody (no seat's player, no spectator) is here on any process: a room
    another process serves is never deleted under it.

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
                    "a redis:// store needs the redis extra:"
                    ' pip install ".[redis]" from a checkout of gongzhu'
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

    def create(self, room_id: str, meta: dict[str, Any], *, owner: str = "") -> bool:
        with _redis_errors():
            if not self._r.set(self._meta_key(room_id), json.dumps(meta), nx=True):
                return False
            pipe = self._r.pipeline()
            pipe.zadd(f"{_KEY}:rooms", {room_id: time.time()})
            pipe.hset(f"{_KEY}:owners", room_id, owner)
            pipe.sadd(f"{_KEY}:owned:{owner}", room_id)
            since = _listed_at(meta)
            if since is not None:
                pipe.zadd(_OPEN, {room_id: since})
            pipe.execute()
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
                since = _listed_at(meta)
                if since is None:
                    pipe.zrem(_OPEN, room_id)
                else:
                    pipe.zadd(_OPEN, {room_id: since})
                # In the transaction: a write that lands is always announced.
                pipe.publish(CHANNEL, f"{room_id} {meta.get('event', 0)}")
                pipe.execute()
            except WatchError:
                raise _conflict(room_id) from None

    def count(self, owner: str | None = None) -> int:
        with _redis_errors():
            if owner is not None:
                return int(self._r.scard(f"{_KEY}:owned:{owner}"))
            return int(self._r.zcard(f"{_KEY}:rooms"))

    def listed(self, limit: int) -> list[tuple[str, dict[str, Any]]]:
        if limit <= 0:
            return []
        with _redis_errors():
            ids = [_text(r) for r in self._r.zrevrange(_OPEN, 0, limit - 1)]
            metas = self._r.mget([self._meta_key(r) for r in ids]) if ids else []
        found = [(room_id, _listed_meta(raw)) for room_id, raw in zip(ids, metas, strict=True)]
        # A room deleted (or started) between the two reads is simply not listed.
        return [(room_id, meta) for room_id, meta in found if meta is not None]

    def evict(self, before: float, limit: int, *, keep: Collection[str] = ()) -> int:
        limit = max(0, limit)
        with _redis_errors():
            found = self._r.zrangebyscore(
                f"{_KEY}:rooms", "-inf", f"({before}", start=0, num=limit + len(keep)
            )
            now = self._now()
            n = 0
            for room_id in (r for r in map(_text, found) if r not in keep):
                if n >= limit:
                    break
                n += self._delete_idle(room_id, before, None, now)
        return n

    def _now(self) -> float:
        """Redis's clock (presence's scores are in it, see :meth:`presence`)."""
        secs, micros = self._r.time()
        return int(secs) + int(micros) / 1e6

    def _delete_idle(
        self, room_id: str, before: float, unplayed_before: float | None, now: float
    ) -> bool:
        """Forget the room if it is still idle and nobody is here, checked and deleted in
        one transaction; True if it was deleted. The caller maps errors.

        Idle: last changed before ``before``, or (``unplayed_before``) never played and last
        changed before that. Nobody here: no presence report (any process's, a seat's or
        its spectators') runs past ``now`` (Redis's clock, read before this call: a lease
        that ended since still counts, which only keeps the room a while longer). The
        room's meta and presence are WATCHed, so a process that writes the room or
        reports someone in it meanwhile makes the delete fail, and the room is kept; a
        save moves the room's last change with its meta, so the last change read here
        stays true until EXEC.
        """
        from redis.exceptions import WatchError

        meta_key, here_key = self._meta_key(room_id), self._here_key(room_id)
        with self._r.pipeline() as pipe:
            try:
                pipe.watch(meta_key, here_key)
                if pipe.zcount(here_key, f"({now}", "+inf"):
                    return False  # a player or a spectator is connected to some process
                changed = pipe.zscore(f"{_KEY}:rooms", room_id)
                if changed is None:
                    return False  # deleted meanwhile
                if not float(changed) < before and not (
                    unplayed_before is not None
                    and float(changed) < unplayed_before
                    and _unplayed(pipe.get(meta_key))
                ):
                    return False
                owner = pipe.hget(f"{_KEY}:owners", room_id)
                pipe.multi()
                pipe.delete(meta_key, self._log_key(room_id), here_key)
                pipe.zrem(f"{_KEY}:rooms", room_id)
                pipe.zrem(_OPEN, room_id)
                pipe.hdel(f"{_KEY}:owners", room_id)
                if owner is not None:
                    pipe.srem(f"{_KEY}:owned:{_text(owner)}", room_id)
                pipe.execute()
            except WatchError:
                return False  # written or joined meanwhile: someone is serving it
        return True

    def purge(
        self,
        before: float,
        *,
        unplayed_before: float | None = None,
        keep: Collection[str] = (),
    ) -> int:
        """See :class:`Store`; besides ``keep`` (this process's rooms), a room that has a
        connected player or spectator on any process (:meth:`presence`) is kept, checked
        atomically with its delete (:meth:`_delete_idle`)."""
        with _redis_errors():
            old = [_text(r) for r in self._r.zrangebyscore(f"{_KEY}:rooms", "-inf", f"({before}")]
            if unplayed_before is not None and unplayed_before > before:
                found = self._r.zrangebyscore(f"{_KEY}:rooms", before, f"({unplayed_before}")
                old += [_text(r) for r in found]
            now = self._now()
            idle = (r for r in old if r not in keep)
            return sum(self._delete_idle(r, before, unplayed_before, now) for r in idle)

    def presence(
        self, room_id: str, process: str, until: Mapping[int | None, float], keep: float
    ) -> dict[int, float] | None:
        key = self._here_key(room_id)
        with _redis_errors():
            # Redis's clock, not this machine's: processes on machines whose clocks
            # disagree still agree on who is here.
            now = self._now()
            pipe = self._r.pipeline()
            if until:
                pipe.zadd(key, {f"{_member(who)}/{process}": now + u for who, u in until.items()})
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
                continue  # the spectators' (they keep the room, but hold no seat)
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


def _member(seat: int | None) -> str:
    """A presence member's first part: the seat, or the spectators (``None``)."""
    return _WATCHERS if seat is None else str(seat)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


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


RedisStore.__module__ = "gongzhu.web.store"
