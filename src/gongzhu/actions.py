"""The actions of a deal, as small frozen records: :attr:`Round.history <gongzhu.Round.history>`.

A deal is its rule set, its hands (or seed) and this list of actions:
replaying them through the engine rebuilds every state exactly. Game
records (:mod:`gongzhu.record`) and clients that keep an undo list use them.

>>> from gongzhu import deal
>>> r = deal(seed=5).pass_exposure()
>>> r = r.play(r.legal_plays[0])
>>> r.history[-1]
Play(seat=0, card=Card('2C'))
>>> deal(seed=5).pass_exposure().apply(r.history[-1]) == r
True

Every record has a plain-JSON form for clients (:mod:`gongzhu.protocol`):
:meth:`Play.to_dict` and friends write it, :meth:`Action.from_dict` reads and
checks it, so a table server is ``rnd = rnd.apply(Action.from_dict(message))``.

>>> Play(seat=0, card=Card("QS")).to_dict()
{'type': 'play', 'seat': 0, 'card': 'QS'}
>>> Action.from_dict({"type": "respond", "seat": 2, "accept": True})
ClaimResponse(seat=2, accept=True)
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import attrs

from gongzhu._base.text import brief
from gongzhu._codec import wire as _wire
from gongzhu.cards import Card, CardSet
from gongzhu.errors import ProtocolError

__all__ = ["Action", "Claim", "ClaimResponse", "Exposure", "Play"]


# Checked when built (#22 item 14): a record that exists can always be written and hashed.
def _seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ProtocolError(f"a seat is an int, got {brief(value)}", "seat")
    seat = int(value)
    if not 0 <= seat < _wire.MAX_SEATS:
        raise ProtocolError(f"a seat is 0-{_wire.MAX_SEATS - 1}, got {brief(value)}", "seat")
    return seat


def _card(_self: object, _attribute: object, value: Any) -> None:
    if not isinstance(value, Card):
        raise ProtocolError(f"a Card, got {brief(value)} (Card('QS'), not 'QS')", "card")


def _cardset(value: object, path: str) -> None:
    if not isinstance(value, CardSet):
        raise ProtocolError(f"a CardSet, got {brief(value)}", path)


def _flag(value: object, path: str) -> None:
    if not isinstance(value, bool):
        raise ProtocolError(f"expected True or False, got {brief(value)}", path)


def _cards_field(_self: object, _attribute: object, value: Any) -> None:
    _cardset(value, "cards")


def _blind_field(_self: object, _attribute: object, value: Any) -> None:
    _flag(value, "blind")


def _accept_field(_self: object, _attribute: object, value: Any) -> None:
    _flag(value, "accept")


class Action:
    """Any one action of a deal: the base class of :class:`Play`, :class:`Exposure`,
    :class:`Claim` and :class:`ClaimResponse`.

    Its JSON form (:meth:`to_dict`) is an object whose ``"type"`` says which
    one: ``"play"``, ``"expose"``, ``"claim"`` or ``"respond"``.
    """

    __slots__ = ()
    seat: int
    type: ClassVar[str]
    """The ``"type"`` of the JSON form."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON-safe form: ``{"type": ..., "seat": ..., ...}`` (schema ``action``)."""
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: Any) -> Action:
        """The action a JSON object describes, checked (:class:`~gongzhu.errors.ProtocolError`).

        Called on a subclass it also checks the type: ``Play.from_dict`` reads only plays.

        >>> Action.from_dict({"type": "expose", "seat": 1, "cards": ["QS", "TC"]})
        Exposure(seat=1, cards=CardSet('TC QS'), face_down=False, blind=False)
        >>> Play.from_dict({"type": "claim", "seat": 1})
        Traceback (most recent call last):
        ...
        gongzhu.errors.ProtocolError: type: expected 'play', got 'claim'
        """
        if not isinstance(data, Mapping):
            _wire.fail(f"an action is an object, got {type(data).__name__}", "")
        kind = data.get("type")
        reader = _READERS.get(kind) if isinstance(kind, str) else None
        if reader is None:
            _wire.fail(f"expected one of {sorted(_READERS)}, got {brief(kind)}", "type")
        if cls is not Action and kind != cls.type:
            _wire.fail(f"expected {cls.type!r}, got {kind!r}", "type")
        return reader(data)


