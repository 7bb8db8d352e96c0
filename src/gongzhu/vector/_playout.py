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

``batch`` is a :class:`~gongzhu.vector.VectorDeal` (typed ``Any``: the engine imports
this module, so this one cannot import the engine back).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from gongzhu._core.bits import HEARTS
from gongzhu._core.config import RESTRICT_DEAL, RESTRICT_SUIT
from gongzhu._core.rules import HEARTS_BROKEN
from gongzhu.vector._tables import BITS, I64, POP8, POP16, SEL8, SUIT, U64, ZERO, bitcount

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


def _select13() -> npt.NDArray[np.int8]:
    """``SEL13[p << 4 | k]``: the index of set bit number ``k`` of the 13-bit pattern ``p``."""
    bits = (np.arange(8192)[:, None] >> np.arange(13)[None, :]) & 1
    cum = bits.cumsum(axis=1)
    out = np.zeros((8192, 16), np.int8)
    for k in range(13):
        out[:, k] = (cum > k).argmax(axis=1)
    return out.reshape(-1)


_SEL13: Final = _select13()


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


def playout(batch: Any, rng: np.random.Generator) -> None:
    """:meth:`VectorDeal.playout`: every unfinished deal to its end at random."""
    while not batch._done.all():
        if batch._aligned and batch._k == 0:
            if plain(batch):
                plain_playout(batch, rng)
            else:
                random_trick(batch, rng)
            continue
        active = np.flatnonzero(~batch._done)
        plays = batch._nplays[active]
        if (batch._count[active] == 0).all() and (plays == plays[0]).all():
            sub = batch._take(active)  # the deals still in play, aligned again
            playout(sub, rng)
            batch._put(active, sub)
            return
        batch._play(random_cards(batch.legal_bits(), rng), ~batch._done)


def plain(batch: Any) -> bool:
    """True when every lead of the rest of the deals may be any card of the hand: no
    hearts-broken rule, no exposure, no opening card still to lead, and the deals end
    with their last card (what :func:`plain_playout` needs)."""
    cfg = batch.cfg
    return not (
        cfg.hearts_rule
        or cfg.end_when_points_out
        or cfg.queen_bonus
        or batch._up.any()
        or (batch._opening & (batch._ntricks == 0)).any()
        or not (batch._ntricks == batch._ntricks[:1]).all()  # one hand size in every deal
    )


def _low_index(x: U64) -> I64:
    """The index of the lowest set bit of each non-zero mask (exact: bits below 53)."""
    out: I64 = np.frexp((x & (~x + _ONE)).astype(np.float64))[1] - 1
    return out


def _priorities(batch: Any, rng: np.random.Generator) -> tuple[Int8s, Int8s, U64, U64]:
    """The priority order of :func:`plain_playout`, as ``(positions, deals)`` arrays (a
    deal a column): ``order`` (the card at each position), ``where`` (``(52, deals)``: the
    position of each card), the positions of each seat's cards (``(seats, deals)`` masks)
    and the positions of the cards still in the hands (``(deals,)`` masks)."""
    n, size = batch.players, batch._size
    rows = np.arange(size)
    if batch._order is not None:  # the deal's order: position k went to seat (k + 1) % n
        order = batch._order
        count = order.shape[0]
        seat_of = (np.arange(count) + 1) % n
        per_seat = np.array([BITS[:count][seat_of == s].sum() for s in range(n)], np.uint64)
        seatpos = np.repeat(per_seat[:, None], size, axis=1)
    else:
        order = np.ascontiguousarray(np.argsort(rng.random((size, 52)), axis=1).T, np.int8)
        count = 52
        seat_of_card = np.full((52, size), -1, np.intp)
        for s in range(n):
            seat_of_card[((batch._dealt[None, :, s] >> _CARDS52[:, None]) & _ONE) != ZERO] = s
        seat_of_pos = seat_of_card.reshape(-1).take(order.astype(np.intp) * size + rows)
        seatpos = np.stack(
            [np.bitwise_or.reduce(np.where(seat_of_pos == s, BITS[:52, None], ZERO), axis=0)
             for s in range(n)]
        )  # fmt: skip
    where = np.zeros(52 * size, np.int8)
    where[order.astype(np.intp) * size + rows] = np.arange(count, dtype=np.int8)[:, None]
    if batch._played.any():
        held = ((~batch._played)[None, :] >> order.astype(np.uint64)) & _ONE
        rem: U64 = np.bitwise_or.reduce(held << _CARDS52[:count, None], axis=0)
    else:
        rem = np.full(size, (1 << count) - 1, np.uint64)
    return order, where, seatpos, rem


