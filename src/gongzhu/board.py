"""A mutable board of one deal's card play, for people who write their own search.

:class:`~gongzhu.Round` is immutable: every play builds a new round, which is
what a table, a record or an undo list wants. A search wants the opposite:
one position it changes in place and takes back, thousands of times a
second. ``Board(round)`` gives that position as a :class:`Board`, in the
style python-chess's ``Board.push``/``pop`` and OpenSpiel's
``apply_action``/``undo_action`` made familiar:

>>> from gongzhu import Board, deal
>>> r = deal(seed=7).pass_exposure()
>>> b = Board(r)
>>> ids = b.legal_actions()
>>> ids == r.legal_actions()
True
>>> b.push(5)                               # seat 2 leads 7♣ (card index 5)
>>> b.push(b.legal_actions()[-1])           # seat 3 follows with its highest club, J♣
>>> b.plays, b.to_round() == r.apply(5).apply(9)
((5, 9), True)
>>> b.pop(), b.pop(), b.to_round() == r     # taken back, last first
(9, 5, True)
>>> totals = b.copy().rollout(seed=5)      # a random playout of a copy: the deal's totals
>>> totals == r.rollout(seed=5).score().totals
True

Actions are the protocol's ids (a play's id is its card's index, 0–51;
:mod:`gongzhu.protocol`). The board holds the card play only: it starts once
every seat has decided on exposure and no claim is pending, and it knows no
claims. The rules of play are the engine core's (:mod:`gongzhu._core`), the
same the :class:`~gongzhu.Round` obeys; a board and a round agree on every
legal set, every play and every total (the core's differential law checks
it). Turn a board back into a round with :meth:`Board.to_round` (the
history included) to validate, record, score or show it.

A board is not thread-safe and not picklable; :meth:`~Board.to_round` is the
form to keep.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, NoReturn

from gongzhu._base.seeds import SEED_INT_LIMIT, check_seed
from gongzhu._base.text import brief
from gongzhu._core import board as _board
from gongzhu._core import policy as _policy
from gongzhu._core.greedy import trick_values as _trick_values
from gongzhu._core.infoset import Info
from gongzhu._core.play import exposure_open as _exposure_open
from gongzhu._core.play import mask_ids as _mask_ids
from gongzhu._core.rng import seed_state as _seed_state
from gongzhu._core.state import CLAIMING, State
from gongzhu.cards import Card, CardSet, Suit, unchecked_cardset
from gongzhu.errors import ActionTypeError, DealNotOverError, IllegalActionError, Reason
from gongzhu.phase import Phase
from gongzhu.round import Round
from gongzhu.rules import ExposureOrder, RuleSet
from gongzhu.trick import Trick, trusted_trick
from gongzhu.view import PlayerView

__all__ = ["POLICIES", "Board"]

POLICIES: Final = ("random", "rule-of-thumb", "greedy")
"""The policies :meth:`Board.rollout` plays by name."""

# How much the greedy bot's early leads prefer a short suit: points per card of difference
# from the other hands' mean length, over its first leads (gongzhu.ai.greedy uses them).
GREEDY_SHORT_PREFERENCE: Final = 30
GREEDY_SHORT_TRICKS: Final = 3


def greedy_values(b: _board.Board, ids: list[int]) -> list[float]:
    """The greedy bot's value of each card of ``ids`` (legal for the seat to act on ``b``, a
    board whose every hand is known): its one-trick value, and on an early lead the
    short-suit preference. The greedy policy plays the best."""
    values = _trick_values(b, ids)
    if not b.trick and b.ntricks < GREEDY_SHORT_TRICKS:
        hand = b.hands[(b.leader + len(b.trick)) % b.cfg.n]
        for k, card in enumerate(ids):
            values[k] += _policy.short_suit_bonus(
                b.cfg, hand, b.played, card // 13, GREEDY_SHORT_PREFERENCE
            )
    return values


class _Greedy:
    """The greedy bot's choice on a board whose every hand is known (a core policy)."""

    __slots__ = ()

    def choose(self, b: _board.Board) -> int:
        legal = b.legal()
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        ids = _mask_ids(legal)
        values = greedy_values(b, ids)
        best = max(values)
        tied = 0
        for card, value in zip(ids, values, strict=True):
            if value >= best - 1e-9:
                tied |= 1 << card
        if not tied & (tied - 1):
            return tied.bit_length() - 1
        choice = _policy.choose_board(b, tied)  # ties: the rule of thumb among the tied cards
        if tied >> choice & 1:
            return choice
        return max(_mask_ids(tied), key=lambda c: (c % 13, c))


