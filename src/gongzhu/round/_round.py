"""The :class:`Round` class. Part of :mod:`gongzhu.round` (import it from there)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from gongzhu._base.deprecation import keyword_only
from gongzhu._base.seeds import SEED_INT_LIMIT
from gongzhu._base.text import brief
from gongzhu._codec import encoding as _encoding
from gongzhu._core import play as _p
from gongzhu._core.bits import BIT
from gongzhu._core.config import Config
from gongzhu._core.play import advance as _advance
from gongzhu._core.play import legal_uncached as _legal_now
from gongzhu._core.play import try_play as _try_play
from gongzhu._core.rng import seed_state as _seed_state
from gongzhu._core.rollout import rollout_random as _rollout_random
from gongzhu._core.state import State, key, restore, trick_cards
from gongzhu._core.state import begin as _begin
from gongzhu.actions import Action, Claim, ClaimResponse, Exposure, Play
from gongzhu.cards import Card, unchecked_cardset
from gongzhu.errors import DealError, IllegalActionError, Reason
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
from gongzhu.round._position import _CARDS, _actor, _Position
from gongzhu.round._rollout import rollout as _rollout
from gongzhu.rules import RuleSet
from gongzhu.scoring import exposure_preview
from gongzhu.trick import Trick as Trick
from gongzhu.view import PlayerView as PlayerView

__all__ = ["Round"]

_DEFAULT_RULES: Final = RuleSet()
_new = object.__new__
_BIT_OF: Final = BIT.__getitem__


def _make(state: State) -> Round:
    r = _new(Round)
    _set_s(r, state)
    return r


class Round(_Position):
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

    __slots__ = ()

    def __init__(self) -> None:
        raise TypeError("use gongzhu.deal(...) or Round.from_hands(...) to make a Round")

    # -- construction and the core ------------------------------------------------------

    @classmethod
    @keyword_only("rules")
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

        >>> from gongzhu import Card
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

    def exposure_preview(self, seat: int) -> dict[Card, str]:
        """For each exposable card ``seat`` holds and has not exposed: what exposing it changes."""
        s = self._s
        t = s.table
        seat = _check_seat(seat, t.n, "expose")
        held = t.hands[seat] & ~s.gone & t.cfg.exposable & ~(t.up | t.down)
        return {c: str(exposure_preview(c, rules=self.rules)) for c in unchecked_cardset(held)}

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
_set_s = _Position.__dict__["_s"].__set__


def _restore_state(rules: RuleSet, k: tuple[Any, ...]) -> Round:
    return _make(restore(rules.engine, *k))


# The methods' doctests run here (the package sets Round's __module__ to its path).
__test__ = {"Round": Round}
