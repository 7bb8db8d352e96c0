"""Checks and normalisation of scoring input: exposed cards and factors, card piles,
running totals, the fields of a hand-built DealScore. Private to :mod:`gongzhu.scoring`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import islice
from typing import Any, Final, NoReturn

from gongzhu._base.frozen import FrozenMap
from gongzhu._base.text import brief
from gongzhu.cards import Card, CardSet, parse_cards
from gongzhu.errors import CardParseError, DealError, DealTypeError
from gongzhu.rules import RuleSet

_DEFAULT_RULES: Final = RuleSet()
_INT_LIMIT: Final = 2**53 - 1


def _frozen_factors(value: Any) -> Mapping[Card, int]:
    if isinstance(value, FrozenMap):
        return value
    if not isinstance(value, Mapping):
        raise DealError(f"exposed must be a mapping card → factor, got {brief(value)}")
    if len(value) > 4:
        raise DealError(f"at most 4 cards can be exposed, got {len(value)}")
    return FrozenMap(value)


def _is_small_int(value: object) -> bool:
    return value.__class__ is int and -_INT_LIMIT <= value <= _INT_LIMIT


def _check_deal_score(
    rules: object,
    totals: object,
    captures: object,
    exposed: Mapping[Any, Any],
    seats: dict[str, int | None],
    lines: object,
) -> None:
    """The checks of DealScore's public constructor (a DealError names the first bad field)."""
    if not isinstance(rules, RuleSet):
        raise DealError(f"rules must be a RuleSet, got {brief(rules)}")
    n = rules.players
    if not isinstance(totals, tuple) or not 1 <= len(totals) <= n:
        raise DealError(f"totals must be a tuple of 1 to {n} ints, got {brief(totals)}")
    if not all(_is_small_int(t) for t in totals):
        raise DealError(f"totals must be ints (at most 2**53 - 1 in size), got {brief(totals)}")
    if (
        not isinstance(captures, tuple)
        or len(captures) != len(totals)
        or not all(isinstance(c, CardSet) for c in captures)
    ):
        raise DealError(f"captures must be a tuple of {len(totals)} CardSets")
    for card, factor in exposed.items():
        if not isinstance(card, Card) or not _is_small_int(factor) or not 1 <= factor <= 64:
            raise DealError(f"exposed must map cards to factors 1-64, got {brief(dict(exposed))}")
    for label, seat in seats.items():
        if seat is not None and (not _is_small_int(seat) or not 0 <= seat < len(totals)):
            raise DealError(
                f"{label} must be a seat 0-{len(totals) - 1} or None, got {brief(seat)}"
            )
    if (
        not isinstance(lines, tuple)
        or len(lines) != len(totals)
        or not all(
            isinstance(line, tuple) and len(line) == 9 and all(_is_small_int(v) for v in line)
            for line in lines
        )
    ):
        raise DealError(f"lines must be {len(totals)} tuples of 9 ints, one per seat")
    if not all(line[4] in (0, 1, 2) for line in lines):
        raise DealError("lines: the transformer kind (item 5) must be 0, 1 or 2")


def _same(given: Any, stated: Any) -> bool:
    """JSON equality that keeps booleans and numbers apart (``true`` is not ``1``)."""
    if isinstance(given, bool) or isinstance(stated, bool):
        return type(given) is type(stated) and given == stated
    if isinstance(given, Mapping) and isinstance(stated, Mapping):
        return given.keys() == stated.keys() and all(_same(given[k], stated[k]) for k in given)
    if isinstance(given, list) and isinstance(stated, list):
        return len(given) == len(stated) and all(
            _same(a, b) for a, b in zip(given, stated, strict=True)
        )
    if isinstance(given, (list, Mapping)) or isinstance(stated, (list, Mapping)):
        return False
    if isinstance(given, float) and isinstance(stated, int):
        return False  # the schema's integers are written as integers
    return bool(given == stated)


