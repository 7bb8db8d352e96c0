"""One deal as an immutable state machine: :func:`~gongzhu.deal` → exposure → tricks → score.

:class:`Round` is a thin facade over the engine core (:mod:`gongzhu._core`):
the core holds the state as typed ints with named fields and knows every rule
of play; the facade checks what callers pass in, explains a refusal with an
:class:`~gongzhu.IllegalActionError` (and its machine-readable
:class:`~gongzhu.Reason`) and builds the public objects (cards, tricks,
views, action records) on request. Every transition returns a new
:class:`Round`; successive rounds share structure.

>>> from gongzhu import deal
>>> r = deal(seed=7)
>>> r.phase, r.to_act, len(r.hands[0])
(<Phase.EXPOSURE: 'exposure'>, 2, 13)
>>> r = r.pass_exposure()                 # every seat declines exposure (RULES.md §9.1)
>>> card = r.legal_plays[0]
>>> r2 = r.play(card)
>>> r2.current_trick.cards == (card,), r.current_trick.cards == ()
(True, True)
>>> r3 = r2.rollout(seed=1)               # play on to the end, randomly
>>> len(r3.tricks), r3.history[:5] == r2.history, r3 == r2.rollout(seed=1)
(13, True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, NoReturn

import attrs

from gongzhu._base.seeds import SEED_INT_LIMIT
from gongzhu._codec import encoding as _encoding
from gongzhu._core import play as _p
from gongzhu._core.play import advance as _advance
from gongzhu._core.play import legal as _legal
from gongzhu._core.play import legal_ids as _legal_ids
from gongzhu._core.play import legal_uncached as _legal_now
from gongzhu._core.play import play_ids as _play_ids
from gongzhu._core.play import try_play as _try_play
from gongzhu._core.rollout import rollout_random as _rollout_random
from gongzhu._core.rollout import seed_state as _seed_state
from gongzhu._core.rules import card_factor as _card_factor
from gongzhu._core.state import (
    BIT,
    CLAIMING,
    COMPLETE,
    HEARTS_BROKEN,
    PLAYING,
    Config,
    State,
    decision_parts,
    entries,
    key,
    played,
    restore,
    trick_cards,
)
from gongzhu._core.state import begin as _begin
from gongzhu.actions import Action, Claim, ClaimResponse, Exposure, Play
from gongzhu.cards import _SPLIT, Card, CardSet, Suit, _from_mask, _set_cards, _set_mask
from gongzhu.cards import parse_cards as _parse_cards
from gongzhu.errors import CardParseError, DealError, IllegalActionError, Reason, _brief
from gongzhu.phase import Phase as Phase
from gongzhu.round._config import _DETAILS, _REASONS, _config
from gongzhu.round._rollout import rollout as _rollout
from gongzhu.rules import RuleSet
from gongzhu.rules._tables import POINT_CARDS
from gongzhu.scoring import DealScore, _deal_score, exposure_preview
from gongzhu.trick import Trick as Trick
from gongzhu.view import PlayerView as PlayerView

__all__ = ["Phase", "Round"]

_DEFAULT_RULES: Final = RuleSet()
_CARDS: Final = tuple(Card.from_index(i) for i in range(52))
_new = object.__new__
_BIT_OF: Final = BIT.__getitem__


def _make(state: State) -> Round:
    r = _new(Round)
    _set_s(r, state)
    return r


def _is_seat(seat: object, n: int) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n


def _check_seat(seat: Any, n: int, action: str) -> int:
    if not _is_seat(seat, n):
        raise IllegalActionError(
            Reason.NO_SUCH_SEAT, None, detail=f"seat {_brief(seat)} of {n}", action=action
        )
    return int(seat)


def _deal_seat(seat: Any, n: int, what: str) -> int:
    # Setting up a deal with a bad seat is bad deal data, not a refused action.
    if not _is_seat(seat, n):
        raise DealError(f"{what} must be a seat 0-{n - 1}, got {_brief(seat)}")
    return int(seat)


def _check_flag(value: Any, name: str, seat: int, action: str) -> None:
    if not isinstance(value, bool):
        raise IllegalActionError(
            Reason.INVALID_CHOICE, seat, detail=f"{name} must be True or False", action=action
        )


def _to_card(card: Any) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise CardParseError(f"expected a Card or card text, got {type(card).__name__}")


def _action(entry: int) -> Action:
    """The public record of one core log entry."""
    kind, seat, arg = entry & 3, entry >> 2 & 7, entry >> 5
    if kind == 0:
        return Play(seat, _CARDS[arg])
    if kind == 1:
        _seat, up, down, blind = decision_parts(entry)
        return Exposure(seat, _from_mask(up | down), _from_mask(down) if up else bool(down), blind)
    if kind == 2:
        return Claim(seat)
    return ClaimResponse(seat, bool(arg))


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


def _exposure_masks(cards: Any, face_down: Any, seat: int) -> tuple[int, int]:
    """``(face-up mask, face-down mask)`` of an exposure's arguments (checked, typed errors)."""
    try:
        chosen = _parse_cards(cards).mask
    except (CardParseError, TypeError) as exc:
        raise IllegalActionError(
            Reason.NOT_EXPOSABLE, seat, detail=str(exc), action="expose"
        ) from None
    if isinstance(face_down, bool):
        return (0, chosen) if face_down else (chosen, 0)
    if face_down is None or isinstance(face_down, (int, float)):
        raise IllegalActionError(
            Reason.INVALID_CHOICE,
            seat,
            detail="face_down must be True, False or the cards that lie face down",
            action="expose",
        )
    try:
        down = _parse_cards(face_down).mask
    except (CardParseError, TypeError) as exc:
        raise IllegalActionError(
            Reason.INVALID_CHOICE, seat, detail=f"face_down: {exc}", action="expose"
        ) from None
    if down & ~chosen:
        raise IllegalActionError(
            Reason.INVALID_CHOICE,
            seat,
            _CARDS[(down & ~chosen).bit_length() - 1],
            "face_down names a card that is not exposed",
            action="expose",
        )
    return chosen & ~down, down


