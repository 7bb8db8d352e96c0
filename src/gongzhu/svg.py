"""Pictures as SVG text: cards, hands, tricks, a player's view and the score sheet.

No dependency: each function returns a complete ``<svg>`` document as a
string, every piece of text inserted escaped. Jupyter shows the library's
objects with these pictures (``Card``, ``CardSet``, ``Trick``, ``PlayerView``
and ``DealScore`` have ``_repr_svg_``).

>>> from gongzhu import PIG, deal, score
>>> picture = card(PIG)
>>> picture.startswith("<svg") and "Q" in picture and "♠" in picture
True
>>> hand = cards(deal(seed=1).hands[0], layout="rows")
>>> hand.count('class="card"')
13
>>> "猪" in card(PIG, lang="zh")
True
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Sequence
from itertools import islice
from typing import Final, NoReturn

from gongzhu._base.display import register
from gongzhu._base.text import brief
from gongzhu._base.totals import running_totals
from gongzhu.cards import Card, CardSet, Suit
from gongzhu.errors import CardParseError, DealError, GongzhuError, ProtocolError
from gongzhu.i18n import LanguageError, Translator, translator
from gongzhu.scoring import DealScore
from gongzhu.trick import Trick
from gongzhu.view import PlayerView

__all__ = ["back", "card", "cards", "sheet", "trick", "view"]

CARD_W: Final = 60
CARD_H: Final = 84
_RED: Final = "#c1121f"
_BLACK: Final = "#111111"
_FELT: Final = "#2f6b45"
_MARK: Final = "#f4a300"
_FONT: Final = 'font-family="DejaVu Sans, Noto Sans CJK SC, Arial, sans-serif"'
_SPECIAL: Final = frozenset({"QS", "JD", "TC"})
_NICK_SIZES: Final = (13, 12)
"""The nickname's font sizes, tried in turn (card units: a card is 60 wide). 12 is the least
that stays legible, about 9 px on the 48 px card of a phone's hand (review item B13: at 8 it
was about 5 px); a nickname that does not fit even at 12 is not drawn."""
_NICK_ROOM: Final = 47.0
"""The nickname's room up the left edge: from 3 above the bottom to 3 under the index."""
_NICK_MIN_WIDTH: Final = 44
"""Shown smaller than this (px; the web table's plates and last trick), a single card drops
its nickname (a CSS media query in the picture): it could not be read there."""
_SMALL_NO_NICK: Final = (
    f"<style>@media (max-width: {_NICK_MIN_WIDTH - 0.5:g}px) {{ .nick {{ display: none }} }}"
    "</style>"
)


def _text_width(text: str, size: float) -> float:
    """How long ``text`` runs at ``size``, over-estimated: a wide (CJK) character is 1 em,
    any other 0.64 em (DejaVu Sans's lower and upper case average 0.52-0.64 em)."""
    wide = sum(1 for ch in text if unicodedata.east_asian_width(ch) in ("W", "F"))
    return size * (wide + 0.64 * (len(text) - wide))


def _nickname(name: str, x: float, y: float, colour: str) -> str:
    """The nickname written up the card's left edge at the first size it fits, or nothing."""
    for size in _NICK_SIZES:
        if _text_width(name, size) <= _NICK_ROOM:
            # Rotated a quarter turn: the glyphs' tops face the card's edge, a little in from it.
            bx, by = x + 2 + 0.88 * size, y + CARD_H - 3
            return _text(
                bx,
                by,
                name,
                size,
                fill=colour,
                transform=f"rotate(-90 {bx:g} {by:g})",
                **{"class": "nick"},
            )
    return ""


def _esc(text: object) -> str:
    """Text safe inside an SVG element or attribute (XML 1.0 forbids most control chars)."""
    out = []
    for ch in str(text):
        code = ord(ch)
        if ch == "&":
            out.append("&amp;")
        elif ch == "<":
            out.append("&lt;")
        elif ch == ">":
            out.append("&gt;")
        elif ch == '"':
            out.append("&quot;")
        elif ch == "'":
            out.append("&#39;")
        elif code < 0x20 or 0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000 or code > 0x10FFFF:
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        elif code in (0xFFFE, 0xFFFF) or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069:
            out.append(f"\\u{code:04x}")  # non-characters and bidi overrides, shown
        else:
            out.append(ch)
    return "".join(out)


