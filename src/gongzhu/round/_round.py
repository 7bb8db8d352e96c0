"""The :class:`Round` class, whole: what it reports and the actions that make the next one.

Part of :mod:`gongzhu.round` (import it from there). One cohesive class in one module
(docs/architecture.rst, "Cohesion, not line count"): its arguments are checked in
:mod:`gongzhu.round._checks`, and :meth:`Round.rollout` with strategies runs in
:mod:`gongzhu.round._rollout`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final, NoReturn

from gongzhu._base.seeds import SEED_INT_LIMIT
from gongzhu._base.text import brief
from gongzhu._codec import encoding as _encoding
from gongzhu._core import play as _p
from gongzhu._core.bits import BIT
from gongzhu._core.config import Config
from gongzhu._core.play import advance as _advance
from gongzhu._core.play import legal as _legal
from gongzhu._core.play import legal_ids as _legal_ids
from gongzhu._core.play import legal_uncached as _legal_now
from gongzhu._core.play import play_ids as _play_ids
from gongzhu._core.play import try_play as _try_play
from gongzhu._core.rng import seed_state as _seed_state
from gongzhu._core.rollout import rollout_random as _rollout_random
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
    key,
    restore,
    trick_cards,
)
from gongzhu._core.state import begin as _begin
from gongzhu.actions import Action, Claim, ClaimResponse, Exposure, Play
from gongzhu.cards import Card, CardSet, Suit, unchecked_cardset
from gongzhu.errors import (
    ActionTypeError,
    DealError,
    DealNotOverError,
    IllegalActionError,
    Reason,
)
from gongzhu.phase import Phase as Phase
from gongzhu.round._checks import (
    _check_flag,
    _check_seat,
    _deal_seat,
    _exposure_masks,
    _hands_from,
    _is_seat,
    _to_card,
)
from gongzhu.round._config import _DETAILS, _REASONS
from gongzhu.round._rollout import rollout as _rollout
from gongzhu.rules import RuleSet
from gongzhu.scoring import DealScore, score_of_state
from gongzhu.trick import Trick as Trick
from gongzhu.trick import trusted_trick, trusted_tricks
from gongzhu.view import PlayerView as PlayerView

__all__ = ["Round"]

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


_DEFAULT_RULES: Final = RuleSet()
_BIT_OF: Final = BIT.__getitem__


def _make(state: State) -> Round:
    r = _new(Round)
    _set_s(r, state)
    return r


class Round:
    """One deal: the hands, the exposures, the tricks so far and whose turn it is.

    Make one with :func:`~gongzhu.deal` (shuffled) or :meth:`from_hands`.
    Drive it with :meth:`expose`, :meth:`play` (and :meth:`claim` /
    :meth:`respond` when claims are played), or :meth:`apply` with an action
    record; :meth:`rollout` plays it to the end. Ask :attr:`phase`,
    :attr:`to_act` and :attr:`legal_plays` what is expected;
    :meth:`why_illegal` explains a refusal without raising; :meth:`view` is
    what one seat may see. It speaks the positions' one vocabulary
    (:class:`~gongzhu.Position`: :attr:`to_act`, :attr:`is_over`,
    :meth:`legal_actions`, :meth:`totals`), as :class:`~gongzhu.Board` does.

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

    def __init__(self) -> None:
        raise TypeError("use gongzhu.deal(...) or Round.from_hands(...) to make a Round")

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
        sealed exposure choices included (specification §9.2): while
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

        The first card may be led once this is empty (specification §9.1).
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
        would be refused (specification §9.7), so a refused claimer gets no
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
        """Raise :class:`~gongzhu.IllegalActionError` if the card may not be played now
        (an :class:`~gongzhu.errors.ActionTypeError` too for a seat that is no int)."""
        card = _to_card(card)
        reason = self.why_illegal(card, seat)
        if reason is not None:
            no_int = seat is not None and (type(seat) is bool or not isinstance(seat, int))
            raise (ActionTypeError if no_int else IllegalActionError)(
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

    def totals(self) -> tuple[int, ...]:
        """Each seat's deal score, in seat order (the deal must be over): ``score().totals``.

        The same name, and the same numbers, as :meth:`Board.totals <gongzhu.Board.totals>`
        (:class:`~gongzhu.Position`).

        >>> from gongzhu import deal
        >>> end = deal(seed=3).rollout(seed=11)
        >>> end.totals() == end.score().totals
        True
        """
        return self.score().totals

    def view(self, seat: int | None) -> PlayerView:
        """Everything ``seat`` may know, and nothing else (safe to send to that player).

        >>> from gongzhu import deal
        >>> r = deal(seed=2).pass_exposure()
        >>> v = r.view(r.to_act)
        >>> v.hand == r.hands[r.to_act], v.legal_plays == r.legal_plays, r.view(3).legal_plays
        (True, True, CardSet(''))

        ``seat=None`` is a spectator's view, of no seat: the public facts only (no
        hand, asked nothing, each seat's exposures once every other seat may see
        them, specification §9.2). Its ``seat`` is ``-1``, ``null`` in its JSON.

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

    # -- construction and the core ------------------------------------------------------

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Iterable[Card | str] | str],
        *,
        rules: RuleSet | str = _DEFAULT_RULES,
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
        if isinstance(rules, str):  # a preset's name
            rules = RuleSet.preset(rules)
        if not isinstance(rules, RuleSet):
            raise DealError(f"rules must be a RuleSet, got {type(rules).__name__}")
        cfg = rules.engine
        return cls._start(rules, cfg, _hands_from(hands, cfg), leader, dealer, None)

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
    def from_engine_state(cls, state: State) -> Round:
        """The Round of an engine core state: another round's :attr:`engine_state`, or a
        state the core's functions made from one. Nothing is checked, so give it only
        states that came from the engine.

        >>> from gongzhu import deal
        >>> r = deal(seed=1)
        >>> Round.from_engine_state(r.engine_state) == r
        True
        """
        return _make(state)

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

    def apply(self, action: int | Action, seat: int | None = None) -> Round:
        """Do one action: an action id (:meth:`legal_actions`) or an action record
        (:mod:`gongzhu.actions`).

        An int is the integer lane: ``seat`` defaults to the seat to act (see
        :meth:`legal_actions`), and an id that is not legal now is refused with
        :class:`~gongzhu.IllegalActionError` like the method it stands for.
        A record carries its own seat (a different ``seat`` is refused). The wire
        form is the protocol's: :meth:`Action.from_dict <gongzhu.Action.from_dict>`
        reads a JSON action (a malformed one raises :class:`~gongzhu.ProtocolError`),
        so a table server is ``round = round.apply(Action.from_dict(message))``.

        >>> from gongzhu import Card
        >>> from gongzhu import Play, deal
        >>> r = deal(seed=5).pass_exposure()
        >>> r.apply(Play(seat=0, card=Card("2C"))) == r.play("2C", seat=0)
        True
        >>> from gongzhu import Action
        >>> message = {"type": "play", "seat": 0, "card": "2C"}
        >>> r.apply(Action.from_dict(message)) == r.play("2C", seat=0)
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
            Reason.INVALID_CHOICE, seat, detail=f"no action id {brief(action)}", action="apply"
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
        >>> end.is_over, end == deal(seed=3).rollout(seed=11)
        (True, True)
        """
        if strategy is None and seed.__class__ is int and -SEED_INT_LIMIT < seed < SEED_INT_LIMIT:
            # Every seat random, seeded: straight into the core (what _rollout does for it).
            return _make(_rollout_random(self._s, _seed_state(seed)))
        end: Round = _rollout(self, strategy, seed)
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

        Every seat decides once, before the first lead (specification §9.1): an
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

        >>> from gongzhu import Card
        >>> from gongzhu import RuleSet, deal
        >>> r = deal(seed=3)
        >>> holder = next(s for s, h in enumerate(r.hands) if Card("QS") in h)
        >>> r.expose("QS", seat=holder).exposed
        CardSet('QS')
        """
        seat, up, down = self._exposure(cards, seat, face_down, blind)
        return _make(_p.decide(self._s, seat, up, down, blind))

    def _exposure(
        self,
        cards: Iterable[Card | str] | str,
        seat: int | None,
        face_down: bool | Iterable[Card | str] | str,
        blind: bool,
    ) -> tuple[int, int, int]:
        """``(seat, face-up mask, face-down mask)`` of an exposure :meth:`expose` accepts;
        :class:`~gongzhu.IllegalActionError` (with the reason) for one it refuses."""
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
                detail = f"exposable: {unchecked_cardset(s.table.cfg.exposable)}"
            elif code == _p.EXPOSURE_OUT_OF_TURN:
                waiting = _p.next_to_expose(s)
                detail = f"seat {waiting} decides next" if waiting >= 0 else "all decided"
            card = _CARDS[index] if index >= 0 else None
            raise IllegalActionError(_REASONS[code], seat, card, detail, action="expose")
        return seat, up, down

    def check_expose(
        self,
        cards: Iterable[Card | str] | str,
        seat: int | None = None,
        *,
        face_down: bool | Iterable[Card | str] | str = False,
        blind: bool = False,
    ) -> None:
        """Raise the :class:`~gongzhu.IllegalActionError` :meth:`expose` would raise, if any.

        The verify of the verify/can/do triplet (``check_expose``/:meth:`can_expose`/
        :meth:`expose`); the error's ``reason`` says why.

        >>> from gongzhu import deal
        >>> r = deal(seed=3)
        >>> r.check_expose("QS", seat=0)
        Traceback (most recent call last):
        ...
        gongzhu.errors.IllegalActionError: seat 0 may not expose Q♠: card not in hand
        """
        self._exposure(cards, seat, face_down, blind)

    def can_expose(
        self,
        cards: Iterable[Card | str] | str,
        seat: int | None = None,
        *,
        face_down: bool | Iterable[Card | str] | str = False,
        blind: bool = False,
    ) -> bool:
        """True if :meth:`expose` would accept these arguments.

        >>> from gongzhu import deal
        >>> r = deal(seed=3)
        >>> r.can_expose("", seat=0), r.can_expose("QS", seat=0)
        (True, False)
        """
        try:
            self._exposure(cards, seat, face_down, blind)
        except IllegalActionError:
            return False
        return True

    def pass_exposure(self) -> Round:
        """Every seat that has not decided on exposure declines (in turn from the leader).

        >>> from gongzhu import deal
        >>> r = deal(seed=3)
        >>> r.legal_plays, r.pass_exposure().phase.name, len(r.pass_exposure().legal_plays) > 0
        (CardSet(''), 'PLAY', True)
        """
        return _make(_p.decline_all(self._s)) if _p.exposure_open(self._s) else self

    # -- claims ------------------------------------------------------------------------

    def claim(self, seat: int | None = None) -> Round:
        """The seat to act shows its hand and claims every remaining trick (``claims=True``)."""
        self.check_claim(seat)
        return _make(_p.claim(self._s))

    def check_claim(self, seat: int | None = None) -> None:
        """Raise the :class:`~gongzhu.IllegalActionError` :meth:`claim` would raise, if any.

        >>> from gongzhu import deal
        >>> deal(seed=1).pass_exposure().check_claim()
        Traceback (most recent call last):
        ...
        gongzhu.errors.IllegalActionError: seat 0 may not claim: claims are not played
        """
        s = self._s
        if seat is not None:
            seat = _check_seat(seat, s.table.n, "claim")
        code = _p.claim_reason(s, -1 if seat is None else seat)
        if code:
            raise IllegalActionError(
                _REASONS[code], self.to_act if seat is None else seat, action="claim"
            )

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
        seat = self._responder(accept, seat)
        return _make(_p.respond(self._s, seat, accept))

    def _responder(self, accept: bool, seat: int | None) -> int:
        """The seat that answers the claim (checked): what :meth:`respond` accepts."""
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
        return seat

    def check_respond(self, accept: bool = True, seat: int | None = None) -> None:
        """Raise the :class:`~gongzhu.IllegalActionError` :meth:`respond` would raise, if any.

        >>> from gongzhu import deal
        >>> deal(seed=1).pass_exposure().check_respond(True, seat=1)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        gongzhu.errors.IllegalActionError: seat 1 may not respond: ... (no claim)
        """
        self._responder(accept, seat)

    def can_respond(self, accept: bool = True, seat: int | None = None) -> bool:
        """True if :meth:`respond` would accept this answer by ``seat``."""
        try:
            self._responder(accept, seat)
        except IllegalActionError:
            return False
        return True

    # -- result and views --------------------------------------------------------------

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


# The slot's own setter: cheaper than object.__setattr__ (no name look-up).
_set_s = Round.__dict__["_s"].__set__


def _restore_state(rules: RuleSet, k: tuple[Any, ...]) -> Round:
    return _make(restore(rules.engine, *k))


# The methods' doctests run here (the package sets Round's __module__ to its path).
__test__ = {"Round": Round}
