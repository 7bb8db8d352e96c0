"""gongzhu.ai.review: a finished deal reviewed for one seat (the tricks, the points lost)."""

from __future__ import annotations

import pytest

from gongzhu import CardSet, RuleSet, deal, parse_cards
from gongzhu.ai.review import (
    MIN_LOSS,
    REVIEW_LIMIT,
    ExposureDecision,
    ExposureLoss,
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
    exposure = found.exposure_loss.points if found.exposure_loss is not None else 0
    assert found.lost == exposure + sum(loss.points for loss in found.losses)


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


# -- the exposure decision ---------------------------------------------------------------------

DECK = [rank + suit for suit in "SHDC" for rank in "23456789TJQKA"]
LOW_WITH_THE_PIG = "QS 2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 2H"
"""Seat 0's hand: the pig with no other spade and nothing high to win a trick with."""


def low_hand_deal(rules: RuleSet | str = RULES) -> Round:
    mine = LOW_WITH_THE_PIG.split()
    rest = [c for c in DECK if c not in mine]
    return Round.from_hands([mine, rest[0::3], rest[1::3], rest[2::3]], rules=rules)


def exposing(rnd: Round, cards: str, **how: bool) -> Round:
    """Seat 0 exposes ``cards`` (nothing: declines); the others decline; all play it out by the
    rule of thumb."""
    if cards:
        rnd = rnd.expose(cards, seat=0, **how)
    return finish(rnd, lambda r: RuleOfThumbStrategy().choose_play(r.view(0), r.legal_plays))


def test_exposing_the_pig_with_nothing_to_guard_it_is_judged_a_loss() -> None:
    rnd = exposing(low_hand_deal(), "QS")
    found = review(rnd, 0, limit=FAST)
    pig, nothing = parse_cards("QS"), CardSet()
    assert found.exposure is not None
    assert found.exposure.chosen == pig
    assert found.exposure.best == nothing
    loss = found.exposure_loss
    assert loss is not None, found.exposure
    assert (loss.chosen, loss.better) == (pig, nothing)
    # Doubling the pig costs about what the seat expects to take of it: far over the bar.
    assert loss.points >= 4 * MIN_LOSS
    assert loss.points > found.exposure.noise
    assert loss.points == round(found.exposure.lost)
    assert (
        str(loss) == f"exposure: exposing Q♠ cost about {loss.points} points; declining was better"
    )
    assert found.lost == loss.points + sum(card.points for card in found.losses)
    # Printed after the tricks, before the cards' losses.
    lines = str(found).splitlines()
    assert lines[14] == str(loss)
    assert lines[15:] == [str(card) for card in found.losses]


def test_declining_with_a_hand_that_should_decline_is_no_loss() -> None:
    # Seed 9 deals seat 0 the pig and 10♣ in an ordinary hand: the bot declines too.
    rnd = deal(rules=RULES, seed=9)
    assert {"QS", "TC"} <= {c.code for c in rnd.hands[0]}
    found = review(exposing(rnd, ""), 0, limit=FAST)
    assert found.exposure is not None
    assert found.exposure.chosen == CardSet() == found.exposure.best
    assert found.exposure.lost == 0.0
    assert found.exposure_loss is None
    assert found.lost == sum(card.points for card in found.losses)


def test_no_exposure_no_choice_or_one_the_search_does_not_value_is_not_judged() -> None:
    # Flat-pig has no exposure at all.
    flat = finish(deal(rules="flat-pig", seed=9), lambda r: r.legal_plays.cards[0])
    assert review(flat, 0, limit=Limit(simulations=40)).exposure is None
    # Seat 1 holds no exposable card: its pass was no choice.
    rnd = exposing(low_hand_deal(), "QS")
    assert not set(rnd.dealt[1]) & set(RULES.exposable)
    assert review(rnd, 1, limit=Limit(simulations=40)).exposure is None
    # A face-down exposure (catch-the-pig) is not valued by the search: not judged.
    down = exposing(low_hand_deal("catch-the-pig"), "QS", face_down=True)
    found = review(down, 0, limit=Limit(simulations=40))
    assert found.exposure is None
    assert found.exposure_loss is None


def test_the_exposure_judgement_is_deterministic() -> None:
    rnd = exposing(low_hand_deal(), "QS")
    first, second = review(rnd, 0, limit=FAST), review(rnd, 0, limit=FAST)
    assert first == second
    assert isinstance(first.exposure, ExposureDecision)
    assert isinstance(first.exposure_loss, ExposureLoss)
    # The search bot's own exposure analysis of the seat's view, judged as the cards are.
    bot = SearchStrategy(FAST, seed="review", solve=0)
    analysis = bot.analyse_exposure(low_hand_deal().view(0))
    assert first.exposure.best == analysis.best.cards
