"""One deal as an immutable state machine: :func:`deal` → exposure → tricks → :meth:`Round.score`.

Every transition returns a new :class:`Round`; an illegal action raises
:class:`~gongzhu.IllegalActionError` (with a machine-readable
:class:`~gongzhu.Reason`) and changes nothing. Inside, hands and captures are
int bitmasks and the whole state is one tuple, so a transition costs a few
int operations and one small allocation; successive states share structure.

>>> r = deal(seed=7)
>>> r.phase, r.to_act, len(r.hands[0])
(<Phase.EXPOSURE: 'exposure'>, 2, 13)
>>> card = r.legal_plays[0]
>>> r2 = r.play(card)
>>> r2.current_trick.cards == (card,), r.current_trick.cards == ()
(True, True)
>>> while not r2.is_complete:
...     r2 = r2.play(r2.legal_plays[0])
>>> sum(len(c) for c in r2.captured), len(r2.tricks), r2.score().totals == r2.score().totals
(52, 13, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final, NoReturn

# The rules of play on ints (the state's slots, _legal, _reason, _advance...) live in
# gongzhu._play; imported as module globals, the hot paths pay no attribute look-up.
from gongzhu._play import (
    _ALL,
    _BLIND,
    _CAPT,
    _CFG,
    _DEALER,
    _DEALT,
    _DECLARED,
    _DONE,
    _EXPOSED,
    _FACEDOWN,
    _FLAGS,
    _GONE,
    _HEARTS_BROKEN,
    _INIT,
    _LEADER,
    _LOG,
    _N,
    _OPENING,
    _SEED,
    _SH,
    _SHOWN,
    _TRICK,
    _TRICKS,
    _advance,
    _Config,
    _config,
    _detail,
    _legal,
    _played,
    _reason,
    _trick_cards,
)
from gongzhu._tables import POINT_CARDS, SUIT_MASKS
from gongzhu.actions import Action, _actions
from gongzhu.cards import (
    _SPLIT,
    Card,
    CardSet,
    Suit,
    _from_mask,
    _set_cards,
    _set_mask,
    parse_cards,
)
from gongzhu.errors import CardParseError, DealError, IllegalActionError, Reason, _brief
from gongzhu.phase import Phase
from gongzhu.rules import ExposureKind, RuleSet
from gongzhu.scoring import DealScore, _score
from gongzhu.trick import Trick as Trick
from gongzhu.view import PlayerView as PlayerView

# Trick, PlayerView, deal and shuffled_deck live in their own modules (trick,
# view, dealing) and stay importable from here, for older code and pickles; each
# is documented once, under the module that defines it.
__all__ = ["Phase", "Round"]

_DEFAULT_RULES: Final = RuleSet()
_CARDS: Final = tuple(Card.from_index(i) for i in range(52))
_BITS: Final = tuple(1 << i for i in range(52))


_new = object.__new__


def _make(state: tuple[Any, ...]) -> Round:
    r = _new(Round)
    _set_s(r, state)
    _set_lm(r, -1)
    return r


def _check_seat(seat: Any, n: int, action: str) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise IllegalActionError(
            Reason.NO_SUCH_SEAT, None, detail=f"seat {_brief(seat)} of {n}", action=action
        )
    return seat


def _deal_seat(seat: Any, n: int, what: str) -> int:
    # Setting up a deal with a bad seat is bad deal data, not a refused action.
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise DealError(f"{what} must be a seat 0-{n - 1}, got {_brief(seat)}")
    return seat


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


class Round:
    """One deal: the hands, the exposures, the tricks so far and whose turn it is.

    Make one with :func:`deal` (shuffled) or :meth:`from_hands`. Drive it with
    :meth:`expose`, :meth:`play` (and :meth:`claim`/:meth:`respond` when
    claims are played); ask :attr:`phase`, :attr:`to_act` and
    :meth:`legal_plays` what is expected; :meth:`why_illegal` explains a
    refusal without raising; :meth:`view` is what one seat may see.

    Seats are numbered in play order (seat ``s + 1`` plays after seat ``s``).

    >>> r = deal(seed=1)
    >>> r.phase.name, r.to_act, r.why_illegal("2S", seat=1).name
    ('EXPOSURE', 0, 'NOT_YOUR_TURN')
    >>> r2 = r.play("2S")
    >>> r2.to_act, r2.current_trick.cards, r.current_trick.cards     # r is unchanged
    (1, (Card('2S'),), ())
    """

    __slots__ = ("_lm", "_s")
    _s: tuple[Any, ...]
    _lm: int  # the legal-play mask, computed on first use (-1 until then)

    def _legal_mask(self) -> int:
        lm = self._lm
        if lm < 0:
            lm = _legal(self._s)
            _set_lm(self, lm)
        return lm

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"Round is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"Round is immutable: cannot delete {name!r}")

    def __init__(self) -> None:
        raise TypeError("use gongzhu.deal(...) or Round.from_hands(...) to make a Round")

    # -- construction ------------------------------------------------------------

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
        if len(hands) != cfg.n:
            raise DealError(f"expected {cfg.n} hands, got {len(hands)}")
        dealt: list[tuple[int, ...]] = []
        seen = 0
        for seat, hand in enumerate(hands):
            try:
                if isinstance(hand, str):
                    # parse_cards names a bad token; the dealt order is the text's order.
                    parse_cards(hand)
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
            if mask & ~rules._tables.deck:
                raise DealError(
                    f"seat {seat}: {_from_mask(mask & ~rules._tables.deck)} "
                    f"not in the {cfg.n}-player deck"
                )
            if len(cards) != cfg.hand_size:
                raise DealError(f"seat {seat}: {len(cards)} cards, expected {cfg.hand_size}")
            seen |= mask
            dealt.append(tuple(c.index for c in cards))
        return cls._start(rules, cfg, tuple(dealt), leader, dealer, None)

    @classmethod
    def _start(
        cls,
        rules: RuleSet,
        cfg: _Config,
        dealt: tuple[tuple[int, ...], ...],
        leader: int | None,
        dealer: int,
        seed: int | str | None,
    ) -> Round:
        n = cfg.n
        _deal_seat(dealer, n, "dealer")
        hands = tuple([sum(map(_BITS.__getitem__, cards)) for cards in dealt])
        opening = False
        if leader is None:
            bit = cfg.opening_card
            leader = next(s for s in range(n) if hands[s] & bit)
            opening = rules.must_lead_opening_card
        else:
            _deal_seat(leader, n, "leader")
        every = 0
        for hand in hands:
            every |= hand
        shared = (cfg, n, hands, every, dealt, dealer, opening, seed, 0, 0, 0, 0, 0)
        return _make((shared, 0, (0,) * n, leader, 0, (), 0, False, None))

    # -- what is expected next -----------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        """The rule set this deal is played under."""
        rules: RuleSet = self._s[_SH][_CFG].rules
        return rules

    @property
    def phase(self) -> Phase:
        """What is expected next (see :class:`Phase`)."""
        s = self._s
        done = s[_DONE]
        if done is True:
            return Phase.COMPLETE
        if done:
            return Phase.CLAIM
        if not s[_TRICKS] and not s[_TRICK] and s[_SH][_CFG].exposable:
            return Phase.EXPOSURE
        return Phase.PLAY

    @property
    def is_complete(self) -> bool:
        """True once the deal is over (all tricks played, or ended early by a rule)."""
        return self._s[_DONE] is True

    @property
    def to_act(self) -> int | None:
        """The seat to play next (``None`` when complete or while a claim is pending)."""
        s = self._s
        if s[_DONE]:
            return None
        return int((s[_LEADER] + (s[_TRICK] & 7)) % s[_SH][_N])

    @property
    def leader(self) -> int:
        """The seat that led (or is to lead) the current trick."""
        leader: int = self._s[_LEADER]
        return leader

    @property
    def dealer(self) -> int:
        """The dealer of this deal."""
        dealer: int = self._s[_SH][_DEALER]
        return dealer

    @property
    def seed(self) -> int | str | None:
        """The seed the deck was shuffled with (``None`` for explicit hands)."""
        seed: int | str | None = self._s[_SH][_SEED]
        return seed

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action so far, in order (:mod:`gongzhu.actions`).

        Replaying them on the starting position rebuilds this state exactly:

        >>> start = deal(seed=9)
        >>> r2 = start.play(start.legal_plays[-1])
        >>> replayed = start
        >>> for action in r2.history:
        ...     replayed = action.apply(replayed)
        >>> replayed == r2
        True
        """
        return _actions(self._s[_LOG])

    @property
    def hearts_broken(self) -> bool:
        """True once a heart has been played (for ``hearts_must_be_broken`` and the blood lock)."""
        return bool(self._s[_FLAGS] & _HEARTS_BROKEN)

    @property
    def must_lead_opening_card(self) -> bool:
        """True while the first lead of this deal must be the opening card."""
        s = self._s
        return bool(s[_SH][_OPENING]) and not s[_TRICKS] and not s[_TRICK] and s[_DONE] is not True

    @property
    def exposure_decided(self) -> tuple[int, ...]:
        """The seats that have made an exposure decision (called :meth:`expose`)."""
        declared = self._s[_SH][_DECLARED]
        return tuple(seat for seat in range(self.players) if declared >> seat & 1)

    @property
    def players(self) -> int:
        """The number of seats."""
        n: int = self._s[_SH][_N]
        return n

    # -- public state ------------------------------------------------------------

    @property
    def hands(self) -> tuple[CardSet, ...]:
        """Each seat's remaining cards, in seat order."""
        s = self._s
        gone = s[_GONE]
        return tuple([_from_mask(m & ~gone) for m in s[_SH][_INIT]])

    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards in the order they were dealt."""
        return tuple(tuple(_CARDS[i] for i in cards) for cards in self._s[_SH][_DEALT])

    @property
    def exposed(self) -> CardSet:
        """The face-up exposed cards (public)."""
        return _from_mask(self._s[_SH][_EXPOSED])

    @property
    def face_down(self) -> CardSet:
        """Cards declared face down (Chyťte prase): their holders know them, others don't."""
        return _from_mask(self._s[_SH][_FACEDOWN])

    @property
    def blind(self) -> CardSet:
        """Cards exposed blind (before their holder looked at the rest)."""
        return _from_mask(self._s[_SH][_BLIND])

    @property
    def exposures(self) -> tuple[CardSet, ...]:
        """Each seat's face-up exposed cards."""
        sh = self._s[_SH]
        return tuple(_from_mask(sh[_EXPOSED] & h) for h in sh[_INIT])

    @property
    def exposure_factors(self) -> dict[Card, int]:
        """Exposed card → its scoring factor (2 open; face-down 2, face-up 4; blind ×2)."""
        sh = self._s[_SH]
        factors = {}
        up, down, blind = sh[_EXPOSED], sh[_FACEDOWN], sh[_BLIND]
        for card in _from_mask(up | down):
            factor = sh[_CFG].face_up_factor if up & card.mask else 2
            if blind & card.mask:
                factor *= 2
            factors[card] = factor
        return factors

    @property
    def current_trick(self) -> Trick:
        """The trick in progress (possibly empty; ``winner`` is None)."""
        s = self._s
        return Trick(s[_LEADER], tuple([_CARDS[i] for i in _trick_cards(s)]), None, s[_SH][_N])

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        raw = self._s[_TRICKS]
        # Completed tricks never change and successive states share the same tuple, so
        # the Trick objects are built once per tuple, not once per call (views ask for
        # them at every card). Keyed by id with the tuple kept alive in the value.
        hit = _TRICK_OBJECTS.get(id(raw))
        if hit is not None and hit[0] is raw:
            return hit[1]
        n = self._s[_SH][_N]
        built = tuple(
            [
                Trick(lead, tuple([_CARDS[i] for i in cards]), winner, n)
                for lead, cards, winner in raw
            ]
        )
        if len(_TRICK_OBJECTS) >= 1024:
            _TRICK_OBJECTS.clear()
        _TRICK_OBJECTS[id(raw)] = (raw, built)
        return built

    @property
    def captured(self) -> tuple[CardSet, ...]:
        """Each seat's captured cards."""
        return tuple(_from_mask(m) for m in self._s[_CAPT])

    @property
    def led_suit(self) -> Suit | None:
        """The suit led to the current trick (``None`` before the lead)."""
        trick = self._s[_TRICK]
        return Suit(trick >> 3) if trick else None

    @property
    def winning_seat(self) -> int | None:
        """The seat currently winning the trick in progress."""
        return self.current_trick.winning_seat

    @property
    def trick_number(self) -> int:
        """1-based number of the trick in progress (or of the last trick when complete)."""
        s = self._s
        return len(s[_TRICKS]) + (0 if s[_DONE] is True else 1)

    @property
    def shown(self) -> CardSet:
        """Cards shown to everyone by a claim."""
        return _from_mask(self._s[_SH][_SHOWN])

    @property
    def claim_pending(self) -> tuple[int, tuple[int, ...]] | None:
        """``(claimer, seats that have accepted)`` while a claim is pending, else None."""
        claim = self._s[_DONE]
        if claim is True or not claim:
            return None
        claimer, accepted = claim
        return claimer, tuple(x for x in range(self.players) if accepted >> x & 1)

    # -- legal plays ---------------------------------------------------------------

    @property
    def legal_plays(self) -> CardSet:
        """The cards the seat to act may play (empty when no card may be played).

        >>> r = deal(seed=1)
        >>> r.legal_plays <= r.hands[r.to_act]
        True
        """
        lm = self._lm
        if lm < 0:
            s = self._s
            if s[_DONE]:
                return _from_mask(0)
            trick = s[_TRICK]
            if trick:
                # A follower: the cards of the led suit, or the whole hand when void.
                # Only an exposed card among them can change that (_legal knows how).
                sh = s[_SH]
                hand = sh[_INIT][(s[_LEADER] + (trick & 7)) % sh[_N]] & ~s[_GONE]
                lm = hand & SUIT_MASKS[trick >> 3] or hand
                if lm & sh[_EXPOSED]:
                    lm = _legal(s)
            else:
                lm = _legal(s)
            _set_lm(self, lm)
        cs = _new(CardSet)  # _from_mask inlined: this runs once per bot step
        _set_mask(cs, lm)
        _set_cards(cs, None)
        return cs

    def why_illegal(self, card: Card | str, seat: int | None = None) -> Reason | None:
        """Why ``seat`` (default: the seat to act) may not play ``card`` now; None if it may.

        >>> r = Round.from_hands(["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        ...     "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        ...     "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"])
        >>> r.why_illegal("2H"), r.why_illegal("2S", seat=1), r.why_illegal("AS")
        (<Reason.NOT_IN_HAND: 'card not in hand'>, <Reason.NOT_YOUR_TURN: 'not your turn'>, None)
        """
        card = _to_card(card)
        return _reason(self._s, card, seat)

    def can_play(self, card: Card | str, seat: int | None = None) -> bool:
        """True if :meth:`play` would accept the card."""
        return self.why_illegal(card, seat) is None

    def check_play(self, card: Card | str, seat: int | None = None) -> None:
        """Raise :class:`~gongzhu.IllegalActionError` if the card may not be played now."""
        card = _to_card(card)
        reason = _reason(self._s, card, seat)
        if reason is not None:
            acting = self.to_act if seat is None else seat
            raise IllegalActionError(reason, acting, card, _detail(self._s, reason, card))

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
        # The legal mask is only ever cached while a card may be played (not complete,
        # no claim pending), so a cached mask holding the card settles legality.
        # play() itself does not cache it: the next state is what the caller keeps,
        # and a cached mask is one more int per state kept alive.
        lm = self._lm
        if lm < 0:
            if s[_DONE]:
                self.check_play(card, seat)
            lm = _legal(s)
        if not lm & card.mask or (
            # Anything but a plain int (True, 1.0) goes through check_play's seat check.
            seat is not None
            and (seat.__class__ is not int or seat != (s[_LEADER] + (s[_TRICK] & 7)) % s[_SH][_N])
        ):
            self.check_play(card, seat)
        r = _new(Round)
        _set_s(r, _advance(s, card.index))
        _set_lm(r, -1)
        return r

    # -- exposure ------------------------------------------------------------------

    def expose(
        self,
        cards: Iterable[Card | str] | str,
        seat: int | None = None,
        *,
        face_down: bool = False,
        blind: bool = False,
    ) -> Round:
        """``seat`` exposes ``cards`` (any of the rule set's exposable cards it holds).

        Like :meth:`play`, the action comes first and the seat second; ``seat``
        may be left out under ``exposure_order="in-turn"``, where the seat that
        decides next is known.

        Allowed before the first card is played. ``face_down`` declares them
        face down (``exposure_kind="face-down-up"``); ``blind`` exposes the
        first card dealt to the seat (``blind_exposure=True``). Under
        ``exposure_order="in-turn"`` seats decide in turn from the leader,
        once each (an empty ``cards`` passes).

        >>> r = deal(seed=3)
        >>> holder = next(s for s, h in enumerate(r.hands) if Card("QS") in h)
        >>> r.expose("QS", seat=holder).exposed
        CardSet('QS')
        """
        s = self._s
        sh = s[_SH]
        cfg: _Config = sh[_CFG]
        if seat is None:
            seat = self._next_to_expose()
        seat = _check_seat(seat, cfg.n, "expose")
        _check_flag(face_down, "face_down", seat, "expose")
        _check_flag(blind, "blind", seat, "expose")
        try:
            chosen = parse_cards(cards)
        except (CardParseError, TypeError) as exc:
            raise IllegalActionError(
                Reason.NOT_EXPOSABLE, seat, detail=str(exc), action="expose"
            ) from None

        def refuse(reason: Reason, card: Card | None = None, detail: str = "") -> NoReturn:
            raise IllegalActionError(reason, seat, card, detail, action="expose")

        if not cfg.exposable:
            refuse(Reason.EXPOSURE_OFF)
        if s[_DONE] or s[_TRICKS] or s[_TRICK]:
            refuse(Reason.WRONG_PHASE, detail="exposure ends when the first card is played")
        hand = sh[_INIT][seat] & ~s[_GONE]
        for card in chosen:
            if not hand & card.mask:
                refuse(Reason.NOT_IN_HAND, card)
            if not cfg.exposable & card.mask:
                refuse(Reason.NOT_EXPOSABLE, card, f"exposable: {_from_mask(cfg.exposable)}")
            if (sh[_EXPOSED] | sh[_FACEDOWN]) & card.mask:
                refuse(Reason.ALREADY_EXPOSED, card)
        declared = sh[_DECLARED]
        if cfg.in_turn:
            order = [(s[_LEADER] + i) % cfg.n for i in range(cfg.n)]
            waiting = [x for x in order if not declared >> x & 1]
            if not waiting or waiting[0] != seat:
                refuse(
                    Reason.EXPOSURE_OUT_OF_TURN,
                    detail=f"seat {waiting[0]} decides next" if waiting else "all decided",
                )
        if face_down and cfg.rules.exposure_kind is not ExposureKind.FACE_DOWN_UP:
            refuse(Reason.NOT_EXPOSABLE, detail="face-down exposure is not played")
        mask = chosen.mask
        blind_mask = sh[_BLIND]
        if blind:
            first = sh[_DEALT][seat][0] if sh[_DEALT][seat] else -1
            if not cfg.rules.blind_exposure:
                refuse(Reason.NOT_EXPOSABLE, detail="blind exposure is not played")
            if mask != 1 << first:
                refuse(Reason.NOT_FIRST_DEALT_CARD, chosen[0] if chosen else None)
            blind_mask |= mask
        exposed, facedown = sh[_EXPOSED], sh[_FACEDOWN]
        if face_down:
            facedown |= mask
        else:
            exposed |= mask
        shared = (*sh[:_EXPOSED], exposed, facedown, blind_mask, declared | 1 << seat, sh[_SHOWN])
        return _make((shared, *s[1:_LOG], (s[_LOG], ("expose", seat, mask, face_down, blind))))

    def _next_to_expose(self) -> int:
        """The seat that decides next under in-turn exposure (refuse a missing seat otherwise)."""
        s = self._s
        cfg: _Config = s[_SH][_CFG]
        if cfg.in_turn:
            declared = s[_SH][_DECLARED]
            for i in range(cfg.n):
                x = (s[_LEADER] + i) % cfg.n
                if not declared >> x & 1:
                    return int(x)
        raise IllegalActionError(
            Reason.NO_SUCH_SEAT, None, detail="name the seat that exposes", action="expose"
        )

    def exposure_preview(self, seat: int) -> dict[Card, str]:
        """For each exposable card ``seat`` holds and has not exposed: what exposing it changes."""
        from gongzhu.scoring import exposure_preview

        s = self._s
        sh = s[_SH]
        seat = _check_seat(seat, sh[_N], "expose")
        hand = sh[_INIT][seat] & ~s[_GONE]
        held = hand & sh[_CFG].exposable & ~(sh[_EXPOSED] | sh[_FACEDOWN])
        return {c: str(exposure_preview(c, self.rules)) for c in _from_mask(held)}

    # -- claims --------------------------------------------------------------------

    def claim(self, seat: int | None = None) -> Round:
        """The seat to act shows its hand and claims every remaining trick (``claims=True``)."""
        s = self._s
        sh = s[_SH]
        cfg: _Config = sh[_CFG]
        acting = self.to_act
        if not cfg.claims:
            raise IllegalActionError(Reason.CLAIMS_OFF, acting, action="claim")
        if acting is None:
            raise IllegalActionError(Reason.WRONG_PHASE, seat, action="claim")
        if seat is not None and _check_seat(seat, cfg.n, "claim") != acting:
            raise IllegalActionError(Reason.NOT_YOUR_TURN, seat, action="claim")
        shared = (*sh[:_SHOWN], sh[_SHOWN] | sh[_INIT][acting] & ~s[_GONE])
        return _make((shared, *s[1:_DONE], (acting, 0), (s[_LOG], ("claim", acting))))

    def respond(self, accept: bool, seat: int | None = None) -> Round:
        """``seat`` accepts or refuses the pending claim.

        One refusal ends the claim (play continues, the claimer's hand stays
        shown). When every other seat has accepted, the claimer captures all
        cards still in play and the deal is complete. ``seat`` left out is
        the next seat after the claimer, in seat order, that has not answered.
        """
        s = self._s
        cfg: _Config = s[_SH][_CFG]
        if seat is None:
            pending = s[_DONE]
            if isinstance(pending, tuple):
                claimer, answered = pending
                seat = next(
                    x
                    for x in ((claimer + i) % cfg.n for i in range(1, cfg.n))
                    if not answered >> x & 1
                )
        seat = _check_seat(seat, cfg.n, "respond")
        _check_flag(accept, "accept", seat, "respond")
        claim = s[_DONE]
        if claim is True or not claim:
            raise IllegalActionError(Reason.WRONG_PHASE, seat, detail="no claim", action="respond")
        claimer, accepted = claim
        if seat == claimer or accepted >> seat & 1:
            raise IllegalActionError(Reason.NOT_YOUR_TURN, seat, action="respond")
        state = list(s)
        state[_LOG] = (s[_LOG], ("respond", seat, bool(accept)))
        if not accept:
            state[_DONE] = False
            return _make(tuple(state))
        accepted |= 1 << seat
        if accepted | 1 << claimer != (1 << cfg.n) - 1:
            state[_DONE] = (claimer, accepted)
            return _make(tuple(state))
        every = s[_SH][_ALL]
        rest = every & ~s[_GONE]
        for i in _trick_cards(s):
            rest |= 1 << i
        capt = list(s[_CAPT])
        capt[claimer] |= rest
        state[_CAPT] = tuple(capt)
        state[_GONE] = every
        state[_TRICK] = 0
        state[_DONE] = True
        return _make(tuple(state))

    # -- result ----------------------------------------------------------------------

    def score(self) -> DealScore:
        """The deal's :class:`~gongzhu.DealScore` (the round must be complete)."""
        s = self._s
        if s[_DONE] is not True:
            raise IllegalActionError(
                Reason.WRONG_PHASE, None, detail="the deal is not complete", action="score"
            )
        rules = self.rules
        queen = None
        if rules.queen_of_diamonds_bonus:
            counts = [0] * s[_SH][_N]
            taker = None
            for _lead, cards, winner in s[_TRICKS]:
                if taker is not None and winner == taker:
                    counts[taker] += 1
                if taker is None and any(i == 23 for i in cards):
                    taker = winner
            queen = tuple(counts)
        return _score(s[_CAPT], self.exposure_factors, rules, rules._tables, queen)

    # -- views -----------------------------------------------------------------------

    def view(self, seat: int) -> PlayerView:
        """Everything ``seat`` may know, and nothing else (safe to send to that player)."""
        s = self._s
        sh = s[_SH]
        cfg: _Config = sh[_CFG]
        seat = _check_seat(seat, cfg.n, "view")
        initial = sh[_INIT]
        gone = s[_GONE]
        exposed = sh[_EXPOSED]
        capt = s[_CAPT]
        return PlayerView(
            seat=seat,
            rules=cfg.rules,
            phase=self.phase,
            hand=_from_mask(initial[seat] & ~gone),
            first_dealt=_CARDS[sh[_DEALT][seat][0]] if sh[_DEALT][seat] else None,
            to_act=self.to_act,
            leader=s[_LEADER],
            dealer=sh[_DEALER],
            exposures=tuple(_from_mask(exposed & h) for h in initial),
            own_face_down=_from_mask(sh[_FACEDOWN] & initial[seat]),
            face_down_counts=tuple((sh[_FACEDOWN] & h).bit_count() for h in initial),
            current_trick=self.current_trick,
            tricks=self.tricks,
            captured_points=tuple(_from_mask(c & POINT_CARDS) for c in capt),
            hand_sizes=tuple((h & ~gone).bit_count() for h in initial),
            shown=_from_mask(sh[_SHOWN] & ~_played(s) if sh[_SHOWN] else 0),
            legal_plays=self.legal_plays if self.to_act == seat else _from_mask(0),
        )

    def unseen(self, seat: int) -> CardSet:
        """Cards ``seat`` has not seen: in other hands, not exposed face up, not shown."""
        s = self._s
        sh = s[_SH]
        seat = _check_seat(seat, sh[_N], "view")
        others = 0
        for x, hand in enumerate(sh[_INIT]):
            if x != seat:
                others |= hand
        return _from_mask(others & ~s[_GONE] & ~sh[_EXPOSED] & ~sh[_SHOWN])

    # -- dunder ----------------------------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        # The config and the seat count follow from the rules.
        s = self._s
        sh = s[_SH]
        return (sh[_CFG].rules, sh[_INIT:], s[1:])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key()[1:])

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        rules, shared, rest = self._key()
        return (_restore_state, (rules, shared, rest))

    def __repr__(self) -> str:
        s = self._s
        phase = self.phase
        if phase is Phase.COMPLETE:
            return f"<Round complete, {len(s[_TRICKS])} tricks, totals {self.score().totals}>"
        trick = " ".join(_CARDS[i].symbol for i in _trick_cards(s))
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
        trick = self.current_trick._repr_html_() if self._s[_TRICK] else ""
        return (
            f"<div><table><tr><th>seat</th><th>hand</th><th>captured</th></tr>{rows}</table>"
            f"{trick}</div>"
        )


# The slots' own setters: cheaper than object.__setattr__ (no name look-up).
_set_s = Round.__dict__["_s"].__set__
_set_lm = Round.__dict__["_lm"].__set__


def _restore_state(rules: RuleSet, shared: tuple[Any, ...], rest: tuple[Any, ...]) -> Round:
    cfg = _config(rules)
    return _make(((cfg, cfg.n, *shared), *rest))


_TRICK_OBJECTS: dict[int, tuple[tuple[Any, ...], tuple[Trick, ...]]] = {}


# Re-exported last: gongzhu.dealing needs Round (defined above) to deal one.
from gongzhu.dealing import deal as deal  # noqa: E402
from gongzhu.dealing import shuffled_deck as shuffled_deck  # noqa: E402
