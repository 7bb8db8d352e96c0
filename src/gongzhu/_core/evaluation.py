"""A learned evaluation of a position on a :class:`~gongzhu._core.board.Board`. Private.

A small network (one hidden layer of rectified units) predicts a seat's final
deal score from where every card is, as that seat sees a sampled deal (every
hand known): for each of the 52 cards, one of nine places relative to the seat
(held by the seat or by the 1st/2nd/3rd seat after it, captured by one of them,
or on the table in the trick in progress), and which of them is to act. That is
``INPUTS`` = 52 × 9 + 4 binary inputs, exactly 53 of them on in any position, so
the first layer is a sum of 53 rows of ``w1`` (a sparse layer): plain floats,
no numpy at play time. The weights are trained by :mod:`gongzhu.ai.train` and
loaded, validated, by :mod:`gongzhu.ai.evaluation`; ``tests/test_eval.py``
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
"""The network predicts a deal score divided by this."""


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
    """Every seat's predicted final deal score from the position of ``b``."""
    return [SCALE * value(net, features(b, s)) for s in range(b.cfg.n)]


def rollout_value(net: Net, b: Board, horizon: int) -> list[float]:
    """Rule-of-thumb play until ``horizon`` more tricks end (at least the current one), then
    the network's prediction; the exact totals if the deal ends first. Plays ``b`` forward."""
    stop = b.ntricks + (horizon if horizon > 1 else 1)
    while not b.done and b.ntricks < stop:
        b.play(choose_board(b, b.legal()))
    if b.done:
        return [float(t) for t in b.totals()]
    return predict(net, b)
