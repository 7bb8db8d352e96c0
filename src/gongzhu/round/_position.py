"""What a :class:`~gongzhu.Round` reports: its position, what is legal, views and the score.

The base class of :class:`~gongzhu.Round` (private: import ``Round``); the actions
that make the next Round live in :mod:`gongzhu.round._round`.
"""

from __future__ import annotations

import warnings
from typing import Final, NoReturn

from gongzhu._codec import encoding as _encoding
from gongzhu._core import play as _p
from gongzhu._core.play import legal as _legal
from gongzhu._core.play import legal_ids as _legal_ids
from gongzhu._core.play import play_ids as _play_ids
from gongzhu._core.rules import card_factor as _card_factor
from gongzhu._core.state import (
    CLAIM,
    CLAIMING,
    COMPLETE,
    EXPOSE,
    HEARTS_BROKEN,
    PLAY,
    PLAYING,
    State,
    decision_parts,
    entries,
    trick_cards,
)
from gongzhu.actions import Action, Claim, ClaimResponse, Exposure, Play
from gongzhu.cards import Card, CardSet, Suit, unchecked_cardset
from gongzhu.errors import DealNotOverError, IllegalActionError, Reason
from gongzhu.phase import Phase as Phase
from gongzhu.round._checks import (
    _check_seat,
    _is_seat,
    _to_card,
)
from gongzhu.round._config import _REASONS
from gongzhu.rules import RuleSet
from gongzhu.scoring import DealScore, score_of_state
from gongzhu.trick import Trick as Trick
from gongzhu.trick import trusted_trick, trusted_tricks
from gongzhu.view import PlayerView as PlayerView

__all__: list[str] = []

_CARDS: Final = tuple(Card.from_index(i) for i in range(52))
_new = object.__new__


def _action(entry: int) -> Action:
    """The public record of one core log entry."""
    kind, seat, arg = entry & 3, entry >> 2 & 7, entry >> 5
    if kind == PLAY:
        return Play(seat, _CARDS[arg])
    if kind == EXPOSE:
        _seat, up, down, blind = decision_parts(entry)
        return Exposure(
            seat, unchecked_cardset(up | down), unchecked_cardset(down) if up else bool(down), blind
        )
    if kind == CLAIM:
        return Claim(seat)
    return ClaimResponse(seat, bool(arg))  # RESPOND


def _actor(s: State) -> int:
    """The seat whose decision comes next (``-1`` once the deal is complete).

    While exposure is open: the first undecided seat in play order from the
    leader (under in-turn order the only one that may decide; under
    simultaneous order the others may too). While a claim is pending: the
    next seat to answer it.
    """
    done = s.done
    t = s.table
    if done == PLAYING:
        if not s.trick and not s.tricks and _p.exposure_open(s):
            for i in range(t.n):
                seat = (s.leader + i) % t.n
                if not t.decided >> seat & 1:
                    return seat
        return (s.leader + (s.trick & 7)) % t.n
    if done == CLAIMING:
        return _p.next_to_respond(s)
    return -1


