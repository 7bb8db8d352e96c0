"""The search's two hot loops in the core: the sampled deal's shuffle and the candidates' rollouts.

Both replace Python loops of :mod:`gongzhu.ai` that must give the same numbers
(the search is deterministic for a seed, and its decisions did not change when
the loops moved into the core).
"""

from __future__ import annotations

import math
import random
import time

from hypothesis import given
from hypothesis import strategies as st

from gongzhu import RuleSet, deal
from gongzhu._core.board import of_state
from gongzhu._core.deal import deal_out
from gongzhu._core.playout import playout, playout_values
from gongzhu._core.state import BIT


@given(
    st.lists(st.integers(0, 51), unique=True, max_size=39),
    st.integers(0, 2**32),
    st.lists(st.integers(0, 13), min_size=1, max_size=4),
)
def test_deal_out_deals_what_random_shuffle_would(
    cards: list[int], seed: int, caps: list[int]
) -> None:
    # Counts that add up to the cards (the last seat takes the rest).
    counts: list[int] = []
    left = len(cards)
    for c in caps[:-1]:
        counts.append(min(c, left))
        left -= counts[-1]
    counts.append(left)
    seats = list(range(len(counts)))
    hands = [0] * len(counts)
    rng = random.Random(seed)
    deal_out(cards, seats, tuple(counts), hands, rng.getrandbits)
    shuffled = cards[:]
    twin = random.Random(seed)
    twin.shuffle(shuffled)
    expected = [0] * len(counts)
    at = 0
    for s, a in zip(seats, counts, strict=True):
        for c in shuffled[at : at + a]:
            expected[s] |= BIT[c]
        at += a
    assert hands == expected
    assert rng.getrandbits(32) == twin.getrandbits(32)  # the same draws were used


def test_playout_values_are_each_cards_playout_valued() -> None:
    rnd = deal(rules=RuleSet.preset("flat-pig"), seed=5)
    base = of_state(rnd.engine_state)
    legal = base.legal()
    cards = [c for c in range(52) if legal & BIT[c]]
    values = playout_values(base, cards, (0,), (1, 2, 3), 1 / 3, math.inf)
    for card, value in zip(cards, values, strict=True):
        b = base.copy()
        b.play(card)
        totals = playout(b)
        assert value == float(totals[0]) - (1 / 3) * (totals[1] + totals[2] + totals[3])
    assert base.legal() == legal  # the base deal is not played on
    # Own score only (no others): the seat's total.
    b = base.copy()
    b.play(cards[0])
    assert playout_values(base, cards[:1], (0, 2), (), 0.0, math.inf) == [
        float(sum(playout(b)[s] for s in (0, 2)))
    ]


def test_playout_values_stop_at_the_cutoff() -> None:
    rnd = deal(rules=RuleSet.preset("flat-pig"), seed=5)
    base = of_state(rnd.engine_state)
    legal = base.legal()
    cards = [c for c in range(52) if legal & BIT[c]]
    assert playout_values(base, cards, (0,), (1, 2, 3), 1 / 3, time.perf_counter() - 1) == []
