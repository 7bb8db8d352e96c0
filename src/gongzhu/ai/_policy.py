"""The cheap rollout policy: rule-of-thumb play on masks, a few microseconds a card. Private.

It follows the same tactics as :class:`~gongzhu.RuleOfThumbStrategy`
(seeds/001 "Тактика в гунчжу"): duck under the card winning a trick that holds
points, drop the pig under a higher spade, discard the pig, A♠/K♠ and high
hearts when void, take a clean trick (or the sheep) when playing last, lead
low, keep the sheep. With pairs it never discards points on a partner's trick
and gives it the sheep. It is what the search plays every seat with inside its
simulations, and the opponent model its importance weights use.
"""

from __future__ import annotations

from typing import Final

from gongzhu.ai._sim import BITS, Sim, SimRules
from gongzhu.rules._tables import PIG_BIT, SHEEP_BIT, SUIT_MASKS, TEN_BIT

__all__: list[str] = []

_PIG: Final = 49
_SHEEP: Final = 22
_TEN: Final = 8
_KING_SPADES: Final = 50
_ACE_SPADES: Final = 51
_HIGH_SPADES: Final = BITS[_KING_SPADES] | BITS[_ACE_SPADES]
_SPADES: Final = 3
_DIAMONDS: Final = 1
_LOW_SPADES: Final = SUIT_MASKS[3] & (PIG_BIT - 1)
_DIAMOND_HONOURS: Final = BITS[23] | BITS[24] | BITS[25]


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def _value(cfg: SimRules, card: int, fa: int, fq: int, sheep: int) -> int:
    """What ``card`` adds to its taker's base score."""
    if 26 <= card < 39:
        return cfg.heart_values[card - 26] * fa
    if card == _PIG:
        return cfg.pig_value * fq
    if card == _SHEEP:
        return sheep
    return 0


def _pile(cfg: SimRules, mask: int, fa: int, fq: int, sheep: int) -> int:
    total = cfg.heart_sums[mask >> 26 & 0x1FFF] * fa
    if mask & PIG_BIT:
        total += cfg.pig_value * fq
    if mask & SHEEP_BIT:
        total += sheep
    return total


def choose(sim: Sim) -> int:
    """The card index the seat to act plays."""
    legal = sim.legal()
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    cfg = sim.cfg
    n = cfg.n
    trick = sim.trick
    seat = (sim.leader + len(trick)) % n
    hand = sim.hands[seat]
    fa, fq, fj, _ft = sim.factors()
    sheep = cfg.sheep_value if fj == 1 else cfg.exposed_sheep_value * fj // 2
    pig_out = not (sim.played | hand) & PIG_BIT
    if not trick:
        return _lead(sim, legal, hand, pig_out, fa)
    led = sim.led
    top = -1
    top_k = 0
    trick_val = 0
    trick_mask = 0
    for k, c in enumerate(trick):
        trick_mask |= BITS[c]
        if c // 13 == led and c > top:
            top, top_k = c, k
        if c in (_PIG, _SHEEP) or 26 <= c < 39:
            trick_val += _value(cfg, c, fa, fq, sheep)
    winner = (sim.leader + top_k) % n
    team_of = cfg.team_of
    if not legal & SUIT_MASKS[led]:
        return _discard(sim, legal, seat, winner, pig_out, fa, fq, sheep)
    last = len(trick) == n - 1
    below = legal & (BITS[top] - 1)
    above = legal & ~below
    if legal & PIG_BIT and top > _PIG:
        return _PIG
    if last:
        if above:
            win = above & ~PIG_BIT or above
            card = _SHEEP if win & SHEEP_BIT else _high(win)
            gain = trick_val + _value(cfg, card, fa, fq, sheep)
            if trick_mask & TEN_BIT or card == _TEN:
                mine = _pile(cfg, sim.capt[seat], fa, fq, sheep) + gain
                gain = mine if mine else 25
            if team_of[winner] == team_of[seat] and len(cfg.teams) < n:
                gain = -gain  # the partner would take it anyway
            if gain >= 0 or not below:
                return card
        keep = below & ~SHEEP_BIT or below
        return _high(keep)
    if below:
        keep = below & ~SHEEP_BIT or below
        return _high(keep)
    cand = above & ~PIG_BIT or above
    if led == _SPADES and pig_out:
        cand = cand & ~_HIGH_SPADES or cand
    return _low(cand)


def _discard(
    sim: Sim, legal: int, seat: int, winner: int, pig_out: bool, fa: int, fq: int, sheep: int
) -> int:
    cfg = sim.cfg
    partner = cfg.team_of[winner] == cfg.team_of[seat] and len(cfg.teams) < cfg.n
    best = -1
    best_v = -(10**9)
    winner_pile = _pile(cfg, sim.capt[winner], fa, fq, sheep)
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        rank = c % 13
        if c == _PIG:
            v = -1000 if partner else 1000
        elif c == _SHEEP:
            v = 500 if partner else -500
        elif 26 <= c < 39:
            hv = -cfg.heart_values[c - 26] * fa
            v = -hv - 100 if partner else 100 + hv + rank
        elif c == _TEN:
            v = (250 if winner_pile < 0 else -50) * (-1 if partner else 1)
        elif c >= _KING_SPADES and pig_out:
            v = 300 + rank
        else:
            v = rank
        if v > best_v:
            best, best_v = c, v
    return best


def _lead(sim: Sim, legal: int, hand: int, pig_out: bool, fa: int) -> int:
    cfg = sim.cfg
    outstanding = cfg.deck & ~sim.played & ~hand
    holds_pig = bool(hand & PIG_BIT)
    best = -1
    best_v = -(10**9)
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        rank = c % 13
        suit = c // 13
        v = -rank
        if c == _PIG:
            v -= 200
        elif suit == _SPADES:
            if pig_out:
                v += -100 if c > _PIG else 8
            elif holds_pig:
                v -= 5
        elif 26 <= c < 39:
            v -= 4 - cfg.heart_values[c - 26] * fa // 5
        elif c == _SHEEP:
            # Led, the sheep is safe only as the highest diamond still out.
            v += 20 if not outstanding & SUIT_MASKS[_DIAMONDS] & ~(BITS[c + 1] - 1) else -60
        elif c == _TEN:
            v -= 10
        if not outstanding & SUIT_MASKS[suit]:
            v -= 30  # nobody can follow: the trick is ours, with whatever is discarded
        if v > best_v:
            best, best_v = c, v
    return best


def choose_exposure(cfg: SimRules, hand: int) -> int:
    """The rule-of-thumb exposure of a hand (the pig with five lower spades; a strong sheep)."""
    ex = cfg.exposable & hand
    out = 0
    if ex & PIG_BIT and (hand & _LOW_SPADES).bit_count() >= 5:
        out |= PIG_BIT
    if ex & SHEEP_BIT and cfg.exposed_sheep_value > 0:
        diamonds = hand & SUIT_MASKS[_DIAMONDS]
        if diamonds.bit_count() >= 4 and (diamonds & _DIAMOND_HONOURS).bit_count() >= 2:
            out |= SHEEP_BIT
    return out


def rollout(sim: Sim) -> tuple[int, ...]:
    """Play ``sim`` to the end with :func:`choose` at every seat; the deal's totals."""
    play = sim.play
    while not sim.done:
        play(choose(sim))
    return sim.totals()