_BY_NAME: Final[dict[str, object]] = {
    "random": None,  # the core's own generator, seeded by the rollout's seed
    "rule-of-thumb": _policy.RuleOfThumb(),
    "greedy": _Greedy(),
}


_ALL_RANDOM: Final[list[object]] = [None] * 5  # every seat random (the core reads n of them)


class _Asked:
    """A caller's policy (``board -> action id``) as a core policy: it is asked with the
    public board being rolled out, which must come back unchanged."""

    __slots__ = ("board", "policy")

    def __init__(self, policy: Callable[[Board], int], board: Board) -> None:
        self.policy = policy
        self.board = board

    def choose(self, b: _board.Board) -> int:
        before = len(b.plays)
        card = self.policy(self.board)
        if len(b.plays) != before:
            detail = "a policy reads the board; it must not push or pop"
            raise IllegalActionError(Reason.INVALID_CHOICE, None, detail=detail, action="rollout")
        if card.__class__ is not int or not 0 <= card < 52 or not b.legal() >> card & 1:
            error = IllegalActionError if isinstance(card, int) else ActionTypeError
            detail = f"the policy chose {brief(card)}, not a legal play now"
            raise error(Reason.INVALID_CHOICE, b.to_act(), detail=detail, action="rollout")
        return card


def _policies(policy: object, n: int, board: Board) -> list[object]:
    """One core policy per seat from a policy (a name or a callable) or one per seat."""
    names = [policy] * n if isinstance(policy, str) or callable(policy) else policy
    if not isinstance(names, Sequence) or len(names) != n:
        detail = f"policy must be one of {', '.join(POLICIES)} or a callable, or one per seat ({n})"
        error = IllegalActionError if isinstance(names, Sequence) else ActionTypeError
        raise error(Reason.INVALID_CHOICE, None, detail=detail, action="rollout")
    out: list[object] = []
    for name in names:
        if callable(name):
            out.append(_Asked(name, board))
            continue
        if not isinstance(name, str):
            detail = (
                f"a policy is a name or a callable, got {brief(name)}; known: {', '.join(POLICIES)}"
            )
            raise ActionTypeError(Reason.INVALID_CHOICE, None, detail=detail, action="rollout")
        if name not in _BY_NAME:
            detail = f"unknown policy {brief(name)}; known: {', '.join(POLICIES)}"
            raise IllegalActionError(Reason.INVALID_CHOICE, None, detail=detail, action="rollout")
        out.append(_BY_NAME[name])
    return out


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def _refuse(detail: str) -> NoReturn:
    raise IllegalActionError(Reason.INVALID_CHOICE, None, detail=detail, action="board")


_NO_CARDS: Final = CardSet()


def _refuse_seed(detail: str) -> IllegalActionError:
    return IllegalActionError(Reason.INVALID_CHOICE, None, detail=detail, action="rollout")


def _refuse_seed_type(detail: str) -> IllegalActionError:
    return ActionTypeError(Reason.INVALID_CHOICE, None, detail=detail, action="rollout")


