"""Game records: a match or a single deal as JSON, replayed through the engine when read.

A record is to Gong Zhu what PGN is to chess: the rules, the cards dealt and
every action in order. The API is shaped like :mod:`json` (as pokerkit's hand
histories are): :func:`dumps`/:func:`dump` write a finished or in-progress
:class:`~gongzhu.Round`, a sequence of rounds (the deals of one match, in
order) or a :class:`GameRecord`; :func:`loads`/:func:`load` read one back.

>>> from gongzhu import deal
>>> r = deal(seed=7)
>>> while not r.is_complete:
...     r = r.play(r.legal_plays()[0])
>>> text = dumps(r, names=["Ann", "Bob", "Cid", "Dee"])
>>> rec = loads(text)
>>> rec.rounds == (r,), rec.match.totals == r.score().totals, dumps(rec) == text
(True, True, True)

Reading replays every action through the engine, so a record with an illegal
move, a wrong score or a wrong leader is refused with a
:class:`~gongzhu.RecordError` naming the deal (1-based), the move (1-based
position in that deal's ``actions``) or the field, and the reason:

>>> import json
>>> data = rec.to_dict()
>>> actions = data["deals"][0]["actions"]
>>> actions[1] = actions[0]                # the second seat plays the first seat's card
>>> loads(json.dumps(data))                # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gongzhu.errors.RecordError: deal 1, move 2: seat ... may not play ...: card not in hand

The format (version 1)
----------------------

A record is one JSON object::

    {
      "format": "gongzhu",
      "version": 1,
      "rules": {"preset": "classic", "overrides": {"claims": true}},
      "players": ["Ann", "Bob", "Cid", "Dee"],
      "deals": [
        {
          "dealer": 0,
          "leader": null,
          "seed": 7,
          "hands": [["KD", "2S", ...], ["9C", ...], ...],
          "exposures": [{"seat": 1, "cards": ["QS"], "face_down": false, "blind": false}],
          "actions": ["2S", "5S", "KS", "3S",
                      "AH", {"claim": 2}, {"respond": 3, "accept": true}, ...],
          "result": [-100, 50, 0, 50]
        }
      ],
      "result": {"totals": [-100, 50, 0, 50], "end_reason": null,
                 "losers": [], "winners": []}
    }

``format``, ``version``, ``rules`` and ``deals`` are required; unknown fields
are refused everywhere.

``rules``
    ``preset`` names one of :data:`~gongzhu.PRESETS`; ``overrides`` (optional)
    holds the options that differ from it, as :meth:`RuleSet.to_dict
    <gongzhu.RuleSet.to_dict>` writes them. The writer names the closest preset.
``players``
    Optional: one distinct, non-empty name per seat, in seat (play) order.
``deals``
    The deals of one match in order (a record of a single deal has one).
    Every deal but the last must be complete, and no deal may follow the end
    of the match.

    ``dealer``
        The dealer's seat. From the second deal on it must be the next seat
        after the previous dealer (RULES.md §5).
    ``leader``
        ``null``: the holder of the rule set's opening card leads (and must
        lead it if the rule set says so). A seat: that seat leads any card.
        From the second deal on it must be what the match prescribes: the
        previous deal's pig taker, or ``null`` when the opening card decides
        (``later_leader="opening-card"``, or nobody took Q♠).
    ``seed``
        Optional (default ``null``): the seed given to :func:`~gongzhu.deal`.
        With a seed the deal is re-shuffled; ``hands``, if present, must agree.
    ``hands``
        Each seat's cards in the order dealt (the order matters for blind
        exposure). Required when there is no seed; the writer always writes it.
    ``exposures``
        Optional: the exposure calls, replayed in order before the first play.
        ``seat`` and ``cards`` are required; ``face_down`` and ``blind``
        default to ``false``. ``"cards": []`` is a pass (it matters when seats
        decide in turn).
    ``actions``
        Optional: card plays (the seat to act plays) and claims, in order:
        ``{"claim": seat}`` and ``{"respond": seat, "accept": true|false}``.
    ``result``
        Optional: the deal's totals, checked against the replay (only for a
        complete deal).
``result``
    Optional: the match after its complete deals — ``totals`` (running totals),
    ``end_reason`` (an :class:`~gongzhu.EndReason` value or ``null``),
    ``losers`` and ``winners`` (seats). Each key is optional and checked.

Cards are ASCII codes, rank then suit: ``"QS"``, ``"TC"``, ``"AH"`` (the reader
also takes anything :meth:`Card.parse <gongzhu.Card.parse>` reads).

What a record does not keep
---------------------------

The writer rebuilds the actions from the round's public state and checks that
replaying them gives back an equal :class:`~gongzhu.Round`. The engine keeps
no action log, so some history is not recorded; the record holds an
equivalent history instead:

* the order of exposure calls: they are written seat by seat from the leader
  (which is also a legal in-turn order), a seat's cards in one call (blind,
  face-up and face-down cards in separate calls);
* refused claims: only the first claim of each seat that was shown, just
  before that seat's next play, refused by the next seat; accepts before a
  refusal are dropped;
* who accepted a claim, and in which order: the other seats in seat order;
* the cards played to an unfinished trick before an accepted claim: the
  engine forgets them, so the writer picks legal cards that give the same
  final state.

Limits (hostile input gets a :class:`~gongzhu.RecordError`, quickly): text of
at most :data:`MAX_TEXT` characters, :data:`MAX_DEALS` deals,
:data:`MAX_ACTIONS` actions and :data:`MAX_EXPOSURES` exposure calls per deal,
integers of at most 80 digits, names of 100 characters, text seeds of 1000;
no ``NaN``/``Infinity``, no duplicate keys, no deep nesting.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import IO, Any, Final, NoReturn

import attrs

from gongzhu.cards import Card, CardSet
from gongzhu.errors import GongzhuError, RecordError
from gongzhu.match import Match
from gongzhu.round import Round, deal
from gongzhu.rules import PRESETS, ExposureOrder, RuleSet

__all__ = [
    "MAX_ACTIONS",
    "MAX_DEALS",
    "MAX_EXPOSURES",
    "MAX_TEXT",
    "GameRecord",
    "dump",
    "dumps",
    "load",
    "loads",
]

FORMAT: Final = "gongzhu"
VERSION: Final = 1
MAX_TEXT: Final = 4_000_000
"""The longest record text read, in characters (a 1000-deal match is about 1 MB)."""
MAX_DEALS: Final = 1000
"""The most deals in one record."""
MAX_ACTIONS: Final = 500
"""The most actions in one deal (52 plays, plus room for claims)."""
MAX_EXPOSURES: Final = 40
"""The most exposure calls in one deal."""
_MAX_INT_DIGITS: Final = 80
_MAX_NAME: Final = 100
_MAX_SEED_TEXT: Final = 1000
_MAX_OVERRIDES: Final = 100
_MAX_CLIP: Final = 300
# Writing may need to try several equivalent histories (see the module docs);
# this bounds the work for pathological rounds.
_MAX_TRIALS: Final = 3000

_TOP_KEYS: Final = ("format", "version", "rules", "players", "deals", "result")
_DEAL_KEYS: Final = ("dealer", "leader", "seed", "hands", "exposures", "actions", "result")
_EXPOSURE_KEYS: Final = ("seat", "cards", "face_down", "blind")
_RESULT_KEYS: Final = ("totals", "end_reason", "losers", "winners")
_CODES: Final = {Card.from_index(i).code: Card.from_index(i) for i in range(52)}


class _Any:
    """Marker: the first deal may have any dealer and leader."""


_FREE: Final = _Any()


# -- the record object ---------------------------------------------------------------


@attrs.frozen
class GameRecord:
    """A read (or built) record: the rules, the names and the replayed rounds.

    ``rounds`` are the deals in order, replayed through the engine (the last
    one may be unfinished); ``match`` is the :class:`~gongzhu.Match` after
    every complete round (``None`` when no round is complete). Build one from
    rounds with :meth:`from_rounds`; :meth:`to_dict` is the record as JSON
    data (what :func:`dumps` writes).

    >>> from gongzhu import deal
    >>> rec = GameRecord.from_rounds([deal(seed=1)])
    >>> rec.match is None, rec.to_dict()["deals"][0]["seed"]
    (True, 1)
    """

    rules: RuleSet
    names: tuple[str, ...] | None
    rounds: tuple[Round, ...]
    match: Match | None

    @classmethod
    def from_rounds(cls, rounds: Sequence[Round], names: Sequence[str] | None = None) -> GameRecord:
        """The record of these rounds (the deals of one match, in order), checked.

        Raises :class:`~gongzhu.RecordError` if they do not form one match
        (different rules, a wrong dealer or leader, a deal after an unfinished
        one or after the end of the match).
        """
        rules, rounds = _rounds_of(rounds)
        return _build(rules, names, rounds)[0]

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON data (the canonical form :func:`dumps` writes)."""
        return _build(self.rules, self.names, self.rounds)[1]


