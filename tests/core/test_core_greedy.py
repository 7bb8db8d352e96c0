"""The greedy bot's one-trick look-ahead in the core (``gongzhu._core.greedy``)."""

from __future__ import annotations

import random

import pytest
from test_core_solver import RULES, _cards, _position

from gongzhu import Round, RuleSet
from gongzhu._core.board import Board, of_state
from gongzhu._core.greedy import Look, trick_values


def _snapshot(b: Board) -> tuple[object, ...]:
    return (list(b.hands), list(b.capt), list(b.trick), b.leader, b.ntricks, list(b.plays))


def _net(rules: RuleSet, seat: int, before: tuple[int, ...], after: tuple[int, ...]) -> float:
    """The seat's (team's) score change against the other seats', scaled to its team's size."""
    mine = next((t for t in rules.teams if seat in t), (seat,))
    gain = sum(after[s] - before[s] for s in mine)
    loss = sum(after[s] - before[s] for s in range(rules.players) if s not in mine)
    return gain - len(mine) * loss / (rules.players - len(mine))


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_the_look_ahead_leaves_the_board_as_it_was(rules: RuleSet) -> None:
    rng = random.Random(f"greedy-restore:{rules}")
    for left in (13, 9, 5, 2):
        b = of_state(_position(rules, left, rng).engine_state)
        before = _snapshot(b)
        values = trick_values(b, _cards(b.legal()))
        assert _snapshot(b) == before
        assert len(values) == len(_cards(b.legal()))


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_last_to_play_a_card_is_worth_its_trick_as_the_board_scores_it_plus_its_relief(
    rules: RuleSet,
) -> None:
    # Nobody answers the last card of a trick: its value is the trick's outcome, scored by the
    # board's own totals, plus the positional relief of giving the card up.
    rng = random.Random(f"greedy-last:{rules}")
    n = rules.players
    found = 0
    while found < 6:
        b = of_state(_position(rules, rng.randrange(1, 12), rng).engine_state)
        if len(b.trick) != n - 1:
            continue
        found += 1
        seat = b.to_act()
        cards = _cards(b.legal())
        values = trick_values(b, cards)
        look = Look(b)
        for card, value in zip(cards, values, strict=True):
            after = b.copy()
            after.play(card)
            expected = _net(rules, seat, b.totals(), after.totals()) + look.relief(seat, card)
            assert value == pytest.approx(expected)


def test_the_relief_follows_the_cards_still_out() -> None:
    # A♠ and K♠ shed a burden while another seat holds the pig (A♠ more), beyond their rank;
    # to the pig's own holder they are only high cards.
    rules = RuleSet(exposable="")
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC AS KS JS",
        "QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD QS",
        "JD QD KD AD 2H 3H 4H 5H 6H 7H 8H 9H TH",
        "JH QH KH AH 2S 3S 4S 5S 6S 7S 8S 9S TS",
    ]
    b = of_state(Round.from_hands(hands, rules=rules, leader=0).engine_state)
    look = Look(b)
    ace, king, jack = 51, 50, 48
    assert look.relief(0, ace) - look.relief(0, jack) > look.relief(1, ace) - look.relief(1, jack)
    assert look.relief(0, ace) > look.relief(0, king) + 20 > look.relief(0, jack) + 20
    assert look.relief(1, ace) - look.relief(1, king) == 2  # the pig's holder: ranks only


def test_a_later_seat_answers_the_trick_greedily() -> None:
    # Third to a club trick, seat 2 may win it with A♣ or duck with 2♣; seat 3, last, is void
    # in clubs and holds the pig. Answering greedily, seat 3 drops the pig on whoever wins:
    # so winning costs seat 2 the pig, and ducking hands it to seat 1.
    rules = RuleSet(exposable="", must_lead_opening_card=False)
    hands = [
        "3C 4C 6C 7C 8C 9C 2D 3D 4D 5D 6D 7D 8D",
        "5C TC JC QC KC 9D TD JD QD KD AD 2H 3H",
        "AC 2C 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "QS 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
    ]
    rnd = Round.from_hands(hands, rules=rules, leader=0).play("3C").play("5C")
    b = of_state(rnd.engine_state)
    ace, two = 12, 0
    win, duck = trick_values(b, [ace, two])
    # Winning: the pig (-100), less the ace's relief (its rank, and the transformer still out).
    assert win < -50
    # Ducking: the pig goes to seat 1, a third of 100 against the others' mean.
    assert duck == pytest.approx(100 / 3)