class Board:
    """One deal's card play as a mutable position: ``Board(round)``, from a round whose
    exposure decisions are all made and where no claim is pending.

    :meth:`legal_actions` lists the legal ids of the seat to act,
    :meth:`push` plays one and :meth:`pop` takes the last push back;
    :meth:`push_card` plays a card given as a :class:`~gongzhu.Card` or its text,
    and :meth:`why_illegal` says why a card may not be played (as the round does);
    :meth:`copy` branches (the copy's undo stack starts empty);
    :meth:`rollout` plays the rest (at random, or by a policy); :meth:`totals` scores a
    finished deal; :meth:`to_round` is the :class:`~gongzhu.Round` reached.
    """

    __slots__ = ("_b", "_origin")
    _b: _board.Board
    _origin: State | Callable[[], Round]  # a callable: the round is rebuilt on demand

    def __init__(self, round_: Round) -> None:
        if not isinstance(round_, Round):
            raise ActionTypeError(
                Reason.INVALID_CHOICE,
                None,
                detail=f"a Board is made from a Round, got {type(round_).__name__}",
                action="board",
            )
        s = round_.engine_state
        if _exposure_open(s):
            raise IllegalActionError(
                Reason.EXPOSURE_PENDING,
                None,
                detail="a board starts once every seat has decided on exposure",
                action="board",
            )
        if s.done == CLAIMING:
            raise IllegalActionError(
                Reason.WRONG_PHASE, None, detail="a claim is pending", action="board"
            )
        object.__setattr__(self, "_origin", s)
        object.__setattr__(self, "_b", _board.of_state(s))

    @classmethod
    def from_view(
        cls, view: PlayerView, hands: Sequence[CardSet], face_down: CardSet = _NO_CARDS
    ) -> Board:
        """``view``'s position in the deal where seat ``s`` holds ``hands[s]`` now (its own
        hand among them) and ``face_down`` are the face-down cards: a board to search a
        sampled deal on (:meth:`gongzhu.ai.Worlds.board <gongzhu.ai.worlds.Worlds.board>`).

        It is built without replaying the view's history; :meth:`to_round` replays it
        when asked. The view must be in card play with no claim pending, and the hands
        must hold the seat's own hand, the cards exposed face up, and no card played.
        """
        if not isinstance(view, PlayerView) or view.phase is not Phase.PLAY:
            got = view.phase.value if isinstance(view, PlayerView) else type(view).__name__
            _refuse(f"a board starts from a view in card play, with no claim pending; got {got}")
        n = view.rules.players
        if (
            isinstance(hands, (str, CardSet))
            or not isinstance(hands, Sequence)
            or len(hands) != n
            or not all(isinstance(h, CardSet) for h in hands)
            or not isinstance(face_down, CardSet)
        ):
            _refuse(f"hands are {n} CardSets, one per seat, and face_down a CardSet")
        played = view.info.played_by
        masks = [h.mask for h in hands]
        gone = 0
        for p in played:
            gone |= p
        every = gone
        for s, m in enumerate(masks):
            if m & every or m.bit_count() != view.hand_sizes[s]:
                _refuse(f"seat {s}'s hand overlaps another or a played card, or has a wrong size")
            if view.exposures[s].mask & ~gone & ~m:
                _refuse(f"seat {s}'s hand lacks a card it exposed")
            every |= m
        if masks[view.seat] != view.hand.mask:
            _refuse(f"seat {view.seat}'s hand is not the view's own hand")
        mask = face_down.mask

        def rebuild() -> Round:
            return round_of_world(view, masks, mask)

        return cls._of(rebuild, world_board(view.info, masks, mask))

    @classmethod
    def _of(cls, origin: State | Callable[[], Round], core: _board.Board) -> Board:
        board = object.__new__(cls)
        object.__setattr__(board, "_origin", origin)
        object.__setattr__(board, "_b", core)
        return board

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Board changes only through push/pop/rollout: cannot set {name!r}")

    # -- the position ------------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat to play next (``None`` once the deal is over)."""
        b = self._b
        return None if b.done else b.to_act()

    @property
    def is_over(self) -> bool:
        """True once the deal is over (every card played, or ended early by a rule)."""
        return self._b.done

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to act, ascending (empty once the deal is over)."""
        return _mask_ids(self._b.legal())

    # -- what a policy reads to decide (the same names, and meanings, as on Round) -----------

    @property
    def rules(self) -> RuleSet:
        """The rule set this deal is played under."""
        rules: RuleSet = self._b.cfg.owner  # type: ignore[assignment]
        return rules

    @property
    def leader(self) -> int:
        """The seat that led (or is to lead) the current trick."""
        return self._b.leader

    @property
    def current_trick(self) -> Trick:
        """The trick in progress: its leader and cards so far (possibly none; ``winner`` is
        None)."""
        b = self._b
        return trusted_trick(b.leader, tuple(b.trick), None, b.cfg.n)

    @property
    def led_suit(self) -> Suit | None:
        """The suit led to the current trick (``None`` before the lead)."""
        trick = self._b.trick
        return Suit(trick[0] // 13) if trick else None

    @property
    def hands(self) -> tuple[CardSet, ...]:
        """Each seat's remaining cards, in seat order (a board knows every hand: a policy
        that should see only its own reads ``hands[board.to_act]``)."""
        return tuple([unchecked_cardset(m) for m in self._b.hands])

    @property
    def exposed(self) -> CardSet:
        """The face-up exposed cards (public)."""
        return unchecked_cardset(self._b.up)

    @property
    def played(self) -> CardSet:
        """Every card played so far in this deal: the completed tricks and the trick in
        progress."""
        return unchecked_cardset(self._b.played)

    @property
    def plays(self) -> tuple[int, ...]:
        """The ids played on this board (and the boards it was copied from), in order."""
        return tuple(self._b.plays)

    # -- changing it -------------------------------------------------------------------------

    def push(self, action: int) -> None:
        """The seat to act plays the card with index ``action`` (refused unless it is legal)."""
        b = self._b
        if action.__class__ is not int or not 0 <= action < 52 or not b.legal() >> action & 1:
            error = IllegalActionError if isinstance(action, int) else ActionTypeError
            raise error(
                Reason.INVALID_CHOICE,
                None if b.done else b.to_act(),
                detail=f"{brief(action)} is not a legal play now; legal: {self.legal_actions()}",
                action="push",
            )
        b.push(action)

    def push_card(self, card: Card | str) -> None:
        """The seat to act plays ``card``: a :class:`~gongzhu.Card` or its text (``"QS"``,
        ``"10♠"``, anything :meth:`Card.parse <gongzhu.Card.parse>` reads).

        An illegal card is refused with :class:`~gongzhu.IllegalActionError`, whose
        ``reason`` is :meth:`why_illegal`'s, and the board is left as it was.

        >>> from gongzhu import deal
        >>> b = Board(deal(seed=7).pass_exposure())
        >>> b.push_card("7C")
        >>> b.push_card("9♠")
        Traceback (most recent call last):
        ...
        gongzhu.errors.IllegalActionError: seat 3 may not play 9♠: must follow suit (clubs were led)
        >>> b.plays
        (5,)
        """
        b = self._b
        if not (card.__class__ is Card or isinstance(card, str)):
            self.to_round().check_play(card)  # raises the Round's error for the argument
        index = _card(card).index
        if not b.legal() >> index & 1:
            self.to_round().check_play(card)  # raises the Round's refusal, with its detail
        b.push(index)

    def why_illegal(self, card: Card | str, seat: int | None = None) -> Reason | None:
        """Why ``seat`` (default: the seat to act) may not play ``card`` now; None if it may.

        The same answer as :meth:`Round.why_illegal <gongzhu.Round.why_illegal>` in the
        round this board has reached (:meth:`to_round`): a legal card is answered from the
        board's legal set, a refusal by the round's rules.

        >>> from gongzhu import deal
        >>> b = Board(deal(seed=7).pass_exposure())
        >>> b.why_illegal("7C"), b.why_illegal("7C", seat=0)
        (None, <Reason.NOT_YOUR_TURN: 'not your turn'>)
        """
        b = self._b
        fast = (card.__class__ is Card or isinstance(card, str)) and (
            seat is None or (seat.__class__ is int and not b.done and seat == b.to_act())
        )
        if fast and b.legal() >> _card(card).index & 1:
            return None
        return self.to_round().why_illegal(card, seat)

    def pop(self) -> int:
        """Take back the last :meth:`push`; returns its id (after a :meth:`rollout`, nothing
        before it can be taken back)."""
        b = self._b
        if not b.undo:
            raise IllegalActionError(
                Reason.INVALID_CHOICE, None, detail="nothing was pushed", action="pop"
            )
        return b.pop()

    def copy(self) -> Board:
        """An independent board in the same position (its undo stack starts empty)."""
        return Board._of(self._origin, self._b.copy())

    def rollout(
        self,
        seed: int | None = None,
        *,
        policy: str | Callable[[Board], int] | Sequence[str | Callable[[Board], int]] = "random",
    ) -> tuple[int, ...]:
        """Play the rest of the deal on this board (in place); its :meth:`totals`.

        ``policy`` plays for every seat, or give one per seat (a sequence), each
        a callable or one of :data:`POLICIES` by name. A callable is asked
        ``policy(board)`` on the seat's turn and returns a legal action id (the
        card's index): it reads this board (:attr:`to_act`,
        :attr:`current_trick`, :attr:`hands`, :attr:`played`, :meth:`legal_actions`
        …) and must not change it. The named policies:

        * ``"random"`` (the default): a uniformly random legal card;
        * ``"rule-of-thumb"``: the engine core's rule-of-thumb policy, the
          card :class:`~gongzhu.bots.RuleOfThumbStrategy` plays from the
          seat's own view (the same bot, asked on the board);
        * ``"greedy"``: the greedy bot's one-trick look-ahead
          (:mod:`gongzhu._core.greedy`) in this deal, every hand known: the
          card with the best value of the current trick answered greedily,
          short suits preferred on the first leads, ties to the rule of thumb.

        With ``seed`` (an int) the random plays are the same every time, in
        every build, and the same as :meth:`Round.rollout(seed=...)
        <gongzhu.Round.rollout>` from the same position; the other policies
        are deterministic. The plays cannot be popped: :meth:`copy` first to
        keep the position (``b.copy().rollout(seed=k)``).

        >>> from gongzhu import deal
        >>> b = Board(deal(seed=7).pass_exposure())
        >>> b.copy().rollout(policy="rule-of-thumb") == b.copy().rollout(policy="rule-of-thumb")
        True
        >>> b.copy().rollout(seed=1, policy=["greedy", "random", "rule-of-thumb", "random"])
        (200, -210, -30, -60)
        >>> def lowest(board: Board) -> int:
        ...     return board.legal_actions()[0]
        >>> b.copy().rollout(policy=lowest) == b.copy().rollout(policy=[lowest] * 4)
        True
        """
        # The common call (an int seed, every seat random) is checked inline: a search
        # rolls out thousands of times a decision, and the checks' calls cost 10% of it.
        if seed is None:
            seed = random.getrandbits(64)
        elif seed.__class__ is not int or not -SEED_INT_LIMIT < seed < SEED_INT_LIMIT:
            check_seed(seed, error=_refuse_seed, type_error=_refuse_seed_type, text=False)
        b = self._b
        if policy.__class__ is str and policy == "random":
            policies = _ALL_RANDOM
        else:
            policies = _policies(policy, b.cfg.n, self)
        b.undo.clear()  # the plays below are not pushes: nothing before them can be popped
        _policy.rollout(b, policies, _seed_state(seed))
        return b.totals()

    # -- the result --------------------------------------------------------------------------

    def totals(self) -> tuple[int, ...]:
        """Each seat's deal score, in seat order (the deal must be over)."""
        b = self._b
        if not b.done:
            raise DealNotOverError(action="totals")
        return b.totals()

    def to_round(self) -> Round:
        """The :class:`~gongzhu.Round` this board's plays reach (history included)."""
        origin = self._origin
        if callable(origin):  # a board of a sampled deal (gongzhu.ai.Worlds): its round
            origin = origin().engine_state
            object.__setattr__(self, "_origin", origin)
        return Round.from_engine_state(_board.to_state(origin, self._b))

    def __repr__(self) -> str:
        state = "over" if self._b.done else f"seat {self._b.to_act()} to act"
        return f"<Board {state}, {len(self._b.plays)} plays since its round>"


