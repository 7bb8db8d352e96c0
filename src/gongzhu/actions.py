"""The actions of a deal, as small frozen records: :attr:`Round.history <gongzhu.Round.history>`.

A deal is its rule set, its hands (or seed) and this list of actions:
replaying them through the engine rebuilds every state exactly. Game
records (:mod:`gongzhu.record`) and clients that keep an undo list use them.

>>> from gongzhu import deal
>>> r = deal(seed=5).pass_exposure()
>>> r = r.play(r.legal_plays[0])
>>> r.history[-1]
Play(seat=0, card=Card('2C'))
>>> r.history[-1].apply(deal(seed=5).pass_exposure()) == r
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

import attrs

from gongzhu.cards import Card, CardSet

if TYPE_CHECKING:
    from gongzhu.round import Round

__all__ = ["Action", "Claim", "ClaimResponse", "Exposure", "Play"]


@attrs.frozen
class Play:
    """``seat`` played ``card``."""

    seat: int
    card: Card

    def apply(self, round_: Round) -> Round:
        """Do this action on ``round_`` (validated like any action)."""
        return round_.play(self.card, seat=self.seat)


@attrs.frozen
class Exposure:
    """``seat`` exposed ``cards`` (empty: a pass), face down and/or blind as flagged."""

    seat: int
    cards: CardSet
    face_down: bool = False
    blind: bool = False

    def apply(self, round_: Round) -> Round:
        """Do this action on ``round_`` (validated like any action)."""
        return round_.expose(self.cards, seat=self.seat, face_down=self.face_down, blind=self.blind)


@attrs.frozen
class Claim:
    """``seat`` showed its hand and claimed the remaining tricks."""

    seat: int

    def apply(self, round_: Round) -> Round:
        """Do this action on ``round_`` (validated like any action)."""
        return round_.claim(self.seat)


@attrs.frozen
class ClaimResponse:
    """``seat`` accepted or refused the pending claim."""

    seat: int
    accept: bool

    def apply(self, round_: Round) -> Round:
        """Do this action on ``round_`` (validated like any action)."""
        return round_.respond(self.accept, seat=self.seat)


Action: TypeAlias = "Play | Exposure | Claim | ClaimResponse"
"""Any one action of a deal."""

_CARDS = tuple(Card.from_index(i) for i in range(52))


def _actions(log: Any) -> tuple[Play | Exposure | Claim | ClaimResponse, ...]:
    """Unwind the engine's persistent log: ``None`` or ``(previous, entry)``.

    An entry is an int ``seat << 6 | card index`` for a play (the common case,
    kept allocation-free) or a tuple for the rarer actions.
    """
    entries = []
    while log is not None:
        log, entry = log
        entries.append(entry)
    out: list[Play | Exposure | Claim | ClaimResponse] = []
    for entry in reversed(entries):
        if isinstance(entry, int):
            out.append(Play(entry >> 6, _CARDS[entry & 63]))
        elif entry[0] == "expose":
            _, seat, mask, face_down, blind = entry
            out.append(Exposure(seat, CardSet.from_mask(mask), face_down, blind))
        elif entry[0] == "claim":
            out.append(Claim(entry[1]))
        else:
            out.append(ClaimResponse(entry[1], entry[2]))
    return tuple(out)