# -- public functions --------------------------------------------------------------


def dumps(
    game: Round | Sequence[Round] | GameRecord,
    *,
    names: Sequence[str] | None = None,
    indent: int | None = 2,
) -> str:
    """The JSON record of a round, of the rounds of one match, or of a :class:`GameRecord`.

    ``names`` (one per seat) overrides a record's names. With ``indent=None``
    the text is one line; otherwise each hand and each trick of ``actions``
    is on its own line. Raises :class:`~gongzhu.RecordError` when the game
    cannot be recorded (see :meth:`GameRecord.from_rounds`).

    >>> from gongzhu import deal
    >>> print(dumps(deal(seed=3), indent=None)[:60])
    {"format": "gongzhu", "version": 1, "rules": {"preset": "cla
    """
    if isinstance(game, GameRecord):
        rules, rounds = game.rules, game.rounds
        if names is None:
            names = game.names
    else:
        rules, rounds = _rounds_of(game)
    data = _build(rules, names, rounds)[1]
    if indent is None:
        return json.dumps(data, ensure_ascii=False)
    if not isinstance(indent, int) or isinstance(indent, bool) or not 0 <= indent <= 16:
        raise RecordError(f"indent must be None or an int 0-16, got {_clip(repr(indent))}")
    return _format(data, indent, 0, None)


