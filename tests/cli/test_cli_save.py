"""The save file of ``gongzhu play --human``: a :class:`~gongzhu.table.Table`'s state.

The law: a game stopped anywhere (at an exposure question, mid-trick, between
deals) and resumed from its save goes on exactly as the uninterrupted game —
the same cards, the same bot decisions, the same log and scores. Saves written
before the table (format 1, kept in tests/golden/saves) still resume to the
game their own code played to the end. A corrupt or hostile save is one
:class:`SaveError` (a :class:`~gongzhu.GongzhuError`), never a traceback.
"""

from __future__ import annotations

import argparse
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import gongzhu.cli._save as _save
from gongzhu import CardSet, Exposure, GongzhuError, RuleSet
from gongzhu.cli._show import Seats, compass_names
from gongzhu.cli.human.console import _Console, _Quit
from gongzhu.cli.human.game import _Game
from gongzhu.i18n import Translator
from gongzhu.phase import Phase
from gongzhu.table import Table, TableError

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "saves"


class _Scripted(_Console):
    """A console that answers from a list and ends (like end of input) when it runs out."""

    def __init__(self, answers: list[str]) -> None:
        super().__init__(False, Translator())
        self.answers = list(answers)
        self.lines: list[str] = []
        self.asked = 0

    def say(self, text: str = "") -> None:
        self.lines.append(text)

    def read(self, prompt: str) -> str:
        self.lines.append(prompt)
        if not self.answers:
            raise _Quit(ended=True)
        self.asked += 1
        return self.answers.pop(0)


def _play(
    table: Table, session: _save.Session, answers: list[str], path: Path | None, resumed: bool
) -> tuple[Table, _Scripted]:
    """Play ``table`` at the terminal as ``gongzhu play`` does, answering ``answers``."""
    t = Translator()
    console = _Scripted(answers)
    seats = Seats(compass_names(t, table.rules, session.human))
    game = _Game(t, table, seats, session, console)
    game.path = path
    game.play_match(argparse.Namespace(record=None), resumed)
    return game.table, console


def _session(max_deals: int = 2, level: str = "normal", bot: str = "normal") -> _save.Session:
    return _save.Session(0, level, (bot,) * 4, None, max_deals, False)


# -- the law: stopped anywhere, resumed, the same game -------------------------------------------


@pytest.mark.parametrize(
    ("seed", "order"), [(2, "simultaneous"), (11, "simultaneous"), (2, "in-turn")]
)
def test_a_game_resumed_anywhere_is_the_uninterrupted_game(
    tmp_path: Path, seed: int, order: str
) -> None:
    rules = RuleSet.preset("online-quick").replace(exposure_order=order)
    session = _session()
    whole, console = _play(Table.start(rules, seed), session, ["auto"] * 200, None, False)
    assert len(whole.rounds) == 2
    asked = console.asked
    # Stop after the first answer (the exposure question of deal 1 when asked), mid-deal,
    # at the last question of deal 1, and in deal 2; every stop resumes to the same game.
    stops = sorted({1, 7, asked // 2, asked - 3})
    for stop in stops:
        path = tmp_path / f"stop-{stop}.json"
        stopped, _ = _play(Table.start(rules, seed), session, ["auto"] * stop, path, False)
        assert not stopped.is_over
        assert len(stopped.rounds) < 2
        saved_session, saved = _save.read(str(path))
        assert saved_session == session
        assert saved.to_dict() == stopped.to_dict()
        resumed, _ = _play(saved, saved_session, ["auto"] * 200, path, True)
        assert resumed.to_dict() == whole.to_dict(), f"stopped after {stop} answers"
        assert resumed.match.totals == whole.match.totals
        assert _save.read(str(path))[1].to_dict() == whole.to_dict()  # the save kept up


def test_resumed_at_a_sealed_exposure_the_others_decide_from_the_deal_as_dealt() -> None:
    # Seed 99: seat 3 decides before the person (seat 0), seats 1 and 2 after; the search
    # bot of seat 1 exposes 10♣ J♦ or J♦ by its decision seed, which is the deal's as dealt
    # (no move made), so a game resumed at the person's question must seed it the same.
    rules, session = RuleSet.preset("online-quick"), _session(1, bot="search")
    # Both end at the person's first card (the input ends there).
    whole, _ = _play(Table.start(rules, 99), session, ["auto"], None, False)
    stopped, console = _play(Table.start(rules, 99), session, [], None, False)
    assert console.asked == 0
    assert [line for line in console.lines if line.startswith("Expose which cards?")]
    assert stopped.round.phase is Phase.EXPOSURE
    assert stopped.round.exposure_decided == (3,)
    assert stopped.dealt == Table.start(rules, 99).round != stopped.round
    resumed, _ = _play(Table.from_dict(stopped.to_dict()), session, ["auto"], None, True)
    assert resumed.round.phase is Phase.PLAY
    assert resumed.to_dict() == whole.to_dict()


# -- saves written before the table (format 1) -----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "whole_name"),
    [
        ("save-v1-play.json", "save-v1-whole.json"),
        ("save-v1-exposure.json", "save-v1-exposure-whole.json"),
    ],
)
def test_a_version_1_save_resumes_to_the_game_its_own_code_played(
    tmp_path: Path, name: str, whole_name: str
) -> None:
    session, table = _save.read(str(GOLDEN / name))
    assert (session.human, session.level, session.max_deals) == (0, "normal", 200)
    assert not table.is_over
    path = tmp_path / name
    resumed, _ = _play(table, session, ["auto"] * 400, path, True)
    # The same match as the old code's uninterrupted run, deal for deal.
    _, whole = _save.read(str(GOLDEN / whole_name))
    assert whole.is_over
    assert resumed.rounds == whole.rounds
    assert resumed.match.totals == whole.match.totals
    old = json.loads((GOLDEN / whole_name).read_text(encoding="utf-8"))["record"]
    assert _save.record_of(session, resumed).to_dict() == old
    # Resuming wrote the new format; it reads back to the same game.
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["version"], data["table"]["seed"]) == (2, table.seed)
    assert _save.read(str(path))[1].to_dict() == resumed.to_dict()