class Round:
    """One deal: the hands, the exposures, the tricks so far and whose turn it is.

    Make one with :func:`~gongzhu.deal` (shuffled) or :meth:`from_hands`.
    Drive it with :meth:`expose`, :meth:`play` (and :meth:`claim` /
    :meth:`respond` when claims are played), or :meth:`apply` with an action
    record; :meth:`rollout` plays it to the end. Ask :attr:`phase`,
    :attr:`to_act` and :attr:`legal_plays` what is expected;
    :meth:`why_illegal` explains a refusal without raising; :meth:`view` is
    what one seat may see.

    Seats are numbered in play order (seat ``s + 1`` plays after seat ``s``).

    >>> from gongzhu import deal
    >>> r = deal(seed=1)
    >>> r.phase.name, r.exposure_pending, r.why_illegal("2S").name
    ('EXPOSURE', (0, 1, 2, 3), 'EXPOSURE_PENDING')
    >>> r = r.expose("", seat=0).expose("", seat=1).expose("", seat=2).expose("", seat=3)
    >>> r.phase.name, r.to_act, r.why_illegal("2S", seat=1).name
    ('PLAY', 0, 'NOT_YOUR_TURN')
    >>> r2 = r.play("2S")
    >>> r2.to_act, r2.current_trick.cards, r.current_trick.cards     # r is unchanged
    (1, (Card('2S'),), ())
    """

    __slots__ = ("_s",)
    _s: State

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"Round is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"Round is immutable: cannot delete {name!r}")

    def __init__(self) -> None:
        raise TypeError("use gongzhu.deal(...) or Round.from_hands(...) to make a Round")

    # -- construction and the core ------------------------------------------------------

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Iterable[Card | str] | str],
        rules: RuleSet = _DEFAULT_RULES,
        *,
        leader: int | None = None,
        dealer: int = 0,
    ) -> Round:
        """A deal from explicit hands (one per seat, in seat order), validated.

        Hands may be card collections or text (``"QS TC 7H …"``). Each seat's
        cards are taken as dealt in the order given (that order matters only
        for blind exposure). Without ``leader``, the holder of the rule set's
        opening card leads (and must lead it if the rule set says so).

        >>> hands = ["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        ...          "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        ...          "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        ...          "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"]
        >>> Round.from_hands(hands).to_act
        0
        >>> Round.from_hands(hands[:3])
        Traceback (most recent call last):
        ...
        gongzhu.errors.DealError: expected 4 hands, got 3
        """
        if not isinstance(rules, RuleSet):
            raise DealError(f"rules must be a RuleSet, got {type(rules).__name__}")
        cfg = _config(rules)
        if isinstance(hands, (str, CardSet)) or not isinstance(hands, Sequence):
            raise DealError("hands must be a sequence of hands, one per seat")
        dealt: list[tuple[int, ...]] = []
        seen = 0
        for seat, hand in enumerate(hands):
            if seat >= cfg.n:
                raise DealError(f"expected {cfg.n} hands, got more")
            try:
                if isinstance(hand, str):
                    _parse_cards(hand)  # names a bad token; the dealt order is the text's
                    cards = [Card.parse(t) for t in _SPLIT.split(hand.strip()) if t]
                elif isinstance(hand, CardSet):
                    cards = list(hand)
                else:
                    cards = [_to_card(c) for c in hand]
            except (CardParseError, TypeError) as exc:
                raise DealError(f"seat {seat}: {exc}") from None
            mask = 0
            for card in cards:
                if mask & card.mask:
                    raise DealError(f"seat {seat}: duplicate card {card}")
                mask |= card.mask
            if mask & seen:
                raise DealError(f"seat {seat}: {_from_mask(mask & seen)} dealt twice")
            if mask & ~cfg.deck:
                raise DealError(
                    f"seat {seat}: {_from_mask(mask & ~cfg.deck)} not in the {cfg.n}-player deck"
                )
            if len(cards) != cfg.hand_size:
                raise DealError(f"seat {seat}: {len(cards)} cards, expected {cfg.hand_size}")
            seen |= mask
            dealt.append(tuple(c.index for c in cards))
        # Counted as iterated: a Sequence whose len() disagrees with its items is no excuse.
        if len(dealt) != cfg.n:
            raise DealError(f"expected {cfg.n} hands, got {len(dealt)}")
        return cls._start(rules, cfg, tuple(dealt), leader, dealer, None)

    @classmethod
    def _start(
        cls,
        rules: RuleSet,
        cfg: Config,
        dealt: tuple[tuple[int, ...], ...],
        leader: int | None,
        dealer: int,
        seed: int | str | None,
        hands: tuple[int, ...] | None = None,
    ) -> Round:
        n = cfg.n
        _deal_seat(dealer, n, "dealer")
        if hands is None:  # the masks of dealt (its cards are distinct)
            hands = tuple([sum(map(_BIT_OF, cards)) for cards in dealt])
        if leader is not None:
            leader = _deal_seat(leader, n, "leader")
        return _make(_begin(cfg, hands, dealt, dealer, seed, -1 if leader is None else leader))

    @classmethod
    def _from_core(cls, state: State) -> Round:
        """The Round of a core state (trusted: the state came from the core)."""
        return _make(state)

    @property
    def _core(self) -> State:
        """The core state (read it, never change it)."""
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
    def is_complete(self) -> bool:
        """True once the deal is over (all tricks played, or ended early by a rule)."""
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
        return tuple([_from_mask(m & ~s.gone) for m in s.table.hands])

    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards in the order they were dealt."""
        return tuple(tuple(_CARDS[i] for i in cards) for cards in self._s.table.dealt)

    @property
    def exposed(self) -> CardSet:
        """The face-up exposed cards (public)."""
        return _from_mask(self._s.table.up)

    @property
    def face_down(self) -> CardSet:
        """Cards declared face down (Chyťte prase): their holders know them, others don't."""
        return _from_mask(self._s.table.down)

    @property
    def blind(self) -> CardSet:
        """Cards exposed blind (before their holder looked at the rest)."""
        return _from_mask(self._s.table.blind)

    @property
    def exposures(self) -> tuple[CardSet, ...]:
        """Each seat's face-up exposed cards."""
        t = self._s.table
        return tuple(_from_mask(t.up & h) for h in t.hands)

    @property
    def exposure_factors(self) -> dict[Card, int]:
        """Exposed card → its scoring factor (2 open; face-down 2, face-up 4; blind ×2)."""
        t = self._s.table
        cfg = t.cfg
        return {
            card: _card_factor(cfg, card.mask, t.up, t.down, t.blind)
            for card in _from_mask(t.up | t.down)
        }

    @property
    def current_trick(self) -> Trick:
        """The trick in progress (possibly empty; ``winner`` is None)."""
        s = self._s
        if not s.trick:
            return _empty_trick(s.leader, s.table.n)
        return _trick(s.leader, tuple([_CARDS[i] for i in trick_cards(s)]), None, s.table.n)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        raw = self._s.tricks
        # Completed tricks never change and successive states share the same tuple, so
        # the Trick objects are built once per tuple, not once per call (views ask for
        # them at every card). Keyed by id with the tuple kept alive in the value.
        hit = _TRICK_OBJECTS.get(id(raw))
        if hit is not None and hit[0] is raw:
            return hit[1]
        n = self._s.table.n
        built = tuple(
            [_trick(lead, tuple([_CARDS[i] for i in cards]), won, n) for lead, won, cards in raw]
        )
        if len(_TRICK_OBJECTS) >= 1024:
            _TRICK_OBJECTS.clear()
        _TRICK_OBJECTS[id(raw)] = (raw, built)
        return built

    @property
    def captured(self) -> tuple[CardSet, ...]:
        """Each seat's captured cards."""
        return tuple(_from_mask(m) for m in self._s.capt)

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
        return _from_mask(self._s.table.shown)

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
        cs = _new(CardSet)  # _from_mask inlined: this runs once per bot step
        _set_mask(cs, lm)
        _set_cards(cs, None)
        return cs

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

    def play(self, card: Card | str, seat: int | None = None) -> Round:
        """The next state after the seat to act plays ``card``.

        ``seat`` is optional: when given, a play out of turn is refused with
        ``Reason.NOT_YOUR_TURN``. Playing the first card closes the exposure
        window. Raises :class:`~gongzhu.IllegalActionError`; this Round is
        never changed.
        """
        s = self._s
        if card.__class__ is not Card:
            card = _to_card(card)
        lm = s.lm
        if lm < 0:
            lm = _legal_now(s)
        if not lm & card.mask or (
            # Anything but a plain int (True, 1.0) goes through check_play's seat check.
            seat is not None
            and (seat.__class__ is not int or seat != (s.leader + (s.trick & 7)) % s.table.n)
        ):
            self.check_play(card, seat)
        r = _new(Round)
        _set_s(r, _advance(s, card.index))
        return r

    def apply(self, action: int | Action | Mapping[str, Any], seat: int | None = None) -> Round:
        """Do one action: an action id (:meth:`legal_actions`), an action record
        (:mod:`gongzhu.actions`) or its dict form.

        An int is the integer lane: ``seat`` defaults to the seat to act (see
        :meth:`legal_actions`), and an id that is not legal now is refused with
        :class:`~gongzhu.IllegalActionError` like the method it stands for.
        A record carries its own seat (a different ``seat`` is refused). A dict
        is read by :meth:`Action.from_dict <gongzhu.Action.from_dict>` (a
        malformed one raises :class:`~gongzhu.ProtocolError`), so a table server is
        ``round = round.apply(message)``.

        >>> from gongzhu import Play, deal
        >>> r = deal(seed=5).pass_exposure()
        >>> r.apply(Play(seat=0, card=Card("2C"))) == r.play("2C", seat=0)
        True
        >>> r.apply({"type": "play", "seat": 0, "card": "2C"}) == r.play("2C", seat=0)
        True
        """
        if action.__class__ is int:
            if seat is None:  # the hot path of the integer lane: a legal play
                following = _try_play(self._s, action)
                if following is not None:
                    r = _new(Round)
                    _set_s(r, following)
                    return r
            return self._apply_id(action, seat)
        if isinstance(action, Mapping):
            action = Action.from_dict(action)
        if seat is not None and isinstance(action, Action) and seat != action.seat:
            raise IllegalActionError(
                Reason.NOT_YOUR_TURN,
                _check_seat(seat, self._s.table.n, "apply"),
                detail=f"the record is seat {action.seat}'s",
                action="apply",
            )
        if isinstance(action, Play):
            return self.play(action.card, seat=action.seat)
        if isinstance(action, Exposure):
            return self.expose(
                action.cards, seat=action.seat, face_down=action.face_down, blind=action.blind
            )
        if isinstance(action, Claim):
            return self.claim(seat=action.seat)
        if isinstance(action, ClaimResponse):
            return self.respond(action.accept, seat=action.seat)
        raise IllegalActionError(
            Reason.INVALID_CHOICE,
            None,
            detail=f"not an action id or record: {type(action).__name__}",
            action="apply",
        )

    def _apply_id(self, action: int, seat: int | None) -> Round:
        s = self._s
        if 0 <= action < 52:
            lm = s.lm
            if lm < 0:
                lm = _legal_now(s)
            if lm >> action & 1 and (
                seat is None
                or (seat.__class__ is int and seat == (s.leader + (s.trick & 7)) % s.table.n)
            ):
                r = _new(Round)
                _set_s(r, _advance(s, action))
                return r
            return self.play(_CARDS[action], seat)  # refused, with the reason
        if seat is None:
            acting = _actor(s)
            seat = acting if acting >= 0 else None
        if 52 <= action < _encoding.NUM_ACTIONS and _encoding.is_exposure_id(action):
            up, down = _encoding.exposure_subsets(action)
            down_cards = _encoding.subset_cards(down)
            return self.expose(
                _encoding.subset_cards(up) | down_cards,
                seat,
                face_down=down_cards if up else bool(down),
            )
        if action == _encoding.CLAIM:
            return self.claim(seat)
        if action == _encoding.ACCEPT or action == _encoding.REFUSE:
            return self.respond(action == _encoding.ACCEPT, seat)
        raise IllegalActionError(
            Reason.INVALID_CHOICE, seat, detail=f"no action id {_brief(action)}", action="apply"
        )

    def rollout(self, strategy: Any = None, *, seed: int | None = None) -> Round:
        """The completed deal, played on from here; this Round is unchanged.

        ``strategy`` plays for every seat, or give a sequence of one per seat;
        ``None`` (or a ``None`` entry) plays uniformly random legal cards and
        declines exposure. A :class:`~gongzhu.Strategy` decides through its
        protocol (``choose_exposure`` then ``choose_play`` from its own view);
        the library's random strategy runs inside the engine core. A pending
        claim is refused by the seats that have not answered. With ``seed``
        (an int) the random plays are the same every time, in every build.

        >>> from gongzhu import deal
        >>> end = deal(seed=3).rollout(seed=11)
        >>> end.is_complete, end == deal(seed=3).rollout(seed=11)
        (True, True)
        """
        if strategy is None and seed.__class__ is int and -SEED_INT_LIMIT < seed < SEED_INT_LIMIT:
            # Every seat random, seeded: straight into the core (what _rollout does for it).
            return _make(_rollout_random(self._s, _seed_state(seed)))
        end: Round = _rollout(self, strategy, seed, _make)
        return end

    # -- exposure ----------------------------------------------------------------------

    def expose(
        self,
        cards: Iterable[Card | str] | str,
        seat: int | None = None,
        *,
        face_down: bool | Iterable[Card | str] | str = False,
        blind: bool = False,
    ) -> Round:
        """``seat`` exposes ``cards`` (any of the rule set's exposable cards it holds).

        Like :meth:`play`, the action comes first and the seat second; ``seat``
        may be left out under ``exposure_order="in-turn"``, where the seat that
        decides next is known.

        Every seat decides once, before the first lead (RULES.md §9.1): an
        empty ``cards`` declines, and a second decision is refused with
        ``Reason.ALREADY_DECIDED``. Under ``exposure_order="in-turn"`` seats
        decide in turn from the leader; under ``"simultaneous"`` in any order,
        sealed: until every seat has decided, no other seat's :meth:`view`
        shows what a seat chose (§9.2). ``blind`` exposes the first card
        dealt to the seat (``blind_exposure=True``, §9.4): only as the seat's
        first act, once, and it is not the decision — the seat then still
        makes its ordinary one.

        ``face_down`` (``exposure_kind="face-down-up"``) says which cards lie
        face down: ``False`` none, ``True`` all, or the cards among ``cards``
        that do, the others face up: one decision may hold both kinds (§9.1).
        A face-down card is known to its holder only; it never binds play
        (§9.3).

        >>> from gongzhu import RuleSet, deal
        >>> r = deal(seed=3)
        >>> holder = next(s for s, h in enumerate(r.hands) if Card("QS") in h)
        >>> r.expose("QS", seat=holder).exposed
        CardSet('QS')
        """
        s = self._s
        if seat is None:
            seat = _p.next_to_expose(s)
            if seat < 0:
                raise IllegalActionError(
                    Reason.NO_SUCH_SEAT, None, detail="name the seat that exposes", action="expose"
                )
        seat = _check_seat(seat, s.table.n, "expose")
        _check_flag(blind, "blind", seat, "expose")
        up, down = _exposure_masks(cards, face_down, seat)
        code, index = _p.decision_reason(s, seat, up, down, blind)
        if code:
            detail = _DETAILS.get(code, "")
            if code == _p.ALREADY_DECIDED and not _p.exposure_open(s):
                detail = "every seat has decided"
            if code == _p.NOT_EXPOSABLE:
                detail = f"exposable: {_from_mask(s.table.cfg.exposable)}"
            elif code == _p.EXPOSURE_OUT_OF_TURN:
                waiting = _p.next_to_expose(s)
                detail = f"seat {waiting} decides next" if waiting >= 0 else "all decided"
            card = _CARDS[index] if index >= 0 else None
            raise IllegalActionError(_REASONS[code], seat, card, detail, action="expose")
        return _make(_p.decide(s, seat, up, down, blind))

    def pass_exposure(self) -> Round:
        """Every seat that has not decided on exposure declines (in turn from the leader).

        >>> from gongzhu import deal
        >>> r = deal(seed=3)
        >>> r.legal_plays, r.pass_exposure().phase.name, len(r.pass_exposure().legal_plays) > 0
        (CardSet(''), 'PLAY', True)
        """
        return _make(_p.decline_all(self._s)) if _p.exposure_open(self._s) else self

    def exposure_preview(self, seat: int) -> dict[Card, str]:
        """For each exposable card ``seat`` holds and has not exposed: what exposing it changes."""
        s = self._s
        t = s.table
        seat = _check_seat(seat, t.n, "expose")
        held = t.hands[seat] & ~s.gone & t.cfg.exposable & ~(t.up | t.down)
        return {c: str(exposure_preview(c, self.rules)) for c in _from_mask(held)}

    # -- claims ------------------------------------------------------------------------

    def claim(self, seat: int | None = None) -> Round:
        """The seat to act shows its hand and claims every remaining trick (``claims=True``)."""
        s = self._s
        if seat is not None:
            seat = _check_seat(seat, s.table.n, "claim")
        code = _p.claim_reason(s, -1 if seat is None else seat)
        if code:
            raise IllegalActionError(
                _REASONS[code], self.to_act if seat is None else seat, action="claim"
            )
        return _make(_p.claim(s))

    def can_claim(self, seat: int | None = None) -> bool:
        """True if :meth:`claim` would accept a claim by ``seat`` (default: the seat to act)."""
        if seat is not None and not _is_seat(seat, self._s.table.n):
            return False
        return not _p.claim_reason(self._s, -1 if seat is None else seat)

    def respond(self, accept: bool, seat: int | None = None) -> Round:
        """``seat`` accepts or refuses the pending claim.

        One refusal ends the claim (play continues, the claimer's hand stays
        shown). When every other seat has accepted, the claimer captures all
        cards still in play and the deal is complete. ``seat`` left out is
        the next seat after the claimer, in seat order, that has not answered.
        """
        s = self._s
        if seat is None:
            seat = _p.next_to_respond(s)
            if seat < 0:
                seat = None
        seat = _check_seat(seat, s.table.n, "respond")
        _check_flag(accept, "accept", seat, "respond")
        code = _p.respond_reason(s, seat)
        if code:
            detail = "no claim" if code == _p.WRONG_PHASE else ""
            raise IllegalActionError(_REASONS[code], seat, detail=detail, action="respond")
        return _make(_p.respond(s, seat, accept))

    # -- result and views --------------------------------------------------------------

    def score(self) -> DealScore:
        """The deal's :class:`~gongzhu.DealScore` (the round must be complete)."""
        s = self._s
        if s.done != COMPLETE:
            raise IllegalActionError(
                Reason.WRONG_PHASE, None, detail="the deal is not complete", action="score"
            )
        # The core computes the result on ints (exposure factors and the Q♦ count
        # included); the DealScore is built around it (its sheets on first read).
        return _deal_score(s)

    def view(self, seat: int) -> PlayerView:
        """Everything ``seat`` may know, and nothing else (safe to send to that player).

        >>> from gongzhu import deal
        >>> r = deal(seed=2).pass_exposure()
        >>> v = r.view(r.to_act)
        >>> v.hand == r.hands[r.to_act], v.legal_plays == r.legal_plays, r.view(3).legal_plays
        (True, True, CardSet(''))
        """
        s = self._s
        t = s.table
        n = t.n
        if seat.__class__ is not int or not 0 <= seat < n:
            seat = _check_seat(seat, n, "view")
        hands = t.hands
        gone = s.gone
        up, down = t.up, t.down
        done = s.done
        if done == COMPLETE:
            phase = Phase.COMPLETE
        elif done != PLAYING:
            phase = Phase.CLAIM
        elif not s.trick and not s.tricks and _p.exposure_open(s):
            phase = Phase.EXPOSURE
            if not t.cfg.in_turn:  # RULES.md §9.2: only the seat's own choice shows till all decide
                up &= hands[seat]
                down &= hands[seat]
        else:
            phase = Phase.PLAY
        to_act = (s.leader + (s.trick & 7)) % n if done == PLAYING else None
        # Built without attrs' keyword handling: every value below comes from the core
        # state, already consistent (the public constructor still checks its arguments).
        v = _new(PlayerView)
        _v_seat(v, seat)
        _v_rules(v, t.cfg.owner)
        _v_phase(v, phase)
        _v_hand(v, _from_mask(hands[seat] & ~gone))
        dealt = t.dealt[seat]
        _v_first_dealt(v, _CARDS[dealt[0]] if dealt else None)
        _v_to_act(v, to_act)
        _v_leader(v, s.leader)
        _v_dealer(v, t.dealer)
        _v_exposures(v, tuple([_from_mask(up & h) for h in hands]) if up else _NONE_EACH[n])
        if down:
            _v_own_face_down(v, _from_mask(down & hands[seat]))
            _v_face_down_counts(v, tuple([(down & h).bit_count() for h in hands]))
        else:
            _v_own_face_down(v, _EMPTY)
            _v_face_down_counts(v, _ZEROS[n])
        _v_current_trick(v, self.current_trick)
        _v_tricks(v, self.tricks)
        _v_captured_points(v, _captured_points(s.capt))
        _v_hand_sizes(v, tuple([(h & ~gone).bit_count() for h in hands]))
        _v_shown(v, _from_mask(t.shown & ~played(s)) if t.shown else _EMPTY)
        _v_legal_plays(v, self.legal_plays if to_act == seat else _EMPTY)
        return v

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
        return _from_mask(others & ~s.gone & ~up & ~t.shown)

    # -- dunder ------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        return self.rules == other.rules and key(self._s) == key(other._s)

    def __hash__(self) -> int:
        return hash(key(self._s))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_restore_state, (self.rules, key(self._s)))

    def __copy__(self) -> Round:
        return self  # immutable

    def __deepcopy__(self, memo: object) -> Round:
        return self  # immutable, and nothing inside is shared mutably

    def __repr__(self) -> str:
        s = self._s
        phase = self.phase
        if phase is Phase.COMPLETE:
            return f"<Round complete, {len(s.tricks)} tricks, totals {self.score().totals}>"
        trick = " ".join(_CARDS[i].symbol for i in trick_cards(s))
        return (
            f"<Round {phase.value}, trick {self.trick_number}, seat {self.to_act} to act"
            + (f", on the table: {trick}" if trick else "")
            + ">"
        )

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>seat {seat}{' ▶' if seat == self.to_act else ''}</td>"
            f"<td>{hand._repr_html_()}</td><td>{self.captured[seat]._repr_html_()}</td></tr>"
            for seat, hand in enumerate(self.hands)
        )
        trick = self.current_trick._repr_html_() if self._s.trick else ""
        return (
            f"<div><table><tr><th>seat</th><th>hand</th><th>captured</th></tr>{rows}</table>"
            f"{trick}</div>"
        )


