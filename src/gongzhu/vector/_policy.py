"""The rule-of-thumb policy for a whole batch: the core's card in every deal, on arrays.

:func:`rule_of_thumb` chooses, for every unfinished deal of a
:class:`~gongzhu.vector.VectorDeal`, the card that the core's rule of thumb
(:func:`gongzhu._core.policy.choose_board`, the public
:class:`~gongzhu.RuleOfThumbStrategy`) chooses in that position. The policy's
tactics are the core's, restated as scores over the 52 cards (the core's loops
keep the first card of the best score; ``argmax`` keeps the first maximum);
its weights (``SHORT_WEIGHT``, ``SHORT_LEADS``) and every value it reads come
from the core and the rule set's :class:`~gongzhu._core.config.Config`.
``tests/vector/test_vector_policy.py`` checks it card for card against the core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from gongzhu._core.bits import (
    HEARTS,
    JACK_OF_DIAMONDS,
    PIG_BIT,
    QUEEN_OF_SPADES,
    SHEEP_BIT,
    SPADES,
    TEN_BIT,
)
from gongzhu._core.policy import SHORT_LEADS, SHORT_WEIGHT
from gongzhu.vector._legal import hand_and_legal
from gongzhu.vector._policy_tables import (
    FACTORS,
    I32,
    discard_table,
    follow_tables,
    lead_table,
)
from gongzhu.vector._score import factors
from gongzhu.vector._state import VectorState
from gongzhu.vector._tables import BITS, I64, POP16, SUIT, U64, ZERO, Bools, bitcount, heart_tables

__all__ = ["rule_of_thumb"]

_PIG: Final = np.uint64(PIG_BIT)
_SHEEP: Final = np.uint64(SHEEP_BIT)
_TEN: Final = np.uint64(TEN_BIT)
_SHIFT13: Final = 13 * np.arange(5, dtype=np.int64)  # by suit (4: none led)
_SHIFTS: Final = _SHIFT13[:4, None]
_FOUR: Final = np.arange(4, dtype=np.intp)[:, None]
_POP13_U8: Final = POP16[:8192].astype(np.uint8)
_SUIT4: Final = SUIT[:4, None]
_M13: Final = np.uint64(0x1FFF)
_BITWISE_COUNT: Final[Any] = getattr(np, "bitwise_count", None)
_ABOVE_SHEEP: Final = np.uint64(SUIT[1] & ~(BITS[JACK_OF_DIAMONDS + 1] - np.uint64(1)))
_SUIT256: Final = 256 * _FOUR
_FACTOR_INDEX: Final = np.zeros(max(FACTORS) + 1, np.intp)
_FACTOR_INDEX[list(FACTORS)] = np.arange(len(FACTORS))
# The follow tables' row base by ``top card + 52 * pig out``: ``(variant * 13 + rank) * 8192``
# with variant the top's suit, or 4 for spades while the pig is out.
_CARDS: Final = np.arange(52, dtype=np.int64)
_ROW_BASE: Final = 8192 * np.concatenate((_CARDS, _CARDS + 13 * (_CARDS >= 13 * SPADES)))
# A pile's pig, hearts and sheep as one 15-bit number, ``pig | hearts << 1 | sheep << 14``,
# by one product (see _Seat.pile): three copies of the pile's point cards, shifted so that
# the pig (bit 49), the hearts (26-38) and the sheep (22) land side by side in bits 49-63;
# every other bit of the copies falls below 49 or beyond 63 without touching another's.
_HEARTS_AT: Final = (HEARTS & -HEARTS).bit_length() - 1  # the first heart's bit (2♥)
_POINTS: Final = np.uint64(PIG_BIT | SHEEP_BIT | HEARTS)
_GATHER: Final = np.uint64(
    1 + (1 << (QUEEN_OF_SPADES + 1 - _HEARTS_AT)) + (1 << (QUEEN_OF_SPADES + 14 - JACK_OF_DIAMONDS))
)
_PIG_AT: Final = np.uint64(QUEEN_OF_SPADES)


_WIDE: dict[tuple[int, int], Any] = {}


def _wide(column: npt.NDArray[Any], n: int, wide: bool) -> Any:
    """The ``(4, 1)`` constant ``column`` repeated to ``(4, n)`` for a whole batch (``wide``)
    of a mid-sized ``n`` (cached): NumPy combines arrays of one shape faster than it
    broadcasts a column, and a whole batch keeps its size from step to step."""
    if not wide or not 256 <= n <= 4096:
        return column
    key = (id(column), n)  # the columns are module constants: their ids stay theirs
    out = _WIDE.get(key)
    if out is None:
        if len(_WIDE) > 16:
            _WIDE.clear()
        out = _WIDE[key] = np.repeat(column, n, axis=1)
    return out


def _lanes(x: U64, wide: bool = False) -> npt.NDArray[np.intp]:
    """``(4, n)``: each mask's 13-bit pattern in each suit (``wide``: see :func:`_wide`)."""
    out: npt.NDArray[np.intp] = x.view(np.int64) >> _wide(_SHIFTS, x.size, wide)
    out &= 0x1FFF
    return out


