"""The compiled and the pure-Python build play alike (issue #10).

Thousands of seeded random deals under random rule sets go through the
compiled build (this process) and through a pure-Python copy of the same
installed sources (a subprocess with ``PYTHONPATH`` on the copy, see
:func:`gongzhu.build._pure_copy`); their histories, the legal set at every
play, every refusal reason, some views and the scores must be identical.
Where no compiled build is importable (a run from ``src/``, or the pure
install) there is nothing to compare, and the test is skipped; ``.ci/run``
runs it against the compiled install.
"""

from __future__ import annotations

import enum
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import gongzhu
from differential_driver import Case, report, trace
from gongzhu import PRESETS, CardSet, RuleSet, RuleSetError
from gongzhu.build import _pure_copy

needs_compiled = pytest.mark.skipif(
    not gongzhu.compiled,
    reason="no compiled build importable (gongzhu.compiled is False): nothing to compare",
)

RULE_SETS = 250
DEALS_PER_RULE_SET = 16  # "steps" cases: 4,000 deals played card by card
ROLLOUTS_PER_RULE_SET = 8  # "rollout" cases: 2,000 x 2 rollouts
DRIVER = Path(__file__).resolve().parents[1] / "differential_driver.py"
# Values no preset uses but the rules allow (RULES.md §7), for options that exist.
EXTRA_VALUES: dict[str, list[Any]] = {"players": [3, 5], "queen_of_diamonds_bonus": [0, 10]}


def _candidates() -> dict[str, list[Any]]:
    """Per option, the values worth drawing: the default's, every preset's, and for
    enums and flags every value (taken from the rule sets themselves, so that new
    options are drawn without an edit here)."""
    sources = [RuleSet(), *PRESETS.values()]
    out: dict[str, list[Any]] = {}
    for name in RuleSet().to_dict():
        values: list[Any] = list(EXTRA_VALUES.get(name, []))
        for rules in sources:
            value = getattr(rules, name)
            if isinstance(value, enum.Enum):
                values += list(type(value))
            elif isinstance(value, bool):
                values += [False, True]
            values.append(value)
        unique: dict[str, Any] = {}
        for value in values:
            unique.setdefault(repr(value), value)
        out[name] = list(unique.values())
    return out


def random_rules(rng: random.Random, candidates: dict[str, list[Any]]) -> RuleSet:
    """A valid rule set: a preset or the defaults, with random options changed."""
    base = rng.choice([RuleSet(), *PRESETS.values()])
    changes: dict[str, Any] = {}
    for name, values in candidates.items():
        if rng.random() < 0.35:
            value = rng.choice(values)
            if isinstance(value, CardSet) and value:
                value = CardSet(c for c in value if rng.random() < 0.75)
            changes[name] = value
    for _ in range(50):
        try:
            return base.replace(**changes)
        except RuleSetError as exc:
            # Undo one of the changes the refusal names (or any, if it names none).
            named = [n for n in exc.options if n in changes] or sorted(changes)
            del changes[rng.choice(named)]
    return base


def make_cases(seed: int) -> list[Case]:
    rng = random.Random(seed)
    candidates = _candidates()
    cases: list[Case] = []
    for _ in range(RULE_SETS):
        rules = random_rules(rng, candidates).to_dict()
        for _ in range(DEALS_PER_RULE_SET):
            cases.append({"rules": rules, "seed": rng.randrange(2**40), "kind": "steps"})
        for _ in range(ROLLOUTS_PER_RULE_SET):
            cases.append({"rules": rules, "seed": rng.randrange(2**40), "kind": "rollout"})
    return cases


def _start_pure(tmp_path: Path, cases: list[Case], full: bool) -> subprocess.Popen[str]:
    """The pure build's report, computed in a subprocess (it runs while this one works)."""
    path = _pure_copy(str(tmp_path / "pure"))
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"cases": cases, "full": full}), encoding="utf-8")
    return subprocess.Popen(
        [sys.executable, str(DRIVER), str(request)],
        env={**os.environ, "PYTHONPATH": path},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )


def _finish(child: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = child.communicate(timeout=600)
    assert child.returncode == 0, err
    reply: dict[str, Any] = json.loads(out)
    return reply


def test_the_rule_sets_vary() -> None:
    cases = make_cases(2026)
    distinct = {json.dumps(c["rules"], sort_keys=True) for c in cases}
    assert len(distinct) > RULE_SETS * 0.9
    assert len({c["rules"]["players"] for c in cases}) > 1


def test_the_cases_play_whole_deals_and_reach_the_refusals() -> None:
    # The comparison is only as good as the traces: they must finish their deals and
    # go through exposures, claims and many kinds of refusal.
    cases = [c for c in make_cases(2026) if c["kind"] == "steps"][::10]
    traces = [trace(c) for c in cases]
    assert all(t[-1].startswith("raised") is False for t in traces)
    complete = sum("complete True phase COMPLETE" in t for t in traces)
    assert complete == len(traces)
    lines = [line for t in traces for line in t]
    reasons = {line.split(": ")[1].split()[0] for line in lines if line.startswith("refused")}
    assert len(reasons) >= 6, reasons
    assert any(line.startswith("claim") for line in lines)
    assert sum(line.startswith("expose") and "[]" not in line for line in lines) > 50


@needs_compiled
def test_compiled_and_pure_builds_play_every_deal_alike(tmp_path: Path) -> None:
    cases = make_cases(2026)
    child = _start_pure(tmp_path, cases, full=False)
    mine = report(cases, full=False)
    theirs = _finish(child)
    assert mine["compiled"] is True
    assert theirs["compiled"] is False, theirs["file"]
    assert theirs["file"].startswith(str(tmp_path))
    assert len(mine["reports"]) == len(theirs["reports"]) == len(cases)
    pairs = zip(mine["reports"], theirs["reports"], strict=True)
    differ = [i for i, (a, b) in enumerate(pairs) if a != b]
    if differ:
        first = cases[differ[0]]
        a = report([first], full=True)["reports"][0]
        again = tmp_path / "again"
        again.mkdir()
        b = _finish(_start_pure(again, [first], full=True))["reports"][0]
        line = next(
            (k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
        )
        pytest.fail(
            f"{len(differ)} of {len(cases)} cases differ; first: {json.dumps(first)}\n"
            f"line {line}:\n compiled: {a[line : line + 1]}\n pure:     {b[line : line + 1]}"
        )
