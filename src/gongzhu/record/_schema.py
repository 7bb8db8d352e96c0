"""The JSON side of game records (:mod:`gongzhu.record`): strict parsing, checks, layout.

Parsing refuses what hostile text may hold (duplicate keys, ``NaN``, huge
numbers, deep nesting) with a :class:`~gongzhu.RecordError`; the checkers
turn a JSON value into a seat, a card, a rule set or names, or fail naming
where in the record the value is (:class:`_Where`); :func:`_layout` writes
the canonical indented text. Replaying actions through the engine is
:mod:`gongzhu.record`'s job.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from typing import Any, Final, NoReturn

from gongzhu._base.seeds import check_seed
from gongzhu.cards import Card
from gongzhu.errors import GongzhuError, RecordError
from gongzhu.match import Match
from gongzhu.rules import PRESETS, RuleSet

_MAX_INT_DIGITS: Final = 80
_MAX_NAME: Final = 100
_MAX_OVERRIDES: Final = 100
_RESULT_KEYS: Final = ("totals", "end_reason", "losers", "winners")
_MAX_CLIP: Final = 300
_CODES: Final = {Card.from_index(i).code: Card.from_index(i) for i in range(52)}


# -- parsing -----------------------------------------------------------------------------


class _Reject(Exception):
    """Raised inside the json hooks; turned into a RecordError."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Reject(f"duplicate key {_clip(repr(key))}")
        out[key] = value
    return out


def _parse_int(text: str) -> int:
    if len(text) > _MAX_INT_DIGITS + 1:
        raise _Reject(f"a number with {len(text)} digits is too long")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > _MAX_INT_DIGITS + 10:
        raise _Reject(f"a number of {len(text)} characters is too long")
    return float(text)


def _parse_constant(name: str) -> NoReturn:
    raise _Reject(f"{name} is not allowed in a record")


