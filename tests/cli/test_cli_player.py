"""``gongzhu play`` as a player meets it: save and resume, levels, the screen, typing cards.

End to end through a pipe (one answer a line) and under a pseudo-terminal. The
oracle for whole matches is the library: the same seeded match played here with
the person's policy and the command's own bots must end with the same totals.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import gongzhu
from gongzhu import PIG, SHEEP, TRANSFORMER, Card, CardSet, Exposure, Match, Play, RuleSet, deal
from gongzhu.cli._common import make_bot
from gongzhu.cli._show import Seats, table
from gongzhu.cli.human import decision_seed
from gongzhu.dealing import match_deal_seed as _deal_seed
from gongzhu.i18n import Translator
from gongzhu.phase import Phase
from gongzhu.rules import ExposureOrder
from gongzhu.table import Table

# The build under test (src here; the installed, maybe compiled, package in CI) for subprocesses.
SRC = str(Path(gongzhu.__file__).resolve().parents[1])


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("LANGUAGE", None)
    env["LANG"] = "C.UTF-8"
    env["GONGZHU_DATA_DIR"] = str(tmp_path / "data")
    env.pop("NO_COLOR", None)
    env.update(extra)
    return env


def run(
    tmp_path: Path,
    args: list[str],
    answers: list[str] = (),
    timeout: float = 180,
    encoding: str = "utf-8",
    **env: str,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gongzhu", *args],
        input="".join(line + "\n" for line in answers),
        capture_output=True,
        text=True,
        encoding=encoding,
        errors="replace",
        timeout=timeout,
        check=False,
        env=_env(tmp_path, **env),
    )


def final_rows(stdout: str) -> list[list[int]]:
    """The running totals of the last table printed (``   k  a b c d`` rows)."""
    rows: dict[int, list[int]] = {}
    for line in stdout.splitlines():
        m = re.fullmatch(r"\s*(\d+)((?:\s+-?\d+){4,5})", line)
        if m:
            rows[int(m.group(1))] = [int(x) for x in m.group(2).split()]
    return [rows[k] for k in sorted(rows)]


def oracle_match(rules: RuleSet, seed: int, human: int, level: str) -> tuple[Match, list[str]]:
    """The match when the person passes every exposure and plays the lowest legal card.

    The bots are the command's: one fresh bot of ``level`` per decision, seeded by
    the match seed, the deal, the move and the seat. Returns the match and the
    answers the person types.
    """
    n = rules.players
    match = Match(rules)
    answers: list[str] = []
    number = 0
    while not match.is_over:
        number += 1
        start = deal(
            rules=rules,
            seed=_deal_seed(seed, number),
            leader=match.next_leader,
            dealer=match.dealer,
        )
        rnd = start

        def bot(seat: int, at: object, number: int = number) -> object:
            return make_bot(level, decision_seed(seed, number, len(at.history), seat))  # type: ignore[attr-defined]

        if rnd.phase is Phase.EXPOSURE:
            order = [(rnd.leader + k) % n for k in range(n)]
            sealed = rules.exposure_order is ExposureOrder.SIMULTANEOUS
            first = {s: bot(s, start).choose_exposure(start.view(s)) for s in order}  # type: ignore[attr-defined]
            for s in order:
                if s == human:
                    view = rnd.view(s)
                    if (view.hand & rules.exposable) - view.exposed:
                        answers.append("pass")
                    rnd = rnd.expose((), seat=s)
                else:
                    cards = first[s] if sealed else bot(s, rnd).choose_exposure(rnd.view(s))  # type: ignore[attr-defined]
                    rnd = rnd.expose(cards, seat=s)
        while not rnd.is_over:
            s = rnd.to_act
            assert s is not None
            view = rnd.view(s)
            if s == human:
                card = view.legal_plays.cards[0]
                answers.append(card.code)
            else:
                card = bot(s, rnd).choose_play(view, view.legal_plays)  # type: ignore[attr-defined]
            rnd = rnd.play(card, seat=s)
        match = match.add(rnd)
    return match, answers


# -- issue 22 items 12 and 13 --------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_item_12_a_non_utf8_output_stream_never_fails(tmp_path: Path, encoding: str) -> None:
    for args in (["--help"], ["score", "10C QS"], ["demo"], ["rules", "online"]):
        result = run(tmp_path, args, encoding=encoding, PYTHONIOENCODING=encoding)
        assert result.returncode == 0, (args, result.stderr)
        assert result.stderr == ""
    score = run(tmp_path, ["score", "10C QS"], encoding=encoding, PYTHONIOENCODING=encoding).stdout
    # What the stream cannot write becomes ASCII: the card codes' suit letters.
    assert "10C QS" in score
    # An error message too is written, not replaced by an encoding failure.
    bad = run(tmp_path, ["score", "QS QS"], encoding=encoding, PYTHONIOENCODING=encoding)
    assert bad.returncode == 2
    assert "QS" in bad.stderr
    assert "codec" not in bad.stderr


def test_item_13_a_list_option_is_read_whole_and_a_wrong_count_refused(tmp_path: Path) -> None:
    thirteen = ",".join(str(v) for v in range(1, 14))
    ok = run(tmp_path, ["rules", "--rule", f"heart_values={thirteen}"])
    assert ok.returncode == 0, ok.stderr
    assert "heart_values=" + thirteen in ok.stdout
    # 14 values, the last one long: refused, never cut to the first 13.
    long_last = run(tmp_path, ["rules", "--rule", f"heart_values={thirteen},{'0' * 24}14"])
    assert long_last.returncode == 2
    assert "heart_values" in long_last.stderr
    fourteen = run(tmp_path, ["rules", "--rule", f"heart_values={thirteen},14"])
    assert fourteen.returncode == 2
    assert "needs 13" in fourteen.stderr
    # The printed form reads back (brackets and spaces too); digits are ASCII digits.
    printed = run(tmp_path, ["rules", "--rule", f"heart_values=({thirteen.replace(',', ', ')})"])
    assert printed.returncode == 0, printed.stderr
    assert run(tmp_path, ["rules", "--rule", "players=٥"]).returncode == 2
    assert run(tmp_path, ["rules", "--rule", "direction=Clockwise"]).returncode == 0


# -- rules on screen ---------------------------------------------------------------------


def test_a_rule_set_is_named_by_its_nearest_preset_and_printed_forms_read_back(
    tmp_path: Path,
) -> None:
    out = run(tmp_path, ["rules", "online", "--rule", "sign_swap=no"]).stdout
    assert out.splitlines()[0] == "Rule set online + sign_swap=no"
    # exposable is printed "none", and "none" is accepted back.
    shown = run(tmp_path, ["rules", "flat-pig"]).stdout
    assert re.search(r"exposable\s+none", shown)
    back = run(tmp_path, ["rules", "classic", "--rule", "exposable=none"])
    assert back.returncode == 0, back.stderr
    assert back.stdout.splitlines()[0] == "Rule set classic + exposable=none"
    assert RuleSet.preset("online").replace(sign_swap=False).nearest_name() == (
        "online + sign_swap=no"
    )


def test_help_lists_the_presets_and_the_levels(tmp_path: Path) -> None:
    from gongzhu.cli._common import PRESET_NAMES
    from gongzhu.cli.rules import PRESET_TITLES
    from gongzhu.rules import PRESETS

    assert tuple(PRESETS) == PRESET_NAMES == tuple(PRESET_TITLES)
    text = " ".join(run(tmp_path, ["play", "--help"], COLUMNS="300").stdout.split())
    assert "preset: " + ", ".join(PRESETS) in text
    assert "--level {easy,normal,hard}" in text


def test_argparse_speaks_the_chosen_language(tmp_path: Path) -> None:
    result = run(tmp_path, ["--lang", "zh", "play", "--help"])
    assert result.stdout.startswith("用法：")
    assert "显示这个帮助并退出" in result.stdout
    bad = run(tmp_path, ["--lang", "zh", "play", "--players", "9"])
    assert "无效的选择" in bad.stderr


# -- the per-deal lines: the teams line only under pairs ----------------------------------


def _rounds(rules: RuleSet, seed: int, deals: int) -> Match:
    from gongzhu.ai.strategies import RuleOfThumbStrategy, play_match

    match, _ = play_match(
        [RuleOfThumbStrategy()] * rules.players, rules=rules, seed=seed, max_deals=deals
    )
    return match


@pytest.mark.parametrize(
    ("rules", "pairs"),
    [
        (RuleSet(), False),
        (RuleSet(players=5), False),
        (RuleSet(partnerships=True), True),
    ],
)
def test_the_table_after_a_deal_has_a_teams_line_only_under_pairs(
    rules: RuleSet, pairs: bool
) -> None:
    t = Translator()
    match = _rounds(rules, 3, 2)
    seats = Seats([f"P{s}" for s in range(rules.players)])
    lines = table(t, match, seats).splitlines()
    teams = [line for line in lines if line.startswith("teams:")]
    if pairs:
        a, b = match.totals[0] + match.totals[2], match.totals[1] + match.totals[3]
        assert teams == [f"teams: P0+P2 {a}, P1+P3 {b}"]
    else:
        assert teams == []
    # Every seat has its column, also the fifth.
    assert lines[0].split()[-rules.players :] == list(seats.names)


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "5"],
        ["--rule", "partnerships=yes"],
        [],
    ],
)
def test_play_prints_each_deal_without_a_false_teams_line(tmp_path: Path, args: list[str]) -> None:
    result = run(tmp_path, ["play", "--seed", "4", "--max-deals", "2", *args])
    assert result.returncode == 0, result.stderr
    out = result.stdout
    rules = RuleSet(players=5) if "--players" in args else RuleSet(partnerships=bool(args))
    match = _rounds(rules, 4, 2)
    assert final_rows(out) == [list(row) for row in match.history]
    if rules.partnerships:
        t = match.totals
        assert f"teams: South+North {t[0] + t[2]}, East+West {t[1] + t[3]}" in out
    else:
        assert "teams:" not in out
    assert "(stopped after 2 deals: --max-deals)" in out


# -- save and resume ---------------------------------------------------------------------

PRESET, SEED, HUMAN = "online-quick", 11, 0


def _answers_until_killed(
    tmp_path: Path, args: list[str], answers: list[str], stop_after: int
) -> str:
    """Run the command, answer ``stop_after`` prompts one by one, then kill it (SIGKILL)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gongzhu", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(tmp_path),
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    seen = b""
    given = 0
    deadline = time.monotonic() + 120
    try:
        while given < stop_after and time.monotonic() < deadline:
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            seen += chunk
            while seen.count(b"> ") > given and given < stop_after:
                proc.stdin.write((answers[given] + "\n").encode())
                proc.stdin.flush()
                given += 1
        # The last answer is being played: wait for the next prompt, so the kill
        # lands between two saves of a running game, then kill without warning.
        while seen.count(b"> ") <= given and time.monotonic() < deadline:
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            seen += chunk
        proc.kill()
    finally:
        proc.wait(timeout=30)
    assert given == stop_after
    return seen.decode()


