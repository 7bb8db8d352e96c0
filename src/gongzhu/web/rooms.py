"""Rooms: one web table — a :class:`~gongzhu.table.Table` plus seats, tokens, presence, a store.

A room is what the store holds (:mod:`gongzhu.web.store`): the room's seed,
its :class:`Settings` (the start screen of source 001: threshold, the
pig/sheep sign swap, exposure, the computers' level), the seats (names,
``human``/``computer``, hashed tokens), the game number, the event counter
and the log of the game in progress. The match, the deal and who is to act
are the :class:`~gongzhu.table.Table` rebuilt from seed, rules and log; no
rule of play is decided here.

Every change is computed first as a :class:`Change` (nothing in the room
moves), written to the store, and only then kept (:meth:`Room.commit`): a
write that fails leaves the room as it was, so the log in memory and in the
store never differ and never get an entry after a missing one. The server
does the write in a worker thread (:mod:`gongzhu.web.hub`); the synchronous
methods (:meth:`Room.apply`, :meth:`Room.sit`, …) do all three steps at once.

Deal ``k`` of game 1 is dealt exactly as deal ``k`` of
:func:`gongzhu.play_match` with the same seed, so a room seed replays the
same cards; the computers decide from their own views with seeded
strategies, so the same human moves replay the same game. A room created
without a chosen number gets 128 bits of OS randomness (and a fresh seed for
each new game), never shown before its game is over; a chosen number is
shown to everyone who opens the room (:meth:`Room.info`).

>>> from gongzhu.web.store import MemoryStore
>>> room, token = Room.create(MemoryStore(), Settings(threshold=500), "Ann", seed=7)
>>> room.deal_no, room.round.phase.name, room.names
(1, 'EXPOSURE', ['Ann', 'West', 'North', 'East'])
>>> room.resume(token), room.resume("wrong")
(0, None)
>>> room.info(0.0, 60.0)["seed"], room.info(0.0, 60.0)["seeded"]
('7', True)
"""

from __future__ import annotations

import hashlib
import hmac
import math
import random
import secrets
import time
from collections.abc import Sequence
from typing import Any, Final

import attrs

import gongzhu.web.room_client as room_client
from gongzhu.actions import Action, Exposure
from gongzhu.ai.driver import awaiting, decide
from gongzhu.ai.strategies import Strategy
from gongzhu.errors import GongzhuError, IllegalActionError, Reason
from gongzhu.phase import Phase
from gongzhu.round import Round
from gongzhu.table import FirstDeal, Table
from gongzhu.view import PlayerView
from gongzhu.web.change import Change, TableFacts
from gongzhu.web.messages import Act, State, WebError, check_name
from gongzhu.web.room_client import public_view
from gongzhu.web.settings import (
    ALL_HEARTS,
    EXPOSABLE,
    HARD_SECONDS,
    LEVELS,
    MAX_FIXED_DEALS,
    PACES,
    SEATS,
    THRESHOLDS,
    Settings,
)
from gongzhu.web.store import Store, StoreError

__all__ = [
    "ALL_HEARTS",
    "EXPOSABLE",
    "HARD_SECONDS",
    "HOST",
    "LEVELS",
    "MAX_FIXED_DEALS",
    "MAX_LOG",
    "MAX_NUMBER",
    "RECIPIENTS",
    "SEATS",
    "SEED_BITS",
    "THRESHOLDS",
    "Change",
    "Room",
    "Settings",
    "StoreError",
    "hash_token",
    "public_view",
]

HOST: Final = 0
"""The host's seat: the room's creator sits there (:meth:`Room.create`)."""
MAX_LOG: Final = 4000
"""The most log entries a game may hold (30 deals of 52 cards, exposures and "next" fit)."""
SEED_BITS: Final = 128
"""An upper bound, in bits, of the seed of a room (or game) whose number nobody chose."""
MAX_NUMBER: Final = 10**15
"""A game's number is below this (at most 15 digits): drawn from the OS's randomness when
nobody chose it, shown at the game's end, and typed back into the start screen it deals
the same game (the start screen refuses a longer number rather than cutting it)."""
COMPUTER_NAMES: Final = ("West", "North", "East")
"""Source 001: "Вы сидите внизу, Запад, Север и Восток — компьютеры"."""


RECIPIENTS: Final[tuple[int | None, ...]] = (*range(SEATS), None)
"""Whom a room sends messages: each seat, and the watchers (``None``)."""


