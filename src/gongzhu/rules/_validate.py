"""Checks of a rule set: the option converters, the per-option type check and the
combinations that can never work. Private to :mod:`gongzhu.rules`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

import attrs

from gongzhu._base.text import brief
from gongzhu.cards import ACE_OF_HEARTS, Card, CardSet, Rank, parse_cards
from gongzhu.errors import CardParseError, RuleSetError, RuleSetTypeError
from gongzhu.rules._options import (
    _EXPOSABLE_CARDS,
    _REMOVED,
    FACE_VALUE_HEARTS,
    STANDARD_HEARTS,
    STANDARD_HEARTS_BY_RANK,
    ExposureKind,
    LaterLeader,
)

# -- converters (the boundary: text and JSON values become typed values) ------


def _enum_converter(kind: type[enum.Enum]) -> Any:
    def convert(value: Any) -> Any:
        if isinstance(value, kind):
            return value
        if isinstance(value, str):
            for member in kind:
                if value in (member.value, member.name, member.name.lower()):
                    return member
        return value  # the validator names the bad value

    convert.__name__ = f"to_{kind.__name__}"
    return convert


def _to_card(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return Card.parse(value)
        except CardParseError:
            return value
    return value


def _to_cardset(value: Any) -> Any:
    if isinstance(value, CardSet):
        return value
    if isinstance(value, (str, Iterable)):
        try:
            return parse_cards(value)
        except CardParseError:
            return value
    return value


def _to_heart_values(value: Any) -> Any:
    if isinstance(value, str):
        named = {"standard": STANDARD_HEARTS, "face-value": FACE_VALUE_HEARTS}
        return named.get(value, value)
    if isinstance(value, Mapping):
        try:
            table = dict(STANDARD_HEARTS_BY_RANK)
            for key, points in value.items():
                rank = key if isinstance(key, Rank) else Card.parse(f"{key}H").rank
                table[rank] = points
            return tuple(table[rank] for rank in Rank)
        except (ValueError, TypeError):  # CardParseError; a key past the str() digit limit
            return value
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return value


# -- validators ---------------------------------------------------------------


# Option ints stay JSON-safe (to_dict's promise), which also keeps every message
# and description cheap: a 5000-digit int cannot even be str()-ed by default.
_INT_LIMIT: Final = 2**53 - 1


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= _INT_LIMIT


def _check_type(inst: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    expected = attribute.metadata["type"]
    optional = attribute.metadata.get("optional", False)
    if value is None and optional:
        return
    ok = _is_int(value) if expected is int else isinstance(value, expected)
    if not ok:
        name = getattr(expected, "__name__", str(expected))
        if expected is int and isinstance(value, int) and not isinstance(value, bool):
            name = "int of at most 2**53 - 1 in size"
        if isinstance(expected, type) and issubclass(expected, enum.Enum):
            # The allowed values, as the text a caller may pass.
            name += " (one of " + ", ".join(repr(m.value) for m in expected) + ")"
        # A bad value of the right kind (an int too large, unknown text where text is
        # read) is a RuleSetError; a value of another type is a RuleSetTypeError too.
        bad_value = isinstance(value, int) if expected is int else isinstance(value, str)
        error = RuleSetError if bad_value and expected is not bool else RuleSetTypeError
        raise error(
            f"{attribute.name}: expected {name}{' or None' if optional else ''},"
            f" got {brief(value)}",
            [attribute.name],
        )


def _option(
    default: Any,
    type_: type,
    doc: str,
    sources: str,
    *,
    optional: bool = False,
    converter: Any = None,
) -> Any:
    return attrs.field(
        default=default,
        converter=converter,
        validator=_check_type,
        metadata={"type": type_, "doc": doc, "sources": sources, "optional": optional},
        kw_only=True,
    )


def _enum_option(default: enum.Enum, doc: str, sources: str) -> Any:
    kind = type(default)
    return _option(default, kind, doc, sources, converter=_enum_converter(kind))


def _validate(r: Any) -> None:
    """Refuse values out of range and the combinations that can never work.

    Only true impossibilities are refused (specification §7, §9.6): restrictions
    of play that merely collide in some position (hearts not broken, an
    exposed card held back, a blood lock) give way at play time in the order
    of §9.6 and are not refused here. The refused combinations:

    * pairs without exactly 4 players (partners sit opposite);
    * an opening card not in the deck (2♣ with 3 or 5 players): nobody holds it;
    * an exposable card other than A♥ Q♠ J♦ 10♣, or exposure kinds, blind
      exposure or a forced fourth exposure with nothing exposable;
    * a forced fourth exposure with fewer than four exposable cards (the
      fourth could never be forced);
    * a blood lock without A♥ exposable (it could never lock);
    * the sign swap, 猪羊满圈 or the zero sum without a small-slam effect
      (they act only on the all-hearts taker);
    * a leader who must lead the opening card under ``later_leader="rotate"``
      (the rotating leader need not hold it);
    * an exact flip without a loss threshold.

    ``r`` is a :class:`~gongzhu.RuleSet`, typed ``Any`` because the class's
    module calls this one (no import circles).
    """

    def fail(message: str, *options: str) -> None:
        raise RuleSetError(f"{', '.join(options)}: {message}", options)

    if r.players not in (3, 4, 5):
        fail(f"must be 3, 4 or 5, got {r.players}", "players")
    if r.partnerships and r.players != 4:
        fail("pairs need exactly 4 players", "players", "partnerships")
    if r.opening_card.mask & _REMOVED[r.players]:
        fail(
            f"the opening card {r.opening_card} is not in the {r.players}-player deck",
            "players",
            "opening_card",
        )
    if len(r.heart_values) != 13 or not all(_is_int(v) for v in r.heart_values):
        fail("needs 13 integer values (at most 2**53 - 1 in size), for 2♥ … A♥", "heart_values")
    if r.exposable.mask & ~_EXPOSABLE_CARDS.mask:
        extra = CardSet.from_mask(r.exposable.mask & ~_EXPOSABLE_CARDS.mask)
        fail(f"only A♥, Q♠, J♦ and 10♣ can be exposed, not {extra}", "exposable")
    if not r.exposable:
        for option, default in (
            ("exposure_kind", ExposureKind.OPEN),
            ("blind_exposure", False),
            ("three_exposed_force_fourth", False),
        ):
            if getattr(r, option) != default:
                fail("needs exposure (exposable is empty)", option, "exposable")
    if r.hearts_locked_by_exposed_ace and ACE_OF_HEARTS not in r.exposable:
        fail("needs A♥ to be exposable", "hearts_locked_by_exposed_ace", "exposable")
    if r.three_exposed_force_fourth and len(r.exposable) != 4:
        fail("needs all four cards exposable", "three_exposed_force_fourth", "exposable")
    if r.all_hearts_value is None:
        for option in ("sign_swap", "pig_sheep_together", "pig_sheep_zero_sum"):
            if getattr(r, option):
                fail(
                    "needs a small-slam effect (all_hearts_value is None)",
                    option,
                    "all_hearts_value",
                )
    _check_values(r, fail)


def _check_values(r: Any, fail: Callable[..., None]) -> None:
    """The value checks of :func:`_validate`: signs of the card values, thresholds, caps."""
    if r.pig_value >= 0:
        fail(f"must be negative (the pig is a penalty), got {r.pig_value}", "pig_value")
    if r.sheep_value <= 0:
        fail(f"must be positive (the sheep is a reward), got {r.sheep_value}", "sheep_value")
    if r.transformer_bonus < 0:
        fail(f"must be 0 or positive, got {r.transformer_bonus}", "transformer_bonus")
    if r.must_lead_opening_card and r.later_leader is LaterLeader.ROTATE:
        fail(
            "the rotating leader need not hold the opening card, so it cannot be made to lead it",
            "must_lead_opening_card",
            "later_leader",
        )
    if r.queen_of_diamonds_bonus < 0:
        fail(
            f"must be 0 (off) or positive, got {r.queen_of_diamonds_bonus}",
            "queen_of_diamonds_bonus",
        )
    if r.loss_threshold is not None and r.loss_threshold >= 0:
        fail(f"must be negative, got {r.loss_threshold}", "loss_threshold")
    if r.win_threshold is not None and r.win_threshold <= 0:
        fail(f"must be positive, got {r.win_threshold}", "win_threshold")
    if r.max_deals is not None and r.max_deals < 1:
        fail(f"must be at least 1, got {r.max_deals}", "max_deals")
    if r.exact_threshold_flips and r.loss_threshold is None:
        fail("needs a loss threshold", "exact_threshold_flips", "loss_threshold")
