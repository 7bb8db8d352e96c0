"""Laws of ``score()`` over random deals (RULES.md §3, §4, §7), checked with Hypothesis."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gongzhu import (
    ACE_OF_HEARTS,
    PIG,
    SHEEP,
    TRANSFORMER,
    Card,
    CardSet,
    DealError,
    RuleSet,
    Suit,
    TransformerEffect,
    score,
)
from reference_scorer import ALL_HEARTS, exposures, partitions, scoring_rules

CLASSIC = RuleSet()
EXPOSABLE = [ACE_OF_HEARTS, PIG, SHEEP, TRANSFORMER]
HEARTS = CardSet(ALL_HEARTS)

default_deals = partitions(CLASSIC)
open_exposures = st.sets(st.sampled_from(EXPOSABLE)).map(lambda s: CardSet(s))


@given(default_deals, open_exposures)
def test_hearts_lines_sum_to_minus_200_times_the_ace_factor_unless_someone_took_all(
    piles: list[CardSet], exposed: CardSet
) -> None:
    result = score(piles, exposed)
    ace_factor = 2 if ACE_OF_HEARTS in exposed else 1
    hearts = sum(p.hearts for p in result.players)
    if result.all_hearts_seat is None:
        assert hearts == -200 * ace_factor
    else:
        # RULES.md §3 step 1: the sweeper's line flips to +200; nobody else has a heart.
        assert hearts == 200 * ace_factor


@given(st.sampled_from(["classic", "online", "czech", "encyclopedia"]), st.data())
def test_exposing_the_sheep_doubles_its_line(name: str, data: st.DataObject) -> None:
    rules = RuleSet.preset(name)
    piles = data.draw(partitions(rules))
    others = data.draw(st.sets(st.sampled_from([ACE_OF_HEARTS, PIG, TRANSFORMER])))
    plain = score(piles, CardSet(others), rules=rules)
    exposed = score(piles, CardSet(others | {SHEEP}), rules=rules)
    for before, after in zip(plain.players, exposed.players, strict=True):
        assert after.sheep == 2 * before.sheep
        assert (after.sheep != 0) == (SHEEP in before.cards)


@given(default_deals, open_exposures)
def test_lone_bonus_iff_the_pile_holds_10c_and_no_other_point_card(
    piles: list[CardSet], exposed: CardSet
) -> None:
    result = score(piles, exposed)
    for p in result.players:
        other_points = p.cards & (HEARTS | CardSet([PIG, SHEEP]))
        lone = TRANSFORMER in p.cards and not other_points
        assert p.lone_transformer == lone
        assert (p.transformer is TransformerEffect.LONE_BONUS) == lone
        if lone:
            assert p.total == (100 if TRANSFORMER in exposed else 50)


@given(
    scoring_rules().flatmap(lambda r: st.tuples(st.just(r), partitions(r), exposures(r))),
    st.randoms(use_true_random=False),
)
def test_scores_are_invariant_under_permuting_seats(
    case: tuple[RuleSet, list[CardSet], dict[Card, int]], rnd: object
) -> None:
    rules, piles, exposed = case
    order = list(range(len(piles)))
    rnd.shuffle(order)  # type: ignore[attr-defined]
    base = score(piles, exposed, rules=rules).totals
    permuted = score([piles[i] for i in order], exposed, rules=rules).totals
    assert permuted == tuple(base[i] for i in order)


@given(
    st.sampled_from(EXPOSABLE).flatmap(
        lambda card: st.tuples(
            st.just(card),
            default_deals.map(lambda piles: [p - CardSet([card]) for p in piles]),
        )
    ),
    open_exposures,
)
def test_exposing_a_card_nobody_took_changes_nothing_but_the_aces_effect_on_hearts(
    case: tuple[Card, list[CardSet]], others: CardSet
) -> None:
    card, piles = case
    others = others - CardSet([card])
    before = score(piles, others)
    after = score(piles, others | CardSet([card]))
    if card is not ACE_OF_HEARTS:
        assert after.totals == before.totals
        return
    # Nobody took A♥, so nobody took all hearts; only heart values double.
    for b, a in zip(before.players, after.players, strict=True):
        assert a.hearts == 2 * b.hearts
        assert (a.pig, a.sheep) == (b.pig, b.sheep)


@given(scoring_rules().flatmap(lambda r: st.tuples(st.just(r), partitions(r), exposures(r))))
def test_score_is_pure_and_deterministic(
    case: tuple[RuleSet, list[CardSet], dict[Card, int]],
) -> None:
    rules, piles, exposed = case
    as_lists = [list(p) for p in piles]
    snapshot_piles, snapshot_exposed = copy.deepcopy(as_lists), dict(exposed)
    first = score(as_lists, exposed, rules=rules)
    second = score(as_lists, exposed, rules=rules)
    assert as_lists == snapshot_piles
    assert exposed == snapshot_exposed
    assert first.totals == second.totals
    assert first.players == second.players
    assert first == second


@given(default_deals, st.data())
def test_overlapping_piles_are_a_deal_error(piles: list[CardSet], data: st.DataObject) -> None:
    source = data.draw(st.sampled_from([i for i, p in enumerate(piles) if p]))
    card = data.draw(st.sampled_from(list(piles[source])))
    target = data.draw(st.sampled_from([i for i in range(len(piles)) if i != source]))
    bad = list(piles)
    bad[target] = bad[target] | CardSet([card])
    with pytest.raises(DealError):
        score(bad)


@given(default_deals, open_exposures)
def test_each_total_follows_from_its_lines_under_the_default_rules(
    piles: list[CardSet], exposed: CardSet
) -> None:
    ten_factor = 2 if TRANSFORMER in exposed else 1
    for p in score(piles, exposed).players:
        assert p.base == p.hearts + p.pig + p.sheep
        if TRANSFORMER not in p.cards:
            assert (p.total, p.multiplier) == (p.base, 1)
        elif p.lone_transformer:
            assert p.total == 50 * ten_factor
        else:
            assert p.multiplier == 2 * ten_factor
            assert p.total == p.base * p.multiplier


# RULES.md §2, written out by hand rather than taken from the library's table.
_HEART_VALUES = {14: -50, 13: -40, 12: -30, 11: -20} | dict.fromkeys(range(5, 11), -10)


@given(default_deals)
def test_without_a_small_slam_every_line_is_the_plain_card_values(piles: list[CardSet]) -> None:
    result = score(piles)
    if result.all_hearts_seat is not None:
        return
    for p in result.players:
        hearts = [c for c in p.cards if c.suit is Suit.HEARTS]
        assert p.hearts == sum(_HEART_VALUES.get(int(c.rank), 0) for c in hearts)
        assert p.pig == (-100 if PIG in p.cards else 0)
        assert p.sheep == (100 if SHEEP in p.cards else 0)
