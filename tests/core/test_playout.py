"""The search's playout policy (:mod:`gongzhu._core.playout`): one definition of its features,
the card it plays, legal playouts, and weights checked on import."""

from __future__ import annotations

import math
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import Round, RuleSet, deal
from gongzhu._core import playout as P
from gongzhu._core.board import Board, of_state, to_state
from gongzhu._core.playout_weights import WEIGHTS
from gongzhu._core.policy import choose_board
from gongzhu._core.state import BIT

RULE_SETS = (
    attrs.evolve(RuleSet.preset("flat-pig"), partnerships=True),  # the peer's team game
    RuleSet(),
    RuleSet(players=3),
    RuleSet(players=5),
)


def _position(seed: int, rules: RuleSet, plays: int) -> tuple[Round, Board]:
    """A deal after ``plays`` random legal cards (exposures declined), and its board."""
    rnd = deal(rules=rules, seed=seed)
    rng = random.Random(seed)
    board = of_state(rnd.engine_state)
    for _ in range(plays):
        if board.done:
            break
        legal = [c for c in range(52) if board.legal() & BIT[c]]
        board.play(rng.choice(legal))
    return rnd, board


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(RULE_SETS), st.integers(0, 40))
def test_the_policy_plays_the_first_highest_scored_card(
    seed: int, rules: RuleSet, plays: int
) -> None:
    _, board = _position(seed, rules, plays)
    if board.done:
        return
    legal = board.legal()
    cards = [c for c in range(52) if legal & BIT[c]]
    rows = P.feature_rows(board, legal)
    scores = [sum(w * x for w, x in zip(WEIGHTS, row, strict=True)) for row in rows]
    best = max(scores)
    # The first card within rounding of the best (the policy sums in another order).
    expected = [c for c, s in zip(cards, scores, strict=True) if s >= best - 1e-9]
    assert P.choose_learned(board, legal) in expected
    if len(expected) == 1:
        assert P.choose_learned(board, legal) == expected[0]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(RULE_SETS), st.integers(0, 40))
def test_a_cards_score_is_linear_in_the_weights(seed: int, rules: RuleSet, plays: int) -> None:
    # features() is the one definition: what the trainer reads (one feature at a time)
    # and what the policy sums (all at once) are the same numbers.
    _, board = _position(seed, rules, plays)
    if board.done:
        return
    legal = board.legal()
    rows = P.feature_rows(board, legal)
    rng = random.Random(seed)
    w = [rng.uniform(-5, 5) for _ in range(P.NFEATURES)]
    position = P._Position(board)
    cards = [c for c in range(52) if legal & BIT[c]]
    for card, row in zip(cards, rows, strict=True):
        assert len(row) == P.NFEATURES
        summed = sum(a * x for a, x in zip(w, row, strict=True))
        assert P.features(board, card, position, w) == pytest.approx(summed, abs=1e-9)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.players}p")
def test_a_playout_plays_legal_cards_to_the_end(rules: RuleSet) -> None:
    for seed in range(5):
        rnd = deal(rules=rules, seed=seed)
        board = of_state(rnd.engine_state)
        totals = P.playout(board)
        assert board.done
        # The plays replay through the rules engine (each checked legal) to the same score.
        end = Round.from_engine_state(to_state(rnd.engine_state, board))
        assert end.is_over
        assert end.score().totals == totals


def test_the_learned_policy_plays_the_game_it_was_fitted_to_and_the_rule_of_thumb_the_rest() -> (
    None
):
    fitted = [P.fitted(rules.engine) for rules in RULE_SETS]
    assert fitted == [True, False, False, False]
    assert not P.fitted(RULE_SETS[0].replace(exposable="QS").engine)  # exposure: not fitted
    assert not P.fitted(RuleSet.preset("online").engine)
    for rules, policy in ((RULE_SETS[0], P.choose_learned), (RULE_SETS[1], choose_board)):
        for seed in range(3):
            board = of_state(deal(rules=rules, seed=seed).pass_exposure().engine_state)
            twin = board.copy()
            while not twin.done:
                twin.play(policy(twin, twin.legal()))
            assert P.playout(board) == twin.totals()
            assert board.plays == twin.plays


def test_the_playout_values_are_the_deal_values_of_each_cards_playout() -> None:
    rnd = deal(rules=RULE_SETS[0], seed=3)
    base = of_state(rnd.engine_state)
    legal = base.legal()
    cards = [c for c in range(52) if legal & BIT[c]]
    values = P.playout_values(base, cards, (0, 2), (1, 3), 1.0, math.inf)
    for card, value in zip(cards, values, strict=True):
        b = base.copy()
        b.play(card)
        t = P.playout(b)
        assert value == float(t[0] + t[2] - t[1] - t[3])


def test_the_shipped_weights_are_one_finite_number_a_feature() -> None:
    assert len(WEIGHTS) == P.NFEATURES
    assert all(isinstance(w, float) and math.isfinite(w) for w in WEIGHTS)


@pytest.mark.parametrize(
    ("weights", "says"),
    [((1.0,) * (P.NFEATURES - 1), "not 34"), ((math.nan,) * P.NFEATURES, "not finite")],
)
def test_wrong_weights_are_refused_when_loaded(weights: tuple[float, ...], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        P._checked(weights)
