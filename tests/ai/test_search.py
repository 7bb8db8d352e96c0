"""The search bot: legal, reproducible decisions under every rule set; analyses; limits."""

from __future__ import annotations

import random

import pytest

from gongzhu import (
    PIG,
    PRESETS,
    Card,
    CardSet,
    Limit,
    Phase,
    Round,
    RuleSet,
    SearchStrategy,
    deal,
)
from gongzhu.ai import LimitError
from gongzhu.bots import make_strategy, play_deal

TINY = Limit(simulations=12)


def drive(rnd: Round, bots: list[SearchStrategy]) -> Round:
    """Play to the end: every seat decides its exposure (RULES.md §9.1), then cards."""
    if rnd.phase is Phase.EXPOSURE:
        n = rnd.players
        for k in range(n):
            seat = (rnd.leader + k) % n
            if seat not in rnd.exposure_decided:
                cards = bots[seat].choose_exposure(rnd.view(seat))
                assert cards <= rnd.hands[seat] & rnd.rules.exposable
                rnd = rnd.expose(cards, seat=seat)
    while not rnd.is_over:
        seat = rnd.to_act
        assert seat is not None
        view = rnd.view(seat)
        card = bots[seat].choose_play(view, view.legal_plays)
        assert card in view.legal_plays
        rnd = rnd.play(card, seat=seat)
    return rnd


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_search_plays_legal_cards_under_every_preset(preset: str) -> None:
    rules = RuleSet.preset(preset)
    bots = [SearchStrategy(TINY, seed=s) for s in range(rules.players)]
    rnd = drive(deal(rules=rules, seed=len(preset)), bots)
    assert rnd.is_over


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(players=5),
        RuleSet(partnerships=True),
        RuleSet(sign_swap=True),
        RuleSet.preset("catch-the-pig"),
        RuleSet(exposure_order="in-turn", three_exposed_force_fourth=True),
        RuleSet(hearts_must_be_broken=True, hearts_locked_by_exposed_ace=True),
    ],
    ids=["5 players", "pairs", "sign swap", "face down", "in turn", "hearts locked"],
)
def test_search_plays_legal_cards_under_options(rules: RuleSet) -> None:
    bots = [SearchStrategy(TINY, seed=s) for s in range(rules.players)]
    assert drive(deal(rules=rules, seed=2), bots).is_over


def test_same_seed_and_simulation_limit_give_the_same_deal() -> None:
    rules = RuleSet(exposable="")
    a = play_deal([SearchStrategy(TINY, seed=9)] * 4, rules=rules, seed=5)
    b = play_deal([SearchStrategy(TINY, seed=9)] * 4, rules=rules, seed=5)
    assert a == b


def test_a_decision_does_not_depend_on_earlier_calls() -> None:
    r = deal(rules=RuleSet(exposable=""), seed=8)
    view = r.view(r.to_act or 0)
    fresh = SearchStrategy(TINY, seed=3)
    used = SearchStrategy(TINY, seed=3)
    used.analyse(deal(rules=RuleSet(exposable=""), seed=1).view(0))
    assert fresh.analyse(view).moves == used.analyse(view).moves


def test_analyse_rates_every_legal_card_best_first() -> None:
    r = deal(rules=RuleSet(exposable=""), seed=12)
    r = r.play(r.legal_plays[0])
    view = r.view(r.to_act or 0)
    a = SearchStrategy(seed=1).analyse(view, Limit(simulations=60))
    assert {m.card for m in a.moves} == set(view.legal_plays)
    assert [m.expected for m in a.moves] == sorted((m.expected for m in a.moves), reverse=True)
    assert a.simulations >= 60
    assert a.worlds >= 1
    assert all(m.samples >= 1 and m.stderr >= 0 for m in a.moves)
    assert "±" in str(a)
    assert a[0] == a.best
    assert len(a) == len(a.moves)
    assert list(a) == list(a.moves)


def test_equivalent_cards_share_one_estimate() -> None:
    # Seat 0 holds every spade: 2♠ … J♠ are all equivalent (nothing outstanding between).
    hands = [
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    ]
    r = Round.from_hands(hands, rules=RuleSet(exposable=""))
    a = SearchStrategy(seed=1).analyse(r.view(0), Limit(simulations=20))
    low = [m for m in a.moves if m.card.rank < 12]
    assert len({(m.expected, m.samples) for m in low}) == 1


