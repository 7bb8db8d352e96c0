"""A trick as the public API shows it: who led, the cards in play order, the winner.

The engine (:mod:`gongzhu.round`) keeps tricks as ints and builds these on request.
"""

from __future__ import annotations

from typing import Any, Final

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


# -- The engine's own tricks (Round and PlayerView): trusted values, built unchecked ---------
# Not part of the API (not in __all__): the layers above build their Trick objects of the
# core's ints here, once, without attrs' keyword handling or re-validation.

_new: Final = object.__new__
_t_leader, _t_cards, _t_winner, _t_players = (
    Trick.__dict__[a.name].__set__ for a in attrs.fields(Trick)
)
_CARDS: Final = tuple(Card.from_index(i) for i in range(52))


def trusted_trick(leader: int, cards: tuple[int, ...], winner: int | None, n: int) -> Trick:
    """The trick of the engine's values (card indexes; ``n`` players), unchecked."""
    if not cards and winner is None:
        return _EMPTY_TRICKS[(leader, n)]
    return _trick(leader, tuple([_CARDS[i] for i in cards]), winner, n)


def trusted_tricks(raw: tuple[tuple[int, int, tuple[int, ...]], ...], n: int) -> tuple[Trick, ...]:
    """The completed tricks of the engine's ``(leader, winner, cards)`` tuple, unchecked.

    Completed tricks never change and successive states share the same tuple, so the
    Trick objects are built once per tuple, not once per call (views ask for them at
    every card). Keyed by id with the tuple kept alive in the value.
    """
    hit = _TRICK_OBJECTS.get(id(raw))
    if hit is not None and hit[0] is raw:
        return hit[1]
    built = tuple(
        [_trick(lead, tuple([_CARDS[i] for i in cards]), won, n) for lead, won, cards in raw]
    )
    if len(_TRICK_OBJECTS) >= 1024:
        _TRICK_OBJECTS.clear()
    _TRICK_OBJECTS[id(raw)] = (raw, built)
    return built


def _trick(leader: int, cards: tuple[Card, ...], winner: int | None, n: int) -> Trick:
    trick = _new(Trick)
    _t_leader(trick, leader)
    _t_cards(trick, cards)
    _t_winner(trick, winner)
    _t_players(trick, n)
    return trick


_EMPTY_TRICKS: Final = {(leader, n): _trick(leader, (), None, n) for n in range(1, 9)
                        for leader in range(n)}  # fmt: skip
_TRICK_OBJECTS: dict[int, tuple[tuple[Any, ...], tuple[Trick, ...]]] = {}
