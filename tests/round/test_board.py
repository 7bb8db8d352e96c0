"""The public mutable board (issue #18 item 4): it agrees with the Round at every step."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import (
    Board,
    Card,
    CardParseError,
    IllegalActionError,
    Reason,
    Round,
    RuleSet,
    deal,
)
from gongzhu.testing import rounds_in_progress
from sample_rounds import settled


@settings(max_examples=60)
@given(rounds_in_progress(), st.data())
def test_push_pop_and_copy_agree_with_the_round(rnd: Round, data: st.DataObject) -> None:
    rnd = settled(rnd)
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
    rnd = settled(rnd)
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
    claimed = deal(rules=RuleSet(claims=True), seed=1).pass_exposure().claim()
    with pytest.raises(IllegalActionError) as err:
        Board(claimed)
    assert err.value.reason is Reason.WRONG_PHASE


# -- rollouts by policy (issue #28 item 3) ---------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(rounds_in_progress())
def test_a_rule_of_thumb_rollout_plays_the_rule_of_thumb_bot_card_for_card(rnd: Round) -> None:
    # The board's policy is the bot itself: the same cards as the bot playing from its views.
    from gongzhu.ai.driver import play_out
    from gongzhu.bots import RuleOfThumbStrategy

    rnd = settled(rnd)
    board = Board(rnd)
    board.rollout(policy="rule-of-thumb")
    played = play_out(rnd, [RuleOfThumbStrategy()] * rnd.players)
    assert board.to_round() == played
    assert board.totals() == played.score().totals


@pytest.mark.parametrize("seed", range(6))
def test_the_bots_exposures_then_a_rule_of_thumb_rollout_is_the_bots_whole_deal(seed: int) -> None:
    from gongzhu.ai.driver import decide_exposures
    from gongzhu.bots import RuleOfThumbStrategy, play_deal

    rules = RuleSet.preset("online") if seed % 2 else RuleSet()
    bots = [RuleOfThumbStrategy()] * rules.players
    start = decide_exposures(deal(rules=rules, seed=seed), bots)
    board = Board(start)
    board.rollout(seed=99, policy="rule-of-thumb")  # the seed is not used: no random seat
    assert board.to_round() == play_deal(bots, rules=rules, seed=seed)


def test_policy_rollouts_are_deterministic_and_differ_by_policy() -> None:
    outcomes: dict[str, set[tuple[int, ...]]] = {}
    for seed in range(8):
        board = Board(deal(seed=seed).pass_exposure())
        for policy in ("greedy", "rule-of-thumb"):
            a, b = board.copy(), board.copy()
            a.rollout(seed=1, policy=policy)
            b.rollout(seed=2, policy=policy)
            assert a.plays == b.plays  # no random seat: the seed does not matter
            assert a.is_over
            outcomes.setdefault(policy, set()).add(a.plays)
        mixed = [board.copy(), board.copy()]
        for m in mixed:
            m.rollout(seed=3, policy=["greedy", "random", "rule-of-thumb", "random"])
        assert mixed[0].plays == mixed[1].plays
    assert outcomes["greedy"] != outcomes["rule-of-thumb"]  # greedy is not the rule of thumb


def test_the_greedy_rollout_takes_what_the_look_ahead_values_most() -> None:
    # At every decision with a choice the card played has the best one-trick value
    # (plus the early short-suit preference) of the core look-ahead in this deal.
    from gongzhu._core import policy
    from gongzhu._core.greedy import trick_values
    from gongzhu.board import GREEDY_SHORT_PREFERENCE, GREEDY_SHORT_TRICKS

    board = Board(deal(seed=11).pass_exposure())
    played = board.copy()
    played.rollout(policy="greedy")
    core = board._b
    for card in played.plays:
        ids = board.legal_actions()
        if len(ids) > 1:
            values = trick_values(core, ids)
            if not core.trick and core.ntricks < GREEDY_SHORT_TRICKS:
                hand = core.hands[board.to_act or 0]
                values = [
                    v
                    + policy.short_suit_bonus(
                        core.cfg, hand, core.played, c // 13, GREEDY_SHORT_PREFERENCE
                    )
                    for c, v in zip(ids, values, strict=True)
                ]
            assert values[ids.index(card)] >= max(values) - 1e-9
        board.push(card)


def test_a_bad_policy_is_refused_with_the_known_names() -> None:
    board = Board(deal(seed=1).pass_exposure())
    with pytest.raises(IllegalActionError, match="unknown policy 'clever'; known: random"):
        board.rollout(policy="clever")
    with pytest.raises(IllegalActionError, match="one per seat"):
        board.rollout(policy=["greedy"] * 3)
    assert board.plays == ()  # nothing was played


_CARDS = [Card.from_index(i) for i in range(52)]


@settings(max_examples=40)
@given(rounds_in_progress(), st.data())
def test_why_illegal_and_push_card_answer_as_the_round_does(
    rnd: Round, data: st.DataObject
) -> None:
    rnd = settled(rnd)
    board = Board(rnd)
    while not rnd.is_over and data.draw(st.booleans(), "go on"):
        for card in _CARDS:
            for seat in (None, 0, 1, 2, 3, 7):
                assert board.why_illegal(card, seat) == rnd.why_illegal(card, seat), (card, seat)
        card = data.draw(st.sampled_from(_CARDS), "card")
        text = data.draw(st.sampled_from([card.code, str(card)]), "spelling")
        before = board.to_round()
        if rnd.can_play(card):
            board.push_card(text if data.draw(st.booleans(), "as text") else card)
            rnd = rnd.play(card)
        else:
            with pytest.raises(IllegalActionError) as refused:
                board.push_card(text)
            with pytest.raises(IllegalActionError) as expected:
                rnd.play(card)
            assert refused.value.reason is expected.value.reason
            assert str(refused.value) == str(expected.value)
            assert board.to_round() == before  # unchanged
        assert board.to_round() == rnd
    if rnd.is_over:
        assert board.why_illegal(_CARDS[0]) is Reason.WRONG_PHASE


def test_push_card_refuses_an_illegal_card_and_leaves_the_board_unchanged() -> None:
    board = Board(deal(seed=7).pass_exposure())
    board.push_card("7C")  # seat 2 leads 7♣; seat 3 holds clubs and 9♠
    assert board.why_illegal("9♠") is Reason.MUST_FOLLOW_SUIT
    with pytest.raises(IllegalActionError) as refused:
        board.push_card("9♠")
    assert refused.value.reason is Reason.MUST_FOLLOW_SUIT
    assert refused.value.seat == 3
    assert board.plays == (5,)
    assert board.legal_actions() == [0, 1, 2, 4, 7, 9]
    board.push_card(Card("JC"))
    assert board.plays == (5, 9)
    with pytest.raises(CardParseError):
        board.push_card("1X")
    assert board.plays == (5, 9)
