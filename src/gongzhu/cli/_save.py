"""The save file of ``gongzhu play --human``: the game so far, written after every action.

A save is one JSON object: what the command needs besides the game (the
human's seat, the level and the bots, the names, the deal limit) around the
game itself, a :class:`~gongzhu.table.Table`'s state (:meth:`Table.to_dict
<gongzhu.table.Table.to_dict>`: rules, seed, game number and the log of every
action and every "deal the next"), the same state a web room keeps::

    {"format": "gongzhu-save", "version": 2, "human": 0, "level": "normal",
     "bots": ["normal", "normal", "normal", "normal"], "names": null,
     "max_deals": 200, "auto_lone": false,
     "table": {"rules": {...}, "seed": 42, "game": 1, "log": [{"a": {...}}, ...]}}

Version 1 (the earlier format) held a game record of the deals so far and the seed
beside it; :func:`read` still reads it, replaying its deals into a table and
checking that they are the deals of its seed.

The bots decide from the game state alone (each decision is seeded by the match
seed, the deal and the move), so a resumed match goes on exactly as the
uninterrupted one would have. ``gongzhu replay`` reads a save like a record
(:func:`record_of`).

Everything read is checked: a file that is not a save, or a save that is
corrupt or does not replay, is a :class:`SaveError` saying which field or
log entry is wrong, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Final

import attrs

from gongzhu._base.seeds import check_seed
from gongzhu.errors import GongzhuError
from gongzhu.table import Table, TableError

if TYPE_CHECKING:
    from gongzhu.record import GameRecord
    from gongzhu.round import Round

FORMAT: Final = "gongzhu-save"
VERSION: Final = 2
_MAX_BYTES: Final = 5_000_000  # a record is at most 4 million characters
_SESSION_KEYS: Final = ("human", "level", "bots", "names", "max_deals", "auto_lone")
_KEYS: Final = {
    1: frozenset({"format", "version", "seed", "record", *_SESSION_KEYS}),
    2: frozenset({"format", "version", "table", *_SESSION_KEYS}),
}


class SaveError(GongzhuError, ValueError):
    """A save file that is no save, or a save that is corrupt or does not replay."""


@attrs.frozen
class Session:
    """What a saved game needs besides its :class:`~gongzhu.table.Table`."""

    human: int
    level: str
    bots: tuple[str, ...]
    names: tuple[str, ...] | None
    max_deals: int
    auto_lone: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "human": self.human,
            "level": self.level,
            "bots": list(self.bots),
            "names": None if self.names is None else list(self.names),
            "max_deals": self.max_deals,
            "auto_lone": self.auto_lone,
        }

    def record_names(self, table: Table) -> tuple[str, ...]:
        """The names a record of this game gives the seats: the chosen ones, else the
        compass names (in English) as the person saw them."""
        from gongzhu.cli._show import compass_names
        from gongzhu.i18n import Translator

        return self.names or tuple(compass_names(Translator(), table.rules, self.human))


def data_dir() -> Path:
    """Where saves go by default: ``GONGZHU_DATA_DIR``, else the user's data directory.

    platformdirs names it when installed; otherwise the usual place per system.
    """
    override = os.environ.get("GONGZHU_DATA_DIR")
    if override:
        return Path(override)
    try:
        import platformdirs
    except ImportError:
        pass
    else:
        return Path(platformdirs.user_data_dir("gongzhu", appauthor=False))
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming") / "gongzhu"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "gongzhu"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "gongzhu"


def default_path(seed: int | str) -> Path:
    return data_dir() / "saves" / f"match-{seed}.json"


def to_dict(session: Session, table: Table) -> dict[str, object]:
    """The save's JSON object."""
    return {"format": FORMAT, "version": VERSION, **session.to_dict(), "table": table.to_dict()}


def write(path: Path, session: Session, table: Table) -> None:
    """Write the save atomically (a crash leaves the previous save, never half a file)."""
    text = json.dumps(to_dict(session, table), ensure_ascii=False, separators=(",", ":"))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fp:
        fp.write(text + "\n")
    os.replace(tmp, path)


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise SaveError(f"duplicate key {key[:40]!r}")
        out[key] = value
    return out


