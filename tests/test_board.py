"""The public mutable board (issue #18 item 4): it agrees with the Round at every step."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import Board, IllegalActionError, Phase, Reason, Round, RuleSet, deal
from gongzhu.testing import rounds_in_progress


def _settled(rnd: Round) -> Round:
    """``rnd`` with exposure over and no claim pending (where a board can start)."""
    rnd = rnd.pass_exposure()
    while rnd.phase is Phase.CLAIM:
        rnd = rnd.respond(False)
    return rnd


@settings(max_examples=60)
@given(rounds_in_progress(), st.data())
def test_push_pop_and_copy_agree_with_the_round(rnd: Round, data: st.DataObject) -> None:
    rnd = _settled(rnd)
    board = Board(rnd)
    assert board.to_round() == rnd
    line = [rnd]
    while not line[-1].is_over and data.draw(st.booleans(), "go on"):
        here = line[-1]
        ids = board.legal_actions()
        assert ids == [i for i in here.legal_actions() if i < 52]
        assert board.to_act == here.to_act
        pick = data.draw(st.sampled_from(ids), "play")
        board.push(pick)
        line.append(here.apply(pick))
        assert board.to_round() == line[-1]
    branch = board.copy()
    if not board.is_over:
        branch.push(branch.legal_actions()[0])
        assert board.to_round() == line[-1]  # the copy is independent
    while len(line) > 1:
        line.pop()
        board.pop()
        assert board.to_round() == line[-1]
    with pytest.raises(IllegalActionError):
        board.pop()


@settings(max_examples=40)
@given(rounds_in_progress(), st.integers(0, 2**32))
def test_a_rollout_is_the_rounds_rollout(rnd: Round, seed: int) -> None:
    rnd = _settled(rnd)
    board = Board(rnd)
    end = rnd.rollout(seed=seed)
    assert board.copy().rollout(seed=seed) == end.score().totals
    assert board.rollout(seed=seed) == board.totals()
    assert board.is_over
    assert board.to_act is None
    assert board.legal_actions() == []
    assert board.to_round() == end


def test_refusals_are_typed() -> None:
    start = deal(seed=2)
    with pytest.raises(IllegalActionError) as err:
        Board(start)  # exposure still open
    assert err.value.reason is Reason.EXPOSURE_PENDING
    with pytest.raises(IllegalActionError):
        Board("not a round")  # type: ignore[arg-type]
    board = Board(start.pass_exposure())
    illegal = next(i for i in range(52) if i not in board.legal_actions())
    for bad in (illegal, -1, 52, True, 1.0, None):
        with pytest.raises(IllegalActionError):
            board.push(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError) as err:
        board.totals()
    assert err.value.reason is Reason.WRONG_PHASE
    with pytest.raises(IllegalActionError):
        board.rollout(seed="1")  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        board._b = None  # type: ignore[misc]
    claimed = deal(RuleSet(claims=True), seed=1).pass_exposure().claim()
    with pytest.raises(IllegalActionError) as err:
        Board(claimed)
    assert err.value.reason is Reason.WRONG_PHASE
