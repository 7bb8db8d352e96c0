"""Rules of play that mutation testing found untested (docs/how_we_test.rst).

Each test names the rule it checks; it was added because a small change to
``gongzhu.round`` (a mutant of ``tools/mutate.py``) broke that rule and no
other test noticed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gongzhu import Card, IllegalActionError, Reason, Round, RuleSet, Trick

# One suit per seat: seat 0 (spades) wins every trick it leads.
SUITS = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]
CLAIMS = RuleSet(claims=True)


def fresh(hands: list[str], rules: RuleSet = RuleSet(), **kw: int) -> Round:  # noqa: B008
    """A deal in which every seat has declined exposure (RULES.md §9.1)."""
    return Round.from_hands(hands, rules=rules, **kw).pass_exposure()


def refusal(action: Callable[[], object]) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        action()
    return info.value


def test_a_trick_is_a_4_player_trick_unless_told_otherwise() -> None:
    # RULES.md §1: 4 players by default; seats wrap round after seat 3.
    trick = Trick(leader=3, cards=(Card("2C"), Card("AC"), Card("3C"), Card("4C")), winner=0)
    assert trick.seats == (3, 0, 1, 2)
    assert trick.winning_seat == 0


def test_a_finished_tricks_text_names_its_taker_and_an_open_one_does_not() -> None:
    # seeds/000 §07: A♣ led, 10♣ follows, Q♠ and J♦ discarded — the A♣ wins.
    cards = (Card("AC"), Card("TC"), Card("QS"), Card("JD"))
    assert str(Trick(leader=0, cards=cards, winner=0)).endswith("→ seat 0")
    assert "→" not in str(Trick(leader=0, cards=cards[:2], winner=None))


def test_no_card_may_be_played_while_a_claim_is_pending() -> None:
    # RULES.md §7 claims (002 glossary): the others accept or refuse before play goes on.
    rnd = fresh(SUITS, CLAIMS)
    pending = rnd.claim()
    assert refusal(lambda: pending.play("AS")).reason is Reason.WRONG_PHASE
    assert refusal(lambda: pending.play("AS", seat=0)).reason is Reason.WRONG_PHASE
    # Once refused, the same card is playable again.
    assert pending.respond(False, seat=1).play("AS").trick_number == 1


def test_a_seat_given_as_true_is_not_seat_1() -> None:
    # Seats are plain ints 0-3 (RULES.md §5); True is not a seat, even when seat 1 is to act.
    rnd = fresh(SUITS).play("2S")
    assert rnd.to_act == 1
    assert refusal(lambda: rnd.play("2H", seat=True)).reason is Reason.NO_SUCH_SEAT  # type: ignore[arg-type]
    assert rnd.play("2H", seat=1).to_act == 2


def test_expose_refuses_a_blind_flag_that_is_not_a_bool() -> None:
    rnd = Round.from_hands(SUITS, rules=RuleSet(blind_exposure=True))
    error = refusal(lambda: rnd.expose("QS", seat=0, blind="yes"))  # type: ignore[arg-type]
    assert error.reason is Reason.INVALID_CHOICE


def test_expose_refuses_text_that_is_not_cards() -> None:
    rnd = Round.from_hands(SUITS)
    assert refusal(lambda: rnd.expose("XX", seat=0)).reason is Reason.NOT_EXPOSABLE


def test_the_history_records_exposures_claims_and_responses_in_order() -> None:
    # A deal is replayed from its history (gongzhu.record); RULES.md §4 exposure and
    # §7 claims are actions of the deal just like plays.
    from gongzhu import Claim, ClaimResponse, Exposure, Play, parse_cards

    rnd = (
        Round.from_hands(SUITS, rules=CLAIMS)
        .expose("QS", seat=0)
        .pass_exposure()
        .claim()
        .respond(False, seat=1)
        .play("AS")
    )
    assert rnd.history == (
        Exposure(seat=0, cards=parse_cards("QS"), face_down=False, blind=False),
        # RULES.md §9.1: every seat decides; the others decline.
        *(Exposure(seat=s, cards=parse_cards(""), face_down=False, blind=False) for s in (1, 2, 3)),
        Claim(seat=0),
        ClaimResponse(seat=1, accept=False),
        Play(seat=0, card=Card("AS")),
    )


def test_an_accepted_claim_mid_trick_gives_the_open_tricks_cards_to_the_claimer() -> None:
    # RULES.md §7 claims: every card still in play goes to the claimer, and the deal ends.
    from gongzhu import Phase

    rnd = fresh(SUITS, CLAIMS).play("AS")  # seat 1 to act, A♠ on the table
    done = rnd.claim().respond(True, seat=0).respond(True, seat=2).respond(True, seat=3)
    assert done.phase is Phase.COMPLETE
    assert done.claim_pending is None
    assert done.current_trick.cards == ()
    assert Card("AS") in done.captured[1]
    assert sum(len(c) for c in done.captured) == 52


def test_the_claimers_shown_hand_stays_visible_until_each_card_is_played() -> None:
    # RULES.md §7 claims: a refused claim leaves the claimer's hand shown (public) — here
    # seat 3's clubs, 2♣ included, none of them played yet.
    from gongzhu import parse_cards

    rnd = fresh(SUITS, CLAIMS)
    for card in ("AS", "2H", "2D"):
        rnd = rnd.play(card)
    refused = rnd.claim().respond(False, seat=0)
    clubs = parse_cards(SUITS[3])
    assert refused.view(0).shown == clubs
    assert refused.play("2C").view(0).shown == clubs - parse_cards("2C")


def test_a_shown_card_played_to_the_open_trick_is_no_longer_shown() -> None:
    # RULES.md §7 claims: seat 1 claims after A♠ is led, is refused, and plays 2♥.
    from gongzhu import parse_cards

    rnd = fresh(SUITS, CLAIMS).play("AS").claim().respond(False, seat=0).play("2H")
    assert rnd.view(2).shown == parse_cards(SUITS[1]) - parse_cards("2H")
    # ... nor once that trick is complete.
    done = rnd.play("2D").play("2C")
    assert len(done.tricks) == 1
    assert done.view(2).shown == parse_cards(SUITS[1]) - parse_cards("2H")


def test_three_exposures_do_not_force_the_fourth_unless_the_option_is_on() -> None:
    # RULES.md §7 "three exposed force the fourth" (Chinese app rules), off by default;
    # with it on, the fourth card counts as exposed and is held back from the first club
    # lead (RULES.md §4 play restriction).
    def position(rules: RuleSet) -> Round:
        rnd = Round.from_hands(SUITS, rules=rules, leader=3)
        return rnd.expose("QS", seat=0).expose("AH", seat=1).expose("JD", seat=2).pass_exposure()

    assert position(RuleSet()).why_illegal("TC") is None
    forced = position(RuleSet(three_exposed_force_fourth=True))
    assert forced.why_illegal("TC") is Reason.EXPOSED_CARD_HELD_BACK
    # The fourth card is exposed as the window closes (the first card), and only then.
    from gongzhu import parse_cards

    assert forced.play("2C").exposed == parse_cards("QS AH JD TC")
    assert position(RuleSet()).play("2C").exposed == parse_cards("QS AH JD")


def test_a_forced_ace_of_hearts_locks_the_hearts_from_the_first_lead() -> None:
    # RULES.md §7: with "three exposed force the fourth" on, Q♠ J♦ 10♣ exposed force A♥
    # exposed as the window closes, and the blood lock ("hearts locked by an exposed A♥")
    # then forbids leading a heart at the very first lead.
    hands = [
        "2S 3S 4S 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
        "QS 5S 6S 7S 8S 9S TS JS KS AS 2C 3C 4C",
        "JD 2D 3D 4D 5D 6D 7D 8D 9D TD QD KD AD",
        "TC AH QH KH 5C 6C 7C 8C 9C JC QC KC AC",
    ]
    lock = RuleSet(hearts_locked_by_exposed_ace=True)

    def position(rules: RuleSet) -> Round:
        return (
            Round.from_hands(hands, rules=rules)
            .expose("QS", seat=1)
            .expose("JD", seat=2)
            .expose("TC", seat=3)
            .pass_exposure()
        )

    forced = position(lock.replace(three_exposed_force_fourth=True))
    assert forced.to_act == 0
    assert forced.why_illegal("2H") is Reason.HEARTS_LOCKED
    assert Card("2H") not in forced.legal_plays
    assert position(lock).why_illegal("2H") is None


def test_there_is_no_seat_numbered_like_the_player_count() -> None:
    # Seats are numbered 0 to players - 1 (RULES.md §5).
    rnd = fresh(SUITS)
    assert rnd.why_illegal("2S", seat=4) is Reason.NO_SUCH_SEAT
    assert rnd.why_illegal("2S", seat=3) is Reason.NOT_YOUR_TURN


@pytest.mark.parametrize(("leader", "card"), [(0, "QS"), (1, "AH")])
def test_a_held_back_exposed_lead_is_reported_as_such_under_the_hearts_rules(
    leader: int, card: str
) -> None:
    # RULES.md §4 play restriction: an exposed card may not be led to the first trick of
    # its suit while its holder has another card of the suit. That is the reason given,
    # even with "hearts must be broken" and the blood lock on (RULES.md §7) — for Q♠ (no
    # heart at all) and for A♥ led from a hand of hearts only (the hearts rules exempt it).
    for rules in (
        RuleSet(hearts_must_be_broken=True),
        RuleSet(hearts_locked_by_exposed_ace=True),
    ):
        rnd = Round.from_hands(SUITS, rules=rules, leader=leader).expose(card, seat=leader)
        rnd = rnd.pass_exposure()
        # RULES.md §9.6: for A♥ led from hearts only, the hearts rules excuse the leader,
        # so the exposure restriction alone is left, and it holds.
        assert rnd.why_illegal(card) is Reason.EXPOSED_CARD_HELD_BACK


def test_an_exposed_ace_held_back_without_the_blood_lock_is_not_a_hearts_lock() -> None:
    # RULES.md §4: A♥ exposed, other hearts in hand, hearts not led yet — the restriction
    # holds it back; the blood lock (RULES.md §7) is off by default, so that is the reason.
    hands = [
        "2S 3S 4S 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
        "QS 5S 6S 7S 8S 9S TS JS KS AS 2C 3C 4C",
        "JD 2D 3D 4D 5D 6D 7D 8D 9D TD QD KD AD",
        "TC AH QH KH 5C 6C 7C 8C 9C JC QC KC AC",
    ]
    rnd = Round.from_hands(hands, leader=3).expose("AH", seat=3).pass_exposure()
    assert rnd.why_illegal("AH") is Reason.EXPOSED_CARD_HELD_BACK
    assert rnd.why_illegal("KH") is None


def test_the_two_of_hearts_breaks_hearts_like_any_heart() -> None:
    # RULES.md §7 "hearts must be broken": hearts may be led once a heart has been played;
    # 2♥ is a heart (a zero-value point card, RULES.md §2) and breaks them too.
    rnd = fresh(SUITS, RuleSet(hearts_must_be_broken=True)).play("AS")
    assert not rnd.hearts_broken
    assert rnd.play("2H").hearts_broken
    assert fresh(SUITS).play("AS").play("AH").hearts_broken


def test_the_history_records_every_play_of_a_completed_trick_with_its_seat() -> None:
    # Records replay a deal from its history (gongzhu.record), so the play that completes
    # a trick is recorded like the others: seat 3's 2♣ closes the first trick.
    from gongzhu import Play

    rnd = fresh(SUITS)
    for card in ("AS", "2H", "2D", "2C", "KS"):
        rnd = rnd.play(card)
    assert rnd.history[4:] == tuple(  # after the four exposure decisions
        Play(seat=seat, card=Card(card))
        for seat, card in ((0, "AS"), (1, "2H"), (2, "2D"), (3, "2C"), (0, "KS"))
    )


def test_no_response_is_taken_once_the_deal_is_complete() -> None:
    # RULES.md §7 claims: responses answer a pending claim; an accepted claim ends the deal.
    done = fresh(SUITS, CLAIMS).claim().respond(True, seat=1).respond(True, seat=2)
    done = done.respond(True, seat=3)
    assert done.is_over
    assert refusal(lambda: done.respond(True, seat=1)).reason is Reason.WRONG_PHASE