# The slots' own setters: cheaper than object.__setattr__ (no name look-up).
_set_s = Round.__dict__["_s"].__set__


# Trusted constructors of the public records a Round hands out (the values come from
# the core, consistent by construction): no attrs keyword handling, no re-validation.
_v_seat, _v_rules, _v_phase, _v_hand, _v_first_dealt, _v_to_act, _v_leader, _v_dealer = (
    PlayerView.__dict__[a.name].__set__ for a in attrs.fields(PlayerView)[:8]
)
(
    _v_exposures,
    _v_own_face_down,
    _v_face_down_counts,
    _v_current_trick,
    _v_tricks,
    _v_captured_points,
    _v_hand_sizes,
    _v_shown,
    _v_legal_plays,
) = (PlayerView.__dict__[a.name].__set__ for a in attrs.fields(PlayerView)[8:])
assert [a.name for a in attrs.fields(PlayerView)][-1] == "legal_plays"  # the order above
_t_leader, _t_cards, _t_winner, _t_players = (
    Trick.__dict__[a.name].__set__ for a in attrs.fields(Trick)
)
_EMPTY: Final = _from_mask(0)  # immutable: one shared empty set
_NONE_EACH: Final = {n: tuple([_EMPTY] * n) for n in range(1, 9)}
_ZEROS: Final = {n: (0,) * n for n in range(1, 9)}