def parse_json(text: str) -> Any:
    """The JSON value of ``text``, read as a game record is: or a RecordError saying why not.

    The reader every JSON input of the library goes through: a duplicate key, a
    non-finite number (``NaN``), an int or a nesting too large is refused with a
    :class:`~gongzhu.RecordError`, never an exception from deep inside.

    >>> parse_json('{"seed": 7}')
    {'seed': 7}
    >>> parse_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    gongzhu.errors.RecordError: not a valid record: duplicate key 'a'
    """
    try:
        return json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except _Reject as exc:
        raise RecordError(f"not a valid record: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise RecordError("not a valid record: JSON nested too deeply") from None
    except ValueError as exc:  # e.g. the interpreter's limit on integer digits
        raise RecordError(f"not a valid record: {_clip(str(exc))}") from None


# -- checking values ---------------------------------------------------------------------


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_CLIP else text[:_MAX_CLIP] + "…"


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _show(value: Any) -> str:
    """A short description of a JSON value for an error message."""
    return _clip(json.dumps(value, ensure_ascii=False)) if _is_scalar(value) else _kind(value)


def _kind(value: Any) -> str:
    kinds = ((dict, "an object"), (list, "a list"), (bool, "a boolean"), (int, "an integer"),
             (float, "a number with a fraction"), (str, "text"))  # fmt: skip
    for cls, name in kinds:
        if isinstance(value, cls):
            return name
    return "null" if value is None else type(value).__name__


def _is_unicode(text: str) -> bool:
    # JSON escapes may spell lone surrogates, which no file encoding (nor the shuffle) takes.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _Where:
    """Where in the record a value is: for error messages."""

    __slots__ = ("deal", "field", "move")

    def __init__(self, field: str | None, deal: int | None = None, move: int | None = None):
        self.field = field
        self.deal = deal
        self.move = move

    def fail(self, message: str) -> NoReturn:
        raise RecordError(message, deal=self.deal, move=self.move, field=self.field)

    def at(self, field: str) -> _Where:
        return _Where(field, self.deal, self.move)


def _object(
    value: Any, where: _Where, allowed: Sequence[str], required: Sequence[str]
) -> dict[str, Any]:
    if not isinstance(value, dict):
        where.fail(f"expected an object, got {_kind(value)}")
    for key in value:
        if key not in allowed:
            where.fail(f"unknown field {_clip(repr(key))}; expected {', '.join(allowed)}")
    for key in required:
        if key not in value:
            where.fail(f"missing field {key!r}")
    return value


def _int(value: Any, where: _Where) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        where.fail(f"expected an integer, got {_show(value)}")
    return value


def _seat(value: Any, n: int, where: _Where) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        where.fail(f"expected a seat 0-{n - 1}, got {_show(value)}")
    return value


def _bool(value: Any, where: _Where) -> bool:
    if not isinstance(value, bool):
        where.fail(f"expected true or false, got {_show(value)}")
    return value


def _list(value: Any, where: _Where, limit: int) -> list[Any]:
    if not isinstance(value, list):
        where.fail(f"expected a list, got {_kind(value)}")
    if len(value) > limit:
        where.fail(f"too long: {len(value)} items, at most {limit}")
    return value


def _card(value: Any, where: _Where) -> Card:
    card = _CODES.get(value) if isinstance(value, str) else None
    if card is not None:
        return card
    if not isinstance(value, str):
        where.fail(f"expected a card code such as 'QS', got {_show(value)}")
    try:
        return Card.parse(value)
    except GongzhuError as exc:
        where.fail(f"bad card {_show(value)}: {exc}")


def _cards(value: Any, where: _Where) -> list[Card]:
    return [_card(v, where) for v in _list(value, where, 52)]


# -- checking fields ---------------------------------------------------------------------


# Characters a record's text may not hold (#11 item 10): controls (C0, DEL, C1),
# format characters (bidi overrides and isolates, zero-width spaces and joiners,
# the BOM), line and paragraph separators, surrogates and private use. Printed
# raw they can move the cursor, reorder a line or make two names look alike.
_FORBIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


def _bad_text(text: str, what: str) -> str | None:
    """Why ``text`` may not be a name or a text seed in a record, or None if it may."""
    if not _is_unicode(text):
        return f"{what} is not valid Unicode (it has a lone surrogate)"
    for position, ch in enumerate(text):
        if unicodedata.category(ch) in _FORBIDDEN_CATEGORIES:
            return f"{what} has a control or invisible character U+{ord(ch):04X} at {position}"
    if text != text.strip():
        return f"{what} starts or ends with white space"
    return None


def _name_key(name: str) -> str:
    """What two names that look alike share: compatibility form, case folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _check_seed(seed: Any, where: _Where) -> None:
    if (seed is not None and not isinstance(seed, (int, str))) or isinstance(seed, bool):
        where.fail(f"expected an integer, text or null, got {_show(seed)}")
    # The library's one seed check; a record's text seed is also a printable name-like text.
    check_seed(seed, error=where.fail)
    if isinstance(seed, str):
        why = _bad_text(seed, "a text seed")
        if why is not None:
            where.fail(why)


def _read_hands(value: Any, n: int, where: _Where) -> list[list[Card]]:
    rows = _list(value, where, n)
    if len(rows) != n:
        where.fail(f"expected {n} hands, one per seat, got {len(rows)}")
    return [_cards(row, where) for row in rows]


def _read_rules(value: Any) -> RuleSet:
    where = _Where("rules")
    obj = _object(value, where, ("preset", "overrides"), ("preset",))
    name = obj["preset"]
    if not isinstance(name, str) or name not in PRESETS:
        where.at("rules.preset").fail(f"unknown preset {_show(name)}; known: {', '.join(PRESETS)}")
    overrides = obj.get("overrides", {})
    at = where.at("rules.overrides")
    if not isinstance(overrides, dict):
        at.fail(f"expected an object, got {_kind(overrides)}")
    if len(overrides) > _MAX_OVERRIDES:
        at.fail(f"too many options: {len(overrides)}")
    try:
        return RuleSet.from_dict(overrides, base=PRESETS[name])
    except (GongzhuError, TypeError, ValueError, KeyError, AttributeError, OverflowError) as exc:
        # The option converters see raw JSON values; anything they refuse is a bad record.
        at.fail(_clip(str(exc)))


def _read_names(value: Any, rules: RuleSet) -> tuple[str, ...] | None:
    if value is None:
        return None
    where = _Where("players")
    items = _list(value, where, rules.players)
    if len(items) != rules.players:
        where.fail(f"expected {rules.players} names, one per seat, got {len(items)}")
    for seat, name in enumerate(items):
        if not isinstance(name, str) or not name.strip():
            where.fail(f"seat {seat} needs a non-empty name, got {_show(name)}")
        if len(name) > _MAX_NAME:
            where.fail(f"seat {seat}'s name is longer than {_MAX_NAME} characters")
        why = _bad_text(name, f"seat {seat}'s name")
        if why is not None:
            where.fail(why)
    # "Ann", "ANN" and "Ａｎｎ" are one player to whoever reads the standings (#11 item 10).
    first: dict[str, int] = {}
    for seat, name in enumerate(items):
        other = first.setdefault(_name_key(name), seat)
        if other != seat:
            where.fail(f"the names must be distinct: seats {other} and {seat} look alike")
    return tuple(items)


def _check_match_result(value: Any, match: Match | None) -> None:
    where = _Where("result")
    obj = _object(value, where, _RESULT_KEYS, ())
    if match is None or not match.deals:
        where.fail("a match result is given but no deal is complete")
    expected = _result_dict(match)
    for key in _RESULT_KEYS:
        if key in obj and obj[key] != expected[key]:
            shown = _show(obj[key]) if _is_scalar(obj[key]) else _clip(repr(obj[key]))
            where.fail(f"{key}: the record says {shown} but the replay gives {expected[key]!r}")
    # Equal values can still have the wrong JSON type (true == 1): check the types too.
    for key in ("totals", "losers", "winners"):
        if key in obj:
            for v in _list(obj[key], where, 5):
                _int(v, where)


def _result_dict(match: Match) -> dict[str, Any]:
    return {
        "totals": list(match.totals),
        "end_reason": match.end_reason.value if match.end_reason is not None else None,
        "losers": list(match.losers),
        "winners": list(match.winners),
    }


# -- text layout -------------------------------------------------------------------------


def _layout(value: Any, indent: int, level: int = 0, key: str | None = None,
            players: int = 4) -> str:  # fmt: skip
    """Indented JSON with short lists on one line and ``actions`` one trick per line."""
    pad = " " * (indent * (level + 1))
    end = " " * (indent * level)
    if isinstance(value, dict):
        if not value:
            return "{}"
        if level > 0 and all(_is_flat(v) for v in value.values()):
            return json.dumps(value, ensure_ascii=False)
        if key == "deals" or "hands" in value:
            players = len(value.get("hands", [])) or players
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {_layout(v, indent, level + 1, k, players)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(value, list):
        if key == "actions":
            return _layout_actions(value, pad, end, players)
        if all(_is_scalar(v) or (isinstance(v, dict) and _is_flat(v)) for v in value):
            return json.dumps(value, ensure_ascii=False)
        items = [pad + _layout(v, indent, level + 1, None, players) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    return json.dumps(value, ensure_ascii=False)


def _is_flat(value: Any) -> bool:
    if isinstance(value, list):
        return all(_is_scalar(v) for v in value)
    if isinstance(value, dict):
        return all(_is_scalar(v) for v in value.values())
    return _is_scalar(value)


def _layout_actions(actions: list[Any], pad: str, end: str, players: int) -> str:
    if not actions:
        return "[]"
    lines: list[list[str]] = [[]]
    cards = 0
    for action in actions:
        lines[-1].append(json.dumps(action, ensure_ascii=False))
        if isinstance(action, str):
            cards += 1
            if cards % players == 0:
                lines.append([])
    rows = [pad + ", ".join(line) for line in lines if line]
    return "[\n" + ",\n".join(rows) + "\n" + end + "]"
