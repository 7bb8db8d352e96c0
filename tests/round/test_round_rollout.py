"""Round.rollout, the core's policy hook, Round.apply and the core ↔ Round conversion."""

from __future__ import annotations

import pytest

from gongzhu import (
    Card,
    CardSet,
    Claim,
    ClaimResponse,
    Exposure,
    IllegalActionError,
    Play,
    PlayerView,
    RandomStrategy,
    Reason,
    Round,
    RuleOfThumbStrategy,
    RuleSet,
    deal,
    parse_cards,
)
from gongzhu._core.rollout import next_random, nth_card, rollout, seed_state
from gongzhu._core.state import State, lowest, popcount, to_act


def test_a_seeded_rollout_is_reproducible_and_completes() -> None:
    start = deal(seed=4)
    end = start.rollout(seed=99)
    assert end.is_over
    assert len(end.tricks) == 13
    assert end == start.rollout(seed=99)
    assert sum(len(c) for c in end.captured) == 52
    assert start.phase.name == "EXPOSURE"  # the start is unchanged


def test_rollout_seeds_differ_and_negation_counts() -> None:
    start = deal(seed=4)
    results = {start.rollout(seed=k).history for k in (1, -1, 2, 10**30, -(10**30))}
    assert len(results) == 5


def test_a_rollout_declines_exposure_and_keeps_the_history() -> None:
    start = deal(seed=8)
    mid = start.pass_exposure()
    mid = mid.play(mid.legal_plays[0])
    end = mid.rollout(seed=3)
    assert end.history[: len(mid.history)] == mid.history
    assert end.exposed == CardSet()
    replayed = start
    for action in end.history:
        replayed = replayed.apply(action)
    assert replayed == end


def test_a_random_rollout_plays_only_legal_cards() -> None:
    for seed in range(20):
        rules = RuleSet.preset(("classic", "online", "czech", "catch-the-pig")[seed % 4])
        start = deal(rules=rules, seed=seed)
        end = start.rollout(seed=seed)
        replayed = start
        for action in end.history:  # apply() validates every action again
            replayed = replayed.apply(action)
        assert replayed == end
        assert end.score().totals == replayed.score().totals


def test_rollout_with_strategies_goes_through_their_protocol() -> None:
    class Lowest:
        def __init__(self) -> None:
            self.views = 0

        def choose_play(self, view: PlayerView, legal: CardSet) -> Card:
            self.views += 1
            assert view.legal_plays == legal
            return legal[0]

        def choose_exposure(self, view: PlayerView) -> CardSet:
            return CardSet()

    bot = Lowest()
    start = deal(seed=5)
    end = start.rollout(bot)
    assert bot.views == 52
    by_hand = start
    for seat in range(4):
        by_hand = by_hand.expose("", seat=(start.leader + seat) % 4)
    while not by_hand.is_over:
        by_hand = by_hand.play(by_hand.legal_plays[0])
    assert end == by_hand


def test_rollout_per_seat_and_library_strategies() -> None:
    start = deal(seed=6)
    mixed = [RuleOfThumbStrategy(), None, RandomStrategy(seed=1), RandomStrategy(seed=2)]
    assert start.rollout(mixed, seed=1).is_over
    a = start.rollout([RandomStrategy(seed=7)] * 4)
    b = start.rollout([RandomStrategy(seed=7)] * 4)
    assert a == b


def test_rollout_refuses_what_is_not_a_strategy_or_seed() -> None:
    start = deal(seed=6)
    for bad in ([None] * 3, 5, "random", [object()] * 4):
        with pytest.raises(IllegalActionError) as info:
            start.rollout(bad)
        assert info.value.reason is Reason.INVALID_CHOICE
    for seed in (1.5, "x", True):
        with pytest.raises(IllegalActionError):
            start.rollout(seed=seed)  # type: ignore[arg-type]


def test_a_strategy_that_plays_an_illegal_card_is_refused() -> None:
    class Cheat:
        def choose_play(self, view: PlayerView, legal: CardSet) -> Card:
            return next(c for c in view.hand if c not in legal) if legal != view.hand else legal[0]

        def choose_exposure(self, view: PlayerView) -> CardSet:
            return CardSet()

    with pytest.raises(IllegalActionError):
        deal(seed=6).rollout(Cheat())


def test_the_core_policy_hook_plays_like_the_public_api() -> None:
    seen: list[int] = []

    def highest(state: State, legal: int) -> int:
        seen.append(to_act(state))
        return legal.bit_length() - 1

    start = deal(rules=RuleSet(exposable=""), seed=2)
    end = Round.from_engine_state(rollout(start.engine_state, (highest,) * 4, seed_state(1)))
    by_hand = start
    while not by_hand.is_over:
        by_hand = by_hand.play(by_hand.legal_plays[-1])
    assert end == by_hand
    assert len(seen) == 52


def test_a_policy_returning_an_illegal_card_raises() -> None:
    start = deal(rules=RuleSet(exposable=""), seed=2)
    with pytest.raises(ValueError, match="not a legal play"):
        rollout(start.engine_state, (lambda s, legal: 52,) * 4, seed_state(1))


def test_the_core_bit_helpers() -> None:
    assert popcount((1 << 52) - 1) == 52
    assert lowest(1 << 40) == 40
    mask = (1 << 3) | (1 << 17) | (1 << 50)
    assert [nth_card(mask, k) for k in range(3)] == [3, 17, 50]
    x = seed_state(0)
    assert x
    assert next_random(x) != x


def test_apply_dispatches_every_action_record() -> None:
    rules = RuleSet(claims=True)
    fresh = deal(rules=rules, seed=1)
    holder = next(s for s, h in enumerate(fresh.hands) if Card("QS") in h)
    exposed = fresh.apply(Exposure(holder, parse_cards("QS")))
    assert exposed == fresh.expose("QS", seat=holder)
    r = exposed.pass_exposure()
    seat = r.to_act
    assert seat is not None
    played = r.apply(Play(seat, r.legal_plays[0]))
    assert played == r.play(r.legal_plays[0], seat=seat)
    nxt = played.to_act
    assert nxt is not None
    claimed = played.apply(Claim(nxt))
    assert claimed == played.claim(seat=nxt)
    answered = claimed.apply(ClaimResponse((nxt + 1) % 4, False))
    assert answered == claimed.respond(False, seat=(nxt + 1) % 4)
    with pytest.raises(IllegalActionError) as info:
        r.apply("2S")  # type: ignore[arg-type]
    assert info.value.reason is Reason.INVALID_CHOICE