_CAPTURED_POINTS: dict[int, tuple[tuple[int, ...], tuple[CardSet, ...]]] = {}


def _captured_points(capt: tuple[int, ...]) -> tuple[CardSet, ...]:
    # Successive states share the capture tuple until a trick completes: build the
    # point-card sets once per tuple (keyed by id, the tuple kept alive in the value).
    hit = _CAPTURED_POINTS.get(id(capt))
    if hit is not None and hit[0] is capt:
        return hit[1]
    built = tuple([_from_mask(c & POINT_CARDS) for c in capt])
    if len(_CAPTURED_POINTS) >= 1024:
        _CAPTURED_POINTS.clear()
    _CAPTURED_POINTS[id(capt)] = (capt, built)
    return built


def _trick(leader: int, cards: tuple[Card, ...], winner: int | None, n: int) -> Trick:
    trick = _new(Trick)
    _t_leader(trick, leader)
    _t_cards(trick, cards)
    _t_winner(trick, winner)
    _t_players(trick, n)
    return trick


_EMPTY_TRICKS: Final = {(leader, n): _trick(leader, (), None, n) for n in range(1, 9)
                        for leader in range(n)}  # fmt: skip


def _empty_trick(leader: int, n: int) -> Trick:
    return _EMPTY_TRICKS[(leader, n)]


def _restore_state(rules: RuleSet, k: tuple[Any, ...]) -> Round:
    return _make(restore(_config(rules), *k))


_TRICK_OBJECTS: dict[int, tuple[tuple[Any, ...], tuple[Trick, ...]]] = {}
