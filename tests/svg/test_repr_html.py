"""The Jupyter reprs (``_repr_html_``): well-formed HTML, red suits, no hidden cards.

Card, CardSet, Trick and Round render the whole object; DealScore and
PlayerScore render the score sheet of seeds/001 (RULES.md §3); PlayerView must
show only what its seat may know (RULES.md §1: captured point cards are
public, seeds/000 §03; exposed cards are public, RULES.md §4).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import (
    DECK,
    Card,
    CardSet,
    Round,
    RuleSet,
    Suit,
    deal,
    parse_cards,
    score,
)
from gongzhu.testing import finished_rounds, rounds_in_progress

# Elements HTML allows without a closing tag.
_VOID = {"br", "hr", "img", "input", "meta", "link", "col", "wbr"}
_CARD_TEXT = re.compile(r">(10|[2-9JQKA])([♣♦♥♠])<")
_COLOURED = re.compile(r'<span style="color:(#[0-9a-fA-F]{3,6})[^"]*">(10|[2-9JQKA])([♣♦♥♠])<')


class _Balance(HTMLParser):
    """Records tag nesting errors: every opened element closed in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags += 1
        if tag not in _VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def assert_well_formed(html: str) -> None:
    assert isinstance(html, str)
    checker = _Balance()
    checker.feed(html)
    checker.close()
    assert checker.tags > 0, "no markup at all"
    assert not checker.errors, checker.errors
    assert not checker.stack, f"unclosed: {checker.stack}"


def cards_in(html: str) -> CardSet:
    """Every card rendered in the HTML (each card renders as its symbol between tags)."""
    return CardSet(Card(rank + suit) for rank, suit in _CARD_TEXT.findall(html))


def _rgb(colour: str) -> tuple[int, int, int]:
    digits = colour[1:]
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    r, g, b = (int(digits[i : i + 2], 16) for i in (0, 2, 4))
    return r, g, b


# -- cards ----------------------------------------------------------------------------------


def test_every_card_renders_well_formed_html_with_its_symbol() -> None:
    for card in DECK:
        html = card._repr_html_()
        assert_well_formed(html)
        assert cards_in(html) == CardSet([card])


def test_hearts_and_diamonds_are_red_and_clubs_and_spades_are_not() -> None:
    colours: dict[Suit, set[str]] = {suit: set() for suit in Suit}
    for card in DECK:
        [(colour, _rank, _suit)] = _COLOURED.findall(card._repr_html_())
        colours[card.suit].add(colour.lower())
    for suit in Suit:
        assert len(colours[suit]) == 1, f"{suit.name} is drawn in several colours"
    for suit in (Suit.HEARTS, Suit.DIAMONDS):
        r, g, b = _rgb(next(iter(colours[suit])))
        assert r > 2 * max(g, b), f"{suit.name} should be red, got {colours[suit]}"
    for suit in (Suit.CLUBS, Suit.SPADES):
        r, g, b = _rgb(next(iter(colours[suit])))
        assert not r > 2 * max(g, b), f"{suit.name} should not be red, got {colours[suit]}"


@given(st.sets(st.sampled_from(tuple(DECK))))
@settings(max_examples=50)
def test_a_card_set_renders_exactly_its_cards(cards: set[Card]) -> None:
    cs = CardSet(cards)
    html = cs._repr_html_()
    assert_well_formed(html)
    assert cards_in(html) == cs


# -- tricks and rounds -----------------------------------------------------------------------


