"""What a room sends its clients: the room (ROOM), a seat's or a watcher's view, the
``state`` message, the exposure panel's rows, the game record.

Functions of a :class:`~gongzhu.web.rooms.Room` that only read it (its
methods of the same names call them); the room's state changes are
:mod:`gongzhu.web.rooms`'s.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from gongzhu.errors import GongzhuError
from gongzhu.phase import Phase
from gongzhu.record import dumps
from gongzhu.round import Round
from gongzhu.rules import RuleSet
from gongzhu.table import Table, TableError
from gongzhu.web.deal_codes import code_of
from gongzhu.web.messages import State, WebError
from gongzhu.web.rule_numbers import rule_numbers
from gongzhu.web.settings import SEATS, Settings
from gongzhu.web.sheet import deal_history

__all__ = [
    "exposure_options",
    "game_over",
    "info",
    "public_view",
    "record_text",
    "shown_seed",
    "state",
    "view",
]


class RoomFacts(Protocol):
    """What these functions read of a :class:`gongzhu.web.rooms.Room`."""

    id: str
    event: int
    game: int
    seeded: bool
    names: list[str]
    kinds: list[str]
    rules: RuleSet
    settings: Settings
    table: Table
    lobby: bool
    open_table: bool
    pace: str
    watching: list[str]
    undos: list[int]

    def here(self, seat: int, now: float) -> bool: ...
    def autoplay(self, seat: int, now: float, takeover: float) -> bool: ...
    def takeover_in(self, seat: int, now: float, takeover: float) -> float | None: ...
    def seen(self, recipient: int | None) -> int: ...


MAX_WATCHER_NAMES: Final = 20
"""The most watchers' names a room lists (it counts them all)."""
_LINES: Final = {"QS": "pig", "JD": "sheep", "TC": "transformer", "AH": "hearts"}


def public_view(rnd: Round) -> dict[str, Any]:
    """What a spectator sees: a view of no seat (``seat`` null, no hand), public facts only,
    without the rule set (``to_dict(include_rules=False)``) and asked nothing (``pending`` null).

    It is :meth:`Round.view(None) <gongzhu.Round.view>`'s JSON (the engine core's
    spectator information): a sealed exposure (specification §9.2) shows only once
    every seat may see it.

    >>> from gongzhu import SHEEP, RuleSet, deal
    >>> r = deal(rules=RuleSet.preset("online"), seed=3)
    >>> holder = next(s for s, h in enumerate(r.hands) if SHEEP in h)
    >>> r = r.expose("JD", seat=holder)
    >>> v = public_view(r)
    >>> v["seat"], v["hand"], v["exposures"][holder], v["pending"]
    (None, [], [], None)
    """
    return rnd.view(None).to_dict(include_rules=False)


def shown_seed(room: RoomFacts) -> str | None:
    """The game's number as everyone may see it: a chosen one always, another once the
    game is over (then it replays the game); ``None`` before."""
    if room.table.first is not None:
        return None  # a shared deal replayed: its deal code names it, not a number
    if room.seeded or room.table.match.is_over:
        return str(room.table.match_seed)
    return None


def info(room: RoomFacts, now: float, takeover: float, *, rules: bool = True) -> dict[str, Any]:
    """ROOM: the public room (settings, rules, seats, totals).

    ``rules=False`` leaves the rule set (``rules``, ``rules_text``, ``rule_numbers``) out: a
    connection is sent it once, in its ``welcome``, not in every ``state``
    (the rules of a room never change)."""
    m = room.table.match
    out: dict[str, Any] = {"id": room.id}
    if rules:
        out["rules"] = room.rules.to_dict()
        out["rules_text"] = room.rules.describe()
        out["rule_numbers"] = rule_numbers(room.rules)
    return out | {
        "threshold": room.settings.threshold,
        "sign_swap": room.settings.sign_swap,
        "exposure": room.settings.exposure,
        "level": room.settings.level,
        "seats": [
            {
                "name": room.names[s],
                "kind": room.kinds[s],
                "connected": room.here(s, now),
                "autoplay": room.autoplay(s, now, takeover),
                "takeover_in": room.takeover_in(s, now, takeover),
            }
            for s in range(SEATS)
        ],
        "history": deal_history(room.table.rounds, room.table.match),
        "totals": list(m.totals),
        "deals_played": m.deal_count,
        "max_deals": room.rules.max_deals,
        "game_no": room.game,
        "deal_no": room.table.deal_no,
        "seed": shown_seed(room),
        "seeded": room.seeded,
        "invite": f"/t/{room.id}",
        "lobby": room.lobby,
        "open": room.open_table,
        "pace": room.pace,
        # Per deal of this game, deal 1 first: the cards its player took back.
        "undos": [room.undos[k] if k < len(room.undos) else 0 for k in range(room.table.deal_no)],
        "watchers": len(room.watching),
        "watcher_names": room.watching[:MAX_WATCHER_NAMES],
    }


