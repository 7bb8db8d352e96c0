"""tools/train_playout.py: the greedy bot's decisions as samples, a deterministic fit that
learns them, and a weights module the playout accepts."""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType

import pytest

from gongzhu._core import playout
from repo_scripts import ROOT, load_script

np = pytest.importorskip("numpy")


def _tool() -> ModuleType:
    return load_script("tools/train_playout.py", "train_playout")


def test_the_fit_learns_the_greedy_bots_choices_and_writes_weights_the_playout_takes(
    tmp_path: Path,
) -> None:
    tool = _tool()
    samples = tool.self_play(0, 3, 0)
    n = len(samples.starts)
    assert n > 60  # three deals, four seats, most decisions with a choice
    assert samples.x.shape[1] == playout.NFEATURES
    # Each decision's chosen row and rule-of-thumb row lie inside its own candidates.
    ends = np.append(samples.starts[1:], len(samples.x))
    assert np.all((samples.starts <= samples.chosen) & (samples.chosen < ends))
    assert np.all((samples.starts <= samples.thumb) & (samples.thumb < ends))
    w = tool.fit(samples)
    assert np.array_equal(w, tool.fit(samples))  # the same samples, the same weights
    mine, thumb = tool.agreement(samples, w)
    # Fitted to these very decisions, it agrees with them more than the rule of thumb does.
    assert mine > thumb
    assert mine > 1.0 / 2
    # Zero weights pick each decision's first card: the fit beat that too.
    first, _ = tool.agreement(samples, np.zeros(playout.NFEATURES))
    assert mine > first
    out = tmp_path / "weights.py"
    out.write_text(tool.render(w, "python tools/train_playout.py --deals 3"), encoding="utf-8")
    written = load_script(out, "written_weights")  # an absolute path
    assert playout._checked(written.WEIGHTS) == pytest.approx(list(np.round(w, 6)))
    assert all(math.isfinite(x) for x in written.WEIGHTS)
    assert "python tools/train_playout.py --deals 3" in (written.__doc__ or "")


def test_the_peers_recorded_games_give_its_decisions_in_order() -> None:
    """The committed harness run (``hard`` against MrGreed, tuning half) replays: each
    deal's two games give the peer's decisions with a choice, and the card it played is
    one of each decision's candidates."""
    tool = _tool()
    entries = tool.runs([ROOT / "tools" / "data" / "hard-mrgreed-0-511.json.gz"])
    assert [e["deal"] for e in entries] == list(range(512))  # the tuning half, whole
    samples = tool.recorded(entries[:2], (1, 3))
    # Two deals, two games each, two peer seats of 13 cards: at most 104 decisions, and
    # most have a choice.
    assert 50 < len(samples.starts) <= 104
    ends = np.append(samples.starts[1:], len(samples.x))
    assert np.all((samples.starts <= samples.chosen) & (samples.chosen < ends))
    # Our seats' decisions are others: asking for them gives as many, not the same ones.
    ours = tool.recorded(entries[:2], (0, 2))
    assert not np.array_equal(ours.x, samples.x)


def test_the_shipped_weights_model_the_peer_better_than_the_rule_of_thumb() -> None:
    """What the shipped weights were fitted to (the peer's play): on the held-out deals of
    the committed run they pick the peer's card more often than the rule of thumb."""
    tool = _tool()
    entries = tool.runs([ROOT / "tools" / "data" / "hard-mrgreed-0-511.json.gz"])
    held = tool.recorded(entries[-8:], (1, 3))
    mine, thumb = tool.agreement(held, np.array(playout._W))
    assert mine > thumb + 0.05
