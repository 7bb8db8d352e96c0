"""Deal files for the arena: :func:`save_deals`, :func:`load_deals`, the shipped :data:`DEAL_FILE`.

Import these names from :mod:`gongzhu.ai.arena`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from gongzhu._base.text import brief as _brief
from gongzhu.cards import CardSet, parse_cards
from gongzhu.dealing import deal
from gongzhu.errors import ArgumentTypeError, GongzhuError, RecordError, RuleSetError
from gongzhu.record import parse_json as _parse_json
from gongzhu.round import Round
from gongzhu.rules import RuleSet

__all__ = ["DEAL_FILE", "ArenaError", "ArenaTypeError", "load_deals", "save_deals"]

DEAL_FILE: Final = Path(__file__).with_name("deals-1024.json")
"""The deal file shipped with the package: 1,024 fixed 4-player deals."""
_MAX_FILE_BYTES: Final = 32 * 1024 * 1024
_MAX_DEALS: Final = 1_000_000
_FORMAT: Final = "gongzhu-deals"
_CLASSIC: Final = RuleSet()


class ArenaError(GongzhuError, ValueError):
    """Bad arena arguments: an unknown bot, a bad deal file, rotations that do not fit the table."""


class ArenaTypeError(ArenaError, ArgumentTypeError):
    """An arena argument of the wrong type (a number for a bot, text for ``workers``): an
    :class:`ArenaError` and a :class:`~gongzhu.errors.ArgumentTypeError` (a ``TypeError``)."""


def _arena_rules(rules: object) -> RuleSet:
    """The arena's ``rules=``: a :class:`RuleSet`, or the preset named (an unknown name is an
    :class:`ArenaError` listing the presets); ``None`` is the classic rules."""
    if rules is None:
        return _CLASSIC
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        try:
            return RuleSet.preset(rules)
        except RuleSetError as exc:
            raise ArenaError(str(exc)) from None
    raise ArenaTypeError(f"rules must be a RuleSet or a preset's name, got {type(rules).__name__}")


# -- deal files ------------------------------------------------------------------------


def save_deals(path: str | os.PathLike[str], hands: Sequence[Sequence[CardSet]]) -> None:
    """Write deals (one hand per seat each) as a deal file :func:`load_deals` reads."""
    p = _path(path)
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise ArenaTypeError(f"hands must be a sequence of deals, got {type(hands).__name__}")
    if len(hands) > _MAX_DEALS:
        raise ArenaError(f"hands must be a sequence of deals, got {type(hands).__name__}")
    rows = []
    for k, deal_ in enumerate(hands):
        if (
            isinstance(deal_, (str, bytes))
            or not isinstance(deal_, Sequence)
            or not all(isinstance(hand, CardSet) for hand in deal_)
            or len(deal_) not in (4, 5)
        ):
            raise ArenaError(f"deal {k} must be 4 or 5 CardSets, one per seat")
        rows.append([" ".join(c.code for c in hand) for hand in deal_])
    players = len(rows[0]) if rows else 4
    data = {"format": _FORMAT, "version": 1, "players": players, "deals": rows}
    try:
        p.write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise ArenaError(f"{_shown(p)}: {_brief(getattr(exc, 'strerror', None) or exc)}") from None


def _shown(p: Path) -> str:
    text = str(p)
    return text if len(text) <= 200 else text[:120] + "…" + text[-60:]


def _path(path: object) -> Path:
    if not isinstance(path, (str, os.PathLike)):
        raise ArenaTypeError(f"a deal file is a path, got {type(path).__name__}")
    try:
        return Path(path)
    except (TypeError, ValueError) as exc:
        raise ArenaError(f"not a path: {_brief(str(exc))}") from None


def load_deals(
    path: str | os.PathLike[str], *, rules: RuleSet | str | None = None
) -> list[list[CardSet]]:
    """Read a deal file: a JSON object ``{"format": "gongzhu-deals", "version": 1,
    "players": 4, "deals": [[hand, hand, hand, hand], ...]}``, each hand a string of
    card codes (``"2S 3S QS ..."``). Every deal is checked as :meth:`Round.from_hands`
    checks it (against ``rules`` when given: a :class:`RuleSet` or a preset's name).

    >>> len(load_deals(DEAL_FILE)), len(load_deals(DEAL_FILE, rules="online"))
    (1024, 1024)
    """
    p = _path(path)
    given = _arena_rules(rules) if rules is not None else None
    data = _read_json(p)
    if not isinstance(data, dict) or data.get("format") != _FORMAT or data.get("version") != 1:
        raise ArenaError(f'{_shown(p)}: expected {{"format": "{_FORMAT}", "version": 1, ...}}')
    deals_ = data.get("deals")
    players = data.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or players not in (4, 5):
        raise ArenaError(f"{_shown(p)}: players must be 4 or 5")
    if not isinstance(deals_, list) or len(deals_) > _MAX_DEALS:
        raise ArenaError(f"{_shown(p)}: deals must be a list of at most {_MAX_DEALS} deals")
    check = given if given is not None else RuleSet(players=players)
    if check.players != players:
        raise ArenaError(
            f"{_shown(p)}: {players}-player deals, but the rules have {check.players} seats"
        )
    out: list[list[CardSet]] = []
    for k, item in enumerate(deals_):
        if not isinstance(item, list) or not all(isinstance(h, str) for h in item):
            raise ArenaError(f"{_shown(p)}: deal {k} must be a list of {players} hand strings")
        try:
            hands = [parse_cards(h) for h in item]
            Round.from_hands(item, rules=check)
        except (GongzhuError, ValueError) as exc:
            raise ArenaError(f"{_shown(p)}: deal {k}: {exc}") from None
        out.append(hands)
    return out


def _read_json(p: Path) -> Any:
    """The JSON of the file at ``p``, read like :func:`gongzhu.record.load`: at most
    ``_MAX_FILE_BYTES`` bytes whatever ``stat`` says (``/dev/zero``, a FIFO or a
    ``/proc`` file report size 0), no deep nesting, duplicate keys or NaN (#22 item 7)."""
    try:
        with p.open("rb") as f:
            raw = f.read(_MAX_FILE_BYTES + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL or a lone surrogate in the name
        reason = getattr(exc, "strerror", None) or exc
        raise ArenaError(f"{_shown(p)}: {_brief(str(reason))}") from None
    if len(raw) > _MAX_FILE_BYTES:
        raise ArenaError(
            f"{_shown(p)}: more than {_MAX_FILE_BYTES} bytes; deal files are at most that"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ArenaError(f"{_shown(p)}: not a JSON deal file (not UTF-8: {exc.reason})") from None
    try:
        return _parse_json(text)
    except RecordError as exc:
        reason = str(exc).removeprefix("not a valid record: ")
        raise ArenaError(f"{_shown(p)}: not a JSON deal file ({reason})") from None


def _seeded_deals(rules: RuleSet, seed: int | str, count: int) -> list[list[tuple[Any, ...]]]:
    return [
        [tuple(h) for h in deal(rules=rules, seed=f"gongzhu-arena:{seed}:{k}").dealt]
        for k in range(count)
    ]


for _public in (ArenaError, ArenaTypeError, load_deals, save_deals):
    _public.__module__ = "gongzhu.ai.arena"  # documented and shown at the public path