def _document(width: float, height: float, body: str, title: str) -> str:
    w, h = math.ceil(width), math.ceil(height)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" role="img" {_FONT}>'
        f"<title>{_esc(title)}</title>{body}</svg>"
    )


def _text(x: float, y: float, text: str, size: float, **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{_esc(v)}"' for k, v in attrs.items())
    return f'<text x="{x:g}" y="{y:g}" font-size="{size:g}"{extra}>{_esc(text)}</text>'


def _face(c: Card, x: float, y: float, t: Translator, *, marks: str = "") -> str:
    """One card face at (x, y); ``marks``: ``e`` exposed, ``l`` legal, ``w`` winner, ``d`` dim."""
    colour = _RED if c.suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK
    rank, suit = c.rank.symbol, c.suit.symbol
    stroke, width = ("#555555", 1.0)
    if "w" in marks:
        stroke, width = (_MARK, 3.0)
    parts = [
        f'<g class="card" data-card="{c.code}">',
        f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="6" '
        f'fill="{"#eeeeee" if "d" in marks else "#ffffff"}" stroke="{stroke}" '
        f'stroke-width="{width:g}"/>',
        _text(x + 5, y + 17, rank, 15, fill=colour, font_weight="bold"),
        _text(x + 5, y + 31, suit, 14, fill=colour),
        _text(x + CARD_W / 2, y + CARD_H / 2 + 12, suit, 32, fill=colour, text_anchor="middle"),
    ]
    nickname = t.nickname(c)
    if nickname is not None:
        # Written up the left edge, the part of a card a fan leaves visible.
        parts.append(_nickname(nickname.removeprefix("the "), x, y, colour))
    if "e" in marks:
        # An exposed card: an orange band along the top, visible even in a fan.
        parts.append(
            f'<path d="M{x:g} {y + 7:g} a6 6 0 0 1 6 -6 h{CARD_W - 12} a6 6 0 0 1 6 6 z" '
            f'fill="{_MARK}"/>'
        )
    if "l" in marks:
        parts.append(
            f'<rect x="{x + 2:g}" y="{y + CARD_H - 4:g}" width="{CARD_W - 4}" height="3" '
            f'fill="#1b7f3b"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _back(x: float, y: float) -> str:
    """A face-down card (a declaration the other seats may not see)."""
    return (
        f'<g class="back"><rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="6" '
        f'fill="#23427a" stroke="#ffffff" stroke-width="2"/>'
        f'<rect x="{x + 6:g}" y="{y + 6:g}" width="{CARD_W - 12}" height="{CARD_H - 12}" rx="3" '
        f'fill="none" stroke="#8fa9d6" stroke-width="1" stroke-dasharray="3 2"/></g>'
    )


def back() -> str:
    """A face-down card as a standalone SVG document (what the web table shows for one).

    >>> back().startswith("<svg") and 'class="back"' in back()
    True
    """
    return _document(CARD_W, CARD_H, _back(0, 0), "card back")


def _refuse(error: type[GongzhuError], message: str) -> NoReturn:
    raise error(message)


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        _refuse(ProtocolError, f"{name} must be True or False, got {brief(value)}")
    return value


def _card_set(value: object, name: str) -> CardSet:
    """``value`` as a CardSet, reading at most 53 items (a deck has 52: an endless one is bad)."""
    if isinstance(value, CardSet):
        return value
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        _refuse(CardParseError, f"{name} must be cards, got {brief(value)}")
    items = list(islice(value, 53))
    if len(items) > 52:
        _refuse(CardParseError, f"{name}: more than 52 cards")
    return CardSet(items)


def _names(value: object, players: int) -> Sequence[str] | None:
    if value is None:
        return None
    # Read at most one name too many: a list subclass's len() may lie.
    items = tuple(islice(value, players + 1)) if isinstance(value, (list, tuple)) else None
    if items is None or len(items) != players or not all(isinstance(n, str) for n in items):
        _refuse(ProtocolError, f"names must be {players} strings, got {brief(value)}")
    return items


def _translator(lang: object) -> Translator:
    # translator() looks the language up in a cache: an unhashable one would raise TypeError.
    if not isinstance(lang, str):
        _refuse(LanguageError, f"lang must be a language code, got {brief(lang)}")
    return translator(lang)


def _of(value: object, kind: type, error: type[GongzhuError], name: str) -> None:
    if not isinstance(value, kind):
        _refuse(error, f"{name} must be a {kind.__name__}, got {type(value).__name__}")


def card(c: Card, *, exposed: bool = False, lang: str = "en") -> str:
    """One card as a picture (``exposed`` marks it as exposed)."""
    _of(c, Card, CardParseError, "card")
    _flag(exposed, "exposed")
    t = _translator(lang)
    face = _face(c, 2, 2, t, marks="e" if exposed else "")
    if 'class="nick"' in face:
        face = _SMALL_NO_NICK + face
    return _document(CARD_W + 4, CARD_H + 4, face, t.card_name(c))


def _row(
    items: Sequence[Card],
    x: float,
    y: float,
    t: Translator,
    step: float,
    exposed: CardSet,
    legal: CardSet | None,
) -> str:
    parts = []
    for i, c in enumerate(items):
        marks = ("e" if c in exposed else "") + (
            "" if legal is None else ("l" if c in legal else "d")
        )
        parts.append(_face(c, x + i * step, y, t, marks=marks))
    return "".join(parts)


def _ordered(cs: Iterable[Card]) -> list[Card]:
    # As a hand is held: spades, hearts, diamonds, clubs (alternating colours), high first.
    order = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.CLUBS: 2, Suit.DIAMONDS: 3}
    return sorted(cs, key=lambda c: (order[c.suit], -c.rank))


def cards(
    cs: Iterable[Card],
    *,
    layout: str = "fan",
    exposed: Iterable[Card] = (),
    legal: Iterable[Card] | None = None,
    lang: str = "en",
) -> str:
    """A set of cards: ``layout="fan"`` (overlapping, as held) or ``"rows"`` (one row per suit).

    ``exposed`` cards are marked; with ``legal`` the legal cards are underlined and the
    others dimmed.
    """
    t = _translator(lang)
    items = _ordered(_card_set(cs, "cards"))
    marked = _card_set(exposed, "exposed")
    allowed = None if legal is None else _card_set(legal, "legal")
    title = t.cards(items) or t.gettext("nothing")
    if not items:
        return _document(CARD_W + 4, CARD_H + 4, _empty(2, 2), title)
    if layout not in ("fan", "rows"):
        _refuse(ProtocolError, f"layout must be 'fan' or 'rows', got {brief(layout)}")
    if layout == "rows":
        rows = [
            [c for c in items if c.suit is s]
            for s in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
        ]
        rows = [r for r in rows if r]
        step = 30
        width = 4 + CARD_W + step * (max(len(r) for r in rows) - 1)
        body = "".join(
            _row(r, 2, 2 + k * (CARD_H + 6), t, step, marked, allowed) for k, r in enumerate(rows)
        )
        return _document(width, 4 + len(rows) * (CARD_H + 6) - 6, body, title)
    step = 24
    width = 4 + CARD_W + step * (len(items) - 1)
    return _document(width, CARD_H + 4, _row(items, 2, 2, t, step, marked, allowed), title)


def _empty(x: float, y: float) -> str:
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="6" fill="none" '
        f'stroke="#999999" stroke-dasharray="4 3"/>'
    )


