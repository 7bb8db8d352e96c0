"""Rooms: one web table, rebuilt from its seed, settings, seats and action log through the engine.

A room is what the store holds (:mod:`gongzhu.web.store`): the room's seed,
its :class:`Settings` (the start screen of source 001: threshold, the
pig/sheep sign swap, exposure, the computers' level), the seats (names,
``human``/``computer``, hashed tokens), the game number, the event counter
and the log of the game in progress. Everything else — the match, the deal,
who is to act — is rebuilt by replaying the log through the library
(:func:`gongzhu.deal`, :meth:`Round.apply <gongzhu.Round.apply>`,
:class:`gongzhu.Match`); no rule of play is decided here.

Deal ``k`` of game 1 is dealt exactly as deal ``k`` of
:func:`gongzhu.play_match` with the same seed (later games derive their own
seeds), so a room seed replays the same cards; the computers decide from
their own views with seeded strategies, so the same human moves replay the
same game.

>>> from gongzhu.web.store import MemoryStore
>>> room, token = Room.create(MemoryStore(), Settings(threshold=500), "Ann", seed=7)
>>> room.deal_no, room.round.phase.name, room.names
(1, 'EXPOSURE', ['Ann', 'West', 'North', 'East'])
>>> room.resume(token), room.resume("wrong")
(0, None)
"""

from __future__ import annotations

import hashlib
import hmac
import math
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import attrs

from gongzhu.actions import Action, Exposure, Play
from gongzhu.ai.registry import make_strategy
from gongzhu.ai.search import Limit, SearchStrategy
from gongzhu.ai.strategies import Strategy, _deal_seed
from gongzhu.cards import CardSet
from gongzhu.dealing import deal
from gongzhu.errors import GongzhuError, IllegalActionError, ProtocolError, Reason
from gongzhu.match import Match
from gongzhu.phase import Phase
from gongzhu.record import GameRecord, dumps
from gongzhu.round import Round
from gongzhu.rules import RuleSet
from gongzhu.view import PlayerView
from gongzhu.web.messages import WebError, check_name

__all__ = [
    "LEVELS",
    "MAX_LOG",
    "SEATS",
    "THRESHOLDS",
    "Room",
    "Settings",
    "StoreError",
    "hash_token",
]

SEATS: Final = 4
LEVELS: Final = ("easy", "normal", "hard")
THRESHOLDS: Final = (500, 1000)
MAX_LOG: Final = 4000
"""The most log entries a game may hold (30 deals of 52 cards, exposures and "next" fit)."""
COMPUTER_NAMES: Final = ("West", "North", "East")
"""Source 001: "Вы сидите внизу, Запад, Север и Восток — компьютеры"."""
HINT_LIMIT: Final = Limit(simulations=300)
"""The hint's search: simulations only (deterministic, tens of milliseconds)."""
_LINES: Final = {"QS": "pig", "JD": "sheep", "TC": "transformer", "AH": "hearts"}


class StoreError(GongzhuError, RuntimeError):
    """A stored room cannot be read back, or a write conflicts with another server's."""


