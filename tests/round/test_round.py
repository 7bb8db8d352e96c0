"""Example tests of the play engine, one rule (and one refusal Reason) at a time.

Positions are built with ``Round.from_hands`` and explicit plays so each test
reads like the source it cites (RULES.md §§1, 4, 5, 7; seeds/000–004).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest

from gongzhu import (
    Card,
    CardSet,
    DealError,
    IllegalActionError,
    Phase,
    Reason,
    Round,
    RuleSet,
    deal,
    parse_cards,
    score,
)
from gongzhu.dealing import shuffled_deck

# A deal for the exposure tests. Seat 0 holds 2♠ (the classic opening card) and
# 2♣ (001's); seat 1 holds Q♠ with two small spades and no diamonds; seat 2
# holds J♦, 10♣ and the spade pig-catchers K♠ A♠; seat 3 holds A♥.
TABLE = [
    "2S 3S 4S 5S 2C 3C 4C 5C 2D 3D 4D 5D 2H",
    "QS 6S 7S 6C 7C 8C 9C 3H 4H 5H 6H 7H 8H",
    "KS AS TC JC 6D 7D 8D 9D TD JD 9H TH JH",
    "8S 9S TS JS QC KC AC QD KD AD QH KH AH",
]
# The same, but seat 1's Q♠ is its only spade (6♠ 7♠ moved to seat 3).
SINGLETON = [
    "2S 3S 4S 5S 2C 3C 4C 5C 2D 3D 4D 5D 2H",
    "QS 6C 7C 8C 9C QC 3H 4H 5H 6H 7H 8H KC",
    "KS AS TC JC 6D 7D 8D 9D TD JD 9H TH JH",
    "6S 7S 8S 9S TS JS AC QD KD AD QH KH AH",
]
# One suit per seat: seat 0 wins every trick with its spades.
SUITS = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]

CLASSIC = RuleSet.preset("classic")
ONLINE = RuleSet.preset("online")


def play(rnd: Round, cards: str) -> Round:
    """Play the given cards in order, each by the seat to act.

    Seats that have not decided on exposure decline first (RULES.md §9.1).
    """
    rnd = rnd.pass_exposure()
    for card in cards.split():
        rnd = rnd.play(card)
    return rnd


def start(hands: list[str], rules: RuleSet, **kw: int) -> Round:
    """A deal from explicit hands in which every seat has declined exposure (RULES.md §9.1)."""
    return Round.from_hands(hands, rules=rules, **kw).pass_exposure()


def refusal(action: Callable[[], object]) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        action()
    return info.value


# -- leading (RULES.md §5) ---------------------------------------------------------------


def test_the_two_of_spades_holder_leads_any_card() -> None:
    # seeds/000 §02: the 2♠ holder starts; leading the 2♠ itself is not required.
    rnd = start(TABLE, CLASSIC)
    assert rnd.to_act == 0
    assert rnd.legal_plays == rnd.hands[0]
    assert rnd.play("5D").current_trick.cards == (Card("5D"),)


def test_the_two_of_clubs_must_open_under_online_rules() -> None:
    # seeds/001: "Первую сдачу начинает тот, у кого ♣2, и первым ходом должна быть именно она".
    rnd = start(TABLE, ONLINE)
    assert rnd.to_act == 0
    assert rnd.legal_plays == parse_cards("2C")
    assert rnd.why_illegal("2S") is Reason.MUST_LEAD_OPENING_CARD
    err = refusal(lambda: rnd.play("2S"))
    assert err.reason is Reason.MUST_LEAD_OPENING_CARD
    assert "2♣" in str(err)
    # Only the first lead is forced: seat 3 wins the trick and leads freely.
    after = play(rnd, "2C 6C JC AC")
    assert after.to_act == 3
    assert after.legal_plays == after.hands[3]


def test_opening_card_held_by_another_seat_decides_the_leader() -> None:
    # The 2♣ holder leads under 001 rules, whoever it is.
    swapped = [TABLE[2], TABLE[3], TABLE[0], TABLE[1]]
    assert Round.from_hands(swapped, rules=ONLINE).to_act == 2


def test_a_later_deal_leader_is_given_explicitly_and_leads_any_card() -> None:
    # RULES.md §5: later deals are led by the previous pig taker, with any card
    # (000, 001, 004), even under 001's must-lead rule for the first deal.
    rnd = start(TABLE, ONLINE, leader=2)
    assert rnd.to_act == 2
    assert rnd.legal_plays == rnd.hands[2]
    assert deal(rules=CLASSIC, seed=5, leader=3).to_act == 3


def test_a_seven_of_spades_opening_card() -> None:
    # RULES.md §5: a family rule names 7♠.
    rules = RuleSet(opening_card="7S", must_lead_opening_card=True)
    rnd = start(TABLE, rules)
    assert rnd.to_act == 1
    assert rnd.legal_plays == parse_cards("7S")


# -- tricks (RULES.md §1) -----------------------------------------------------------------


def test_the_highest_card_of_the_led_suit_takes_the_trick() -> None:
    # seeds/000 §07: A♣ led, 10♣ follows, Q♠ and J♦ discarded: A wins all four.
    hands = [
        "AC KC QC JC 9C 8C 7C 6C 5C 4C 3C 2C 2S",
        "TC 3S 4S 5S 6S 7S 8S 9S TS JS KS AS 2D",
        "QS 3D 4D 5D 6D 7D 8D 9D TD QD KD AD 2H",
        "JD 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    ]
    rnd = Round.from_hands(hands, rules=CLASSIC, leader=0)
    rnd = play(rnd, "AC TC")
    assert rnd.legal_plays == rnd.hands[2]  # void in clubs: any card
    rnd = play(rnd, "QS JD")
    (trick,) = rnd.tricks
    assert trick.winner == 0
    assert rnd.captured[0] == parse_cards("AC TC QS JD")
    assert rnd.to_act == 0  # the winner leads
    # 000 §07: if these are A's only point cards, the pig and sheep cancel: 0.
    assert score([rnd.captured[0]]).totals == (0,)


def test_following_suit_is_compulsory_but_beating_is_not() -> None:
    # seeds/000 §03 ("Перебивати не обов'язково"), 004 ("přebíjet se nemusí").
    rnd = play(Round.from_hands(TABLE, rules=CLASSIC), "5S")
    assert rnd.legal_plays == parse_cards("QS 6S 7S")  # nothing exposed: Q♠ is free
    assert rnd.why_illegal("6C") is Reason.MUST_FOLLOW_SUIT
    err = refusal(lambda: rnd.play("6C"))
    assert (err.reason, err.seat, err.card) == (Reason.MUST_FOLLOW_SUIT, 1, Card("6C"))
    assert str(err).startswith("seat 1 may not play 6♣: must follow suit")
    rnd = play(rnd, "6S AS 8S")
    assert rnd.tricks[-1].winner == 2


def test_hearts_and_spades_may_be_led_at_once_by_default() -> None:
    # seeds/000 §03: no "hearts must be broken" rule.
    rnd = start(TABLE, CLASSIC, leader=1)
    assert rnd.can_play("3H")


# -- the exposure restriction (RULES.md §4; 000 §06, 001, 004) -------------------------------


def _exposed_pig(hands: list[str] = TABLE, rules: RuleSet = CLASSIC, **kw: int) -> Round:
    return Round.from_hands(hands, rules=rules, **kw).expose("QS", seat=1).pass_exposure()


def test_an_exposed_card_may_not_be_led_into_its_unplayed_suit() -> None:
    # 000 §06 "Це стосується й власного заходу"; 004 "smí to být otočená karta pouze
    # pokud je jediná v barvě".
    rnd = _exposed_pig(leader=1)
    assert Card("QS") not in rnd.legal_plays
    assert rnd.why_illegal("QS") is Reason.EXPOSED_CARD_HELD_BACK
    err = refusal(lambda: rnd.play("QS"))
    assert (err.reason, err.seat, err.card) == (Reason.EXPOSED_CARD_HELD_BACK, 1, Card("QS"))
    assert rnd.can_play("6S")


def test_an_exposed_singleton_may_be_led() -> None:
    # 000 §06: "Єдина карта масті звільнена".
    rnd = _exposed_pig(SINGLETON, leader=1)
    assert rnd.can_play("QS")


def test_an_exposed_card_is_held_back_from_the_first_trick_led_in_its_suit() -> None:
    # 000 §06: not while the holder has another card of the suit.
    rnd = play(_exposed_pig(), "2S")
    assert rnd.legal_plays == parse_cards("6S 7S")
    assert rnd.why_illegal("QS") is Reason.EXPOSED_CARD_HELD_BACK


def test_an_exposed_singleton_may_follow_to_the_first_trick_of_its_suit() -> None:
    rnd = play(_exposed_pig(SINGLETON), "2S")
    assert rnd.legal_plays == parse_cards("QS")


def test_an_exposed_card_may_be_discarded_on_another_suit() -> None:
    # 000 §06 "скинути її без масті чужого заходу можна"; 001 "сбрасывать её разрешено всегда".
    rnd = play(_exposed_pig(), "2D")
    assert rnd.can_play("QS")
    assert rnd.legal_plays == rnd.hands[1]


def test_an_exposed_card_is_free_from_the_second_trick_of_its_suit() -> None:
    # 000 §06: "За наступних заходів у її масть заборона знімається."
    rnd = play(_exposed_pig(), "2S 6S KS 8S")  # seat 2 wins the first spade trick
    rnd = play(rnd, "AS 9S 3S")
    assert rnd.to_act == 1
    assert rnd.can_play("QS")


def test_spades_first_led_in_the_third_trick_still_hold_the_pig_back() -> None:
    # seeds/004: "ve třetím štychu někdo vynese poprvé piky, nesmí do něj být hrána Zhu".
    rnd = _exposed_pig()
    rnd = play(rnd, "2D 3H 6D QD")  # trick 1: seat 3 wins
    rnd = play(rnd, "QC 2C 6C TC")  # trick 2: seat 3 wins
    rnd = play(rnd, "8S 2S")  # trick 3: spades led for the first time
    assert rnd.trick_number == 3
    assert rnd.to_act == 1
    assert rnd.why_illegal("QS") is Reason.EXPOSED_CARD_HELD_BACK
    assert rnd.legal_plays == parse_cards("6S 7S")


def test_a_discard_of_the_suit_does_not_count_as_leading_it() -> None:
    # RULES.md §4: "First trick led in its suit" means led, not merely containing a discard.
    rnd = _exposed_pig()
    rnd = play(rnd, "2D 6S 6D QD")  # seat 1 discards a spade on diamonds
    rnd = play(rnd, "8S 2S")  # the first spade lead
    assert rnd.why_illegal("QS") is Reason.EXPOSED_CARD_HELD_BACK


def test_the_literal_reading_holds_exposed_cards_back_from_the_whole_first_trick() -> None:
    # seeds/002: "во время первой взятки можно разыграть любую карту, кроме открытых".
    rules = CLASSIC.replace(exposure_restriction="first-trick-of-deal")
    rnd = play(_exposed_pig(rules=rules), "2D")
    assert rnd.why_illegal("QS") is Reason.EXPOSED_CARD_HELD_BACK  # even as a discard
    assert rnd.legal_plays == rnd.hands[1] - parse_cards("QS")
    # From the second trick on, the literal rule is silent (spades never led yet).
    rnd = play(rnd, "3H 6D QD 8S 2S")
    assert rnd.can_play("QS")


def test_without_the_restriction_an_exposed_card_may_be_played_anywhere() -> None:
    rules = CLASSIC.replace(exposure_restriction="none")
    assert play(_exposed_pig(rules=rules), "2S").can_play("QS")
    assert _exposed_pig(rules=rules, leader=1).can_play("QS")


def test_face_down_cards_are_not_restricted_but_face_up_ones_are() -> None:
    # seeds/004 "Chyťte prase"; RULES.md §7: the restriction binds only face-up cards.
    rules = RuleSet.preset("catch-the-pig")
    down = Round.from_hands(TABLE, rules=rules).expose("QS", seat=1, face_down=True)
    assert down.exposed == CardSet()
    assert down.face_down == parse_cards("QS")
    assert play(down, "2S").can_play("QS")
    up = Round.from_hands(TABLE, rules=rules).expose("QS", seat=1)
    assert play(up, "2S").why_illegal("QS") is Reason.EXPOSED_CARD_HELD_BACK
    # Factors: face down ×2, face up ×4.
    assert down.exposure_factors == {Card("QS"): 2}
    assert up.exposure_factors == {Card("QS"): 4}


def test_face_down_exposure_needs_the_catch_the_pig_rules() -> None:
    err = refusal(
        lambda: Round.from_hands(TABLE, rules=CLASSIC).expose("QS", seat=1, face_down=True)
    )
    assert err.reason is Reason.NOT_EXPOSABLE


# -- exposure actions (RULES.md §4, §7) --------------------------------------------------------


def test_exposing_keeps_the_card_in_hand_and_makes_it_public() -> None:
    # 000 §06: "показ не прибирає карту з руки".
    rnd = Round.from_hands(TABLE, rules=CLASSIC)
    assert rnd.phase is Phase.EXPOSURE
    after = rnd.expose("QS", seat=1).expose(["AH"], seat=3)
    assert Card("QS") in after.hands[1]
    assert after.exposed == parse_cards("QS AH")
    assert after.exposures == (CardSet(), parse_cards("QS"), CardSet(), parse_cards("AH"))
    assert after.exposure_factors == {Card("AH"): 2, Card("QS"): 2}
    assert after.phase is Phase.EXPOSURE


def test_exposure_refusals_name_their_reason() -> None:
    rnd = Round.from_hands(TABLE, rules=CLASSIC).expose("QS", seat=1)
    cases = {
        Reason.NOT_IN_HAND: lambda: rnd.expose("AH", seat=0),
        Reason.NOT_EXPOSABLE: lambda: rnd.expose("2S", seat=0),
        Reason.ALREADY_DECIDED: lambda: rnd.expose("QS", seat=1),  # RULES.md §9.1
        Reason.NO_SUCH_SEAT: lambda: rnd.expose("AH", seat=4),
    }
    for reason, action in cases.items():
        err = refusal(action)
        assert err.reason is reason, reason
        assert err.action == "expose"


def test_a_flag_that_is_not_a_bool_is_refused_not_guessed() -> None:
    # "no" is truthy: reading it as True would accept a claim the player refused.
    rnd = start(TABLE, CLASSIC.replace(claims=True)).claim()
    err = refusal(lambda: rnd.respond("no", seat=1))  # type: ignore[arg-type]
    assert err.reason is Reason.INVALID_CHOICE
    assert rnd.claim_pending == (0, ())
    assert refusal(lambda: rnd.expose("", seat=1, blind=1)).reason in (  # type: ignore[arg-type]
        Reason.INVALID_CHOICE,
        Reason.WRONG_PHASE,
    )


def test_a_bad_leader_or_dealer_is_a_deal_error() -> None:
    with pytest.raises(DealError):
        Round.from_hands(TABLE, rules=CLASSIC, leader=4)
    with pytest.raises(DealError):
        Round.from_hands(TABLE, rules=CLASSIC, dealer=True)  # type: ignore[arg-type]


def test_exposing_after_the_first_card_is_refused() -> None:
    # 000 §06: exposures are made before any lead.
    rnd = play(Round.from_hands(TABLE, rules=CLASSIC), "2S")
    assert rnd.phase is Phase.PLAY
    err = refusal(lambda: rnd.expose("AH", seat=3))
    assert (err.reason, err.seat) == (Reason.WRONG_PHASE, 3)


def test_exposure_off_refuses_every_exposure() -> None:
    # 004 bundle "Nehraje se na otáčení karet"; 003 v4.
    rnd = Round.from_hands(TABLE, rules=RuleSet.preset("czech-variant"))
    assert rnd.phase is Phase.PLAY
    assert refusal(lambda: rnd.expose("AH", seat=3)).reason is Reason.EXPOSURE_OFF


def test_a_subset_of_exposable_cards() -> None:
    # 001 house rules: only Q♠ and 10♣ may be exposed.
    rnd = Round.from_hands(TABLE, rules=CLASSIC.replace(exposable="QS TC"))
    assert rnd.expose("TC", seat=2).exposed == parse_cards("TC")
    assert refusal(lambda: rnd.expose("AH", seat=3)).reason is Reason.NOT_EXPOSABLE


def test_blind_exposure_of_the_first_dealt_card() -> None:
    # seeds/004 variant: "Pokud je první rozdaná karta hráče otočená před podíváním na
    # ostatní karty, její efekt je dvojnásobný."
    rules = CLASSIC.replace(blind_exposure=True)
    rnd = Round.from_hands(TABLE, rules=rules)
    assert rnd.dealt[1][0] == Card("QS")
    blind = rnd.expose("QS", seat=1, blind=True)
    assert blind.blind == parse_cards("QS")
    assert blind.exposure_factors == {Card("QS"): 4}  # pig −400
    # Seat 3's first card is 8♠: its A♥ cannot be exposed blind.
    err = refusal(lambda: rnd.expose("AH", seat=3, blind=True))
    assert (err.reason, err.card) == (Reason.NOT_FIRST_DEALT_CARD, Card("AH"))
    # An ordinary exposure of the same card is still ×2.
    assert rnd.expose("AH", seat=3).exposure_factors == {Card("AH"): 2}


def test_blind_exposure_needs_its_option() -> None:
    err = refusal(lambda: Round.from_hands(TABLE, rules=CLASSIC).expose("QS", seat=1, blind=True))
    assert err.reason is Reason.NOT_EXPOSABLE


def test_in_turn_exposure_goes_round_from_the_leader_once_each() -> None:
    # RULES.md §7 (Chinese rule pages): one seat at a time from the leader.
    rules = CLASSIC.replace(exposure_order="in-turn")
    rnd = Round.from_hands(TABLE, rules=rules)
    err = refusal(lambda: rnd.expose("QS", seat=1))
    assert (err.reason, err.seat) == (Reason.EXPOSURE_OUT_OF_TURN, 1)
    rnd = rnd.expose([], seat=0)
    assert refusal(lambda: rnd.expose("JD", seat=2)).reason is Reason.EXPOSURE_OUT_OF_TURN
    rnd = rnd.expose("QS", seat=1).expose("", seat=2)
    # RULES.md §9.1: a seat that has decided may not decide again.
    assert refusal(lambda: rnd.expose("JD", seat=2)).reason is Reason.ALREADY_DECIDED
    rnd = rnd.expose("AH", seat=3)
    assert rnd.exposed == parse_cards("QS AH")
    assert refusal(lambda: rnd.expose("", seat=0)).reason is Reason.ALREADY_DECIDED


def test_simultaneous_exposure_in_any_order() -> None:
    # seeds/001: "Компьютеры решают одновременно с вами".
    a = Round.from_hands(TABLE, rules=CLASSIC).expose("AH", seat=3).expose("QS", seat=1)
    b = Round.from_hands(TABLE, rules=CLASSIC).expose("QS", seat=1).expose("AH", seat=3)
    assert a.exposed == b.exposed == parse_cards("QS AH")


def test_three_exposed_force_the_fourth_when_the_first_card_is_played() -> None:
    # RULES.md §7 (Chinese app rules); the library's reading: when the window closes.
    rules = CLASSIC.replace(three_exposed_force_fourth=True)
    rnd = (
        Round.from_hands(TABLE, rules=rules)
        .expose("QS", seat=1)
        .expose("JD", seat=2)
        .expose("AH", seat=3)
    )
    assert Card("TC") not in rnd.exposed
    after = play(rnd, "2S")
    assert after.exposed == parse_cards("QS JD AH TC")
    assert after.exposures[2] == parse_cards("TC JD")
    assert after.exposure_factors[Card("TC")] == 2
    # Two exposed force nothing.
    two = play(Round.from_hands(TABLE, rules=rules).expose("QS", seat=1).expose("AH", seat=3), "2S")
    assert two.exposed == parse_cards("QS AH")


def test_a_forced_exposure_binds_the_leader_too() -> None:
    # The fourth card is exposed when the window closes, i.e. before the first
    # lead: its holder may not lead it into its unplayed suit (000 §06).
    rules = CLASSIC.replace(three_exposed_force_fourth=True)
    rnd = Round.from_hands(TABLE, rules=rules, leader=2).expose("QS", seat=1).expose("AH", seat=3)
    rnd = rnd.expose([], seat=0).expose("JD", seat=2)
    assert Card("TC") not in rnd.legal_plays
    assert rnd.why_illegal("TC") is Reason.EXPOSED_CARD_HELD_BACK


# -- hearts rules (RULES.md §7) -------------------------------------------------------------------


def test_hearts_must_be_broken_before_they_are_led() -> None:
    rules = CLASSIC.replace(hearts_must_be_broken=True)
    rnd = start(TABLE, rules, leader=1)
    assert rnd.why_illegal("3H") is Reason.HEARTS_NOT_BROKEN
    assert rnd.legal_plays == rnd.hands[1] - rnd.hands[1].of_suit(Card("3H").suit)
    # A heart discarded on diamonds breaks hearts.
    rnd = play(Round.from_hands(TABLE, rules=rules), "2D 3H 6D QD")
    assert rnd.to_act == 3
    assert rnd.can_play("QH")


def test_a_leader_with_only_hearts_may_lead_them_unbroken() -> None:
    rules = CLASSIC.replace(hearts_must_be_broken=True)
    rnd = start(SUITS, rules, leader=1)
    assert rnd.legal_plays == rnd.hands[1]


def test_an_exposed_ace_of_hearts_locks_hearts_until_one_is_played() -> None:
    # RULES.md §7 "blood lock" (an online program).
    rules = CLASSIC.replace(hearts_locked_by_exposed_ace=True)
    unexposed = Round.from_hands(TABLE, rules=rules, leader=1)
    assert unexposed.pass_exposure().can_play("3H")
    locked = unexposed.expose("AH", seat=3).pass_exposure()
    assert locked.why_illegal("3H") is Reason.HEARTS_LOCKED
    assert locked.can_play("6S")
    # Following with a heart is not leading: allowed (seat 1 is void in diamonds).
    opened = Round.from_hands(TABLE, rules=rules).expose("AH", seat=3)
    opened = play(opened, "2D")
    assert opened.can_play("3H")
    opened = play(opened, "3H 6D QD")
    assert opened.can_play("QH")  # hearts have been played


# -- deal end (RULES.md §7) ----------------------------------------------------------------------

# Point cards go out in five tricks: three rounds of hearts, then 10♣, J♦, Q♠ and the last heart.
EARLY = [
    "2H 3H 4H 5H 2S 3S 4S 5S 6S 7S 8S 9S TS",
    "6H 7H 8H QS JS KS AS 2C 3C 4C 5C 6C 7C",
    "9H TH JH JD 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "QH KH AH TC 8C 9C JC QC KC AC QD KD AD",
]
EARLY_PLAY = "2H 6H 9H QH  KH 3H 7H TH  AH 4H 8H JH  TC 5H 2C JD  QD 2S QS 2D"


def test_the_deal_ends_when_every_point_card_is_out() -> None:
    rules = CLASSIC.replace(end_when_points_out=True)
    rnd = play(Round.from_hands(EARLY, rules=rules, leader=0), EARLY_PLAY)
    assert rnd.is_over
    assert rnd.phase is Phase.COMPLETE
    assert len(rnd.tricks) == 5
    assert rnd.to_act is None
    assert rnd.legal_plays == CardSet()
    left = _union(rnd.hands)
    assert len(left) == 32
    assert _union(rnd.captured) | left == rules.deck
    assert rnd.score().totals == score(rnd.captured, (), rules=rules).totals
    # Seat 3 took all 16 point cards: 000 §05, (+200 + 100 + 100) × 2.
    assert rnd.score().totals == (0, 0, 0, 800)
    assert refusal(lambda: rnd.play("3S")).reason is Reason.WRONG_PHASE


def test_without_the_option_all_tricks_are_played() -> None:
    rnd = play(Round.from_hands(EARLY, rules=CLASSIC, leader=0), EARLY_PLAY)
    assert not rnd.is_over
    assert rnd.trick_number == 6


def _union(sets: tuple[CardSet, ...]) -> CardSet:
    out = CardSet()
    for s in sets:
        out = out | s
    return out


# -- claims (RULES.md §7; 002 glossary 摊牌, 全大) ------------------------------------------------

CLAIMS = CLASSIC.replace(claims=True)


def test_an_accepted_claim_gives_the_claimer_every_remaining_card() -> None:
    rnd = play(Round.from_hands(SUITS, rules=CLAIMS), "AS 2H 2D 2C")
    claimed = rnd.claim()
    assert claimed.phase is Phase.CLAIM
    assert claimed.to_act is None
    assert claimed.legal_plays == CardSet()
    assert claimed.shown == rnd.hands[0]
    assert claimed.claim_pending == (0, ())
    assert claimed.why_illegal("KS") is Reason.WRONG_PHASE
    done = claimed.respond(True, seat=1).respond(True, seat=2)
    assert done.claim_pending == (0, (1, 2))
    done = done.respond(True, seat=3)
    assert done.is_over
    assert done.captured[0] == rnd.rules.deck
    assert done.score().totals[0] == 800  # 000 §05: all hearts, Q♠, J♦ and 10♣


def test_a_refused_claim_lets_play_continue_with_the_hand_shown() -> None:
    rnd = play(Round.from_hands(SUITS, rules=CLAIMS), "AS 2H 2D 2C").claim()
    refused = rnd.respond(False, seat=2)
    assert refused.phase is Phase.PLAY
    assert refused.to_act == 0
    assert refused.shown == rnd.shown
    assert refused.view(1).shown == rnd.shown
    assert play(refused, "KS 3H 3D 3C").trick_number == 3


def test_claim_refusals() -> None:
    assert (
        refusal(lambda: Round.from_hands(SUITS, rules=CLASSIC).claim()).reason is Reason.CLAIMS_OFF
    )
    rnd = start(SUITS, CLAIMS)
    assert refusal(lambda: rnd.claim(2)).reason is Reason.NOT_YOUR_TURN
    assert refusal(lambda: rnd.respond(True, seat=1)).reason is Reason.WRONG_PHASE
    pending = rnd.claim()
    assert refusal(lambda: pending.respond(True, seat=0)).reason is Reason.NOT_YOUR_TURN
    once = pending.respond(True, seat=1)
    assert refusal(lambda: once.respond(True, seat=1)).reason is Reason.NOT_YOUR_TURN
    assert refusal(lambda: pending.claim()).reason is Reason.WRONG_PHASE


# -- the Q♦ bonus (002 v7) -------------------------------------------------------------------------


def test_the_queen_of_diamonds_taker_scores_each_later_trick() -> None:
    # Seat 0 wins all 13 tricks and captures Q♦ in the third: 10 more tricks.
    diamonds = ["2D", "3D", "QD", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "KD", "AD"]
    spades = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]
    hearts = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]
    clubs = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
    moves = " ".join(
        f"{s} {h} {d} {c}" for s, h, d, c in zip(spades, hearts, diamonds, clubs, strict=True)
    )
    plain = play(Round.from_hands(SUITS, rules=CLASSIC), moves)
    bonus = play(Round.from_hands(SUITS, rules=CLASSIC.replace(queen_of_diamonds_bonus=10)), moves)
    assert plain.score().totals == (800, 0, 0, 0)
    assert bonus.score().totals == (800 + 10 * 10, 0, 0, 0)


# -- player counts and dealing (RULES.md §5, §7) ---------------------------------------------------


def test_five_players_get_ten_cards_without_the_two_of_clubs_and_diamonds() -> None:
    # seeds/003, 004: "při 5 hráčích se nepoužívají 2 Křížová a kárová".
    rules = RuleSet(players=5)
    rnd = deal(rules=rules, seed=11).pass_exposure()
    assert [len(h) for h in rnd.hands] == [10] * 5
    held = _union(rnd.hands)
    assert len(held) == 50
    assert Card("2C") not in held
    assert Card("2D") not in held
    assert Card("2S") in rnd.hands[rnd.to_act]
    while not rnd.is_over:
        rnd = rnd.play(rnd.legal_plays[-1])
    assert len(rnd.tricks) == 10
    assert all(len(t.cards) == 5 for t in rnd.tricks)
    assert _union(rnd.captured) == rules.deck


def test_three_players_get_seventeen_cards_without_the_two_of_clubs() -> None:
    # RULES.md §7 (an extension).
    rnd = deal(rules=RuleSet(players=3), seed=2).pass_exposure()
    assert [len(h) for h in rnd.hands] == [17] * 3
    assert Card("2C") not in _union(rnd.hands)
    while not rnd.is_over:
        rnd = rnd.play(rnd.legal_plays[0])
    assert len(rnd.tricks) == 17


def test_cards_are_dealt_one_at_a_time_starting_after_the_dealer() -> None:
    # RULES.md §5: "a shuffled deck dealt one by one in play order".
    for players in (3, 4, 5):
        rules = RuleSet(players=players)
        order = shuffled_deck(rules, 99)
        for dealer in range(players):
            rnd = deal(rules=rules, seed=99, dealer=dealer)
            assert rnd.dealer == dealer
            for k, index in enumerate(order):
                seat = (dealer + 1 + k) % players
                assert rnd.dealt[seat][k // players] == Card.from_index(index)


def test_moving_the_dealer_rotates_the_same_shuffle() -> None:
    base = deal(rules=CLASSIC, seed="club night")
    moved = deal(rules=CLASSIC, seed="club night", dealer=2)
    assert moved.dealt == base.dealt[-2:] + base.dealt[:-2]


def test_the_same_seed_gives_the_same_deal() -> None:
    # seeds/001: "тот же номер раздачи при той же игре повторит ту же партию".
    assert deal(rules=CLASSIC, seed=42) == deal(rules=CLASSIC, seed=42)
    assert deal(rules=CLASSIC, seed=42).hands != deal(rules=CLASSIC, seed=43).hands
    assert deal(rules=CLASSIC, seed=42).seed == 42


# -- from_hands validation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "rules", "message"),
    [
        (TABLE[:3], CLASSIC, "expected 4 hands"),
        ([*TABLE[:3], TABLE[3].replace("AH", "2S")], CLASSIC, "dealt twice"),
        ([TABLE[0].replace("2H", "2S"), *TABLE[1:]], CLASSIC, "duplicate"),
        ([TABLE[0] + " 6H", *TABLE[1:]], CLASSIC, "14 cards, expected 13"),
        ([TABLE[0][3:], *TABLE[1:]], CLASSIC, "12 cards, expected 13"),
        ([TABLE[0], TABLE[1], TABLE[2], TABLE[3] + " XX"], CLASSIC, "seat 3"),
        (["2S 3S"] * 5, RuleSet(players=5), "2 cards, expected 10"),
        ("2S 3S", CLASSIC, "sequence"),
    ],
)
def test_from_hands_refuses_what_is_not_a_deal(
    hands: list[str], rules: RuleSet, message: str
) -> None:
    with pytest.raises(DealError, match=message):
        Round.from_hands(hands, rules=rules)


def test_from_hands_refuses_cards_outside_a_five_player_deck() -> None:
    deck = [c.code for c in RuleSet(players=5).deck]
    hands = [" ".join(deck[i * 10 : (i + 1) * 10]) for i in range(5)]
    assert Round.from_hands(hands, rules=RuleSet(players=5)).players == 5
    bad = [hands[0].replace(deck[0], "2C"), *hands[1:]]
    with pytest.raises(DealError, match="not in the 5-player deck"):
        Round.from_hands(bad, rules=RuleSet(players=5))


def test_a_round_cannot_be_built_directly() -> None:
    with pytest.raises(TypeError):
        Round()


# -- refusals carry their facts --------------------------------------------------------------------


def test_play_out_of_turn_names_the_seat() -> None:
    rnd = start(TABLE, CLASSIC)
    err = refusal(lambda: rnd.play("6S", seat=1))
    assert (err.reason, err.seat, err.card) == (Reason.NOT_YOUR_TURN, 1, Card("6S"))
    assert rnd.why_illegal("6S", seat=1) is Reason.NOT_YOUR_TURN
    assert rnd.play("2S", seat=0).to_act == 1


def test_play_of_a_card_not_in_hand() -> None:
    rnd = start(TABLE, CLASSIC)
    err = refusal(lambda: rnd.play("AH"))
    assert (err.reason, err.seat, err.card) == (Reason.NOT_IN_HAND, 0, Card("AH"))
    assert str(err) == "seat 0 may not play A♥: card not in hand"


def test_no_such_seat() -> None:
    rnd = Round.from_hands(TABLE, rules=CLASSIC)
    assert rnd.why_illegal("2S", seat=7) is Reason.NO_SUCH_SEAT
    assert refusal(lambda: rnd.view(4)).reason is Reason.NO_SUCH_SEAT
    assert refusal(lambda: rnd.play("2S", seat=-1)).reason is Reason.NO_SUCH_SEAT


def test_score_before_the_end_is_refused() -> None:
    err = refusal(lambda: Round.from_hands(TABLE, rules=CLASSIC).score())
    assert err.reason is Reason.WRONG_PHASE
    assert err.action == "score"


def test_check_play_raises_what_why_illegal_answers() -> None:
    rnd = play(_exposed_pig(), "2S")
    rnd.check_play("6S")
    with pytest.raises(IllegalActionError) as info:
        rnd.check_play("QS")
    assert info.value.reason is rnd.why_illegal("QS") is Reason.EXPOSED_CARD_HELD_BACK
    assert "Q♠ was exposed" in str(info.value)


def _reason_cases() -> dict[Reason, Callable[[], object]]:
    fresh = Round.from_hands(TABLE, rules=CLASSIC)
    table = fresh.pass_exposure()
    blind = CLASSIC.replace(blind_exposure=True)
    return {
        Reason.NOT_YOUR_TURN: lambda: table.play("6S", seat=1),
        Reason.NOT_IN_HAND: lambda: table.play("AH"),
        Reason.MUST_FOLLOW_SUIT: lambda: play(table, "2S 6C"),
        Reason.EXPOSED_CARD_HELD_BACK: lambda: play(fresh.expose("QS", seat=1), "2S QS"),
        Reason.MUST_LEAD_OPENING_CARD: lambda: start(TABLE, ONLINE).play("3S"),
        Reason.HEARTS_NOT_BROKEN: lambda: start(
            TABLE, CLASSIC.replace(hearts_must_be_broken=True), leader=1
        ).play("3H"),
        Reason.HEARTS_LOCKED: lambda: (
            Round.from_hands(
                TABLE, rules=CLASSIC.replace(hearts_locked_by_exposed_ace=True), leader=1
            )
            .expose("AH", seat=3)
            .pass_exposure()
            .play("3H")
        ),
        Reason.WRONG_PHASE: lambda: table.play("2S").expose("QS", seat=1),
        Reason.EXPOSURE_OFF: lambda: Round.from_hands(
            TABLE, rules=CLASSIC.replace(exposable="")
        ).expose("QS", seat=1),
        Reason.NOT_EXPOSABLE: lambda: fresh.expose("2S", seat=0),
        # Only a blind exposure leaves its seat undecided (RULES.md §9.4).
        Reason.ALREADY_EXPOSED: lambda: (
            Round.from_hands(TABLE, rules=blind)
            .expose("QS", seat=1, blind=True)
            .expose("QS", seat=1)
        ),
        Reason.EXPOSURE_OUT_OF_TURN: lambda: Round.from_hands(
            TABLE, rules=CLASSIC.replace(exposure_order="in-turn")
        ).expose("AH", seat=3),
        Reason.NOT_FIRST_DEALT_CARD: lambda: Round.from_hands(
            TABLE, rules=CLASSIC.replace(blind_exposure=True)
        ).expose("AH", seat=3, blind=True),
        Reason.CLAIMS_OFF: lambda: table.claim(),
        Reason.NO_SUCH_SEAT: lambda: table.expose("AH", seat=9),
        Reason.INVALID_CHOICE: lambda: fresh.expose("QS", seat=1, face_down="yes"),  # type: ignore[arg-type]
        Reason.EXPOSURE_PENDING: lambda: fresh.expose("QS", seat=1).play("2S"),  # RULES.md §9.1
        Reason.ALREADY_DECIDED: lambda: table.expose("QS", seat=1),
        Reason.CLAIM_REFUSED: lambda: (
            start(TABLE, CLAIMS)  # RULES.md §9.7
            .claim()
            .respond(False, seat=1)
            .claim()
        ),
    }


@pytest.mark.parametrize("reason", list(Reason), ids=lambda r: r.name)
def test_every_reason_is_raised_by_some_action(reason: Reason) -> None:
    err = refusal(_reason_cases()[reason])
    assert err.reason is reason
    assert str(err)  # a sentence a client can show
    assert reason.value in str(err)


# -- immutability, pickling, equality --------------------------------------------------------------


def test_a_round_is_immutable() -> None:
    rnd = Round.from_hands(TABLE, rules=CLASSIC)
    with pytest.raises(AttributeError):
        rnd.leader = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        rnd._s = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del rnd._s


def test_play_and_expose_leave_the_old_round_unchanged() -> None:
    rnd = Round.from_hands(TABLE, rules=CLASSIC)
    snapshot = pickle.dumps(rnd)
    exposed = rnd.expose("QS", seat=1)
    played = exposed.pass_exposure().play("2S")
    assert pickle.loads(snapshot) == rnd
    assert rnd.exposed == CardSet()
    assert rnd.current_trick.cards == ()
    assert exposed.current_trick.cards == ()
    assert Card("2S") in exposed.hands[0]
    assert played.exposed == parse_cards("QS")
    with pytest.raises(IllegalActionError):
        exposed.play("AH")
    assert exposed.to_act == 0  # a refusal changes nothing


def test_rounds_pickle_round_trip() -> None:
    rnd = deal(rules=RuleSet.preset("online"), seed=3).pass_exposure()
    rnd = rnd.play(rnd.legal_plays[0])
    back = pickle.loads(pickle.dumps(rnd))
    assert back == rnd
    assert hash(back) == hash(rnd)
    assert back.legal_plays == rnd.legal_plays
    assert back.rules == rnd.rules


def test_equal_positions_are_equal_and_hash_alike() -> None:
    fresh = Round.from_hands(TABLE, rules=CLASSIC)
    a = fresh.pass_exposure()
    b = start(list(TABLE), RuleSet())
    assert a == b
    assert hash(a) == hash(b)
    assert a.play("2S") == b.play("2S")
    assert a.play("2S") != a.play("3S")
    assert fresh != fresh.expose("QS", seat=1)
    assert len({a, b, a.play("2S")}) == 2
    assert a != "a round"