def test_a_match_killed_mid_deal_resumes_to_the_uninterrupted_totals(tmp_path: Path) -> None:
    rules = RuleSet.preset(PRESET)
    match, answers = oracle_match(rules, SEED, HUMAN, "normal")
    base = ["play", "--human", str(HUMAN), "--rules", PRESET, "--seed", str(SEED)]
    whole = run(tmp_path, [*base, "--no-save"], answers)
    assert whole.returncode == 0, whole.stderr
    expected = [list(row) for row in match.history]
    assert final_rows(whole.stdout) == expected
    # Killed after 20 answers (inside deal 2), then resumed from the save.
    save = tmp_path / "match.json"
    stop = 20
    first = _answers_until_killed(tmp_path, [*base, "--save", str(save)], answers, stop)
    assert f"Saving the match to {save}." in first
    data = json.loads(save.read_text(encoding="utf-8"))
    assert (data["table"]["seed"], data["human"], data["level"]) == (SEED, HUMAN, "normal")
    saved = Table.from_dict(data["table"])  # the save is the game's table: seed, rules, log
    assert saved.deal_no >= 2
    assert not saved.round.is_over
    resumed = run(tmp_path, ["play", "--resume", str(save)], answers[stop:])
    assert resumed.returncode == 0, resumed.stderr
    assert f"Resuming from {save}" in resumed.stdout
    assert final_rows(resumed.stdout) == expected
    # replay reads a save like a record.
    replay = run(tmp_path, ["replay", str(save), "--quiet"])
    assert replay.returncode == 0, replay.stderr
    assert final_rows(replay.stdout) == expected


