"""The cards the seat to act may play in every deal of a batch: the core's rules of play
(:func:`gongzhu._core.play.legal_mask`) restated on ``uint64`` bitboards.

Every function takes the batch's public record of arrays, a
:class:`~gongzhu.vector.VectorState`.
"""

from __future__ import annotations

import numpy as np

from gongzhu._core.bits import ACE_BIT, HEARTS
from gongzhu._core.config import RESTRICT_DEAL, RESTRICT_SUIT
from gongzhu._core.rules import HEARTS_BROKEN
from gongzhu.vector._state import NONE_LED, VectorState
from gongzhu.vector._tables import I64, SUIT, U64, ZERO, popcount, u64

__all__ = ["exposed", "hand_and_legal", "legal_bits", "row_base"]


def exposed(state: VectorState) -> U64:
    """The face-up exposures that bind play now (the forced fourth before the first lead)."""
    up: U64 = state.up
    cfg = state.cfg
    if not cfg.force_fourth:
        return up
    ex = state.exposable
    mine = up & ex
    fourth = (popcount(mine) == 3) & (state.tricks == 0) & (state.count == 0)
    out: U64 = np.where(fourth, up | (ex & ~mine), up)
    return out


def legal_bits(state: VectorState) -> U64:
    """``(n,)`` ``uint64`` masks of the cards the seat to act may play (0 once over)."""
    return hand_and_legal(state)[1]


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


def hand_and_legal(state: VectorState) -> tuple[U64, U64]:
    """The hand of the seat to act in every deal and :func:`legal_bits` (0 once over)."""
    cfg = state.cfg
    dealt = state.dealt
    hand = dealt.take(row_base(*dealt.shape) + state.to_act) & ~state.played
    led = state.led
    if state.aligned and state.aligned_count == 0:
        follow = hand  # every deal leads
        legal: U64 = hand
    else:
        follow = hand & SUIT[led]
        legal = np.where(follow, follow, hand)  # (follow if it has a card)
    has_up = cfg.exposable != 0 and bool(state.up.any())
    if not (has_up or cfg.must_lead_opening or cfg.hearts_rule):  # a free lead
        return hand, legal if state.aligned else np.where(state.is_over, ZERO, legal)
    lead = led == NONE_LED
    first = state.tricks == 0
    shown = exposed(state) if has_up else state.up
    if cfg.must_lead_opening:
        opening = lead & first & state.opening & ((hand & state.opening_card) != ZERO)
    else:
        opening = None
    if cfg.hearts_rule or (cfg.blood_lock and has_up):
        # The lead's restrictions give way in the order of specification §9.6 (see the
        # core's legal_mask): the exposure restriction, then hearts.
        broken = (state.flags & HEARTS_BROKEN) != 0
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
            unled = (state.flags >> suit & 1) == 0
            other = (hand & sm & ~mine) != ZERO
            held |= np.where(lead & unled & other, mine, ZERO)
        # Following: an exposed card stays back in the first trick led in its suit.
        led_c = np.minimum(led, 3)
        unled_f = (state.flags >> led_c & 1) == 0
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
        legal = np.where(opening, state.opening_card, legal)
    if state.aligned:
        return hand, legal
    out: U64 = np.where(state.is_over, ZERO, legal)
    return hand, out
