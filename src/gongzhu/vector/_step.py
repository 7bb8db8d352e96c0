"""Dealing and stepping a :class:`~gongzhu.vector.VectorState`: the core's card play
(:mod:`gongzhu._core.rules`) restated on arrays.

A step plays one card in every unfinished deal with a fixed number of array
operations, whatever the batch size: there is no Python loop over deals. The
cards are trusted here (:meth:`VectorDeal.step <gongzhu.vector.VectorDeal.step>`
checks them against :func:`~gongzhu.vector._legal.legal_bits` first).
"""

from __future__ import annotations

import sys
from typing import Any, Final

import numpy as np

from gongzhu._core.bits import QUEEN_OF_DIAMONDS_BIT
from gongzhu._core.rules import HEARTS_BROKEN
from gongzhu.errors import DealError
from gongzhu.vector._legal import row_base
from gongzhu.vector._state import NONE_LED, VectorState
from gongzhu.vector._tables import BITS, I64, U64, ZERO, Bools, popcount, u64

__all__ = ["finish", "play", "play_aligned", "random_dealt", "start"]

_HEART_FLAG: Final = np.array([HEARTS_BROKEN if 26 <= c < 39 else 0 for c in range(64)], np.int64)
_CARD_SUIT: Final = np.arange(64, dtype=np.int64) // 13
_LITTLE: Final = sys.byteorder == "little"


def start(state: VectorState, dealt: U64, dealer: int) -> None:
    """Every deal before its first card, from the dealt masks (the leader holds the
    opening card; it must be led if the rules say so)."""
    state.dealt[:] = dealt
    state.every[:] = np.bitwise_or.reduce(dealt, axis=1)
    holds = (dealt & state.opening_card) != ZERO
    if not holds.any(axis=1).all():
        raise DealError("a deal in the batch has no seat holding the opening card")
    state.leader[:] = holds.argmax(axis=1)
    state.to_act[:] = state.leader
    state.opening[:] = state.cfg.must_lead_opening
    state.dealer = dealer


def random_dealt(state: VectorState, gen: np.random.Generator, size: int) -> U64:
    """Shuffled decks (``state.order``: ``(positions, deals)``) and the hands they deal.

    A deal's order sorts its cards by 26 random bits each, the card in the 6 bits
    below (one ``uint32`` sort, no argsort); the rare deal with two equal draws
    (about 2 in 100,000) is drawn again, so every order is equally likely.
    """
    deck = np.flatnonzero((np.uint64(state.cfg.deck) & BITS[:52]) != ZERO).astype(np.uint32)
    n, m = state.players, deck.size
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
    state.order = order
    # Position k goes to seat (1 + k) % n (dealer 0).
    dealt: U64 = np.empty((size, n), np.uint64)
    for k in range(n):
        cards = order[k::n].astype(np.intp)
        dealt[:, (k + 1) % n] = np.bitwise_or.reduce(BITS[cards], axis=0)
    return dealt


def play(state: VectorState, cards: I64, active: Bools) -> None:
    """Play ``cards[i]`` in the deals ``active`` (legal cards, checked by the caller)."""
    if state.aligned:
        play_aligned(state, cards)
        return
    cfg = state.cfg
    n = state.players
    ri = np.flatnonzero(active)
    if not ri.size:
        return
    r = ri
    c = cards[ri]
    seat = state.to_act[r]
    bit = BITS[c]
    state.played[r] |= bit
    state.plays[state.nplays[r], ri] = c
    state.nplays[r] += 1
    state.flags[r] |= _HEART_FLAG[c]
    count = state.count[r]
    lead = count == 0
    suit = _CARD_SUIT[c]
    led = np.where(lead, suit, state.led[r])
    if cfg.force_fourth and state.up.any():
        _force_fourth(state, r, lead & (state.tricks[r] == 0))
    off = (suit != led).astype(np.uint32)
    state.voids[r] |= off << (4 * seat + led).astype(np.uint32)
    state.led[r] = led
    state.trick[count, ri] = c
    state.taken[r] |= bit
    better = lead | ((suit == led) & (c > state.best[r]))
    state.best[r] = np.where(better, c, state.best[r])
    state.best_pos[r] = np.where(better, count, state.best_pos[r])
    count = count + 1
    state.count[r] = count
    state.to_act[r] = state.wrap[seat + 1]
    full = count == n
    if full.any():
        k = ri[full]
        finish(state, k, k)