def read_data(path: str) -> dict[str, object]:
    """The save file's JSON object, read with a size bound; :class:`SaveError` if it is no
    save (or an unknown version of one)."""
    with open(path, "rb") as fp:
        raw = fp.read(_MAX_BYTES + 1)
    if len(raw) > _MAX_BYTES:
        raise SaveError(f"{path}: too long for a save file")
    try:
        data = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates)
    except (ValueError, RecursionError) as exc:  # bad UTF-8 or JSON, an int of 5000 digits
        raise SaveError(f"{path}: not a save file ({str(exc)[:200]})") from None
    if not is_save(data):
        raise SaveError(f"{path}: not a gongzhu save file")
    assert isinstance(data, dict)  # is_save says so
    version = data.get("version")
    if type(version) is not int or version not in _KEYS:
        raise SaveError(f"{path}: unsupported save version {str(version)[:20]}")
    unknown = sorted(set(data) - _KEYS[version])
    if unknown:
        raise SaveError(f"{path}: unknown field {unknown[0][:40]!r}")
    return data


def is_save(data: object) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def read(path: str) -> tuple[Session, Table]:
    """The session and the :class:`~gongzhu.table.Table` of a save file (either version)."""
    data = read_data(path)
    try:
        table = _table_v1(data) if data["version"] == 1 else Table.from_dict(data.get("table"))
    except (GongzhuError, RecursionError) as exc:
        raise SaveError(f"{path}: {exc}") from None
    return _session(path, data, table.rules.players), table


def _session(path: str, data: dict[str, object], players: int) -> Session:
    from gongzhu.cli._common import bot_names

    def number(name: str) -> int:
        value = data.get(name)
        if type(value) is not int:
            raise SaveError(f"{path}: {name}: expected a number")
        return value

    def names_of(name: str, allowed: tuple[str, ...] | None) -> tuple[str, ...]:
        value = data.get(name)
        if (
            not isinstance(value, list)
            or len(value) != players
            or not all(
                isinstance(x, str) and x and (allowed is None or x in allowed) for x in value
            )
        ):
            kinds = "names" if allowed is None else f"of {', '.join(allowed)}"
            raise SaveError(f"{path}: {name}: expected {players} {kinds}")
        return tuple(str(x) for x in value)

    known = bot_names()
    level, auto_lone, human = data.get("level"), data.get("auto_lone"), number("human")
    if not isinstance(level, str) or level not in known:
        raise SaveError(f"{path}: level: expected one of {', '.join(known)}")
    if not isinstance(auto_lone, bool):
        raise SaveError(f"{path}: auto_lone: expected true or false")
    if not 0 <= human < players:
        raise SaveError(f"{path}: human: not a seat")
    return Session(
        human=human,
        level=level,
        bots=names_of("bots", known),
        names=None if data.get("names") is None else names_of("names", None),
        max_deals=number("max_deals"),
        auto_lone=auto_lone,
    )


def _table_v1(data: dict[str, object]) -> Table:
    """The table of a version-1 save: its record's deals replayed from its seed (which must
    deal them)."""
    from gongzhu.record import loads

    seed = data.get("seed")
    check_seed(seed, error=SaveError, text=False, none=False)
    assert isinstance(seed, int)  # check_seed says so
    record = loads(json.dumps(data.get("record")))
    log: list[dict[str, object]] = []
    for number, rnd in enumerate(record.rounds):
        if number:
            log.append({"next": 1})
        log.extend({"a": action.to_dict()} for action in rnd.history)
    why = f"record: its deals are not the deals of seed {seed}"
    try:
        table = Table.replay(record.rules, seed, 1, log)
    except TableError as exc:
        raise SaveError(f"{why} ({exc})") from None
    if record.rounds != _deals(table):
        raise SaveError(why)
    return table


def _deals(table: Table) -> tuple[Round, ...]:
    """Every deal of the table's game so far, the one in progress too."""
    return table.rounds if table.round.is_over else (*table.rounds, table.round)


def record_of(session: Session, table: Table) -> GameRecord:
    """The game so far as a record (the deal in progress too: ``gongzhu replay`` shows it)."""
    from gongzhu.record import GameRecord

    return GameRecord.from_rounds(_deals(table), names=session.record_names(table))
