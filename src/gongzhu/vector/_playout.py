"""Random legal play on a :class:`~gongzhu.vector.VectorDeal`: one card a deal, or whole deals.

:func:`random_cards` draws a uniformly random card of each mask (the per-card API's
random actions). :func:`playout` plays every unfinished deal to its end at random,
a trick at a time: once a trick is led, its followers' cards are drawn at once (a
follower's legal cards depend on its hand, the led suit and the exposures, never
on the other followers' cards).

Under rules whose leads are free (:func:`plain`), :func:`plain_playout` draws the
cards that may be *any* card of the hand (every lead, and a void follower's
discard) by a **priority order**: each deal's cards get a uniformly random order,
and such a seat plays the first card of its hand in that order. Conditional on
everything played before, that card is uniformly distributed over the seat's hand,
as a fresh draw would be: a seat's relative order of its remaining cards stays
uniform, since its own first-in-order picks only reveal that the picked card came
first, and its other cards leave the hand by draws that ignore the order. A
follower holding the led suit draws a fresh uniform card of that suit. So the
distribution of play is that of :meth:`VectorDeal.step` with :func:`random_cards`,
at a few operations a card. A batch from :meth:`VectorDeal.random` uses the deal's
own order (the cards of a seat come in a uniformly random order, independent of
which cards they are); any other batch draws one order for the playout.

Every function takes the batch's public record of arrays, a
:class:`~gongzhu.vector.VectorState`.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from gongzhu._core.bits import HEARTS
from gongzhu._core.config import RESTRICT_DEAL, RESTRICT_SUIT
from gongzhu._core.rules import HEARTS_BROKEN
from gongzhu.vector._legal import legal_bits
from gongzhu.vector._state import VectorState, put, take
from gongzhu.vector._step import finish, play, play_aligned
from gongzhu.vector._tables import (
    BITS,
    I64,
    POP8,
    POP16,
    SEL8,
    SUIT,
    U64,
    ZERO,
    Bools,
    bitcount,
    select_table,
)

__all__ = ["plain", "plain_playout", "playout", "random_cards"]

_LOW32: Final = np.uint64(0xFFFFFFFF)
_LOW16: Final = np.uint64(0xFFFF)
_M13: Final = np.uint64(0x1FFF)
_ONE: Final = np.uint64(1)
_CARD_SUIT: Final = np.arange(64, dtype=np.intp) // 13
_SHIFT13: Final = (13 * np.arange(5)).astype(np.uint64)  # by suit: the suit's first bit
_POP13: Final = POP16[:8192]  # uint8: small tables stay in the cache
_CARDS52: Final = np.arange(52, dtype=np.uint64)
Ints = npt.NDArray[np.intp]
Int8s = npt.NDArray[np.int8]


_SEL13: Final = select_table(13, np.int8)  # _SEL13[p << 4 | k]
_LOW13: Final = _SEL13[::16].astype(np.intp)  # the lowest set bit of a 13-bit pattern
_ONE_INTP: Final = np.intp(1)
# 1 << i as int64 by table: a shift of a NumPy 1.x scalar by a uint8 array stays uint8.
_BIT64: Final = np.left_shift(1, np.arange(64, dtype=np.int64))


def _count26(x: Ints) -> npt.NDArray[np.uint8]:
    """The set bits of each pattern of up to 26 bits (two 13-bit lookups)."""
    out: npt.NDArray[np.uint8] = _POP13[x & 0x1FFF] + _POP13[x >> 13]
    return out


def _nth26(x: Ints, k: Ints) -> Int8s:
    """The index of set bit number ``k`` of each pattern of up to 26 bits."""
    low = x & 0x1FFF
    below = _POP13[low].astype(np.intp)
    high = 13 + _SEL13[(x >> 13) << 4 | np.maximum(k - below, 0)]
    out: Int8s = np.where(k >= below, high, _SEL13[low << 4 | np.minimum(k, 15)])
    return out


def random_cards(legal: U64, rng: np.random.Generator) -> I64:
    """A uniformly random card of each non-empty mask of ``legal`` (``-1`` for an empty one):
    card number ``k`` of the ``m`` cards (in index order), ``k = floor(u * m)`` for one
    uniform draw ``u`` a mask.

    Card number ``k`` is found by halving: the low 32 bits or the high, then 16, then 8,
    then a select table on the last 8 bits (no loop, a few operations a batch).
    """
    x = np.asarray(legal, dtype=np.uint64)
    total = bitcount(x)
    k = (rng.random(x.shape[0]) * total).astype(np.int64)
    base = np.zeros(x.shape[0], np.int64)
    for half, low in ((32, _LOW32), (16, _LOW16)):
        part = x & low
        c = bitcount(part)
        up = k >= c
        k -= up * c
        base += up * half
        x = np.where(up, x >> np.uint64(half), part)
    x16 = x.astype(np.int64)
    part8 = x16 & 0xFF
    c = POP8[part8]
    up = k >= c
    k -= up * c
    card: I64 = base + 8 * up + SEL8[np.where(up, x16 >> 8, part8) << 3 | k]
    return np.where(total > 0, card, -1)


def _random_followers(legal: U64, follow: U64, led: I64, rng: np.random.Generator) -> I64:
    """:func:`random_cards` of the followers' ``legal`` masks (``(followers, deals)``): a
    follower holding the led suit draws from the 13 bits of that suit."""
    shape = legal.shape
    pattern = ((legal >> _SHIFT13[led]) & _M13).astype(np.intp)
    k = (rng.random(shape) * _POP13[pattern]).astype(np.intp)
    cards: I64 = 13 * led + _SEL13[pattern << 4 | k]
    void = (follow == ZERO).reshape(-1)
    if void.any():  # a void follower: any legal card of its hand
        flat = cards.reshape(-1)
        flat[void] = random_cards(legal.reshape(-1)[void], rng)
    return cards


def playout(state: VectorState, rng: np.random.Generator) -> None:
    """:meth:`VectorDeal.playout`: every unfinished deal to its end at random."""
    while not state.is_over.all():
        if state.aligned and state.aligned_count == 0:
            if plain(state):
                plain_playout(state, rng)
            else:
                random_trick(state, rng)
            continue
        active = np.flatnonzero(~state.is_over)
        plays = state.nplays[active]
        if (state.count[active] == 0).all() and (plays == plays[0]).all():
            sub = take(state, active)  # the deals still in play, aligned again
            playout(sub, rng)
            put(state, active, sub)
            return
        play(state, random_cards(legal_bits(state), rng), ~state.is_over)


def plain(state: VectorState) -> bool:
    """True when every lead of the rest of the deals may be any card of the hand: no
    hearts-broken rule, no exposure, no opening card still to lead, and the deals end
    with their last card (what :func:`plain_playout` needs)."""
    cfg = state.cfg
    return not (
        cfg.hearts_rule
        or cfg.end_when_points_out
        or cfg.queen_bonus
        or state.up.any()
        or (state.opening & (state.tricks == 0)).any()
        or not (state.tricks == state.tricks[:1]).all()  # one hand size in every deal
    )


def _seat_orders(state: VectorState, rng: np.random.Generator) -> tuple[Int8s, Ints]:
    """Each seat's priority order of :func:`plain_playout`: ``order``, ``(width, seats,
    deals)`` (``order[i, s, d]``: seat ``s``'s card number ``i`` in deal ``d``), and
    ``held``, ``(seats, deals)`` masks of the numbers ``i`` whose card the seat still holds.
    A batch from :meth:`VectorDeal.random` takes the deal's order (a seat's cards in the
    order dealt; ``width`` = cards dealt a seat); any other batch draws one (``width`` =
    cards left a seat, every one held)."""
    n, size = state.players, state.size
    if state.order is not None:  # position k of the deal went to seat (k + 1) % n
        width = state.order.shape[0] // n
        order = state.order.reshape(width, n, size)[:, (np.arange(n) - 1) % n]
        held = np.zeros((n, size), np.intp)
        if state.played.any():
            for i in range(width):
                kept = (~state.played >> order[i].astype(np.uint64)) & _ONE
                held |= kept.astype(np.intp) << i
        else:
            held |= (1 << width) - 1
    else:  # every seat holds ``width`` cards: by seat, each seat's in a random order
        hands = state.dealt & ~state.played[:, None]
        width = int(bitcount(hands[:1, :1])[0, 0]) if size else 0
        owner = np.full((size, 52), float(n))
        for s in range(n):
            owner[((hands[:, s, None] >> _CARDS52) & _ONE) != ZERO] = s
        ranked = np.argsort(owner + rng.random((size, 52)), axis=1)[:, : n * width]
        order = np.ascontiguousarray(ranked.T.reshape(n, width, size).transpose(1, 0, 2), np.int8)
        held = np.full((n, size), (1 << width) - 1, np.intp)
    return order, held


def _suits(order: Int8s) -> npt.NDArray[np.uint8]:
    """The suit of each card of ``order`` (``c // 13`` as ``(c * 5) >> 6``, on bytes)."""
    out: npt.NDArray[np.uint8] = (order.view(np.uint8) * np.uint8(5)) >> np.uint8(6)
    return out


def _win_keys(order: Int8s, suits: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Each card's key in its trick, ``(rank + 1) * 8 + seat``: the highest key among the
    cards that follow suit is the winner's (a card that does not follow counts 0)."""
    seats = np.arange(order.shape[1], dtype=np.uint8)[None, :, None]
    rank = order.view(np.uint8) - suits * np.uint8(13)
    out: npt.NDArray[np.uint8] = ((rank + np.uint8(1)) << np.uint8(3)) | seats
    return out


def _suit_numbers(suits: npt.NDArray[np.uint8]) -> Ints:
    """``(seats, deals)``: the numbers ``i`` of each seat's cards of each suit, as four
    13-bit masks at bits 0, 16, 32 and 48 (the suit's cards in the seat's own order).
    Seats of more than 13 cards (3 players) take 32 bits a suit: ``(2, seats, deals)``,
    the suits 0-1, then 2-3."""
    width, n, size = suits.shape
    numbers = np.arange(width, dtype=np.uint8)[:, None, None]
    if width <= 13:
        shifts = (suits << np.uint8(4)) + numbers
        out = np.zeros((n, size), np.intp)
        for i in range(0, width, 3):  # in slices: each temporary well under 128 KB
            out |= _BIT64.take(shifts[i : i + 3]).sum(axis=0)
        return out
    shifts = ((suits & np.uint8(1)) << np.uint8(5)) + numbers
    high = suits >= 2
    wide = np.zeros((2, n, size), np.intp)
    for i in range(width):
        bit = _BIT64.take(shifts[i])
        wide[0] |= np.where(high[i], 0, bit)
        wide[1] |= np.where(high[i], bit, 0)
    return wide


def plain_playout(state: VectorState, rng: np.random.Generator) -> None:
    """:func:`playout` of an aligned batch at a trick's start under :func:`plain` rules.

    A seat's hand is a mask over the numbers of its own priority order (see the
    module): a lead or a void follower's card is the hand's lowest number (a table
    lookup), and a follower holding the led suit draws number ``k`` of its numbers of
    that suit (masks made once). A trick is a fixed two dozen operations on ``(seats,
    deals)`` arrays in seat order, whoever leads; the plays in play order come from
    the seats' cards twice over (``leader + j``, no remainder). The captured cards,
    voids, suits led and hearts flag are written once at the end.
    """
    n, size = state.players, state.size
    order3, held = _seat_orders(state, rng)
    width = order3.shape[0]
    suits = _suits(order3)
    suit_numbers = _suit_numbers(suits)
    # (deals, seats, i), flat: a seat's number i is order[order_at + i]
    order = np.ascontiguousarray(order3.transpose(2, 1, 0)).reshape(-1)
    win_keys = np.ascontiguousarray(_win_keys(order3, suits).transpose(2, 1, 0)).reshape(-1)
    rows = np.arange(size)
    seats = np.arange(n, dtype=np.intp)[:, None]
    order_at = rows * (n * width) + seats * width  # (seats, deals): the seat's number 0
    order_at_flat = order_at.reshape(-1)
    turns = seats * size  # (seats, 1): play j of a trick is seat leader + j of `twice`
    leader = state.leader.copy()
    left = int(_count26(held[0, :1])[0]) if size else 0
    # A seat of more than 13 cards (3 players): the same lookups, two lanes of 13 bits.
    narrow = width <= 13
    lowest = _LOW13.__getitem__ if narrow else lambda x: _nth26(x, 0 * x).astype(np.intp)
    counted = _POP13.__getitem__ if narrow else _count26
    nth = (lambda x, k: _SEL13[x << 4 | k]) if narrow else _nth26
    draws = np.empty((n, size))
    twice = np.empty((2 * n, size), np.int8)
    leds = np.empty((left, size), np.uint8)
    offs = np.empty((left, n, size), np.bool_)
    winners = np.empty((left, size), np.intp)
    takens = np.empty((left, size), np.uint64)
    p = state.aligned_plays
    for t in range(left):
        at = leader * size + rows
        free = lowest(held)  # each seat's first card in its order (a number)
        first = free.reshape(-1).take(at)
        lead = order.take(order_at_flat.take(at) + first)
        led = _CARD_SUIT[lead]
        if narrow:
            pattern = held & ((suit_numbers >> (led << 4)) & 0x1FFF)
        else:
            lane = np.where(led >= 2, suit_numbers[1], suit_numbers[0])
            pattern = held & ((lane >> ((led & 1) << 5)) & 0xFFFFFFFF)
        count = counted(pattern)
        off = count == 0
        rng.random(out=draws)
        drawn = nth(pattern, (draws * count).astype(np.intp)).astype(np.intp)
        number = np.where(off | (seats == leader), free, drawn)  # the leader: its first
        held ^= _ONE_INTP << number
        where = order_at + number
        played = order.take(where)
        twice[:n] = played
        twice[n:] = played
        twice.reshape(-1).take(at + turns, out=state.plays[p : p + n])
        p += n
        leader = ((win_keys.take(where) * ~off).max(axis=0) & 7).astype(np.intp)
        cards = played.astype(np.intp)
        leds[t], offs[t], winners[t] = led, off, leader
        takens[t] = np.bitwise_or.reduce(BITS[cards], axis=0)
    _write_tricks(state, leds, offs, winners, takens)
    state.aligned_plays = p
    state.nplays[:] = p


def _write_tricks(
    state: VectorState, leds: npt.NDArray[np.uint8], offs: Bools, winners: Ints, takens: U64
) -> None:
    """The state after :func:`plain_playout`'s tricks (``(tricks, deals)``: the suit led,
    the winner, the cards taken; ``(tricks, seats, deals)``: who showed out)."""
    left, n, size = offs.shape
    rows = np.arange(size)
    shown_out = np.bitwise_or.reduce(offs.view(np.uint8) << leds[:, None, :].astype(np.uint8))
    for s in range(n):
        state.voids |= shown_out[s].astype(np.uint32) << np.uint32(4 * s)
    # The tricks' cards are disjoint: a seat's captured cards are the sum of its tricks'.
    capt = np.bincount(
        (rows * n + winners).reshape(-1),
        weights=takens.reshape(-1).astype(np.float64),
        minlength=size * n,
    )
    state.captured |= capt.astype(np.uint64).reshape(size, n)
    played = state.played
    played |= np.bitwise_or.reduce(takens, axis=0)
    state.flags |= np.bitwise_or.reduce(np.left_shift(1, leds), axis=0)
    state.flags |= np.where((played & np.uint64(HEARTS)) != ZERO, HEARTS_BROKEN, 0)
    state.leader[:] = winners[-1]
    state.to_act[:] = winners[-1]
    state.tricks += left
    state.is_over[:] = played == state.every
    if state.is_over.any():
        state.aligned = False


def random_trick(state: VectorState, rng: np.random.Generator) -> None:
    """One whole trick of every deal of an aligned batch at a trick's start, at random:
    the lead, then every follower's card at once."""
    cfg = state.cfg
    n = state.players
    play_aligned(state, random_cards(legal_bits(state), rng))
    led = state.led
    # (followers, deals) arrays: row j is the lead's j+1-th follower in every deal.
    seats = (state.leader[None, :] + np.arange(1, n)[:, None]) % n
    hands = np.take_along_axis(state.dealt.T, seats, axis=0) & ~state.played
    follow = hands & SUIT[led]
    legal = np.where(follow != ZERO, follow, hands)
    if state.up.any():
        exposed = state.up
        if cfg.restriction == RESTRICT_SUIT:
            unled = (state.flags >> led & 1) == 0
            free = follow & ~exposed
            keep = (follow != ZERO) & unled & ((exposed & follow) != ZERO) & (free != ZERO)
            legal = np.where(keep, free, legal)
        elif cfg.restriction == RESTRICT_DEAL:
            first = state.tricks == 0
            free = legal & ~exposed
            keep = first & ((legal & exposed) != ZERO) & (free != ZERO)
            legal = np.where(keep, free, legal)
    cards = _random_followers(legal, follow, led, rng)
    state.plays[state.aligned_plays : state.aligned_plays + n - 1] = cards
    state.trick[1:] = cards
    suit = _CARD_SUIT[cards]
    off = suit != led
    shifts = (4 * seats + led).astype(np.uint32)
    voids = off.astype(np.uint32) << shifts
    bits = BITS[cards]
    top = state.best  # the lead's card (set by the lead's step)
    pos = state.best_pos
    taken = state.taken
    for j in range(n - 1):
        taken |= bits[j]
        state.voids |= voids[j]
        card = np.where(off[j], -1, cards[j])
        better = card > top
        np.copyto(top, card, where=better)
        np.copyto(pos, j + 1, where=better)
    state.played |= taken
    state.flags |= np.where((taken & np.uint64(HEARTS)) != ZERO, HEARTS_BROKEN, 0)
    state.aligned_plays += n - 1
    state.nplays[:] = state.aligned_plays
    state.aligned_count = 0
    finish(state, state.rows, slice(None))
