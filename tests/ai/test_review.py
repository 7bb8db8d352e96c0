"""gongzhu.ai.review: a finished deal reviewed for one seat (the tricks, the points lost)."""

from __future__ import annotations

import pytest

from gongzhu import RuleSet, deal
from gongzhu.ai.review import (
    MIN_LOSS,
    REVIEW_LIMIT,
    ReviewError,
    review,
    start_of,
)
from gongzhu.ai.search import Limit, SearchStrategy
from gongzhu.ai.strategies import RuleOfThumbStrategy
from gongzhu.round import Round

RULES = RuleSet.preset("online")
FAST = Limit(simulations=160)


def finish(rnd: Round, seat_play: object) -> Round:
    """Play ``rnd`` out: seat 0 by ``seat_play(rnd)``, the others by the rule of thumb."""
    others = RuleOfThumbStrategy()
    rnd = rnd.pass_exposure() if rnd.exposure_pending else rnd
    while not rnd.is_over:
        seat = rnd.to_act
        assert seat is not None
        if seat == 0:
            card = seat_play(rnd)  # type: ignore[operator]
        else:
            card = others.choose_play(rnd.view(seat), rnd.legal_plays)
        rnd = rnd.play(card)
    return rnd


def test_a_seat_that_plays_the_computers_own_choices_loses_nothing() -> None:
    bot = SearchStrategy(FAST, seed="review", solve=0)
    rnd = finish(deal(rules=RULES, seed=5), lambda r: bot.choose_play(r.view(0), r.legal_plays))
    found = review(rnd, 0, limit=FAST)
    assert found.decisions, "seat 0 had choices to judge"
    assert all(d.card == d.best and d.lost == 0.0 for d in found.decisions)
    assert found.losses == ()
    assert found.lost == 0


def test_a_deal_played_badly_on_purpose_shows_its_losses() -> None:
    # Seat 0 always plays its highest-ranked legal card: aces that take hearts, the pig on
    # its own trick.
    rnd = finish(deal(rules=RULES, seed=11), lambda r: r.legal_plays.cards[-1])
    found = review(rnd, 0, limit=FAST)
    assert found.losses
    for loss in found.losses:
        assert loss.points >= MIN_LOSS
        assert isinstance(loss.points, int)
        assert loss.better in loss.legal
        assert loss.better != loss.card
        assert 1 <= loss.trick <= 13
        assert str(loss.points) in str(loss)
    assert found.lost == sum(loss.points for loss in found.losses)


def test_the_review_shows_every_trick_and_the_seats_score() -> None:
    rnd = finish(deal(rules=RULES, seed=3), lambda r: r.legal_plays.cards[0])
    found = review(rnd, 2, limit=Limit(simulations=40))
    assert [t.number for t in found.tricks] == list(range(1, 14))
    for mine, theirs in zip(found.tricks, rnd.tricks, strict=True):
        assert [c for _, c in mine.cards] == list(theirs.cards)
        assert [s for s, _ in mine.cards] == list(theirs.seats)
        assert mine.winner == theirs.winner
    assert found.score == rnd.score().totals[2]
    assert str(found).splitlines()[0].startswith("seat 2:")


def test_each_decision_is_judged_from_the_seats_own_view() -> None:
    # A decision's judgement is the search bot's analysis of the seat's PlayerView at that
    # moment: what the seat could know, not the hidden hands.
    rnd = finish(deal(rules=RULES, seed=8), lambda r: r.legal_plays.cards[0])
    found = review(rnd, 0, limit=FAST)
    bot = SearchStrategy(FAST, seed="review", solve=0)
    state = start_of(rnd)
    judged = []
    for action in rnd.history:
        if getattr(action, "seat", None) == 0 and state.to_act == 0 and len(state.legal_plays) > 1:
            judged.append(bot.analyse(state.view(0)).best.card)
        state = state.apply(action)
    assert [d.best for d in found.decisions] == judged


def test_the_review_is_deterministic() -> None:
    rnd = finish(deal(rules=RULES, seed=21), lambda r: r.legal_plays.cards[-1])
    assert review(rnd, 0, limit=FAST) == review(rnd, 0, limit=FAST)


def test_start_of_rebuilds_a_deal_from_hands_and_a_given_leader() -> None:
    dealt = deal(rules=RULES, seed=9)
    start = Round.from_hands(dealt.dealt, rules=RULES, leader=2, dealer=1)
    rnd = finish(start, lambda r: r.legal_plays.cards[0])
    assert start_of(rnd) == start
    assert start_of(finish(dealt, lambda r: r.legal_plays.cards[0])) == dealt


def test_only_a_finished_deal_and_a_real_seat_are_reviewed() -> None:
    rnd = deal(rules=RULES, seed=1)
    with pytest.raises(ReviewError):
        review(rnd, 0)
    done = finish(rnd, lambda r: r.legal_plays.cards[0])
    for seat in (-1, 4, True, "0"):
        with pytest.raises(ReviewError):
            review(done, seat)  # type: ignore[arg-type]


def test_the_default_limit_is_bounded() -> None:
    assert REVIEW_LIMIT.simulations is not None
    assert REVIEW_LIMIT.simulations <= 1000