@pytest.mark.parametrize("seed", [10**100, "11", None, 1.5])
def test_a_version_1_save_with_no_seed_is_refused(tmp_path: Path, seed: object) -> None:
    data = json.loads((GOLDEN / "save-v1-play.json").read_text(encoding="utf-8"))
    data["seed"] = seed
    path = tmp_path / "bad-seed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(_save.SaveError, match=r"bad-seed\.json: .*seed"):
        _save.read(str(path))


def test_a_version_1_save_whose_deals_are_not_its_seeds_is_refused(tmp_path: Path) -> None:
    data = json.loads((GOLDEN / "save-v1-play.json").read_text(encoding="utf-8"))
    data["seed"] += 1
    path = tmp_path / "other-seed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(_save.SaveError, match="not the deals of seed 12"):
        _save.read(str(path))


# -- corrupt and hostile saves ------------------------------------------------------------------


def _good() -> dict[str, object]:
    table = Table.start(RuleSet.preset("online-quick"), 11)
    for seat in table.round.exposure_pending:
        table = table.apply(_pass(seat))
    return _save.to_dict(_session(), table)


def _pass(seat: int) -> Exposure:
    return Exposure(seat, CardSet())


Change = Callable[[Any], object]


def _set(path: str, value: object) -> Change:
    """Set the field at ``path`` (dotted keys and list indexes) of a save's JSON."""

    def change(data: Any) -> None:
        *keys, last = path.split(".")
        for key in keys:
            data = data[int(key)] if isinstance(data, list) else data[key]
        data[int(last) if isinstance(data, list) else last] = value

    return change


def _drop(key: str) -> Change:
    return lambda data: data["table"].pop(key)


_DEEP = "[" * 100_000 + "]" * 100_000

HOSTILE: dict[str, Change] = {
    "version 3": _set("version", 3),
    "version as text": _set("version", "2"),
    "unknown field": _set("extra", 1),
    "no table": lambda data: data.pop("table"),
    "table not an object": _set("table", [1, 2]),
    "table unknown field": _set("table.extra", 1),
    "no log": _drop("log"),
    "log not a list": _set("table.log", {"a": 1}),
    "entry not an object": _set("table.log.0", 7),
    "unknown entry": _set("table.log.0", {"b": 1}),
    "action not an object": _set("table.log.0", {"a": "QS"}),
    "unknown action": _set("table.log.0", {"a": {"type": "cheat", "seat": 0}}),
    "illegal action": _set("table.log.0", {"a": {"type": "play", "seat": 0, "card": "ZZ"}}),
    "out of turn": _set("table.log.3.a.seat", 9),
    "next mid-deal": _set("table.log.0", {"next": 1}),
    "seed a float": _set("table.seed", 1.5),
    "seed too long": _set("table.seed", 10**90),
    "seed missing": _drop("seed"),
    "game zero": _set("table.game", 0),
    "game a bool": _set("table.game", True),
    "rules not an object": _set("table.rules", "classic"),
    "rules unknown option": _set("table.rules.cheat", True),
    "rules bad value": _set("table.rules.players", "many"),
    "rules absurd value": _set("table.rules.players", 10**9),
    "human not a seat": _set("human", 9),
    "human a bool": _set("human", True),
    "level unknown": _set("level", "module:evil"),
    "bots unknown": _set("bots", ["normal", "normal", "normal", "os:system"]),
    "bots too few": _set("bots", ["normal"]),
    "names wrong count": _set("names", ["a"]),
    "names empty": _set("names", ["", "b", "c", "d"]),
    "max_deals text": _set("max_deals", "200"),
    "auto_lone text": _set("auto_lone", "yes"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_corrupt_or_hostile_save_is_one_save_error(tmp_path: Path, case: str) -> None:
    data = copy.deepcopy(_good())
    HOSTILE[case](data)
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(_save.SaveError) as caught:
        _save.read(str(path))
    assert isinstance(caught.value, GongzhuError)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    assert "\n" not in message
    assert len(message) < 600


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "[1, 2]",
        '{"format": "gongzhu-save", "version": 2, "version": 2}',
        '{"format": "gongzhu", "version": 1}',
        _DEEP,
        '"\\ud800"',
        '{"format": "gongzhu-save", "version": 2, "human": ' + "9" * 5000 + "}",
        b"\xff\xfe{}".decode("latin-1"),
    ],
)
def test_a_file_that_is_no_save_is_one_save_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "save.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(_save.SaveError):
        _save.read(str(path))