def test_the_pig_is_dropped_under_a_higher_spade() -> None:
    # Seat 1 holds Q♠ and 3♠; seat 0 leads A♠: the search drops the pig on it.
    hands = [
        "AS 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "QS 3S 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
        "2S 4S 5S 6S 7S 8S 9S TS JS KS AC KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    ]
    r = Round.from_hands(hands, rules=RuleSet(exposable=""), leader=0).play("AS")
    view = r.view(1)
    assert SearchStrategy(Limit(simulations=40), seed=1).choose_play(view, view.legal_plays) is PIG


def test_exposure_analysis_rates_every_subset_and_declining() -> None:
    r = deal(rules=RuleSet(), seed=21)
    seat = next(s for s in range(4) if len(r.hands[s] & r.rules.exposable) >= 2)
    held = r.hands[seat] & r.rules.exposable
    ea = SearchStrategy(seed=2).analyse_exposure(r.view(seat), Limit(simulations=64))
    assert len(ea.options) == 2 ** len(held)
    assert CardSet() in {o.cards for o in ea.options}
    assert ea.options[0].expected == max(o.expected for o in ea.options)
    for cards, gain, se in ea.gains:
        best = next(o for o in ea.options if o.cards == cards)
        none = next(o for o in ea.options if not o.cards)
        assert gain == pytest.approx(best.expected - none.expected)
        assert se >= 0
    assert ea.gain(CardSet()) == (0.0, 0.0)


def test_nothing_to_expose_is_an_empty_exposure() -> None:
    r = deal(rules=RuleSet(exposable=""), seed=1)
    assert SearchStrategy(TINY).choose_exposure(r.view(0)) == CardSet()


def test_a_claim_is_accepted_only_when_playing_on_is_no_better() -> None:
    # Seat 0 holds the top clubs only and claims: giving it the rest costs the others
    # nothing they could save, so they accept; a claim with no top cards is refused.
    rules = RuleSet(exposable="", claims=True)
    hands = [
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ]
    r = Round.from_hands(hands, rules=rules, leader=0).claim()
    bot = SearchStrategy(Limit(simulations=20), seed=1)
    assert bot.accept_claim(r.view(2)) is True
    # Seat 0 claims holding 2♦ too: seat 2, with A♦ and the sheep, would win that
    # trick and keep its sheep by playing on, so it refuses.
    hands = [
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2D",
        "2C 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
        "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD AS",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    ]
    r = Round.from_hands(hands, rules=rules, leader=0).claim()
    assert bot.accept_claim(r.view(2)) is False


def test_limits_are_validated() -> None:
    with pytest.raises(LimitError):
        Limit()
    with pytest.raises(LimitError):
        Limit(time=0)
    with pytest.raises(LimitError):
        Limit(simulations=0)
    with pytest.raises(LimitError):
        Limit(time=float("nan"))
    with pytest.raises(LimitError):
        Limit.parse("speed=3")
    assert Limit.parse("time=0.5") == Limit(time=0.5)
    with pytest.raises(LimitError):
        SearchStrategy(limit="fast")  # type: ignore[arg-type]


def test_a_time_limit_stops_the_search() -> None:
    r = deal(rules=RuleSet(exposable=""), seed=3)
    view = r.view(r.to_act or 0)
    a = SearchStrategy(Limit(time=0.01), seed=1).analyse(view)
    assert a.worlds >= 1
    assert a.elapsed < 1.0


def test_make_strategy_seats_search_bots() -> None:
    bot = make_strategy("search", seed=4)
    assert isinstance(bot, SearchStrategy)
    assert bot.seed == 4
    r = deal(rules=RuleSet(exposable=""), seed=4)
    v = r.view(r.to_act or 0)
    assert isinstance(bot.choose_play(v, v.legal_plays), Card)


def test_random_positions_give_legal_choices() -> None:
    rng = random.Random(0)
    for k in range(10):
        rules = RuleSet(players=5) if k % 2 else RuleSet(partnerships=True, exposable="")
        r = deal(rules=rules, seed=k)
        r = drive(r, [SearchStrategy(TINY, seed=1)] * rules.players) if k == 0 else r
        if r.is_over:
            continue
        if r.phase is Phase.EXPOSURE:
            for seat in range(r.players):
                if seat not in r.exposure_decided:
                    r = r.expose([], seat=seat)
        for _ in range(rng.randrange(0, 30)):
            r = r.play(rng.choice(r.legal_plays.cards))
        view = r.view(r.to_act or 0)
        assert SearchStrategy(TINY, seed=k).choose_play(view, view.legal_plays) in view.legal_plays


def test_pruning_keeps_every_card_in_the_analysis_and_stays_within_budget() -> None:
    r = deal(rules=RuleSet(exposable=""), seed=30)
    view = r.view(r.to_act or 0)
    bot = SearchStrategy(Limit(simulations=300), seed=2, prune=True)
    a = bot.analyse(view)
    assert {m.card for m in a.moves} == set(view.legal_plays)
    assert a.simulations <= 300 + len(view.legal_plays)
    # Pruned cards stop gathering samples, so the pruned search sees more deals.
    full = SearchStrategy(Limit(simulations=300), seed=2).analyse(view)
    assert a.worlds >= full.worlds
    assert a.moves == bot.analyse(view).moves
    assert bot.choose_play(view, view.legal_plays) == a.best.card
