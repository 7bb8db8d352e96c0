"""``python -m gongzhu.ai.train`` end to end on a tiny budget: data, training, checkpoint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gongzhu.ai.evaluation import load_evaluation

np = pytest.importorskip("numpy")

from gongzhu.ai.train import TrainError, generate, main  # noqa: E402
from gongzhu.rules import RuleSet  # noqa: E402

TINY = ["--deals", "12", "--hidden", "4", "--seed", "3"]


def test_training_runs_end_to_end_and_writes_loadable_weights(tmp_path: Path) -> None:
    out = tmp_path / "w.json"
    assert main([*TINY, "--epochs", "2", "--out", str(out)]) == 0
    net = load_evaluation(out)
    assert net.hidden == 4
    meta = json.loads(out.read_text())["meta"]
    assert meta["deals"] == 12
    assert meta["held_out_rmse"] > 0


def test_a_resumed_run_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    straight, resumed = tmp_path / "a.json", tmp_path / "b.json"
    main([*TINY, "--epochs", "3", "--work", str(tmp_path / "w1"), "--out", str(straight)])
    main([*TINY, "--epochs", "1", "--work", str(tmp_path / "w2"), "--out", str(resumed)])
    assert (tmp_path / "w2" / "checkpoint-4-3.npz").exists()
    main([*TINY, "--epochs", "3", "--work", str(tmp_path / "w2"), "--out", str(resumed)])
    assert straight.read_text() == resumed.read_text()


def test_the_data_are_each_seats_score_change_from_every_trick_boundary_to_the_end() -> None:
    from gongzhu import Round, RuleOfThumbStrategy, deal

    rules = RuleSet.preset("flat-pig")
    xs, ys, ds = generate(rules, 2, seed=0, epsilon=0.0)
    assert len(xs) == len(ys) == len(ds) == 2 * 13 * 4
    assert all(len(x) == 53 for x in xs)
    for d in (0, 1):
        targets = [round(100 * y) for y, k in zip(ys, ds, strict=True) if k == d]
        rnd = Round.from_hands(deal(rules=rules, seed=f"gongzhu-train:0:{d}").dealt, rules=rules)
        final = rnd.rollout(RuleOfThumbStrategy()).score().totals
        # Nothing is captured before the first trick: the whole final score is still to come.
        assert tuple(targets[:4]) == final
        # Before the last trick only that trick's cards (and the doubling) are still to come.
        assert targets[:4] != targets[-4:]


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    with pytest.raises(TrainError, match="need --deals >= 2"):
        main(["--deals", "1", "--out", str(tmp_path / "w.json")])
