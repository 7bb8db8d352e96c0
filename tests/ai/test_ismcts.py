"""IS-MCTS in the search bot (``SearchStrategy(algorithm="ismcts")``, :mod:`gongzhu.ai.ismcts`)."""

from __future__ import annotations

import random

import pytest

from gongzhu import PRESETS, Card, CardSet, Limit, Phase, Round, RuleSet, SearchStrategy, deal
from gongzhu.ai import LimitError
from gongzhu.ai.search import ALGORITHMS
from gongzhu.bots import play_deal
from gongzhu.errors import GongzhuError
from test_search import drive

MRIF = RuleSet(pig_with_all_hearts="unchanged", exposable="")
TINY = Limit(simulations=12)
ISMCTS = [a for a in ALGORITHMS if a != "pimc"]


def opening(seed: int, rules: RuleSet = MRIF, plays: int = 0) -> Round:
    r = deal(rules=rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(plays):
        r = r.play(rng.choice(r.legal_plays.cards))
    return r


@pytest.mark.parametrize("algorithm", ISMCTS)
def test_a_seed_and_a_simulation_limit_make_it_deterministic(algorithm: str) -> None:
    a = play_deal([SearchStrategy(TINY, seed=9, algorithm=algorithm)] * 4, rules=MRIF, seed=5)
    b = play_deal([SearchStrategy(TINY, seed=9, algorithm=algorithm)] * 4, rules=MRIF, seed=5)
    assert a == b
    view = opening(3, plays=5).view(opening(3, plays=5).to_act or 0)
    bot = SearchStrategy(Limit(simulations=80), seed=2, algorithm=algorithm)
    first = bot.analyse(view)
    bot.analyse(opening(4).view(opening(4).to_act or 0))  # an earlier call changes nothing
    assert bot.analyse(view).moves == first.moves
    again = SearchStrategy(Limit(simulations=80), seed=2, algorithm=algorithm).analyse(view)
    assert (again.moves, again.worlds, again.simulations) == (
        first.moves,
        first.worlds,
        first.simulations,
    )


def test_it_runs_the_tree_search_and_not_pimc() -> None:
    # One sampled deal and one rollout per iteration: worlds == simulations == the limit
    # (PIMC plays every candidate in each deal, so its worlds are far fewer).
    r = opening(6, plays=2)
    view = r.view(r.to_act or 0)
    assert len(view.legal_plays) >= 3
    a = SearchStrategy(Limit(simulations=90), seed=1, algorithm="ismcts").analyse(view)
    assert a.worlds == a.simulations == 90
    p = SearchStrategy(Limit(simulations=90), seed=1).analyse(view)
    assert p.worlds < 90
    assert {m.card for m in a.moves} == set(view.legal_plays)
    # The move is the root card visited most (visits are its samples).
    assert a.best.samples == max(m.samples for m in a.moves)
    assert sum({m.samples for m in a.moves}) <= 90
    assert all(m.stderr >= 0 for m in a.moves)


@pytest.mark.parametrize("algorithm", ISMCTS)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_legal_cards_under_every_preset(algorithm: str, preset: str) -> None:
    rules = RuleSet.preset(preset)
    bots = [SearchStrategy(TINY, seed=s, algorithm=algorithm) for s in range(rules.players)]
    assert drive(deal(rules=rules, seed=len(preset)), bots).is_over


@pytest.mark.parametrize(
    "rules",
    [RuleSet(players=5), RuleSet(partnerships=True), RuleSet(players=5, exposable="")],
    ids=["5 players", "pairs", "5 players mrif"],
)
@pytest.mark.parametrize("algorithm", ISMCTS)
def test_five_players_and_pairs(rules: RuleSet, algorithm: str) -> None:
    bots = [SearchStrategy(TINY, seed=s, algorithm=algorithm) for s in range(rules.players)]
    assert drive(deal(rules=rules, seed=2), bots).is_over
    rng = random.Random(1)
    for k in range(6):
        r = deal(rules=rules, seed=10 + k)
        if r.phase is Phase.EXPOSURE:
            for seat in range(r.players):
                if seat not in r.exposure_decided:
                    r = r.expose([], seat=seat)
        for _ in range(rng.randrange(0, 30)):
            r = r.play(rng.choice(r.legal_plays.cards))
        view = r.view(r.to_act or 0)
        bot = SearchStrategy(Limit(simulations=30), seed=k, algorithm=algorithm, solve=0)
        assert bot.choose_play(view, view.legal_plays) in view.legal_plays


def test_a_time_limit_stops_it() -> None:
    r = opening(3, plays=1)
    view = r.view(r.to_act or 0)
    a = SearchStrategy(Limit(time=0.05), seed=1, algorithm="ismcts").analyse(view)
    assert a.worlds >= 1
    assert a.elapsed < 2.0  # loose: the clock is checked after every iteration
    capped = SearchStrategy(Limit(time=0.05, simulations=10**9), seed=1, algorithm="ismcts")
    assert capped.analyse(view).simulations < 10**9


def _hidden_swap(r: Round, me: int) -> list[str] | None:
    """The deal of ``r`` with two unplayed same-suit plain cards swapped between two other
    seats (nothing ``me`` can see changes); None when no such pair exists."""
    hands = [list(r.dealt[s]) for s in range(r.players)]  # dealt order kept (first_dealt)
    others = [s for s in range(r.players) if s != me]
    special = {"QS", "JD", "TC", "2C"}
    for a in others:
        for b in others:
            if a >= b:
                continue
            for x in r.hands[a]:
                for y in r.hands[b]:
                    if x.suit is y.suit and x.suit.name != "HEARTS" and x != y:
                        if x.code in special or y.code in special:
                            continue
                        hands[a][hands[a].index(x)] = y
                        hands[b][hands[b].index(y)] = x
                        return [" ".join(c.code for c in h) for h in hands]
    return None


@pytest.mark.parametrize("algorithm", ISMCTS)
def test_the_searching_seat_never_reads_hidden_cards(algorithm: str) -> None:
    # Two deals that differ only in cards the searching seat cannot see (two other seats
    # swap unplayed cards of one suit), with the same plays so far: its views are equal,
    # and so must be every analysis. A search that read the real hands would differ.
    checked = 0
    for seed in range(20):
        r0 = opening(seed)
        r = opening(seed, plays=7)
        me = r.to_act
        assert me is not None
        swapped = _hidden_swap(r, me)
        if swapped is None:
            continue
        try:
            other = Round.from_hands(swapped, rules=MRIF, leader=r0.leader, dealer=r0.dealer)
            for action in r.history:
                other = other.apply(action)
        except GongzhuError:  # the swap made a past play illegal: try another deal
            continue
        assert other.hands != r.hands
        assert other.view(me) == r.view(me)
        limit = Limit(simulations=60)
        a = SearchStrategy(limit, seed=seed, algorithm=algorithm).analyse(r.view(me))
        b = SearchStrategy(limit, seed=seed, algorithm=algorithm).analyse(other.view(me))
        assert a.moves == b.moves
        checked += 1
    assert checked >= 5


def test_bad_input_is_refused_with_typed_errors() -> None:
    with pytest.raises(LimitError, match="algorithm"):
        SearchStrategy(TINY, algorithm="mcts")
    with pytest.raises(LimitError, match="algorithm"):
        SearchStrategy(TINY, algorithm=None)  # type: ignore[arg-type]
    bot = SearchStrategy(TINY, seed=1, algorithm="ismcts")
    r = opening(2)
    seat = r.to_act or 0
    view = r.view(seat)
    with pytest.raises(LimitError):
        bot.choose_play(view, CardSet())
    with pytest.raises(LimitError):
        bot.choose_play(view, r.hands[(seat + 1) % 4])
    with pytest.raises(LimitError):
        bot.choose_play(r.view((seat + 1) % 4), r.hands[(seat + 1) % 4])
    with pytest.raises(LimitError):
        bot.choose_play(r, view.legal_plays)  # type: ignore[arg-type]
    with pytest.raises(LimitError):
        bot.analyse(view, "fast")  # type: ignore[arg-type]
    assert isinstance(bot.choose_play(view, view.legal_plays), Card)


@pytest.mark.parametrize("algorithm", ISMCTS)
def test_progressive_widening_and_reused_deals_play_legal_reproducible_cards(
    algorithm: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gongzhu.ai import ismcts

    monkeypatch.setattr(ismcts, "WIDEN", 0.5)
    monkeypatch.setattr(ismcts, "REUSE", 3)
    rules = RuleSet(partnerships=True, exposable="")
    limit = Limit(simulations=40)
    a = play_deal([SearchStrategy(limit, seed=4, algorithm=algorithm)] * 4, rules=rules, seed=8)
    b = play_deal([SearchStrategy(limit, seed=4, algorithm=algorithm)] * 4, rules=rules, seed=8)
    assert a == b
    r = opening(6, plays=2)
    view = r.view(r.to_act or 0)
    analysis = SearchStrategy(limit, seed=1, algorithm=algorithm).analyse(view)
    assert analysis.simulations == 40
    assert analysis.worlds == 40  # (worlds counts iterations; REUSE shares their deals)
    assert {m.card for m in analysis.moves} == set(view.legal_plays)
