"""What one seat may know about a deal: :class:`PlayerView`, from :meth:`Round.view`.

A view is built from public facts and the seat's own hand only, so it is safe to
send to that player.
"""

from __future__ import annotations

import attrs

from gongzhu._display import svg as _svg
from gongzhu._frozen import guard_setstate, refuse_reinit
from gongzhu.cards import Card, CardSet, Suit, _from_mask, _suit
from gongzhu.errors import GongzhuError
from gongzhu.phase import Phase
from gongzhu.rules import RuleSet
from gongzhu.trick import Trick

__all__ = ["PlayerView"]


@attrs.frozen
class PlayerView:
    """What one seat may know about a :class:`Round`: its own hand and the public facts.

    It never holds another seat's unplayed cards (except cards exposed face up
    or shown by a claim, which are public).

    >>> from gongzhu import deal
    >>> v = deal(seed=1).view(2)
    >>> v.seat, len(v.hand), v.hand_sizes, v.to_act, v.legal_plays
    (2, 13, (13, 13, 13, 13), 0, CardSet(''))
    """

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self, "seat", GongzhuError)  # no re-initialising a view (#11 item 9)

    seat: int
    rules: RuleSet = attrs.field(repr=False)
    phase: Phase
    hand: CardSet
    first_dealt: Card | None
    """The first card dealt to this seat (for blind exposure)."""
    to_act: int | None
    leader: int
    dealer: int
    exposures: tuple[CardSet, ...]
    """Each seat's face-up exposed cards."""
    own_face_down: CardSet
    """This seat's face-down declarations."""
    face_down_counts: tuple[int, ...]
    """How many cards each seat declared face down (which ones is hidden)."""
    current_trick: Trick
    tricks: tuple[Trick, ...]
    captured_points: tuple[CardSet, ...]
    """Each seat's captured point cards (they lie face up: 000 §03, 004)."""
    hand_sizes: tuple[int, ...]
    shown: CardSet
    """Unplayed cards shown by a claim."""
    legal_plays: CardSet
    """This seat's legal plays if it is to act, else empty."""

    @property
    def exposed(self) -> CardSet:
        """All face-up exposed cards."""
        mask = 0
        for cards in self.exposures:
            mask |= cards.mask
        return _from_mask(mask)

    @property
    def played(self) -> CardSet:
        """Every card played so far (completed tricks and the current one)."""
        mask = 0
        for trick in (*self.tricks, self.current_trick):
            for card in trick.cards:
                mask |= card.mask
        return _from_mask(mask)

    def unseen(self) -> CardSet:
        """Cards this seat has not seen: not in its hand, not played, not exposed, not shown."""
        deck = self.rules.deck.mask
        seen = self.hand.mask | self.played.mask | self.exposed.mask | self.shown.mask
        return _from_mask(deck & ~seen)

    def unseen_in(self, suit: Suit) -> CardSet:
        """Unseen cards of one suit (e.g. to count the spades still out)."""
        return _from_mask(self.unseen().mask & _suit(suit).mask)

    def _repr_html_(self) -> str:
        """The view as HTML, built from the view's own fields only (no hidden card can leak).

        The hand comes first, legal plays underlined; then one row per seat:
        cards left, face-up exposures, captured point cards; then the trick.

        >>> from gongzhu import deal
        >>> html = deal(seed=1).pass_exposure().view(0)._repr_html_()
        >>> html.count("<tr>"), "<u>" in html        # a header and 4 seats; seat 0 leads
        (5, True)
        """
        legal = self.legal_plays
        hand = " ".join(
            f"<u>{c._repr_html_()}</u>" if c in legal else c._repr_html_() for c in self.hand
        )
        rows = []
        for s, size in enumerate(self.hand_sizes):
            who = f"seat {s}" + (" (you)" if s == self.seat else "")
            who += " ▶" if s == self.to_act else ""
            down = self.face_down_counts[s]
            exposed = self.exposures[s]._repr_html_() + (f" +{down} face down" if down else "")
            rows.append(
                f"<tr><td>{who}</td><td>{size}</td><td>{exposed}</td>"
                f"<td>{self.captured_points[s]._repr_html_()}</td></tr>"
            )
        shown = f"<p>shown: {self.shown._repr_html_()}</p>" if self.shown else ""
        trick = self.current_trick._repr_html_() if self.current_trick.cards else ""
        return (
            f'<div class="gongzhu-view"><p>seat {self.seat}, {self.phase.value}: {hand}</p>'
            "<table><tr><th>seat</th><th>cards</th><th>exposed</th><th>points taken</th></tr>"
            f"{''.join(rows)}</table>{shown}{trick}</div>"
        )

    def _repr_svg_(self) -> str | None:
        """The seat's table as a picture (hidden cards as backs), drawn by :mod:`gongzhu.svg`."""
        return _svg(self)


# Nor re-stated: pickle's __setstate__ on a finished view would rewrite it (#11 item 9).
guard_setstate(PlayerView, "seat", GongzhuError)
