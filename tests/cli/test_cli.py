"""The ``gongzhu`` command, run as a real console script (and in-process where output is long).

Every error must be one line on stderr with a non-zero exit status and no traceback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gongzhu import PRESETS, __version__
from gongzhu.build import LABEL
from gongzhu.cli import main


def _command() -> list[str]:
    script = Path(sys.executable).with_name("gongzhu")
    if script.exists():
        return [str(script)]
    found = shutil.which("gongzhu")
    return [found] if found else [sys.executable, "-m", "gongzhu"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*_command(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_version_and_help() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"gongzhu {__version__} ({LABEL})"
    result = run("--help")
    assert result.returncode == 0
    for command in ("score", "rules", "play", "replay", "demo"):
        assert command in result.stdout


@pytest.mark.parametrize("command", ["score", "rules", "play", "replay", "demo"])
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: gongzhu {command}")


def test_python_dash_m_runs_the_same_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gongzhu", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout.strip() == f"gongzhu {__version__} ({LABEL})"


def test_importing_the_cli_loads_no_engine_extras() -> None:
    # `gongzhu --help` stays quick: the simulation module and its process pool load on demand.
    code = (
        "import sys, gongzhu.cli; "
        "print(sorted(m for m in ('gongzhu.parallel', 'concurrent.futures', 'multiprocessing')"
        " if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_score_prints_the_sheets_of_seeds_000_07() -> None:
    # seeds/000 §07: 10♣, Q♠ and 7♥ with 10♣ and Q♠ exposed: 4 × (−200 − 10) = −840.
    result = run("score", "QS TC 7H", "AC JD", "--exposed", "QS TC")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "totals: -840 100"
    assert "  ⑤ transformer      ×4" in lines
    # A header and seven lines per seat (seeds/001's sheet), plus the rules and totals lines,
    # and a note per doubled card explaining the swing.
    notes = [line for line in lines if line.startswith("  * ")]
    assert notes == [
        "  * seat 0 took the exposed 10♣ (the transformer): its effect ×2",
        "  * seat 0 took the exposed Q♠ (the pig): its effect ×2",
        "  * seat 0 took the transformer with points: the deal ×4",
    ]
    assert len(lines) == 2 + 2 * 8 + len(notes)
    assert result.stderr == ""


def test_score_json_has_every_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_main(capsys, "score", "QS TC 7H", "-", "JD", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["totals"] == [-220, 0, 100]
    assert data["pig_taker"] == 0
    seat0 = data["seats"][0]
    assert list(seat0["lines"]) == [
        "① hearts",
        "② pig",
        "③ sheep",
        "④ base",
        "⑤ transformer",
        "⑥ deal",
        "⑦ total",
    ]
    assert seat0["lines"]["⑥ deal"] == "-220"
    assert seat0["multiplier"] == 2
    assert seat0["cards"] == ["TC", "7H", "QS"]
    assert data["seats"][1]["cards"] == []


def test_score_uses_the_chosen_preset(capsys: pytest.CaptureFixture[str]) -> None:
    # README / seeds/000 §04 vs seeds/001: a zero heart cancels the lone 10♣ only in classic.
    assert run_main(capsys, "score", "TC 3H")[1].splitlines()[-1] == "totals: 0"
    assert run_main(capsys, "score", "TC 3H", "--rules", "online")[1].splitlines()[-1] == (
        "totals: 50"
    )


def test_rules_lists_describes_and_diffs(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_main(capsys, "rules")
    assert status == 0
    listed = [line.split()[0] for line in out.splitlines()]
    assert listed == list(PRESETS)
    # seeds/004's base rules are classic's: the other name is listed with it, and works.
    assert "(also: czech)" in out.splitlines()[0]
    assert run_main(capsys, "rules", "czech")[0] == 0
    assert run_main(capsys, "rules", "--list")[1] == out
    status, out, _ = run_main(capsys, "rules", "online")
    assert out.splitlines()[0] == "Rule set online"
    status, out, _ = run_main(capsys, "rules", "online", "--diff", "classic")
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[1:]}
    assert set(rows) == set(PRESETS["online"].diff(PRESETS["classic"]))
    assert rows["direction"] == ["clockwise", "counter-clockwise"]
    status, out, _ = run_main(capsys, "rules", "classic", "--diff", "classic")
    assert "the same rules" in out


def test_the_preset_list_shows_each_presets_public_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gongzhu.rules import PRESET_INFO

    status, out, _ = run_main(capsys, "rules", "--list")
    assert status == 0
    assert [line.split()[0] for line in out.splitlines()] == list(PRESETS)
    for line, info in zip(out.splitlines(), PRESET_INFO.values(), strict=True):
        assert line.endswith(info.summary)


def test_play_a_seeded_match_is_reproducible() -> None:
    first = run("play", "--seed", "4", "--rules", "online-quick")
    again = run("play", "--seed", "4", "--rules", "online-quick")
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout
    assert "== Deal 1" in first.stdout
    assert "Standings:" in first.stdout
    assert "Over after" in first.stdout


def test_play_quiet_five_players_and_names(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_main(
        capsys, "play", "--seed", "2", "--players", "5", "--quiet", "--names", "A,B,C,D,E"
    )
    assert status == 0
    assert "== Deal" not in out
    assert out.splitlines()[0].split() == ["after", "deal", "A", "B", "C", "D", "E"]
    assert out.splitlines()[-6] == "Standings:"


def _cpus() -> int:
    """The CPUs this process may run on (as the library counts them for ``workers``)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def test_play_deals_is_the_same_for_any_worker_count() -> None:
    one = run("play", "--deals", "16", "--seed", "3", "--bots", "rule-of-thumb,random")
    assert one.returncode != 0  # two names for four seats
    one = run("play", "--deals", "16", "--seed", "3", "--workers", "1")
    two = run("play", "--deals", "16", "--seed", "3", "--workers", "2")
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout
    assert "16 deals" in one.stdout
    # Progress goes to a terminal only; here stderr is a pipe. On a machine (or a CPU quota,
    # or taskset) with one CPU, two workers are capped at one, and the command says so.
    assert one.stderr == ""
    if _cpus() >= 2:
        assert two.stderr == ""
    else:
        assert two.stderr == (
            "gongzhu play: warning: simulate: workers=2 capped at the 1 CPU(s) available\n"
        )


