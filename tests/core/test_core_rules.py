"""The engine core's rules kernel: RULES.md §9.1, §9.3 and §9.6 on the core's own functions,
the cached legal mask and action ids, and the integer totals of a finished deal."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from gongzhu import Round, RuleSet, parse_cards
from gongzhu._core import play as _p
from gongzhu._core.state import decision_entry, decision_parts, entries, lowest
from gongzhu.testing import finished_rounds, rounds_in_progress, rule_sets

SUITS = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]
POINTS = [
    "QS 3S 4S 5S 6S 7S 8S 9S TS JS 2S KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2D",
    "JD AH 3D 4D 5D 6D 7D 8D 9D TD QD KD AD",
    "TC 2C 3C 4C 5C 6C 7C 8C 9C JC QC KC AC",
]


def mask(text: str) -> int:
    return parse_cards(text).mask


# -- RULES.md §9.6 -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(hearts_must_be_broken=True),
        RuleSet(hearts_locked_by_exposed_ace=True),
        RuleSet(hearts_must_be_broken=True, hearts_locked_by_exposed_ace=True),
        RuleSet(hearts_must_be_broken=True, exposure_restriction="first-trick-of-deal"),
    ],
    ids=["hearts-broken", "blood-lock", "both", "first-trick-of-deal"],
)
def test_rules_9_6_example_every_heart_but_the_exposed_ace_may_be_led(rules: RuleSet) -> None:
    # RULES.md §9.6, its example: hearts not broken (or the blood lock on), A♥ exposed,
    # the leader holds only hearts including A♥, hearts not yet led: every heart but A♥.
    # The hearts rule and the blood lock excuse a leader who holds only hearts, so the
    # exposure restriction holds and nothing needs to give way.
    r = Round.from_hands(SUITS, rules=rules, leader=1).expose("AH", seat=1).pass_exposure()
    s = r.engine_state
    legal = _p.legal(s)
    assert legal == mask(SUITS[1]) & ~mask("AH")
    assert len(_p.legal_ids(s)) == 12
    assert r.legal_plays == parse_cards(SUITS[1]) - parse_cards("AH")
    assert _p.play_reason(s, parse_cards("AH").mask.bit_length() - 1, -1) == (
        _p.EXPOSED_CARD_HELD_BACK
    )


def test_rules_9_6_the_hearts_rule_still_binds_a_leader_with_another_suit() -> None:
    # RULES.md §9.6: with a card of another suit in hand the hearts rule binds.
    rules = RuleSet(hearts_must_be_broken=True)
    hands = [
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2S",
        "AH 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        SUITS[2],
        SUITS[3],
    ]
    r = Round.from_hands(hands, rules=rules, leader=0).pass_exposure()
    assert _p.legal(r.engine_state) == mask("2S")


# -- RULES.md §9.1 and §9.3: one decision, both kinds --------------------------------------------

CHYTTE = RuleSet(exposure_kind="face-down-up")


def test_rules_9_1_one_decision_shows_the_pig_and_hides_the_transformer() -> None:
    # RULES.md §9.1: under face-down-up exposure one decision may hold both kinds.
    r = Round.from_hands(POINTS, rules=CHYTTE, leader=0)
    s = r.engine_state
    up, down = mask("QS"), mask("TC")
    assert _p.decision_reason(s, 0, up, 0, False) == (_p.OK, -1)
    assert _p.decision_reason(s, 3, 0, down, False) == (_p.OK, -1)
    s = _p.decide(s, 0, up, 0, False)  # seat 0 holds Q♠ only: a plain face-up decision
    s2 = _p.decide(Round.from_hands(POINTS, rules=CHYTTE, leader=0).engine_state, 0, 0, 0, False)
    assert s2.table.decided == 1
    # Seat 3 holds 10♣ and seat 2 J♦ and A♥: seat 2 shows A♥ and hides J♦ in ONE decision.
    assert _p.decision_reason(s, 2, mask("AH"), mask("JD"), False) == (_p.OK, -1)
    s = _p.decide(s, 2, mask("AH"), mask("JD"), False)
    t = s.table
    assert (t.up, t.down, t.decided) == (mask("QS AH"), mask("JD"), 0b101)
    assert decision_parts(entries(s.log)[-1]) == (2, mask("AH"), mask("JD"), False)
    # Exposure factors: face up ×4, face down ×2 (RULES.md §4 under face-down-up).
    assert _p.factors(t.cfg, t.up, t.down, t.blind) == (4, 4, 2, 1)


@pytest.mark.parametrize(
    ("up", "down", "blind"),
    [("", "", False), ("QS", "", False), ("", "TC", True), ("AH QS", "JD TC", False)],
)
def test_a_decision_entry_reads_back_its_parts(up: str, down: str, blind: bool) -> None:
    entry = decision_entry(3, mask(up), mask(down), blind)
    assert decision_parts(entry) == (3, mask(up), mask(down), blind)


def test_a_decision_refuses_a_card_both_up_and_down_and_face_down_when_not_played() -> None:
    s = Round.from_hands(POINTS, rules=CHYTTE, leader=0).engine_state
    code, card = _p.decision_reason(s, 2, mask("JD AH"), mask("JD"), False)
    assert (code, card) == (_p.INVALID_CHOICE, 22)
    plain = Round.from_hands(POINTS, rules=RuleSet(), leader=0).engine_state
    assert _p.decision_reason(plain, 2, mask("AH"), mask("JD"), False)[0] == _p.FACE_DOWN_OFF


def test_rules_9_3_face_down_cards_never_force_the_fourth() -> None:
    # RULES.md §9.3: only face-up exposures count towards "three exposed force the
    # fourth". A♥ and Q♠ face up and J♦ face down (one mixed decision): 10♣ stays free,
    # and the deal scores without a 10♣ factor.
    rules = RuleSet(exposure_kind="face-down-up", three_exposed_force_fourth=True)
    s = Round.from_hands(POINTS, rules=rules, leader=0).engine_state
    s = _p.decide(s, 0, mask("QS"), 0, False)
    s = _p.decide(s, 2, mask("AH"), mask("JD"), False)
    s = _p.decline_all(s)
    assert _p.force_fourth(s.table) == mask("QS AH")
    s = _p.advance(s, lowest(_p.legal(s)))
    assert (s.table.up, s.table.down) == (mask("QS AH"), mask("JD"))
    # Three face up do force the fourth, and a face-down fourth turns face up.
    s = Round.from_hands(POINTS, rules=rules, leader=0).engine_state
    s = _p.decide(s, 0, mask("QS"), 0, False)
    s = _p.decide(s, 2, mask("AH JD"), 0, False)
    s = _p.decide(s, 3, 0, mask("TC"), False)
    s = _p.decline_all(s)
    s = _p.advance(s, lowest(_p.legal(s)))
    assert (s.table.up, s.table.down) == (mask("QS AH JD TC"), 0)


# -- the cached mask and the ids ---------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(rounds_in_progress(rules=rule_sets()))
def test_the_legal_mask_is_cached_and_its_ids_are_the_legal_plays(rnd: Round) -> None:
    s = rnd.engine_state
    assert s.lm == -1 or s.lm == _p._legal(s)
    lm = _p.legal(s)
    assert s.lm == lm == _p._legal(s)
    assert _p.legal_ids(s) == sorted(c.index for c in rnd.legal_plays)


# -- the integer totals ------------------------------------------------------------------------


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(finished_rounds(rules=rule_sets()))
def test_core_totals_are_the_public_score(rnd: Round) -> None:
    assert _p.totals(rnd.engine_state) == rnd.score().totals


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(finished_rounds(rules=rule_sets(queen_of_diamonds_bonus=50)))
def test_core_totals_count_the_queen_of_diamonds_bonus(rnd: Round) -> None:
    assert _p.totals(rnd.engine_state) == rnd.score().totals
