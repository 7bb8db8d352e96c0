"""The learned rollout policy: a linear choice model over each candidate card. Private.

A sampled deal is valued by playing it out; the players of that playout should
play as the real ones do, and the rule of thumb (:mod:`gongzhu._core.policy`)
picks MrGreed's card only about half the time. This policy scores each legal
card of the seat to act by a weighted sum of features of the card in its
position — what it would do to the trick (win it, surely or for now, with how
many points; duck under a partner; give points away), what it leaves in the
hand (a void, a guard of the pig), and, leading, how the suit lies — and plays
the highest. Each seat reads the sampled deal as a whole (every hand is known
in a playout), as the greedy bots read their own sampled deals.

The weights are a conditional-logit fit to recorded decisions
(``benchmarks/train_policy.py`` writes :mod:`gongzhu._core.learned_weights`);
:func:`features` is the one definition of the features, used both to train
(each feature alone) and to play (:func:`choose_learned` sums them with the
weights in one pass, with no list a candidate).
"""

from __future__ import annotations

import time
from typing import Final

from gongzhu._core.bits import (
    BIT,
    JACK_OF_DIAMONDS,
    PIG_BIT,
    POP13,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
    TEN_BIT,
    TEN_OF_CLUBS,
    lowest,
    popcount,
)
from gongzhu._core.board import Board
from gongzhu._core.config import Config
from gongzhu._core.learned_weights import WEIGHTS
from gongzhu._core.policy import deal_value, short_suit_bonus

NFEATURES: Final = 34
"""How many features a candidate has (the length of the weights)."""


def _value(cfg: Config, c: int) -> int:
    """What ``c`` adds to its taker's score, before exposures and the transformer."""
    if 26 <= c < 39:
        return cfg.heart_values[c - 26]
    if c == QUEEN_OF_SPADES:
        return cfg.pig_value
    if c == JACK_OF_DIAMONDS:
        return cfg.sheep_value
    return 0


class _Position:
    """What every candidate of one decision shares (read once a decision)."""

    seat: int
    hand: int
    pos: int
    others: int
    pig_out: bool
    later: list[int]
    top: int
    points: int
    partner_wins: bool
    ten: bool
    dump: int
    early: bool

    def __init__(self, b: Board) -> None:
        cfg = b.cfg
        n = cfg.n
        trick = b.trick
        pos = len(trick)
        seat = (b.leader + pos) % n
        self.seat = seat
        self.pos = pos
        hand = b.hands[seat]
        self.hand = hand
        others = 0
        for k in range(n):
            if k != seat:
                others |= b.hands[k]
        self.others = others
        self.pig_out = not (b.played | hand) & PIG_BIT
        self.later = [(seat + j) % n for j in range(1, n - pos)]
        self.early = popcount(b.played) < 24
        top = -1
        top_k = 0
        points = 0
        ten = False
        self.dump = 0
        if pos:
            led = b.led
            for k in range(pos):
                x = trick[k]
                if x // 13 == led and x > top:
                    top = x
                    top_k = k
                if x == TEN_OF_CLUBS:
                    ten = True
                points += _value(cfg, x)
            # What the later opponents void in the led suit could throw on it (their worst).
            team_of = cfg.team_of
            lm = SUIT_MASKS[led]
            dump = 0
            for k in self.later:
                h = b.hands[k]
                if team_of[k] != team_of[seat] and not h & lm:
                    worst = cfg.pig_value if h & PIG_BIT and cfg.pig_value < 0 else 0
                    hearts = h >> 26 & 0x1FFF
                    while hearts:
                        i = lowest(hearts)
                        hearts &= hearts - 1
                        worst = min(worst, cfg.heart_values[i])
                    dump += worst
            self.dump = dump
            self.partner_wins = team_of[(b.leader + top_k) % n] == team_of[seat]
        else:
            self.partner_wins = False
        self.top = top
        self.points = points
        self.ten = ten