def view(room: RoomFacts, seat: int | None) -> dict[str, Any]:
    """The seat's :meth:`PlayerView.to_dict <gongzhu.PlayerView.to_dict>` (None: public),
    without the rule set (the connection's ``welcome`` carries it). A table waiting
    for its host to start (``lobby``) shows nobody their cards yet."""
    rnd = room.table.round
    if seat is None or room.lobby:
        return _sealed(public_view(rnd), rnd, None)
    return _sealed(rnd.view(seat).to_dict(include_rules=False), rnd, seat)


def _sealed(shown: dict[str, Any], rnd: Round, seat: int | None) -> dict[str, Any]:
    """While the exposure window is open, a view that tells nothing of the others' sealed
    decisions, not even that they were made: who decided is the seat itself at most, and
    the action count counts its own. (The library's view may say who has decided,
    specification §9.2; the table does not, because its server declines for a seat with
    nothing to expose after a bounded pause: a seat still undecided past it would be seen
    to hold an exposable card.)"""
    if rnd.phase is not Phase.EXPOSURE:
        return shown
    own = [a for a in rnd.history if a.seat == seat]
    return shown | {
        "exposure_decided": [seat] if own and seat in rnd.exposure_decided else [],
        "history_length": len(own),
    }


def exposure_options(room: RoomFacts, seat: int | None) -> list[dict[str, Any]]:
    """The exposure panel's rows while ``seat`` still has to decide (source 001)."""
    rnd = room.table.round
    if seat is None or room.lobby:
        return []
    if rnd.phase is not Phase.EXPOSURE or seat not in rnd.exposure_pending:
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


def game_over(room: RoomFacts) -> dict[str, Any] | None:
    m = room.table.match
    if not m.is_over:
        return None
    assert m.end_reason is not None
    return {
        "winners": list(m.winners),
        "losers": list(m.losers),
        "end_reason": m.end_reason.value,
    }


def state(room: RoomFacts, seat: int | None, now: float, takeover: float) -> State:
    """The ``state`` message for ``seat`` (``None``: a spectator)."""
    last = room.table.last_score
    return State(
        event=room.seen(seat),
        room=info(room, now, takeover, rules=False),
        view=view(room, seat),
        deal_no=room.table.deal_no,
        exposure_options=exposure_options(room, seat),
        last_score=last.to_dict() if last is not None else None,
        game_over=game_over(room),
        # The finished deal's code (gongzhu.web.deal_codes): only once it is over, as
        # it deals every hand.
        deal_code=deal_code(room, seat) if last is not None else None,
        daily=getattr(room, "daily", None),
        shared=room.table.first is not None,  # a shared deal replayed (its own game)
    )


def deal_code(room: RoomFacts, seat: int | None) -> str | None:
    """The code of the deal just finished, as played from ``seat`` (a watcher: seat 0)."""
    try:
        return code_of(room.table.round, seat or 0, room.settings)
    except (WebError, GongzhuError):
        return None


def record_text(room: RoomFacts) -> str:
    """The finished deals of this game as a game record (:mod:`gongzhu.record`).

    Only complete deals: an unfinished one would show every hand.
    """
    if not room.table.rounds:
        raise WebError("not-found", "no finished deal yet")
    names: list[str] = []
    for name in room.names:
        candidate, k = name, 2
        while candidate.casefold() in (n.casefold() for n in names):
            candidate, k = f"{name} ({k})", k + 1
        names.append(candidate)
    try:
        return dumps(room.table.record(names))
    except TableError as exc:
        raise WebError("not-found", str(exc)) from None