def exposure_factors(
    exposed: Iterable[Card | str] | str | Mapping[Card | str, int] | None,
    *,
    rules: RuleSet | str = _DEFAULT_RULES,
) -> dict[Card, int]:
    """Normalise an ``exposed`` argument to {card: factor}, checked against the rules.

    A plain collection of cards gets the rule set's face-up factor (2; 4 under
    ``exposure_kind="face-down-up"``); a mapping gives each card's factor
    (e.g. 2 for face down, 8 for a blind face-up exposure).

    >>> exposure_factors("QS TC")
    {Card('TC'): 2, Card('QS'): 2}
    """
    if isinstance(rules, str):  # a preset's name
        rules = RuleSet.preset(rules)
    if not isinstance(rules, RuleSet):
        raise DealError(f"rules must be a RuleSet, got {type(rules).__name__}")
    if exposed is None:
        return {}
    face_up = rules.face_up_factor
    factors: dict[Card, int] = {}
    if isinstance(exposed, Mapping):
        if len(exposed) > 4:
            raise DealError(f"at most 4 cards can be exposed, got a mapping of {len(exposed)}")
        for key, factor in exposed.items():
            card = key if isinstance(key, Card) else _one_card(key)
            if not isinstance(factor, int) or isinstance(factor, bool) or not 1 <= factor <= 64:
                raise DealError(
                    f"exposure factor of {card} must be an int 1-64, got {brief(factor)}"
                )
            factors[card] = factor
    else:
        for card in _as_cardset(exposed, "exposed"):
            factors[card] = face_up
    for card in factors:
        if card not in rules.exposable:
            allowed = str(rules.exposable) or "none (exposure is off)"
            raise DealError(f"{card} cannot be exposed under these rules (exposable: {allowed})")
    return dict(sorted(factors.items()))


def _one_card(value: Any) -> Card:
    try:
        return Card.parse(value)
    except CardParseError as exc:
        # The parse error (its token and position) stays attached as the cause.
        raise DealError(f"bad exposed card: {exc}") from exc


# More items than any valid argument can have: a pile holds at most the 52 cards.
_MAX_PILE: Final = 52


def _bounded(value: Any, limit: int, what: str) -> list[Any]:
    """At most ``limit`` items of an iterable; one more is refused before it is stored."""
    try:
        items = list(islice(value, limit + 1))
    except TypeError:
        raise DealTypeError(f"{what} must be cards, got {type(value).__name__}") from None
    if len(items) > limit:
        raise DealError(f"{what}: more than {limit} items")
    return items


def _as_cardset(value: Any, what: str) -> CardSet:
    if isinstance(value, CardSet):
        return value
    if not isinstance(value, str) and isinstance(value, Iterable):
        value = _bounded(value, _MAX_PILE, what)
    try:
        return parse_cards(value)
    except CardParseError as exc:
        # The parse error (its token and position) stays attached as the cause.
        error = DealTypeError if isinstance(exc, TypeError) else DealError
        raise error(f"{what}: {exc}") from exc


_SCORE_KEYS: Final = ("totals", "team_totals", "all_hearts_seat", "grand_slam_seat", "pig_taker",
                      "rules", "captures", "exposed", "queen_bonus_tricks", "players")  # fmt: skip
_CODES: Final = frozenset(Card.from_index(i).code for i in range(52))


def _score_field(field: str, message: str) -> NoReturn:
    raise DealError(f"score field {field!r}: {message}")


def _score_inputs(data: Any) -> tuple[RuleSet, list[Any], Mapping[str, Any], Any]:
    """What ``DealScore.from_dict`` re-scores: the rules, the capture lists of codes, the
    exposed codes → factors and the Q♦ counts, each checked (a DealError names the field)."""
    if not isinstance(data, Mapping):
        _score_field("", f"a score is an object, got {type(data).__name__}")
    unknown = [k for k in data if k not in _SCORE_KEYS]
    if unknown:
        _score_field(str(unknown[0])[:40], "unknown field")
    for key in ("rules", "captures"):
        if key not in data:
            _score_field(key, "missing")
    raw_rules = data["rules"]
    if not isinstance(raw_rules, Mapping):
        _score_field("rules", "expected an object of rule options")
    rules = RuleSet.from_dict(raw_rules)
    captures, exposed = data["captures"], data.get("exposed", {})
    queen = data.get("queen_bonus_tricks")
    if not isinstance(captures, list) or not 1 <= len(captures) <= rules.players:
        _score_field("captures", f"expected a list of 1-{rules.players} card lists")
    if not all(
        isinstance(p, list) and all(isinstance(c, str) and c in _CODES for c in p) for p in captures
    ):
        # Codes only, as the schema says ("QS"; not "q♠", "jd" or "10♣"): #22 item 11.
        _score_field("captures", "expected lists of card codes")
    if not isinstance(exposed, Mapping) or len(exposed) > 4:
        _score_field("exposed", "expected an object of at most 4 card codes → factors")
    if not all(isinstance(k, str) and k in _CODES for k in exposed):
        _score_field("exposed", "expected card codes as keys")
    if queen is not None and not isinstance(queen, list):
        _score_field("queen_bonus_tricks", "expected a list of counts or null")
    return rules, captures, exposed, queen
