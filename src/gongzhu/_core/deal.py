"""The library's stable shuffle and the deal of the shuffled deck, on card indexes. Private.

:func:`gongzhu.deal` seeds the generator and checks its arguments; the loops
live here so that the compiled build runs them natively. The generator is
passed in as its ``getrandbits`` method: the shuffle draws nothing else, so a
seed deals the same cards in both builds (and in every Python version).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from gongzhu._core.state import BIT

STEPS: Final = tuple(
    tuple((i, i + 1, (i + 1).bit_length()) for i in range(n - 1, 0, -1)) for n in range(53)
)
"""The Fisher–Yates steps of :func:`shuffle` for each number of cards (0 to 52)."""


def shuffle(
    deck: tuple[int, ...],
    steps: tuple[tuple[int, int, int], ...],
    getrandbits: Callable[[int], int],
) -> list[int]:
    """``deck`` after Fisher–Yates: ``steps`` holds ``(i, i + 1, bits of i + 1)``, i falling.

    Each swap partner is drawn uniformly below ``i + 1`` by rejection sampling
    on ``getrandbits``.
    """
    cards = list(deck)
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def split(
    order: list[int], n: int, dealer: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The hands dealt from ``order`` (card k to seat ``(dealer + 1 + k) % n``) and their masks."""
    dealt: list[tuple[int, ...]] = []
    hands: list[int] = []
    for s in range(n):
        cards = tuple(order[(s - dealer - 1) % n :: n])
        mask = 0
        for c in cards:
            mask |= BIT[c]
        dealt.append(cards)
        hands.append(mask)
    return tuple(dealt), tuple(hands)


def deal_out(
    cards: list[int],
    seats: list[int],
    counts: tuple[int, ...],
    hands: list[int],
    getrandbits: Callable[[int], int],
) -> None:
    """Shuffle ``cards`` and give ``counts[i]`` of them to ``hands[seats[i]]`` (masks, in place).

    :func:`shuffle` draws exactly what ``random.Random.shuffle`` draws (Fisher–Yates
    from the top, each partner below ``i + 1`` by rejection on ``getrandbits``), so a
    generator deals what ``rng.shuffle`` would: the search's sampled deals, natively
    in the compiled build.
    """
    order = shuffle(tuple(cards), STEPS[len(cards)], getrandbits)
    at = 0
    for k in range(len(seats)):
        s = seats[k]
        a = counts[k]
        mask = hands[s]
        for c in order[at : at + a]:
            mask |= BIT[c]
        hands[s] = mask
        at += a
