"""A learned evaluation of a position on a :class:`~gongzhu._core.board.Board`. Private.

A small network (one hidden layer of rectified units) predicts how much a seat's
deal score will still change from the score its captures are worth now (the
scoring kernel's, as if the deal ended here) until the end, from where every
card is, as that seat sees a sampled deal (every hand known): for each of the 52
cards, one of nine places relative to the seat
(held by the seat or by the 1st/2nd/3rd seat after it, captured by one of them,
or on the table in the trick in progress), and which of them is to act. That is
``INPUTS`` = 52 × 9 + 4 binary inputs, exactly 53 of them on in any position, so
the first layer is a sum of 53 rows of ``w1`` (a sparse layer): plain floats,
no numpy at play time. The weights are trained by :mod:`gongzhu.ai.train` and
loaded, validated, by :mod:`gongzhu.ai.evaluation`; ``tests/ai/test_evaluation.py``
checks this inference against a numpy implementation.

:func:`rollout_value` is how the search uses it: play the rule-of-thumb policy
until ``horizon`` more tricks are complete (the current one included), then let
the network value the position for every seat — a truncated rollout. A deal that
ends first is scored exactly.
"""

from __future__ import annotations

from typing import Final

from gongzhu._core.board import Board
from gongzhu._core.policy import choose_board

PLACES: Final = 9
"""Places of a card relative to the seat: held (0-3), captured (4-7), on the table (8)."""
INPUTS: Final = 52 * PLACES + 4
"""Inputs of the network: a card's place (52 × 9), then the seat to act relative to the seat."""
SCALE: Final = 100.0
"""The network predicts a change of deal score divided by this."""


class Net:
    """The network's weights: ``w1`` is ``INPUTS`` rows of ``hidden`` (flattened, row-major)."""

    hidden: int
    w1: list[float]
    b1: list[float]
    w2: list[float]
    b2: float

    def __init__(
        self, hidden: int, w1: list[float], b1: list[float], w2: list[float], b2: float
    ) -> None:
        self.hidden = hidden
        self.w1 = w1
        self.b1 = b1
        self.w2 = w2
        self.b2 = b2


def features(b: Board, seat: int) -> list[int]:
    """The inputs that are on, for ``seat`` (4 players): one per card, then the seat to act."""
    n = b.cfg.n
    out: list[int] = []
    table = 0
    for c in b.trick:
        table |= 1 << c
    for c in range(52):
        bit = 1 << c
        place = -1
        if table & bit:
            place = 8
        else:
            for k in range(n):
                s = (seat + k) % n
                if b.hands[s] & bit:
                    place = k
                    break
                if b.capt[s] & bit:
                    place = 4 + k
                    break
        if place >= 0:
            out.append(c * PLACES + place)
    out.append(52 * PLACES + (b.to_act() - seat) % n)
    return out


def value(net: Net, active: list[int]) -> float:
    """The network's output for the inputs ``active`` (a deal score / ``SCALE``)."""
    h = net.hidden
    acc = net.b1[:]
    w1 = net.w1
    for i in active:
        base = i * h
        for j in range(h):
            acc[j] += w1[base + j]
    w2 = net.w2
    out = net.b2
    for j in range(h):
        a = acc[j]
        if a > 0.0:
            out += a * w2[j]
    return out


def predict(net: Net, b: Board) -> list[float]:
    """Every seat's predicted final deal score from the position of ``b``: its score now
    plus the network's predicted change."""
    now = b.totals()
    return [now[s] + SCALE * value(net, features(b, s)) for s in range(b.cfg.n)]


def rollout_value(net: Net, b: Board, horizon: int, seats: list[int]) -> list[float]:
    """Rule-of-thumb play until ``horizon`` more tricks end (at least the current one), then
    the network's prediction for each of ``seats`` (0.0 for the others: a prediction costs
    about ten rollout plays); the exact totals if the deal ends first. Plays ``b`` forward."""
    stop = b.ntricks + (horizon if horizon > 1 else 1)
    while not b.done and b.ntricks < stop:
        b.play(choose_board(b, b.legal()))
    if b.done:
        return [float(t) for t in b.totals()]
    now = b.totals()
    out = [0.0] * b.cfg.n
    for s in seats:
        out[s] = now[s] + SCALE * value(net, features(b, s))
    return out


class Accumulator:
    """The first layer's sums for every seat, kept up to date as cards are pushed and popped.

    :meth:`push` plays a card on the board (``Board.push``) and moves the changed inputs'
    rows: the card from its holder's hand to the table and, when it completes the trick,
    the trick's cards to the winner's captures; every seat's "to act" input moves too.
    :meth:`pop` undoes both. :meth:`value` then costs the hidden layer only.
    ``tests/ai/test_evaluation.py`` checks the sums against a full recompute after any sequence.
    """

    net: Net
    sums: list[list[float]]
    stack: list[list[tuple[int, int, int]]]

    def __init__(self, net: Net, b: Board) -> None:
        self.net = net
        self.sums = []
        for s in range(b.cfg.n):
            acc = net.b1[:]
            self._add(acc, features(b, s), 1.0)
            self.sums.append(acc)
        self.stack = []

    def _add(self, acc: list[float], rows: list[int], sign: float) -> None:
        h = self.net.hidden
        w1 = self.net.w1
        for i in rows:
            base = i * h
            for j in range(h):
                acc[j] += sign * w1[base + j]

    def _move(self, moves: list[tuple[int, int, int]], sign: float) -> None:
        # A move is (card, from, to) in absolute terms (see _row); -1 for the card is the
        # "to act" input moving from one seat to another.
        n = len(self.sums)
        for s in range(n):
            acc = self.sums[s]
            for card, old, new in moves:
                before = _row(card, old, s, n)
                after = _row(card, new, s, n)
                if sign > 0:
                    self._add(acc, [before], -1.0)
                    self._add(acc, [after], 1.0)
                else:
                    self._add(acc, [after], -1.0)
                    self._add(acc, [before], 1.0)

    def push(self, b: Board, card: int) -> None:
        """``b.push(card)``, and the sums moved with it."""
        n = b.cfg.n
        seat = b.to_act()
        moves: list[tuple[int, int, int]] = [(card, seat, _TABLE), (-1, seat, -1)]
        b.push(card)
        if not b.trick:
            _, winner, cards = b.tricks[-1]
            for c in cards:
                moves.append((c, _TABLE, n + winner))
        moves[1] = (-1, seat, b.to_act())
        self._move(moves, 1.0)
        self.stack.append(moves)

    def pop(self, b: Board) -> int:
        """``b.pop()``, and the sums moved back."""
        self._move(self.stack.pop(), -1.0)
        return b.pop()

    def value(self, seat: int) -> float:
        """The network's output for ``seat`` (what :func:`value` gives from its features)."""
        w2 = self.net.w2
        out = self.net.b2
        acc = self.sums[seat]
        for j in range(self.net.hidden):
            a = acc[j]
            if a > 0.0:
                out += a * w2[j]
        return out


_TABLE: Final = -2  # a card's place "on the table" in Accumulator moves


def _row(card: int, where: int, seat: int, n: int) -> int:
    """The input row of ``card`` at ``where`` (a holder seat, ``n`` + a capturer, or the table)
    for ``seat``; with ``card == -1``, the "to act" input of seat ``where``."""
    if card < 0:
        return 52 * PLACES + (where - seat) % n
    if where == _TABLE:
        return card * PLACES + 8
    if where >= n:
        return card * PLACES + 4 + (where - n - seat) % n
    return card * PLACES + (where - seat) % n