@attrs.frozen
class Play(Action):
    """``seat`` played ``card``."""

    type: ClassVar[str] = "play"
    seat: int = attrs.field(converter=_seat)
    card: Card = attrs.field(validator=_card)

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "play", "seat": 0, "card": "QS"}``."""
        return {"type": "play", "seat": self.seat, "card": self.card.code}


@attrs.frozen
class Exposure(Action):
    """``seat`` exposed ``cards`` (empty: a pass), face down and/or blind as flagged.

    ``face_down`` is ``False`` (every card face up), ``True`` (every card face
    down) or the cards among ``cards`` that lie face down, the others face up:
    under face-down-up exposure one decision may hold both kinds
    (specification §9.1). It is kept in that normal form: a set naming every
    card reads ``True``, an empty set ``False``.

    >>> e = Exposure(0, CardSet.from_mask(Card("QS").mask | Card("TC").mask), CardSet([Card("TC")]))
    >>> e.face_up, e.face_down_cards, e.to_dict()["face_down"]
    (CardSet('QS'), CardSet('TC'), ['TC'])
    >>> Exposure(0, CardSet([Card("TC")]), CardSet([Card("TC")])).face_down
    True
    """

    type: ClassVar[str] = "expose"
    seat: int = attrs.field(converter=_seat)
    cards: CardSet = attrs.field(validator=_cards_field)
    face_down: bool | CardSet = False
    blind: bool = attrs.field(default=False, validator=_blind_field)

    def __attrs_post_init__(self) -> None:
        down = self.face_down
        if not isinstance(down, bool):
            _cardset(down, "face_down")
        if isinstance(down, CardSet):
            cards = self.cards
            if isinstance(cards, CardSet) and not down <= cards:
                raise ProtocolError(
                    f"face-down cards {down} are not among the exposed cards {cards}", "face_down"
                )
            if not down:
                object.__setattr__(self, "face_down", False)
            elif isinstance(cards, CardSet) and down == cards:
                object.__setattr__(self, "face_down", True)

    @property
    def face_down_cards(self) -> CardSet:
        """The cards laid face down (all of :attr:`cards`, none, or those named)."""
        down = self.face_down
        if isinstance(down, CardSet):
            return down
        return self.cards if down else CardSet()

    @property
    def face_up(self) -> CardSet:
        """The cards shown face up."""
        return self.cards - self.face_down_cards

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "expose", "seat": 1, "cards": ["QS"], "face_down": false, "blind": false}``.

        ``"cards": []`` declines. ``"face_down"`` is ``true``, ``false`` or the
        list of the cards among ``"cards"`` that lie face down.
        """
        down = self.face_down
        return {
            "type": "expose",
            "seat": self.seat,
            "cards": _wire.codes(self.cards),
            "face_down": _wire.codes(down) if isinstance(down, CardSet) else down,
            "blind": self.blind,
        }


@attrs.frozen
class Claim(Action):
    """``seat`` showed its hand and claimed the remaining tricks."""

    type: ClassVar[str] = "claim"
    seat: int = attrs.field(converter=_seat)

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "claim", "seat": 3}``."""
        return {"type": "claim", "seat": self.seat}


@attrs.frozen
class ClaimResponse(Action):
    """``seat`` accepted or refused the pending claim."""

    type: ClassVar[str] = "respond"
    seat: int = attrs.field(converter=_seat)
    accept: bool = attrs.field(validator=_accept_field)

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "respond", "seat": 0, "accept": true}``."""
        return {"type": "respond", "seat": self.seat, "accept": self.accept}


def _read_play(data: Mapping[str, Any]) -> Play:
    d = _wire.obj(data, "", ("type", "seat", "card"))
    return Play(_wire.seat(d["seat"], "seat"), _wire.card(d["card"], "card"))


def _read_exposure(data: Mapping[str, Any]) -> Exposure:
    d = _wire.obj(data, "", ("type", "seat", "cards"), ("face_down", "blind"))
    down = d.get("face_down", False)
    return Exposure(
        _wire.seat(d["seat"], "seat"),
        _wire.cards(d["cards"], "cards"),
        _wire.cards(down, "face_down")
        if isinstance(down, (list, tuple))
        else _wire.boolean(down, "face_down"),
        _wire.boolean(d.get("blind", False), "blind"),
    )


def _read_claim(data: Mapping[str, Any]) -> Claim:
    d = _wire.obj(data, "", ("type", "seat"))
    return Claim(_wire.seat(d["seat"], "seat"))


def _read_response(data: Mapping[str, Any]) -> ClaimResponse:
    d = _wire.obj(data, "", ("type", "seat", "accept"))
    return ClaimResponse(_wire.seat(d["seat"], "seat"), _wire.boolean(d["accept"], "accept"))


_READERS: dict[str, Callable[[Mapping[str, Any]], Action]] = {
    "play": _read_play,
    "expose": _read_exposure,
    "claim": _read_claim,
    "respond": _read_response,
}
