"""Long runs show progress at once: ``gongzhu play --deals N`` on a terminal."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import gongzhu
from gongzhu import RuleSet
from gongzhu.cli import main
from gongzhu.cli._progress import Progress
from gongzhu.i18n import Translator
from gongzhu.parallel import BotTable, simulate

# The build under test (src here; the installed, maybe compiled, package in CI) for subprocesses.
SRC = str(Path(gongzhu.__file__).resolve().parents[1])


def test_the_progress_line_is_drawn_at_once_and_redrawn_while_work_goes_on() -> None:
    stream = io.StringIO()
    with Progress(Translator(), 400, stream=stream, show=True) as progress:
        assert "0/400 deals" in stream.getvalue()  # before any work is done
        progress.update(100)
        time.sleep(1.2)  # the timer redraws twice a second
        assert "\r  100/400 deals" in stream.getvalue()
        progress.update(400)
    assert stream.getvalue().endswith("\n")
    assert "400/400 deals" in stream.getvalue()


def test_no_progress_when_stderr_is_not_a_terminal() -> None:
    stream = io.StringIO()
    with Progress(Translator(), 10, stream=stream) as progress:
        progress.update(10)
    assert stream.getvalue() == ""


def test_playing_deals_in_small_chunks_gives_simulates_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The command plays the deals itself in chunks of 100 so the line moves; the tasks,
    # their seeds and their order are simulate()'s, so the statistics are identical.
    assert main(["play", "--deals", "250", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    expected = simulate(
        250, rules=RuleSet(), strategies=BotTable(("rule-of-thumb",) * 4), seed=2
    ).summary()
    assert out == "bots: 4 × rule-of-thumb\n" + expected + "\n"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_a_long_run_on_a_terminal_shows_progress_long_before_it_ends() -> None:
    import pty

    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gongzhu", "play", "--deals", "5000", "--seed", "1"],
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    try:
        first = os.read(master, 1000).decode("utf-8", "replace")
        seen = time.monotonic() - start
        assert "/5000 deals" in first
        assert proc.poll() is None  # progress came while the deals were still being played
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
    assert seen < 30


def _wait_until_busy(pid: int, cpu_seconds: float = 1.0) -> None:
    """Wait until the process has spent ``cpu_seconds`` of CPU (its imports take a fraction
    of that): a fixed sleep is not enough on a loaded machine, where a SIGINT that comes
    before Python's handler is installed kills the process outright (exit -2)."""
    stat = f"/proc/{pid}/stat"
    if not os.path.exists(stat):
        time.sleep(2.0)
        return
    ticks = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with open(stat) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / ticks >= cpu_seconds:
            return
        time.sleep(0.1)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_a_long_run_exits_130_with_one_line() -> None:
    import signal

    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(
        [sys.executable, "-m", "gongzhu", "play", "--deals", "1000000", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    _wait_until_busy(proc.pid)  # well into the deals, however busy the machine
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert time.monotonic() - start < 10
    assert err.splitlines() == ["gongzhu play: interrupted"]
    assert out == ""
