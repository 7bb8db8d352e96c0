"""An exact endgame solver on the mutable :class:`~gongzhu._core.board.Board`. Private.

When few cards are left, the search bot solves each sampled deal exactly
instead of rolling it out: every seat sees every hand (the deal is
determinized), the searcher's seats (its team under pairs) maximise, and the
other seats together minimise, the objective

    ``(n - m) * (sum of the searcher's seats' deal scores) - m * (sum of the others')``

(``m`` searcher seats of ``n``): the searcher's score against the others'
mean, scaled to an integer, so the game is zero-sum and alpha-beta is exact.
The rules of play and the scoring are the board's (``legal``, ``push``,
``pop``, ``totals``); this module only orders and prunes.

* **Equivalent cards.** Two legal cards of one suit with no card between them
  still in a hand or on the table, neither a point card, an exposable card
  nor exposed (nor Q♦ under the Q♦ bonus), lead to the same values: one of each
  class is searched.
* **Transposition table.** Positions at the start of a trick are stored with
  a lower and an upper bound of their value (hands, piles, leader and the
  board's flags as the key).
* **Budget.** ``max_nodes`` bounds the work, and ``deadline`` (a
  ``time.perf_counter()`` value; infinite for a deterministic search) the
  time: past either the search stops and :meth:`Solver.root` returns ``None``
  (the caller rolls out instead).
"""

from __future__ import annotations

import time
from typing import Final

from gongzhu._core.bits import BIT
from gongzhu._core.board import Board
from gongzhu._core.rules import card_classes

__all__: list[str] = []

INF: Final = 1 << 60
INF_TIME: Final = float("inf")
_CLOCK_EVERY: Final = 1023  # nodes between two looks at the clock (a mask)


class Solver:
    """Solves one determinized deal from its board's position (the board is restored after)."""

    def __init__(
        self,
        b: Board,
        mine: tuple[int, ...],
        max_nodes: int,
        deadline: float = INF_TIME,
    ) -> None:
        cfg = b.cfg
        n = cfg.n
        self.b = b
        self.n = n
        flags = [False] * n
        for s in mine:
            flags[s] = True
        self.is_mine = flags
        self.km = n - len(mine)
        self.ko = len(mine)
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.aborted = False
        self.tt: dict[tuple[int, ...], tuple[int, int]] = {}

    def key(self) -> tuple[int, ...]:
        """What decides the rest of the deal at the start of a trick."""
        b = self.b
        return (
            tuple(b.hands)
            + tuple(b.capt)
            + tuple(b.qd_counts)
            + (b.leader, b.flags, b.up, b.down, b.qd_taker)
        )

    def value(self) -> int:
        t = self.b.totals()
        v = 0
        for s in range(self.n):
            if self.is_mine[s]:
                v += t[s] * self.km
            else:
                v -= t[s] * self.ko
        return v

    def classes(self, legal: int) -> list[int]:
        """One card of each class of equivalent cards in ``legal`` (the core's rule)."""
        b = self.b
        live = 0
        for h in b.hands:
            live |= h
        for c in b.trick:
            live |= BIT[c]
        return card_classes(b.cfg, legal, b.up, live)

    def search(self, alpha: int, beta: int) -> int:
        b = self.b
        if self.aborted:
            return 0
        if b.is_over():
            return self.value()
        self.nodes += 1
        if self.nodes > self.max_nodes or (
            not self.nodes & _CLOCK_EVERY and time.perf_counter() > self.deadline
        ):
            self.aborted = True
            return 0
        key: tuple[int, ...] | None = None
        if not b.trick:
            key = self.key()
            hit = self.tt.get(key)
            if hit is not None:
                lo, hi = hit
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
        a0 = alpha
        b0 = beta
        maximize = self.is_mine[b.to_act()]
        best = -INF if maximize else INF
        legal = b.legal()
        cards = self.classes(legal)
        for c in cards:
            b.push(c)
            v = self.search(alpha, beta)
            b.pop()
            if self.aborted:
                return 0
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if key is not None:
            lo = -INF
            hi = INF
            old = self.tt.get(key)
            if old is not None:
                lo, hi = old
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = best
                hi = best
            self.tt[key] = (lo, hi)
        return best

    def root(self, cards: list[int]) -> list[int] | None:
        """The exact objective after each of ``cards`` (legal here); None past the budget."""
        out: list[int] = []
        b = self.b
        for c in cards:
            b.push(c)
            v = self.search(-INF, INF)
            b.pop()
            if self.aborted:
                return None
            out.append(v)
        return out
