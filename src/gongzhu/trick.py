"""A trick as the public API shows it: who led, the cards in play order, the winner.

The engine (:mod:`gongzhu.round`) keeps tricks as ints and builds these on request.
"""

from __future__ import annotations

import attrs

from gongzhu._base.display import svg as _svg
from gongzhu._base.text import brief
from gongzhu._core.bits import POINT_CARDS
from gongzhu.cards import Card, CardSet, Suit, unchecked_cardset
from gongzhu.errors import DealError

__all__ = ["Trick"]


@attrs.frozen
class Trick:
    """A trick: who led, the cards in play order, and the winner (``None`` while open).

    seeds/000 §07: A♣ led, 10♣ follows, Q♠ and J♦ discarded — the A♣ wins.

    >>> t = Trick(leader=0, cards=(Card("AC"), Card("TC"), Card("QS"), Card("JD")), winner=0)
    >>> t.seats, t.led_suit, t.winning_seat, str(t.points)
    ((0, 1, 2, 3), <Suit.CLUBS: 0>, 0, '10♣ J♦ Q♠')
    """

    leader: int
    cards: tuple[Card, ...]
    winner: int | None
    players: int = 4

    def __attrs_post_init__(self) -> None:
        # Checked once here, so the properties below never divide by a bad seat count.
        n = self.players
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 8:
            raise DealError(f"a trick needs 1-8 players, got {brief(n)}")
        for name, seat in (("leader", self.leader), ("winner", self.winner)):
            if seat is None and name == "winner":
                continue
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
                raise DealError(f"a trick's {name} must be a seat 0-{n - 1}, got {brief(seat)}")
        if not isinstance(self.cards, tuple) or len(self.cards) > n:
            raise DealError(f"a trick holds a tuple of at most {n} cards")
        if not all(isinstance(c, Card) for c in self.cards):
            raise DealError("a trick holds Card objects")

    @property
    def seats(self) -> tuple[int, ...]:
        """The seat that played each card."""
        return tuple((self.leader + i) % self.players for i in range(len(self.cards)))

    @property
    def led_suit(self) -> Suit | None:
        """The suit of the first card (``None`` for an empty trick)."""
        return self.cards[0].suit if self.cards else None

    @property
    def winning_seat(self) -> int | None:
        """The seat winning so far: the highest card of the led suit (``winner`` once complete)."""
        if not self.cards:
            return None
        best = 0
        for i, card in enumerate(self.cards):
            if card.suit is self.cards[0].suit and card.index > self.cards[best].index:
                best = i
        return (self.leader + best) % self.players

    @property
    def points(self) -> CardSet:
        """The point cards in the trick."""
        return unchecked_cardset(sum(c.mask for c in self.cards) & POINT_CARDS)

    def __str__(self) -> str:
        played = " ".join(f"{s}:{c}" for s, c in zip(self.seats, self.cards, strict=True))
        won = f" → seat {self.winner}" if self.winner is not None else ""
        return f"[{played}]{won}"

    def _repr_html_(self) -> str:
        cells = "".join(
            f"<td>seat {s}<br>{c._repr_html_()}</td>"
            for s, c in zip(self.seats, self.cards, strict=True)
        )
        return f"<table><tr>{cells}</tr></table>"

    def _repr_svg_(self) -> str | None:
        """The trick on a table, a card in front of each seat, drawn by :mod:`gongzhu.svg`."""
        return _svg(self)
