"""One trick of look-ahead in a sampled deal: the greedy bot's evaluation. Private.

:func:`trick_values` answers, for each candidate card of the seat to act on a
:class:`~gongzhu._core.board.Board` (one sampled deal, every hand known), what
the current trick is worth to that seat if the seats after it answer greedily:
each later seat, knowing its own hand, plays the card that is best for itself
(its team), assuming the seats after it do the same — the nested one-trick
search of the published greedy bots (Gongzhu-Society's MrGreed). A finished
trick is worth what it moved the seat's deal score against the other seats'
mean, scored by the board (the one scoring kernel; outcomes are memoised by
winner and captured point cards, all a trick's score can depend on), plus
the *relief* of the card the seat gave up: shedding a card that could win a
costly trick later is worth something now, keeping one that could catch the
sheep costs something. The relief is a hand-tuned positional prior (ranks, the
pig's guards while the pig is out, the sheep's catchers while it is out,
high clubs while the transformer is out), the only part of the look-ahead
that is not the rules; its shape and magnitudes follow the published bot,
scaled to the rule set's own values.
"""

from __future__ import annotations

from typing import Final

from gongzhu._core.bits import (
    BIT,
    HEARTS,
    PIG_BIT,
    QUEEN_OF_DIAMONDS_BIT,
    SHEEP_BIT,
    TEN_BIT,
)
from gongzhu._core.board import Board
from gongzhu._core.rules import card_classes

# The burden of a card by rank (2 … A): what shedding it relieves.
_BURDEN: Final = (0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11)
# The pig's guards (K♠, A♠) while the pig is out; the sheep's catchers (Q♦, K♦, A♦)
# while the sheep is out; the transformer's catchers (J♣ … A♣) while it is out.
_PIG_GUARDS: Final = {50: 30, 51: 50}
_SHEEP_CATCHERS: Final = {23: -10, 24: -20, 25: -30}
_CLUB_SHARE: Final = {9: 0.1, 10: 0.2, 11: 0.3, 12: 0.4}


class Look:
    """The look-ahead of one sampled deal (its scores before the decision, its memo)."""

    board: Board
    n: int
    before: tuple[int, ...]
    rest: float
    keys: int
    memo: dict[int, list[int]]
    weights: list[list[float]]

    def __init__(self, board: Board) -> None:
        cfg = board.cfg
        self.board = board
        self.n = cfg.n
        self.before = board.totals()
        self.keys = cfg.point_cards | PIG_BIT | SHEEP_BIT | TEN_BIT
        if cfg.queen_bonus:
            self.keys |= QUEEN_OF_DIAMONDS_BIT
        captured = 0
        for c in board.capt:
            captured |= c
        # The value of the point cards nobody has taken yet, a seat's share of it.
        left = cfg.heart_sums[(HEARTS & ~captured) >> 26]
        if not captured & PIG_BIT:
            left += cfg.pig_value
        if not captured & SHEEP_BIT:
            left += cfg.sheep_value
        self.rest = left / self.n
        self.memo = {}
        # Seat s values a score change of seat t at 1 for its team, at -m / (n - m) for the
        # others (m: the size of s's team), so a trick's gain is measured against their mean.
        n = self.n
        team_of = cfg.team_of
        self.weights = []
        for s in range(n):
            m = 0
            for t in range(n):
                if team_of[t] == team_of[s]:
                    m += 1
            self.weights.append(
                [1.0 if team_of[t] == team_of[s] else -m / (n - m) for t in range(n)]
            )

    def utility(self, seat: int, delta: list[int]) -> float:
        """What ``delta`` (each seat's score change) is worth to ``seat``: its team's, net."""
        w = self.weights[seat]
        total = 0.0
        for t in range(self.n):
            total += w[t] * delta[t]
        return total

    def relief(self, seat: int, card: int) -> float:
        """The positional value of giving ``card`` up now (see the module doc)."""
        b = self.board
        cfg = b.cfg
        rank = card % 13
        value = 0.0
        if card // 13 != 2 or rank <= 8:
            value = float(_BURDEN[rank])
        out = cfg.deck & ~b.played & ~b.hands[seat] & ~BIT[card]
        if card in _PIG_GUARDS and out & PIG_BIT:
            value += _PIG_GUARDS[card] * cfg.pig_value / -100
        elif card in _SHEEP_CATCHERS and out & SHEEP_BIT and cfg.sheep_value > 0:
            value += _SHEEP_CATCHERS[card] * cfg.sheep_value / 100
        elif card in _CLUB_SHARE and out & TEN_BIT:
            value -= _CLUB_SHARE[card] * (self.rest + self.before[seat])
        return value

    def leaf(self) -> list[int]:
        """Each seat's score change from the trick just completed on the board."""
        b = self.board
        winner = b.leader
        taken = 0
        for c in b.tricks[-1][2]:
            taken |= BIT[c]
        key = (taken & self.keys) << 3 | winner
        got = self.memo.get(key)
        if got is not None:
            return got
        after = b.totals()
        before = self.before
        delta = [after[s] - before[s] for s in range(self.n)]
        self.memo[key] = delta
        return delta

    def answer(self) -> list[int]:
        """The trick's outcome when the seat to act and those after it play greedily."""
        b = self.board
        seat = (b.leader + len(b.trick)) % self.n
        best: list[int] = []
        best_u = -1e18
        tricks = b.ntricks
        for c in card_classes(b.cfg, b.legal(), b.up, b.between(seat)):
            b.push(c)
            delta = self.leaf() if b.ntricks != tricks else self.answer()
            b.pop()
            u = self.utility(seat, delta) + self.relief(seat, c)
            if u > best_u:
                best_u = u
                best = delta
        return best


def trick_values(board: Board, cards: list[int]) -> list[float]:
    """For each of ``cards`` (legal for the seat to act): its one-trick value (module doc).

    The board is left as it was.
    """
    look = Look(board)
    n = board.cfg.n
    seat = (board.leader + len(board.trick)) % n
    tricks = board.ntricks
    out: list[float] = []
    for c in cards:
        board.push(c)
        delta = look.leaf() if board.ntricks != tricks else look.answer()
        board.pop()
        out.append(look.utility(seat, delta) + look.relief(seat, c))
    return out
