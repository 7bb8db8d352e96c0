"""``gongzhu review FILE``: where a seat lost points in a record, deal by deal."""

from __future__ import annotations

from pathlib import Path

import pytest

from gongzhu import RuleSet, deal
from gongzhu.cli import main
from gongzhu.record import dumps
from sample_rounds import exposed_pig_deal


def _bad_deal() -> str:
    """A record of one deal where seat 0 always plays its highest legal card."""
    rnd = deal(rules=RuleSet.preset("online"), seed=11).pass_exposure()
    while not rnd.is_over:
        legal = rnd.legal_plays.cards
        rnd = rnd.play(legal[-1] if rnd.to_act == 0 else legal[0])
    return dumps(rnd, names=["Ann", "Bob", "Cid", "Dee"])


def test_review_prints_the_costly_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    path.write_text(_bad_deal(), encoding="utf-8")
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("Deal 1, Ann: ")
    assert any(line.strip().startswith("trick ") and "was better" in line for line in lines[1:])


def test_review_refuses_a_seat_or_deal_the_record_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deal.json"
    path.write_text(_bad_deal(), encoding="utf-8")
    assert main(["review", str(path), "--seat", "4"]) == 2
    assert main(["review", str(path), "--deal", "2"]) == 2
    assert "gongzhu review" in capsys.readouterr().err


def test_review_prints_a_costly_exposure_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seat 0 exposes the pig with no other spade and nothing high: the computer declines.
    path = tmp_path / "deal.json"
    path.write_text(dumps(exposed_pig_deal(), names=["Ann", "Bob", "Cid", "Dee"]), encoding="utf-8")
    assert main(["review", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].strip().startswith("exposure: exposing Q♠ cost about ")
    assert lines[1].strip().endswith(" points; declining was better")
    assert all(line.strip().startswith("trick ") for line in lines[2:])
