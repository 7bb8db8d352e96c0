"""Game records: a match or a single deal as JSON, replayed through the engine when read.

A record is to Gong Zhu what PGN is to chess: the rules, the cards dealt and
every action in order, exactly as :attr:`Round.history <gongzhu.Round.history>`
holds them. The API is shaped like :mod:`json` (as pokerkit's hand histories
are): :func:`dumps`/:func:`dump` write a finished or in-progress
:class:`~gongzhu.Round`, a sequence of rounds (the deals of one match, in
order) or a :class:`GameRecord`; :func:`loads`/:func:`load` read one back.

>>> from gongzhu import deal
>>> r = deal(seed=7).pass_exposure()
>>> while not r.is_complete:
...     r = r.play(r.legal_plays[0])
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
are refused everywhere (the full table is in the "Game records" guide).

``rules``
    ``preset`` (one of :data:`~gongzhu.PRESETS`, the closest one) and
    ``overrides``, the options that differ from it (:meth:`RuleSet.to_dict
    <gongzhu.RuleSet.to_dict>`).
``players``
    Optional: one distinct, non-empty name per seat, in seat (play) order.
``deals``
    The deals of one match in order; every deal but the last is complete,
    and none follows the end of the match. ``dealer``: from the second deal
    on, one seat on from the previous dealer (RULES.md §5). ``leader``:
    ``null`` when the opening card's holder leads (and must lead it if the
    rules say so), else the seat; from the second deal on, what the match
    prescribes. ``seed`` (optional): the seed given to :func:`~gongzhu.deal`;
    ``hands`` must then agree with it. ``hands``: each seat's cards in the
    order dealt (blind exposure takes the first); required without a seed.
    ``exposures`` (optional): the exposure calls made before any other
    action, in their order (``seat``, ``cards``, ``face_down`` and ``blind``
    defaulting to ``false``; ``"cards": []`` is a pass; ``face_down`` may
    instead list the cards among ``cards`` that lie face down, the others
    face up, RULES.md §9.1). ``actions``
    (optional): every later action in order — a card code (the seat to act
    plays it), ``{"claim": seat}``, ``{"respond": seat, "accept": bool}`` and,
    rarely, ``{"expose": seat, "cards": [...], "face_down": bool, "blind":
    bool}``: an exposure made after a claim was refused before the first card
    (one made before any other action belongs in ``exposures`` and is refused
    here). ``result`` (optional): the deal's totals, checked.
``result``
    Optional: the match after its complete deals (``totals``, ``end_reason``,
    ``losers``, ``winners``), each key optional and checked.

Cards are ASCII codes, rank then suit: ``"QS"``, ``"TC"``, ``"AH"`` (the reader
also takes anything :meth:`Card.parse <gongzhu.Card.parse>` reads).

The record is exact: reading it gives back rounds equal to the ones written,
history included — every exposure call in its order, every claim and every
answer (refused ones too), every card played, also those of a trick swept up
by an accepted claim. A card forced face up by ``three_exposed_force_fourth``
is not a call: the engine exposes it when the first card is played.

Limits (hostile input gets a :class:`~gongzhu.RecordError`, quickly): text of
at most :data:`MAX_TEXT` characters, :data:`MAX_DEALS` deals,
:data:`MAX_ACTIONS` actions and :data:`MAX_EXPOSURES` exposure calls per deal,
integers of at most 80 digits, names of 100 characters, text seeds of 1000
(neither with control or invisible characters, nor white space at either end;
look-alike names are the same name);
no ``NaN``/``Infinity``, no duplicate keys, no deep nesting. A round with
more actions than that cannot be written either.
"""

from __future__ import annotations

import codecs
import io
import itertools
import json
from collections.abc import Sequence
from typing import IO, Any, Final, NoReturn

import attrs