def dump(
    game: Round | Sequence[Round] | GameRecord,
    fp: IO[str],
    *,
    names: Sequence[str] | None = None,
    indent: int | None = 2,
) -> None:
    """Write :func:`dumps` of ``game`` and a newline to the text file ``fp``."""
    fp.write(dumps(game, names=names, indent=indent) + "\n")


def loads(text: str | bytes | bytearray) -> GameRecord:
    """Read a record and replay it; raise :class:`~gongzhu.RecordError` if it is not valid.

    >>> loads('{"format": "gongzhu", "version": 1, "rules": {"preset": "online"},'
    ...       ' "deals": []}').rules.preset_name()
    'online'
    >>> loads('{"format": "gongzhu", "version": 2}')
    Traceback (most recent call last):
    ...
    gongzhu.errors.RecordError: field 'version': unsupported version 2; this library reads version 1
    """
    if isinstance(text, (bytes, bytearray)):
        if len(text) > 4 * MAX_TEXT:
            raise RecordError(f"the record is too long (more than {MAX_TEXT} characters)")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"the record is not UTF-8 text: {exc.reason}") from None
    if not isinstance(text, str):
        raise RecordError(f"a record is text, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise RecordError(f"the record is too long (more than {MAX_TEXT} characters)")
    return _from_data(_parse_json(text))


def load(fp: IO[str] | IO[bytes]) -> GameRecord:
    """Read a record from a file opened for reading (text or binary); see :func:`loads`."""
    data = fp.read(MAX_TEXT + 1)
    if len(data) > MAX_TEXT:
        raise RecordError(f"the record is too long (more than {MAX_TEXT} characters)")
    return loads(data)


# -- JSON parsing ------------------------------------------------------------------


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


def _parse_json(text: str) -> Any:
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


# -- checking JSON values --------------------------------------------------------------


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_CLIP else text[:_MAX_CLIP] + "…"


def _show(value: Any) -> str:
    return _clip(json.dumps(value, ensure_ascii=False)) if _is_scalar(value) else _kind(value)


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "text"
    if value is None:
        return "null"
    return type(value).__name__


def _is_unicode(text: str) -> bool:
    # JSON escapes may spell lone surrogates, which no file encoding (nor the shuffle) takes.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


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


# -- reading -----------------------------------------------------------------------------


def _from_data(data: Any) -> GameRecord:
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
    return GameRecord(rules, names, tuple(rounds), match)


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
        if not _is_unicode(name):
            where.fail(f"seat {seat}'s name is not valid Unicode (it has a lone surrogate)")
    if len(set(items)) != len(items):
        where.fail("the names must be distinct")
    return tuple(items)


def _expected(
    number: int, rounds: Sequence[Round], match: Match | None
) -> tuple[int | _Any, int | _Any | None]:
    """The dealer and leader the match prescribes for deal ``number`` (free for the first)."""
    if number == 1:
        return _FREE, _FREE
    where = _Where(None, number)
    if not rounds[-1].is_complete:
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
    if not r.is_complete:
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
    if seed is not None:
        at = where.at("seed")
        if isinstance(seed, str):
            if len(seed) > _MAX_SEED_TEXT:
                at.fail(f"a text seed may have at most {_MAX_SEED_TEXT} characters")
            if not _is_unicode(seed):
                at.fail("a text seed must be valid Unicode (it has a lone surrogate)")
        elif not isinstance(seed, int) or isinstance(seed, bool):
            at.fail(f"expected an integer, text or null, got {_show(seed)}")
    hands: list[list[Card]] | None = None
    if "hands" in obj:
        at = where.at("hands")
        rows = _list(obj["hands"], at, n)
        if len(rows) != n:
            at.fail(f"expected {n} hands, one per seat, got {len(rows)}")
        hands = [_cards(row, at) for row in rows]
    elif seed is None:
        where.at("hands").fail("a deal without a seed needs its hands")
    try:
        if seed is not None:
            r = deal(rules, seed, leader, dealer)
            if hands is not None:
                for seat, (mine, dealt) in enumerate(zip(hands, r.dealt, strict=True)):
                    if tuple(mine) != dealt:
                        where.at("hands").fail(
                            f"seat {seat}'s hand is not what seed {_show(seed)} deals"
                        )
        else:
            assert hands is not None
            r = Round.from_hands(hands, rules, leader=leader, dealer=dealer)
    except RecordError:
        raise
    except GongzhuError as exc:
        where.at("hands").fail(_clip(str(exc)))
    r = _replay_exposures(r, obj.get("exposures", []), where.at("exposures"))
    r = _replay_actions(r, obj.get("actions", []), number)
    if "result" in obj:
        at = where.at("result")
        totals = [_int(v, at) for v in _list(obj["result"], at, n)]
        if not r.is_complete:
            at.fail("a result is given but the deal is not complete")
        actual = r.score().totals
        if tuple(totals) != actual:
            at.fail(f"the record says {totals} but the replay scores {list(actual)}")
    return r


def _replay_exposures(r: Round, value: Any, where: _Where) -> Round:
    n = r.players
    for j, item in enumerate(_list(value, where, MAX_EXPOSURES), 1):
        obj = _object(item, where, _EXPOSURE_KEYS, ("seat", "cards"))
        seat = _seat(obj["seat"], n, where)
        cards = _cards(obj["cards"], where)
        face_down = _bool(obj.get("face_down", False), where)
        blind = _bool(obj.get("blind", False), where)
        try:
            r = r.expose(seat, cards, face_down=face_down, blind=blind)
        except GongzhuError as exc:
            where.fail(f"exposure {j}: {exc}")
    return r


def _replay_actions(r: Round, value: Any, number: int) -> Round:
    n = r.players
    for move, item in enumerate(_list(value, _Where("actions", number), MAX_ACTIONS), 1):
        where = _Where(None, number, move)
        try:
            if isinstance(item, dict) and "claim" in item:
                obj = _object(item, where, ("claim",), ("claim",))
                r = r.claim(_seat(obj["claim"], n, where))
            elif isinstance(item, dict) and "respond" in item:
                obj = _object(item, where, ("respond", "accept"), ("respond", "accept"))
                r = r.respond(_seat(obj["respond"], n, where), _bool(obj["accept"], where))
            elif isinstance(item, dict):
                where.fail(
                    'an action object is {"claim": seat} or {"respond": seat, "accept": bool}'
                )
            else:
                r = r.play(_card(item, where))
        except RecordError:
            raise
        except GongzhuError as exc:
            where.fail(str(exc))
    return r


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


# -- writing ---------------------------------------------------------------------------


def _rounds_of(game: Any) -> tuple[RuleSet, tuple[Round, ...]]:
    if isinstance(game, Round):
        rounds: tuple[Round, ...] = (game,)
    elif isinstance(game, Sequence) and not isinstance(game, (str, bytes)):
        rounds = tuple(game)
    else:
        raise RecordError(
            f"expected a Round, a sequence of Rounds or a GameRecord, got {type(game).__name__}"
        )
    if not rounds:
        raise RecordError("no deals to record: pass at least one Round")
    if len(rounds) > MAX_DEALS:
        raise RecordError(f"a record holds at most {MAX_DEALS} deals, got {len(rounds)}")
    for number, r in enumerate(rounds, 1):
        if not isinstance(r, Round):
            raise RecordError(f"expected a Round, got {type(r).__name__}", deal=number)
        if r.rules != rounds[0].rules:
            raise RecordError("every deal of a record must use the rules of deal 1", deal=number)
    return rounds[0].rules, rounds


def _rules_dict(rules: RuleSet) -> dict[str, Any]:
    name, _changes = rules.closest_preset()
    return {"preset": name, "overrides": rules.to_dict(only_changes_from=PRESETS[name])}


def _build(
    rules: RuleSet, names: Sequence[str] | None, rounds: Sequence[Round]
) -> tuple[GameRecord, dict[str, Any]]:
    """The checked record of ``rounds`` and its canonical JSON data."""
    if names is not None:
        if isinstance(names, str) or not isinstance(names, Sequence):
            raise RecordError("names must be a sequence of names, one per seat", field="players")
        names = _read_names(list(names), rules)
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "rules": _rules_dict(rules)}
    if names is not None:
        data["players"] = list(names)
    deals: list[dict[str, Any]] = []
    done: list[Round] = []
    match: Match | None = None
    for number, r in enumerate(rounds, 1):
        dealer, leader = _expected(number, done, match)
        deals.append(_write_deal(r, number, dealer, leader))
        done.append(r)
        match = _step(match, r, rules, names, number)
    data["deals"] = deals
    if match is not None and match.deals:
        data["result"] = _result_dict(match)
    else:
        match = None
    return GameRecord(rules, names, tuple(rounds), match), data


