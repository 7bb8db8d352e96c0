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

from typing import TYPE_CHECKING, Final

import numpy as np

from gongzhu._core.bits import (
    JACK_OF_DIAMONDS,
    KING_OF_SPADES,
    PIG_BIT,
    QUEEN_OF_SPADES,
    SHEEP_BIT,
    SPADES,
    TEN_BIT,
    TEN_OF_CLUBS,
)
from gongzhu._core.policy import SHORT_LEADS, SHORT_WEIGHT
from gongzhu.vector._tables import (
    BITS,
    CARD_RANK,
    CARD_SUIT,
    I64,
    SUIT,
    U64,
    ZERO,
    Bools,
    heart_tables,
    highest,
    lowest,
    popcount,
)

if TYPE_CHECKING:
    from gongzhu._core.config import Config
    from gongzhu.vector._engine import VectorDeal

__all__ = ["rule_of_thumb"]

_PIG: Final = np.uint64(PIG_BIT)
_SHEEP: Final = np.uint64(SHEEP_BIT)
_TEN: Final = np.uint64(TEN_BIT)
_HIGH_SPADES: Final = np.uint64((1 << 50) | (1 << 51))
_NEVER: Final = -(10**9)
_HEART_CARD: Final = (CARD_SUIT == 2)[None, :]
_SPADE_CARD: Final = (CARD_SUIT == SPADES)[None, :]
_CARDS: Final = np.arange(52, dtype=np.int64)[None, :]


