r"""The client protocol: JSON forms, their JSON Schemas, and action ids for agents.

**JSON forms.** Every object a client sees or sends has a plain, JSON-safe
dict form with cards as codes (``"QS"``, ``"TC"``), written by ``to_dict()``
and read back, checked, by ``from_dict()``:

* a seat's view: :meth:`PlayerView.to_dict <gongzhu.PlayerView.to_dict>` /
  :meth:`PlayerView.from_dict <gongzhu.PlayerView.from_dict>` (schema ``view``);
* an action: :meth:`Play.to_dict <gongzhu.Play.to_dict>` (and the other
  records') / :meth:`Action.from_dict <gongzhu.Action.from_dict>` (``action``);
* a refused action: :meth:`IllegalActionError.to_dict
  <gongzhu.IllegalActionError.to_dict>` (``error``);
* a deal's score: :meth:`DealScore.to_dict <gongzhu.DealScore.to_dict>` /
  :meth:`DealScore.from_dict <gongzhu.DealScore.from_dict>` (``score``);
* the rules: :meth:`RuleSet.to_dict <gongzhu.RuleSet.to_dict>` /
  :meth:`RuleSet.from_dict <gongzhu.RuleSet.from_dict>` (``rules``);
* a game record: :func:`gongzhu.record.dumps` / :func:`gongzhu.record.loads` (``record``).
* the web table's messages (``gongzhu serve``, ``docs/web_protocol.rst``): what a client
  sends (``web-client``) and what the server sends (``web-server``).

:func:`schema` returns each JSON Schema (draft 2020-12, self-contained).

>>> from gongzhu import Action, RuleSet, deal
>>> rnd = deal(RuleSet(exposable=""), seed=1)
>>> message = {"type": "play", "seat": rnd.to_act, "card": rnd.legal_plays[0].code}
>>> rnd = rnd.apply(Action.from_dict(message))
>>> rnd.history[-1].to_dict() == message
True
>>> sorted(schema("action")["oneOf"][0]["properties"])
['card', 'seat', 'type']

**Action ids** (for learning agents; ``docs/agents.rst`` has the observation
layouts): 0–51 play the card of that index; :data:`EXPOSE` ``+ m`` exposes
face up the subset ``m`` of :data:`EXPOSABLE_ORDER` (bit 0 = 10♣ … bit 3 =
Q♠; ``EXPOSE`` itself declines); :data:`EXPOSE_FACE_DOWN` ``+ m`` declares it
face down; :data:`CLAIM`, :data:`ACCEPT`, :data:`REFUSE`; then
:data:`EXPOSE_MIXED` ``+ k`` for the decisions that hold both kinds
(:data:`MIXED_PAIRS`\ ``[k]`` is the pair of subsets ``(up, down)``, RULES.md §9.1).

>>> action_for(54, seat=1)
Exposure(seat=1, cards=CardSet('JD'), face_down=False, blind=False)
>>> action_id(action_for(54, seat=1)), describe_action(54)
(54, 'expose JD')
>>> mixed = exposure_action_id(up="QS", down="TC")
>>> mixed, describe_action(mixed), action_for(mixed, seat=0).face_down
(90, 'expose QS, face down TC', CardSet('TC'))
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Final

from gongzhu._codec import encoding as _encoding
from gongzhu._codec import wire as _wire
from gongzhu._codec.encoding import (
    ACCEPT,
    CLAIM,
    EXPOSABLE_ORDER,
    EXPOSE,
    EXPOSE_FACE_DOWN,
    EXPOSE_MIXED,
    MIXED_PAIRS,
    NUM_ACTIONS,
    REFUSE,
)
from gongzhu.actions import Action, Claim, ClaimResponse, Exposure, Play
from gongzhu.cards import Card, CardSet
from gongzhu.cards import parse_cards as _parse_cards
from gongzhu.errors import IllegalActionError, ProtocolError, Reason, _brief

__all__ = [
    "ACCEPT",
    "CLAIM",
    "EXPOSABLE_ORDER",
    "EXPOSE",
    "EXPOSE_FACE_DOWN",
    "EXPOSE_MIXED",
    "MIXED_PAIRS",
    "NUM_ACTIONS",
    "REFUSE",
    "SCHEMA_NAMES",
    "action_for",
    "action_id",
    "describe_action",
    "exposure_action_id",
    "information_state_size",
    "observation_size",
    "schema",
]

SCHEMA_NAMES: Final = (
    "action",
    "error",
    "record",
    "rules",
    "score",
    "view",
    "web-client",
    "web-server",
)
"""The names :func:`schema` knows."""


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) named ``name``: one of :data:`SCHEMA_NAMES`.

    A fresh dict every call (change it freely).

    >>> s = schema("view")
    >>> s["$schema"], s["required"][:3]
    ('https://json-schema.org/draft/2020-12/schema', ['seat', 'phase', 'hand'])
    """
    if not isinstance(name, str) or name not in SCHEMA_NAMES:
        raise ProtocolError(f"no schema named {_brief(name)}; known: {', '.join(SCHEMA_NAMES)}")
    result: dict[str, Any] = json.loads(_schema_text(name))
    return result


@cache
def _schema_text(name: str) -> str:
    return (resources.files(__name__) / "schemas" / f"{name}.json").read_text(encoding="utf-8")


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
        raise ProtocolError(f"players must be 3, 4 or 5, got {_brief(players)}", "players")
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

    Both are sets of exposable cards (:data:`EXPOSABLE_ORDER`), disjoint; both
    empty is the decline, :data:`EXPOSE`.

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
    raise IllegalActionError(Reason.INVALID_CHOICE, None, detail=f"not an action: {_brief(action)}")


_EXPOSABLE_MASK: Final = sum(c.mask for c in EXPOSABLE_ORDER)
