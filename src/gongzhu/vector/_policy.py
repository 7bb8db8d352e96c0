"""The rule-of-thumb policy for a whole batch: the core's card in every deal, on arrays.

:func:`rule_of_thumb` chooses, for every unfinished deal of a
:class:`~gongzhu.vector.VectorDeal`, the card that the core's rule of thumb
(:func:`gongzhu._core.policy.choose_board`, the public
:class:`~gongzhu.RuleOfThumbStrategy`) chooses in that position. The policy's
tactics are the core's, restated as scores over the 52 cards (the core's loops
keep the first card of the best score; ``argmax`` keeps the first maximum);
its weights (``SHORT_WEIGHT``, ``SHORT_LEADS``) and every value it reads come
from the core and the rule set's :class:`~gongzhu._core.config.Config`.
``tests/test_vector_policy.py`` checks it card for card against the core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from gongzhu._core.bits import JACK_OF_DIAMONDS, PIG_BIT, SHEEP_BIT, SPADES, TEN_BIT
from gongzhu._core.policy import SHORT_LEADS, SHORT_WEIGHT
from gongzhu.vector._policy_tables import (
    FACTORS,
    I32,
    discard_table,
    follow_tables,
    lead_table,
)
from gongzhu.vector._tables import BITS, I64, POP16, SUIT, U64, ZERO, Bools, bitcount, heart_tables

if TYPE_CHECKING:
    from gongzhu.vector._engine import VectorDeal

__all__ = ["rule_of_thumb"]

_PIG: Final = np.uint64(PIG_BIT)
_SHEEP: Final = np.uint64(SHEEP_BIT)
_TEN: Final = np.uint64(TEN_BIT)
_M13: Final = np.uint64(0x1FFF)
_SHIFTS: Final = (13 * np.arange(5, dtype=np.uint64))[:, None]  # by suit (4: none led)
_FOUR: Final = np.arange(4, dtype=np.intp)[:, None]
_POP13: Final = POP16[:8192].astype(np.intp)
_SUIT4: Final = SUIT[:4, None]
_BITWISE_COUNT: Final[Any] = getattr(np, "bitwise_count", None)
_ABOVE_SHEEP: Final = np.uint64(SUIT[1] & ~(BITS[JACK_OF_DIAMONDS + 1] - np.uint64(1)))
_SPADE_ROW: Final = (np.arange(4) == SPADES)[:, None]
_FACTOR_INDEX: Final = np.zeros(max(FACTORS) + 1, np.intp)
_FACTOR_INDEX[list(FACTORS)] = np.arange(len(FACTORS))


def _lanes(x: U64) -> npt.NDArray[np.intp]:
    """``(4, n)``: each mask's 13-bit pattern in each suit."""
    out: npt.NDArray[np.intp] = ((x[None, :] >> _SHIFTS[:4]) & _M13).astype(np.intp)
    return out


_EARLY: Final = 40 * 16
_SHORT: dict[int, I64] = {}


def _short_suit_terms(n: int) -> I64:
    """``64 ×`` a suit's lead terms by ``(early * 40 + cards out) * 16 + cards held``: the
    core's ``short_suit_bonus`` early, less 30 where nobody can follow."""
    table = _SHORT.get(n)
    if table is None:
        out = np.arange(40)[None, :, None]
        held = np.arange(16)[None, None, :]
        bonus = SHORT_WEIGHT * (out - (n - 1) * held) // (n - 1) * np.arange(2)[:, None, None]
        table = _SHORT[n] = (64 * (bonus - 30 * (out == 0))).reshape(-1)
    return table


def _best_of_suits(tables: tuple[I32, I64], variant: Any, legal: U64, per_suit: Any = 0) -> I64:
    """The best legal card by packed suit tables (see ``_policy_tables.pack_best``), with
    ``per_suit`` (``(4, n)``, ``64 ×`` a score) added to each suit's scores."""
    table, where = tables
    blocks = where.take(variant + where.shape[1] * _FOUR)
    packed = table.take(blocks + _lanes(legal))
    if not isinstance(per_suit, int):
        packed += per_suit
    out: I64 = 63 - (packed.max(axis=0) & 63)
    return out


