"""Bit tables and bit tricks on ``uint64`` arrays, shared by the vector engine and its policy.

Cards are bits 0-51 of a ``uint64`` (suit-major, as :mod:`gongzhu.cards`);
every function here works on whole arrays at once.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from gongzhu._core.bits import FULL as _FULL
from gongzhu._core.bits import SUIT_MASKS

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

BITS: Final[U64] = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
"""``BITS[c]``: the bit of card ``c`` (64 entries, so that bit tricks may index 52-63)."""
FULL: Final = np.uint64(_FULL)
ZERO: Final = np.uint64(0)


def u64(x: int) -> np.uint64:
    """The mask ``x`` as a NumPy ``uint64`` scalar."""
    out: np.uint64 = np.uint64(x)
    return out


SUIT: Final[U64] = np.array([*SUIT_MASKS, _FULL], dtype=np.uint64)
"""The suit masks by suit, then every card (index 4: no suit led yet)."""
POP16: Final = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.uint8)
"""Set bits of every 16-bit pattern."""


def select_table(width: int, dtype: Any) -> npt.NDArray[Any]:
    """``table[p << s | k]``: the index of set bit number ``k`` of the ``width``-bit pattern
    ``p`` (``s`` the bits of ``width - 1``; 0 where ``p`` has no such bit)."""
    slots = 1 << (width - 1).bit_length()
    bits = (np.arange(1 << width)[:, None] >> np.arange(width)[None, :]) & 1
    cum = bits.cumsum(axis=1)
    out = np.zeros((1 << width, slots), dtype)
    for k in range(width):
        out[:, k] = (cum > k).argmax(axis=1)
    return out.reshape(-1)


# 2,048 entries: small enough to stay in the fastest cache, unlike a 16-bit table.
SEL8: Final = select_table(8, np.int64)
POP8: Final = POP16[:256].astype(np.int64)
CARD_SUIT: Final[I64] = np.arange(52, dtype=np.int64) // 13
CARD_RANK: Final[I64] = np.arange(52, dtype=np.int64) % 13


def popcount(x: Any) -> I64:
    """The number of cards in each mask of the ``uint64`` array ``x`` (any shape)."""
    a = np.ascontiguousarray(x, dtype=np.uint64)
    parts = a.view(np.uint16).reshape(*a.shape, 4)
    out: I64 = POP16[parts].sum(axis=-1, dtype=np.int64)
    return out


def bitcount(x: U64) -> I64:
    """The number of cards in each mask of the 1-d ``uint64`` array ``x``
    (``numpy.bitwise_count`` where NumPy has it)."""
    if _BITWISE_COUNT is not None:
        out: I64 = _BITWISE_COUNT(x).astype(np.int64)
        return out
    return popcount(x)


_BITWISE_COUNT: Any = getattr(np, "bitwise_count", None)


def highest(x: Any) -> I64:
    """The index of the highest card of each non-empty mask (``-1`` for an empty one)."""
    a = np.asarray(x, dtype=np.uint64)
    # Masks use bits below 52, so the float conversion is exact.
    exp = np.frexp(a.astype(np.float64))[1]
    out: I64 = exp.astype(np.int64) - 1
    return out


def lowest(x: Any) -> I64:
    """The index of the lowest card of each non-empty mask (``-1`` for an empty one)."""
    a = np.asarray(x, dtype=np.uint64)
    return highest(a & (~a + np.uint64(1)))


def unpack(x: Any) -> Bools:
    """``(..., 52)`` booleans of the masks ``x``: entry ``c`` is card ``c``."""
    a = np.ascontiguousarray(x, dtype=np.uint64)
    raw = a.view(np.uint8).reshape(*a.shape, 8)
    if np.little_endian:
        bits = np.unpackbits(raw, axis=-1, bitorder="little")
    else:  # pragma: no cover (big-endian machines)
        bits = np.unpackbits(raw[..., ::-1], axis=-1, bitorder="little")
    out: Bools = bits[..., :52].view(np.bool_)
    return out


def pack(b: Any) -> U64:
    """The masks of ``(..., 52)`` booleans (the inverse of :func:`unpack`)."""
    a = np.asarray(b, dtype=np.bool_)
    padded = np.zeros((*a.shape[:-1], 64), dtype=np.bool_)
    padded[..., :52] = a
    raw = np.packbits(padded, axis=-1, bitorder="little")
    if not np.little_endian:  # pragma: no cover
        raw = raw[..., ::-1]
    out: U64 = np.ascontiguousarray(raw).view(np.uint64)[..., 0]
    return out


_HEARTS: dict[tuple[int, ...], tuple[I64, I64]] = {}


def heart_tables(heart_values: tuple[int, ...], heart_sums: tuple[int, ...]) -> tuple[I64, I64]:
    """The rule set's heart values by card (52 entries, 0 off hearts) and its hearts total
    of every 13-bit pattern (the core's ``Config.heart_sums``), as arrays (cached)."""
    tables = _HEARTS.get(heart_values)
    if tables is None:
        if len(_HEARTS) > 16:
            _HEARTS.clear()
        by_card = np.zeros(52, np.int64)
        by_card[26:39] = heart_values
        tables = (by_card, np.array(heart_sums, dtype=np.int64))
        _HEARTS[heart_values] = tables
    return tables
