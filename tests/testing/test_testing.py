"""The public Hypothesis strategies of :mod:`gongzhu.testing` yield valid objects only."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import (
    DECK,
    Card,
    CardSet,
    ExposureKind,
    Phase,
    Round,
    RuleSet,
    RuleSetError,
    score,
)
from gongzhu.rules import OPTION_NAMES
from gongzhu.testing import (
    ScoreInput,
    captures,
    card_sets,
    cards,
    deals,
    exposures,
    finished_rounds,
    hands,
    rounds_in_progress,
    rule_sets,
    score_inputs,
)

HEARTS = CardSet(c for c in DECK if c.suit.name == "HEARTS")


@given(cards())
def test_cards_are_deck_cards(card: Card) -> None:
    assert card in DECK


@given(card_sets(min_size=3, max_size=7))
def test_card_sets_respect_their_size_bounds(cs: CardSet) -> None:
    assert 3 <= len(cs) <= 7


@given(card_sets(within=CardSet([Card("QS"), Card("AH")])))
def test_card_sets_stay_within_their_pool(cs: CardSet) -> None:
    assert cs <= CardSet([Card("QS"), Card("AH")])


def test_card_sets_refuse_impossible_sizes() -> None:
    with pytest.raises(ValueError, match="cannot draw"):
        card_sets(min_size=60)


@given(rule_sets())
def test_rule_sets_are_valid_and_rebuild_from_their_options(rules: RuleSet) -> None:
    # RuleSet validates on construction; rebuilding from the options must agree.
    assert RuleSet.from_dict(rules.to_dict()) == rules


@given(rule_sets(players=5, claims=True, exposable="QS"))
def test_rule_sets_keep_fixed_options(rules: RuleSet) -> None:
    assert (rules.players, rules.claims, rules.exposable) == (5, True, CardSet([Card("QS")]))
    assert rules.opening_card not in (Card("2C"), Card("2D"))


@given(rule_sets(three_exposed_force_fourth=True, hearts_locked_by_exposed_ace=True))
def test_rule_sets_repair_around_fixed_options(rules: RuleSet) -> None:
    assert len(rules.exposable) == 4


def test_rule_sets_refuse_unknown_or_impossible_fixed_options() -> None:
    with pytest.raises(RuleSetError, match="unknown"):
        rule_sets(colour="red")
    with pytest.raises(RuleSetError):
        rule_sets(players=5, partnerships=True)


def test_rule_sets_reach_every_option_value() -> None:
    # Every option takes a non-default value in some example, and presets occur.
    seen: set[str] = set()
    presets: set[str] = set()

    @settings(max_examples=150, database=None)
    @given(rule_sets())
    def collect(rules: RuleSet) -> None:
        seen.update(rules.diff(RuleSet()))
        name = rules.preset_name()
        if name:
            presets.add(name)

    collect()
    assert seen == set(OPTION_NAMES)
    assert len(presets) >= 3


@given(hands(rules=rule_sets()))
def test_hands_have_the_hand_size(hand: CardSet) -> None:
    assert len(hand) in (10, 13, 17)


@given(
    st.sampled_from([3, 4, 5]).flatmap(
        lambda n: st.tuples(st.just(n), hands(rules=RuleSet(players=n)))
    )
)
def test_hands_come_from_the_rule_sets_deck(case: tuple[int, CardSet]) -> None:
    players, hand = case
    rules = RuleSet(players=players)
    assert len(hand) == rules.hand_size
    assert hand <= rules.deck


@settings(max_examples=50)
@given(deals())
def test_deals_are_fresh_valid_rounds(rnd: Round) -> None:
    assert not rnd.tricks
    assert not rnd.current_trick.cards
    assert rnd.phase in (Phase.EXPOSURE, Phase.PLAY)
    assert all(len(h) == rnd.rules.hand_size for h in rnd.hands)
    again = Round.from_hands(rnd.dealt, rules=rnd.rules, leader=rnd.leader, dealer=rnd.dealer)
    assert again.hands == rnd.hands


@given(deals(rules=RuleSet.preset("online")))
def test_deals_use_a_given_rule_set(rnd: Round) -> None:
    assert rnd.rules == RuleSet.preset("online")


@given(rule_sets().flatmap(lambda r: st.tuples(st.just(r), exposures(rules=r))))
def test_exposures_are_valid_score_arguments(case: tuple[RuleSet, dict[Card, int]]) -> None:
    rules, exposed = case
    assert set(exposed) <= set(rules.exposable)
    allowed = {2, 4} if rules.exposure_kind is ExposureKind.FACE_DOWN_UP else {2}
    if rules.blind_exposure:
        allowed |= {f * 2 for f in allowed}
    assert set(exposed.values()) <= allowed
    score([CardSet()] * rules.players, exposed, rules=rules)  # accepted by score()


@given(rule_sets().flatmap(lambda r: st.tuples(st.just(r), captures(rules=r))))
def test_captures_partition_the_deck(case: tuple[RuleSet, tuple[CardSet, ...]]) -> None:
    rules, piles = case
    assert len(piles) == rules.players
    assert sum(len(p) for p in piles) == len(rules.deck)
    out = CardSet()
    for p in piles:
        out = out | p
    assert out == rules.deck
    assert len(score(piles, (), rules=rules).totals) == rules.players


@given(captures(complete=False))
def test_incomplete_captures_are_disjoint(piles: tuple[CardSet, ...]) -> None:
    assert sum(len(p) for p in piles) <= 52
    score(piles)


def test_captures_often_contain_all_hearts_and_grand_slams() -> None:
    found = {"all hearts": 0, "grand slam": 0}

    @settings(max_examples=100, database=None)
    @given(captures())
    def collect(piles: tuple[CardSet, ...]) -> None:
        result = score(piles)
        found["all hearts"] += result.all_hearts_seat is not None
        found["grand slam"] += result.grand_slam_seat is not None

    collect()
    # About 2/3 and 1/6 of the examples by construction; the bounds leave a wide margin.
    assert found["all hearts"] >= 10
    assert found["grand slam"] >= 2


@settings(max_examples=50)
@given(finished_rounds())
def test_finished_rounds_are_complete_and_score(rnd: Round) -> None:
    assert rnd.is_over
    assert rnd.phase is Phase.COMPLETE
    assert len(rnd.score().totals) == rnd.players


def test_finished_rounds_include_exposures_and_claims() -> None:
    found = {"exposed": 0, "face down": 0, "blind": 0, "claimed": 0}

    rules = rule_sets(claims=True, blind_exposure=True, exposure_kind="face-down-up")

    @settings(max_examples=60, database=None, derandomize=True)
    @given(finished_rounds(rules=rules))
    def collect(rnd: Round) -> None:
        found["exposed"] += bool(rnd.exposed)
        found["face down"] += bool(rnd.face_down)
        found["blind"] += bool(rnd.blind)
        found["claimed"] += bool(rnd.shown)

    collect()
    assert all(found.values()), found


@settings(max_examples=50)
@given(rounds_in_progress())
def test_rounds_in_progress_are_not_complete(rnd: Round) -> None:
    assert not rnd.is_over
    if rnd.phase is not Phase.CLAIM and rnd.phase is not Phase.EXPOSURE:  # RULES.md §9.1
        assert rnd.legal_plays


# -- rules= takes a rule set, a preset's name or a strategy everywhere ---------------------


@settings(max_examples=20)
@given(exposures(rules=rule_sets()))
def test_exposures_take_a_strategy_of_rule_sets(exposed: dict[Card, int]) -> None:
    assert set(exposed.values()) <= {2, 4, 8}


@settings(max_examples=10)
@given(exposures(rules="catch-the-pig"), hands(rules="online"), captures(rules="taiwan"))
def test_the_strategies_take_a_presets_name(
    exposed: dict[Card, int], hand: CardSet, piles: tuple[CardSet, ...]
) -> None:
    assert set(exposed.values()) <= {2, 4}
    assert len(hand) == 13
    assert len(piles) == 4


def test_a_wrong_rules_argument_is_a_type_error_naming_what_is_taken() -> None:
    from gongzhu.errors import ArgumentTypeError

    with pytest.raises(ArgumentTypeError, match="a strategy of rule sets"):
        exposures(rules=5)  # type: ignore[arg-type]


@settings(max_examples=40)
@given(score_inputs())
def test_score_inputs_tell_which_rules_were_drawn(drawn: ScoreInput) -> None:
    rules = drawn.rules
    assert len(drawn.captures) == rules.players
    assert CardSet.from_mask(sum(p.mask for p in drawn.captures)) == rules.deck
    assert set(drawn.exposed) <= rules.exposable
    assert drawn.score() == score(drawn.captures, drawn.exposed, rules=rules)


@settings(max_examples=10)
@given(score_inputs(rules=rule_sets(players=5), complete=False))
def test_score_inputs_take_a_strategy_and_incomplete_piles(drawn: ScoreInput) -> None:
    assert drawn.rules.players == 5
    assert len(drawn.captures) == 5