class _Position:
    """The read-only half of :class:`~gongzhu.Round` (its members are documented there)."""

    __slots__ = ("_s",)
    _s: State

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"Round is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"Round is immutable: cannot delete {name!r}")

    @property
    def engine_state(self) -> State:
        """This position as the engine core's immutable state, for engines built on the
        core (:class:`~gongzhu.Board`, :mod:`gongzhu.vector`); see
        :meth:`Round.from_engine_state`. Read it, never change it."""
        return self._s

    # -- what is expected next ----------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        """The rule set this deal is played under."""
        rules: RuleSet = self._s.table.cfg.owner  # type: ignore[assignment]
        return rules

    @property
    def phase(self) -> Phase:
        """What is expected next (see :class:`~gongzhu.Phase`)."""
        s = self._s
        if s.done == COMPLETE:
            return Phase.COMPLETE
        if s.done != PLAYING:
            return Phase.CLAIM
        return Phase.EXPOSURE if _p.exposure_open(s) else Phase.PLAY

    @property
    def is_over(self) -> bool:
        """True once the deal is over (all tricks played, or ended early by a rule):
        :meth:`score` works. The same name as :attr:`Match.is_over <gongzhu.Match.is_over>`
        and :attr:`Board.is_over <gongzhu.Board.is_over>`."""
        return self._s.done == COMPLETE

    @property
    def is_complete(self) -> bool:
        """Deprecated (0.2; removed in 0.3): use :attr:`is_over`, the name ``Match`` and
        ``Board`` use."""
        warnings.warn(
            "Round.is_complete is deprecated (removed in 0.3): use Round.is_over",
            DeprecationWarning,
            stacklevel=2,
        )
        return self._s.done == COMPLETE

    @property
    def to_act(self) -> int | None:
        """The seat to play next (``None`` when complete or while a claim is pending)."""
        s = self._s
        if s.done != PLAYING:
            return None
        return (s.leader + (s.trick & 7)) % s.table.n

    @property
    def leader(self) -> int:
        """The seat that led (or is to lead) the current trick."""
        return self._s.leader

    @property
    def dealer(self) -> int:
        """The dealer of this deal."""
        return self._s.table.dealer

    @property
    def seed(self) -> int | str | None:
        """The seed the deck was shuffled with (``None`` for explicit hands)."""
        return self._s.table.seed

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._s.table.n

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action so far, in order (:mod:`gongzhu.actions`).

        A round is the referee's object and its history holds everything,
        sealed exposure choices included (RULES.md §9.2): while
        :attr:`phase` is ``EXPOSURE`` under simultaneous order, send seats
        their :meth:`view`, never the history or the round. (The views and
        ``repr()`` keep the choices hidden until every seat has decided.)
        Sealed choices have no order anyone could see: once every seat has
        decided they are kept in play order from the leader, so every order of
        arrival gives the same round, the same history and the same record.

        Replaying them on the starting position rebuilds this state exactly:

        >>> from gongzhu import deal
        >>> start = deal(seed=9)
        >>> r2 = start.pass_exposure()
        >>> r2 = r2.play(r2.legal_plays[-1])
        >>> replayed = start
        >>> for action in r2.history:
        ...     replayed = replayed.apply(action)
        >>> replayed == r2
        True
        """
        return tuple([_action(e) for e in entries(self._s.log)])

    @property
    def hearts_broken(self) -> bool:
        """True once a heart has been played (for ``hearts_must_be_broken`` and the blood lock)."""
        return bool(self._s.flags & HEARTS_BROKEN)

    @property
    def must_lead_opening_card(self) -> bool:
        """True while the first lead of this deal must be the opening card."""
        s = self._s
        return s.table.opening and not s.tricks and not s.trick and s.done != COMPLETE

    @property
    def exposure_decided(self) -> tuple[int, ...]:
        """The seats that have made their exposure decision (public even while sealed)."""
        decided = self._s.table.decided
        return tuple(seat for seat in range(self.players) if decided >> seat & 1)

    @property
    def exposure_pending(self) -> tuple[int, ...]:
        """The seats that may decide on exposure now (the next one only, under in-turn order).

        The first card may be led once this is empty (RULES.md §9.1).
        """
        s = self._s
        if not _p.exposure_open(s):
            return ()
        if s.table.cfg.in_turn:
            return (_p.next_to_expose(s),)
        n = s.table.n
        waiting = [(s.leader + i) % n for i in range(n)]
        return tuple(x for x in waiting if not s.table.decided >> x & 1)

    # -- public state ------------------------------------------------------------------

    @property
    def hands(self) -> tuple[CardSet, ...]:
        """Each seat's remaining cards, in seat order."""
        s = self._s
        return tuple([unchecked_cardset(m & ~s.gone) for m in s.table.hands])

    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards in the order they were dealt."""
        return tuple(tuple(_CARDS[i] for i in cards) for cards in self._s.table.dealt)

    @property
    def exposed(self) -> CardSet:
        """The face-up exposed cards (public)."""
        return unchecked_cardset(self._s.table.up)

    @property
    def face_down(self) -> CardSet:
        """Cards declared face down (Chyťte prase): their holders know them, others don't."""
        return unchecked_cardset(self._s.table.down)

    @property
    def blind(self) -> CardSet:
        """Cards exposed blind (before their holder looked at the rest)."""
        return unchecked_cardset(self._s.table.blind)

    @property
    def exposures(self) -> tuple[CardSet, ...]:
        """Each seat's face-up exposed cards."""
        t = self._s.table
        return tuple(unchecked_cardset(t.up & h) for h in t.hands)

    @property
    def exposure_factors(self) -> dict[Card, int]:
        """Exposed card → its scoring factor (2 open; face-down 2, face-up 4; blind ×2)."""
        t = self._s.table
        cfg = t.cfg
        return {
            card: _card_factor(cfg, card.mask, t.up, t.down, t.blind)
            for card in unchecked_cardset(t.up | t.down)
        }

    @property
    def current_trick(self) -> Trick:
        """The trick in progress (possibly empty; ``winner`` is None)."""
        s = self._s
        return trusted_trick(s.leader, trick_cards(s) if s.trick else (), None, s.table.n)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        return trusted_tricks(self._s.tricks, self._s.table.n)

    @property
    def captured(self) -> tuple[CardSet, ...]:
        """Each seat's captured cards."""
        return tuple(unchecked_cardset(m) for m in self._s.capt)

    @property
    def led_suit(self) -> Suit | None:
        """The suit led to the current trick (``None`` before the lead)."""
        trick = self._s.trick
        return Suit(trick >> 3) if trick else None

    @property
    def winning_seat(self) -> int | None:
        """The seat currently winning the trick in progress."""
        return self.current_trick.winning_seat

    @property
    def trick_number(self) -> int:
        """1-based number of the trick in progress (or of the last trick when complete)."""
        s = self._s
        return len(s.tricks) + (0 if s.done == COMPLETE else 1)

    @property
    def shown(self) -> CardSet:
        """Cards shown to everyone by a claim."""
        return unchecked_cardset(self._s.table.shown)

    @property
    def claim_pending(self) -> tuple[int, tuple[int, ...]] | None:
        """``(claimer, seats that have accepted)`` while a claim is pending, else None."""
        s = self._s
        if s.done == PLAYING or s.done == COMPLETE:
            return None
        t = s.table
        return t.claimer, tuple(x for x in range(t.n) if t.accepted >> x & 1)

    # -- playing -------------------------------------------------------------------------

    @property
    def legal_plays(self) -> CardSet:
        """The cards the seat to act may play (empty when no card may be played).

        >>> from gongzhu import deal
        >>> r = deal(seed=1)
        >>> r.legal_plays <= r.hands[r.to_act]
        True
        """
        s = self._s
        lm = s.lm  # cached on the core state
        if lm < 0:
            lm = _legal(s)  # the rules of play live in the core only
        return unchecked_cardset(lm)

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The legal action ids (:mod:`gongzhu.protocol`) of the seat to act, ascending.

        The integer lane, for search code and agents: the same ids as
        :meth:`PlayerView.legal_actions <gongzhu.PlayerView.legal_actions>`
        gives that seat (0–51 play the card of that index), and
        :meth:`apply` takes one back. The seat to act is the one that decides
        next: while exposure is open, the first undecided seat from the leader
        (under simultaneous order pass ``seat`` for another undecided seat);
        while a claim is pending, the next seat to answer it. Any other
        ``seat`` gets ``[]``. Unlike a view, the round knows whether a claim
        would be refused (RULES.md §9.7), so a refused claimer gets no
        ``CLAIM`` id.

        >>> from gongzhu import deal
        >>> r = deal(seed=3)
        >>> r.legal_actions()                    # seat 3 decides: decline (52) or expose A♥ (56)
        [52, 56]
        >>> r = r.pass_exposure()
        >>> ids = r.legal_actions()
        >>> ids == [c.index for c in r.legal_plays] == r.view(r.to_act).legal_actions()
        True
        >>> r.apply(ids[0]) == r.play(r.legal_plays[0])
        True
        """
        s = self._s
        if seat is None:
            ids = _play_ids(s)  # the hot path: a play, exposure over, no claims
            if ids is not None:
                return ids
            seat = _actor(s)
            if seat < 0:
                return []
        else:
            seat = _check_seat(seat, s.table.n, "act")
        t = s.table
        if s.done == CLAIMING:
            return [_encoding.ACCEPT, _encoding.REFUSE] if not _p.respond_reason(s, seat) else []
        if s.done != PLAYING:
            return []
        if not s.trick and not s.tricks and _p.exposure_open(s):
            if t.decided >> seat & 1 or (t.cfg.in_turn and seat != _actor(s)):
                return []
            free = t.hands[seat] & ~s.gone & t.cfg.exposable & ~(t.up | t.down)
            return _encoding.exposure_ids_of(free, t.cfg.face_down)
        if seat != (s.leader + (s.trick & 7)) % t.n:
            return []
        ids = _legal_ids(s)
        if t.cfg.claims and not _p.claim_reason(s, seat):
            ids.append(_encoding.CLAIM)
        return ids

    def why_illegal(self, card: Card | str, seat: int | None = None) -> Reason | None:
        """Why ``seat`` (default: the seat to act) may not play ``card`` now; None if it may.

        >>> from gongzhu import Round
        >>> r = Round.from_hands(["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        ...     "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        ...     "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"]).pass_exposure()
        >>> r.why_illegal("2H"), r.why_illegal("2S", seat=1), r.why_illegal("AS")
        (<Reason.NOT_IN_HAND: 'card not in hand'>, <Reason.NOT_YOUR_TURN: 'not your turn'>, None)
        """
        card = _to_card(card)
        if seat is not None and not _is_seat(seat, self._s.table.n):
            return Reason.NO_SUCH_SEAT
        code = _p.play_reason(self._s, card.index, -1 if seat is None else seat)
        return _REASONS[code] if code else None

    def can_play(self, card: Card | str, seat: int | None = None) -> bool:
        """True if :meth:`play` would accept the card."""
        return self.why_illegal(card, seat) is None

    def check_play(self, card: Card | str, seat: int | None = None) -> None:
        """Raise :class:`~gongzhu.IllegalActionError` if the card may not be played now."""
        card = _to_card(card)
        reason = self.why_illegal(card, seat)
        if reason is not None:
            raise IllegalActionError(
                reason, self.to_act if seat is None else seat, card, self._detail(reason, card)
            )

    def _detail(self, reason: Reason, card: Card) -> str:
        if reason is Reason.MUST_FOLLOW_SUIT:
            return f"{Suit(self._s.trick >> 3).name.lower()} were led"
        if reason is Reason.MUST_LEAD_OPENING_CARD:
            return f"lead {self.rules.opening_card}"
        if reason is Reason.EXPOSED_CARD_HELD_BACK:
            return f"{card} was exposed; play another {card.suit.name.lower()[:-1]} first"
        return ""

    def score(self) -> DealScore:
        """The deal's :class:`~gongzhu.DealScore` (the round must be complete)."""
        s = self._s
        if s.done != COMPLETE:
            raise DealNotOverError("the deal is not complete")
        # The core computes the result on ints (exposure factors and the Q♦ count
        # included); the DealScore is built around it (its sheets on first read).
        return score_of_state(s)

    def view(self, seat: int | None) -> PlayerView:
        """Everything ``seat`` may know, and nothing else (safe to send to that player).

        >>> from gongzhu import deal
        >>> r = deal(seed=2).pass_exposure()
        >>> v = r.view(r.to_act)
        >>> v.hand == r.hands[r.to_act], v.legal_plays == r.legal_plays, r.view(3).legal_plays
        (True, True, CardSet(''))

        ``seat=None`` is a spectator's view, of no seat: the public facts only (no
        hand, asked nothing, each seat's exposures once every other seat may see
        them, RULES.md §9.2). Its ``seat`` is ``-1``, ``null`` in its JSON.

        >>> w = r.view(None)
        >>> w.seat, len(w.hand), w.pending, w.to_dict()["seat"]
        (-1, 0, None, None)
        """
        s = self._s
        if seat is None:
            return PlayerView.from_engine_state(s, -1)  # the core's public_info: a seat of -1
        if seat.__class__ is not int or not 0 <= seat < s.table.n:
            seat = _check_seat(seat, s.table.n, "view")
        return PlayerView.from_engine_state(s, seat)

    def unseen(self, seat: int) -> CardSet:
        """Cards ``seat`` has not seen: in other hands, not exposed face up, not shown."""
        s = self._s
        t = s.table
        seat = _check_seat(seat, t.n, "view")
        others = 0
        for x, hand in enumerate(t.hands):
            if x != seat:
                others |= hand
        up = 0 if _p.sealed(s) else t.up  # others' sealed exposures are not seen yet
        return unchecked_cardset(others & ~s.gone & ~up & ~t.shown)


_EMPTY: Final = unchecked_cardset(0)  # immutable: one shared empty set