def _positions(
    players: int, anchor: int, clockwise: bool, cx: float, cy: float, rx: float, ry: float
) -> list[tuple[float, float]]:
    """Where each seat sits around a table: ``anchor`` at the bottom, the others in play order.

    Seen from above, counter-clockwise play goes from the bottom to the right (South →
    East → North → West), clockwise play to the left.
    """
    out = [(0.0, 0.0)] * players
    for k in range(players):
        seat = (anchor + k) % players
        angle = math.pi / 2 + (1 if clockwise else -1) * 2 * math.pi * k / players
        out[seat] = (cx + rx * math.cos(angle), cy + ry * math.sin(angle))
    return out


def _seat_names(t: Translator, players: int, names: Sequence[str] | None) -> list[str]:
    if names is not None:
        return [str(n) for n in names]
    return [t.seat(s) for s in range(players)]


def trick(
    tr: Trick,
    *,
    names: Sequence[str] | None = None,
    anchor: int = 0,
    clockwise: bool = False,
    lang: str = "en",
) -> str:
    """A trick on the table: each card in front of the seat that played it.

    ``anchor`` sits at the bottom and play goes counter-clockwise unless
    ``clockwise``; the leader's card is labelled, the winner's framed.
    """
    _of(tr, Trick, DealError, "trick")
    n = tr.players
    if not isinstance(anchor, int) or isinstance(anchor, bool) or not 0 <= anchor < n:
        _refuse(ProtocolError, f"anchor must be a seat 0..{n - 1}, got {brief(anchor)}")
    _flag(clockwise, "clockwise")
    names = _names(names, n)
    t = _translator(lang)
    who = _seat_names(t, n, names)
    w, h = 360, 300
    spots = _positions(n, anchor, clockwise, w / 2, h / 2, 110, 85)
    parts = [f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="24" fill="{_FELT}"/>']
    played = dict(zip(tr.seats, tr.cards, strict=True))
    winner = tr.winner if tr.winner is not None else tr.winning_seat
    for seat, (x, y) in enumerate(spots):
        c = played.get(seat)
        left, top = x - CARD_W / 2, y - CARD_H / 2
        if c is None:
            parts.append(_empty(left, top).replace("#999999", "#8fbf9f"))
        else:
            parts.append(_face(c, left, top, t, marks="w" if seat == winner else ""))
        label = who[seat] + (" ▶" if seat == tr.leader and tr.cards else "")
        ly = top - 6 if y < h / 2 else top + CARD_H + 14
        parts.append(_text(x, ly, label, 12, fill="#ffffff", text_anchor="middle"))
    title = (
        t.gettext("Trick")
        + ": "
        + ", ".join(f"{who[s]} {t.card(c)}" for s, c in zip(tr.seats, tr.cards, strict=True))
    )
    return _document(w, h, "".join(parts), title)


def view(
    v: PlayerView,
    *,
    names: Sequence[str] | None = None,
    lang: str = "en",
) -> str:
    """What one seat sees: its hand (legal cards marked), the trick, the other seats' exposures.

    Built from the view's own fields only, so nothing hidden can be drawn: a
    face-down declaration of another seat is a card back; the seat's own
    face-down cards are marked in its hand.
    """
    _of(v, PlayerView, ProtocolError, "view")
    rules = v.rules
    n = len(v.hand_sizes)
    names = _names(names, n)
    t = _translator(lang)
    who = _seat_names(t, n, names)
    clockwise = rules.direction.value == "clockwise"
    w, h = 760, 560
    parts = [f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="28" fill="{_FELT}"/>']
    # The trick in the middle.
    spots = _positions(n, v.seat, clockwise, w / 2, 225, 90, 62)
    played = dict(zip(v.current_trick.seats, v.current_trick.cards, strict=True))
    leading = v.current_trick.winning_seat
    for seat, (x, y) in enumerate(spots):
        c = played.get(seat)
        if c is not None:
            marks = "w" if seat == leading else ""
            parts.append(_face(c, x - CARD_W / 2, y - CARD_H / 2, t, marks=marks))
    # The other seats around the edge: name, cards left, exposures (face-down ones as backs).
    edge = _positions(n, v.seat, clockwise, w / 2, 220, 300, 150)
    for seat, (x, y) in enumerate(edge):
        if seat == v.seat:
            continue
        turn = " ▶" if v.to_act == seat else ""
        left = t.ngettext("{n} card", "{n} cards", v.hand_sizes[seat]).format(n=v.hand_sizes[seat])
        label = f"{who[seat]}{turn} · {left}"
        parts.append(_text(x, y - 48, label, 13, fill="#ffffff", text_anchor="middle"))
        shown = list(v.exposures[seat]) + [None] * v.face_down_counts[seat]
        step = 22
        start = x - (CARD_W + step * (len(shown) - 1)) / 2 if shown else x
        for i, c in enumerate(shown):
            cx = start + i * step
            parts.append(_back(cx, y - 40) if c is None else _face(c, cx, y - 40, t, marks="e"))
        taken = v.captured_points[seat]
        if taken:
            parts.append(_text(x, y + 60, t.cards(taken), 11, fill="#ffe9a8", text_anchor="middle"))
    # The seat's own hand along the bottom.
    hand = _ordered(v.hand)
    own_exposed = v.exposures[v.seat] | v.own_face_down
    legal = v.legal_plays if v.to_act == v.seat else None
    step = 36 if len(hand) <= 13 else 28
    hx = (w - (CARD_W + step * (len(hand) - 1))) / 2 if hand else w / 2
    parts.append(_row(hand, hx, h - CARD_H - 16, t, step, own_exposed, legal))
    turn = " ▶" if v.to_act == v.seat else ""
    head = f"{who[v.seat]}{turn} — {t.phase(v.phase)}"
    parts.append(_text(w / 2, h - CARD_H - 26, head, 14, fill="#ffffff", text_anchor="middle"))
    mine = v.captured_points[v.seat]
    if mine:
        parts.append(_text(16, h - CARD_H - 26, t.cards(mine), 11, fill="#ffe9a8"))
    return _document(w, h, "".join(parts), f"{who[v.seat]}: {t.cards(v.hand)}")


def sheet(
    ds: DealScore,
    *,
    names: Sequence[str] | None = None,
    running_before: Sequence[int] | None = None,
    lang: str = "en",
) -> str:
    """The deal's score sheet: the seven lines of seeds/001, a column per seat."""
    _of(ds, DealScore, DealError, "sheet")
    n = len(ds)
    names = _names(names, n)
    t = _translator(lang)
    who = _seat_names(t, n, names)
    before = running_totals(running_before, n)
    columns = [t.sheet_lines(p, before[p.seat]) for p in ds.players]
    labels = [label for label, _ in columns[0]]
    for col in columns[1:]:
        for label, _ in col:
            if label not in labels:
                labels.insert(len(labels) - 2, label)  # a Q♦ bonus line, before ⑥ and ⑦
    values = [dict(col) for col in columns]
    label_w, col_w, row_h = 130, 96, 24
    w = label_w + col_w * n + 8
    h = row_h * (len(labels) + 2) + 8
    parts = [
        f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="8" fill="#fbf8ef" '
        'stroke="#b9ad8c"/>'
    ]
    for s in range(n):
        x = label_w + col_w * s + col_w / 2
        parts.append(_text(x, row_h, who[s], 13, text_anchor="middle", font_weight="bold"))
        taken = len(ds.players[s].cards)
        summary = t.ngettext("took {n} card", "took {n} cards", taken).format(n=taken)
        parts.append(_text(x, 2 * row_h - 4, summary, 10, text_anchor="middle", fill="#555555"))
    for k, label in enumerate(labels):
        y = row_h * (k + 3) - 4
        if k % 2 == 0:
            parts.append(
                f'<rect x="4" y="{y - row_h + 7:g}" width="{w - 8}" height="{row_h}" '
                'fill="#f1ead6"/>'
            )
        bold = {"font_weight": "bold"} if label == labels[-2] else {}
        parts.append(_text(10, y, label, 12, **bold))
        for s in range(n):
            value = values[s].get(label, "")
            colour = _RED if value.startswith("-") else _BLACK
            x = label_w + col_w * (s + 1) - 12
            parts.append(_text(x, y, value, 12, text_anchor="end", fill=colour, **bold))
    title = t.gettext("totals: {totals}").format(totals=" ".join(str(x) for x in ds.totals))
    return _document(w, h, "".join(parts), title)


# Jupyter and the _repr_svg_ methods find the renderers through gongzhu._base.display.
register("Card", card)
register("CardSet", cards)
register("Trick", trick)
register("PlayerView", view)
register("DealScore", sheet)
