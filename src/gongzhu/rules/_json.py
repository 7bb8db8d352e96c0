"""Option values as text and JSON: the forms ``describe``, ``repr``, the command line
and ``to_dict`` print, and the check of ``from_dict``'s JSON values. Private to
:mod:`gongzhu.rules`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from gongzhu._base.text import brief
from gongzhu.cards import Card, CardSet
from gongzhu.errors import RuleSetError
from gongzhu.rules._options import FACE_VALUE_HEARTS, STANDARD_HEARTS, PigWithAllHearts


def _kwargs(changes: Mapping[str, tuple[Any, Any]]) -> str:
    """Keywords for the changes of :meth:`RuleSet.diff` (this value, other value): this side."""
    return ", ".join(f"{k}={_code_value(v[0])!r}" for k, v in sorted(changes.items()))


def _code_value(value: Any) -> Any:
    """The value as the keyword a reader would write (text where the converters take text)."""
    if value == STANDARD_HEARTS:
        return "standard"
    if value == FACE_VALUE_HEARTS:
        return "face-value"
    return _json_value(value) if not isinstance(value, tuple) else value


def format_value(value: Any) -> str:
    """An option's value as :meth:`RuleSet.describe` words it (``gongzhu rules`` too)."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, (Card, CardSet)):
        return str(value) or "none"
    if value == STANDARD_HEARTS:
        return "standard"
    if value == FACE_VALUE_HEARTS:
        return "face-value"
    return str(value)


def _typed_value(value: Any) -> str:
    """An option's value as typed on the command line (``yes``/``no``; a list comma separated)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple) and value not in (STANDARD_HEARTS, FACE_VALUE_HEARTS):
        return ",".join(str(v) for v in value)
    if value is None:
        return "none"
    return format_value(value)


def _json_value(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (Card, CardSet)):
        return value.code
    if isinstance(value, tuple):
        return list(value)
    return value


def _check_json_option(name: str, field: attrs.Attribute[Any] | None, value: Any) -> None:
    """An option's value in the JSON form the ``rules`` schema publishes (#22 items 11, 19):
    ``"qs"`` or ``"10♣"`` for a card, a list for ``exposable``, ``true`` for a count
    are refused here, though :meth:`RuleSet.replace` reads them."""
    if field is None:
        return  # replace() names the unknown option
    kind = field.metadata.get("type")
    if value is None and field.metadata.get("optional"):
        return
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        ok = isinstance(value, (str, kind))
    elif kind is bool:
        ok = isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind is tuple:
        ok = isinstance(value, (list, tuple)) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        )
    elif kind is Card:
        ok = isinstance(value, Card) or (isinstance(value, str) and value in _CARD_CODES)
    elif kind is CardSet:
        ok = isinstance(value, (str, CardSet))
    else:
        ok = True
    if not ok:
        raise RuleSetError(f"{name}: {brief(value)} is not a value of the rules schema", [name])


_CARD_CODES: Final = frozenset(Card.from_index(i).code for i in range(52))


def _check_json_options(data: object, fields: Mapping[str, attrs.Attribute[Any]]) -> None:
    """``RuleSet.from_dict``'s checks of its mapping: its size, text names, JSON values."""
    if not isinstance(data, Mapping):
        raise RuleSetError(f"rules must be a mapping, got {type(data).__name__}")
    if len(data) > len(fields):
        raise RuleSetError(f"rules has {len(data)} keys; there are only {len(fields)} options")
    bad = [k for k in data if not isinstance(k, str)]
    if bad:
        raise RuleSetError(f"option names must be text, got {brief(bad[0])}")
    for name, value in data.items():
        _check_json_option(name, fields.get(name), value)


def _describe(
    rules: Any, head: str | None, changes: Mapping[str, object], names: Sequence[str]
) -> str:
    """``RuleSet.describe`` of ``rules`` (a RuleSet, typed ``Any``: its module calls this):
    ``head`` (its name), then one line per option, ``*`` marking the ``changes``."""
    lines = [head or f"Rule set: classic with {len(changes)} change(s)"]
    for option in names:
        value = format_value(getattr(rules, option))
        if option == "exposed_sheep_value" and rules.exposed_sheep_value is None:
            value = f"{rules.effective_exposed_sheep_value} (twice sheep_value)"
        mark = " *" if option in changes else ""
        note = _no_effect(rules, option)
        lines.append(f"  {option:28} {value}{mark}{f' (no effect: {note})' if note else ''}")
    return "\n".join(lines)


def _no_effect(rules: Any, option: str) -> str | None:
    """Why a non-default option changes nothing under the others, if it does not."""
    if (
        option == "pig_with_all_hearts"
        and rules.sign_swap
        and rules.pig_with_all_hearts is not PigWithAllHearts.POSITIVE
    ):
        return "sign_swap is on"
    return None
