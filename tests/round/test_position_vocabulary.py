"""One vocabulary for positions: Round and Board answer the Position protocol alike.

``to_act``, ``is_over``, ``legal_actions()`` and ``totals()`` mean the same thing on a
Round and on a Board in the same position, at every step of a playout; a Board gives a
policy what it needs to decide (the trick in progress, the hands, the cards played), and
``Board.rollout(policy=...)`` takes a callable as well as a name.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import (
    Board,
    CardSet,
    DealNotOverError,
    IllegalActionError,
    Position,
    Round,
    deal,
)
from gongzhu.errors import ActionTypeError
from gongzhu.testing import rounds_in_progress
from sample_rounds import settled


def test_round_and_board_satisfy_the_position_protocol() -> None:
    rnd = deal(seed=4).pass_exposure()
    board = Board(rnd)
    assert isinstance(rnd, Position)
    assert isinstance(board, Position)
    assert not isinstance(object(), Position)
    typed: list[Position] = [rnd, board]  # and statically (mypy)
    assert all(p.to_act == rnd.to_act for p in typed)


def test_the_old_diverging_names_are_gone() -> None:
    board = Board(deal(seed=4).pass_exposure())
    for name in ("legal_mask", "done"):
        assert not hasattr(board, name)
    assert not hasattr(deal(seed=4), "is_complete")


def _same(rnd: Round, board: Board) -> None:
    assert board.to_act == rnd.to_act
    assert board.is_over == rnd.is_over
    assert board.legal_actions() == [i for i in rnd.legal_actions() if i < 52]
    # What a policy reads, under the round's names.
    assert board.rules == rnd.rules
    assert board.leader == rnd.leader
    assert board.current_trick == rnd.current_trick
    assert board.led_suit == rnd.led_suit
    assert board.hands == rnd.hands
    assert board.exposed == rnd.exposed
    played = CardSet([c for t in (*rnd.tricks, rnd.current_trick) for c in t.cards])
    assert board.played == played


@settings(max_examples=40)
@given(rounds_in_progress(), st.integers(0, 2**32))
def test_the_names_mean_the_same_on_a_random_playout(rnd: Round, seed: int) -> None:
    rnd = settled(rnd)
    board = Board(rnd)
    rng = random.Random(seed)
    _same(rnd, board)
    while not rnd.is_over:
        with pytest.raises(DealNotOverError):
            rnd.totals()
        with pytest.raises(DealNotOverError):
            board.totals()
        pick = rng.choice(board.legal_actions())
        board.push(pick)
        rnd = rnd.apply(pick)
        _same(rnd, board)
    assert rnd.legal_actions() == board.legal_actions() == []
    assert rnd.to_act is None
    assert board.to_act is None
    assert board.totals() == rnd.totals() == rnd.score().totals


def test_a_callable_policy_plays_what_it_returns_from_the_board() -> None:
    start = deal(seed=7).pass_exposure()
    seen: list[tuple[int | None, int]] = []

    def lowest(board: Board) -> int:
        seen.append((board.to_act, len(board.current_trick.cards)))
        assert board.to_act is not None
        assert board.hands[board.to_act]  # the seat's own hand
        return board.legal_actions()[0]

    board = Board(start)
    totals = board.rollout(policy=lowest)
    assert len(seen) == 52
    by_hand = start
    while not by_hand.is_over:
        by_hand = by_hand.apply(by_hand.legal_actions()[0])
    assert board.to_round() == by_hand
    assert totals == by_hand.totals()


def test_callables_and_names_mix_per_seat_and_are_deterministic() -> None:
    start = Board(deal(seed=9).pass_exposure())

    def highest(board: Board) -> int:
        return board.legal_actions()[-1]

    mixed = [highest, "rule-of-thumb", highest, "greedy"]
    assert start.copy().rollout(seed=1, policy=mixed) == start.copy().rollout(seed=1, policy=mixed)


def test_a_callable_policy_that_cheats_or_changes_the_board_is_refused() -> None:
    start = Board(deal(seed=9).pass_exposure())

    def illegal(board: Board) -> int:
        return next(i for i in range(52) if i not in board.legal_actions())

    def not_an_id(board: Board) -> int:
        return "2C"  # type: ignore[return-value]

    def pushes(board: Board) -> int:
        board.push(board.legal_actions()[0])
        return board.legal_actions()[0]

    with pytest.raises(IllegalActionError, match="not a legal play"):
        start.copy().rollout(policy=illegal)
    with pytest.raises(ActionTypeError):
        start.copy().rollout(policy=not_an_id)
    with pytest.raises(IllegalActionError, match="must not push or pop"):
        start.copy().rollout(policy=pushes)
    with pytest.raises(ActionTypeError):
        start.copy().rollout(policy=[5, "random", "random", "random"])  # type: ignore[list-item]
