"""The vectorised rule of thumb chooses the core's card on every step of every deal.

Each batch is played by :func:`gongzhu.vector.rule_of_thumb` while a core
:class:`~gongzhu._core.board.Board` of every deal is played alongside by the core's
:func:`~gongzhu._core.policy.choose_board` (the public ``RuleOfThumbStrategy``): the two
choose the same card at every step, over every preset (4 and 5 players) and, drawn by
Hypothesis, every option with random exposure decisions (face up, face down, blind,
mixed) and pairs.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from test_vector_law import batches

from gongzhu import PRESETS, Round, RuleOfThumbStrategy, RuleSet, deal
from gongzhu._core.board import Board, of_state
from gongzhu._core.policy import choose_board
from gongzhu.errors import RuleSetError
from gongzhu.testing import rule_sets
from gongzhu.vector import VectorDeal, rule_of_thumb

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))


def preset(name: str, players: int) -> RuleSet:
    rules = PRESETS[name]
    if players == 5:
        try:
            return rules.replace(players=5)
        except RuleSetError:  # a 4-player opening card (2♣) is not in the 5-player deck
            return rules.replace(players=5, opening_card=RuleSet(players=5).opening_card)
    return rules


def play_alongside(batch: VectorDeal) -> int:
    """Play ``batch`` by the vector policy and a core board of each deal by the core's; the
    number of decisions compared."""
    boards: list[Board] = [of_state(r.engine_state) for r in batch.to_rounds()]
    compared = 0
    while not batch.is_over.all():
        chosen = rule_of_thumb(batch)
        for i, b in enumerate(boards):
            if b.done:
                assert chosen[i] == -1
                continue
            card = choose_board(b, b.legal())
            assert chosen[i] == card, (i, b.trick, card, int(chosen[i]))
            b.play(card)
            compared += 1
        batch.step(chosen)
    assert (batch.is_over == np.array([b.done for b in boards])).all()
    assert [tuple(t) for t in batch.totals()] == [b.totals() for b in boards]
    return compared


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_vector_policy_is_the_core_policy_on_every_preset(name: str, players: int) -> None:
    batch = VectorDeal.random(preset(name, players), 100, rng=len(name) + players)
    assert play_alongside(batch) >= 100 * 10


@SETTINGS
@given(batches(rule_sets()))
def test_the_vector_policy_is_the_core_policy_under_every_option(rounds: list[Round]) -> None:
    play_alongside(VectorDeal.from_rounds(rounds))


@SETTINGS
@given(batches(rule_sets(exposure_kind="face-down-up")))
def test_the_vector_policy_reads_only_the_seats_own_face_down_cards(rounds: list[Round]) -> None:
    play_alongside(VectorDeal.from_rounds(rounds))


def test_a_vector_rule_of_thumb_batch_is_round_rollout_of_the_strategy() -> None:
    rules = RuleSet(exposable="")
    batch = VectorDeal.deal(rules, range(20))
    while not batch.is_over.all():
        batch.step(rule_of_thumb(batch))
    expected = [deal(rules=rules, seed=s).rollout(RuleOfThumbStrategy()) for s in range(20)]
    assert batch.to_rounds() == expected


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_thousands_of_deals_on_every_preset(name: str, players: int) -> None:
    batch = VectorDeal.random(preset(name, players), 2000, rng=7 * players + len(name))
    assert play_alongside(batch) >= 2000 * 10