def _write_deal(
    r: Round, number: int, want_dealer: int | _Any, want_leader: int | _Any | None
) -> dict[str, Any]:
    """The deal's record: the first candidate history whose replay equals ``r``."""
    seed = r.seed
    if isinstance(seed, int) and len(str(abs(seed))) > _MAX_INT_DIGITS:
        raise RecordError(f"the seed has more than {_MAX_INT_DIGITS} digits", deal=number)
    if isinstance(seed, str) and len(seed) > _MAX_SEED_TEXT:
        raise RecordError(f"the seed is longer than {_MAX_SEED_TEXT} characters", deal=number)
    first_error: RecordError | None = None
    trials = 0
    for data in _candidates(r, want_leader):
        trials += 1
        if trials > _MAX_TRIALS:
            break
        try:
            replayed = _replay_deal(data, r.rules, number, want_dealer, want_leader)
        except RecordError as exc:
            first_error = first_error or exc
            continue
        if replayed == r:
            if r.is_complete:
                data["result"] = list(r.score().totals)
            return data
    if first_error is not None:
        raise first_error
    raise RecordError(
        "the round cannot be written: no history of its public state replays to it",
        deal=number,
    )


def _candidates(r: Round, want_leader: int | _Any | None) -> Iterator[dict[str, Any]]:
    """Histories that may replay to ``r``, the likeliest first (see the module docs).

    What the engine keeps but does not show is guessed and checked by replay:
    whether the leader was given or came from the opening card, which seats
    passed on exposure, which exposed card was forced, and the cards of an
    unfinished trick swept up by an accepted claim.
    """
    rules = r.rules
    n = r.players
    dealt = r.dealt
    tricks = r.tricks
    first_leader = tricks[0].leader if tricks else r.current_trick.leader
    holder = next(s for s in range(n) if rules.opening_card in dealt[s])
    if not isinstance(want_leader, _Any):
        leaders: list[int | None] = [want_leader]
    elif first_leader == holder:
        leaders = [None, first_leader]
    else:
        leaders = [first_leader]
    plays = [(seat, card) for t in tricks for seat, card in zip(t.seats, t.cards, strict=True)]
    current = r.current_trick
    plays += list(zip(current.seats, current.cards, strict=True))

    # The claim that ends or holds the deal: (claimer, accepting seats), and the
    # number of cards of the unfinished trick it swept up.
    final: tuple[int, tuple[int, ...], bool] | None = None
    missing = 0
    pending = r.claim_pending
    if pending is not None:
        final = (pending[0], pending[1], False)
    elif r.is_complete and not any(r.hands) and len(plays) < len(rules.deck):
        played = CardSet(card for _seat, card in plays)
        claimer = next(s for s in range(n) if r.captured[s] - played)
        final = (claimer, tuple(s for s in range(n) if s != claimer), True)
        missing = (claimer - r.leader) % n
    shown = r.shown
    first_claims = {
        s: len(dealt[s]) - len(shown & CardSet(dealt[s]))
        for s in range(n)
        if shown & CardSet(dealt[s])
    }

    def actions(all_plays: Sequence[tuple[int, Card]], with_final: bool) -> list[Any]:
        # Without the final part: up to the last play, for replaying an unfinished trick.
        out: list[Any] = []
        count = [0] * n
        waiting = dict(first_claims)
        for seat, card in all_plays:
            if waiting.get(seat) == count[seat]:
                del waiting[seat]
                out += [{"claim": seat}, {"respond": (seat + 1) % n, "accept": False}]
            out.append(card.code)
            count[seat] += 1
        if not with_final:
            return out
        for seat in sorted(waiting):
            if final is None or seat != final[0]:
                out += [{"claim": seat}, {"respond": (seat + 1) % n, "accept": False}]
        if final is not None:
            claimer, accepting, _done = final
            out.append({"claim": claimer})
            order = sorted(accepting, key=lambda s: (s - claimer) % n)
            out += [{"respond": s, "accept": True} for s in order]
        return out

    for leader in leaders:
        for exposures in _exposure_options(r, first_leader):
            head: dict[str, Any] = {
                "dealer": r.dealer,
                "leader": leader,
                "seed": r.seed,
                "hands": [[c.code for c in hand] for hand in dealt],
                "exposures": exposures,
            }
            if not missing:
                yield {**head, "actions": actions(plays, True)}
                continue
            # Replay up to the unfinished trick, then try its legal completions.
            try:
                base = _replay_deal({**head, "actions": actions(plays, False)}, rules, 0)
            except RecordError:
                continue
            for tail in _tails(base, missing):
                yield {**head, "actions": actions(plays + tail, True)}


