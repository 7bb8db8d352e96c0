"""The record object and the :mod:`json`-shaped functions: :class:`GameRecord`,
:func:`dumps`, :func:`dump`, :func:`loads`, :func:`load`.

Part of :mod:`gongzhu.record` (import the names from there).
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from typing import IO, Any

import attrs

from gongzhu._base.frozen import guard_setstate, refuse_reinit
from gongzhu._base.text import brief
from gongzhu.errors import RecordError
from gongzhu.match import Match
from gongzhu.record._read import MAX_TEXT, _from_data, _read_bounded, _too_long
from gongzhu.record._schema import (
    _layout,
    parse_json,
)
from gongzhu.record._write import _build, _build_record, _rounds_of
from gongzhu.round import Round
from gongzhu.rules import RuleSet

__all__ = ["GameRecord", "dump", "dumps", "load", "loads"]


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
        checked, match, _data = _build(rules, names, rounds)
        return cls(rules, checked, rounds, match)

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON data (the canonical form :func:`dumps` writes).

        Raises :class:`~gongzhu.RecordError` when the record is not what its
        rounds say: a round played under other rules than :attr:`rules`, a
        :attr:`match` that is not the match of the rounds, bad names.
        """
        return _build_record(self, self.names)[2]


guard_setstate(GameRecord, "rules", RecordError)


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
        data = _build_record(game, game.names if names is None else names)[2]
    else:
        rules, rounds = _rounds_of(game)
        data = _build(rules, names, rounds)[2]
    if indent is None:
        return json.dumps(data, ensure_ascii=False)
    if not isinstance(indent, int) or isinstance(indent, bool) or not 0 <= indent <= 16:
        raise RecordError(f"indent must be None or an int 0-16, got {brief(indent)}")
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
    return GameRecord(*_from_data(parse_json(text)))


def load(fp: IO[str] | IO[bytes]) -> GameRecord:
    """Read a record from a file opened for reading (text or binary); see :func:`loads`.

    At most :data:`MAX_TEXT` characters (of UTF-8, for a binary file) are read,
    whatever the file holds: ``/dev/zero`` or a huge file is refused quickly
    with a :class:`~gongzhu.RecordError`, as is text that is not UTF-8.
    """
    return loads(_read_bounded(fp))


# The methods' doctests run here (the package sets GameRecord's __module__ to its path).
__test__ = {"GameRecord": GameRecord}