class _Values:
    """The rule set's card values for the batch's known exposure factors."""

    def __init__(self, cfg: Config, fa: I64, fq: I64, fj: I64) -> None:
        hv, sums = heart_tables(cfg.heart_values, cfg.heart_sums)
        self.heart: I64 = hv  # by card: the heart value (0 off hearts)
        self.sums: I64 = sums
        self.fa, self.fq = fa, fq
        self.pig: I64 = cfg.pig_value * fq
        self.sheep: I64 = np.where(fj == 1, cfg.sheep_value, cfg.exposed_sheep_value * fj // 2)

    def value(self, card: I64) -> I64:
        """What ``card`` adds to its taker's base score (the core's ``_value``)."""
        c = np.maximum(card, 0)
        out: I64 = (
            self.heart[c] * self.fa
            + np.where(card == QUEEN_OF_SPADES, self.pig, 0)
            + np.where(card == JACK_OF_DIAMONDS, self.sheep, 0)
        )
        return out

    def pile(self, mask: U64) -> I64:
        """The base score of the captured ``mask`` (the core's ``_pile``)."""
        hearts = self.sums[(mask >> np.uint64(26)).astype(np.int64) & 0x1FFF] * self.fa
        out: I64 = (
            hearts
            + np.where((mask & _PIG) != ZERO, self.pig, 0)
            + np.where((mask & _SHEEP) != ZERO, self.sheep, 0)
        )
        return out


def _or_else(a: U64, b: U64) -> U64:
    """``a or b`` of the core, row by row."""
    out: U64 = np.where(a != ZERO, a, b)
    return out


def _best(scores: I64, legal: U64) -> I64:
    """The first legal card of the highest score in each row."""
    from gongzhu.vector._tables import unpack

    masked = np.where(unpack(legal), scores, _NEVER)
    out: I64 = masked.argmax(axis=1)
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
    card = lowest(legal)  # a single legal card, or none (-1)
    many = (legal & (legal - np.uint64(1))) != ZERO
    lead = batch._count == 0
    rows = np.flatnonzero(many & lead)
    if rows.size:
        card[rows] = _lead(batch, rows, legal[rows])
    rows = np.flatnonzero(many & ~lead)
    if rows.size:
        sub = legal[rows]
        void = (sub & SUIT[batch._led[rows]]) == ZERO
        if void.any():
            card[rows[void]] = _follow(batch, rows[void], sub[void], True)
        if not void.all():
            card[rows[~void]] = _follow(batch, rows[~void], sub[~void], False)
    return card


_LEAD_TERMS: dict[tuple[int, ...], I64] = {}


def _lead_terms(heart_values: tuple[int, ...]) -> I64:
    """``(3, 52)``: each card's own terms of the core's lead score (A♥ unexposed), for a
    seat that neither holds the pig nor sees it out (row 0), holds it (1), sees it out (2)."""
    terms = _LEAD_TERMS.get(heart_values)
    if terms is None:
        base = -CARD_RANK.copy()
        base[QUEEN_OF_SPADES] -= 200
        base[26:39] -= 4 - np.array(heart_values, dtype=np.int64) // 5
        base[TEN_OF_CLUBS] -= 10
        spade = (CARD_SUIT == SPADES) & (np.arange(52) != QUEEN_OF_SPADES)
        held = base + np.where(spade, -5, 0)
        out = base + np.where(spade, np.where(np.arange(52) > QUEEN_OF_SPADES, -100, 8), 0)
        terms = np.stack([base, held, out])
        _LEAD_TERMS[heart_values] = terms
    return terms


class _Seat:
    """What the seat to act may know in the deals ``rows``."""

    def __init__(self, batch: VectorDeal, rows: I64) -> None:
        cfg = batch.cfg
        self.seat: I64 = batch._to_act[rows]
        self.played: U64 = batch._played[rows]
        self.hand: U64 = batch._dealt[rows, self.seat] & ~self.played
        own_down = batch._down[rows] & batch._dealt[rows, self.seat]
        # The face-up exposures and its own face-down cards.
        fa, fq, fj, _ = batch.factors(batch._up[rows], own_down, ZERO * own_down)
        self.fa = fa
        self.val = _Values(cfg, fa, fq, fj)
        self.pig_out: Bools = ((self.played | self.hand) & _PIG) == ZERO


def _lead(batch: VectorDeal, rows: I64, legal: U64) -> I64:
    """The core's ``_lead`` for the deals ``rows``."""
    cfg = batch.cfg
    n = batch.players
    me = _Seat(batch, rows)
    hand, played, fa, pig_out = me.hand, me.played, me.fa, me.pig_out
    outstanding = np.uint64(cfg.deck) & ~played & ~hand
    holds_pig = (hand & _PIG) != ZERO
    early = popcount(played) < SHORT_LEADS * n
    theirs = popcount(outstanding[:, None] & SUIT[None, :4])
    mine = popcount(hand[:, None] & SUIT[None, :4])
    bonus = SHORT_WEIGHT * (theirs - (n - 1) * mine) // (n - 1)  # short_suit_bonus
    v = -CARD_RANK[None, :] + np.where(
        early[:, None] & ~(_SPADE_CARD & holds_pig[:, None]), bonus[:, CARD_SUIT], 0
    )
    # Per deal: the short-suit bonus of each suit (none for spades while holding the pig),
    # less 30 where nobody can follow; the cards' own terms by the pig's whereabouts.
    spades = (np.arange(4) == SPADES)[None, :] & holds_pig[:, None]
    per_suit = np.where(early[:, None] & ~spades, bonus, 0) - 30 * (theirs == 0)
    case = np.where(pig_out, 2, holds_pig.astype(np.int64))
    v = _lead_terms(cfg.heart_values)[case] + per_suit[:, CARD_SUIT]
    if (fa != 1).any():  # an exposed A♥ (as this seat knows): the hearts' terms scale
        hv = me.val.heart[None, 26:39]
        v[:, 26:39] += hv * fa[:, None] // 5 - hv // 5
    above_sheep = outstanding & SUIT[1] & ~(BITS[JACK_OF_DIAMONDS + 1] - np.uint64(1))
    v[:, JACK_OF_DIAMONDS] += np.where(above_sheep == ZERO, 20, -60)
    return _best(v, legal)


def _follow(batch: VectorDeal, rows: I64, legal: U64, void: bool) -> I64:
    """The core's following card (``void``: its ``_discard``) for the deals ``rows``."""
    n = batch.players
    me = _Seat(batch, rows)
    val, fa, pig_out, seat = me.val, me.fa, me.pig_out, me.seat
    capt = batch._capt
    count = batch._count[rows]
    led = batch._led[rows]
    top = batch._best[rows]
    winner = (batch._leader[rows] + batch._bestpos[rows]) % n
    partner = (batch._team[winner] == batch._team[seat]) & batch._paired
    if void:
        # The discard (the core's _discard).
        winner_pile = val.pile(capt[rows, winner])
        p2 = partner[:, None]
        d = np.broadcast_to(CARD_RANK[None, :], (rows.size, 52))
        hv = -val.heart[None, :] * fa[:, None]
        d = np.where(_HEART_CARD, np.where(p2, -hv - 100, 100 + hv + CARD_RANK[None, :]), d)
        d[:, QUEEN_OF_SPADES] = np.where(partner, -1000, 1000)
        d[:, JACK_OF_DIAMONDS] = np.where(partner, 500, -500)
        d[:, TEN_OF_CLUBS] = np.where(winner_pile < 0, 250, -50) * np.where(partner, -1, 1)
        high = (_CARDS >= KING_OF_SPADES) & pig_out[:, None]
        d = np.where(high, 300 + CARD_RANK[None, :], d)
        return _best(d, legal)
    below = legal & (BITS[top] - np.uint64(1))
    above = legal & ~below
    keep = _or_else(below & ~_SHEEP, below)
    duck = highest(keep)
    card = np.where(below != ZERO, duck, 0)
    last = count == n - 1
    if last.any():
        trick = batch._trick[:, rows].astype(np.int64)
        trick_val = np.zeros(rows.size, np.int64)
        for k in range(n - 1):
            trick_val += val.value(trick[k])  # a last seat sees n - 1 cards
        win = _or_else(above & ~_PIG, above)
        card_w = np.where((win & _SHEEP) != ZERO, JACK_OF_DIAMONDS, highest(win))
        gain = trick_val + val.value(card_w)
        tens = ((batch._taken[rows] & _TEN) != ZERO) | (card_w == TEN_OF_CLUBS)
        mine_pile = val.pile(capt[rows, seat]) + gain
        gain = np.where(tens, np.where(mine_pile != 0, mine_pile, 25), gain)
        gain = np.where(partner, -gain, gain)
        take = (above != ZERO) & ((gain >= 0) | (below == ZERO))
        card = np.where(last & take, card_w, card)
    cand = _or_else(above & ~_PIG, above)
    cand = np.where((led == SPADES) & pig_out, _or_else(cand & ~_HIGH_SPADES, cand), cand)
    card = np.where(~last & (below == ZERO), lowest(cand), card)
    pig_under = ((legal & _PIG) != ZERO) & (top > QUEEN_OF_SPADES)
    out: I64 = np.where(pig_under, QUEEN_OF_SPADES, card)
    return out