def _exposure_options(r: Round, first_leader: int) -> Iterator[list[dict[str, Any]]]:
    """Exposure calls that may give ``r``'s exposures: which seats decided (passes
    included) and which card, if any, the engine forced face up, vary; likeliest first."""
    rules = r.rules
    n = r.players
    if not rules.exposable:
        yield []
        return
    order = [(first_leader + k) % n for k in range(n)]
    started = bool(r.tricks or r.current_trick.cards or any(r.captured))
    forced: list[Card | None] = [None]
    if rules.three_exposed_force_fourth and started:
        forced += [c for c in r.exposed - r.blind if c in rules.exposable]
    if rules.exposure_order is ExposureOrder.IN_TURN:
        deciders = [frozenset(order[:k]) for k in range(n + 1)]
    else:
        deciders = [frozenset(c) for k in range(n + 1) for c in combinations(range(n), k)]
    options: list[tuple[int, int, frozenset[int]]] = []
    all_groups = [_exposure_groups(r, card) for card in forced]
    for rank, groups in enumerate(all_groups):
        with_cards = frozenset(s for s in range(n) if groups[s])
        options += [(len(d - with_cards), rank, d) for d in deciders if with_cards <= d]
    options.sort(key=lambda o: o[:2])
    for _passes, rank, decided in options:
        groups = all_groups[rank]
        yield [
            entry
            for seat in order
            if seat in decided
            for entry in (groups[seat] or [_entry(seat, CardSet(), False, False)])
        ]


