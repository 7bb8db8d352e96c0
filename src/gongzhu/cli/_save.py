"""The save file of ``gongzhu play --human``: the match so far, written after every action.

A save is one JSON object: what the command needs to go on (the match seed, the
human's seat, the level and the bots, the names, the deal limit) around an
ordinary game record (:mod:`gongzhu.record`) of every deal so far, the last one
possibly unfinished::

    {"format": "gongzhu-save", "version": 1, "seed": 42, "human": 0,
     "level": "normal", "bots": ["normal", "normal", "normal", "normal"],
     "names": null, "max_deals": 200, "auto_lone": false,
     "record": {"format": "gongzhu", "version": 1, ...}}

The bots decide from the game state alone (each decision is seeded by the match
seed, the deal and the move), so a resumed match goes on exactly as the
uninterrupted one would have. ``gongzhu replay`` reads a save like a record.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Final

import attrs

from gongzhu.cli._common import UsageError

FORMAT: Final = "gongzhu-save"
VERSION: Final = 1
_MAX_BYTES: Final = 5_000_000  # a record is at most 4 million characters
_KEYS: Final = frozenset(
    {"format", "version", "seed", "human", "level", "bots", "names", "max_deals", "auto_lone"}
    | {"record"}
)


@attrs.frozen
class Session:
    """What a saved match needs besides its deals."""

    seed: int
    human: int
    level: str
    bots: tuple[str, ...]
    names: tuple[str, ...] | None
    max_deals: int
    auto_lone: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "seed": self.seed,
            "human": self.human,
            "level": self.level,
            "bots": list(self.bots),
            "names": None if self.names is None else list(self.names),
            "max_deals": self.max_deals,
            "auto_lone": self.auto_lone,
        }


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


def default_path(seed: int) -> Path:
    return data_dir() / "saves" / f"match-{seed}.json"


def write(path: Path, session: Session, rounds: Any, names: Any) -> None:
    """Write the save atomically (a crash leaves the previous save, never half a file)."""
    from gongzhu.record import GameRecord

    data = session.to_dict()
    data["record"] = GameRecord.from_rounds(list(rounds), names).to_dict()
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fp:
        fp.write(text)
    os.replace(tmp, path)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise UsageError(f"duplicate key {key!r}")
        out[key] = value
    return out


def read_data(path: str) -> dict[str, Any]:
    """The save file's JSON object, read with a size bound; UsageError if it is no save."""
    with open(path, "rb") as fp:
        raw = fp.read(_MAX_BYTES + 1)
    if len(raw) > _MAX_BYTES:
        raise UsageError(f"{path}: too long for a save file")
    try:
        data = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise UsageError(f"{path}: not a save file ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UsageError(f"{path}: not a gongzhu save file")
    return data


def is_save(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def read(path: str) -> tuple[Session, Any]:
    """The session and the :class:`~gongzhu.record.GameRecord` of a save file."""
    from gongzhu.record import loads

    data = read_data(path)
    unknown = set(data) - _KEYS
    if unknown:
        raise UsageError(f"{path}: unknown field {sorted(unknown)[0]!r}")
    if data.get("version") != VERSION:
        raise UsageError(f"{path}: unsupported save version {str(data.get('version'))[:20]}")
    record = loads(json.dumps(data.get("record")))

    def field(name: str, kind: type) -> Any:
        value = data.get(name)
        if not isinstance(value, kind) or isinstance(value, bool) is not (kind is bool):
            raise UsageError(f"{path}: {name}: expected {kind.__name__}")
        return value

    n = record.rules.players
    bots = field("bots", list)
    names = data.get("names")
    if len(bots) != n or not all(isinstance(b, str) for b in bots):
        raise UsageError(f"{path}: bots: expected {n} names")
    if names is not None and (
        not isinstance(names, list)
        or len(names) != n
        or not all(isinstance(x, str) and x for x in names)
    ):
        raise UsageError(f"{path}: names: expected {n} names or null")
    session = Session(
        seed=field("seed", int),
        human=field("human", int),
        level=field("level", str),
        bots=tuple(bots),
        names=None if names is None else tuple(names),
        max_deals=field("max_deals", int),
        auto_lone=field("auto_lone", bool),
    )
    if not 0 <= session.human < n:
        raise UsageError(f"{path}: human: not a seat")
    return session, record
