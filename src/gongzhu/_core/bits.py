"""Card bits and bit tables: the one place the engine core names a card by its bit. Private.

Cards are indexes 0-51 (suit-major: ``suit * 13 + rank - 2``; clubs, diamonds,
hearts, spades) and sets of cards are 52-bit int masks, as in
:mod:`gongzhu.cards`. Written for mypyc: no shifts with a constant left
operand inside functions, no ``int.bit_count``; the tables below do that work.
"""

from __future__ import annotations

from typing import Final

BIT: Final = tuple([1 << i for i in range(64)])
SUIT_MASKS: Final = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)
CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS_SUIT: Final = 2
SPADES: Final = 3
HEARTS: Final = 0x1FFF << 26
FULL: Final = (1 << 52) - 1

TEN_OF_CLUBS: Final = 8  # 10♣, the transformer
JACK_OF_DIAMONDS: Final = 22  # J♦, the sheep
QUEEN_OF_DIAMONDS: Final = 23  # Q♦ (its trick bonus)
ACE_OF_HEARTS_INDEX: Final = 38  # A♥
QUEEN_OF_SPADES: Final = 49  # Q♠, the pig
KING_OF_SPADES: Final = 50
ACE_OF_SPADES: Final = 51

TEN_BIT: Final = 1 << 8
SHEEP_BIT: Final = 1 << 22
QUEEN_OF_DIAMONDS_BIT: Final = 1 << 23
ACE_BIT: Final = 1 << 38
ACE_OF_HEARTS: Final = ACE_BIT  # the same mask by the card's name (not gongzhu.ACE_OF_HEARTS)
PIG_BIT: Final = 1 << 49
POINT_CARDS: Final = HEARTS | PIG_BIT | SHEEP_BIT | TEN_BIT
"""The cards that score (every heart, the pig, the sheep, the transformer)."""


def _pop13() -> tuple[int, ...]:
    table = [0] * 8192
    for i in range(1, 8192):
        table[i] = table[i >> 1] + (i & 1)
    return tuple(table)


def _low13() -> tuple[int, ...]:
    table = [-1] * 8192
    for i in range(1, 8192):
        j = 0
        while not i >> j & 1:
            j += 1
        table[i] = j
    return tuple(table)


def _high13() -> tuple[int, ...]:
    table = [-1] * 8192
    for i in range(1, 8192):
        table[i] = table[i >> 1] + 1
    return tuple(table)


POP13: Final = _pop13()
"""Number of set bits of every 13-bit pattern (one suit)."""
LOW13: Final = _low13()
"""Index of the lowest set bit of every non-zero 13-bit pattern."""
HIGH13: Final = _high13()
"""Index of the highest set bit of every non-zero 13-bit pattern."""


def popcount(mask: int) -> int:
    """The number of cards in a 52-bit mask."""
    return (
        POP13[mask & 0x1FFF]
        + POP13[mask >> 13 & 0x1FFF]
        + POP13[mask >> 26 & 0x1FFF]
        + POP13[mask >> 39 & 0x1FFF]
    )


def lowest(mask: int) -> int:
    """The index of the lowest card of a non-empty 52-bit mask."""
    base = 0
    while not mask & 0x1FFF:
        mask >>= 13
        base += 13
    return base + LOW13[mask & 0x1FFF]


def highest(mask: int) -> int:
    """The index of the highest card of a non-empty 52-bit mask."""
    base = 39
    while not mask >> base & 0x1FFF:
        base -= 13
    return base + HIGH13[mask >> base & 0x1FFF]


def nth_card(mask: int, k: int) -> int:
    """The index of card number ``k`` (0-based, index order) of ``mask``."""
    base = 0
    while True:
        part = mask & 0x1FFF
        count = POP13[part]
        if k < count:
            while k:
                part &= part - 1
                k -= 1
            return base + LOW13[part]
        k -= count
        mask >>= 13
        base += 13


def _select_tables() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``SEL7[k << 7 | p]`` and ``SEL6[k << 6 | p]``: the index of set bit number ``k`` of
    the 7-bit (6-bit) pattern ``p`` (k < its popcount), so that a 13-bit suit's card
    number ``k`` is two look-ups and no loop (small tables: 896 + 384 entries)."""
    sel7 = [0] * (7 << 7)
    for p in range(128):
        k = 0
        for i in range(7):
            if p >> i & 1:
                sel7[k << 7 | p] = i
                k += 1
    sel6 = [0] * (6 << 6)
    for p in range(64):
        k = 0
        for i in range(6):
            if p >> i & 1:
                sel6[k << 6 | p] = i + 7  # a 13-bit suit's high part starts at bit 7
                k += 1
    return tuple(sel7), tuple(sel6)


# Each table Final on its own line: the compiled build reads a Final as a C static (a
# tuple unpacked at module level would be a dict look-up per use).
_SELECT: Final = _select_tables()
SEL7: Final = _SELECT[0]
SEL6: Final = _SELECT[1]


def heart_sum_table(values: tuple[int, ...]) -> tuple[int, ...]:
    """The hearts total for every 13-bit pattern of hearts (bit i = rank i + 2)."""
    sums = [0] * 8192
    for pattern in range(1, 8192):
        sums[pattern] = sums[pattern & (pattern - 1)] + values[LOW13[pattern]]
    return tuple(sums)