# -- a position of a sampled deal (gongzhu.ai.Worlds) -----------------------------------------


def world_board(info: Info, hands: Sequence[int], facedown: int) -> _board.Board:
    """The engine core's board of the position ``info`` knows, in a sampled deal: seat ``s``
    holds the cards of mask ``hands[s]`` now; ``facedown`` are the face-down cards (the
    samplers of :mod:`gongzhu.ai` build their boards with it)."""
    cfg = info.cfg
    dealt = [h | p for h, p in zip(hands, info.played_by, strict=True)]
    trick = list(info.trick)
    # The opening card must be led by its holder when the rules say so (specification §9.6).
    opening = bool(
        cfg.must_lead_opening
        and not info.tricks
        and not trick
        and hands[info.leader] & cfg.opening_card
    )
    return _board.of_world(
        cfg, list(hands), dealt, info.leader, trick, list(info.tricks), info.exposed, facedown, 0,
        opening,
    )  # fmt: skip


def round_of_world(view: PlayerView, hands: Sequence[int], facedown: int) -> Round:
    """The :class:`~gongzhu.Round` of ``view``'s position in the deal where seat ``s`` holds
    the cards of mask ``hands[s]`` now and ``facedown`` are the face-down cards: the dealt
    hands, the exposures the view shows, then every play of its tricks
    (:meth:`gongzhu.ai.Worlds.round <gongzhu.ai.worlds.Worlds.round>` documents it)."""
    played = view.info.played_by
    rules = view.rules
    n = rules.players
    dealt: list[list[Card]] = []
    for s in range(n):
        cards = list(unchecked_cardset(hands[s] | played[s]))
        first = view.first_dealt
        if s == view.seat and first is not None and first in cards:
            cards.remove(first)
            cards.insert(0, first)  # the seat's own first card (blind exposure)
        dealt.append(cards)
    tricks = [t for t in (*view.tricks, view.current_trick) if t.cards]
    leader = tricks[0].leader if tricks else view.leader
    opening = rules.opening_card
    lead_opening = (
        rules.must_lead_opening_card
        and opening is not None
        and opening in dealt[leader]
        and (not tricks or tricks[0].cards[0] == opening)
    )
    rnd = Round.from_hands(
        dealt, rules=rules, leader=None if lead_opening else leader, dealer=view.dealer
    )
    if rnd.phase is Phase.EXPOSURE:
        order = [(leader + k) % n for k in range(n)]
        in_turn = rules.exposure_order is ExposureOrder.IN_TURN
        if view.phase is Phase.EXPOSURE:
            # Only the decisions the view shows: under in-turn order every seat before the
            # viewing one (from the leader) and any seat whose exposure shows; sealed, its own.
            shown = [
                s for s in order if view.exposures[s] or (s == view.seat and view.own_face_down)
            ]
            last = max((order.index(s) for s in shown), default=-1)
            if in_turn:
                last = max(last, order.index(view.seat) - 1)
                order = order[: last + 1]
            else:
                order = shown
        if not in_turn:
            order.sort()
        for s in order:
            down = unchecked_cardset(facedown & (hands[s] | played[s]))
            rnd = rnd.expose(view.exposures[s] | down, seat=s, face_down=down)
    for trick in tricks:
        for s, card in zip(trick.seats, trick.cards, strict=True):
            rnd = rnd.play(card, seat=s)
    return rnd