def test_record_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("gongzhu.record", reason="gongzhu.record is not written yet")
    path = tmp_path / "match.json"
    status, played, _ = run_main(
        capsys, "play", "--seed", "6", "--rules", "online-quick", "--record", str(path), "--quiet"
    )
    assert status == 0
    assert path.exists()
    result = run("replay", str(path), "--quiet")
    assert result.returncode == 0, result.stderr
    # The replayed match ends with the same table as the one played.
    assert played.startswith(result.stdout)
    verbose = run("replay", str(path))
    assert "== Deal 1" in verbose.stdout
    # The tricks are listed, the seats by compass name.
    assert re.search(r"\n   1 (South|East|North|West) ", verbose.stdout)


def test_demo_shows_tricks_sheets_and_standings() -> None:
    result = run("demo")
    assert result.returncode == 0, result.stderr
    for part in ("The tricks", "① hearts", "Exposed before the first trick", "Standings:"):
        assert part in result.stdout
    # The end of the match says plainly who won and who lost it, first and last standing.
    lines = result.stdout.splitlines()
    over = next(line for line in lines if line.startswith("Over after "))
    standings = lines[lines.index("Standings:") + 1 :][:4]
    first, last = standings[0].split()[1], standings[-1].split()[1]
    assert over.endswith(f"): {first} won the match; {last} lost it."), over


