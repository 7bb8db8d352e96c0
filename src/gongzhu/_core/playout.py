"""The search's playouts: the policy that plays them, and what they are worth. Private.

The search values a candidate card by playing each sampled deal out to the end;
the players of that playout should play as real players do. The rule of thumb
(:mod:`gongzhu._core.policy`) picks MrGreed's card about half the time; the
learned policy here, a linear choice model fitted to MrGreed's decisions in
the team game (``hard``'s games against it on the deals the bot is tuned on),
about seven times in ten on deals it was not fitted to, and the search with it
scores more against MrGreed (docs: "bots", "A learned playout"). It plays the
playouts of the kind of game it was fitted to (:func:`fitted`: four players in
two partnerships, nothing to expose); the rule of thumb plays the others, where
the learned policy measured no better.

:func:`choose_learned` scores each legal card of the seat to act by a weighted
sum of the card's features in its position and plays the highest. The
features: the card itself (rank, the pig, the sheep, 10♣, a heart's value, a
pig guard while the pig is out, what is left of its suit in the hand); leading,
how the suit lies (sure to win, who still holds it, opponents void, higher
cards out, the short-suit lead of the first tricks); following, what the card
does to the trick (wins it for now or surely against the opponents still to
play, with how many points; ducks under a partner; gives points to an
opponent; the transformer; what void opponents could still throw on it);
discarding, what the card gives to the trick's winner (partner or opponent)
and whether that winner is sure. A playout reads the sampled deal as a whole
(every hand is known in it), as the greedy bots read theirs.

:func:`features` is the one definition of the features, for training (each
feature alone, :func:`feature_rows`) and for play (summed with the weights in
one pass, no list a candidate). ``tools/train_playout.py`` fits the weights
and writes :mod:`gongzhu._core.playout_weights`, which is checked on import.
"""

from __future__ import annotations

import math
import time
from typing import Final

from gongzhu._core.bits import (
    BIT,
    JACK_OF_DIAMONDS,
    PIG_BIT,
    POP13,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
    TEN_OF_CLUBS,
    lowest,
    popcount,
)
from gongzhu._core.board import Board
from gongzhu._core.config import Config
from gongzhu._core.playout_weights import WEIGHTS
from gongzhu._core.policy import SHORT_LEADS, card_value, choose_board, short_suit_bonus

NFEATURES: Final = 34
"""How many features a candidate card has (the length of the weights)."""


def _checked(weights: tuple[float, ...]) -> list[float]:
    """The weights, refused unless one finite float a feature (a wrong file fails on import)."""
    if len(weights) != NFEATURES:
        raise ValueError(f"the playout weights have {len(weights)} numbers, not {NFEATURES}")
    for w in weights:
        if not math.isfinite(w):
            raise ValueError(f"the playout weights hold a number that is not finite: {w}")
    return list(weights)


_W: list[float] = _checked(WEIGHTS)


class _Position:
    """What every candidate card of one decision shares (read once a decision).

    Cards are valued as the rule set values them unexposed: the policy plays only games
    with nothing to expose (:func:`fitted`), so no exposure factor is read.
    """

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
        # The lead's short-suit feature counts over the rule of thumb's short leads.
        self.early = popcount(b.played) < SHORT_LEADS * n
        top = -1
        top_k = 0
        points = 0
        ten = False
        self.dump = 0
        self.partner_wins = False
        if pos:
            led = b.led
            for k in range(pos):
                x = trick[k]
                if x // 13 == led and x > top:
                    top = x
                    top_k = k
                if x == TEN_OF_CLUBS:
                    ten = True
                points += card_value(cfg, x, 1, 1, cfg.sheep_value)
            # The worst card each later opponent void in the led suit could throw on it.
            team_of = cfg.team_of
            lm = SUIT_MASKS[led]
            dump = 0
            for k in self.later:
                h = b.hands[k]
                if team_of[k] != team_of[seat] and not h & lm:
                    pig = card_value(cfg, QUEEN_OF_SPADES, 1, 1, 0)
                    worst = min(0, pig) if h & PIG_BIT else 0
                    hearts = h >> 26 & 0x1FFF
                    while hearts:
                        i = lowest(hearts)
                        hearts &= hearts - 1
                        worst = min(worst, card_value(cfg, 26 + i, 1, 1, 0))
                    dump += worst
            self.dump = dump
            self.partner_wins = team_of[(b.leader + top_k) % n] == team_of[seat]
        self.top = top
        self.points = points
        self.ten = ten


def features(b: Board, c: int, p: _Position, w: list[float]) -> float:
    """The weighted sum of candidate ``c``'s features (``w``: a weight a feature).

    With a weight of 1 on one feature and 0 on the others it is that feature's
    value (what the trainer reads); with the trained weights, the card's score.
    Features 0-7 describe the card in the hand, 8-15 a lead, 16-26 a card
    following suit, 27-33 a discard.
    """
    cfg = b.cfg
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
        s += w[4] * card_value(cfg, c, 1, 1, 0) / 50.0
    if c >= 50 and p.pig_out:
        s += w[5]
    left = POP13[(p.hand & ~BIT[c]) >> 13 * suit & 0x1FFF]
    s += w[6] * left / 13.0
    if left == 0:
        s += w[7]
    if p.pos == 0:
        return s + _lead(b, c, p, w)
    if suit == b.led:
        return s + _follow(b, c, p, w)
    return s + _discard(b, c, p, w, left == 0)