class _Seat:
    """What the seat to act may know in the deals ``r`` (a slice, or rows ``ri``)."""

    def __init__(self, batch: VectorDeal, r: Any, ri: I64) -> None:
        cfg = batch.cfg
        self.seat: I64 = batch._to_act[r]
        self.played: U64 = batch._played[r]
        mine = batch._dealt[ri, self.seat]
        self.hand: U64 = mine & ~self.played
        self.pig_out: Bools = ((self.played | self.hand) & _PIG) == ZERO
        # The face-up exposures and its own face-down cards (plain numbers without any;
        # only a batch of Rounds has exposures: deal() and random() decline them).
        self.fa: Any = 1
        self.pig: Any = cfg.pig_value
        self.sheep: Any = cfg.sheep_value
        up = batch._up[r]
        own_down = batch._down[r] & mine
        if batch._rounds is not None and (up.any() or own_down.any()):
            fa, fq, fj, _ = batch.factors(up, own_down, ZERO * own_down)
            self.fa = fa
            self.pig = cfg.pig_value * fq
            self.sheep = np.where(fj == 1, cfg.sheep_value, cfg.exposed_sheep_value * fj // 2)
        self.sums = heart_tables(cfg.heart_values, cfg.heart_sums)[1]

    def factor(self, sel: Any = None) -> Any:
        """The index of the A♥ factor in the tables' variants (0 for a plain 1), of the
        deals ``sel`` (positions among ``r``; default all)."""
        return 0 if isinstance(self.fa, int) else _FACTOR_INDEX[_pick(self.fa, sel)]

    def pile(self, mask: U64, sel: Any = None) -> I64:
        """The base score of the captured ``mask`` (the core's ``_pile``) of the deals
        ``sel`` (positions among ``r``; default all)."""
        fa, pig, sheep = _pick(self.fa, sel), _pick(self.pig, sel), _pick(self.sheep, sel)
        hearts = self.sums[(mask >> np.uint64(26)).astype(np.intp) & 0x1FFF] * fa
        out: I64 = (
            hearts
            + np.where((mask & _PIG) != ZERO, pig, 0)
            + np.where((mask & _SHEEP) != ZERO, sheep, 0)
        )
        return out


def _pick(value: Any, sel: Any) -> Any:
    """``value`` (a number, or an array a deal) at the positions ``sel`` (all if None)."""
    return value if sel is None or isinstance(value, int) else value[sel]


def _counts(x: U64) -> npt.NDArray[np.intp]:
    """``(4, n)``: the cards of each mask in each suit."""
    if _BITWISE_COUNT is not None:
        counts: npt.NDArray[np.intp] = _BITWISE_COUNT(x[None, :] & _SUIT4).astype(np.intp)
        return counts
    out: npt.NDArray[np.intp] = _POP13[_lanes(x)]
    return out


def rule_of_thumb(batch: VectorDeal, legal: U64 | None = None) -> I64:
    """The rule-of-thumb card of the seat to act in every deal of ``batch`` (``-1`` for
    a finished deal): the card :class:`~gongzhu.RuleOfThumbStrategy` plays there.

    ``legal`` is :meth:`VectorDeal.legal_bits` if the caller has it already.

    >>> from gongzhu import RuleSet, deal
    >>> from gongzhu import RuleOfThumbStrategy
    >>> from gongzhu.vector import VectorDeal, rule_of_thumb
    >>> batch = VectorDeal.deal(RuleSet(exposable=""), seeds=range(4))
    >>> while not batch.done.all():
    ...     batch.step(rule_of_thumb(batch))
    >>> no_exposure = RuleSet(exposable="")
    >>> rounds = [deal(rules=no_exposure, seed=s).rollout(RuleOfThumbStrategy()) for s in range(4)]
    >>> batch.to_rounds() == rounds
    True
    """
    if legal is None:
        legal = batch.legal_bits()
    if batch._aligned:  # every deal at trick position _k: whole arrays, no row selection
        if batch._k == 0:
            return _lead(batch, slice(None), batch._rows, legal)
        return _follow(batch, slice(None), batch._rows, legal, batch._k == batch.players - 1)
    card = np.full(len(batch), -1, np.int64)
    lead = batch._count == 0
    rows = np.flatnonzero((legal != ZERO) & lead)
    if rows.size:
        card[rows] = _lead(batch, rows, rows, legal[rows])
    rows = np.flatnonzero((legal != ZERO) & ~lead)
    if rows.size:
        last = batch._count[rows] == batch.players - 1
        card[rows] = _follow(batch, rows, rows, legal[rows], last)
    return card


def _lead(batch: VectorDeal, r: Any, ri: I64, legal: U64) -> I64:
    """The core's ``_lead`` for the deals ``r``: the short-suit terms by suit, the rest
    from :func:`~gongzhu.vector._policy_tables.lead_table`."""
    cfg = batch.cfg
    n = batch.players
    me = _Seat(batch, r, ri)
    hand, played = me.hand, me.played
    outstanding = np.uint64(cfg.deck) & ~played & ~hand
    holds_pig = (hand & _PIG) != ZERO
    early = bitcount(played) < SHORT_LEADS * n
    # Each suit's short-suit terms by (early, cards out, cards held): no bonus for spades
    # while holding the pig; 30 less where nobody can follow.
    key = _counts(outstanding) * 16 + _counts(hand)
    key += _EARLY * early
    key[SPADES] -= _EARLY * (early & holds_pig)
    per_suit = _short_suit_terms(n).take(key)
    case = np.where(me.pig_out, 2, holds_pig)
    sheep = (outstanding & _ABOVE_SHEEP) != ZERO
    variant = (case * 4 + me.factor()) * 2 + sheep
    return _best_of_suits(lead_table(cfg.heart_values), variant, legal, per_suit)


def _last(batch: VectorDeal, me: _Seat, ri: I64, at: I64, led: I64, partner: Any) -> I64:
    """The core's card of the trick's last seat following suit: the card that takes (the
    sheep, or the highest but the pig) when taking is worth it, else the duck; decided
    by the gain only in the deals that have both."""
    _, duck, take = follow_tables()
    ducked = duck.take(at).astype(np.int64)
    won = take.take(at).astype(np.int64)
    rank: I64 = np.where(won >= 0, won, ducked)
    vi = np.flatnonzero((won >= 0) & (ducked >= 0))
    if vi.size:
        card = won[vi] + 13 * led[vi]
        taken = batch._taken[ri[vi]] | BITS[card]
        gain = me.pile(taken, vi)
        ti = np.flatnonzero((taken & _TEN) != ZERO)
        if ti.size:  # the transformer doubles the taker's whole pile (or scores alone)
            sel = vi[ti]
            mine = me.pile(batch._capt[ri[sel], me.seat[sel]], sel) + gain[ti]
            gain[ti] = np.where(mine != 0, mine, 25)
        if batch._paired:  # the partner would take it anyway
            gain = np.where(partner[vi], -gain, gain)
        rank[vi] = np.where(gain >= 0, won[vi], ducked[vi])
    return rank


def _follow(batch: VectorDeal, r: Any, ri: I64, legal: U64, last: Any) -> I64:
    """The core's following card for the deals ``r`` (``last``: the seat plays the trick's
    last card; a bool, or one a deal): its ``_discard`` where the seat is void."""
    me = _Seat(batch, r, ri)
    led = batch._led[r]
    top = batch._best[r]
    pattern = ((legal >> _SHIFTS[led, 0]) & _M13).astype(np.intp)
    void = pattern == 0
    winner = batch._wrap[batch._leader[r] + batch._bestpos[r]]
    partner: Any = False
    if batch._paired:
        partner = batch._team[winner] == batch._team[me.seat]
    # The tables' row (led suit, or 4 for spades with the pig out) * 13 + the top's rank.
    at = (((led == SPADES) & me.pig_out) * 13 + top) * 8192 + pattern
    follow = follow_tables()[0]
    if last is True or (not isinstance(last, bool) and last.any()):
        rank = _last(batch, me, ri, at, led, partner)
        if last is not True:
            rank = np.where(last, rank, follow.take(at))
    else:
        rank = follow.take(at)
    card: I64 = rank + 13 * led
    vi = np.flatnonzero(void)
    if vi.size:  # the void seats' discards (a few deals: on those only)
        mine = legal[vi]
        variant = me.pig_out[vi] * 8 + me.factor(vi)
        if ((mine & _TEN) != ZERO).any():  # the winner's pile decides the 10♣'s score
            variant += (me.pile(batch._capt[ri[vi], winner[vi]], vi) < 0) * 4
        if batch._paired:
            variant += partner[vi] * 16
        card[vi] = _best_of_suits(discard_table(batch.cfg.heart_values), variant, mine)
    return card