def features(b: Board, c: int, p: _Position, w: list[float]) -> float:
    """The weighted sum of candidate ``c``'s features (``w``: one weight a feature).

    With a weight of 1 on one feature and 0 elsewhere it is that feature's value
    (what the trainer reads); with the trained weights, the card's score.
    """
    cfg = b.cfg
    team_of = cfg.team_of
    seat = p.seat
    rank = c % 13
    suit = c // 13
    s = w[0] * rank / 12.0
    if c == QUEEN_OF_SPADES:
        s += w[1]
    elif c == JACK_OF_DIAMONDS:
        s += w[2]
    elif c == TEN_OF_CLUBS:
        s += w[3]
    elif 26 <= c < 39:
        s += w[4] * cfg.heart_values[c - 26] / 50.0
    if c >= 50 and p.pig_out:
        s += w[5]
    left = POP13[(p.hand & ~BIT[c]) >> 13 * suit & 0x1FFF]
    s += w[6] * left / 13.0
    if left == 0:
        s += w[7]
    if p.pos == 0:
        sm = SUIT_MASKS[suit]
        higher = p.others & sm & ~(BIT[c + 1] - 1) if rank < 12 else 0
        s += w[8] * rank / 12.0
        if not higher:
            s += w[9]
        holders = 0
        opp_void = 0
        for k in p.later:
            if b.hands[k] & sm:
                holders += 1
            elif team_of[k] != team_of[seat]:
                opp_void += 1
        s += w[10] * holders / 3.0 + w[11] * opp_void / 2.0
        if p.hand & PIG_BIT and suit == 3:
            s += w[12]
        s += w[13] * POP13[higher >> 13 * suit & 0x1FFF] / 13.0
        if suit == 2:
            s += w[14]
        if p.early:
            s += w[15] * short_suit_bonus(cfg, p.hand, b.played, suit, 1) / 4.0
        return s
    led = b.led
    lm = SUIT_MASKS[led]
    v = (p.points + _value(cfg, c)) / 100.0
    if suit == led:
        win = c > p.top
        newtop = c if win else p.top
        above = lm & ~(BIT[newtop + 1] - 1) if newtop % 13 < 12 else 0
        opp_beats = False
        partner_beats = False
        for k in p.later:
            if b.hands[k] & above:
                if team_of[k] == team_of[seat]:
                    partner_beats = True
                else:
                    opp_beats = True
        ten = p.ten or c == TEN_OF_CLUBS
        if win:
            s += w[16] + w[17] * v + w[22] * p.dump / 100.0
            if not opp_beats:
                s += w[18] + w[19] * v
            if p.pos == cfg.n - 1:
                s += w[21] * v
            if ten:
                s += w[24]
            if partner_beats:
                s += w[25]
        else:
            if p.partner_wins:
                s += w[20]
            else:
                s += w[23] * v
                if ten:
                    s += w[26]
        return s
    # A discard: the card goes to the trick's winner so far (partner or opponent).
    g = _value(cfg, c) / 100.0
    sign = 1.0 if p.partner_wins else -1.0
    above = lm & ~(BIT[p.top + 1] - 1) if p.top % 13 < 12 else 0
    sure = True
    for k in p.later:
        if b.hands[k] & above:
            sure = False
    s += w[27] * sign * g
    if c == QUEEN_OF_SPADES and p.partner_wins:
        s += w[28]
    s += w[29] * rank / 12.0
    if c >= 50 and p.pig_out:
        s += w[30]
    if c == TEN_OF_CLUBS:
        s += w[31] * sign
    if left == 0:
        s += w[32]
    if sure:
        s += w[33] * sign * g
    return s


def feature_rows(b: Board, legal: int) -> list[list[float]]:
    """Each legal card's features (in index order): what the trainer fits."""
    p = _Position(b)
    unit = [0.0] * NFEATURES
    rows: list[list[float]] = []
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        row: list[float] = []
        for i in range(NFEATURES):
            unit[i] = 1.0
            row.append(features(b, c, p, unit))
            unit[i] = 0.0
        rows.append(row)
    return rows


_W: list[float] = list(WEIGHTS)


def choose_learned(b: Board, legal: int) -> int:
    """The learned policy's card among ``legal`` (a non-empty mask) for the seat to act."""
    if not legal & (legal - 1):
        return lowest(legal)
    p = _Position(b)
    best = -1
    best_s = -1e300
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        s = features(b, c, p, _W)
        if s > best_s:
            best = c
            best_s = s
    return best


def rollout_learned(b: Board) -> tuple[int, ...]:
    """Play ``b`` to the end with the learned policy at every seat; the totals."""
    while not b.done:
        b.play(choose_learned(b, b.legal()))
    return b.totals()


def rollout_values_learned(
    base: Board,
    cards: list[int],
    mine: tuple[int, ...],
    others: tuple[int, ...],
    ratio: float,
    cutoff: float,
) -> list[float]:
    """:func:`gongzhu._core.policy.rollout_values` with the learned policy at every seat."""
    out: list[float] = []
    for card in cards:
        if time.perf_counter() >= cutoff:
            break
        b = base.copy()
        b.play(card)
        out.append(deal_value(rollout_learned(b), mine, others, ratio))
    return out
