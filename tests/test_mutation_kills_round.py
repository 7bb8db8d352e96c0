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
    rnd = Round.from_hands(SUITS, CLAIMS)
    pending = rnd.claim()
    assert refusal(lambda: pending.play("AS")).reason is Reason.WRONG_PHASE
    assert refusal(lambda: pending.play("AS", seat=0)).reason is Reason.WRONG_PHASE
    # Once refused, the same card is playable again.
    assert pending.respond(1, False).play("AS").trick_number == 1


def test_a_seat_given_as_true_is_not_seat_1() -> None:
    # Seats are plain ints 0-3 (RULES.md §5); True is not a seat, even when seat 1 is to act.
    rnd = Round.from_hands(SUITS).play("2S")
    assert rnd.to_act == 1
    assert refusal(lambda: rnd.play("2H", seat=True)).reason is Reason.NO_SUCH_SEAT  # type: ignore[arg-type]
    assert rnd.play("2H", seat=1).to_act == 2


def test_expose_refuses_a_blind_flag_that_is_not_a_bool() -> None:
    rnd = Round.from_hands(SUITS, RuleSet(blind_exposure=True))
    error = refusal(lambda: rnd.expose(0, "QS", blind="yes"))  # type: ignore[arg-type]
    assert error.reason is Reason.INVALID_CHOICE


def test_expose_refuses_text_that_is_not_cards() -> None:
    rnd = Round.from_hands(SUITS)
    assert refusal(lambda: rnd.expose(0, "XX")).reason is Reason.NOT_EXPOSABLE