from gongzhu._base.frozen import guard_setstate, refuse_reinit
from gongzhu.actions import Action, Claim, ClaimResponse, Exposure, Play
from gongzhu.dealing import deal
from gongzhu.errors import GongzhuError, RecordError, _brief
from gongzhu.match import Match
from gongzhu.record._schema import (
    _MAX_INT_DIGITS,
    _bool,
    _card,
    _cards,
    _check_match_result,
    _check_seed,
    _clip,
    _int,
    _layout,
    _list,
    _object,
    _parse_json,
    _read_hands,
    _read_names,
    _read_rules,
    _result_dict,
    _seat,
    _show,
    _Where,
)
from gongzhu.round import Round
from gongzhu.rules import PRESETS, RuleSet

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
"""The most exposure calls in one deal's ``exposures``."""

_TOP_KEYS: Final = ("format", "version", "rules", "players", "deals", "result")
_DEAL_KEYS: Final = ("dealer", "leader", "seed", "hands", "exposures", "actions", "result")
_EXPOSURE_KEYS: Final = ("seat", "cards", "face_down", "blind")
_EXPOSE_KEYS: Final = ("expose", "cards", "face_down", "blind")


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

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self, "rules", RecordError)  # no re-initialising a record (#11 item 9)

    rules: RuleSet
    names: tuple[str, ...] | None
    rounds: tuple[Round, ...]
    match: Match | None

    def __attrs_post_init__(self) -> None:
        # Only the types, cheaply: whether the rounds form this match under these
        # rules is what dumps() and to_dict() check (they replay every deal).
        if not isinstance(self.rules, RuleSet):
            raise RecordError(f"rules must be a RuleSet, got {type(self.rules).__name__}")
        if self.names is not None and (
            not isinstance(self.names, tuple) or not all(isinstance(n, str) for n in self.names)
        ):
            raise RecordError("names must be None or a tuple of names", field="players")
        if not isinstance(self.rounds, tuple) or not all(isinstance(r, Round) for r in self.rounds):
            raise RecordError("rounds must be a tuple of Rounds")
        if self.match is not None and not isinstance(self.match, Match):
            raise RecordError(f"match must be None or a Match, got {type(self.match).__name__}")

    @classmethod
    def from_rounds(cls, rounds: Sequence[Round], names: Sequence[str] | None = None) -> GameRecord:
        """The record of these rounds (the deals of one match, in order), checked.

        Raises :class:`~gongzhu.RecordError` if they do not form one match
        (different rules, a wrong dealer or leader, a deal after an unfinished
        one or after the end of the match) or a round has more actions than a
        record holds.
        """
        rules, rounds = _rounds_of(rounds)
        return _build(rules, names, rounds)[0]

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON data (the canonical form :func:`dumps` writes).

        Raises :class:`~gongzhu.RecordError` when the record is not what its
        rounds say: a round played under other rules than :attr:`rules`, a
        :attr:`match` that is not the match of the rounds, bad names.
        """
        return _build_record(self, self.names)[1]


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
        data = _build_record(game, game.names if names is None else names)[1]
    else:
        rules, rounds = _rounds_of(game)
        data = _build(rules, names, rounds)[1]
    if indent is None:
        return json.dumps(data, ensure_ascii=False)
    if not isinstance(indent, int) or isinstance(indent, bool) or not 0 <= indent <= 16:
        raise RecordError(f"indent must be None or an int 0-16, got {_brief(indent)}")
    return _layout(data, indent)


def dump(
    game: Round | Sequence[Round] | GameRecord,
    fp: IO[str],
    *,
    names: Sequence[str] | None = None,
    indent: int | None = 2,
) -> None:
    """Write :func:`dumps` of ``game`` and a newline to the text file ``fp``."""
    write = getattr(fp, "write", None)
    if not callable(write):
        raise RecordError(f"dump() needs a text file opened for writing, got {type(fp).__name__}")
    text = dumps(game, names=names, indent=indent) + "\n"
    if isinstance(fp, (io.RawIOBase, io.BufferedIOBase)):
        raise RecordError("dump() writes text: open the file in text mode ('w')")
    write(text)


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
        if len(text) > 4 * MAX_TEXT:  # UTF-8 takes at most 4 bytes a character
            _too_long()
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"the record is not UTF-8 text: {exc.reason}") from None
    if not isinstance(text, str):
        raise RecordError(f"a record is text, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        _too_long()
    return _from_data(_parse_json(text))


def load(fp: IO[str] | IO[bytes]) -> GameRecord:
    """Read a record from a file opened for reading (text or binary); see :func:`loads`.

    At most :data:`MAX_TEXT` characters (of UTF-8, for a binary file) are read,
    whatever the file holds: ``/dev/zero`` or a huge file is refused quickly
    with a :class:`~gongzhu.RecordError`, as is text that is not UTF-8.
    """
    return loads(_read_bounded(fp))


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
    _check_seed(seed, where.at("seed"))
    hands = _read_hands(obj["hands"], n, where.at("hands")) if "hands" in obj else None
    if hands is None and seed is None:
        where.at("hands").fail("a deal without a seed needs its hands")
    try:
        if seed is not None:
            r = deal(rules, seed, leader, dealer)
            for seat, (mine, dealt) in enumerate(zip(hands or r.dealt, r.dealt, strict=True)):
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
    at = where.at("exposures")
    for j, item in enumerate(_list(obj.get("exposures", []), at, MAX_EXPOSURES), 1):
        entry = _object(item, at, _EXPOSURE_KEYS, ("seat", "cards"))
        try:
            r = _expose(r, entry, entry["seat"], at)
        except GongzhuError as exc:
            at.fail(f"exposure {j}: {exc}")
    if r.exposure_pending and obj.get("actions"):
        r = r.pass_exposure()  # a record may leave declines out (RULES.md §9.1)
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


def _expose(r: Round, obj: dict[str, Any], seat: Any, where: _Where) -> Round:
    seat = _seat(seat, r.players, where)
    cards = _cards(obj["cards"], where)
    down = obj.get("face_down", False)
    # A list names the cards that lie face down, the others face up (RULES.md §9.1).
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


def _rounds_of(game: Any) -> tuple[RuleSet, tuple[Round, ...]]:
    if isinstance(game, Round):
        rounds: tuple[Round, ...] = (game,)
    elif isinstance(game, Sequence) and not isinstance(game, (str, bytes)):
        # One more than a record holds, whatever len() says: range(10**12) is refused, not read.
        rounds = tuple(itertools.islice(game, MAX_DEALS + 1))
    else:
        raise RecordError(
            f"expected a Round, a sequence of Rounds or a GameRecord, got {type(game).__name__}"
        )
    if not rounds:
        raise RecordError("no deals to record: pass at least one Round")
    if len(rounds) > MAX_DEALS:
        raise RecordError(f"a record holds at most {MAX_DEALS} deals, got more")
    for number, r in enumerate(rounds, 1):
        if not isinstance(r, Round):
            raise RecordError(f"expected a Round, got {type(r).__name__}", deal=number)
        if r.rules != rounds[0].rules:
            raise RecordError("every deal of a record must use the rules of deal 1", deal=number)
    return rounds[0].rules, rounds


def _build_record(
    game: GameRecord, names: Sequence[str] | None
) -> tuple[GameRecord, dict[str, Any]]:
    """:func:`_build` for a :class:`GameRecord`, which must be the record of its rounds."""
    if len(game.rounds) > MAX_DEALS:
        raise RecordError(f"a record holds at most {MAX_DEALS} deals, got {len(game.rounds)}")
    for number, r in enumerate(game.rounds, 1):
        if r.rules != game.rules:
            # Written as is, it would be refused when read, or read as another game (#11 item 11).
            raise RecordError("the round was not played under the record's rules", deal=number)
    built, data = _build(game.rules, names, game.rounds)
    mine, theirs = game.match, built.match
    if (mine is None) != (theirs is None) or (
        mine is not None
        and theirs is not None
        and (
            (mine.rules, mine.first_dealer, mine.deals, mine.history, mine.end_reason)
            != (theirs.rules, theirs.first_dealer, theirs.deals, theirs.history, theirs.end_reason)
            or mine.names != game.names
        )
    ):
        raise RecordError("the record's match is not the match of its rounds", field="result")
    return built, data


def _build(
    rules: RuleSet, names: Sequence[str] | None, rounds: Sequence[Round]
) -> tuple[GameRecord, dict[str, Any]]:
    """The checked record of ``rounds`` and its canonical JSON data."""
    if names is not None and (isinstance(names, str) or not isinstance(names, Sequence)):
        raise RecordError("names must be a sequence of names, one per seat", field="players")
    # One more than the seats, whatever the sequence's length: range(10**12) is not read.
    checked = (
        None
        if names is None
        else _read_names(list(itertools.islice(names, rules.players + 1)), rules)
    )
    preset = rules.closest_preset()[0]
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": {"preset": preset, "overrides": rules.to_dict(only_changes_from=PRESETS[preset])},
    }
    if checked is not None:
        data["players"] = list(checked)
    deals: list[dict[str, Any]] = []
    match: Match | None = None
    for number, r in enumerate(rounds, 1):
        dealer, leader = _expected(number, rounds[: number - 1], match)
        deals.append(_write_deal(r, number, dealer, leader))
        match = _step(match, r, rules, checked, number)
    data["deals"] = deals
    if match is not None and match.deals:
        data["result"] = _result_dict(match)
    else:
        match = None
    return GameRecord(rules, checked, tuple(rounds), match), data


def _write_deal(
    r: Round, number: int, want_dealer: int | _Any, want_leader: int | _Any | None
) -> dict[str, Any]:
    """The deal's record from its history, checked by replaying it."""
    seed = r.seed
    # Compared, not str()-ed: str() of a 5000-digit int raises ValueError (#11 item 6).
    if isinstance(seed, int) and abs(seed) >= 10**_MAX_INT_DIGITS:
        raise RecordError(f"the seed has more than {_MAX_INT_DIGITS} digits", deal=number)
    history = r.history
    first = next((k for k, a in enumerate(history) if not isinstance(a, Exposure)), len(history))
    data: dict[str, Any] = {
        "dealer": r.dealer,
        "leader": None,
        "seed": seed,
        "hands": [[c.code for c in hand] for hand in r.dealt],
        "exposures": [_exposure(a, "seat") for a in history[:first] if isinstance(a, Exposure)],
        "actions": [_action(a) for a in history[first:]],
    }
    # Whether the leader was given or came from the opening card is not public
    # state when the first leader holds that card: the replay tells.
    leader = r.tricks[0].leader if r.tricks else r.leader
    holder = next(s for s, hand in enumerate(r.dealt) if r.rules.opening_card in hand)
    if isinstance(want_leader, _Any):
        leaders: list[int | None] = [None, leader] if leader == holder else [leader]
    elif leader == (holder if want_leader is None else want_leader):
        leaders = [want_leader]
    else:
        leaders = [leader]  # the replay refuses it, saying who should lead
    error = RecordError("the round cannot be written: its replay is another state", deal=number)
    for choice in leaders:
        data["leader"] = choice
        try:
            replayed = _replay_deal(data, r.rules, number, want_dealer, want_leader)
        except RecordError as exc:
            error = exc  # e.g. null where the opening card then had to be led
            continue
        if replayed == r:
            if r.is_complete:
                data["result"] = list(r.score().totals)
            return data
    raise error


def _exposure(action: Exposure, key: str) -> dict[str, Any]:
    down = action.face_down
    return {key: action.seat, "cards": [c.code for c in action.cards],
            "face_down": down if isinstance(down, bool) else [c.code for c in down],
            "blind": action.blind}  # fmt: skip


def _action(action: Action) -> Any:
    if isinstance(action, Play):
        return action.card.code
    if isinstance(action, Claim):
        return {"claim": action.seat}
    if isinstance(action, ClaimResponse):
        return {"respond": action.seat, "accept": action.accept}
    assert isinstance(action, Exposure)  # the last of the four kinds of Action
    return _exposure(action, "expose")


# Nor re-stated: pickle's __setstate__ on a finished record would rewrite it (#11 item 9).
guard_setstate(GameRecord, "rules", RecordError)
