"""Pictures: well-formed SVG, escaped text, and a player's view that draws nothing hidden."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import (
    DECK,
    PIG,
    SHEEP,
    TRANSFORMER,
    Card,
    CardSet,
    Round,
    RuleOfThumbStrategy,
    RuleSet,
    deal,
    play_deal,
    score,
    svg,
)
from gongzhu.i18n import translator
from gongzhu.testing import finished_rounds, rounds_in_progress

NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def drawn(root: ET.Element) -> list[str]:
    """The card codes drawn face up, in drawing order."""
    return [g.get("data-card", "") for g in root.iter(f"{NS}g") if g.get("class") == "card"]


def backs(root: ET.Element) -> int:
    return sum(1 for g in root.iter(f"{NS}g") if g.get("class") == "back")


def test_every_class_shows_itself_as_a_picture() -> None:
    # Jupyter calls _repr_svg_; each of the five classes answers with a whole SVG document.
    rnd = play_deal([RuleOfThumbStrategy()] * 4, seed=5)
    for obj in (PIG, rnd.hands[0], rnd.tricks[0], rnd.view(0), rnd.score(), DECK):
        picture = obj._repr_svg_()
        assert picture is not None
        parse(picture)


def test_a_hand_draws_each_card_once_in_either_layout() -> None:
    hand = deal(seed=1).hands[2]
    for layout in ("fan", "rows"):
        root = parse(svg.cards(hand, layout=layout))
        assert sorted(drawn(root)) == sorted(c.code for c in hand)
    with pytest.raises(ValueError, match="layout"):
        svg.cards(hand, layout="circle")


def test_exposed_and_legal_cards_are_marked() -> None:
    hand = CardSet([Card("QS"), Card("2S"), Card("AH")])
    plain = svg.cards(hand)
    marked = svg.cards(hand, exposed=[PIG], legal=[Card("2S")])
    assert plain.count('fill="#f4a300"') == 0
    assert marked.count('fill="#f4a300"') == 1  # one exposure band
    assert marked.count('fill="#1b7f3b"') == 1  # one legal card underlined
    assert marked.count('fill="#eeeeee"') == 2  # the two others dimmed


def test_a_trick_frames_its_winner_and_names_the_seats() -> None:
    rnd = play_deal([RuleOfThumbStrategy()] * 4, seed=2)
    trick = rnd.tricks[0]
    names = ("Ann", "Bob", "Cid", "Dee")
    picture = svg.trick(trick, names=names)
    root = parse(picture)
    assert sorted(drawn(root)) == sorted(c.code for c in trick.cards)
    assert picture.count('stroke="#f4a300"') == 1
    texts = [t.text for t in root.iter(f"{NS}text")]
    for name in names:
        assert any(text and text.startswith(name) for text in texts)


def test_inserted_text_is_escaped() -> None:
    rnd = play_deal([RuleOfThumbStrategy()] * 4, seed=2)
    hostile = ("<script>alert(1)</script>", "A & B", 'x" onload="y', "\x1b[2J\u202e\x00")
    for picture in (
        svg.trick(rnd.tricks[0], names=hostile),
        svg.view(rnd.view(1), names=hostile),
        svg.sheet(rnd.score(), names=hostile),
    ):
        root = parse(picture)  # still well-formed XML
        assert "<script" not in picture
        assert "\x1b" not in picture
        assert "\x00" not in picture
        assert "\u202e" not in picture
        assert all(el.tag != f"{NS}script" for el in root.iter())
        assert not any(k.startswith("onload") for el in root.iter() for k in el.attrib)


def test_the_sheet_shows_every_line_of_every_seat() -> None:
    # seeds/000 §07: 10♣, Q♠ and 7♥ with 10♣ and Q♠ exposed: 4 × (−200 − 10) = −840.
    ds = score(["QS TC 7H", "AC JD"], exposed="QS TC")
    root = parse(svg.sheet(ds))
    texts = [t.text for t in root.iter(f"{NS}text")]
    for label, value in ds[0].lines():
        assert label in texts
        assert value in texts
    assert "-840" in texts
    assert "100" in texts
    zh = [t.text for t in parse(svg.sheet(ds, lang="zh")).iter(f"{NS}text")]
    assert "⑥ 本局" in zh


def _known(view: object) -> set[str]:
    v = view
    cards = set(v.hand) | set(v.exposed) | set(v.played) | set(v.shown)  # type: ignore[attr-defined]
    return {c.code for c in cards}


@settings(max_examples=40, deadline=None)
@given(st.one_of(rounds_in_progress(), finished_rounds()), st.integers(0, 4))
def test_a_views_picture_draws_only_what_the_seat_knows(rnd: Round, seat: int) -> None:
    seat %= rnd.players
    v = rnd.view(seat)
    root = parse(svg.view(v))
    faces = drawn(root)
    assert set(faces) <= _known(v)
    # Other seats' face-down declarations are drawn as backs, one each, and nothing more.
    hidden = sum(n for s, n in enumerate(v.face_down_counts) if s != seat)
    assert backs(root) == hidden
    # The seat's own hand is all there.
    assert {c.code for c in v.hand} <= set(faces)


def test_face_down_declarations_are_backs_to_the_others() -> None:
    rules = RuleSet.preset("catch-the-pig")
    rnd = next(r for r in (deal(rules=rules, seed=s) for s in range(100)) if PIG in r.hands[1])
    # Sealed until every seat has decided (RULES.md §9.2), then a back to the others.
    rnd = rnd.expose("QS", seat=1, face_down=True).pass_exposure()
    other = parse(svg.view(rnd.view(0)))
    assert "QS" not in drawn(other)
    assert backs(other) == 1
    own = svg.view(rnd.view(1))
    assert "QS" in drawn(parse(own))
    assert backs(parse(own)) == 0


def _nicknames(picture: str) -> list[ET.Element]:
    return [t for t in parse(picture).iter(f"{NS}text") if t.get("class") == "nick"]


@pytest.mark.parametrize("lang", ["en", "zh", "ru", "uk", "cs"])
def test_card_nicknames_are_legible_or_left_out(lang: str) -> None:
    # Review item B13: the nickname was drawn at 8 units, about 5 px on the table's cards.
    # Now at least 12 units (9 px on the 48 px card of a phone's hand), up the left edge
    # below the corner index; a nickname that cannot fit at that size is not drawn at all.
    t = translator(lang)
    drawn_names = {}
    for c in (PIG, SHEEP, TRANSFORMER):
        picture = svg.card(c, lang=lang)
        nick = _nicknames(picture)
        assert len(nick) <= 1
        if not nick:
            continue
        text = nick[0].text or ""
        drawn_names[c] = text
        assert text == (t.nickname(c) or "").removeprefix("the ")
        size = float(nick[0].get("font-size", "0"))
        assert size >= 12
        # It runs up from the card's bottom edge and stops under the corner index (y 35).
        x, y = float(nick[0].get("x", "0")), float(nick[0].get("y", "0"))
        assert nick[0].get("transform") == f"rotate(-90 {x:g} {y:g})"
        assert y <= 2 + svg.CARD_H - 2
        assert y - svg._text_width(text, size) >= 2 + 33
        assert 2 + size * 0.88 <= x <= 2 + 18  # clear of the edge and of the big suit
        # Shown small (the plates, the last trick), the single card drops it.
        assert "@media (max-width: 43.5px)" in picture
        assert ".nick { display: none }" in picture
    assert svg.card(Card("AH"), lang=lang).count("<style>") == 0
    # Each language names the pig and the sheep; the transformer where it fits (变压器).
    assert {PIG, SHEEP} <= set(drawn_names), drawn_names
    assert (TRANSFORMER in drawn_names) == (lang == "zh")
    # A hand's picture draws the same legible nicknames.
    hand = svg.cards([PIG, SHEEP, TRANSFORMER, Card("2C")], lang=lang)
    assert {n.text for n in _nicknames(hand)} == set(drawn_names.values())
    assert all(float(n.get("font-size", "0")) >= 12 for n in _nicknames(hand))