def test_a_trick_renders_each_seat_and_card_in_play_order() -> None:
    # seeds/000 §07: A♣ led, 10♣ follows, Q♠ and J♦ discarded.
    rnd = Round.from_hands(
        [
            "AC 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
            "TC AD 2C 3C 4C 5C 6C 7C 8C 9C JC QC KC",
            "QS AH 2D 3D 4D 5D 6D 7D 8D 9D TD QD KD",
            "JD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        ],
        leader=0,
    ).pass_exposure()
    for code in ("AC", "TC", "QS", "JD"):
        rnd = rnd.play(code)
    [trick] = rnd.tricks
    html = trick._repr_html_()
    assert_well_formed(html)
    assert [f"{r}{s}" for r, s in _CARD_TEXT.findall(html)] == ["A♣", "10♣", "Q♠", "J♦"]
    assert [int(s) for s in re.findall(r"seat (\d+)", html)] == [0, 1, 2, 3]


@given(rounds_in_progress(rules=RuleSet()))
@settings(max_examples=25)
def test_a_round_renders_every_hand_and_every_capture(rnd: Round) -> None:
    html = rnd._repr_html_()
    assert_well_formed(html)
    on_table = CardSet(rnd.current_trick.cards)
    everything = CardSet.from_mask(
        sum(h.mask for h in rnd.hands) | sum(c.mask for c in rnd.captured) | on_table.mask
    )
    assert cards_in(html) == everything


# -- score sheets ---------------------------------------------------------------------------


def _cells(html: str, label: str) -> list[str]:
    row = re.search(rf"<tr><th>{re.escape(label)}</th>(.*?)</tr>", html)
    assert row is not None, f"no {label!r} row"
    return re.findall(r"<td>(.*?)</td>", row.group(1))


def test_the_player_sheet_html_has_the_seven_lines_of_the_text_sheet() -> None:
    # seeds/000 §07: 10♣ Q♠ 7♥ with 10♣ and Q♠ exposed = 4 × (−200 − 10).
    player = score("10C QS 7H", exposed="QS TC")[0]
    html = player._repr_html_()
    assert_well_formed(html)
    for label, value in player.lines():
        assert _cells(html, label) == [value]
    assert _cells(html, "⑥ deal") == ["-840"]
    assert cards_in(html) == parse_cards("10C QS 7H")


@given(finished_rounds(rules=RuleSet()))
@settings(max_examples=20)
def test_the_deal_table_shows_each_seats_cards_and_total_in_its_column(rnd: Round) -> None:
    ds = rnd.score()
    html = ds._repr_html_()
    assert_well_formed(html)
    assert _cells(html, "⑥ deal") == [str(t) for t in ds.totals]
    pile_cells = _cells(html, "cards")
    assert [cards_in(cell) for cell in pile_cells] == list(ds.captures)


def test_the_deal_table_gets_a_bonus_row_only_when_someone_has_a_bonus() -> None:
    # seeds/002 v7 (RULES.md §7): +10 per trick won after taking Q♦.
    rules = RuleSet(queen_of_diamonds_bonus=10)
    with_bonus = score(["QD", "2C"], rules=rules, queen_bonus_tricks=(3, 0))
    without = score(["QD", "2C"], rules=rules, queen_bonus_tricks=(0, 0))
    assert _cells(with_bonus._repr_html_(), "Q♦ bonus") == ["+30", ""]
    assert "Q♦ bonus" not in without._repr_html_()


# -- player views: nothing hidden --------------------------------------------------------------


def _may_know(rnd: Round, seat: int) -> CardSet:
    """What ``seat`` may see: its hand, played cards, face-up exposures, claim-shown cards."""
    played = CardSet(rnd.current_trick.cards)
    for trick in rnd.tricks:
        played |= CardSet(trick.cards)
    return rnd.hands[seat] | played | rnd.exposed | rnd.shown


@given(rounds_in_progress(), st.data())
@settings(max_examples=40)
def test_a_view_never_renders_a_card_its_seat_may_not_know(rnd: Round, data: st.DataObject) -> None:
    seat = data.draw(st.integers(0, rnd.players - 1))
    html = rnd.view(seat)._repr_html_()
    assert_well_formed(html)
    shown = cards_in(html)
    assert shown <= _may_know(rnd, seat), f"leaked: {shown - _may_know(rnd, seat)}"
    assert rnd.hands[seat] <= shown


def test_a_view_hides_other_seats_face_down_declarations() -> None:
    # seeds/004 "Chyťte prase": a face-down card is declared but hidden until played.
    rules = RuleSet.preset("catch-the-pig")
    rnd = deal(rules=rules, seed=1)
    holder = next(s for s, h in enumerate(rnd.hands) if Card("QS") in h)
    rnd = rnd.expose("QS", seat=holder, face_down=True).pass_exposure()  # unsealed (§9.2)
    other = (holder + 1) % rnd.players
    assert Card("QS") not in cards_in(rnd.view(other)._repr_html_())
    assert "1 face down" in rnd.view(other)._repr_html_()


def test_a_view_underlines_exactly_the_legal_plays() -> None:
    rnd = deal(seed=1)
    for seat in range(rnd.players):
        html = rnd.view(seat)._repr_html_()
        underlined = cards_in("".join(re.findall(r"<u>(.*?)</u>", html)))
        expected = rnd.legal_plays if seat == rnd.to_act else CardSet()
        assert underlined == expected


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_finished_view_still_renders(seed: int) -> None:
    rnd = deal(seed=seed).pass_exposure()
    while not rnd.is_over:
        rnd = rnd.play(rnd.legal_plays[0])
    assert_well_formed(rnd.view(0)._repr_html_())