def play_aligned(state: VectorState, c: I64) -> None:
    """A step of an aligned batch: every deal plays, all at trick position ``aligned_count``."""
    n = state.players
    k = state.aligned_count
    bit = BITS[c]
    state.played |= bit
    state.flags |= _HEART_FLAG[c]
    state.plays[state.aligned_plays] = c
    state.trick[k] = c
    suit = _CARD_SUIT[c]
    if k == 0:
        if state.cfg.force_fourth and state.up.any():
            _force_fourth(state, slice(None), state.tricks == 0)
        state.led[:] = suit
        state.best[:] = c
        state.best_pos[:] = 0
        state.taken[:] = bit
    else:
        led = state.led
        off = suit != led
        state.voids |= np.left_shift(off, 4 * state.to_act + led, dtype=np.uint32, casting="unsafe")
        better = (c > state.best) & ~off
        state.best = np.where(better, c, state.best)
        state.best_pos = np.where(better, k, state.best_pos)
        state.taken |= bit
    state.aligned_plays += 1
    state.nplays[:] = state.aligned_plays
    if k + 1 == n:
        state.aligned_count = 0
        finish(state, state.rows, slice(None))  # the winner leads next
    else:
        state.aligned_count = k + 1
        state.count[:] = k + 1
        state.to_act = state.wrap[state.to_act + 1]


def _force_fourth(state: VectorState, r: Any, first: Bools) -> None:
    """The forced fourth (the core's forced_fourth) as the first card of the deal is
    played in the rows ``first`` of ``r``."""
    if not first.any():
        return
    up = state.up[r]
    ex = state.exposable
    mine = up & ex
    fourth = first & (popcount(mine) == 3)
    new_up = np.where(fourth, up | (ex & ~mine), up)
    state.up[r] = new_up
    state.down[r] &= ~new_up


def finish(state: VectorState, ri: I64, r: Any) -> None:
    """Complete the tricks of rows ``ri`` (``r``: the same rows, maybe as a slice)."""
    cfg = state.cfg
    winner = state.wrap[state.leader[r] + state.best_pos[r]]
    taken = state.taken[r]
    capt = state.captured
    if isinstance(r, slice) and capt.flags.c_contiguous:  # every row: by flat index
        flat = capt.reshape(-1)
        at = row_base(*capt.shape) + winner
        flat[at] = flat.take(at) | taken
    else:
        capt[ri, winner] |= taken
    if cfg.queen_bonus:
        taker = state.queen_taker[r]
        again = (taker >= 0) & (winner == taker)
        state.queen_counts[ri, winner] += again
        newly = (taker < 0) & ((taken & u64(QUEEN_OF_DIAMONDS_BIT)) != ZERO)
        state.queen_taker[r] = np.where(newly, winner, taker)
    state.flags[r] |= np.left_shift(1, state.led[r])
    state.leader[r] = winner
    state.to_act[r] = winner
    state.tricks[r] += 1
    state.count[r] = 0
    state.led[r] = NONE_LED
    state.taken[r] = ZERO
    state.best[r] = -1
    state.trick[:, r] = -1
    over = state.played[r] == state.every[r]
    if cfg.end_when_points_out:
        pc = u64(cfg.point_cards)
        every_capt = np.bitwise_or.reduce(state.captured[ri], axis=1)
        over |= (every_capt & pc) == pc
    if over.any():
        state.is_over[r] = over
        state.aligned = False
