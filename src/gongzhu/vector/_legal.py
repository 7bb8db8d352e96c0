"""The cards the seat to act may play in every deal of a batch: the core's rules of play
(:func:`gongzhu._core.play.legal_mask`) restated on ``uint64`` bitboards.

``batch`` is a :class:`~gongzhu.vector.VectorDeal` (typed ``Any``: the engine imports
this module, so this one cannot import the engine back).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from gongzhu._core.bits import ACE_BIT, HEARTS
from gongzhu._core.config import RESTRICT_DEAL, RESTRICT_SUIT
from gongzhu._core.rules import HEARTS_BROKEN
from gongzhu.vector._tables import I64, SUIT, U64, ZERO, popcount, u64

__all__ = ["exposed", "hand_and_legal", "legal_bits", "row_base"]

NONE_LED: Final = 4  # ``led`` before the trick's first card


def exposed(batch: Any) -> U64:
    """The face-up exposures that bind play now (the forced fourth before the first lead)."""
    up: U64 = batch._up
    cfg = batch._cfg
    if not cfg.force_fourth:
        return up
    ex = batch._exposable
    mine = up & ex
    fourth = (popcount(mine) == 3) & (batch._ntricks == 0) & (batch._count == 0)
    out: U64 = np.where(fourth, up | (ex & ~mine), up)
    return out


def legal_bits(batch: Any) -> U64:
    """``(n,)`` ``uint64`` masks of the cards the seat to act may play (0 once over)."""
    return hand_and_legal(batch)[1]


_BASE: dict[tuple[int, int], I64] = {}


def row_base(size: int, n: int) -> I64:
    """``arange(size) * n``: the flat index of each row's first seat (cached)."""
    base = _BASE.get((size, n))
    if base is None:
        if len(_BASE) > 16:  # sub-batches come in many sizes: keep a few
            _BASE.clear()
        base = _BASE[size, n] = np.arange(size, dtype=np.int64) * n
        base.flags.writeable = False  # shared by every caller
    return base


def hand_and_legal(batch: Any) -> tuple[U64, U64]:
    """The hand of the seat to act in every deal and :func:`legal_bits` (0 once over)."""
    cfg = batch._cfg
    dealt = batch._dealt
    hand = dealt.take(row_base(*dealt.shape) + batch._to_act) & ~batch._played
    led = batch._led
    if batch._aligned and batch._k == 0:
        follow = hand  # every deal leads
        legal: U64 = hand
    else:
        follow = hand & SUIT[led]
        legal = np.where(follow, follow, hand)  # (follow if it has a card)
    has_up = cfg.exposable != 0 and bool(batch._up.any())
    if not (has_up or cfg.must_lead_opening or cfg.hearts_rule):  # a free lead
        return hand, legal if batch._aligned else np.where(batch._done, ZERO, legal)
    lead = led == NONE_LED
    first = batch._ntricks == 0
    shown = exposed(batch) if has_up else batch._up
    if cfg.must_lead_opening:
        opening = lead & first & batch._opening & ((hand & batch._opening_card) != ZERO)
    else:
        opening = None
    if cfg.hearts_rule or (cfg.blood_lock and has_up):
        # The lead's restrictions give way in the order of RULES.md §9.6 (see the
        # core's legal_mask): the exposure restriction, then hearts.
        broken = (batch._flags & HEARTS_BROKEN) != 0
        lock = np.bool_(cfg.hearts_rule) | ((shown & u64(ACE_BIT)) != ZERO)
        blocked = np.where(
            lead & lock & ~broken & ((hand & u64(~HEARTS & (1 << 52) - 1)) != ZERO),
            u64(HEARTS), ZERO,
        )  # fmt: skip
    else:
        blocked = None
    held = None
    if has_up and cfg.restriction == RESTRICT_SUIT:
        mine_all = shown & hand
        held = np.zeros_like(hand)
        for suit in range(4):
            sm = SUIT[suit]
            mine = mine_all & sm
            unled = (batch._flags >> suit & 1) == 0
            other = (hand & sm & ~mine) != ZERO
            held |= np.where(lead & unled & other, mine, ZERO)
        # Following: an exposed card stays back in the first trick led in its suit.
        led_c = np.minimum(led, 3)
        unled_f = (batch._flags >> led_c & 1) == 0
        free = follow & ~shown
        keep = ~lead & (follow != ZERO) & unled_f & ((shown & follow) != ZERO)
        keep &= free != ZERO
        legal = np.where(keep, free, legal)
    elif has_up and cfg.restriction == RESTRICT_DEAL:
        held = np.where(lead & first, shown & hand, ZERO)
        free = legal & ~shown
        keep = ~lead & first & ((legal & shown) != ZERO) & (free != ZERO)
        legal = np.where(keep, free, legal)
    if blocked is not None or held is not None:
        b = blocked if blocked is not None else ZERO
        h = held if held is not None else ZERO
        choice = hand & ~b & ~h
        choice = np.where(choice != ZERO, choice, hand & ~b)
        choice = np.where(choice != ZERO, choice, hand)
        legal = np.where(lead, choice, legal)
    if opening is not None:
        legal = np.where(opening, batch._opening_card, legal)
    if batch._aligned:
        return hand, legal
    out: U64 = np.where(batch._done, ZERO, legal)
    return hand, out
