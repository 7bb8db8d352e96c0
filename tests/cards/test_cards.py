"""Cards, notation and card sets (docs/architecture.rst, "Layers"; RULES.md §1, §8)."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gongzhu import (
    ACE_OF_HEARTS,
    DECK,
    PIG,
    SHEEP,
    TRANSFORMER,
    Card,
    CardParseError,
    CardSet,
    GongzhuError,
    Hand,
    Rank,
    Suit,
    parse_cards,
)

ALL_CARDS = [Card.from_index(i) for i in range(52)]
SUIT_LETTERS = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}
SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
WHITE_SYMBOLS = {Suit.CLUBS: "♧", Suit.DIAMONDS: "♢", Suit.HEARTS: "♡", Suit.SPADES: "♤"}
RANK_TEXT = {r: str(int(r)) for r in Rank} | {
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}


def notations(card: Card) -> list[str]:
    """Every accepted spelling of a card (RULES.md §8 notation aliases)."""
    ranks = [RANK_TEXT[card.rank]] + (["T", "t"] if card.rank is Rank.TEN else [])
    suits = [
        SUIT_LETTERS[card.suit],
        SUIT_LETTERS[card.suit].lower(),
        SUIT_SYMBOLS[card.suit],
        WHITE_SYMBOLS[card.suit],
    ]
    out = []
    for r in ranks:
        for s in suits:
            out += [r + s, s + r, (r + s).lower(), (s + r).lower(), f" {r}{s} "]
    return out


# -- the 52 cards ----------------------------------------------------------------


def test_there_are_52_distinct_interned_cards() -> None:
    assert len(set(ALL_CARDS)) == 52
    assert len({id(c) for c in ALL_CARDS}) == 52
    assert list(DECK) == ALL_CARDS
    for suit in Suit:
        for rank in Rank:
            card = Card(suit, rank)
            assert card is Card(suit, rank)
            assert card is Card.from_index(card.index)


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda c: c.code)
def test_index_suit_rank_and_mask_agree(card: Card) -> None:
    assert card.index == card.suit * 13 + card.rank - 2
    assert card.mask == 1 << card.index
    assert (
        card.code
        == ("T" if card.rank is Rank.TEN else RANK_TEXT[card.rank]) + SUIT_LETTERS[card.suit]
    )
    assert card.symbol == str(card) == RANK_TEXT[card.rank] + SUIT_SYMBOLS[card.suit]
    assert repr(card) == f"Card({card.code!r})"
    assert eval(repr(card)) is card


def test_named_cards() -> None:
    # RULES.md §1: Q♠ pig, J♦ sheep, 10♣ transformer; A♥ doubles the hearts (§4).
    assert PIG is Card("QS")
    assert SHEEP is Card("JD")
    assert TRANSFORMER is Card("10C")
    assert ACE_OF_HEARTS is Card("AH")
    assert (TRANSFORMER.code, str(TRANSFORMER), TRANSFORMER.index) == ("TC", "10♣", 8)


def test_cards_order_by_suit_then_rank() -> None:
    shuffled = ALL_CARDS[1::2] + ALL_CARDS[::2]
    assert sorted(shuffled) == ALL_CARDS
    assert Card("2C") < Card("AC") < Card("2D") < Card("2H") < Card("2S") < Card("AS")
    assert Card("KH") <= Card("KH") <= Card("AH")
    assert Card("AH") > Card("KH") >= Card("KH")
    for suit in Suit:
        in_suit = [c for c in ALL_CARDS if c.suit is suit]
        assert [c.rank for c in in_suit] == sorted(Rank)


def test_comparing_a_card_with_something_else() -> None:
    assert Card("QS") != "QS"
    assert not Card("QS") == 51  # noqa: SIM201
    with pytest.raises(TypeError):
        _ = Card("QS") < 3  # type: ignore[operator]


def test_cards_hash_by_identity_and_work_as_keys() -> None:
    table = {card: card.index for card in ALL_CARDS}
    assert all(table[Card(c.code)] == c.index for c in ALL_CARDS)
    assert len({hash(c) for c in ALL_CARDS}) == 52


def test_cards_are_immutable() -> None:
    card = Card("QS")
    with pytest.raises(AttributeError):
        card.index = 3
    with pytest.raises(AttributeError):
        card.anything = 1
    with pytest.raises(AttributeError):
        del card.rank
    assert card.index == 49


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda c: c.code)
def test_pickle_and_copy_return_the_same_card(card: Card) -> None:
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert copy.deepcopy([card, {card: 1}])[0] is card


# -- notation -------------------------------------------------------------------------


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda c: c.code)
def test_every_notation_parses_to_the_card(card: Card) -> None:
    for text in notations(card):
        assert Card(text) is card, text
        assert Card.parse(text) is card, text
        assert parse_cards(text) == CardSet([card]), text
    # format → parse is a fixed point in both output forms
    assert Card(card.code) is card
    assert Card(str(card)) is card


def test_both_ten_spellings() -> None:
    assert Card("10C") is Card("TC") is Card("tc") is Card("♣10") is Card("♧T") is TRANSFORMER


def test_suit_and_rank_helpers() -> None:
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert [s.is_red for s in Suit] == [False, True, True, False]
    assert str(Suit.HEARTS) == "♥"
    assert Rank.TEN.symbol == "10"
    assert Rank.TEN.letter == "T"
    assert str(Rank.QUEEN) == "Q"
    for suit in Suit:
        assert CardSet.from_mask(suit.mask) == CardSet(c for c in ALL_CARDS if c.suit is suit)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("QS TC 7H", ["QS", "TC", "7H"], id="spaces"),
        pytest.param("QS, TC,7H", ["QS", "TC", "7H"], id="commas"),
        pytest.param("Q♠, 10♣, 7♥", ["QS", "TC", "7H"], id="symbols"),
        pytest.param("  qs\ttc\n7h  ", ["QS", "TC", "7H"], id="lowercase and odd space"),
        pytest.param("♠Q ♣10 ♥7", ["QS", "TC", "7H"], id="suit first"),
        pytest.param("Q♤ 10♧ 7♡ J♢", ["QS", "TC", "7H", "JD"], id="white suits"),
        pytest.param("", [], id="empty"),
        pytest.param("   ", [], id="only space"),
    ],
)
def test_parse_cards_accepts(text: str, expected: list[str]) -> None:
    assert parse_cards(text) == CardSet(Card(c) for c in expected)


def test_parse_cards_accepts_iterables_of_cards_and_text() -> None:
    assert parse_cards(["QS", TRANSFORMER, "7♥"]) == parse_cards("QS TC 7H")
    hand = parse_cards("QS")
    assert parse_cards(hand) is hand
    assert parse_cards(iter([PIG])) == hand


@pytest.mark.parametrize(
    ("bad", "token", "position"),
    [
        pytest.param("1X", "1X", 0, id="1X"),
        pytest.param("QQ", "QQ", 0, id="QQ"),
        pytest.param("QS 1X", "1X", 1, id="second token"),
        pytest.param("QS,,TC", "", 1, id="empty token between commas"),
        pytest.param("QS QS", "QS", 1, id="duplicate"),
        pytest.param("QS q♠", "q♠", 1, id="duplicate in another notation"),
        pytest.param("11H", "11H", 0, id="rank 11"),
        pytest.param("QSX", "QSX", 0, id="trailing junk"),
        pytest.param("10SS", "10SS", 0, id="too long"),
        pytest.param("ZZ", "ZZ", 0, id="no suit or rank"),
        pytest.param("1", "1", 0, id="one character"),
        pytest.param(["QS", 5], "5", 1, id="non-str in a list"),
    ],
)
def test_bad_input_raises_card_parse_error_with_token_and_position(
    bad: str | list[object], token: str, position: int
) -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards(bad)  # type: ignore[arg-type]
    error = info.value
    assert isinstance(error, ValueError)
    assert isinstance(error, GongzhuError)
    assert error.position == position
    assert error.token == token or error.token == repr(token) or token in error.token
    assert f"token {position + 1}" in str(error)


@pytest.mark.parametrize("bad", ["", "   ", "XX", "QQ", "1S", "QS TC"])
def test_card_parse_rejects_bad_single_cards(bad: str) -> None:
    with pytest.raises(CardParseError) as info:
        Card(bad)
    assert info.value.position is None


@pytest.mark.parametrize("bad", [5, None, 3.5, b"QS"])
def test_non_text_raises_card_parse_error(bad: object) -> None:
    with pytest.raises(CardParseError):
        parse_cards(bad)  # type: ignore[arg-type]
    with pytest.raises(CardParseError):
        Card.parse(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 52, True, "3", 1.0])
def test_from_index_range_checks(bad: object) -> None:
    with pytest.raises(CardParseError):
        Card.from_index(bad)  # type: ignore[arg-type]


def test_card_constructor_needs_a_suit_and_a_rank() -> None:
    with pytest.raises(CardParseError):
        Card(2, 12)  # type: ignore[call-overload]
    with pytest.raises(CardParseError):
        Card(Suit.SPADES)  # type: ignore[call-overload]


def test_long_bad_tokens_are_shortened_in_the_message() -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards("QS " + "X" * 100)
    assert len(str(info.value)) < 80


# -- CardSet -------------------------------------------------------------------------

card_lists = st.lists(st.sampled_from(ALL_CARDS), unique=True)
masks = st.integers(0, (1 << 52) - 1)


@given(card_lists, card_lists)
def test_cardset_algebra_matches_frozenset(a_list: list[Card], b_list: list[Card]) -> None:
    a, b = CardSet(a_list), CardSet(b_list)
    fa, fb = frozenset(a_list), frozenset(b_list)
    for got, want in (
        (a | b, fa | fb),
        (a & b, fa & fb),
        (a - b, fa - fb),
        (a ^ b, fa ^ fb),
        # the other operand may be any set of cards, on either side
        (a | fb, fa | fb),
        (fa | b, fa | fb),
        (fa - b, fa - fb),
        (fa & b, fa & fb),
        (fa ^ b, fa ^ fb),
    ):
        assert isinstance(got, CardSet)
        assert got == want
        assert frozenset(got) == want
    assert (a <= b) == (fa <= fb)
    assert (a < b) == (fa < fb)
    assert (a >= b) == (fa >= fb)
    assert (a > b) == (fa > fb)
    assert (a == b) == (fa == fb)
    assert (a != b) == (fa != fb)
    assert (a <= fb) == (fa <= fb)
    assert a.isdisjoint(b) == fa.isdisjoint(fb)
    assert a.isdisjoint(b_list) == fa.isdisjoint(fb)
    assert len(a) == len(fa)
    assert bool(a) == bool(fa)
    assert all((c in a) == (c in fa) for c in ALL_CARDS)
    assert list(a) == sorted(fa)
    assert a == fa
    assert fa == a


@given(card_lists)
def test_equal_sets_hash_equal_even_across_types(cards: list[Card]) -> None:
    a = CardSet(cards)
    assert hash(a) == hash(CardSet(reversed(cards))) == hash(frozenset(cards))
    assert {frozenset(cards): "x"}[a] == "x"
    assert {a: "y"}[frozenset(cards)] == "y"


@given(masks)
def test_from_mask_round_trips(mask: int) -> None:
    cs = CardSet.from_mask(mask)
    assert cs.mask == mask
    assert CardSet(list(cs)) == cs
    assert len(cs) == bin(mask).count("1")
    assert all(cs.mask >> c.index & 1 for c in cs)


@given(masks)
def test_str_repr_and_code_round_trip(mask: int) -> None:
    cs = CardSet.from_mask(mask)
    assert parse_cards(str(cs)) == cs
    assert parse_cards(cs.code) == cs
    assert eval(repr(cs), {"CardSet": lambda text: parse_cards(text)}) == cs
    assert repr(cs) == f"CardSet({cs.code!r})"
    assert pickle.loads(pickle.dumps(cs)) == cs
    assert copy.deepcopy(cs) == cs


@pytest.mark.parametrize("bad", [-1, 1 << 52, True, 1.0, "7", None])
def test_from_mask_range_checks(bad: object) -> None:
    with pytest.raises(CardParseError):
        CardSet.from_mask(bad)  # type: ignore[arg-type]


def test_from_mask_bounds_are_inclusive() -> None:
    assert CardSet.from_mask(0) == CardSet()
    assert CardSet.from_mask((1 << 52) - 1) == DECK
    assert len(DECK) == 52


def test_cardset_is_immutable() -> None:
    cs = parse_cards("QS TC")
    with pytest.raises(AttributeError):
        cs.mask = 0
    with pytest.raises(AttributeError):
        del cs.mask
    with pytest.raises(AttributeError):
        cs.add(PIG)  # type: ignore[attr-defined]
    assert cs == parse_cards("QS TC")


def test_cardset_holds_only_cards() -> None:
    with pytest.raises(CardParseError):
        CardSet(["QS"])  # type: ignore[list-item]
    with pytest.raises(CardParseError):
        CardSet([PIG, 3])  # type: ignore[list-item]


def test_cardset_indexing_suits_and_text() -> None:
    hand: Hand = parse_cards("AH KH QS JD")
    assert hand[0] is SHEEP
    assert hand[-1] is PIG
    assert hand.cards == (SHEEP, Card("KH"), ACE_OF_HEARTS, PIG)
    assert hand.of_suit(Suit.HEARTS) == parse_cards("KH AH")
    assert hand.of_suit(Suit.CLUBS) == CardSet()
    assert str(hand) == "J♦ K♥ A♥ Q♠"
    assert hand.code == "JD KH AH QS"
    assert str(CardSet()) == ""
    assert repr(CardSet()) == "CardSet('')"
    assert "QS" not in hand  # membership is for Card objects
    assert PIG in hand


def test_cardset_operators_accept_text() -> None:
    hand = parse_cards("QS TC 7H")
    assert hand - "QS" == parse_cards("TC 7H")
    assert hand | "JD" == parse_cards("QS TC 7H JD")
    assert hand & "QS JD" == parse_cards("QS")


def _as_list(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


def test_iteration_follows_index_order_whatever_the_input_order() -> None:
    assert _as_list(parse_cards("AS 2C KH 2D")) == ["2C", "2D", "KH", "AS"]
