"""What a seat may see: ``Round.view(seat)`` and ``unseen()`` at every step of random playouts.

A view holds the seat's own hand and public facts only: played cards, captured
point cards (they lie face up: seeds/000 §03, 004), face-up exposures
(000 §06) and cards shown by a claim (002 glossary 摊牌). Face-down
declarations of other seats (004 "Chyťte prase") are visible only as counts.
"""

from __future__ import annotations

import re
from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st
from test_round_laws import fresh_rounds, playout, union

from gongzhu import Card, CardSet, PlayerView, Round, RuleSet, Trick
from gongzhu.testing import rounds_in_progress

_CODE = re.compile(r"(?<![0-9A-Z])(10|[2-9TJQKA])([CDHS♣♦♥♠])(?![A-Za-z0-9])")


_TOKENS: dict[tuple[str, str], int] = {}


def _token_mask(rank: str, suit: str) -> int:
    mask = _TOKENS.get((rank, suit))
    if mask is None:
        mask = _TOKENS[rank, suit] = Card(rank + suit).mask
    return mask


def cards_in(value: Any) -> int:
    """The mask of every card a value holds, found structurally (recursively)."""
    if isinstance(value, Card):
        return value.mask
    if isinstance(value, CardSet):
        return value.mask
    if isinstance(value, Trick):
        return CardSet(value.cards).mask
    if isinstance(value, (tuple, list)):
        mask = 0
        for v in value:
            mask |= cards_in(v)
        return mask
    return 0


def cards_named_in(text: str) -> int:
    """The mask of every card named in a text (codes like ``QS`` or symbols like ``Q♠``)."""
    mask = 0
    for rank, suit in _CODE.findall(text):
        mask |= _token_mask(rank, suit)
    return mask


def visible_cards(view: PlayerView) -> CardSet:
    """All cards mentioned anywhere in a view: its fields, properties, strs and repr."""
    mask = cards_named_in(repr(view))  # the rule set is repr=False
    for field in attrs.fields(PlayerView):
        if field.name == "rules":  # public, and names cards (opening card, exposable)
            continue
        value = getattr(view, field.name)
        mask |= cards_in(value) | cards_named_in(str(value))
    mask |= view.exposed.mask | view.played.mask
    return CardSet.from_mask(mask)


def secret_from(rnd: Round, seat: int) -> CardSet:
    """Other seats' unplayed cards, except those exposed face up or shown by a claim."""
    others = union([h for s, h in enumerate(rnd.hands) if s != seat])
    return others - rnd.exposed - rnd.shown


def view_laws(rnd: Round) -> None:
    deck = rnd.rules.deck
    played = union([CardSet(t.cards) for t in (*rnd.tricks, rnd.current_trick)])
    for seat in range(rnd.players):
        view = rnd.view(seat)
        leaked = visible_cards(view) & secret_from(rnd, seat)
        assert not leaked, f"seat {seat} sees {leaked}"
        assert view.hand == rnd.hands[seat]
        # Face-down declarations: own ones known, others' only counted.
        initial = [CardSet(cards) for cards in rnd.dealt]
        assert view.own_face_down == rnd.face_down & initial[seat]
        assert view.face_down_counts == tuple(len(rnd.face_down & h) for h in initial)
        assert view.exposed == rnd.exposed
        # Legal plays only for the seat to act.
        if seat == rnd.to_act:
            assert view.legal_plays == rnd.legal_plays
        else:
            assert view.legal_plays == CardSet()
        assert view.played == played
        assert view.hand_sizes == tuple(len(h) for h in rnd.hands)
        assert view.captured_points == tuple(c & _POINTS for c in rnd.captured)
        if not rnd.is_over:
            expected = deck - rnd.hands[seat] - played - rnd.exposed - rnd.shown
            assert rnd.unseen(seat) == expected
            assert view.unseen() == expected
            for suit_card in ("2S", "2H"):
                suit = Card(suit_card).suit
                assert view.unseen_in(suit) == expected.of_suit(suit)


_POINTS = CardSet(c for c in CardSet.from_mask((1 << 52) - 1) if c.suit.name == "HEARTS") | (
    CardSet([Card("QS"), Card("JD"), Card("TC")])
)


@settings(max_examples=20)
@given(fresh_rounds(), st.data())
def test_a_view_never_shows_another_seats_unplayed_cards_at_any_step(
    start: tuple[Round, bool], data: st.DataObject
) -> None:
    rnd, _ = start
    playout(data, rnd, view_laws)


@settings(max_examples=30)
@given(rounds_in_progress(rules=RuleSet.preset("catch-the-pig")))
def test_face_down_exposures_of_other_seats_are_hidden(rnd: Round) -> None:
    # seeds/004 "Chyťte prase": a face-down card is declared but hidden until played.
    for seat in range(rnd.players):
        view = rnd.view(seat)
        others_down = rnd.face_down - rnd.hands[seat] - view.played
        assert not visible_cards(view) & others_down


def test_a_claim_shows_the_claimers_hand_to_everyone() -> None:
    # seeds/002 glossary: 摊牌 "обнажить оставшуюся руку".
    hands = [
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    ]
    rnd = Round.from_hands(hands, rules=RuleSet(claims=True)).pass_exposure().claim()
    for seat in (1, 2, 3):
        assert rnd.view(seat).shown == rnd.hands[0]
        assert rnd.hands[0] <= visible_cards(rnd.view(seat))
        assert not rnd.unseen(seat) & rnd.hands[0]


def test_a_face_up_exposure_is_public_and_a_face_down_one_is_a_count() -> None:
    hands = [
        "2S 3S 4S 5S 2C 3C 4C 5C 2D 3D 4D 5D 2H",
        "QS 6S 7S 6C 7C 8C 9C 3H 4H 5H 6H 7H 8H",
        "KS AS TC JC 6D 7D 8D 9D TD JD 9H TH JH",
        "8S 9S TS JS QC KC AC QD KD AD QH KH AH",
    ]
    rnd = Round.from_hands(hands, rules=RuleSet.preset("catch-the-pig"))
    rnd = rnd.expose("QS", seat=1, face_down=True).expose("AH", seat=3)
    # Simultaneous order is sealed until every seat has decided (RULES.md §9.2).
    assert rnd.view(0).exposures[3] == CardSet()
    assert rnd.view(0).face_down_counts == (0, 0, 0, 0)
    assert Card("AH") in rnd.unseen(0)
    rnd = rnd.pass_exposure()
    view = rnd.view(0)
    assert view.exposures[3] == CardSet([Card("AH")])
    assert view.face_down_counts == (0, 1, 0, 0)
    assert view.own_face_down == CardSet()
    assert Card("QS") not in visible_cards(view)
    assert Card("QS") in rnd.unseen(0)
    assert Card("AH") not in rnd.unseen(0)
    assert rnd.view(1).own_face_down == CardSet([Card("QS")])
