"""Policy-based inference (``SearchStrategy(inference="greedy")``): the law of its weights."""

from __future__ import annotations

import math
import random

import attrs
import pytest

from gongzhu import Limit, Round, RuleSet, SearchStrategy, deal
from gongzhu._core.policy import choose_board
from gongzhu.ai import LimitError
from gongzhu.ai._determinize import Worlds
from gongzhu.ai._inference import EPSILON, INFERENCES, TEMPERATURE, PlayModel, _log_relative
from gongzhu.board import _Greedy

RULES = attrs.evolve(RuleSet.preset("flat-pig"), partnerships=True)


def greedy_game(seed: int, cards: int) -> Round:
    """``cards`` plays of a deal as the model has them: each follow the greedy model's first
    choice (every hand known), each lead the rule of thumb's."""
    rnd = deal(rules=RULES, seed=seed)
    policy = _Greedy()
    for _ in range(cards):
        view = rnd.view(rnd.to_act)
        hands = [h.mask for h in rnd.hands]
        board = Worlds(view).start(hands, 0)
        card = policy.choose(board) if board.trick else choose_board(board, board.legal())
        rnd = rnd.play(next(c for c in view.legal_plays if c.index == card))
    return rnd


def test_a_play_is_less_likely_the_worse_the_model_finds_it() -> None:
    ids = [3, 7, 11]
    values = [0.0, -20.0, -80.0]
    logs = [_log_relative(values, ids, c, TEMPERATURE, EPSILON) for c in ids]
    assert logs[0] == 0.0  # the model's first choice: relative probability 1
    assert logs[0] > logs[1] > logs[2]
    # Never below the uniform floor: no play rules a deal out.
    floor = math.log(
        (EPSILON / 3)
        / ((1 - EPSILON) / sum(math.exp(v / TEMPERATURE) for v in values) + EPSILON / 3)
    )
    assert logs[2] >= floor - 1e-12


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_true_deal_of_model_play_outweighs_the_sampled_ones(seed: int) -> None:
    rnd = greedy_game(seed, 14)
    view = rnd.view(rnd.to_act)
    model = PlayModel(view, partner=True)
    truth = [h.mask for h in rnd.hands]
    # Every past play was the model's choice in the true deal: weight 1.
    assert model.weight(truth, 0) == pytest.approx(1.0)
    worlds = Worlds(view)
    rng = random.Random(seed)
    weights = [model.weight(*worlds.sample(rng)) for _ in range(40)]
    assert all(0.0 < w <= 1.0 + 1e-9 and math.isfinite(w) for w in weights)
    # A deal in which some seat's play was not the model's choice counts less.
    assert min(weights) < 1.0
    assert sum(weights) / len(weights) < model.weight(truth, 0)


def test_swapping_two_seats_cards_never_raises_the_true_deals_weight() -> None:
    rnd = greedy_game(5, 10)
    view = rnd.view(rnd.to_act)
    model = PlayModel(view, partner=True)
    truth = [h.mask for h in rnd.hands]
    # Swap one unseen card between two other seats (keeping hand sizes and voids):
    # the seats' plays then were chosen from hands they did not hold.
    others = [s for s in range(4) if s != view.seat]
    swaps = [
        (a, b, ca, cb)
        for a in others
        for b in others
        if a < b
        for ca in range(52)
        if truth[a] >> ca & 1
        for cb in range(52)
        if truth[b] >> cb & 1 and ca // 13 == cb // 13
    ]
    assert swaps
    lighter = 0
    for a, b, ca, cb in swaps:
        world = truth[:]
        world[a] ^= 1 << ca | 1 << cb
        world[b] ^= 1 << ca | 1 << cb
        w = model.weight(world, 0)
        assert 0.0 < w <= 1.0 + 1e-9
        lighter += w < 1.0 - 1e-9
    assert lighter  # some swap makes a past play look unnatural


def test_no_other_seat_played_weight_one() -> None:
    rnd = deal(rules=RULES, seed=4)
    view = rnd.view(rnd.to_act)
    worlds = Worlds(view)
    assert PlayModel(view).weight(*worlds.sample(random.Random(0))) == 1.0


def test_the_search_with_greedy_inference_is_deterministic_for_a_seed() -> None:
    rnd = greedy_game(7, 9)
    view = rnd.view(rnd.to_act)
    a = SearchStrategy(Limit(simulations=60), seed=3, inference="greedy").analyse(view)
    b = SearchStrategy(Limit(simulations=60), seed=3, inference="greedy").analyse(view)
    assert a.moves == b.moves
    assert a.best.card in view.legal_plays


def test_inference_must_be_a_known_model() -> None:
    assert INFERENCES == ("rule-of-thumb", "greedy")
    with pytest.raises(LimitError, match="inference must be one of"):
        SearchStrategy(inference="oracle")


def test_a_partner_is_weighed_by_the_rule_of_thumb_unless_asked() -> None:
    rnd = greedy_game(6, 16)
    view = rnd.view(rnd.to_act)
    worlds = Worlds(view)
    rng = random.Random(2)
    sampled = [worlds.sample(rng) for _ in range(30)]
    ours, theirs = PlayModel(view), PlayModel(view, partner=True)
    assert any(ours.weight(*w) != theirs.weight(*w) for w in sampled)
    # Without partnerships there is no partner: both weigh every other seat alike.
    alone = attrs.evolve(RULES, partnerships=False)
    rnd = deal(rules=alone, seed=6)
    for _ in range(16):
        view = rnd.view(rnd.to_act)
        rnd = rnd.play(view.legal_plays.cards[-1])
    view = rnd.view(rnd.to_act)
    worlds = Worlds(view)
    for w in [worlds.sample(rng) for _ in range(10)]:
        assert PlayModel(view).weight(*w) == PlayModel(view, partner=True).weight(*w)
