"""Reading a record: bounded text, the format's fields and the replay of every deal
through the engine. Private to :mod:`gongzhu.record`.
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from typing import Any, Final, NoReturn

from gongzhu.dealing import deal
from gongzhu.errors import GongzhuError, RecordError
from gongzhu.match import Match
from gongzhu.record._schema import (
    _bool,
    _card,
    _cards,
    _check_match_result,
    _check_seed,
    _clip,
    _int,
    _list,
    _object,
    _read_hands,
    _read_names,
    _read_rules,
    _seat,
    _show,
    _Where,
)
from gongzhu.round import Round
from gongzhu.rules import RuleSet

FORMAT: Final = "gongzhu"
VERSION: Final = 1
MAX_TEXT: Final = 4_000_000
"""The longest record text read, in characters (a 1000-deal match is about 1 MB)."""
MAX_DEALS: Final = 1000
"""The most deals in one record."""
MAX_ACTIONS: Final = 500
"""The most actions in one deal (52 plays, plus room for claims)."""
MAX_EXPOSURES: Final = 40
"""The most exposure calls in one deal's ``exposures``."""

_TOP_KEYS: Final = ("format", "version", "rules", "players", "deals", "result")
_DEAL_KEYS: Final = ("dealer", "leader", "seed", "hands", "exposures", "actions", "result")
_EXPOSURE_KEYS: Final = ("seat", "cards", "face_down", "blind")
_EXPOSE_KEYS: Final = ("expose", "cards", "face_down", "blind")


class _Any:
    """Marker: the first deal may have any dealer and leader."""


_FREE: Final = _Any()


_CHUNK: Final = 1 << 16


def _too_long() -> NoReturn:
    raise RecordError(f"the record is too long (more than {MAX_TEXT} characters)")


def _read_bounded(fp: Any) -> str:
    """At most ``MAX_TEXT`` characters of ``fp``, decoded; more is an error, not a read."""
    read = getattr(fp, "read", None)
    if not callable(read):
        raise RecordError(f"load() needs a file opened for reading, got {type(fp).__name__}")
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    count = 0
    while True:
        try:
            # Chunks, and the characters counted as they arrive (#11 item 3): a binary
            # file's bytes are not its characters, and nothing past the cap is read.
            chunk = read(_CHUNK)
            if isinstance(chunk, (bytes, bytearray)):
                text = decoder.decode(bytes(chunk), final=not chunk)
            elif isinstance(chunk, str):
                text = chunk
            else:
                raise RecordError(f"the file's read() returned {type(chunk).__name__}, not text")
        except UnicodeDecodeError as exc:  # a binary file, or a text file opened as UTF-8
            raise RecordError(f"the record is not UTF-8 text: {exc.reason}") from None
        count += len(text)
        if count > MAX_TEXT:
            _too_long()
        parts.append(text)
        if not chunk:
            return "".join(parts)


# -- reading -----------------------------------------------------------------------------


def _from_data(
    data: Any,
) -> tuple[RuleSet, tuple[str, ...] | None, tuple[Round, ...], Match | None]:
    top = _Where(None)
    obj = _object(data, top, _TOP_KEYS, ("format", "version"))
    if obj["format"] != FORMAT:
        top.at("format").fail(f"expected {FORMAT!r}, got {_show(obj['format'])}")
    version = _int(obj["version"], top.at("version"))
    if version != VERSION:
        top.at("version").fail(
            f"unsupported version {_clip(str(version))}; this library reads version {VERSION}"
        )
    # Format and version first: a newer record gets "unsupported version", not a field error.
    _object(obj, top, _TOP_KEYS, ("rules", "deals"))
    rules = _read_rules(obj["rules"])
    names = _read_names(obj.get("players"), rules)
    deals = _list(obj["deals"], top.at("deals"), MAX_DEALS)
    rounds: list[Round] = []
    match: Match | None = None
    for number, item in enumerate(deals, 1):
        dealer, leader = _expected(number, rounds, match)
        r = _replay_deal(item, rules, number, dealer, leader)
        rounds.append(r)
        match = _step(match, r, rules, names, number)
    if "result" in obj:
        _check_match_result(obj["result"], match)
    if match is not None and not match.deals:
        match = None
    return rules, names, tuple(rounds), match


def _expected(
    number: int, rounds: Sequence[Round], match: Match | None
) -> tuple[int | _Any, int | _Any | None]:
    """The dealer and leader the match prescribes for deal ``number`` (free for the first)."""
    if number == 1:
        return _FREE, _FREE
    where = _Where(None, number)
    if not rounds[-1].is_over:
        where.fail(f"deal {number - 1} is not complete, so no deal may follow it")
    assert match is not None
    if match.end_reason is not None:
        where.fail(
            f"the match ended after deal {number - 1} ({match.end_reason.value});"
            " no deal may follow"
        )
    return match.dealer, match.next_leader


def _step(
    match: Match | None, r: Round, rules: RuleSet, names: tuple[str, ...] | None, number: int
) -> Match:
    if match is None:
        match = Match(rules, names, first_dealer=r.dealer)
    if not r.is_over:
        return match
    try:
        return match.add(r)
    except GongzhuError as exc:
        raise RecordError(str(exc), deal=number) from None