def _lead(b: Board, c: int, p: _Position, w: list[float]) -> float:
    """Features 8-15: how the led card's suit lies."""
    team_of = b.cfg.team_of
    rank = c % 13
    suit = c // 13
    sm = SUIT_MASKS[suit]
    higher = p.others & sm & ~(BIT[c + 1] - 1) if rank < 12 else 0
    s = w[8] * rank / 12.0
    if not higher:
        s += w[9]
    holders = 0
    opp_void = 0
    for k in p.later:
        if b.hands[k] & sm:
            holders += 1
        elif team_of[k] != team_of[p.seat]:
            opp_void += 1
    s += w[10] * holders / 3.0 + w[11] * opp_void / 2.0
    if p.hand & PIG_BIT and suit == 3:
        s += w[12]
    s += w[13] * POP13[higher >> 13 * suit & 0x1FFF] / 13.0
    if suit == 2:
        s += w[14]
    if p.early:
        s += w[15] * short_suit_bonus(b.cfg, p.hand, b.played, suit, 1) / 4.0
    return s


def _follow(b: Board, c: int, p: _Position, w: list[float]) -> float:
    """Features 16-26: what a card of the led suit does to the trick."""
    cfg = b.cfg
    team_of = cfg.team_of
    v = (p.points + card_value(cfg, c, 1, 1, cfg.sheep_value)) / 100.0
    win = c > p.top
    newtop = c if win else p.top
    above = SUIT_MASKS[b.led] & ~(BIT[newtop + 1] - 1) if newtop % 13 < 12 else 0
    opp_beats = False
    partner_beats = False
    for k in p.later:
        if b.hands[k] & above:
            if team_of[k] == team_of[p.seat]:
                partner_beats = True
            else:
                opp_beats = True
    ten = p.ten or c == TEN_OF_CLUBS
    s = 0.0
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
    elif p.partner_wins:
        s += w[20]
    else:
        s += w[23] * v
        if ten:
            s += w[26]
    return s


def _discard(b: Board, c: int, p: _Position, w: list[float], void: bool) -> float:
    """Features 27-33: what a discard gives the trick's winner so far (partner or opponent)."""
    g = card_value(b.cfg, c, 1, 1, b.cfg.sheep_value) / 100.0
    sign = 1.0 if p.partner_wins else -1.0
    above = SUIT_MASKS[b.led] & ~(BIT[p.top + 1] - 1) if p.top % 13 < 12 else 0
    sure = True
    for k in p.later:
        if b.hands[k] & above:
            sure = False
    s = w[27] * sign * g
    if c == QUEEN_OF_SPADES and p.partner_wins:
        s += w[28]
    s += w[29] * (c % 13) / 12.0
    if c >= 50 and p.pig_out:
        s += w[30]
    if c == TEN_OF_CLUBS:
        s += w[31] * sign
    if void:
        s += w[32]
    if sure:
        s += w[33] * sign * g
    return s


def feature_rows(b: Board, legal: int) -> list[list[float]]:
    """Each legal card's features, in card order: what the trainer fits."""
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


def choose_learned(b: Board, legal: int) -> int:
    """The learned policy's card among ``legal`` (a non-empty mask) for the seat to act
    (the first of the highest-scored, in card order)."""
    if not legal & (legal - 1):
        return lowest(legal)
    p = _Position(b)
    best = -1
    best_s = -math.inf
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        s = features(b, c, p, _W)
        if s > best_s:
            best = c
            best_s = s
    return best


def fitted(cfg: Config) -> bool:
    """Whether the learned policy plays this rule set's playouts: the kind of game it was
    fitted to, four players in two partnerships with nothing to expose (MrIf's and
    MrGreed's game). Elsewhere the rule of thumb plays them: on the individual game with
    exposures the learned policy measured no better, or worse (docs: "bots")."""
    return cfg.n == 4 and cfg.nteams == 2 and not cfg.exposable


def playout(b: Board) -> tuple[int, ...]:
    """Play ``b`` to the end, every seat by the playout policy of its rule set (:func:`fitted`:
    the learned policy, else the rule of thumb); the totals."""
    if fitted(b.cfg):
        while not b.done:
            b.play(choose_learned(b, b.legal()))
    else:
        while not b.done:
            b.play(choose_board(b, b.legal()))
    return b.totals()


def deal_value(
    totals: tuple[int, ...], mine: tuple[int, ...], others: tuple[int, ...], ratio: float
) -> float:
    """A finished deal's value to the seats ``mine``: their total, less ``ratio`` times the
    total of ``others`` (none: their own total). The search's objective."""
    x = 0
    for s in mine:
        x += totals[s]
    y = 0
    for s in others:
        y += totals[s]
    return float(x) - ratio * y


def playout_values(
    base: Board,
    cards: list[int],
    mine: tuple[int, ...],
    others: tuple[int, ...],
    ratio: float,
    cutoff: float,
) -> list[float]:
    """Each of ``cards`` played in a copy of ``base``, the rest of the deal played out
    (:func:`playout`), valued by :func:`deal_value`, in order. Stops early (a shorter
    list) once ``time.perf_counter()`` passes ``cutoff``, checked before each card: the
    search's inner loop over one sampled deal."""
    out: list[float] = []
    for card in cards:
        if time.perf_counter() >= cutoff:
            break
        b = base.copy()
        b.play(card)
        out.append(deal_value(playout(b), mine, others, ratio))
    return out
