"""Action ids and vector sizes of the agent protocol: the implementation of :mod:`gongzhu.protocol`.

Import these names from :mod:`gongzhu.protocol`.
"""

from __future__ import annotations

from typing import Final

from gongzhu._base.text import brief
from gongzhu._codec import encoding as _encoding
from gongzhu._codec import wire as _wire
from gongzhu._codec.encoding import ACCEPT, CLAIM, EXPOSABLE_ORDER, REFUSE
from gongzhu.actions import Action, Claim, ClaimResponse, Exposure, Play
from gongzhu.cards import Card, CardSet
from gongzhu.cards import parse_cards as _parse_cards
from gongzhu.errors import IllegalActionError, ProtocolError, Reason

__all__ = [
    "action_for",
    "action_id",
    "describe_action",
    "exposure_action_id",
    "information_state_size",
    "observation_size",
]

_EXPOSABLE_MASK: Final = sum(c.mask for c in EXPOSABLE_ORDER)


def observation_size(players: int) -> int:
    """Length of :meth:`PlayerView.observation <gongzhu.PlayerView.observation>` for ``players``
    seats (3, 4 or 5).
    """
    return _encoding.observation_size(_players(players))


def information_state_size(players: int) -> int:
    """Length of :meth:`PlayerView.information_state <gongzhu.PlayerView.information_state>`."""
    players = _players(players)
    return _encoding.observation_size(players) + _encoding.history_size(players, 52 // players)


def _players(players: object) -> int:
    if type(players) is not int or players not in (3, 4, 5):
        raise ProtocolError(f"players must be 3, 4 or 5, got {brief(players)}", "players")
    return players


def describe_action(action_id: int) -> str:
    """A short text for an action id: ``'QS'``, ``'expose TC QS'``, ``'decline'``, ``'claim'``."""
    return _encoding.describe(action_id)


def action_for(action_id: int, seat: int) -> Action:
    """The action record that action id ``action_id`` stands for, made by ``seat``.

    Raises :class:`~gongzhu.IllegalActionError` (``INVALID_CHOICE``) for an id
    out of range; whether the action is legal now is the round's to say.
    """
    _encoding.describe(action_id)  # checks the id
    seat = _wire.seat(seat, "seat")
    if action_id < 52:
        return Play(seat, Card.from_index(action_id))
    if _encoding.is_exposure_id(action_id):
        up, down = _encoding.exposure_subsets(action_id)
        down_cards = _encoding.subset_cards(down)
        cards = _encoding.subset_cards(up) | down_cards
        return Exposure(seat, cards, down_cards if up else bool(down))
    if action_id == CLAIM:
        return Claim(seat)
    return ClaimResponse(seat, action_id == ACCEPT)


def exposure_action_id(up: CardSet | str = "", down: CardSet | str = "") -> int:
    """The id of the exposure decision that shows ``up`` and lays ``down`` face down.

    Both are sets of exposable cards (:data:`~gongzhu.protocol.EXPOSABLE_ORDER`), disjoint; both
    empty is the decline, :data:`~gongzhu.protocol.EXPOSE`.

    >>> exposure_action_id(), exposure_action_id(up="QS"), exposure_action_id(down="QS TC")
    (52, 60, 77)
    """
    up_mask = _parse_cards(up).mask
    down_mask = _parse_cards(down).mask
    if (up_mask | down_mask) & ~_EXPOSABLE_MASK or up_mask & down_mask:
        raise IllegalActionError(
            Reason.INVALID_CHOICE,
            None,
            detail="up and down are disjoint sets of exposable cards",
        )
    return _encoding.exposure_id(_encoding.subset_bits(up_mask), _encoding.subset_bits(down_mask))


def action_id(action: Action) -> int:
    """The id of an action record (the inverse of :func:`action_for`).

    A blind exposure (``Exposure(blind=True)``) has no id: agents do not expose blind.
    """
    if isinstance(action, Play):
        return action.card.index
    if isinstance(action, Exposure):
        if action.blind or action.cards.mask & ~_EXPOSABLE_MASK:
            raise IllegalActionError(
                Reason.INVALID_CHOICE, action.seat, detail="no action id for this exposure"
            )
        if action.face_down is True and not action.cards:
            raise IllegalActionError(
                Reason.INVALID_CHOICE, action.seat, detail="a face-down decline has no id"
            )
        return _encoding.exposure_id(
            _encoding.subset_bits(action.face_up.mask),
            _encoding.subset_bits(action.face_down_cards.mask),
        )
    if isinstance(action, Claim):
        return CLAIM
    if isinstance(action, ClaimResponse):
        return ACCEPT if action.accept else REFUSE
    raise IllegalActionError(Reason.INVALID_CHOICE, None, detail=f"not an action: {brief(action)}")


for _public in (
    action_for,
    action_id,
    describe_action,
    exposure_action_id,
    information_state_size,
    observation_size,
):  # documented and shown at the public path
    _public.__module__ = "gongzhu.protocol"
