"""``gongzhu play --human SEAT`` driven end to end through a pipe, one answer a line.

The answers are worked out in this process: the same seeded match is played
here with the person's policy (decline every exposure, play the lowest legal
card) and the library's bots at the other seats, and the command must end
with the same running totals. The library is the oracle only for the bots'
moves and the scores; the command's own driving (exposure for every seat,
seats, prompts, refusals) is what is tested.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import gongzhu
from gongzhu import Match, RuleOfThumbStrategy, RuleSet, deal
from gongzhu.ai.strategies import play_match
from gongzhu.dealing import match_deal_seed as _deal_seed
from gongzhu.phase import Phase
from gongzhu.rules import ExposureOrder

# The build under test (src here; the installed, maybe compiled, package in CI) for subprocesses.
SRC = str(Path(gongzhu.__file__).resolve().parents[1])
# The match is saved after every move: into a scratch folder, not the user's data folder.
os.environ["GONGZHU_DATA_DIR"] = tempfile.mkdtemp(prefix="gongzhu-test-saves-")


def run(
    args: list[str], answers: list[str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("LANGUAGE", None)
    env["LANG"] = "C.UTF-8"
    return subprocess.run(
        # The oracle plays the rule-of-thumb bot: the "easy" level.
        [sys.executable, "-m", "gongzhu", "play", *args, "--level", "easy"],
        input="".join(line + "\n" for line in answers),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=env,
    )


def lowest_card_match(rules: RuleSet, seed: int, human: int) -> tuple[Match, list[str]]:
    """The match when ``human`` passes every exposure and plays its lowest legal card.

    Returns the match and the answers the person types, in order.
    """
    bot = RuleOfThumbStrategy()
    n = rules.players
    match = Match(rules)
    answers: list[str] = []
    number = 0
    while not match.is_over:
        number += 1
        rnd = deal(
            rules=rules,
            seed=_deal_seed(seed, number),
            leader=match.next_leader,
            dealer=match.dealer,
        )
        if rnd.phase is Phase.EXPOSURE:
            order = [(rnd.leader + k) % n for k in range(n)]
            sealed = rules.exposure_order is ExposureOrder.SIMULTANEOUS
            first = {s: bot.choose_exposure(rnd.view(s)) for s in order}
            for s in order:
                if s == human:
                    view = rnd.view(s)
                    if (view.hand & rules.exposable) - view.exposed:
                        answers.append("pass")
                    rnd = rnd.expose((), seat=s)
                else:
                    cards = first[s] if sealed else bot.choose_exposure(rnd.view(s))
                    rnd = rnd.expose(cards, seat=s)
        while not rnd.is_over:
            s = rnd.to_act
            assert s is not None
            view = rnd.view(s)
            if s == human:
                card = view.legal_plays.cards[0]
                answers.append(card.code)
            else:
                card = bot.choose_play(view, view.legal_plays)
            rnd = rnd.play(card, seat=s)
        match = match.add(rnd)
    return match, answers


def final_rows(stdout: str, deals: int) -> list[list[int]]:
    """The running totals of the last table printed (``   k  a b c d`` rows)."""
    rows: dict[int, list[int]] = {}
    for line in stdout.splitlines():
        m = re.fullmatch(r"\s*(\d+)((?:\s+-?\d+)+)", line)
        if m and 1 <= int(m.group(1)) <= deals:
            rows[int(m.group(1))] = [int(x) for x in m.group(2).split()]
    return [rows[k] for k in sorted(rows)]


@pytest.mark.parametrize(("preset", "human", "seed"), [("online-quick", 0, 11), ("classic", 2, 4)])
def test_a_whole_match_through_a_pipe_ends_with_the_oracles_totals(
    preset: str, human: int, seed: int
) -> None:
    rules = RuleSet.preset(preset)
    match, answers = lowest_card_match(rules, seed, human)
    # First a card the person does not hold, a hint and a word that is no card: each is
    # answered and the question asked again.
    hand = deal(rules=rules, seed=_deal_seed(seed, 1)).hands[human]
    missing = next(c for c in rules.deck if c not in hand)
    first_card = next(i for i, a in enumerate(answers) if a != "pass")
    answers[first_card:first_card] = [missing.code, "hint", "xyzzy"]
    result = run(["--human", str(human), "--rules", preset, "--seed", str(seed)], answers)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    # One line: the refusal, its reason, and the cards that may be played instead.
    refusals = [line for line in out.splitlines() if f"you may not play {missing}" in line]
    assert len(refusals) == 1
    assert refusals[0].startswith(f"  you may not play {missing}: card not in hand (you may play ")
    # The hint: the search bot's analysis once the library has one, else the rule of thumb.
    assert "Your card > hint\n  hint" in out
    assert "'xyzzy' is not a card" in out
    assert final_rows(out, match.deal_count) == [list(row) for row in match.history]
    assert out.count("Standings:") == match.deal_count  # after every deal
    assert "Over after" in out
    # Seats by direction: the person sits South; classic plays counter-clockwise, online clockwise.
    order = (
        "South (you) → East → North → West"
        if preset == "classic"
        else ("South (you) → West → North → East")
    )
    assert order in out


def test_auto_at_every_question_plays_the_rule_of_thumb_match() -> None:
    # "auto" lets the rule-of-thumb bot answer for the person: the match is play_match's.
    rules = RuleSet.preset("online-quick")
    match, _ = play_match([RuleOfThumbStrategy()] * 4, rules=rules, seed=8)
    result = run(["--human", "1", "--rules", "online-quick", "--seed", "8"], ["auto"] * 600)
    assert result.returncode == 0, result.stderr
    assert final_rows(result.stdout, match.deal_count) == [list(r) for r in match.history]


def test_a_whole_match_in_chinese() -> None:
    rules = RuleSet.preset("online-quick")
    match, answers = lowest_card_match(rules, 11, 0)
    result = run(
        ["--human", "0", "--rules", "online-quick", "--seed", "11", "--lang", "zh"], answers
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for part in (
        "拱猪：你坐南家；",
        "你的手牌",
        "第1局结束。计分表：",
        "⑥ 本局",
        "排名：",
        "局后结束",
    ):
        assert part in out, part
    assert final_rows(out, match.deal_count) == [list(row) for row in match.history]


def test_the_exposure_question_shows_the_preview_and_explains_a_refusal() -> None:
    # Find a seeded first deal where seat 0 holds the pig.
    rules = RuleSet()
    seed = next(
        s for s in range(200) if "QS" in deal(rules=rules, seed=_deal_seed(s, 1)).hands[0].code
    )
    result = run(["--human", "0", "--seed", str(seed), "--max-deals", "1"], ["2C 3C", "QS", "quit"])
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Q♠ (the pig): Pig −100 → −200" in out
    # 2♣ is never exposable (seeds/000 §06); the refusal names the reason.
    assert "you may not expose 2♣:" in out or "may not be exposed" in out
    assert re.search(r"Exposed: .*Q♠ by South \(you\)", out)
    assert "You left the match after 0 complete deals." in out


def test_quit_and_end_of_input_stop_cleanly() -> None:
    quit_ = run(["--human", "3", "--seed", "1"], ["quit"])
    assert quit_.returncode == 0
    assert quit_.stderr == ""
    assert "You left the match" in quit_.stdout
    ended = run(["--human", "3", "--seed", "1"], [])
    assert ended.returncode == 0
    assert ended.stderr == ""
    assert "Input ended" in ended.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--human", "4"], "--human must be a seat 0-3"),
        (["--human", "0", "--deals", "3"], "--deals"),
        (["--human", "0", "--bots", "genius"], "unknown bot"),
        (["--human", "0", "--rule", "players=6"], "players"),
    ],
)
def test_bad_human_options_are_one_line(args: list[str], fragment: str) -> None:
    result = run(args, [])
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert fragment in result.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_at_the_prompt_exits_130_with_one_line() -> None:
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(
        [sys.executable, "-m", "gongzhu", "play", "--human", "0", "--seed", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    seen = ""
    while "> " not in seen and time.monotonic() < deadline:
        seen += proc.stdout.read(1)
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert err.strip().splitlines() == ["gongzhu play: interrupted"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_at_a_terminal_it_reads_what_is_typed_and_colours_red_suits() -> None:
    import pty

    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NO_COLOR", None)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, on the pseudo-terminal
        os.execve(
            sys.executable,
            [sys.executable, "-m", "gongzhu", "play", "--human", "0", "--seed", "3"],
            env,
        )
    out = b""
    deadline = time.monotonic() + 60
    try:
        while b"> " not in out and time.monotonic() < deadline:
            out += os.read(fd, 4096)
        os.write(fd, b"quit\n")
        while time.monotonic() < deadline:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child has gone: the terminal is closed
                break
            if not chunk:
                break
            out += chunk
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    text = out.decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 0
    assert "You left the match after 0 complete deals." in text
    assert "\x1b[31m" in text  # hearts and diamonds in red
    assert "quit" in text  # typed, echoed by the terminal itself


def test_a_face_down_declaration_under_catch_the_pig() -> None:
    # seeds/004 "Chyťte prase": face down ×2, face up ×4; the preview shows both.
    rules = RuleSet.preset("catch-the-pig")
    seed = next(
        s for s in range(500) if "QS" in deal(rules=rules, seed=_deal_seed(s, 1)).hands[0].code
    )
    result = run(
        ["--human", "0", "--rules", "catch-the-pig", "--seed", str(seed)], ["down QS", "quit"]
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Q♠ (the pig): Pig −100 → −400; face down: Pig −100 → −200" in out
    assert "Exposed: 1 face down by South (you)" in out
    assert "Q!" in out  # marked in the person's own hand