_SHORT: dict[int, I32] = {}


def _short_suit_terms(n: int) -> I32:
    """``64 ×`` a suit's lead terms by ``((early * 2 + holds the pig) * 4 + suit) * 256 +
    cards out * 16 + cards held``: the core's ``short_suit_bonus`` early (not for spades
    while holding the pig), less 30 where nobody can follow."""
    table = _SHORT.get(n)
    if table is None:
        out = np.arange(16)[:, None]
        held = np.arange(16)[None, :]
        bonus = SHORT_WEIGHT * (out - (n - 1) * held) // (n - 1)
        table = np.zeros((2, 2, 4, 16, 16), np.int32)
        for early in range(2):
            for pig in range(2):
                for suit in range(4):
                    on = early and not (pig and suit == SPADES)
                    table[early, pig, suit] = 64 * (bonus * on - 30 * (out == 0))
        table = _SHORT[n] = table.reshape(-1)
    return table


def _best_of_suits(
    tables: tuple[I32, I64], variant: Any, legal: U64, per_suit: Any = None, wide: bool = False
) -> I64:
    """The best legal card by packed suit tables (see ``_policy_tables.pack_best``), with
    ``per_suit`` (``(4, n)``, ``64 ×`` a score) added to each suit's scores."""
    table, where = tables
    at = _lanes(legal, wide)
    at += where.take(variant, axis=1)
    packed = table.take(at)
    if per_suit is not None:
        packed += per_suit
    out: I64 = 63 - (packed.max(axis=0) & 63)
    return out


if TYPE_CHECKING:
    from gongzhu.vector._engine import VectorDeal

_PILES: dict[int, tuple[Any, I64]] = {}  # by id(config): the config and its pile table


