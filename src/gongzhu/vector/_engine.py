"""The batched engine: :class:`VectorDeal`, ``n`` deals of one rule set stepped together.

Every deal's position is a row of a few arrays: the hands per seat, the
captured cards per seat, the cards played and the exposures as ``uint64``
bitboards (bit ``c`` is the card of :attr:`~gongzhu.Card.index` ``c``), the
trick in progress as card ids by position. A step plays one card in every
unfinished deal with a fixed number of array operations, whatever the batch
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

import sys
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from gongzhu._core.bits import QUEEN_OF_DIAMONDS_BIT
from gongzhu._core.config import Config
from gongzhu._core.rules import HEARTS_BROKEN
from gongzhu.dealing import shuffled_deck
from gongzhu.errors import DealError, IllegalActionError, ProtocolError, Reason
from gongzhu.round import Round
from gongzhu.rules import RuleSet
from gongzhu.vector._legal import NONE_LED as _NONE_LED
from gongzhu.vector._legal import legal_bits as _legal_bits
from gongzhu.vector._legal import row_base as _row_base
from gongzhu.vector._playout import playout as _playout
from gongzhu.vector._playout import random_cards
from gongzhu.vector._rounds import from_rounds as _from_rounds
from gongzhu.vector._rounds import origin as _origin
from gongzhu.vector._score import factors as _factors
from gongzhu.vector._score import totals as _totals
from gongzhu.vector._tables import (
    BITS,
    I64,
    U64,
    ZERO,
    Bools,
    popcount,
    u64,
)

__all__ = ["VectorDeal"]

_HEART_FLAG: Final = np.array([HEARTS_BROKEN if 26 <= c < 39 else 0 for c in range(64)], np.int64)
_CARD_SUIT: Final = np.arange(64, dtype=np.int64) // 13
_LITTLE: Final = sys.byteorder == "little"


class VectorDeal:
    """``n`` deals of one :class:`~gongzhu.RuleSet` in the card play, as arrays.

    Build one with :meth:`deal` (the cards :func:`gongzhu.deal` deals for each
    seed), :meth:`random` (fresh deals from a NumPy generator, the fastest) or
    :meth:`from_rounds` (any :class:`~gongzhu.Round` whose exposure decisions
    are made). :meth:`legal_mask` gives the cards each seat to act may play,
    :meth:`step` plays one card in every unfinished deal, :meth:`totals` scores
    the finished ones exactly as :meth:`Round.score() <gongzhu.Round.score>`
    does, :meth:`round` and :meth:`to_rounds` give the deals back as
    ``Round``\\ s (with the history).

    >>> import numpy as np
    >>> from gongzhu import RuleSet
    >>> from gongzhu.vector import VectorDeal
    >>> batch = VectorDeal.deal(RuleSet.preset("classic"), seeds=range(3))
    >>> rng = np.random.default_rng(0)
    >>> while not batch.done.all():
    ...     batch.step(batch.random_actions(rng))
    >>> totals = batch.totals()
    >>> [tuple(row) for row in totals] == [r.score().totals for r in batch.to_rounds()]
    True

    The batch holds the card play only: :meth:`deal` and :meth:`random` start
    with every exposure declined, and claims are not offered.
    """

    # -- construction ---------------------------------------------------------------------

    def __init__(self, rules: RuleSet, size: int) -> None:
        if not isinstance(rules, RuleSet):
            raise ProtocolError(f"rules must be a RuleSet, got {type(rules).__name__}")
        cfg = rules.engine
        self.rules: RuleSet = rules
        self._cfg: Config = cfg
        n = cfg.n
        self.players: int = n
        self._size = size
        self._dealt: U64 = np.zeros((size, n), np.uint64)
        self._capt: U64 = np.zeros((size, n), np.uint64)
        self._every: U64 = np.zeros(size, np.uint64)
        self._played: U64 = np.zeros(size, np.uint64)
        self._taken: U64 = np.zeros(size, np.uint64)
        self._up: U64 = np.zeros(size, np.uint64)
        self._down: U64 = np.zeros(size, np.uint64)
        self._blind: U64 = np.zeros(size, np.uint64)
        self._shown: U64 = np.zeros(size, np.uint64)
        self._leader: I64 = np.zeros(size, np.int64)
        self._count: I64 = np.zeros(size, np.int64)
        self._led: I64 = np.full(size, _NONE_LED, np.int64)
        self._best: I64 = np.full(size, -1, np.int64)
        self._bestpos: I64 = np.zeros(size, np.int64)
        self._flags: I64 = np.zeros(size, np.int64)
        self._ntricks: I64 = np.zeros(size, np.int64)
        # The trick's cards by position (row k: the k-th card) and the plays made on the
        # batch (row k: play k): rows, so that a step of an aligned batch writes one row.
        self._trick: npt.NDArray[np.int8] = np.full((n, size), -1, np.int8)
        self._voids: npt.NDArray[np.uint32] = np.zeros(size, np.uint32)  # bit 4*seat + suit
        self._opening: Bools = np.zeros(size, np.bool_)
        self._done: Bools = np.zeros(size, np.bool_)
        self._qd_taker: I64 = np.full(size, -1, np.int64)
        self._qd_counts: I64 = np.zeros((size, n), np.int64)
        self._plays: npt.NDArray[np.int8] = np.full((52, size), -1, np.int8)
        self._nplays: I64 = np.zeros(size, np.int64)
        self._to_act: I64 = np.zeros(size, np.int64)
        self._rows: I64 = np.arange(size, dtype=np.int64)
        self._wrap: I64 = np.arange(2 * n, dtype=np.int64) % n  # _wrap[a + b]: (a + b) % n
        # A batch from random(): each deal's cards in the order dealt, a deal a column (the
        # playout's priority order; see gongzhu.vector._playout).
        self._order: npt.NDArray[np.int8] | None = None
        # Aligned: every deal in play, all with the same number of cards in the trick and
        # of plays made on the batch (``_k``, ``_p``), so a step writes whole rows.
        self._aligned = True
        self._k = 0
        self._p = 0
        # Where each deal came from, for round(i): ("rounds", list) or ("hands", dealer).
        self._rounds: list[Round] | None = None
        self._seeds: list[int | str] | None = None
        self._dealer = 0
        # Per rule set: the point cards, the heart values by card, the team of each seat.
        self._exposable = u64(cfg.exposable)
        self._opening_card = u64(cfg.opening_card)
        self._team: I64 = np.array(cfg.team_of, dtype=np.int64)
        self._paired = cfg.nteams < n

    def _start(self, dealt: U64, dealer: int) -> None:
        """Every deal before its first card, from the dealt masks (the leader holds the
        opening card; it must be led if the rules say so)."""
        cfg = self._cfg
        self._dealt[:] = dealt
        self._every[:] = np.bitwise_or.reduce(dealt, axis=1)
        holds = (dealt & self._opening_card) != ZERO
        if not holds.any(axis=1).all():
            raise DealError("a deal in the batch has no seat holding the opening card")
        self._leader[:] = holds.argmax(axis=1)
        self._to_act[:] = self._leader
        self._opening[:] = cfg.must_lead_opening
        self._dealer = dealer

    @classmethod
    def deal(
        cls, rules: RuleSet, seeds: Sequence[int | str] | range, dealer: int = 0
    ) -> VectorDeal:
        """The deals :func:`gongzhu.deal` deals for ``rules`` and each seed (the holder of
        the opening card leads; exposure declined)."""
        seeds = list(seeds)
        batch = cls(rules, len(seeds))
        n = batch.players
        if type(dealer) is not int or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat 0-{n - 1}, got {dealer!r}")
        dealt = np.zeros((len(seeds), n), np.uint64)
        orders = np.empty((len(seeds), len(shuffled_deck(rules, 0))), np.int64)
        for i, seed in enumerate(seeds):
            if isinstance(seed, bool) or not isinstance(seed, (int, str)):
                raise DealError(f"seed {i} must be an int or text, got {type(seed).__name__}")
            orders[i] = shuffled_deck(rules, seed)
        # Card k goes to seat (dealer + 1 + k) % n, as gongzhu.deal deals.
        for k in range(orders.shape[1]):
            dealt[:, (dealer + 1 + k) % n] |= BITS[orders[:, k]]
        batch._start(dealt, dealer)
        batch._seeds = seeds
        return batch

    @classmethod
    def random(
        cls, rules: RuleSet, size: int, rng: np.random.Generator | int | None = None
    ) -> VectorDeal:
        """``size`` uniformly random deals drawn from the NumPy generator ``rng`` (or a seed):
        the fastest way to a fresh batch (other cards than :meth:`deal`'s for a seed)."""
        if type(size) is not int or size < 0:
            raise ProtocolError(f"size must be a non-negative int, got {size!r}")
        batch = cls(rules, size)
        gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        batch._start(batch._random_dealt(gen, size), 0)
        return batch

    def _random_dealt(self, gen: np.random.Generator, size: int) -> U64:
        """Shuffled decks (``self._order``: ``(positions, deals)``) and the hands they deal.

        A deal's order sorts its cards by 26 random bits each, the card in the 6 bits
        below (one ``uint32`` sort, no argsort); the rare deal with two equal draws
        (about 2 in 100,000) is drawn again, so every order is equally likely.
        """
        deck = np.flatnonzero((np.uint64(self._cfg.deck) & BITS[:52]) != ZERO).astype(np.uint32)
        n, m = self.players, deck.size
        keys = np.empty((size, m), np.uint32)
        redraw = np.arange(size)
        while redraw.size:
            raw = gen.bit_generator.random_raw(-(-redraw.size * m // 2)).view(np.uint32)
            drawn = (raw[: redraw.size * m].reshape(-1, m) & np.uint32(~63 & 0xFFFFFFFF)) | deck
            drawn.sort(axis=1)
            if redraw.size == size:
                keys = drawn
            else:
                keys[redraw] = drawn
            tied = (drawn[:, 1:] ^ drawn[:, :-1]) < 64  # equal draws: only the card differs
            redraw = redraw[tied.any(axis=1)] if tied.any() else redraw[:0]
        # The card is the key's low 6 bits: its first byte (little-endian or not, by view).
        low = keys.view(np.uint8).reshape(size, m, 4)[:, :, 0 if _LITTLE else 3]
        order = np.ascontiguousarray((low & np.uint8(63)).view(np.int8).T)
        self._order = order
        # Position k goes to seat (1 + k) % n (dealer 0).
        dealt: U64 = np.empty((size, n), np.uint64)
        for k in range(n):
            cards = order[k::n].astype(np.intp)
            dealt[:, (k + 1) % n] = np.bitwise_or.reduce(BITS[cards], axis=0)
        return dealt

    @classmethod
    def from_rounds(cls, rounds: Sequence[Round]) -> VectorDeal:
        """A batch of the positions of ``rounds`` (one rule set; every exposure decided, no
        claim pending); :meth:`round` plays on from each of them."""
        batch: VectorDeal = _from_rounds(cls, rounds)
        return batch

    # -- reading --------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._size

    @property
    def done(self) -> Bools:
        """``(n,)`` booleans: the deals that are over (a copy)."""
        out: Bools = self._done.copy()
        return out

    @property
    def to_act(self) -> I64:
        """``(n,)`` the seat to play next in each deal (meaningless once it is over; a copy)."""
        out: I64 = self._to_act.copy()
        return out

    @property
    def hands(self) -> U64:
        """``(n, players)`` ``uint64`` masks: the cards each seat holds now."""
        out: U64 = self._dealt & ~self._played[:, None]
        return out

    @property
    def trick_number(self) -> I64:
        """``(n,)`` the completed tricks of each deal (a copy)."""
        out: I64 = self._ntricks.copy()
        return out

    @property
    def nbytes(self) -> int:
        """The bytes of the batch's arrays (divided by ``len(batch)``: the memory a deal)."""
        return sum(v.nbytes for v in vars(self).values() if isinstance(v, np.ndarray))

    def legal_bits(self) -> U64:
        """``(n,)`` ``uint64`` masks of the cards the seat to act may play (0 once over)."""
        return _legal_bits(self)

    def legal_mask(self) -> Bools:
        """``(n, 52)`` booleans: the cards the seat to act in each deal may play (none once
        the deal is over), under every rule of play of the rule set."""
        from gongzhu.vector._tables import unpack

        return unpack(self.legal_bits())

    # -- stepping -------------------------------------------------------------------------

    def step(self, actions: Any, where: Any = None) -> None:
        """Play ``actions[i]`` (a card id, :attr:`Card.index <gongzhu.Card.index>`) in
        every unfinished deal ``i`` (entries of finished deals are ignored); with
        ``where`` (``(n,)`` booleans), only in those deals.

        An id that is not a legal play raises :class:`~gongzhu.IllegalActionError`
        naming the first such deal, and nothing changes.
        """
        acts = np.asarray(actions)
        if acts.shape != (self._size,) or not (
            np.issubdtype(acts.dtype, np.integer) or acts.size == 0
        ):
            raise ProtocolError(
                f"actions must be an int array of shape ({self._size},), got "
                f"{acts.dtype} {acts.shape}"
            )
        cards = acts.astype(np.int64)
        active = ~self._done
        if where is not None:
            chosen = np.asarray(where)
            if chosen.shape != (self._size,) or chosen.dtype != np.bool_:
                raise ProtocolError(f"where must be ({self._size},) booleans")
            active &= chosen
            if not active.all():
                self._aligned = False
        legal = self.legal_bits()
        inside = (cards >= 0) & (cards < 52)
        ok = inside & ((legal & BITS[np.where(inside, cards, 63)]) != ZERO)
        bad = active & ~ok
        if bad.any():
            self._refuse(int(np.flatnonzero(bad)[0]), int(cards[bad.argmax()]))
        self._play(cards, active)

    def play_trusted(self, cards: I64) -> None:
        """:meth:`step` without the legality check, in every unfinished deal (for the
        library's own policies, whose cards are legal)."""
        self._play(cards, ~self._done)

    def _refuse(self, i: int, card: int) -> None:
        rnd = self.round(i)
        try:
            rnd.apply(card)
        except IllegalActionError as err:
            raise IllegalActionError(
                err.reason, err.seat, err.card, detail=f"deal {i} of the batch", action="play"
            ) from None
        raise IllegalActionError(  # pragma: no cover (the law test keeps the engines equal)
            Reason.INVALID_CHOICE, int(self._to_act[i]), None,
            detail=f"deal {i} of the batch: card {card}",
        )  # fmt: skip

    def _play(self, cards: I64, active: Bools) -> None:
        if self._aligned:
            self._play_aligned(cards)
            return
        cfg = self._cfg
        n = self.players
        ri = np.flatnonzero(active)
        if not ri.size:
            return
        r = ri
        c = cards[ri]
        seat = self._to_act[r]
        bit = BITS[c]
        self._played[r] |= bit
        self._plays[self._nplays[r], ri] = c
        self._nplays[r] += 1
        self._flags[r] |= _HEART_FLAG[c]
        count = self._count[r]
        lead = count == 0
        suit = _CARD_SUIT[c]
        led = np.where(lead, suit, self._led[r])
        if cfg.force_fourth and self._up.any():
            self._force_fourth(r, lead & (self._ntricks[r] == 0))
        off = (suit != led).astype(np.uint32)
        self._voids[r] |= off << (4 * seat + led).astype(np.uint32)
        self._led[r] = led
        self._trick[count, ri] = c
        self._taken[r] |= bit
        better = lead | ((suit == led) & (c > self._best[r]))
        self._best[r] = np.where(better, c, self._best[r])
        self._bestpos[r] = np.where(better, count, self._bestpos[r])
        count = count + 1
        self._count[r] = count
        self._to_act[r] = self._wrap[seat + 1]
        full = count == n
        if full.any():
            k = ri[full]
            self._finish(k, k)

    def _play_aligned(self, c: I64) -> None:
        """A step of an aligned batch: every deal plays, all at trick position ``_k``."""
        n = self.players
        k = self._k
        bit = BITS[c]
        self._played |= bit
        self._flags |= _HEART_FLAG[c]
        self._plays[self._p] = c
        self._trick[k] = c
        suit = _CARD_SUIT[c]
        if k == 0:
            if self._cfg.force_fourth and self._up.any():
                self._force_fourth(slice(None), self._ntricks == 0)
            self._led[:] = suit
            self._best[:] = c
            self._bestpos[:] = 0
            self._taken[:] = bit
        else:
            led = self._led
            off = suit != led
            self._voids |= np.left_shift(
                off, 4 * self._to_act + led, dtype=np.uint32, casting="unsafe"
            )
            better = (c > self._best) & ~off
            self._best = np.where(better, c, self._best)
            self._bestpos = np.where(better, k, self._bestpos)
            self._taken |= bit
        self._p += 1
        self._nplays[:] = self._p
        if k + 1 == n:
            self._k = 0
            self._finish(self._rows, slice(None))  # the winner leads next
        else:
            self._k = k + 1
            self._count[:] = k + 1
            self._to_act = self._wrap[self._to_act + 1]

    def _force_fourth(self, r: Any, first: Bools) -> None:
        """The forced fourth (the core's forced_fourth) as the first card of the deal is
        played in the rows ``first`` of ``r``."""
        if not first.any():
            return
        up = self._up[r]
        ex = self._exposable
        mine = up & ex
        fourth = first & (popcount(mine) == 3)
        new_up = np.where(fourth, up | (ex & ~mine), up)
        self._up[r] = new_up
        self._down[r] &= ~new_up

    def _finish(self, ri: I64, r: Any) -> None:
        """Complete the tricks of rows ``ri`` (``r``: the same rows, maybe as a slice)."""
        cfg = self._cfg
        winner = self._wrap[self._leader[r] + self._bestpos[r]]
        taken = self._taken[r]
        capt = self._capt
        if isinstance(r, slice) and capt.flags.c_contiguous:  # every row: by flat index
            flat = capt.reshape(-1)
            at = _row_base(*capt.shape) + winner
            flat[at] = flat.take(at) | taken
        else:
            capt[ri, winner] |= taken
        if cfg.queen_bonus:
            taker = self._qd_taker[r]
            again = (taker >= 0) & (winner == taker)
            self._qd_counts[ri, winner] += again
            newly = (taker < 0) & ((taken & u64(QUEEN_OF_DIAMONDS_BIT)) != ZERO)
            self._qd_taker[r] = np.where(newly, winner, taker)
        self._flags[r] |= np.left_shift(1, self._led[r])
        self._leader[r] = winner
        self._to_act[r] = winner
        self._ntricks[r] += 1
        self._count[r] = 0
        self._led[r] = _NONE_LED
        self._taken[r] = ZERO
        self._best[r] = -1
        self._trick[:, r] = -1
        over = self._played[r] == self._every[r]
        if cfg.end_when_points_out:
            pc = u64(cfg.point_cards)
            every_capt = np.bitwise_or.reduce(self._capt[ri], axis=1)
            over |= (every_capt & pc) == pc
        if over.any():
            self._done[r] = over
            self._aligned = False

    @property
    def cfg(self) -> Config:
        """The rule set's engine config (private facts; read only)."""
        return self._cfg

    # -- random play ----------------------------------------------------------------------

    def random_actions(self, rng: np.random.Generator) -> I64:
        """A uniformly random legal card for every deal (``-1`` for finished ones)."""
        return random_cards(self.legal_bits(), rng)

    def playout(self, rng: np.random.Generator) -> None:
        """Play every unfinished deal to its end with uniformly random legal cards.

        The same distribution as :meth:`step` with :meth:`random_actions` until done,
        faster: a trick's followers are drawn at once, and under rules whose leads are
        free, the leads and the void followers' cards come from a random priority order
        (see :mod:`gongzhu.vector._playout`).
        """
        _playout(self, rng)

    _BY_COLUMN: Final = ("_trick", "_plays", "_order")  # arrays whose second axis is the batch's

    def _take(self, rows: I64) -> VectorDeal:
        """The deals ``rows`` (all in play, at a trick's start) as an aligned batch of their own."""
        sub = VectorDeal.__new__(VectorDeal)
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray) and name not in ("_rows", "_team", "_wrap"):
                value = value[:, rows] if name in self._BY_COLUMN else value[rows]
            setattr(sub, name, value)
        sub._size = len(rows)
        sub._rows = np.arange(len(rows), dtype=np.int64)
        sub._aligned = True
        sub._k = 0
        sub._p = int(self._nplays[rows[0]])
        return sub

    def replace(self, where: Any, rng: np.random.Generator) -> None:
        """Deal fresh random deals (see :meth:`random`) in the rows ``where`` (booleans):
        a vector environment's autoreset. The batch must come from :meth:`random`."""
        if self._rounds is not None or self._seeds is not None:
            raise ProtocolError("replace() needs a batch made by VectorDeal.random")
        rows = np.flatnonzero(np.asarray(where, dtype=np.bool_))
        if rows.size:
            fresh = VectorDeal(self.rules, int(rows.size))
            fresh._start(fresh._random_dealt(rng, int(rows.size)), 0)
            self._put(rows, fresh)

    def _put(self, rows: I64, sub: VectorDeal) -> None:
        """Write the deals of ``sub`` (made by :meth:`_take`) back to ``rows``."""
        self._aligned = False
        for name, value in vars(sub).items():
            if isinstance(value, np.ndarray) and name not in ("_rows", "_team", "_wrap"):
                if name in self._BY_COLUMN:
                    getattr(self, name)[:, rows] = value
                else:
                    getattr(self, name)[rows] = value

    # -- results --------------------------------------------------------------------------

    def factors(self, up: U64, down: U64, blind: U64) -> tuple[I64, I64, I64, I64]:
        """The scoring factors of A♥, Q♠, J♦ and 10♣ for each row's exposures (the core's
        :func:`~gongzhu._core.rules.card_factor`, on arrays)."""
        return _factors(self._cfg, up, down, blind)

    def totals(self) -> I64:
        """``(n, players)`` each seat's score of each finished deal (``score(...).totals``;
        zeros for a deal still in play)."""
        return _totals(self)

    def observation(self, seat: Any = None) -> npt.NDArray[np.float32]:
        """``(n, size)`` float32: row ``i`` is :meth:`PlayerView.observation()
        <gongzhu.PlayerView.observation>` of ``seat`` (an int or one seat a deal; default
        the seat to act) in deal ``i``: what that seat may know, and nothing else."""
        from gongzhu.vector._observe import observation

        return observation(self, seat)

    # -- back to Rounds -------------------------------------------------------------------

    def round(self, i: int) -> Round:
        """Deal ``i`` as a :class:`~gongzhu.Round`: its start position with the cards
        played on the batch applied through :meth:`Round.apply <gongzhu.Round.apply>`."""
        if type(i) is not int or not -self._size <= i < self._size:
            raise ProtocolError(f"no deal {i!r} in a batch of {self._size}")
        i %= self._size
        rnd = _origin(self, i)
        for c in self._plays[: int(self._nplays[i]), i]:
            rnd = rnd.apply(int(c))
        return rnd

    def to_rounds(self) -> list[Round]:
        """Every deal as a :class:`~gongzhu.Round` (see :meth:`round`)."""
        return [self.round(i) for i in range(self._size)]
