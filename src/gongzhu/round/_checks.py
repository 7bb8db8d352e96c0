"""Checks of what callers hand a Round: seats, flags, cards, exposure arguments, and the
hands of ``Round.from_hands``. Private to :mod:`gongzhu.round`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from gongzhu._base.text import brief
from gongzhu._core.config import Config
from gongzhu.cards import Card, CardSet, card_tokens, unchecked_cardset
from gongzhu.cards import parse_cards as _parse_cards
from gongzhu.errors import (
    ActionTypeError,
    CardParseError,
    CardTypeError,
    DealError,
    DealTypeError,
    IllegalActionError,
    Reason,
)

_CARDS: Final = tuple(Card.from_index(i) for i in range(52))


def _is_seat(seat: object, n: int) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n


def _check_seat(seat: Any, n: int, action: str) -> int:
    if not _is_seat(seat, n):
        # No such seat; a seat that is no int at all is also a TypeError (ActionTypeError).
        is_int = isinstance(seat, int) and not isinstance(seat, bool)
        raise (IllegalActionError if is_int else ActionTypeError)(
            Reason.NO_SUCH_SEAT, None, detail=f"seat {brief(seat)} of {n}", action=action
        )
    return int(seat)


def _deal_seat(seat: Any, n: int, what: str) -> int:
    # Setting up a deal with a bad seat is bad deal data, not a refused action.
    if not _is_seat(seat, n):
        raise DealError(f"{what} must be a seat 0-{n - 1}, got {brief(seat)}")
    return int(seat)


def _check_flag(value: Any, name: str, seat: int, action: str) -> None:
    if not isinstance(value, bool):
        raise IllegalActionError(
            Reason.INVALID_CHOICE, seat, detail=f"{name} must be True or False", action=action
        )


def _to_card(card: Any) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise CardTypeError(f"expected a Card or card text, got {type(card).__name__}")


def _exposure_masks(cards: Any, face_down: Any, seat: int) -> tuple[int, int]:
    """``(face-up mask, face-down mask)`` of an exposure's arguments (checked, typed errors)."""
    try:
        chosen = _parse_cards(cards).mask
    except (CardParseError, TypeError) as exc:
        raise IllegalActionError(
            Reason.NOT_EXPOSABLE, seat, detail=str(exc), action="expose"
        ) from None
    if isinstance(face_down, bool):
        return (0, chosen) if face_down else (chosen, 0)
    if face_down is None or isinstance(face_down, (int, float)):
        raise IllegalActionError(
            Reason.INVALID_CHOICE,
            seat,
            detail="face_down must be True, False or the cards that lie face down",
            action="expose",
        )
    try:
        down = _parse_cards(face_down).mask
    except (CardParseError, TypeError) as exc:
        raise IllegalActionError(
            Reason.INVALID_CHOICE, seat, detail=f"face_down: {exc}", action="expose"
        ) from None
    if down & ~chosen:
        raise IllegalActionError(
            Reason.INVALID_CHOICE,
            seat,
            _CARDS[(down & ~chosen).bit_length() - 1],
            "face_down names a card that is not exposed",
            action="expose",
        )
    return chosen & ~down, down


def _hands_from(hands: Any, cfg: Config) -> tuple[tuple[int, ...], ...]:
    """The dealt card indices of explicit hands (``Round.from_hands``), checked.

    Each hand may be card collections or text; a :class:`~gongzhu.DealError` names the
    seat and the fault (a bad token, a duplicate, a card dealt twice or not in the deck,
    a wrong hand size, a wrong number of hands).
    """
    if isinstance(hands, (str, CardSet)) or not isinstance(hands, Sequence):
        raise DealTypeError("hands must be a sequence of hands, one per seat")
    dealt: list[tuple[int, ...]] = []
    seen = 0
    for seat, hand in enumerate(hands):
        if seat >= cfg.n:
            raise DealError(f"expected {cfg.n} hands, got more")
        try:
            if isinstance(hand, str):
                _parse_cards(hand)  # names a bad token; the dealt order is the text's
                cards = [Card.parse(t) for t in card_tokens(hand) if t]
            elif isinstance(hand, CardSet):
                cards = list(hand)
            else:
                cards = [_to_card(c) for c in hand]
        except (CardParseError, TypeError) as exc:
            raise DealError(f"seat {seat}: {exc}") from None
        mask = 0
        for card in cards:
            if mask & card.mask:
                raise DealError(f"seat {seat}: duplicate card {card}")
            mask |= card.mask
        if mask & seen:
            raise DealError(f"seat {seat}: {unchecked_cardset(mask & seen)} dealt twice")
        if mask & ~cfg.deck:
            raise DealError(
                f"seat {seat}: {unchecked_cardset(mask & ~cfg.deck)} not in the {cfg.n}-player deck"
            )
        if len(cards) != cfg.hand_size:
            raise DealError(f"seat {seat}: {len(cards)} cards, expected {cfg.hand_size}")
        seen |= mask
        dealt.append(tuple(c.index for c in cards))
    # Counted as iterated: a Sequence whose len() disagrees with its items is no excuse.
    if len(dealt) != cfg.n:
        raise DealError(f"expected {cfg.n} hands, got {len(dealt)}")
    return tuple(dealt)