def hash_token(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256, hex (the token itself never is)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Settings:
    """The start screen (source 001): the end threshold, the sign swap, exposure, the level.

    >>> rules = Settings(threshold=500, exposure=False).rules()
    >>> rules.win_threshold, rules.loss_threshold, str(rules.exposable), rules.max_deals
    (500, -500, '', 30)
    """

    threshold: int = 1000
    sign_swap: bool = True
    exposure: bool = True
    level: str = "normal"

    def __post_init__(self) -> None:
        if type(self.threshold) is not int or self.threshold not in THRESHOLDS:
            raise WebError("bad-message", "threshold must be 500 or 1000")
        if not isinstance(self.sign_swap, bool) or not isinstance(self.exposure, bool):
            raise WebError("bad-message", "sign_swap and exposure must be true or false")
        if self.level not in LEVELS:
            raise WebError("bad-message", f"level must be one of {', '.join(LEVELS)}")

    def rules(self) -> RuleSet:
        """The ``online`` preset (source 001) with the toggles applied."""
        base = RuleSet.preset("online")
        return base.replace(
            win_threshold=self.threshold,
            loss_threshold=-self.threshold,
            sign_swap=self.sign_swap,
            exposable=base.exposable if self.exposure else "",
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "threshold": self.threshold,
            "sign_swap": self.sign_swap,
            "exposure": self.exposure,
            "level": self.level,
        }


def _view_dict(view: PlayerView) -> dict[str, Any]:
    return view.to_dict()


def public_view(rnd: Round) -> dict[str, Any]:
    """What a spectator sees: a view of no seat (``seat`` null, no hand), public facts only.

    Each seat's face-up exposures and face-down counts are taken from the view
    of another seat, so a sealed exposure (RULES.md §9.2) shows only once
    every seat may see it.

    >>> from gongzhu import SHEEP, deal
    >>> r = deal(RuleSet.preset("online"), seed=3)
    >>> holder = next(s for s, h in enumerate(r.hands) if SHEEP in h)
    >>> r = r.expose("JD", seat=holder)
    >>> v = public_view(r)
    >>> v["seat"], v["hand"], v["exposures"][holder]
    (None, [], [])
    """
    n = rnd.players
    views = [rnd.view(s) for s in range(n)]
    others = [views[(s + 1) % n] for s in range(n)]
    exposures = tuple(others[s].exposures[s] for s in range(n))
    counts = tuple(others[s].face_down_counts[s] for s in range(n))
    empty = CardSet()
    public = attrs.evolve(
        views[0],
        hand=empty,
        first_dealt=None,
        own_face_down=empty,
        legal_plays=empty,
        exposures=exposures,
        face_down_counts=counts,
    )
    out = public.to_dict()
    out["seat"] = None
    out["exposure_previews"] = []
    if any(counts):
        out["running_totals"] = None
    return out


class Room:
    """One table: the stored facts and the game rebuilt from them (see the module).

    Methods that change the room check first and raise (:class:`WebError`,
    :class:`~gongzhu.IllegalActionError`) before anything changes; each
    change bumps :attr:`event` and is written to the store at once.
    """

    def __init__(self, store: Any, room_id: str, meta: dict[str, Any], log: Sequence[Any]) -> None:
        self.store = store
        self.id = room_id
        try:
            self.seed: int = meta["seed"]
            self.settings = Settings(**meta["settings"])
            self.names: list[str] = list(meta["names"])
            self.kinds: list[str] = list(meta["kinds"])
            self.tokens: list[str | None] = list(meta["tokens"])
            self.game: int = meta["game"]
            self.event: int = meta["event"]
            self.position: int = meta["position"]
            self.created: float = meta.get("created", 0.0)
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
        self._strategies: dict[int, Strategy] = {}
        self._start_game()
        self.log_length = 0
        try:
            for entry in log:
                self._replay(entry)
                self.log_length += 1
        except (GongzhuError, KeyError, TypeError) as exc:
            raise StoreError(f"room {room_id}: the log does not replay ({exc})") from None

    # -- making and storing --------------------------------------------------------------

    @classmethod
    def create(
        cls,
        store: Any,
        settings: Settings,
        name: str,
        seed: int | None = None,
        room_id: str | None = None,
    ) -> tuple[Room, str]:
        """A new room, ``name`` at seat 0 and computers at 1-3; returns it and seat 0's token."""
        name = check_name(name)
        if seed is None:
            seed = secrets.randbits(48)
        token = secrets.token_urlsafe(24)
        meta = {
            "version": 1,
            "seed": seed,
            "settings": settings.to_dict(),
            "names": [name, *COMPUTER_NAMES],
            "kinds": ["human", "computer", "computer", "computer"],
            "tokens": [hash_token(token), None, None, None],
            "game": 1,
            "event": 1,
            "position": 1,
            "created": time.time(),
        }
        for _ in range(5):
            rid = room_id or secrets.token_urlsafe(9)
            if store.create(rid, meta):
                return cls(store, rid, meta, []), token
            if room_id is not None:
                break
        raise WebError("room-full", "could not allocate a room id")

    @classmethod
    def load(cls, store: Any, room_id: str) -> Room | None:
        """The stored room, rebuilt; ``None`` if there is none."""
        found = store.load(room_id)
        if found is None:
            return None
        meta, log = found
        return cls(store, room_id, meta, log)

    def meta(self) -> dict[str, Any]:
        """The stored facts (what :meth:`load` reads back)."""
        return {
            "version": 1,
            "seed": self.seed,
            "settings": self.settings.to_dict(),
            "names": list(self.names),
            "kinds": list(self.kinds),
            "tokens": list(self.tokens),
            "game": self.game,
            "event": self.event,
            "position": self.position,
            "created": self.created,
        }

    def _save(self, entries: Sequence[dict[str, Any]] = (), *, reset: bool = False) -> None:
        start = 0 if reset else self.log_length
        self.store.save(self.id, self.meta(), start, list(entries), reset=reset)
        self.log_length = start + len(entries)

    def touch(self) -> None:
        """Count a change that is not a move (a seat connected or left); stored too."""
        self.event += 1
        self._save()

    # -- the game, rebuilt -----------------------------------------------------------------

    def _match_seed(self) -> int | str:
        return self.seed if self.game == 1 else f"{self.seed}/game{self.game}"

    def _start_game(self) -> None:
        self.match = Match(self.rules)
        self.rounds: list[Round] = []
        self._strategies = {}
        self.deal_no = 0
        self._deal()

    def _deal(self) -> None:
        self.deal_no += 1
        m = self.match
        self.round = deal(
            self.rules,
            seed=_deal_seed(self._match_seed(), self.deal_no),
            leader=m.next_leader,
            dealer=m.dealer,
        )
        self.skipping = False

    def _advance(self, new: Round) -> None:
        self.round = new
        if new.is_over:
            self.rounds.append(new)
            self.match = self.match.add(new)
            self.skipping = False

    def _replay(self, entry: Any) -> None:
        if not isinstance(entry, dict):
            raise StoreError("a log entry is an object")
        if "a" in entry:
            self._advance(self.round.apply(Action.from_dict(entry["a"])))
        elif entry.get("next"):
            if not self.round.is_over or self.match.is_over:
                raise StoreError("'next' before the deal ended")
            self._deal()
        else:
            raise StoreError(f"unknown log entry {sorted(entry)}")

    @property
    def last_score(self) -> Any:
        """The finished deal's :class:`~gongzhu.DealScore` until the next deal, else ``None``."""
        return self.round.score() if self.round.is_over else None

    @property
    def is_over(self) -> bool:
        return self.match.is_over

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
        """A computer holds it, or its human has been gone ``takeover`` seconds."""
        if self.kinds[seat] == "computer":
            return True
        return self._gone_long(seat, now, takeover)

    def sit(self, seat: int, name: str, now: float, takeover: float) -> str:
        """Give ``seat`` to a newcomer called ``name``; return its new token."""
        if not self.seat_free(seat, now, takeover):
            raise WebError("seat-taken", f"seat {seat} is taken")
        token = secrets.token_urlsafe(24)
        self.kinds[seat] = "human"
        self.names[seat] = check_name(name)
        self.tokens[seat] = hash_token(token)
        self.event += 1
        self._save()
        return token

    def rename(self, seat: int, name: str) -> None:
        if self.names[seat] != name:
            self.names[seat] = name
            self.event += 1
            self._save()

    def autoplay(self, seat: int, now: float, takeover: float) -> bool:
        """A computer plays this seat now: a computer seat, a skipped deal, or a human gone long."""
        if self.kinds[seat] == "computer" or self.skipping:
            return True
        return self._gone_long(seat, now, takeover)

    def acts_for(self, seat: int, now: float, takeover: float) -> bool:
        """The server decides for this seat now: :meth:`autoplay`, or an exposure decision
        with nothing to expose (source 001 shows the panel only to a holder: a seat without
        an exposable card declines at once)."""
        if self.autoplay(seat, now, takeover):
            return True
        rnd = self.round
        return rnd.phase is Phase.EXPOSURE and not self.exposure_options(seat)

    def humans(self) -> list[int]:
        return [s for s in range(SEATS) if self.kinds[s] == "human"]

    # -- what computers must do ------------------------------------------------------------

    def waiting_seats(self) -> list[int]:
        """The seats the game waits for now (exposure decisions, or the seat to act)."""
        rnd = self.round
        if rnd.is_over:
            return []
        if rnd.phase is Phase.EXPOSURE:
            return list(rnd.exposure_pending)
        return [] if rnd.to_act is None else [rnd.to_act]

    def next_computer(self, now: float, takeover: float) -> tuple[int | None, float | None]:
        """(a seat a computer must act for now, or None; seconds until one may, or None)."""
        wait: float | None = None
        for seat in self.waiting_seats():
            if self.acts_for(seat, now, takeover):
                return seat, None
            if self.connected[seat] == 0:
                # Gone, or here only in another process's report, which may lapse (that
                # process died): either way, look again when the takeover would be due.
                left = self.gone_at(seat) + takeover - now
                wait = left if wait is None else min(wait, left)
        return None, (max(wait, 0.0) if wait is not None else None)

    def strategy(self, seat: int) -> Strategy:
        found = self._strategies.get(seat)
        if found is None:
            seed = random.Random(f"gongzhu-web:{self._match_seed()}:bot{seat}").getrandbits(48)
            # The levels are the registry's (easy, normal, hard), each deterministic for a seed.
            found = self._strategies[seat] = make_strategy(self.settings.level, seed)
        return found

    @staticmethod
    def decide(rnd: Round, seat: int, strategy: Strategy) -> Action:
        """The computer's action for ``seat`` in ``rnd`` (pure; may take a moment: run it aside)."""
        view = rnd.view(seat)
        if rnd.phase is Phase.EXPOSURE:
            if not view.exposure_previews:
                return Exposure(seat, CardSet())
            return Exposure(seat, strategy.choose_exposure(view))
        return Play(seat, strategy.choose_play(view, view.legal_plays))

    # -- changes ---------------------------------------------------------------------------

    def check_event(self, event: int) -> None:
        """Refuse (``stale``) a request answering an older position than the room's."""
        if event < self.position or event > self.event:
            raise WebError(
                "stale",
                f"the table has moved on (event {event}, position {self.position})",
                {"event": self.event, "position": self.position},
            )

    def _move(
        self, entries: list[dict[str, Any]], *, reset: bool = False, visible: bool = True
    ) -> None:
        self.event += 1
        if visible:
            self.position = self.event
        for entry in entries:
            entry["e"] = self.event
        self._save(entries, reset=reset)

    def act(self, seat: int, data: dict[str, Any]) -> None:
        """Seat ``seat`` does the library action ``data`` (its dict form; ``seat`` optional)."""
        if self.log_length >= MAX_LOG:
            raise WebError("room-full", "this game's log is full")
        if "seat" not in data:
            data = {**data, "seat": seat}
        elif data["seat"] != seat or type(data["seat"]) is not int:
            raise WebError("bad-message", f"an action is made by your own seat ({seat})")
        try:
            action = Action.from_dict(data)
        except ProtocolError as exc:
            raise WebError("bad-message", f"action: {exc}") from None
        self.apply(action)

    def apply(self, action: Action) -> None:
        """Apply a checked action (a computer's, or a human's through :meth:`act`)."""
        new = self.round.apply(action)  # IllegalActionError: nothing changed
        self._advance(new)
        # A sealed exposure decision (the window still open) changes nothing another
        # seat may see or answer: it does not make their pending requests stale.
        sealed = isinstance(action, Exposure) and new.phase is Phase.EXPOSURE
        self._move([{"a": action.to_dict()}], visible=not sealed)

    def next_deal(self, seat: int) -> bool:
        """After a deal: deal the next. During one: skip it (the sender alone). True if skipping."""
        if self.match.is_over:
            raise IllegalActionError(
                Reason.WRONG_PHASE, seat, detail="the game is over", action="next"
            )
        if not self.round.is_over:
            if self.humans() != [seat]:
                raise WebError("not-alone", "a deal is skipped only by a player alone")
            self.skipping = True
            self.event += 1
            self._save()
            return True
        self._deal()
        self._move([{"next": 1}])
        return False

    def new_game(self, seat: int) -> None:
        """After game over: the same settings, a new game (the log starts afresh)."""
        if not self.match.is_over:
            raise IllegalActionError(
                Reason.WRONG_PHASE, seat, detail="the game is not over", action="new_game"
            )
        self.game += 1
        self._start_game()
        self._move([], reset=True)

    # -- what clients are sent -------------------------------------------------------------

    def info(self, now: float, takeover: float) -> dict[str, Any]:
        """ROOM: the public room (settings, rules, seats, totals)."""
        m = self.match
        return {
            "id": self.id,
            "rules": self.rules.to_dict(),
            "rules_text": self.rules.describe(),
            "threshold": self.settings.threshold,
            "sign_swap": self.settings.sign_swap,
            "exposure": self.settings.exposure,
            "level": self.settings.level,
            "seats": [
                {
                    "name": self.names[s],
                    "kind": self.kinds[s],
                    "connected": self.here(s, now),
                    "autoplay": self.autoplay(s, now, takeover),
                }
                for s in range(SEATS)
            ],
            "totals": list(m.totals),
            "deals_played": m.deal_count,
            "max_deals": self.rules.max_deals,
            "game_no": self.game,
            "invite": f"/t/{self.id}",
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        """The seat's :meth:`PlayerView.to_dict <gongzhu.PlayerView.to_dict>` (None: public)."""
        if seat is None:
            return public_view(self.round)
        return _view_dict(self.round.view(seat))

    def exposure_options(self, seat: int | None) -> list[dict[str, Any]]:
        """The exposure panel's rows while ``seat`` still has to decide (source 001)."""
        rnd = self.round
        if seat is None or rnd.phase is not Phase.EXPOSURE or seat not in rnd.exposure_pending:
            return []
        return [
            {
                "card": p.card.code,
                "name": p.name,
                "line": _LINES.get(p.card.code, ""),
                "before": p.before,
                "after": p.after,
                "text": str(p),
            }
            for p in rnd.view(seat).exposure_previews
        ]

    def game_over(self) -> dict[str, Any] | None:
        m = self.match
        if not m.is_over:
            return None
        assert m.end_reason is not None
        return {
            "winners": list(m.winners),
            "losers": list(m.losers),
            "end_reason": m.end_reason.value,
        }

    def state(self, seat: int | None, now: float, takeover: float) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: a spectator)."""
        last = self.last_score
        return {
            "type": "state",
            "event": self.event,
            "room": self.info(now, takeover),
            "view": self.view(seat),
            "deal_no": self.deal_no,
            "exposure_options": self.exposure_options(seat),
            "last_score": last.to_dict() if last is not None else None,
            "game_over": self.game_over(),
        }

    def hint_view(self, seat: int) -> PlayerView:
        """The view a hint analyses; refused unless ``seat`` is to play a card now."""
        rnd = self.round
        if rnd.phase is not Phase.PLAY:
            raise IllegalActionError(Reason.WRONG_PHASE, seat, action="hint")
        if rnd.to_act != seat:
            raise IllegalActionError(Reason.NOT_YOUR_TURN, seat, action="hint")
        return rnd.view(seat)

    def record_text(self) -> str:
        """The finished deals of this game as a game record (:mod:`gongzhu.record`).

        Only complete deals: an unfinished one would show every hand.
        """
        if not self.rounds:
            raise WebError("not-found", "no finished deal yet")
        names: list[str] = []
        for name in self.names:
            candidate, k = name, 2
            while candidate.casefold() in (n.casefold() for n in names):
                candidate, k = f"{name} ({k})", k + 1
            names.append(candidate)
        return dumps(GameRecord.from_rounds(self.rounds, names=names))


def hint_cards(view: PlayerView, seed: int) -> list[dict[str, Any]]:
    """The search bot's expected deal score for each legal card (best first)."""
    analysis = SearchStrategy(HINT_LIMIT, seed=seed).analyse(view)
    return [
        {
            "card": m.card.code,
            "expected": round(m.expected, 2),
            "stderr": round(m.stderr, 2),
            "samples": m.samples,
        }
        for m in analysis.moves
    ]