def test_quit_saves_q_asks_and_a_alone_is_not_a_move(tmp_path: Path) -> None:
    save = tmp_path / "s.json"
    args = ["play", "--human", "0", "--seed", "5", "--save", str(save)]
    result = run(tmp_path, args, ["pass", "a", "q", "no", "auto", "q", "yes"])
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Type auto in full" in out
    assert out.count("Leave the match? It is saved. (yes or no) > ") == 2
    assert f"The match is saved: gongzhu play --resume {save}" in out
    assert "You left the match after 0 complete deals." in out
    data = json.loads(save.read_text(encoding="utf-8"))
    deal_one = Table.from_dict(data["table"]).round
    # "a" played nothing, "auto" played one card of the person's: the game went on from there.
    assert sum(isinstance(action, Play) for action in deal_one.history) >= 1
    again = run(tmp_path, ["play", "--resume", str(save)], ["quit"])
    assert again.returncode == 0, again.stderr
    assert "Resuming from" in again.stdout


def test_the_default_save_goes_to_the_data_directory(tmp_path: Path) -> None:
    result = run(tmp_path, ["play", "--human", "1", "--seed", "77"], ["quit"])
    path = tmp_path / "data" / "saves" / "match-77.json"
    assert f"Saving the match to {path}." in result.stdout
    assert path.exists()