def _exposure_groups(r: Round, forced: Card | None) -> list[list[dict[str, Any]]]:
    """Each seat's exposure calls: blind, face-up and face-down cards, apart."""
    groups = []
    for seat in range(r.players):
        mine = CardSet(r.dealt[seat])
        blind = r.blind & mine
        up = r.exposures[seat] - blind - CardSet([forced] if forced else [])
        down = (r.face_down & mine) - blind
        entries = []
        if blind:
            entries.append(_entry(seat, blind, blind <= r.face_down, True))
        if up:
            entries.append(_entry(seat, up, False, False))
        if down:
            entries.append(_entry(seat, down, True, False))
        groups.append(entries)
    return groups


def _entry(seat: int, cards: CardSet, face_down: bool, blind: bool) -> dict[str, Any]:
    return {"seat": seat, "cards": [c.code for c in cards], "face_down": face_down, "blind": blind}


def _tails(base: Round, missing: int) -> Iterator[list[tuple[int, Card]]]:
    """Legal ways to play ``missing`` more cards from ``base``: one without a heart, one with.

    Which cards they are is forgotten once a claim sweeps the trick up; only
    whether a heart was among them (hearts broken) stays in the state.
    """
    for want_heart in (False, True):
        tail = _tail(base, missing, want_heart, [0])
        if tail is not None:
            yield tail


