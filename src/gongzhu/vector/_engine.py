"""The batched engine: :class:`VectorDeal`, ``n`` deals of one rule set stepped together.

A batch is a public record of arrays, :class:`~gongzhu.vector.VectorState`
(``batch.state``), and free functions over it: the legal plays
(:mod:`~gongzhu.vector._legal`), a step (:mod:`~gongzhu.vector._step`), the random
playout, scoring, observations and the rule of thumb. :class:`VectorDeal` is the
facade that checks what a caller gives and speaks the positions' one vocabulary:
:meth:`~VectorDeal.legal_mask`, :meth:`~VectorDeal.step`, :attr:`~VectorDeal.to_act`,
:attr:`~VectorDeal.is_over`, :meth:`~VectorDeal.totals`. A step plays one card in
every unfinished deal with a fixed number of array operations, whatever the batch
size: there is no Python loop over deals (only :meth:`VectorDeal.deal`, which
reproduces :func:`gongzhu.deal` seed by seed, and :meth:`VectorDeal.to_rounds`
loop over deals).

The rules of play are the core's (:mod:`gongzhu._core.rules`) restated on
arrays; every per-rule-set fact (the opening card, the exposable cards, the
point values, the factors, the teams) is read from the rule set's
:class:`~gongzhu._core.config.Config`, and ``tests/vector/test_vector_law.py`` checks
the two engines against each other over every preset and option: the same
legal masks at every step and the same totals at the end.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sized
from typing import Any

import numpy as np
import numpy.typing as npt

from gongzhu._base.text import brief
from gongzhu.dealing import shuffled_deck
from gongzhu.errors import DealError, IllegalActionError, ProtocolError, ProtocolTypeError, Reason
from gongzhu.round import Round
from gongzhu.rules import RuleSet
from gongzhu.vector._checks import (
    as_int,
    check_int_array,
    check_rules,
    check_seeds,
    check_size,
    generator,
)
from gongzhu.vector._legal import legal_bits as _legal_bits
from gongzhu.vector._observe import observation as _observation
from gongzhu.vector._playout import playout as _playout
from gongzhu.vector._playout import random_cards
from gongzhu.vector._rounds import from_rounds as _from_rounds
from gongzhu.vector._rounds import origin as _origin
from gongzhu.vector._score import totals as _totals
from gongzhu.vector._state import MAX_DEALS, VectorState, new_state, put
from gongzhu.vector._step import play, random_dealt, start
from gongzhu.vector._tables import BITS, I64, U64, ZERO, Bools, unpack

__all__ = ["VectorDeal"]


class VectorDeal:
    """``n`` deals of one :class:`~gongzhu.RuleSet` in the card play, as arrays.

    Build one with :meth:`deal` (the cards :func:`gongzhu.deal` deals for each
    seed), :meth:`random` (fresh deals from a NumPy generator, the fastest) or
    :meth:`from_rounds` (any :class:`~gongzhu.Round` whose exposure decisions
    are made); wherever a rule set is taken, a preset's name is taken too. The
    positions' vocabulary: :meth:`legal_mask` gives the cards each seat to act
    may play, :meth:`step` plays one card in every unfinished deal,
    :attr:`to_act` and :attr:`is_over` say who plays and which deals are over,
    :meth:`totals` scores the finished ones exactly as :meth:`Round.totals()
    <gongzhu.Round.totals>` does; :meth:`round` and :meth:`to_rounds` give the
    deals back as ``Round``\\ s (with the history). :attr:`state` is the batch's
    public record of arrays (:class:`~gongzhu.vector.VectorState`).

    >>> import numpy as np
    >>> from gongzhu.vector import VectorDeal
    >>> batch = VectorDeal.deal("classic", seeds=range(3))
    >>> rng = np.random.default_rng(0)
    >>> while not batch.is_over.all():
    ...     batch.step(batch.random_actions(rng))
    >>> totals = batch.totals()
    >>> [tuple(row) for row in totals] == [r.score().totals for r in batch.to_rounds()]
    True

    The batch holds the card play only: :meth:`deal` and :meth:`random` start
    with every exposure declined, and claims are not offered. A batch has at most
    :data:`~gongzhu.vector.MAX_DEALS` deals (about 1 KB each while stepping), refused
    before anything is allocated.
    """

    # -- construction ---------------------------------------------------------------------

    def __init__(self, rules: RuleSet | str, size: int) -> None:
        """``size`` empty deals of ``rules`` (no cards yet): :meth:`deal`, :meth:`random`
        and :meth:`from_rounds` fill them."""
        rules = check_rules(rules)
        self._of(new_state(rules, check_size(size)))

    def _of(self, state: VectorState) -> None:
        self.state: VectorState = state
        self.rules: RuleSet = state.rules
        self.players: int = state.players

    @classmethod
    def _wrap(cls, state: VectorState) -> VectorDeal:
        batch = cls.__new__(cls)
        batch._of(state)
        return batch

    @classmethod
    def deal(cls, rules: RuleSet | str, seeds: Iterable[int | str], dealer: int = 0) -> VectorDeal:
        """The deals :func:`gongzhu.deal` deals for ``rules`` and each seed (the holder of
        the opening card leads; exposure declined)."""
        rules = check_rules(rules)
        seeds = check_seeds(seeds)
        n = rules.players
        dealer = as_int(dealer, "dealer")
        if not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat 0-{n - 1}, got {dealer!r}")
        batch = cls(rules, len(seeds))
        dealt = np.zeros((len(seeds), n), np.uint64)
        orders = np.empty((len(seeds), len(shuffled_deck(rules, 0))), np.int64)
        for i, seed in enumerate(seeds):
            orders[i] = shuffled_deck(rules, seed)
        # Card k goes to seat (dealer + 1 + k) % n, as gongzhu.deal deals.
        for k in range(orders.shape[1]):
            dealt[:, (dealer + 1 + k) % n] |= BITS[orders[:, k]]
        start(batch.state, dealt, dealer)
        batch.state.seeds = seeds
        return batch

    @classmethod
    def random(
        cls, rules: RuleSet | str, size: int, rng: np.random.Generator | int | None = None
    ) -> VectorDeal:
        """``size`` uniformly random deals drawn from the NumPy generator ``rng`` (or a seed
        >= 0): the fastest way to a fresh batch (other cards than :meth:`deal`'s for a seed)."""
        batch = cls(rules, size)
        gen = generator(rng)
        state = batch.state
        start(state, random_dealt(state, gen, state.size), 0)
        return batch

    @classmethod
    def from_rounds(cls, rounds: Iterable[Round]) -> VectorDeal:
        """A batch of the positions of ``rounds`` (one rule set; every exposure decided, no
        claim pending); :meth:`round` plays on from each of them."""
        if isinstance(rounds, Sized):
            check_size(len(rounds), "the number of rounds")
        listed = list(itertools.islice(rounds, MAX_DEALS + 1))
        check_size(len(listed), "the number of rounds")
        return cls._wrap(_from_rounds(listed))

    # -- reading --------------------------------------------------------------------------

    def __len__(self) -> int:
        return self.state.size

    @property
    def is_over(self) -> Bools:
        """``(n,)`` booleans: the deals that are over (a copy)."""
        out: Bools = self.state.is_over.copy()
        return out

    @property
    def to_act(self) -> I64:
        """``(n,)`` the seat to play next in each deal (meaningless once it is over; a copy)."""
        out: I64 = self.state.to_act.copy()
        return out

    @property
    def hands(self) -> U64:
        """``(n, players)`` ``uint64`` masks: the cards each seat holds now."""
        out: U64 = self.state.dealt & ~self.state.played[:, None]
        return out

    @property
    def trick_number(self) -> I64:
        """``(n,)`` the completed tricks of each deal (a copy)."""
        out: I64 = self.state.tricks.copy()
        return out

    @property
    def nbytes(self) -> int:
        """The bytes of the batch's arrays (divided by ``len(batch)``: the memory a deal)."""
        return self.state.nbytes

    def legal_bits(self) -> U64:
        """``(n,)`` ``uint64`` masks of the cards the seat to act may play (0 once over)."""
        return _legal_bits(self.state)

    def legal_mask(self) -> Bools:
        """``(n, 52)`` booleans: the cards the seat to act in each deal may play (none once
        the deal is over), under every rule of play of the rule set."""
        return unpack(_legal_bits(self.state))

    # -- stepping -------------------------------------------------------------------------

    def step(self, actions: Any, where: Any = None) -> None:
        """Play ``actions[i]`` (a card id 0-51, :attr:`Card.index <gongzhu.Card.index>`) in
        every unfinished deal ``i`` (entries of finished deals are ignored); with
        ``where`` (``(n,)`` booleans), only in those deals.

        An id that is not a legal play raises :class:`~gongzhu.IllegalActionError`
        naming the first such deal (``INVALID_CHOICE`` for an id that is no card), and
        nothing changes. Actions that are not ints, or a ``where`` that is not booleans,
        are a :class:`~gongzhu.errors.ProtocolTypeError` (a ``TypeError``); the wrong
        shape is a :class:`~gongzhu.ProtocolError`.
        """
        state = self.state
        size = state.size
        acts = np.asarray(actions)
        check_int_array(
            acts, (size,), f"actions must be an int array of shape ({size},), got {acts.dtype}"
            f" {acts.shape}"
        )
        cards = acts.astype(np.int64)
        active = ~state.is_over
        if where is not None:
            active &= _where(where, size)
            if not active.all():
                state.aligned = False
        legal = _legal_bits(state)
        inside = (acts >= 0) & (acts < 52)
        ok = inside & ((legal & BITS[np.where(inside, cards, 63)]) != ZERO)
        bad = active & ~ok
        if bad.any():
            i = int(bad.argmax())
            self._refuse(i, acts[i].item())
        play(state, cards, active)

    def play_trusted(self, cards: I64) -> None:
        """:meth:`step` without the legality check, in every unfinished deal (for the
        library's own policies, whose cards are legal)."""
        play(self.state, cards, ~self.state.is_over)

    def _refuse(self, i: int, card: int) -> None:
        if not 0 <= card < 52:  # not a card at all: the integer lane's ids are not taken
            raise IllegalActionError(
                Reason.INVALID_CHOICE, int(self.state.to_act[i]), None,
                detail=f"deal {i} of the batch: no card id {brief(card)} (card ids are 0-51)",
            )  # fmt: skip
        rnd = self.round(i)
        try:
            rnd.apply(card)
        except IllegalActionError as err:
            raise IllegalActionError(
                err.reason, err.seat, err.card, detail=f"deal {i} of the batch", action="play"
            ) from None
        raise IllegalActionError(  # pragma: no cover (the law test keeps the engines equal)
            Reason.INVALID_CHOICE, int(self.state.to_act[i]), None,
            detail=f"deal {i} of the batch: card {card}",
        )  # fmt: skip

    # -- random play ----------------------------------------------------------------------

    def random_actions(self, rng: np.random.Generator | int | None = None) -> I64:
        """A uniformly random legal card for every deal (``-1`` for finished ones)."""
        return random_cards(_legal_bits(self.state), generator(rng))

    def playout(self, rng: np.random.Generator | int | None = None) -> None:
        """Play every unfinished deal to its end with uniformly random legal cards.

        The same distribution as :meth:`step` with :meth:`random_actions` until done,
        faster: a trick's followers are drawn at once, and under rules whose leads are
        free, the leads and the void followers' cards come from a random priority order
        (see :mod:`gongzhu.vector._playout`).
        """
        _playout(self.state, generator(rng))

    def replace(self, where: Any, rng: np.random.Generator | int | None = None) -> None:
        """Deal fresh random deals (see :meth:`random`) in the rows ``where`` (``(n,)``
        booleans): a vector environment's autoreset. The batch must come from :meth:`random`."""
        state = self.state
        if state.rounds is not None or state.seeds is not None:
            raise ProtocolError("replace() needs a batch made by VectorDeal.random")
        rows = np.flatnonzero(_where(where, state.size))
        if rows.size:
            fresh = new_state(state.rules, int(rows.size))
            start(fresh, random_dealt(fresh, generator(rng), int(rows.size)), 0)
            put(state, rows, fresh)

    # -- results --------------------------------------------------------------------------

    def totals(self) -> I64:
        """``(n, players)`` each seat's score of each finished deal (``score(...).totals``;
        zeros for a deal still in play)."""
        return _totals(self.state)

    def observation(self, seat: Any = None) -> npt.NDArray[np.float32]:
        """``(n, size)`` float32: row ``i`` is :meth:`PlayerView.observation()
        <gongzhu.PlayerView.observation>` of ``seat`` (a seat, or one seat a deal; default
        the seat to act) in deal ``i``: what that seat may know, and nothing else."""
        return _observation(self.state, seat)

    # -- back to Rounds -------------------------------------------------------------------

    def round(self, i: int) -> Round:
        """Deal ``i`` (0 to ``len(batch) - 1``) as a :class:`~gongzhu.Round`: its start
        position with the cards played on the batch applied through
        :meth:`Round.apply <gongzhu.Round.apply>`."""
        size = self.state.size
        i = as_int(i, "a deal's number")
        if not 0 <= i < size:
            raise DealError(f"no deal {i} in a batch of {size} (deals are 0-{size - 1})")
        rnd = _origin(self.state, i)
        for c in self.state.plays[: int(self.state.nplays[i]), i]:
            rnd = rnd.apply(int(c))
        return rnd

    def to_rounds(self) -> list[Round]:
        """Every deal as a :class:`~gongzhu.Round` (see :meth:`round`)."""
        return [self.round(i) for i in range(self.state.size)]


def _where(where: object, size: int) -> Bools:
    """``where`` as ``(size,)`` booleans: another dtype is a :class:`ProtocolTypeError`,
    another shape a :class:`ProtocolError`."""
    chosen = np.asarray(where)
    if chosen.dtype != np.bool_:
        raise ProtocolTypeError(f"where must be ({size},) booleans, got {chosen.dtype}")
    if chosen.shape != (size,):
        raise ProtocolError(f"where must be ({size},) booleans, got shape {chosen.shape}")
    out: Bools = chosen
    return out
