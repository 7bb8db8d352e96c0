"""The search's time keeping on a fake clock: it stops polling within 10 % of ``Limit(time=)``.

Every rollout advances the fake clock by a fixed cost and nothing else does, so a
decision's elapsed time is a count of rollouts: deterministic, whatever the machine
(the issue 30 target, "the time limit held within 10 % on the worst move").
"""

from __future__ import annotations

import math
import time
from typing import Any

import attrs
import pytest

import gongzhu.ai.search as search
from gongzhu import Limit, RuleSet, SearchStrategy, deal
from gongzhu._core.board import Board

ROLLOUT = 0.007  # seconds of fake clock a rollout costs: 13 candidates would take 91 ms
LIMIT = 0.1


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_every_decision_of_a_deal_stops_within_ten_percent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FakeClock()
    real = search.playout_values

    def playout_values(
        base: Board, cards: list[int], mine: Any, others: Any, ratio: float, cutoff: float
    ) -> list[float]:
        # The core's loop over one sampled deal, a card at a time on the fake clock.
        out: list[float] = []
        for card in cards:
            if clock() >= cutoff:
                break
            clock.now += ROLLOUT
            out += real(base, [card], mine, others, ratio, math.inf)
        return out

    monkeypatch.setattr(search, "playout_values", playout_values)
    monkeypatch.setattr(time, "perf_counter", clock)
    rules = attrs.evolve(RuleSet.preset("flat-pig"), partnerships=True)
    bots = [SearchStrategy(Limit(time=LIMIT), seed=s, solve=0) for s in range(4)]
    rnd = deal(rules=rules, seed=2)
    worst = 0.0
    polled = 0
    while not rnd.is_over:
        view = rnd.view(rnd.to_act)
        started = clock.now
        analysis = bots[rnd.to_act].analyse(view)
        elapsed = clock.now - started
        worst = max(worst, elapsed)
        # The analysis reports the same clock: what the search believes it spent.
        assert analysis.elapsed == pytest.approx(elapsed)
        polled += analysis.worlds > 1
        rnd = rnd.play(analysis.best.card, seat=rnd.to_act)
    assert worst <= LIMIT * 1.1, worst
    assert polled >= 20  # most decisions searched many deals before the clock stopped them
