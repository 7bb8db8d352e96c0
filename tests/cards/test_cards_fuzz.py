"""Fuzzing the card notation: hostile text and objects never break the card parsers.

Every entry point that turns outside data into cards — ``Card(...)``,
``Card.parse``, ``Card.from_index``, ``parse_cards``, ``CardSet(...)``,
``CardSet.from_mask`` — either returns the right thing or raises
:class:`~gongzhu.CardParseError`, quickly, with a short message.
The notation is the one documented in ``gongzhu.cards`` (docs/api/cards.rst).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from fuzz_garbage import HUGE, any_int, any_text, garbage, outcome, timed
from gongzhu import DECK, Card, CardParseError, CardSet, Rank, Suit, parse_cards

# The documented spellings, written out independently of the parser:
# rank then suit or suit then rank; ASCII letters in any case.
_RANKS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "T": 10,
          "J": 11, "Q": 12, "K": 13, "A": 14}  # fmt: skip
_SUITS = {"C": 0, "♣": 0, "♧": 0, "D": 1, "♦": 1, "♢": 1, "H": 2, "♥": 2, "♡": 2,
          "S": 3, "♠": 3, "♤": 3}  # fmt: skip
SPELLINGS = {
    **{r + s: (_SUITS[s], _RANKS[r]) for r in _RANKS for s in _SUITS},
    **{s + r: (_SUITS[s], _RANKS[r]) for r in _RANKS for s in _SUITS},
}


def _documented_card(text: str) -> Card | None:
    """The card ``text`` spells under the documented notation, or None."""
    key = "".join(ch.upper() if ch.isascii() else ch for ch in text.strip())
    hit = SPELLINGS.get(key)
    return None if hit is None else Card(Suit(hit[0]), Rank(hit[1]))


spellings = st.sampled_from(sorted(SPELLINGS)).flatmap(
    lambda s: st.sampled_from([s, s.lower(), s.swapcase(), f"  {s}\t", f"\n{s} "])
)


@given(st.one_of(any_text, spellings))
@example("Q\u017f")  # LATIN SMALL LETTER LONG S upper-cases to "S"
@example("\u212aS")  # KELVIN SIGN, not a K
@example("１０C")  # full-width digits are not ranks
def test_card_parse_accepts_exactly_the_documented_spellings(text: str) -> None:
    expected = _documented_card(text)
    got = outcome(lambda: Card.parse(text), CardParseError)
    if expected is None:
        assert isinstance(got, CardParseError), f"{text!r} parsed as {got!r}"
    else:
        assert got is expected
        assert Card(text) is expected


@given(garbage)
def test_card_from_any_object_is_a_card_or_a_parse_error(value: object) -> None:
    for make in (lambda: Card(value), lambda: Card.parse(value), lambda: Card(value, value)):  # type: ignore[call-overload,arg-type]
        got = outcome(make, CardParseError)
        assert isinstance(got, (Card, CardParseError))


@given(st.one_of(any_int, garbage))
@example(True)
@example(False)
@example(HUGE)
@example(52)
def test_from_index_accepts_exactly_the_ints_0_to_51(value: object) -> None:
    valid = type(value) is int and 0 <= value < 52
    got = outcome(lambda: Card.from_index(value), CardParseError)  # type: ignore[arg-type]
    if valid:
        assert isinstance(got, Card)
        assert got.index == value
    else:
        assert isinstance(got, CardParseError)


@given(st.one_of(any_int, st.integers(0, 2**52 - 1), garbage))
@example(True)
@example(2**52)
@example(-HUGE)
def test_from_mask_accepts_exactly_the_52_bit_ints(value: object) -> None:
    valid = type(value) is int and 0 <= value < 2**52
    got = outcome(lambda: CardSet.from_mask(value), CardParseError)  # type: ignore[arg-type]
    if valid:
        assert isinstance(got, CardSet)
        assert got.mask == value
    else:
        assert isinstance(got, CardParseError)


@given(garbage)
@example(None)
@example(5)
@example(range(10**12))
def test_cardset_of_anything_is_a_cardset_or_a_parse_error(value: object) -> None:
    got = outcome(lambda: CardSet(value), CardParseError)  # type: ignore[arg-type]
    if isinstance(got, CardSet):
        # Accepted only when every element is a Card; the set holds exactly those.
        assert all(isinstance(c, Card) for c in value)  # type: ignore[attr-defined]
        assert set(got) == set(value)  # type: ignore[call-overload]


@given(st.one_of(garbage, st.lists(st.one_of(spellings, any_text), max_size=8)))
def test_parse_cards_of_anything_is_a_cardset_or_a_parse_error(value: object) -> None:
    got = outcome(lambda: parse_cards(value), CardParseError)  # type: ignore[arg-type]
    assert isinstance(got, (CardSet, CardParseError))


separators = st.sampled_from([" ", ",", ", ", " ,", "\t", "\n ", "  ,  ", "\u3000"])


@given(
    st.lists(st.sampled_from(sorted(SPELLINGS)), max_size=20),
    st.lists(separators, min_size=20, max_size=20),
)
def test_parse_cards_reads_a_separated_list_as_its_cards(
    tokens: list[str], seps: list[str]
) -> None:
    # Separators go between tokens: a trailing comma is an (empty) token of its own.
    text = "".join(sep + tok for sep, tok in zip(["", *seps], tokens, strict=False))
    cards = [_documented_card(tok) for tok in tokens]
    got = outcome(lambda: parse_cards(text), CardParseError)
    if len(set(cards)) == len(cards):
        assert got == CardSet(c for c in cards if c is not None)
    else:
        assert isinstance(got, CardParseError)
        assert "duplicate" in str(got)


@given(any_text)
def test_parse_cards_either_fails_or_finds_one_card_per_token(text: str) -> None:
    got = outcome(lambda: parse_cards(text), CardParseError)
    if isinstance(got, CardSet):
        tokens = [t for t in re.split(r"[\s,]+", text) if t]
        assert len(got) == len(tokens)
        assert {_documented_card(t) for t in tokens} == set(got)


_MB = 1_000_000


@pytest.mark.parametrize(
    "text",
    [
        "x" * _MB,
        "QS " * (_MB // 3),
        " " * _MB,
        "," * _MB,
        ", " * (_MB // 2),
        "A" + " " * _MB + "B",
        "Q" + "\u3000" * _MB + "S",
        "\x00" * _MB,
        "♠" * _MB,
        "10" * (_MB // 2),
        DECK.code + " " * _MB,
        " ".join(["2C"] + ["\u200b"] * (_MB // 2)),
        "2C" + ",  " * (_MB // 3),
    ],
    ids=lambda t: repr(t[:8]) + f"..{len(t)}",
)
def test_megabyte_text_is_handled_in_well_under_a_second(text: str) -> None:
    got = timed(lambda: parse_cards(text), limit=1.0)
    assert isinstance(got, (CardSet, CardParseError))
    timed(lambda: outcome(lambda: Card.parse(text), CardParseError), limit=1.0)


@pytest.mark.parametrize(
    "value",
    [
        [b"x" * _MB],
        ["x" * _MB],
        [HUGE],
        ("QS", "x" * _MB),
        range(10**15),
        iter(range(10**15)),
        {"QS": 1, "x" * _MB: 2},
    ],
    ids=["bytes-token", "long-token", "huge-int-token", "tuple", "range", "iterator", "dict"],
)
def test_huge_iterables_fail_fast_with_a_short_message(value: object) -> None:
    got = timed(lambda: parse_cards(value), limit=1.0)  # type: ignore[arg-type]
    assert isinstance(got, CardParseError)
    got = timed(lambda: CardSet(value), limit=1.0)  # type: ignore[arg-type]
    assert isinstance(got, CardParseError)