def test_a_broken_version_1_record_is_one_save_error(tmp_path: Path) -> None:
    data = json.loads((GOLDEN / "save-v1-play.json").read_text(encoding="utf-8"))
    data["record"]["deals"][0]["actions"][3] = "QS"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(_save.SaveError, match=r"broken\.json: "):
        _save.read(str(path))


def test_the_good_save_reads(tmp_path: Path) -> None:
    """The hostile cases above change one field of a save that reads."""
    path = tmp_path / "save.json"
    path.write_text(json.dumps(_good()), encoding="utf-8")
    session, table = _save.read(str(path))
    assert session == _session()
    assert table.round.phase is Phase.PLAY


# -- the table's state ----------------------------------------------------------------------------


def test_a_table_names_the_entry_that_does_not_replay() -> None:
    table = Table.start(RuleSet(), 5)
    log = [*table.apply(_pass(table.round.exposure_pending[0])).log, {"next": 1}]
    with pytest.raises(TableError, match=r"^log entry 2: 'next' before the deal ended$"):
        Table.replay(RuleSet(), 5, 1, log)
    with pytest.raises(TableError, match=r"^log entry 1: "):
        Table.replay(RuleSet(), 5, 1, [{"a": {"type": "play", "seat": 0, "card": "2C"}}])


def test_a_tables_state_round_trips_through_json_and_keeps_stamps() -> None:
    table = Table.start(RuleSet.preset("online"), "room seed", game=3)
    table = table.apply(_pass(table.round.exposure_pending[0]), {"e": 4})
    again = Table.from_dict(json.loads(json.dumps(table.to_dict())))
    assert again.to_dict() == table.to_dict()
    assert again.log == ({"a": table.log[0]["a"], "e": 4},)
    assert (again.round, again.dealt, again.match_seed) == (
        table.round,
        table.dealt,
        "room seed/game3",
    )


@pytest.mark.parametrize("case", ["illegal action", "level unknown", "seed too long"])
def test_play_resume_and_replay_refuse_a_hostile_save_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    from gongzhu.cli import main

    data = copy.deepcopy(_good())
    HOSTILE[case](data)
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for argv in (["play", "--resume", str(path)], ["replay", str(path)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1
        assert "error: " in err
        assert "Traceback" not in err
        assert f"{path}: " in err  # the save's own complaint, also from replay


def test_replay_reads_a_save_of_either_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gongzhu.cli import main

    old = GOLDEN / "save-v1-whole.json"
    assert main(["replay", str(old), "--quiet"]) == 0
    before = capsys.readouterr().out
    session, table = _save.read(str(old))
    new = tmp_path / "v2.json"
    _save.write(new, session, table)
    assert main(["replay", str(new), "--quiet"]) == 0
    assert capsys.readouterr().out == before
    assert "-570" in before  # South's total at the end (tests/golden/saves/README.md)


def test_a_web_rooms_game_goes_on_at_the_terminal(tmp_path: Path) -> None:
    """A web room's game and a terminal save are one state: the room's table, saved as the
    terminal saves, resumes there and goes on from the same log (its stamps kept)."""
    from gongzhu.ai.driver import awaiting
    from gongzhu.web.rooms import Room, Settings
    from gongzhu.web.store import MemoryStore

    room, _ = Room.create(MemoryStore(), Settings(threshold=500), "Ann", seed=7)
    while room.round.phase is Phase.EXPOSURE:
        seat = awaiting(room.round)[0]
        room.apply(room.decide(room.round, seat, room.strategy(seat)))
    path = tmp_path / "from-the-web.json"
    _save.write(path, _session(1), room.table)
    session, table = _save.read(str(path))
    assert table.to_dict() == room.table.to_dict()
    assert all("e" in entry for entry in table.log)  # the room's event numbers came along
    played, _ = _play(table, session, ["auto"] * 20, path, True)
    assert played.log[: len(room.table.log)] == room.table.log
    assert played.rounds[0].history[: len(room.round.history)] == room.round.history