def _bad_record(tmp_path: Path) -> Path:
    record = pytest.importorskip("gongzhu.record", reason="gongzhu.record is not written yet")
    from gongzhu.bots import RuleOfThumbStrategy, play_deal

    data = json.loads(record.dumps(play_deal([RuleOfThumbStrategy()] * 4, seed=1)))
    actions = data["deals"][0]["actions"]
    actions[1] = actions[0]  # the second seat plays the first seat's card
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["score", "QS 1X"], "1X"),
        (["score", "QS", "--rules", "nope"], "unknown preset 'nope'"),
        (["score", "QS TC", "QS"], "Q♠"),
        (["score", "QS", "--exposed", "2C"], "cannot be exposed"),
        (["score"], "required"),
        (["rules", "nope"], "unknown preset"),
        (["rules", "classic", "--diff", "nope"], "unknown preset"),
        (["play", "--players", "6"], "invalid choice"),
        (["play", "--players", "5", "--rules", "online"], "5-player deck"),
        (["play", "--bots", "genius"], "unknown bot"),
        (["play", "--deals", "many"], "invalid int"),
        (["play", "--deals", "0"], "at least 1"),
        (["play", "--deals", "2", "--record", "x.json"], "--record"),
        (["replay", "no/such/file.json"], "No such file"),
        (["replay", "BADJSON"], "JSON"),
        (["replay", "TAMPERED"], "deal 1, move 2"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_on_stderr(tmp_path: Path, args: list[str], fragment: str) -> None:
    if "BADJSON" in args:
        pytest.importorskip("gongzhu.record", reason="gongzhu.record is not written yet")
        bad = tmp_path / "bad.json"
        bad.write_text('{"format": "gongzhu", ', encoding="utf-8")
        args = [str(bad) if a == "BADJSON" else a for a in args]
    if "TAMPERED" in args:
        args = [str(_bad_record(tmp_path)) if a == "TAMPERED" else a for a in args]
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert lines[0].startswith("gongzhu")
    assert fragment in lines[0]


def test_rule_options_change_the_preset_with_rulesets_own_messages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # seeds/000 §04 vs seeds/001: a zero heart cancels the lone 10♣ only when zero hearts
    # count as point cards; --rule turns that option off on top of the classic preset.
    assert run_main(capsys, "score", "TC 3H")[1].splitlines()[-1] == "totals: 0"
    status, out, _ = run_main(capsys, "score", "TC 3H", "--rule", "zero_hearts_are_point_cards=no")
    assert status == 0
    assert out.splitlines()[-1] == "totals: 50"
    status, out, _ = run_main(
        capsys,
        "play",
        "--seed",
        "3",
        "--quiet",
        "--rule",
        "loss_threshold=-300",
        "--rule",
        "win-threshold=none",
    )
    assert status == 0
    assert "Over after" in out


@pytest.mark.parametrize(
    ("rule", "fragment"),
    [
        ("nope=1", "unknown option(s): nope"),
        ("sign_swap=maybe", "sign_swap: expected bool, got 'maybe'"),
        ("loss_threshold=500", "loss_threshold: must be negative, got 500"),
        ("players", "--rule needs KEY=VALUE"),
        ("exposable=2C", "only A♥, Q♠, J♦ and 10♣ can be exposed"),
    ],
)
def test_bad_rule_options_are_refused_in_rulesets_words(rule: str, fragment: str) -> None:
    result = run("score", "QS", "--rule", rule)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert fragment in result.stderr


def test_rules_explain_prints_every_option_with_meaning_and_sources() -> None:
    import attrs

    from gongzhu import RuleSet

    result = run("rules", "--explain", "online")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for field in attrs.fields(RuleSet):
        assert f"\n{field.name} = " in out, field.name
    assert "direction = clockwise" in out  # the online preset's value (seeds/001)
    assert out.count("sources: ") == len(attrs.fields(RuleSet))
    assert max(len(line) for line in out.splitlines()) <= 100


def _columns(line: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


@pytest.mark.parametrize("lang", ["en", "zh", "ru", "uk", "cs"])
def test_demo_lines_fit_100_columns(lang: str) -> None:
    result = run("demo", "--lang", lang)
    assert result.returncode == 0, result.stderr
    widest = max(result.stdout.splitlines(), key=_columns)
    assert _columns(widest) <= 100, widest


def test_demo_with_stdout_closed_exits_cleanly() -> None:
    result = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", *_command(), "demo"],
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0
    assert result.stderr == ""


def test_replay_of_an_endless_file_is_one_line_and_fast() -> None:
    import time

    start = time.monotonic()
    result = run("replay", "/dev/zero")
    assert time.monotonic() - start < 30
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr[:500]
    assert "too long" in result.stderr


HOSTILE_NAMES = ["Ann\x1b]0;owned\x07", "Bob\r\n1. Bob 9999", "\u202eCid", "Dee\u200b"]


def test_replay_shows_hostile_names_escaped(tmp_path: Path) -> None:
    from gongzhu import record
    from gongzhu.bots import RuleOfThumbStrategy, play_deal

    # A text seed that clears the screen, and names that retitle the terminal, forge a
    # standings line, reverse the text and hide a zero-width space.
    data = json.loads(record.dumps([play_deal([RuleOfThumbStrategy()] * 4, seed=1)]))
    data["deals"][0]["seed"] = "\x1b[2J"  # dumps refuses to write it (#11 item 10)
    data["players"] = HOSTILE_NAMES
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("replay", str(path))
    text = result.stdout + result.stderr
    # Either the record is refused (names with control characters), or every name is
    # shown escaped: no raw control, bidi or zero-width character reaches the terminal.
    for bad in ("\x1b", "\x07", "\r", "\u202e", "\u200b"):
        assert bad not in text
    if result.returncode == 0:
        assert "Ann\\x1b]0;owned\\x07" in result.stdout
        assert "\\u202eCid" in result.stdout
        assert "seed \\x1b[2J" in result.stdout
        assert not any(line.startswith("1. Bob 9999") for line in result.stdout.splitlines())
    else:
        assert result.returncode == 2
        assert len(result.stderr.splitlines()) == 1


def test_safe_escapes_what_acts_on_a_terminal() -> None:
    from gongzhu.cli._common import safe

    assert safe("Ann") == "Ann"
    assert safe("红桃A 黑桃Q 猪") == "红桃A 黑桃Q 猪"
    for ch in (
        "\x1b",
        "\x00",
        "\x7f",
        "\x9b",
        "\u200b",
        "\u200e",
        "\u202e",
        "\u2066",
        "\u2028",
        "\ufeff",
        "\ud800",
    ):
        out = safe(f"a{ch}b")
        assert out.startswith("a")
        assert out.endswith("b")
        assert ch not in out
        assert out.isprintable()


def test_rules_describes_and_explains_a_preset_with_changes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_main(
        capsys, "rules", "online", "--rule", "max_deals=10", "--diff", "online"
    )
    assert status == 0
    assert out.splitlines()[1].split() == ["max_deals", "10", "30"]  # seeds/001: 30 deals
    status, out, _ = run_main(capsys, "rules", "--explain", "--rule", "sign_swap=yes")
    assert "\nsign_swap = True\n" in out