def _tail(
    r: Round, missing: int, want_heart: bool | None, budget: list[int]
) -> list[tuple[int, Card]] | None:
    # want_heart: True = a heart is still needed, False = no heart allowed, None = any card.
    seat = r.to_act
    if seat is None:
        return None
    legal = r.legal_plays()
    if want_heart is None:
        choices = list(legal)[:1]
    else:
        hearts = [c for c in legal if c.suit == 2]
        others = [c for c in legal if c.suit != 2]
        # With a heart wanted, play one as soon as one is legal; then anything goes.
        choices = hearts[:1] + others if want_heart else others
    for card in choices:
        budget[0] += 1
        if budget[0] > _MAX_TRIALS:
            return None
        after = None if want_heart and card.suit == 2 else want_heart
        if missing == 1:
            if not after:  # None (a heart was played) or False (none was wanted)
                return [(seat, card)]
            continue
        rest = _tail(r.play(card), missing - 1, after, budget)
        if rest is not None:
            return [(seat, card), *rest]
    return None


# -- text layout -----------------------------------------------------------------------


def _format(value: Any, indent: int, level: int, key: str | None, players: int = 4) -> str:
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
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {_format(v, indent, level + 1, k, players)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(value, list):
        if key == "actions":
            return _format_actions(value, pad, end, players)
        if all(_is_scalar(v) or (isinstance(v, dict) and _is_flat(v)) for v in value):
            return json.dumps(value, ensure_ascii=False)
        items = [pad + _format(v, indent, level + 1, None, players) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    return json.dumps(value, ensure_ascii=False)


def _is_flat(value: Any) -> bool:
    if isinstance(value, list):
        return all(_is_scalar(v) for v in value)
    if isinstance(value, dict):
        return all(_is_scalar(v) for v in value.values())
    return _is_scalar(value)


def _format_actions(actions: list[Any], pad: str, end: str, players: int) -> str:
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