def _replay_deal(
    value: Any,
    rules: RuleSet,
    number: int,
    want_dealer: int | _Any = _FREE,
    want_leader: int | _Any | None = _FREE,
) -> Round:
    where = _Where(None, number)
    obj = _object(value, where, _DEAL_KEYS, ("dealer",))
    n = rules.players
    dealer = _seat(obj["dealer"], n, where.at("dealer"))
    if not isinstance(want_dealer, _Any) and dealer != want_dealer:
        where.at("dealer").fail(
            f"the dealer must be seat {want_dealer} (one seat on from the previous dealer),"
            f" got {dealer}"
        )
    raw_leader = obj.get("leader")
    leader = None if raw_leader is None else _seat(raw_leader, n, where.at("leader"))
    if not isinstance(want_leader, _Any) and leader != want_leader:
        why = (
            "the holder of the opening card leads (null)"
            if want_leader is None
            else f"seat {want_leader}, the previous deal's pig taker, leads"
        )
        where.at("leader").fail(f"{why}; got {_show(raw_leader)}")
    seed = obj.get("seed")
    _check_seed(seed, where.at("seed"))
    hands = _read_hands(obj["hands"], n, where.at("hands")) if "hands" in obj else None
    if hands is None and seed is None:
        where.at("hands").fail("a deal without a seed needs its hands")
    try:
        if seed is not None:
            r = deal(rules=rules, seed=seed, leader=leader, dealer=dealer)
            for seat, (mine, dealt) in enumerate(zip(hands or r.dealt, r.dealt, strict=True)):
                if tuple(mine) != dealt:
                    where.at("hands").fail(
                        f"seat {seat}'s hand is not what seed {_show(seed)} deals"
                    )
        else:
            assert hands is not None
            r = Round.from_hands(hands, rules=rules, leader=leader, dealer=dealer)
    except RecordError:
        raise
    except GongzhuError as exc:
        where.at("hands").fail(_clip(str(exc)))
    at = where.at("exposures")
    for j, item in enumerate(_list(obj.get("exposures", []), at, MAX_EXPOSURES), 1):
        entry = _object(item, at, _EXPOSURE_KEYS, ("seat", "cards"))
        try:
            r = _expose(r, entry, entry["seat"], at)
        except GongzhuError as exc:
            at.fail(f"exposure {j}: {exc}")
    if r.exposure_pending and obj.get("actions"):
        r = r.pass_exposure()  # a record may leave declines out (specification §9.1)
    r = _replay_actions(r, obj.get("actions", []), number)
    if "result" in obj:
        at = where.at("result")
        totals = [_int(v, at) for v in _list(obj["result"], at, n)]
        if not r.is_over:
            at.fail("a result is given but the deal is not complete")
        actual = r.score().totals
        if tuple(totals) != actual:
            at.fail(f"the record says {totals} but the replay scores {list(actual)}")
    return r


def _expose(r: Round, obj: dict[str, Any], seat: Any, where: _Where) -> Round:
    seat = _seat(seat, r.players, where)
    cards = _cards(obj["cards"], where)
    down = obj.get("face_down", False)
    # A list names the cards that lie face down, the others face up (specification §9.1).
    face_down = _cards(down, where) if isinstance(down, list) else _bool(down, where)
    blind = _bool(obj.get("blind", False), where)
    return r.expose(cards, seat=seat, face_down=face_down, blind=blind)


def _replay_actions(r: Round, value: Any, number: int) -> Round:
    n = r.players
    started = False  # an action other than an exposure has been replayed
    for move, item in enumerate(_list(value, _Where("actions", number), MAX_ACTIONS), 1):
        where = _Where(None, number, move)
        try:
            if isinstance(item, dict) and "claim" in item:
                obj = _object(item, where, ("claim",), ("claim",))
                r = r.claim(_seat(obj["claim"], n, where))
            elif isinstance(item, dict) and "respond" in item:
                obj = _object(item, where, ("respond", "accept"), ("respond", "accept"))
                r = r.respond(_bool(obj["accept"], where), seat=_seat(obj["respond"], n, where))
            elif isinstance(item, dict) and "expose" in item:
                obj = _object(item, where, _EXPOSE_KEYS, ("expose", "cards"))
                if not started:
                    # One history, one record: the canonical place for it is "exposures".
                    where.fail("an exposure before any other action belongs in 'exposures'")
                r = _expose(r, obj, obj["expose"], where)
            elif isinstance(item, dict):
                where.fail(
                    'an action object is {"claim": seat}, {"respond": seat, "accept": bool}'
                    ' or {"expose": seat, "cards": [...]}'
                )
            else:
                r = r.play(_card(item, where))
        except RecordError:
            raise
        except GongzhuError as exc:
            where.fail(str(exc))
        started = started or not (isinstance(item, dict) and "expose" in item)
    return r


# -- writing ---------------------------------------------------------------------------
