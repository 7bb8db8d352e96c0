"""The web server's bounds (:class:`Limits`), each with the ``gongzhu serve`` flag that sets it.

The figures follow lichess's socket server (lila-ws) where it has one: about
100 messages per 20 seconds from a player, fewer from a watcher, frames of at
most 8 KiB, and a connection that breaks a limit is closed with code 1008.
``docs/web.rst`` lists them all.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Limits"]


class Limits:
    """The server's bounds (all adjustable through :func:`~gongzhu.web.create_app`'s
    ``limits``; ``gongzhu serve`` sets the ones with a flag)."""

    # -- rooms ---------------------------------------------------------------------------
    max_rooms: int = 10_000
    """Rooms in the store; past it unplayed and expired rooms are purged, then the rooms
    idle past :attr:`idle_ttl` evicted, else creation is refused (503) while existing
    rooms go on being served (``--max-rooms``)."""
    room_ttl: float = 30 * 24 * 3600.0
    """A room untouched this long is purged."""
    unplayed_ttl: float = 600.0
    """A room that never saw a move, untouched (nobody connected) this long, is purged
    (``--unplayed-ttl``)."""
    purge_every: float = 60.0
    """Seconds between two purges of the store."""
    rooms_per_address: int = 10
    """Rooms one address may create at once (a burst) ... (``--rooms-per-address``)"""
    rooms_per_minute: float = 4.0
    """... and then per minute (429 past it)."""
    rooms_per_owner: int = 200
    """Rooms one address (an IPv6 /48) keeps in the store (429 past it, until some are
    purged), so that no one address fills it (``--rooms-per-owner``)."""
    idle_ttl: float = 24 * 3600.0
    """When the store is full, rooms untouched this long are evicted to make room, the
    least recently used first (after the unplayed and the expired ones)."""
    unplayed_per_address: int = 5
    """Rooms created by one address that have not seen a move yet (429 past it)."""
    loaded_rooms: int = 256
    """Rooms kept rebuilt in memory (idle ones are dropped first; they reload from the store)."""

    # -- connections -----------------------------------------------------------------------
    connections: int = 1000
    """WebSocket connections in all (``--max-connections``; HTTP connections are capped by
    uvicorn's ``limit_concurrency``, ``--limit-concurrency``)."""
    room_watchers: int = 16
    """Watchers' (no seat's) connections per room; a seat's holder always gets in, and so
    does a newcomer while a seat is free (:attr:`seat_wait`) (``--room-watchers``)."""
    address_watchers: int = 4
    """Watchers' connections per room from one address (:func:`~gongzhu.web.hub.client_key`),
    so that one address cannot take the room's watcher slots."""
    watcher_idle: float = 60.0
    """When the room's watchers are at their cap, the one that has sent nothing for this
    many seconds is closed to let a newcomer in."""
    seat_wait: float = 60.0
    """When the room's watchers are at their cap and nobody has been silent that long, a
    newcomer is still let in while a seat is free, and closed if it has not taken one
    after this many seconds (it may also send ``sit`` instead of ``hello``)."""
    seat_connections: int = 4
    """Connections (tabs) holding one seat."""
    client_connections: int = 16
    """WebSocket connections from one address (so one host cannot take every slot)."""
    send_queue: int = 64
    """Messages waiting for one connection; a client that lets it fill is dropped."""
    send_timeout: float = 10.0
    """Seconds one send may take before the connection is dropped."""
    hello_timeout: float = 10.0
    """Seconds a new connection has to say hello."""
    messages: int = 100
    """Messages a player's connection may send per :attr:`window` (a token bucket: at
    most this many at once, refilled evenly); one more closes it with 1008."""
    watcher_messages: int = 40
    """The same for a watcher's connection."""
    window: float = 20.0
    """The seconds of :attr:`messages`."""
    records_per_minute: float = 30.0
    """``GET /api/rooms/<id>/record`` requests per minute from one address, after a burst
    of :attr:`records_burst` (429 past it; each record is built once per finished deal)."""
    records_burst: int = 10
    """The record requests one address may make at once."""
    tables_per_minute: float = 120.0
    """``GET /api/tables`` (the open tables) requests per minute from one address, after a
    burst of :attr:`tables_burst` (429 past it; the start page asks every 5 seconds)."""
    tables_burst: int = 20
    """The open tables' requests one address may make at once."""
    tables_fresh: float = 1.0
    """Seconds an answer of ``GET /api/tables`` is reused: a process reads the open tables
    from the store at most once that often, however many ask."""
    strikes: int = 20
    """Refused (malformed) messages before a connection is closed (1008)."""

    # -- work ----------------------------------------------------------------------------
    store_timeout: float = 5.0
    """Seconds one store call may take (it runs in a worker thread, never on the event
    loop); past it the request is refused ``store-busy`` and may be retried."""
    computer_workers: int | None = None
    """Computer decisions running at once, across all rooms, each in a worker process
    (``None``: one per core; a fair queue: the rooms in the order they asked, those
    that used half their :attr:`computer_budget` in the last minute after the others)."""
    computer_budget: float = 30.0
    """Seconds of computer thinking one room may use per minute; past it the room's
    computers wait their turn behind other rooms."""
    exposure_pause: tuple[float, float] | None = None
    """With another human at the table, the server declines the exposure of a human who
    holds nothing to expose after a pause drawn uniformly from this range (seconds from
    the deal; by default 2 to 6 times ``bot_delay``), whatever the hands hold, so the
    timing tells no one whether that player holds an exposable card."""
    heartbeat: float = 2.0
    """Seconds between two reports of this process's players to a store several
    processes share (Redis); a process that stops reporting (it crashed) counts
    its players as gone three heartbeats after its last report."""

    def __init__(self, **changes: Any) -> None:
        for name, value in changes.items():
            if not hasattr(Limits, name):
                raise TypeError(f"no limit named {name!r}")
            setattr(self, name, value)
