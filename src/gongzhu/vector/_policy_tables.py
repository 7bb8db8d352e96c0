"""The rule of thumb's tactics as lookup tables over 13-bit suit patterns (built once).

The core's rule of thumb (:mod:`gongzhu._core.policy`) scores each legal card and keeps
the first of the best score, or, following suit, takes the highest card below the
trick's top, the lowest above it, and so on. Every one of those choices depends on the
cards of one suit only, given a few facts about the position (whether the pig is out,
the seat's exposure factor of A♥, whether its partner wins the trick...). So each is
tabulated once per suit, variant of those facts and 13-bit pattern of legal cards, and
the vector policy (:mod:`gongzhu.vector._policy`) chooses a card for a whole batch by
a handful of lookups.

* :func:`lead_table` and :func:`discard_table`: for each variant and suit, the *packed*
  best card of each pattern, ``score * 64 + 63 - card`` (so the maximum over suits is
  the best score and, among equal scores, the lowest card, as the core's loop keeps).
  The per-card scores are the core's ``_lead`` and ``_discard`` terms.
* :func:`follow_tables`: following suit, the card the core plays for each variant (the
  suit, and for spades whether the pig is out), the top card's rank and the pattern of
  legal cards: not last to play, or last and ducking, or last and taking.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from gongzhu._core.bits import JACK_OF_DIAMONDS, KING_OF_SPADES, QUEEN_OF_SPADES, TEN_OF_CLUBS

I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]

__all__ = ["FACTORS", "discard_table", "follow_tables", "lead_table", "pack_best"]

NEVER: Final = -(2**30)
"""The packed value of an empty pattern (below every card's)."""
FACTORS: Final = (1, 2, 4, 8)
"""The exposure factors of A♥ a seat may know, in the tables' variant order."""
_RANK: Final = np.arange(52, dtype=np.int64) % 13
_PATTERNS: Final = np.arange(8192, dtype=np.int64)


def _bit_tables() -> tuple[I64, I64]:
    """The highest and the lowest set bit of each 13-bit pattern (``-1`` for none)."""
    high = np.full(8192, -1, np.int64)
    low = np.full(8192, -1, np.int64)
    for b in range(13):
        has = (_PATTERNS >> b & 1) == 1
        high[has] = b
        low[has & (low < 0)] = b
    return high, low


_HIGH, _LOW = _bit_tables()


def pack_best(scores: I64) -> tuple[I32, I64]:
    """The packed best card (``score * 64 + 63 - card``, :data:`NEVER` for the empty
    pattern) of each 13-bit pattern of each suit, for each row of per-card ``scores``
    (``(variants, 52)``), as ``(table, where)``: the packed value of variant ``v``, suit
    ``s`` and pattern ``p`` is ``table[where[s, v] + p]``.

    A variant changes the scores of a few suits only, so each suit keeps its distinct
    blocks of 8,192 values once: the table stays small enough for the processor's cache.
    """
    v = scores.shape[0]
    cards = np.arange(52, dtype=np.int64)
    packed = scores * 64 + 63 - cards[None, :]
    blocks: list[I64] = []
    where = np.zeros((4, v), np.int64)
    for s in range(4):
        out = np.full((v, 8192), NEVER, np.int64)
        for b in range(13):  # the patterns whose highest card is b: those below, and b
            lo = 1 << b
            out[:, lo : 2 * lo] = np.maximum(out[:, :lo], packed[:, 13 * s + b, None])
        unique, inverse = np.unique(out, axis=0, return_inverse=True)
        where[s] = (len(blocks) + inverse.reshape(-1)) * 8192
        blocks.extend(unique)
    return np.concatenate(blocks).astype(np.int32), where


_LEAD: dict[tuple[int, ...], tuple[I32, I64]] = {}


def lead_table(heart_values: tuple[int, ...]) -> tuple[I32, I64]:
    """The core's ``_lead`` scores less the short-suit terms (which are the same for a
    whole suit), packed by :func:`pack_best`. Variant ``(case * 4 + factor) * 2 + sheep``:
    ``case`` 0 (the pig is neither held nor out), 1 (held), 2 (out); ``factor`` the index
    of the A♥ factor in :data:`FACTORS`; ``sheep`` 1 when a diamond above J♦ is out."""
    table = _LEAD.get(heart_values)
    if table is None:
        hv = np.array(heart_values, dtype=np.int64)
        spade = (np.arange(52) // 13 == 3) & (np.arange(52) != QUEEN_OF_SPADES)
        rows = []
        for case in range(3):
            for fa in FACTORS:
                for sheep in (0, 1):
                    v = -_RANK.copy()
                    v[QUEEN_OF_SPADES] -= 200
                    if case == 2:
                        v += np.where(spade, np.where(np.arange(52) > QUEEN_OF_SPADES, -100, 8), 0)
                    elif case == 1:
                        v += np.where(spade, -5, 0)
                    v[26:39] -= 4 - hv * fa // 5
                    v[JACK_OF_DIAMONDS] += -60 if sheep else 20
                    v[TEN_OF_CLUBS] -= 10
                    rows.append(v)
        table = _LEAD[heart_values] = pack_best(np.stack(rows))
    return table


_DISCARD: dict[tuple[int, ...], tuple[I32, I64]] = {}


def discard_table(heart_values: tuple[int, ...]) -> tuple[I32, I64]:
    """The core's ``_discard`` scores packed by :func:`pack_best`. Variant
    ``((partner * 2 + pig_out) * 2 + pile_negative) * 4 + factor``: ``partner`` when the
    trick's winner is the seat's partner, ``pig_out`` when another seat may hold the pig,
    ``pile_negative`` when the winner's pile scores below zero, ``factor`` as in
    :func:`lead_table`."""
    table = _DISCARD.get(heart_values)
    if table is None:
        hv = np.array(heart_values, dtype=np.int64)
        rows = []
        for partner in (False, True):
            for pig_out in (False, True):
                for negative in (False, True):
                    for fa in FACTORS:
                        v = _RANK.copy()
                        hurt = -hv * fa
                        v[26:39] = -hurt - 100 if partner else 100 + hurt + _RANK[26:39]
                        v[QUEEN_OF_SPADES] = -1000 if partner else 1000
                        v[JACK_OF_DIAMONDS] = 500 if partner else -500
                        v[TEN_OF_CLUBS] = (250 if negative else -50) * (-1 if partner else 1)
                        if pig_out:
                            v[KING_OF_SPADES:] = 300 + _RANK[KING_OF_SPADES:]
                        rows.append(v)
        table = _DISCARD[heart_values] = pack_best(np.stack(rows))
    return table


def _or_else(a: I64, b: I64) -> I64:
    out: I64 = np.where(a != 0, a, b)
    return out


def _build_follow() -> tuple[I8, I8, I8]:
    pig, sheep, high = 1 << (QUEEN_OF_SPADES % 13), 1 << (JACK_OF_DIAMONDS % 13), 0b11 << 11
    shape = (5, 13, 8192)
    follow, duck, take = (np.full(shape, -1, np.int8) for _ in range(3))
    p = _PATTERNS
    for variant in range(5):
        suit = min(variant, 3)
        for top in range(13):
            below = p & ((1 << top) - 1)
            above = p & ~below
            keep = _or_else(below & ~sheep, below) if suit == 1 else below
            ducked = _HIGH[keep]
            cand = _or_else(above & ~pig, above) if suit == 3 else above
            if variant == 4:  # spades led and the pig out: A♠/K♠ would catch it
                cand = _or_else(cand & ~high, cand)
            win = _or_else(above & ~pig, above) if suit == 3 else above
            won = np.where((win & sheep) != 0, 9, _HIGH[win]) if suit == 1 else _HIGH[win]
            follow[variant, top] = np.where(below != 0, ducked, _LOW[cand])
            duck[variant, top] = ducked
            take[variant, top] = np.where(above != 0, won, -1)
            if suit == 3 and top > QUEEN_OF_SPADES % 13:  # the pig under a higher spade
                under = (p & pig) != 0
                for table in (follow, duck, take):
                    table[variant, top] = np.where(under, QUEEN_OF_SPADES % 13, table[variant, top])
    return follow.reshape(-1), duck.reshape(-1), take.reshape(-1)


_FOLLOW: list[tuple[I8, I8, I8, I8]] = []


def follow_tables() -> tuple[I8, I8, I8, I8]:
    """Following suit, the card (id) played: not last to play (``follow``), last when not
    taking (``duck``, ``-1`` with no card below the top) and last when taking (``take``,
    ``-1`` with none above), by ``(variant * 13 + top rank) * 8192 + pattern``; variant the
    led suit, or 4 for spades while the pig is out. ``last``: the card the last seat plays
    where it has no choice (the take, else the duck), plus 64 where it has both."""
    if not _FOLLOW:
        suit = np.minimum(np.arange(5), 3).repeat(13 * 8192)
        follow, duck, take = (
            np.where(rank >= 0, rank + 13 * suit, -1).astype(np.int8) for rank in _build_follow()
        )
        last = np.where(take >= 0, take, duck) + 64 * ((take >= 0) & (duck >= 0))
        _FOLLOW.append((follow, duck, take, last.astype(np.int8)))
    return _FOLLOW[0]