def test_a_save_that_is_no_save_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "gongzhu-save", "version": 1, "seed": 1, "seed": 2}')
    result = run(tmp_path, ["play", "--resume", str(bad)])
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert "duplicate key" in result.stderr


# -- the screen: what a player needs -------------------------------------------------------


def test_the_screen_shows_exposures_values_totals_threshold_and_counts(tmp_path: Path) -> None:
    rules = RuleSet.preset("online")

    # A seed where another seat exposes in deal 1 (the normal bot exposes the pig it holds).
    def fits(s: int) -> bool:
        first = deal(rules=rules, seed=_deal_seed(s, 1))
        mine = first.view(0).hand & rules.exposable
        theirs = any(make_bot("normal", 1).choose_exposure(first.view(k)) for k in (1, 2, 3))
        return bool(mine) and theirs

    seed = next(s for s in range(300) if fits(s))
    answers = ["pass", "score", "count", "hand", "auto deal"]
    result = run(
        tmp_path,
        ["play", "--human", "0", "--rules", "online", "--seed", str(seed), "--max-deals", "1"],
        answers,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "The match ends at −1000 or +1000 points, or after 30 deals." in out
    # The exposure panel reminds the restriction; exposures stay on the table all deal.
    assert "may not be played to the first trick of its suit" in out
    assert out.count("  Exposed: ") >= 3
    assert "This deal so far (point cards taken, their value):" in out
    assert "Totals before this deal: South (you) 0, West 0, North 0, East 0" in out
    assert "Nearest to −1000: " in out
    assert re.search(r"\d+ hearts? still out: ", out)
    assert "Known voids: " in out
    # auto deal: the level's bot plays the rest of the deal.
    assert "Deal 1 is over." in out
    assert "after deal" in out


def test_a_lone_legal_card_is_played_for_you_with_auto_lone(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        ["play", "--human", "0", "--seed", "3", "--max-deals", "1", "--auto-lone", "--no-save"],
        ["pass"] + ["auto"] * 13,
    )
    assert result.returncode == 0, result.stderr
    # The last trick always has one legal card.
    assert result.stdout.count("  You play ") >= 1


def test_the_start_screen_toggles_end_sign_swap_exposure_and_level(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        ["play", "--human", "0", "--rules", "online", "--setup", "--no-save", "--seed", "3"],
        ["1", "2", "3", "4", "4", "", "quit"],
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "1. end of the match: −500 or +500" in out
    assert "2. sign swap (猪羊变色): off" in out
    assert "3. exposure (亮牌): off" in out
    assert "4. computer players: hard" in out
    assert "4. computer players: easy" in out
    assert (
        "opponents: 3 computer players (easy); rules: online quick game + exposable=none, "
        "sign_swap=no; match number 3." in out
    )


# -- levels: hint and auto agree -----------------------------------------------------------


def test_the_level_is_shown_and_bots_still_take_names(tmp_path: Path) -> None:
    easy = run(tmp_path, ["play", "--human", "0", "--level", "easy", "--seed", "2"], ["quit"])
    assert "opponents: 3 computer players (easy);" in easy.stdout
    named = run(tmp_path, ["play", "--human", "0", "--bots", "random", "--seed", "2"], ["quit"])
    assert "opponents: 3 computer players (random);" in named.stdout
    bad = run(tmp_path, ["play", "--human", "0", "--level", "genius"])
    assert bad.returncode == 2
    watch = run(tmp_path, ["play", "--level", "easy", "--seed", "2", "--max-deals", "1"])
    assert watch.returncode == 0, watch.stderr


class _FakeSearch:
    """A level bot that analyses: every legal card ranked, the last one best."""

    def __init__(self, *_: object) -> None:
        pass

    def analyse(self, view: object) -> object:
        from types import SimpleNamespace

        legal = list(view.legal_plays)  # type: ignore[attr-defined]
        moves = [
            SimpleNamespace(card=c, expected=float(k), stderr=2.0, samples=100)
            for k, c in enumerate(legal)
        ][::-1]
        return SimpleNamespace(moves=tuple(moves), best=moves[0])

    def choose_play(self, view: object, legal: object) -> Card:
        raise AssertionError("auto must play the analysis' best card")


def test_hint_and_auto_use_the_same_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    import gongzhu.cli.human.game as human
    from gongzhu.cli._save import Session
    from gongzhu.cli.human import _Console, _Game

    table = Table.start(RuleSet(), seed=1)
    for seat in table.round.exposure_pending:
        table = table.apply(Exposure(seat, CardSet()))
    rnd = table.round
    seat = rnd.to_act
    session = Session(seat, "hard", ("hard",) * 4, None, 5, False)
    game = _Game(Translator(), table, Seats(["S", "E", "N", "W"]), session, _Console(False))
    view = rnd.view(seat)
    monkeypatch.setattr(human, "make_bot", lambda name, seed: _FakeSearch())
    lines = game.hint(view).splitlines()
    assert lines[0] == "hint from the computer (expected deal score per card):"
    best = list(view.legal_plays)[-1]
    assert lines[1] == f"    {best}: +{len(view.legal_plays) - 1} ± 2 (100 samples)"
    assert game.play_advice(view) == best
    # A level bot without analysis: the hint names the card auto plays.
    monkeypatch.setattr(human, "make_bot", make_bot)
    session = Session(seat, "normal", ("normal",) * 4, None, 5, False)
    game = _Game(Translator(), table, Seats(["S", "E", "N", "W"]), session, _Console(False))
    card = game.play_advice(view)
    assert game.hint(view) == f"hint: the normal computer would play {Translator().card_name(card)}"


# -- typing cards as they are shown ---------------------------------------------------------


def test_cards_typed_in_chinese_play_the_whole_match(tmp_path: Path) -> None:
    rules = RuleSet.preset(PRESET)
    match, answers = oracle_match(rules, SEED, HUMAN, "normal")
    zh = Translator("zh")
    nick = {PIG.code: "猪", SHEEP.code: "羊", TRANSFORMER.code: "变压器"}
    # Every card as the Chinese output writes it; the special cards by nickname every
    # other time (黑桃Q or 猪).
    typed = [
        a if a == "pass" else (nick.get(a) if k % 2 and a in nick else zh.card(Card(a)))
        for k, a in enumerate(answers)
    ]
    result = run(
        tmp_path,
        [
            "play",
            "--human",
            str(HUMAN),
            "--rules",
            PRESET,
            "--seed",
            str(SEED),
            "--lang",
            "zh",
            "--no-save",
        ],
        typed,
    )
    assert result.returncode == 0, result.stderr
    assert final_rows(result.stdout) == [list(row) for row in match.history]
    assert "不是一张牌" not in result.stdout


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("梅花9", "9C"),
        ("黑桃Q", "QS"),
        ("猪", "QS"),
        ("羊", "JD"),
        ("变压器", "10C"),
        ("红桃 A", "AH"),
        ("ｑｓ", "QS"),
        ("♠Q", "QS"),
        ("10h", "10H"),
    ],
)
def test_a_card_is_read_as_it_is_shown(typed: str, code: str) -> None:
    import unicodedata

    from gongzhu.cli.human import parse_typed_card

    assert parse_typed_card(Translator("zh"), unicodedata.normalize("NFKC", typed)) == Card(code)