def hash_token(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256, hex (the token itself never is)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _address_mark(address: str | None) -> str | None:
    """What the store keeps of a seat's address (its hash, for one browser, one seat)."""
    return None if not address else hash_token("address:" + address)


class Room(TableFacts):
    """One table: the stored facts and the game rebuilt from them (see the module).

    ``plan_*`` methods check and raise (:class:`WebError`,
    :class:`~gongzhu.IllegalActionError`) or return a :class:`Change`; nothing
    in the room changes until :meth:`commit`. The plain methods (:meth:`apply`,
    :meth:`sit`, …) write and commit at once (tests, scripts).
    """

    def __init__(
        self, store: Store, room_id: str, meta: dict[str, Any], log: Sequence[Any]
    ) -> None:
        self.store = store
        self.id = room_id
        try:
            self.seed: int | str = meta["seed"]
            self.settings = Settings(**meta["settings"])
            self.names: list[str] = list(meta["names"])
            self.kinds: list[str] = list(meta["kinds"])
            self.tokens: list[str | None] = list(meta["tokens"])
            self.game: int = meta["game"]
            self.event: int = meta["event"]
            self.position: int = meta["position"]
            self.created: float = meta.get("created", 0.0)
            self.seeded: bool = bool(meta.get("seeded", False))
            self.random_seed: bool = bool(meta.get("random", False))
            self.played: bool = bool(meta.get("played", True))
            self.browsers: list[str | None] = list(meta.get("browsers", [None] * SEATS))
            self.auto: list[bool] = [bool(a) for a in meta.get("auto", [False] * SEATS)]
            # A shared deal replayed: the game's first deal, given outright.
            first = FirstDeal.from_dict(meta["first"]) if meta.get("first") else None
            # Which game of the seed the table plays (a new game draws a new seed and
            # plays its game 1, so its number replays it); ``game`` counts the room's games.
            table_game: int = meta.get("table_game", self.game)
            self.daily: str | None = meta.get("daily")
            self.addresses: list[str | None] = list(meta.get("addresses", [None] * SEATS))
            self.closed: list[list[int] | None] = list(meta.get("closed", [None] * SEATS))
            # Each recipient's own event counter (the seats, then the watchers), and its
            # value at the last move: see seen().
            self.seen_events: list[int] = list(meta.get("seen", [self.event] * len(RECIPIENTS)))
            self.moved: list[int] = list(meta.get("moved", [self.position] * len(RECIPIENTS)))
            self.lobby: bool = bool(meta.get("lobby", False))
            # An open table: listed (GET /api/tables) while it waits, as listed() says.
            self.open_table: bool = bool(meta.get("open", False))
            pace = meta.get("pace", "normal")
            self.pace: str = pace if pace in PACES else "normal"
            # Per deal of this game, the cards its player took back (plan_undo).
            self.undos: list[int] = [
                n if type(n) is int and n > 0 else 0 for n in meta.get("undos", [])
            ]
        except (KeyError, TypeError, GongzhuError) as exc:
            raise StoreError(f"room {room_id}: unreadable settings ({exc})") from None
        self.rules = self.settings.rules()
        # Transient (not stored): who is here, since when a seat is empty, a skip.
        now = time.monotonic()
        self.connected = [0] * SEATS
        self.gone_since = [now] * SEATS
        # With a store several processes share: until when (this process's monotonic
        # clock) each seat's player is here in any process, as the store last said.
        self.elsewhere = [-math.inf] * SEATS
        self.skipping = False
        self.watching: list[str] = []  # the watchers' names (this process's; the hub sets it)
        self._strategies: dict[tuple[int | str | None, int], Strategy] = {}
        try:
            self.table = Table.replay(self.rules, self.seed, table_game, log, first)
        except (GongzhuError, KeyError, TypeError) as exc:
            raise StoreError(f"room {room_id}: the log does not replay ({exc})") from None

    # -- making and storing --------------------------------------------------------------

    @classmethod
    def create(
        cls,
        store: Store,
        settings: Settings,
        name: str,
        seed: int | None = None,
        room_id: str | None = None,
        *,
        seeded: bool | None = None,
        browser: str | None = None,
        first: FirstDeal | None = None,
        seat: int = HOST,
        daily: str | None = None,
        address: str | None = None,
        owner: str = "",
        lobby: bool = False,
        open_table: bool = False,
    ) -> tuple[Room, str]:
        """A new room, ``name`` at ``seat`` (0) and computers at the others; returns it and
        the seat's token.

        ``seed``: the room's number (``None``: a number below :data:`MAX_NUMBER` from the
        OS's randomness). ``seeded``: the number was chosen by a player, so it is shown to
        everyone (by default: whenever ``seed`` is given). ``first``: the game's first deal
        given outright (a shared deal, :mod:`gongzhu.web.deal_codes`); ``daily``: the day
        whose deal this is (its result goes on that day's board). ``browser``,
        ``address``: the creator's browser id and address (one browser, one seat:
        :meth:`plan_sit`). ``owner``: who keeps it in the store
        (:func:`gongzhu.web.store.owner_of` of the creator's address). ``lobby``: the table
        waits for friends to sit; nothing is played until the host starts
        (:meth:`plan_start`). ``open_table``: such a table is listed among the open tables
        while :meth:`listed` (never a table that does not wait: refused)."""
        if open_table and not lobby:
            raise WebError("bad-message", "only a table that waits for friends can be open")
        name = check_name(name)
        chosen = seed is not None
        if seed is None:
            seed = secrets.randbelow(MAX_NUMBER)
        token = secrets.token_urlsafe(24)
        mark = None if browser is None else hash_token("browser:" + browser)
        names, kinds = list(COMPUTER_NAMES), ["computer"] * (SEATS - 1)
        names.insert(seat, name)
        kinds.insert(seat, "human")
        tokens: list[str | None] = [None] * SEATS
        tokens[seat] = hash_token(token)
        browsers: list[str | None] = [None] * SEATS
        browsers[seat] = mark
        addresses: list[str | None] = [None] * SEATS
        addresses[seat] = _address_mark(address)
        meta: dict[str, Any] = {
            "version": 1,
            "browsers": browsers,
            "addresses": addresses,
            "seed": seed,
            "seeded": chosen if seeded is None else seeded,
            "random": not chosen,
            "played": False,
            "settings": settings.to_dict(),
            "names": names,
            "kinds": kinds,
            "tokens": tokens,
            "game": 1,
            "event": 1,
            "position": 1,
            "created": time.time(),
            "lobby": lobby,
            "open": open_table,
            "listed": False,  # its host is not at the table yet
        }
        if first is not None:
            meta["first"] = first.to_dict()
        if daily is not None:
            meta["daily"] = daily
        for _ in range(5):
            rid = room_id or secrets.token_urlsafe(9)
            if store.create(rid, meta, owner=owner):
                return cls(store, rid, meta, []), token
            if room_id is not None:
                break
        raise WebError("room-full", "could not allocate a room id")

    @classmethod
    def load(cls, store: Store, room_id: str) -> Room | None:
        """The stored room, rebuilt; ``None`` if there is none."""
        found = store.load(room_id)
        if found is None:
            return None
        meta, log = found
        return cls(store, room_id, meta, log)

    def _meta(self, change: Change | None = None) -> dict[str, Any]:
        c = change or self._change()
        fresh = c.reset  # a new game: a new number, shown at its end
        out: dict[str, Any] = {
            "version": 1,
            "seed": c.seed,
            "seeded": self.seeded and not fresh,
            "random": self.random_seed or fresh,
            "played": self.played or bool(c.entries) or c.reset,
            "settings": self.settings.to_dict(),
            "names": list(c.names),
            "kinds": list(c.kinds),
            "tokens": list(c.tokens),
            "browsers": list(c.browsers),
            "auto": list(c.auto),
            "addresses": list(c.addresses),
            "closed": [None if k is None else list(k) for k in c.closed],
            "seen": list(c.seen),
            "moved": list(c.moved),
            "game": self.game + 1 if fresh else self.game,
            "table_game": c.table.game,
            "event": c.event,
            "position": c.position,
            "created": self.created,
            "lobby": c.lobby,
            "pace": c.pace,
            "undos": list(c.undos),
            "open": self.open_table,
            "listed": self.listed(c),
        }
        if c.table.first is not None:
            out["first"] = c.table.first.to_dict()
        if self.daily is not None:
            out["daily"] = self.daily
        return out

    def meta(self) -> dict[str, Any]:
        """The stored facts (what :meth:`load` reads back)."""
        return self._meta()

    def listed(self, change: Change | None = None) -> bool:
        """The room is among the open tables (its stored meta says ``"listed": true``; the
        store indexes it, :meth:`Store.listed <gongzhu.web.store.Store.listed>`): an open
        table that waits for its host's start, with a seat a computer holds, and its host
        at the table (in this process or, with a shared store, another). A table leaves
        the list when it deals, fills up, its host leaves, or it is deleted; it is
        written with every change, and a host coming or going is one (a touch)."""
        c = change or self._change()
        return (
            self.open_table
            and c.lobby
            and "computer" in c.kinds
            and c.kinds[HOST] == "human"
            and self.here(HOST, time.monotonic())
        )

    def _change(self, **changes: Any) -> Change:
        now = Change(
            table=self.table,
            names=tuple(self.names),
            kinds=tuple(self.kinds),
            tokens=tuple(self.tokens),
            seed=self.seed,
            event=self.event,
            position=self.position,
            start=self.log_length,
            skipping=self.skipping,
            browsers=tuple(self.browsers),
            auto=tuple(self.auto),
            addresses=tuple(self.addresses),
            closed=tuple(None if k is None else (k[0], k[1]) for k in self.closed),
            seen=tuple(self.seen_events),
            moved=tuple(self.moved),
            lobby=self.lobby,
            pace=self.pace,
            undos=tuple(self.undos),
        )
        return attrs.evolve(now, **changes) if changes else now

    def _next(self, *, sealed_by: int | None = None, moves: bool = False, **changes: Any) -> Change:
        """The next change (the store's ``event`` one on), counted for whom may see it: a
        sealed exposure decision for its maker alone, anything else for every recipient
        (:meth:`seen`). ``moves``: the table moved on, so requests answering an earlier
        event are stale (:meth:`check_event`)."""
        event = self.event + 1
        seen = list(self.seen_events)
        for r in range(len(seen)):
            if sealed_by is None or r == sealed_by:
                seen[r] += 1
        return self._change(
            event=event,
            position=event if moves else self.position,
            seen=tuple(seen),
            moved=tuple(seen) if moves else tuple(self.moved),
            **changes,
        )

    def write(self, change: Change) -> None:
        """Store ``change`` (:class:`StoreError` if the store refuses or fails); the room
        itself does not change (:meth:`commit` does that). Safe in a worker thread."""
        self.store.save(
            self.id,
            self._meta(change),
            change.start,
            list(change.entries),
            reset=change.reset or change.rewrite,
        )

    def commit(self, change: Change) -> None:
        """Keep a change that was stored (no await inside: one step on the event loop)."""
        if change.reset:
            self._strategies = {}
            self.game += 1
            self.seeded, self.random_seed = False, True
        self.played = self.played or bool(change.entries) or change.reset
        self.table = change.table
        self.seed = change.seed
        self.names, self.kinds = list(change.names), list(change.kinds)
        self.tokens = list(change.tokens)
        self.browsers = list(change.browsers)
        self.auto = list(change.auto)
        self.addresses = list(change.addresses)
        self.closed = [None if k is None else list(k) for k in change.closed]
        self.seen_events, self.moved = list(change.seen), list(change.moved)
        self.event, self.position = change.event, change.position
        self.skipping = change.skipping
        self.lobby = change.lobby
        self.pace = change.pace
        self.undos = list(change.undos)

    def keep(self, change: Change) -> Change:
        """:meth:`write` then :meth:`commit` (the synchronous path)."""
        self.write(change)
        self.commit(change)
        return change

    def plan_touch(self) -> Change:
        """Count a change that is not a move (a seat connected or left); stored too."""
        return self._next()

    def touch(self) -> None:
        self.keep(self.plan_touch())

    # -- seats -----------------------------------------------------------------------------

    def resume(self, token: object) -> int | None:
        """The seat whose token this is, compared in constant time; ``None`` if none."""
        if not isinstance(token, str):
            return None
        digest = hash_token(token)
        found = None
        for seat, stored in enumerate(self.tokens):
            # Every seat is compared, so the time does not tell which one matched.
            if hmac.compare_digest(digest, stored or "") and stored is not None:
                found = seat
        return found

    def here(self, seat: int, now: float) -> bool:
        """The seat's player is connected, to this process or (a shared store) another."""
        return self.connected[seat] > 0 or self.elsewhere[seat] > now

    def gone_at(self, seat: int) -> float:
        """Since when the seat's player has been gone from every process (monotonic)."""
        return max(self.gone_since[seat], self.elsewhere[seat])

    def _gone_long(self, seat: int, now: float, takeover: float) -> bool:
        return not self.here(seat, now) and now - self.gone_at(seat) >= takeover

    def seat_free(self, seat: int, now: float, takeover: float) -> bool:
        """A computer holds it. A human's seat goes only to its token's holder, even when
        a computer plays it for them (gone past ``takeover``): it becomes free again only
        when it is given back to the computer."""
        return self.kinds[seat] == "computer"

    def plan_sit(
        self,
        seat: int,
        name: str,
        now: float,
        takeover: float,
        browser: str | None = None,
        address: str | None = None,
    ) -> Change:
        """Give ``seat`` to a newcomer called ``name`` (its new token in the change).

        ``browser``: the newcomer's browser id; a browser holds at most one seat here.
        ``address``: where it connects from (:func:`~gongzhu.web.hub.client_key`): a
        newcomer without a browser id (a script, a socket without the cookie) is refused
        a seat at a table where a player from the same address already sits, so a plain
        second socket is no second seat. A seat given back to the computer in the middle
        of a deal stays the computer's until the deal ends: its hand was a player's."""
        if not self.seat_free(seat, now, takeover):
            raise WebError("seat-taken", f"seat {seat} is taken")
        if self.closed[seat] == [self.game, self.deal_no] and not self.round.is_over:
            raise WebError(
                "seat-taken", f"seat {seat} is played by the computer until this deal ends"
            )
        mark = None if browser is None else hash_token("browser:" + browser)
        if mark is not None and mark in self.browsers:
            self._one_seat(self.browsers.index(mark), "this browser")
        where = _address_mark(address)
        if mark is None and where is not None and where in self.addresses:
            self._one_seat(self.addresses.index(where), "a player from your address")
        token = secrets.token_urlsafe(24)
        kinds, names, tokens = list(self.kinds), list(self.names), list(self.tokens)
        browsers, addresses = list(self.browsers), list(self.addresses)
        kinds[seat], names[seat], tokens[seat] = "human", check_name(name), hash_token(token)
        browsers[seat], addresses[seat] = mark, where
        auto = list(self.auto)
        auto[seat] = False
        return self._next(
            kinds=tuple(kinds),
            names=tuple(names),
            tokens=tuple(tokens),
            browsers=tuple(browsers),
            addresses=tuple(addresses),
            auto=tuple(auto),
            token=token,
        )

    def _one_seat(self, held: int, who: str) -> None:
        if self.kinds[held] == "human":
            raise WebError(
                "seat-taken",
                f"{who} already holds seat {held} at this table (one seat each)",
                {"seat": held},
            )

    def plan_release(self, by: int, seat: int, now: float, takeover: float) -> Change:
        """Seat ``by`` gives seat ``seat``, whose player has been away past the takeover
        countdown, back to the computer (its token stops working; the seat is free to
        take, after the deal in progress). Only the host (seat :data:`HOST`, the room's
        creator) may."""
        if by != HOST:
            raise WebError("bad-message", "only the host may give a seat back to the computer")
        if self.kinds[by] != "human" or self.kinds[seat] != "human" or by == seat:
            raise WebError("bad-message", "only another player's seat can be given back")
        if self.here(seat, now):
            raise WebError("seat-taken", f"seat {seat}'s player is here")
        if not self._gone_long(seat, now, takeover):
            left = self.takeover_in(seat, now, takeover)
            raise WebError(
                "seat-taken", f"seat {seat}'s player may come back for {left} more seconds"
            )
        kinds, tokens, browsers = list(self.kinds), list(self.tokens), list(self.browsers)
        addresses, closed = list(self.addresses), list(self.closed)
        kinds[seat], tokens[seat], browsers[seat], addresses[seat] = "computer", None, None, None
        if not self.round.is_over:  # its hand is the player's until the deal ends
            closed[seat] = [self.game, self.deal_no]
        return self._next(
            kinds=tuple(kinds),
            tokens=tuple(tokens),
            browsers=tuple(browsers),
            addresses=tuple(addresses),
            closed=tuple(None if k is None else (k[0], k[1]) for k in closed),
        )

    def sit(self, seat: int, name: str, now: float, takeover: float) -> str:
        """Give ``seat`` to a newcomer called ``name``; return its new token."""
        token = self.keep(self.plan_sit(seat, name, now, takeover)).token
        assert token is not None
        return token

    def plan_autoplay(self, seat: int, on: bool) -> Change | None:
        """Seat ``seat``'s player lets the computer play for them (托管) or takes the
        seat back; ``None`` if that is already so. Kept in the store: it lasts until
        they turn it off, across reloads and restarts."""
        if self.kinds[seat] != "human":
            raise WebError("bad-message", "only a player's own seat can be handed over")
        if self.auto[seat] == on:
            return None
        auto = list(self.auto)
        auto[seat] = on
        return self._next(auto=tuple(auto))

    def plan_rename(self, seat: int, name: str) -> Change | None:
        if self.names[seat] == name:
            return None
        names = list(self.names)
        names[seat] = name
        return self._next(names=tuple(names))

    def rename(self, seat: int, name: str) -> None:
        change = self.plan_rename(seat, name)
        if change is not None:
            self.keep(change)

    def autoplay(self, seat: int, now: float, takeover: float) -> bool:
        """A computer plays this seat now: a computer seat, a skipped deal, or a human gone long."""
        if self.kinds[seat] == "computer" or self.skipping or self.auto[seat]:
            return True
        return self._gone_long(seat, now, takeover)

    def declines_for(self, seat: int) -> bool:
        """An exposure decision the server makes for a human seat: it holds nothing it
        could expose (source 001 shows the panel only to a holder)."""
        rnd = self.round
        return (
            rnd.phase is Phase.EXPOSURE
            and seat in rnd.exposure_pending
            and not self.exposure_options(seat)
        )

    def acts_for(self, seat: int, now: float, takeover: float) -> bool:
        """The server decides for this seat now: :meth:`autoplay`, or an exposure decision
        with nothing to expose (:meth:`declines_for`; the server waits a human-like pause
        before it, :mod:`gongzhu.web.driver`)."""
        if self.autoplay(seat, now, takeover):
            return True
        return self.declines_for(seat)

    def humans(self) -> list[int]:
        return [s for s in range(SEATS) if self.kinds[s] == "human"]

    # -- what computers must do ------------------------------------------------------------

    def waiting_seats(self) -> list[int]:
        """The seats the game waits for now (:func:`gongzhu.ai.driver.awaiting`)."""
        return list(awaiting(self.round))

    def next_computer(
        self, now: float, takeover: float, decline_at: Sequence[float] = ()
    ) -> tuple[int | None, float | None]:
        """(a seat a computer must act for now, or None; seconds until one may, or None).

        ``decline_at``: per seat, when (``now``'s clock) the server may decline the
        exposure of a human who holds nothing to expose (:meth:`declines_for`)."""
        if self.lobby:
            return None, None  # nobody plays before the host starts the deal
        wait: float | None = None
        for seat in self.waiting_seats():
            if (
                decline_at
                and not self.autoplay(seat, now, takeover)
                and self.declines_for(seat)
                and now < decline_at[seat]
            ):
                left = decline_at[seat] - now
                wait = left if wait is None else min(wait, left)
                continue
            if self.acts_for(seat, now, takeover):
                return seat, None
            if self.connected[seat] == 0:
                # Gone, or here only in another process's report, which may lapse (that
                # process died): either way, look again when the takeover would be due.
                left = self.gone_at(seat) + takeover - now
                wait = left if wait is None else min(wait, left)
        return None, (max(wait, 0.0) if wait is not None else None)

    def strategy(self, seat: int) -> Strategy:
        """The computer of ``seat`` for the deal in progress, seeded from the deal itself:
        a deal replayed from its code (:mod:`gongzhu.web.deal_codes`) meets the same
        computers as where it was first played."""
        key = (self.table.round.seed, seat)
        found = self._strategies.get(key)
        if found is None:
            tag = f"gongzhu-web:deal:{self.table.round.seed}:bot{seat}"
            found = self.settings.strategy(random.Random(tag).getrandbits(48))
            self._strategies = {k: v for k, v in self._strategies.items() if k[0] == key[0]}
            self._strategies[key] = found
        return found

    @staticmethod
    def decide(rnd: Round, seat: int, strategy: Strategy) -> Action:
        """The computer's action for ``seat`` in ``rnd`` (:func:`gongzhu.ai.driver.decide`,
        the library's one turn driver; pure, may take a moment: run it aside)."""
        return decide(rnd, seat, strategy)

    # -- changes ---------------------------------------------------------------------------

    def seen(self, recipient: int | None) -> int:
        """The event counter of a seat (``None``: of a watcher): it moves only with what
        that recipient may see, so another seat's sealed exposure decision changes
        nothing it is sent (specification §9.2). Every message to it carries this number."""
        return self.seen_events[SEATS if recipient is None else recipient]

    def check_event(self, seat: int | None, event: int) -> None:
        """Refuse (``stale``) a request of ``seat`` answering an older position than the
        room's (``event`` is the seat's own counter, :meth:`seen`)."""
        r = SEATS if seat is None else seat
        if event < self.moved[r] or event > self.seen_events[r]:
            raise WebError(
                "stale",
                f"the table has moved on (event {event}, position {self.moved[r]})",
                {"event": self.seen_events[r], "position": self.moved[r]},
            )

    def act(self, seat: int, data: dict[str, Any]) -> None:
        """Seat ``seat`` does the library action ``data`` (its dict form; the seat may be
        left out): the synchronous path (tests, scripts)."""
        self.apply(Act.read({"event": 0, "action": data}).by(seat))

    def plan_apply(self, action: Action) -> Change:
        """A checked action (a computer's, or a human's: :class:`~gongzhu.web.messages.Act`)."""
        self._check_started(action.seat, "play")
        if self.log_length >= MAX_LOG:
            raise WebError("room-full", "this game's log is full")
        event = self.event + 1
        table = self.table.apply(action, {"e": event})  # IllegalActionError: nothing changed
        # A sealed exposure decision (the window still open) changes nothing another
        # seat may see or answer: it does not make their pending requests stale, and only
        # its maker's counter moves.
        sealed = self.sealed(action, table.round)
        return self._next(
            sealed_by=action.seat if sealed else None,
            moves=not sealed,
            table=table,
            entries=(table.log[-1],),
            skipping=self.skipping and not table.round.is_over,
        )

    @staticmethod
    def sealed(action: Action, after: Round) -> bool:
        """An exposure decision made while the window stays open (specification §9.2): only
        its maker may learn of it before the window closes."""
        return isinstance(action, Exposure) and after.phase is Phase.EXPOSURE

    def apply(self, action: Action) -> None:
        self.keep(self.plan_apply(action))

    def plan_next(self, seat: int) -> Change:
        """After a deal: deal the next. During one: skip it (the sender alone)."""
        self._check_started(seat, "next")
        if self.match.is_over:
            raise IllegalActionError(
                Reason.WRONG_PHASE, seat, detail="the game is over", action="next"
            )
        if not self.round.is_over:
            if self.humans() != [seat]:
                raise WebError("not-alone", "a deal is skipped only by a player alone")
            return self._next(skipping=True)
        table = self.table.next_deal(seat, {"e": self.event + 1})
        return self._next(moves=True, table=table, entries=(table.log[-1],), skipping=False)

    def next_deal(self, seat: int) -> bool:
        """After a deal: deal the next. During one: skip it (the sender alone). True if skipping."""
        return self.keep(self.plan_next(seat)).skipping

    def plan_new_game(self, seat: int) -> Change:
        """After game over: the same settings, a new game (the log starts afresh) with a
        new number, drawn at random and shown at its end: typed into the start screen, it
        deals that game (game 1 of the number)."""
        self.table.new_game(seat)  # refused unless the game is over
        seed = secrets.randbelow(MAX_NUMBER)
        table = Table.start(self.rules, seed, 1)
        return self._next(moves=True, table=table, seed=seed, start=0, reset=True, undos=())

    def _check_started(self, seat: int | None, what: str) -> None:
        if self.lobby:
            raise IllegalActionError(
                Reason.WRONG_PHASE, seat, detail="the host has not started the deal", action=what
            )

    def plan_start(self, seat: int) -> Change:
        """The host starts the first deal of a table that waited for friends: the cards
        (dealt from the room's seed) go to whoever sits now, nobody has taken anything."""
        if seat != HOST:
            raise WebError("bad-message", "only the host starts the deal")
        if not self.lobby:
            raise WebError("stale", "the deal has started", {"event": self.seen(seat)})
        return self._next(moves=True, lobby=False)

    def plan_pace(self, pace: str) -> Change | None:
        """The table's speed (any seated player may set it); ``None`` if already so."""
        if pace not in PACES:
            raise WebError("bad-message", f"pace must be one of {', '.join(PACES)}")
        if pace == self.pace:
            return None
        return self._next(pace=pace)

    def start(self, seat: int) -> None:
        self.keep(self.plan_start(seat))

    # -- taking a card back -----------------------------------------------------------------

    def last_card(self, seat: int) -> int | None:
        """Where (an index of the log) the seat's last card of the deal in progress was
        played; ``None`` if it has played none (or the deal is over)."""
        table = self.table
        if table.round.is_over:
            return None
        for index in range(self.log_length - 1, table.deal_start - 1, -1):
            action = table.log[index].get("a")
            if (
                isinstance(action, dict)
                and action.get("type") == "play"
                and action.get("seat") == seat
            ):
                return index
        return None

    def may_undo(self, seat: int | None) -> bool:
        """Seat ``seat`` may take its last card back now (:meth:`plan_undo` would not refuse)."""
        return (
            seat is not None
            and not self.lobby
            and self.humans() == [seat]
            and not self.skipping
            and not self.auto[seat]
            and self.last_card(seat) is not None
        )

    def plan_undo(self, seat: int, event: int | None = None) -> Change:
        """Take back seat ``seat``'s last card of the deal in progress and every card the
        computers played after it: the table goes back to where the player chose that card
        (:meth:`Table.take_back <gongzhu.table.Table.take_back>`: the deal replayed from its
        start without them). Only for a player alone at the table (every other seat a
        computer; ``not-alone`` otherwise), while the deal is being played and after the
        player's first card of it (``illegal`` otherwise). The deal's take-backs are
        counted (:attr:`undos`); the stored log is rewritten (:attr:`Change.rewrite`).

        ``event``: the seat's counter (:meth:`seen`) when the player asked. The request
        means "my last card", so cards the computers played since then do not make it
        stale (they are taken back with it); it is refused ``stale`` only if that card is
        no longer the player's last one: the player has played again since, or the
        position they saw is gone (a card taken back already, the next deal)."""
        self._check_started(seat, "undo")
        if self.humans() != [seat]:
            raise WebError("not-alone", "a card is taken back only by a player alone")
        cut = self.last_card(seat)
        if event is not None and not self._still_last_card(seat, event, cut):
            self.check_event(seat, event)  # stale, unless nothing has moved since
        if self.round.is_over:
            raise IllegalActionError(
                Reason.WRONG_PHASE, seat, detail="the deal is over", action="undo"
            )
        if self.skipping or self.auto[seat]:
            raise IllegalActionError(
                Reason.WRONG_PHASE, seat, detail="the computer plays this hand", action="undo"
            )
        if cut is None:
            raise IllegalActionError(
                Reason.WRONG_PHASE, seat, detail="no card of yours to take back", action="undo"
            )
        table = self.table.take_back(cut)
        undos = [*self.undos, *[0] * (self.deal_no - len(self.undos))]
        undos[self.deal_no - 1] += 1
        return self._next(
            moves=True,
            table=table,
            start=0,
            entries=tuple(table.log),
            rewrite=True,
            undos=tuple(undos),
        )

    def _still_last_card(self, seat: int, event: int, cut: int | None) -> bool:
        """Whether log entry ``cut`` (the seat's last card now, :meth:`last_card`) was
        already its last card at the seat's event ``event``: the player saw that card
        played, and every move since is a card logged after it (the computers' cards, as
        the player's last card is the last of that seat). A take-back, a new game or the
        host's start writes no entry, so a move that is not the log's last entry means
        the position the player saw is gone."""
        log = self.table.log
        if cut is None or event > self.seen(seat) or self.position != log[-1].get("e"):
            return False
        played = log[cut].get("e")
        # The seat's counter when that card was played: the room's event then, less the
        # gap between the room's event and the seat's counter, which is the same now,
        # since only a sealed exposure decision moves one without the other and those
        # are all made before a deal's first card.
        gap = self.event - self.seen(seat)
        return isinstance(played, int) and played - gap <= event

    def undo(self, seat: int, event: int | None = None) -> None:
        self.keep(self.plan_undo(seat, event))

    def undos_of(self, deal_no: int) -> int:
        """How many cards were taken back in deal ``deal_no`` of this game."""
        return self.undos[deal_no - 1] if 0 < deal_no <= len(self.undos) else 0

    def new_game(self, seat: int) -> None:
        self.keep(self.plan_new_game(seat))

    # -- what clients are sent (built in gongzhu.web.room_client) ----------------------------

    def shown_seed(self) -> str | None:
        return room_client.shown_seed(self)

    def info(self, now: float, takeover: float, *, rules: bool = True) -> dict[str, Any]:
        """ROOM (:func:`gongzhu.web.room_client.info`)."""
        return room_client.info(self, now, takeover, rules=rules)

    def takeover_in(self, seat: int, now: float, takeover: float) -> float | None:
        """Seconds before a computer takes the seat of a player who is away (0: it has);
        ``None`` for a computer's seat or a player who is here."""
        if self.kinds[seat] != "human" or self.here(seat, now):
            return None
        return round(max(0.0, self.gone_at(seat) + takeover - now), 1)

    def view(self, seat: int | None) -> dict[str, Any]:
        return room_client.view(self, seat)

    def exposure_options(self, seat: int | None) -> list[dict[str, Any]]:
        return room_client.exposure_options(self, seat)

    def game_over(self) -> dict[str, Any] | None:
        return room_client.game_over(self)

    def shown_seats(self, now: float, takeover: float) -> list[tuple[bool, bool]]:
        """Each seat's (connected, autoplay): what a push shows of presence (a push is
        due when it changes)."""
        return [(self.here(s, now), self.autoplay(s, now, takeover)) for s in range(SEATS)]

    def state(self, seat: int | None, now: float, takeover: float) -> State:
        """The ``state`` message (:func:`gongzhu.web.room_client.state`)."""
        return room_client.state(self, seat, now, takeover)

    def hint_view(self, seat: int) -> PlayerView:
        """The view a hint analyses; refused unless ``seat`` is to play a card now."""
        self._check_started(seat, "hint")
        rnd = self.round
        if rnd.phase is not Phase.PLAY:
            raise IllegalActionError(Reason.WRONG_PHASE, seat, action="hint")
        if rnd.to_act != seat:
            raise IllegalActionError(Reason.NOT_YOUR_TURN, seat, action="hint")
        return rnd.view(seat)

    def record_text(self) -> str:
        return room_client.record_text(self)