class _Seat:
    """What the seat to act may know in the deals ``r`` (a slice, or rows ``ri``)."""

    def __init__(self, state: VectorState, r: Any, ri: I64, hand: U64 | None = None) -> None:
        cfg = state.cfg
        self.seat: I64 = state.to_act[r]
        self.played: U64 = state.played[r]
        if hand is None:
            hand = state.dealt[ri, self.seat] & ~self.played
        self.hand: U64 = hand
        self.seen: U64 = self.played | hand
        self.pig_out: Bools = (self.seen & _PIG) == ZERO
        # The face-up exposures and its own face-down cards (plain numbers without any;
        # only a batch of Rounds has exposures: deal() and random() decline them).
        self.fa: Any = 1
        self.pig: Any = cfg.pig_value
        self.sheep: Any = cfg.sheep_value
        if state.rounds is not None:
            up = state.up[r]
            own_down = state.down[r] & state.dealt[ri, self.seat]
            if up.any() or own_down.any():
                fa, fq, fj, _ = factors(cfg, up, own_down, ZERO * own_down)
                self.fa = fa
                self.pig = cfg.pig_value * fq
                self.sheep = np.where(fj == 1, cfg.sheep_value, cfg.exposed_sheep_value * fj // 2)
        self.sums = heart_tables(cfg.heart_values, cfg.heart_sums)[1]
        self.table: I64 | None = None
        if isinstance(self.fa, int) and isinstance(self.pig, int) and isinstance(self.sheep, int):
            self.table = self._pile_table(cfg)

    def _pile_table(self, cfg: Any) -> I64:
        """The base score of each 15-bit pile number (see :func:`_pile_number`), by
        :meth:`pile` itself (the same numbers for every deal: no exposures)."""
        entry = _PILES.get(id(cfg))
        if entry is None or entry[0] is not cfg:
            if len(_PILES) > 16:
                _PILES.clear()
            i = np.arange(1 << 15, dtype=np.uint64)
            masks = (i & np.uint64(1)) * _PIG | ((i >> np.uint64(14)) & np.uint64(1)) * _SHEEP
            masks |= ((i >> np.uint64(1)) & _M13) << np.uint64(_HEARTS_AT)
            piles = np.zeros(1 << 15, np.int64)
            piles[_pile_number(masks)] = self.pile(masks)
            entry = _PILES[id(cfg)] = (cfg, piles)
        table: I64 = entry[1]
        return table

    def factor(self, sel: Any = None) -> Any:
        """The index of the A♥ factor in the tables' variants (0 for a plain 1), of the
        deals ``sel`` (positions among ``r``; default all)."""
        return 0 if isinstance(self.fa, int) else _FACTOR_INDEX[_pick(self.fa, sel)]

    def pile(self, mask: U64, sel: Any = None) -> I64:
        """The base score of the captured ``mask`` (the core's ``_pile``) of the deals
        ``sel`` (positions among ``r``; default all)."""
        if self.table is not None:
            piled: I64 = self.table.take(_pile_number(mask))
            return piled
        m = mask.view(np.int64)
        fa, pig, sheep = _pick(self.fa, sel), _pick(self.pig, sel), _pick(self.sheep, sel)
        hearts = self.sums.take((m >> 26) & 0x1FFF)
        if not isinstance(fa, int):
            hearts = hearts * fa
        out: I64 = (
            hearts
            + np.where((mask & _PIG) != ZERO, pig, 0)
            + np.where((mask & _SHEEP) != ZERO, sheep, 0)
        )
        return out


def _pile_number(mask: U64) -> npt.NDArray[np.intp]:
    """The 15-bit number ``pig | hearts << 1 | sheep << 14`` of each mask (see _GATHER)."""
    out: npt.NDArray[np.intp] = (((mask & _POINTS) * _GATHER) >> _PIG_AT).view(np.int64)
    return out


def _pick(value: Any, sel: Any) -> Any:
    """``value`` (a number, or an array a deal) at the positions ``sel`` (all if None)."""
    return value if sel is None or isinstance(value, int) else value[sel]


def _counts(x: U64, wide: bool) -> npt.NDArray[np.uint8]:
    """``(4, n)``: the cards of each mask in each suit."""
    if _BITWISE_COUNT is not None:
        counts: npt.NDArray[np.uint8] = _BITWISE_COUNT(x & _wide(_SUIT4, x.size, wide))
        return counts
    out: npt.NDArray[np.uint8] = _POP13_U8[_lanes(x)]
    return out


def rule_of_thumb(batch: VectorDeal | VectorState, legal: U64 | None = None) -> I64:
    """The rule-of-thumb card of the seat to act in every deal of ``batch`` (a
    :class:`~gongzhu.vector.VectorDeal` or its :class:`~gongzhu.vector.VectorState`;
    ``-1`` for a finished deal): the card :class:`~gongzhu.RuleOfThumbStrategy` plays there.

    ``legal`` is :meth:`VectorDeal.legal_bits` if the caller has it already.

    >>> from gongzhu import RuleSet, deal
    >>> from gongzhu import RuleOfThumbStrategy
    >>> from gongzhu.vector import VectorDeal, rule_of_thumb
    >>> batch = VectorDeal.deal(RuleSet(exposable=""), seeds=range(4))
    >>> while not batch.is_over.all():
    ...     batch.step(rule_of_thumb(batch))
    >>> no_exposure = RuleSet(exposable="")
    >>> rounds = [deal(rules=no_exposure, seed=s).rollout(RuleOfThumbStrategy()) for s in range(4)]
    >>> batch.to_rounds() == rounds
    True
    """
    state = batch if isinstance(batch, VectorState) else batch.state
    if legal is None:
        hand, legal = hand_and_legal(state)
    else:
        hand = None
    if state.aligned:  # every deal at one trick position: whole arrays, no row selection
        if state.aligned_count == 0:
            return _lead(state, slice(None), state.rows, legal, hand)
        last = state.aligned_count == state.players - 1
        return _follow(state, slice(None), state.rows, legal, last, hand)
    card = np.full(state.size, -1, np.int64)
    lead = state.count == 0
    rows = np.flatnonzero((legal != ZERO) & lead)
    if rows.size:
        card[rows] = _lead(state, rows, rows, legal[rows], None if hand is None else hand[rows])
    rows = np.flatnonzero((legal != ZERO) & ~lead)
    if rows.size:
        last = state.count[rows] == state.players - 1
        mine = None if hand is None else hand[rows]
        card[rows] = _follow(state, rows, rows, legal[rows], last, mine)
    return card


def _lead(state: VectorState, r: Any, ri: I64, legal: U64, hand: U64 | None) -> I64:
    """The core's ``_lead`` for the deals ``r``: the short-suit terms by suit, the rest
    from :func:`~gongzhu.vector._policy_tables.lead_table`."""
    cfg = state.cfg
    me = _Seat(state, r, ri, hand)
    outstanding = np.uint64(cfg.deck) & ~me.seen
    holds_pig = (me.hand & _PIG) != ZERO
    early = _BITWISE_COUNT(me.played) if _BITWISE_COUNT is not None else bitcount(me.played)
    early = early < SHORT_LEADS * state.players
    # Each suit's short-suit terms by (early, holds the pig, suit, cards out, cards held).
    wide = isinstance(r, slice)  # the whole batch
    key = _counts(outstanding, wide) * np.uint8(16) + _counts(me.hand, wide)
    key = key.astype(np.intp)
    key += _wide(_SUIT256, key.shape[1], wide) + (early * 2 + holds_pig) * 1024
    per_suit = _short_suit_terms(state.players).take(key)
    variant = np.where(me.pig_out, 16, holds_pig * 8) + ((outstanding & _ABOVE_SHEEP) != ZERO)
    if not isinstance(me.fa, int):
        variant += me.factor() * 2
    return _best_of_suits(lead_table(cfg.heart_values), variant, legal, per_suit, wide)


def _last(state: VectorState, me: _Seat, ri: Any, at: I64, partner: Any) -> I64:
    """The core's card of the trick's last seat following suit: the card that takes (the
    sheep, or the highest but the pig) when taking is worth it, else the duck; decided
    by the gain only in the deals that have both (``ri``: the rows, or None for all)."""
    _, duck, take, last = follow_tables()
    both = last.take(at)
    card = (both & 63).astype(np.int64)
    vi = (both >= 64).nonzero()[0]
    if vi.size:
        at = at[vi]
        won = take.take(at)
        rows = vi if ri is None else ri[vi]
        taken = state.taken[rows] | BITS[won]
        # The transformer doubles the taker's whole pile (or scores alone).
        twice = vi if me.table is not None else np.concatenate((vi, vi))  # (no table: by deal)
        piles = me.pile(np.concatenate((taken, state.captured[rows, me.seat[vi]])), twice)
        gain = piles[: vi.size]
        mine = gain + piles[vi.size :]
        gain = np.where((taken & _TEN) != ZERO, np.where(mine != 0, mine, 25), gain)
        if state.paired:  # the partner would take it anyway
            gain = np.where(partner[vi], -gain, gain)
        card[vi] = np.where(gain >= 0, won, duck.take(at))
    return card


def _follow(state: VectorState, r: Any, ri: I64, legal: U64, last: Any, hand: U64 | None) -> I64:
    """The core's following card for the deals ``r`` (``last``: the seat plays the trick's
    last card; a bool, or one a deal): its ``_discard`` where the seat is void."""
    me = _Seat(state, r, ri, hand)
    rows = None if isinstance(r, slice) else ri
    led = state.led[r]
    pattern = (legal.view(np.int64) >> _SHIFT13.take(led)) & 0x1FFF
    winner = state.wrap[state.leader[r] + state.best_pos[r]]
    partner: Any = False
    if state.paired:
        partner = state.team[winner] == state.team[me.seat]
    # The tables' row (led suit, or 4 for spades with the pig out) * 13 + the top's rank.
    at = _ROW_BASE.take(state.best[r] + 52 * me.pig_out) + pattern
    follow = follow_tables()[0]
    if last is True:
        card = _last(state, me, rows, at, partner)
    elif last is False or not last.any():
        card = follow.take(at).astype(np.int64)
    else:
        card = np.where(last, _last(state, me, rows, at, partner), follow.take(at))
    vi = (pattern == 0).nonzero()[0]
    if vi.size:  # the void seats' discards (a few deals: on those only)
        mine = legal[vi]
        variant = me.pig_out[vi] * 8
        if not isinstance(me.fa, int):
            variant += me.factor(vi)
        if (mine & _TEN).any():  # the winner's pile decides the 10♣'s score
            captured = state.captured[vi if rows is None else rows[vi], winner[vi]]
            variant += (me.pile(captured, vi) < 0) * 4
        if state.paired:
            variant += partner[vi] * 16
        card[vi] = _best_of_suits(discard_table(state.cfg.heart_values), variant, mine)
    return card
