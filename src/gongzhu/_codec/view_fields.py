"""The JSON values of a :class:`~gongzhu.PlayerView`'s fields, read and written by each
field's declared type (``to_dict``/``from_dict``). Private to :mod:`gongzhu.view`.
"""

from __future__ import annotations

from typing import Any, Final

from gongzhu._base.text import brief
from gongzhu._codec import wire as _wire
from gongzhu.cards import Card, CardSet
from gongzhu.phase import Pending, Phase
from gongzhu.rules import RuleSet
from gongzhu.trick import Trick

_SEAT_FIELDS: Final = frozenset({"seat", "to_act", "leader", "dealer"})
_PENDING: Final = {p.value: p for p in Pending}


def same_json(given: Any, computed: Any) -> bool:
    """JSON equality that keeps booleans, integers and floats apart."""
    if type(given) is not type(computed):
        return False
    if isinstance(given, dict):
        return given.keys() == computed.keys() and all(
            same_json(given[k], computed[k]) for k in given
        )
    if isinstance(given, list):
        return len(given) == len(computed) and all(
            same_json(a, b) for a, b in zip(given, computed, strict=True)
        )
    return bool(given == computed)


def encode_value(value: Any) -> Any:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, CardSet):
        return _wire.codes(value)
    if isinstance(value, Trick):
        return _wire.trick_to_dict(value)
    if isinstance(value, (Phase, Pending)):
        return value.value
    if isinstance(value, RuleSet):
        return value.to_dict()
    if isinstance(value, tuple):
        return [encode_value(v) for v in value]
    return value


def claim_pending_of(value: Any, players: int) -> tuple[int, tuple[int, ...]]:
    # Checked like wire data: it is a caller's argument, and a wrong one must not raise raw.
    pair = _wire.seq(value, "claim_pending", 2)
    if len(pair) != 2:
        _wire.fail("expected (claimer, answered seats)", "claim_pending")
    claimer = _wire.seat(pair[0], "claim_pending[0]", players)
    seats = _wire.seq(pair[1], "claim_pending[1]", players)
    answered = tuple(
        _wire.seat(v, _wire.join("claim_pending[1]", i), players) for i, v in enumerate(seats)
    )
    return claimer, answered


MAX_HISTORY: Final = 10_000
"""The largest ``history_length`` a view may state (a deal has about 60 actions; refused
claims may add more, never this many)."""


def decode_field(name: str, kind: Any, value: Any, players: int) -> Any:
    """One field's value, read by its declared type (a string: annotations are postponed)."""
    kind = str(kind)
    seatlike = name in _SEAT_FIELDS
    if name == "history_length":  # actions so far: plays, exposures, claims and answers
        return _wire.integer(value, name, 0, MAX_HISTORY)
    if kind == "int":
        return _wire.seat(value, name, players) if seatlike else _wire.integer(value, name, 0, 52)
    if kind == "int | None":
        if seatlike:
            return _wire.optional_seat(value, name, players)
        return _wire.optional_int(value, name, 0, 52)
    if kind == "bool":
        return _wire.boolean(value, name)
    if kind == "Phase":
        return _wire.phase(value, name)
    if kind == "Pending | None":
        if value is None:
            return None
        if not isinstance(value, str) or value not in _PENDING:
            _wire.fail(f"expected one of {sorted(_PENDING)} or null, got {brief(value)}", name)
        return _PENDING[value]
    if kind == "CardSet":
        return _wire.cards(value, name)
    if kind == "Card | None":
        return _wire.optional_card(value, name)
    if kind == "Trick":
        return _wire.trick_from_dict(value, name, players, complete=False)
    if kind == "tuple[Trick, ...]":
        items = _wire.seq(value, name, 52 // players)
        path = _wire.join
        return tuple(
            _wire.trick_from_dict(t, path(name, i), players, complete=True)
            for i, t in enumerate(items)
        )
    if kind == "tuple[CardSet, ...]":
        items = _wire.per_seat(value, name, players)
        return tuple(_wire.cards(v, _wire.join(name, i)) for i, v in enumerate(items))
    if kind == "tuple[int, ...]":
        if seatlike or name.endswith("decided"):
            items = _wire.seq(value, name, players)
            seats = tuple(_wire.seat(v, _wire.join(name, i), players) for i, v in enumerate(items))
            if name.endswith("decided") and len(set(seats)) != len(seats):
                _wire.fail("a seat may be listed once", name)
            return seats
        items = _wire.per_seat(value, name, players)
        return tuple(_wire.integer(v, _wire.join(name, i), 0, 52) for i, v in enumerate(items))
    raise TypeError(f"PlayerView.{name}: no JSON reader for {kind}")  # a new field needs one