def plain_playout(batch: Any, rng: np.random.Generator) -> None:
    """:func:`playout` of an aligned batch at a trick's start under :func:`plain` rules:
    the leads and the void followers' cards by the priority order (see the module), the
    other followers' cards by one fresh draw each; the captured cards, the suits led and
    the hearts flag are written once at the end."""
    n, size = batch.players, batch._size
    order, where, seatpos, rem = _priorities(batch, rng)
    rows = np.arange(size)
    orderf, seatposf = order.reshape(-1), seatpos.reshape(-1)
    dealt = np.ascontiguousarray(batch._dealt.T).reshape(-1)
    pos = np.arange(n)[:, None]
    wrap = np.arange(2 * n) % n
    leader = batch._leader.copy()
    played, voids = batch._played, batch._voids
    left = int(bitcount(dealt[batch._leader[:1] * size] & ~played[:1])[0]) if size else 0
    draws = rng.random((left, n - 1, size))
    winners = np.empty((left, size), np.intp)
    takens = np.empty((left, size), np.uint64)
    leds = np.empty((left, size), np.intp)
    cards = np.empty((n, size), np.intp)
    p = batch._p
    for t in range(left):
        seats = wrap[leader + pos]
        idx = seats * size + rows
        own = rem & seatposf.take(idx)
        first = orderf.take(_low_index(own) * size + rows)  # each seat's first card
        lead = first[0]
        led = _CARD_SUIT[lead]
        hands = dealt.take(idx[1:]) & ~played
        pattern = ((hands >> _SHIFT13[led]) & _M13).astype(np.intp)
        count = _POP13[pattern]
        cards[0] = lead
        cards[1:] = 13 * led + _SEL13[pattern << 4 | (draws[t] * count).astype(np.intp)]
        void = count == 0
        np.copyto(cards[1:], first[1:], where=void)
        taken = np.bitwise_or.reduce(BITS[cards], axis=0)
        played |= taken
        rem &= ~np.bitwise_or.reduce(BITS[where.take(cards * size + rows)], axis=0)
        batch._plays[p : p + n] = cards
        p += n
        voids |= np.bitwise_or.reduce(
            void.astype(np.uint32) << (4 * seats[1:] + led).astype(np.uint32), axis=0
        )
        np.copyto(cards[1:], -1, where=void)
        win = np.bitwise_and(np.max(cards * 8 + pos, axis=0), 7)
        leader = wrap[leader + win]
        winners[t], takens[t], leds[t] = leader, taken, led
    for s in range(n):
        batch._capt[:, s] |= np.bitwise_or.reduce(np.where(winners == s, takens, ZERO), axis=0)
    batch._flags |= np.bitwise_or.reduce(np.left_shift(1, leds), axis=0)
    batch._flags |= np.where((played & np.uint64(HEARTS)) != ZERO, HEARTS_BROKEN, 0)
    batch._p = p
    batch._nplays[:] = p
    batch._leader[:] = leader
    batch._to_act[:] = leader
    batch._ntricks += left
    batch._done[:] = played == batch._every
    if batch._done.any():
        batch._aligned = False


def random_trick(batch: Any, rng: np.random.Generator) -> None:
    """One whole trick of every deal of an aligned batch at a trick's start, at random:
    the lead, then every follower's card at once."""
    cfg = batch.cfg
    n = batch.players
    batch._play_aligned(random_cards(batch.legal_bits(), rng))
    led = batch._led
    # (followers, deals) arrays: row j is the lead's j+1-th follower in every deal.
    seats = (batch._leader[None, :] + np.arange(1, n)[:, None]) % n
    hands = np.take_along_axis(batch._dealt.T, seats, axis=0) & ~batch._played
    follow = hands & SUIT[led]
    legal = np.where(follow != ZERO, follow, hands)
    if batch._up.any():
        exposed = batch._up
        if cfg.restriction == RESTRICT_SUIT:
            unled = (batch._flags >> led & 1) == 0
            free = follow & ~exposed
            keep = (follow != ZERO) & unled & ((exposed & follow) != ZERO) & (free != ZERO)
            legal = np.where(keep, free, legal)
        elif cfg.restriction == RESTRICT_DEAL:
            first = batch._ntricks == 0
            free = legal & ~exposed
            keep = first & ((legal & exposed) != ZERO) & (free != ZERO)
            legal = np.where(keep, free, legal)
    cards = _random_followers(legal, follow, led, rng)
    batch._plays[batch._p : batch._p + n - 1] = cards
    batch._trick[1:] = cards
    suit = _CARD_SUIT[cards]
    off = suit != led
    shifts = (4 * seats + led).astype(np.uint32)
    voids = off.astype(np.uint32) << shifts
    bits = BITS[cards]
    top = batch._best  # the lead's card (set by the lead's step)
    pos = batch._bestpos
    taken = batch._taken
    for j in range(n - 1):
        taken |= bits[j]
        batch._voids |= voids[j]
        card = np.where(off[j], -1, cards[j])
        better = card > top
        np.copyto(top, card, where=better)
        np.copyto(pos, j + 1, where=better)
    batch._played |= taken
    batch._flags |= np.where((taken & np.uint64(HEARTS)) != ZERO, HEARTS_BROKEN, 0)
    batch._p += n - 1
    batch._nplays[:] = batch._p
    batch._k = 0
    batch._finish(batch._rows, slice(None))