# -- under a pseudo-terminal -----------------------------------------------------------------


def _answered(fd: int, seconds: float, read_some: Callable[[], bool]) -> bool:
    """True once the child writes anything or closes the terminal within ``seconds``."""
    end = time.monotonic() + seconds
    ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
    if ready:
        read_some()
    return bool(ready)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_at_a_terminal_ctrl_c_saves_and_resume_goes_on(tmp_path: Path) -> None:
    import pty

    save = tmp_path / "tty.json"

    def session(args: list[str], typed: list[bytes], interrupt: bool) -> tuple[str, int]:
        pid, fd = pty.fork()
        if pid == 0:  # the child: the command, on the pseudo-terminal
            os.execve(sys.executable, [sys.executable, "-m", "gongzhu", *args], _env(tmp_path))
        out = b""
        deadline = time.monotonic() + 120

        def read_some() -> bool:
            # Never block past the deadline: a read that waits for ever would hang the run.
            nonlocal out
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return False
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child has gone: the terminal is closed
                return False
            out += chunk
            return bool(chunk)

        def wait_for_prompts(count: int) -> None:
            while out.count(b"> ") < count:
                if not read_some():
                    raise AssertionError(f"no prompt {count}:\n{out.decode('utf-8', 'replace')}")

        status = None
        try:
            for k, line in enumerate(typed):
                wait_for_prompts(k + 1)
                os.write(fd, line)
            if interrupt:
                wait_for_prompts(len(typed) + 1)  # the game waits for the next answer
                # A signal that lands after readline printed the prompt but before it
                # waits (CPython's readline loop has that window) is seen only at the next
                # key: like a person pressing Ctrl-C again, repeat it until the game goes.
                for _ in range(20):
                    os.kill(pid, signal.SIGINT)
                    if _answered(fd, 2.0, read_some):
                        break
            while read_some():
                pass
            while status is None and time.monotonic() < deadline:
                done, status_now = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = status_now
                else:
                    time.sleep(0.05)
        finally:
            if status is None:  # still running: never leave it behind
                os.kill(pid, signal.SIGKILL)
                _, status = os.waitpid(pid, 0)
            os.close(fd)
        return out.decode("utf-8", "replace"), os.waitstatus_to_exitcode(status)

    args = ["play", "--human", "0", "--seed", "3", "--lang", "zh", "--save", str(save)]
    text, code = session(args, [b"pass\n", "自动\n".encode()], interrupt=True)
    assert code == 130
    assert f"比赛已保存：gongzhu play --resume {save}" in text
    assert "\x1b[31m" in text  # red suits in colour at a terminal
    before = json.loads(save.read_text(encoding="utf-8"))["table"]
    text, code = session(["play", "--resume", str(save), "--lang", "zh"], [b"quit\n"], False)
    assert code == 0
    assert "从 " in text
    assert "继续：第1局。" in text
    after = json.loads(save.read_text(encoding="utf-8"))["table"]
    assert after == before  # nothing lost, nothing added by quitting


@pytest.mark.parametrize("args", [["--players", "5"], ["--rule", "partnerships=yes"]])
def test_a_person_playing_sees_the_right_per_deal_lines(tmp_path: Path, args: list[str]) -> None:
    result = run(
        tmp_path,
        ["play", "--human", "0", "--seed", "6", "--max-deals", "1", "--no-save", *args],
        ["pass", "auto deal"],
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    head = next(line for line in out.splitlines() if line.startswith("after deal"))
    if "--players" in args:
        # Five seats, numbered; no pairs, so no teams line.
        assert head.split()[2:5] == ["seat", "0", "(you)"]
        assert head.endswith("seat 4")
        assert len(final_rows(out)[0]) == 5
        assert "teams:" not in out
    else:
        row = final_rows(out)[0]
        assert f"teams: South (you)+North {row[0] + row[2]}, East+West {row[1] + row[3]}" in out
