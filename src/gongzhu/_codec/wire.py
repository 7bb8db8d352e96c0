"""The client protocol's plain-data side: checked reading of untrusted JSON values.

Every reader takes a value that came from outside (``json.loads`` of a client's
message), checks its type, range and size, and either returns library objects
or raises :class:`~gongzhu.errors.ProtocolError` naming where the bad value is
(``"tricks[3].cards[1]"``). Nothing here is slower than linear in the input,
and every list is bounded (a deal has at most 52 cards), so a hostile message
costs no more than a well-formed one.

Below :mod:`gongzhu.actions`, :mod:`gongzhu.view` and :mod:`gongzhu.protocol`:
it imports only cards, rules, trick, phase and errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NoReturn

from gongzhu._base.text import brief
from gongzhu.cards import Card, CardSet, unchecked_cardset
from gongzhu.errors import GongzhuError, ProtocolError
from gongzhu.phase import Phase
from gongzhu.rules import RuleSet
from gongzhu.trick import Trick

CODES: Final = {Card.from_index(i).code: Card.from_index(i) for i in range(52)}
"""Card code → card: the only card spelling the protocol reads (``"QS"``, ``"TC"``)."""
MAX_SEATS: Final = 5
_MAX_INT: Final = 2**53  # JSON numbers beyond this lose precision in JavaScript
_PHASES: Final = {p.value: p for p in Phase}


def fail(message: str, path: str) -> NoReturn:
    raise ProtocolError(message, path)


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def obj(
    data: Any, path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> Mapping[str, Any]:
    """``data`` as a mapping with exactly the required keys and some of the optional ones."""
    if not isinstance(data, Mapping):
        fail(f"expected an object, got {_kind(data)}", path)
    known = set(required) | set(optional)
    for key in data:
        if key not in known:
            fail("unknown field" if isinstance(key, str) else "field names must be text",
                 join(path, key if isinstance(key, str) else brief(key)))  # fmt: skip
    for key in required:
        if key not in data:
            fail("missing field", join(path, key))
    return data


def integer(value: Any, path: str, lo: int = -_MAX_INT, hi: int = _MAX_INT) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        fail(f"expected an integer, got {_kind(value)}", path)
    if not lo <= value <= hi:
        fail(f"expected an integer {lo}-{hi}, got {brief(value)}", path)
    return value


def optional_int(value: Any, path: str, lo: int = -_MAX_INT, hi: int = _MAX_INT) -> int | None:
    return None if value is None else integer(value, path, lo, hi)


def boolean(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        fail(f"expected true or false, got {_kind(value)}", path)
    return value


def text(value: Any, path: str, limit: int = 1000) -> str:
    if not isinstance(value, str):
        fail(f"expected text, got {_kind(value)}", path)
    if len(value) > limit:
        fail(f"text of {len(value)} characters is too long (at most {limit})", path)
    return value


def seq(value: Any, path: str, limit: int) -> list[Any] | tuple[Any, ...]:
    if not isinstance(value, (list, tuple)):
        fail(f"expected a list, got {_kind(value)}", path)
    if len(value) > limit:
        fail(f"a list of {len(value)} items is too long (at most {limit})", path)
    return value


def card(value: Any, path: str) -> Card:
    if not isinstance(value, str) or value not in CODES:
        fail(f"not a card: {brief(value)} (cards are codes like 'QS', 'TC')", path)
    return CODES[value]


def optional_card(value: Any, path: str) -> Card | None:
    return None if value is None else card(value, path)


def cards(value: Any, path: str) -> CardSet:
    """A list of distinct card codes as a CardSet."""
    mask = 0
    for i, item in enumerate(seq(value, path, 52)):
        bit = card(item, join(path, i)).mask
        if mask & bit:
            fail(f"{CODES[item]} appears twice", join(path, i))
        mask |= bit
    return unchecked_cardset(mask)


def card_list(value: Any, path: str, limit: int = 52) -> tuple[Card, ...]:
    """A list of distinct card codes, order kept."""
    out: list[Card] = []
    mask = 0
    for i, item in enumerate(seq(value, path, limit)):
        c = card(item, join(path, i))
        if mask & c.mask:
            fail(f"{c} appears twice", join(path, i))
        mask |= c.mask
        out.append(c)
    return tuple(out)


def codes(cs: CardSet) -> list[str]:
    return [c.code for c in cs]


def seat(value: Any, path: str, players: int = MAX_SEATS) -> int:
    return integer(value, path, 0, players - 1)


def optional_seat(value: Any, path: str, players: int = MAX_SEATS) -> int | None:
    return None if value is None else seat(value, path, players)


def per_seat(value: Any, path: str, players: int) -> list[Any] | tuple[Any, ...]:
    items = seq(value, path, players)
    if len(items) != players:
        fail(f"expected one entry per seat ({players}), got {len(items)}", path)
    return items


def rules(value: Any, path: str) -> RuleSet:
    if not isinstance(value, Mapping):
        fail(f"expected an object of rule options, got {_kind(value)}", path)
    if len(value) > 200:
        fail("too many rule options", path)
    try:
        return RuleSet.from_dict(value)
    except GongzhuError as exc:
        fail(str(exc), path)
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        fail(f"bad rule options ({type(exc).__name__})", path)


def phase(value: Any, path: str) -> Phase:
    if not isinstance(value, str) or value not in _PHASES:
        fail(f"expected one of {sorted(_PHASES)}, got {brief(value)}", path)
    return _PHASES[value]


# -- tricks -------------------------------------------------------------------------------


def trick_to_dict(t: Trick) -> dict[str, Any]:
    return {
        "leader": t.leader,
        "cards": [c.code for c in t.cards],
        "seats": list(t.seats),
        "winner": t.winner,
    }


def trick_from_dict(data: Any, path: str, players: int, *, complete: bool) -> Trick:
    """A trick; ``complete`` ones have every seat's card and a winner, open ones neither."""
    d = obj(data, path, ("leader", "cards", "winner"), ("seats",))
    leader = seat(d["leader"], join(path, "leader"), players)
    played = card_list(d["cards"], join(path, "cards"), players)
    winner = optional_seat(d["winner"], join(path, "winner"), players)
    if complete and (len(played) != players or winner is None):
        fail(f"a completed trick has {players} cards and a winner", path)
    if not complete and winner is not None:
        fail("the trick in progress has no winner yet", join(path, "winner"))
    t = Trick(leader, played, winner, players)
    if "seats" in d:
        given = seq(d["seats"], join(path, "seats"), players)
        if [seat(x, join(join(path, "seats"), i), players) for i, x in enumerate(given)] != list(
            t.seats
        ):
            fail("must list the seat of each card, in play order from the leader",
                 join(path, "seats"))  # fmt: skip
    return t


def _kind(value: Any) -> str:
    kinds = ((bool, "a boolean"), (int, "an integer"), (float, "a number"), (str, "text"),
             (Mapping, "an object"), (list, "a list"), (tuple, "a list"))  # fmt: skip
    for cls, name in kinds:
        if isinstance(value, cls):
            return name
    return "null" if value is None else type(value).__name__
