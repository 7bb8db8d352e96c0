"""Fuzzing Match: garbage deals, totals, names and seats give MatchError and change nothing.

A score-keeper types totals in, a record file feeds deals: ``Match(...)``,
``Match.new``, ``add``, ``add_totals`` and ``extend`` either return a new
match whose table can be printed, or raise :class:`~gongzhu.MatchError`
leaving the old match as it was (RULES.md §6: the running totals).
"""

from __future__ import annotations

import types
from typing import Any

from hypothesis import event, example, given
from hypothesis import strategies as st

import gongzhu
from fuzz_garbage import HUGE, any_int, garbage, huge_ints, outcome, seats
from gongzhu import Match, MatchError, Round, RuleSet, deal, score
from gongzhu.testing import finished_rounds

CLASSIC = RuleSet()  # no rotation, no flips: the running total is a plain sum


def _state(m: Match) -> tuple[Any, ...]:
    return (m.totals, m.history, m.deal_count, m.end_reason, m.losers, m.winners, m.table())


names_args = st.one_of(
    st.none(),
    st.lists(st.text(max_size=5), min_size=3, max_size=5),
    st.sampled_from([["A", "B", "C", "D"], ["A", "A", "B", "C"], ["", "B", "C", "D"], "ABCD"]),
    huge_ints.map(lambda n: [n, "B", "C", "D"]),
    garbage,
)
rules_args = st.one_of(
    st.sampled_from([CLASSIC, RuleSet.preset("online-quick"), RuleSet(players=5)]), garbage
)
total_values = st.one_of(st.integers(-600, 600), any_int, huge_ints, garbage)
totals_args = st.one_of(
    st.lists(st.integers(-600, 600), min_size=4, max_size=4),
    st.lists(total_values, min_size=3, max_size=5),
    garbage,
)


@given(rules_args, names_args, st.one_of(st.integers(-1, 5), seats))
@example(CLASSIC, None, HUGE)
@example(CLASSIC, [HUGE, "B", "C", "D"], 0)
@example("classic", None, 0)
def test_a_new_match_of_anything_is_a_match_or_a_match_error(
    rules: Any, names: Any, first_dealer: Any
) -> None:
    got = outcome(lambda: Match(rules, names, first_dealer), MatchError)
    if isinstance(got, Match):
        assert got.rules == (RuleSet.preset(rules) if isinstance(rules, str) else rules)
        assert got.totals == (0,) * got.rules.players
        assert got.dealer == first_dealer
        assert got.table()
    via_new = outcome(lambda: Match.new(rules, names, first_dealer), MatchError)
    assert isinstance(via_new, (Match, MatchError))


seat_or_none = st.one_of(st.none(), st.integers(0, 3), seats)


@given(st.lists(st.tuples(totals_args, seat_or_none, seat_or_none), max_size=12))
@example([((HUGE, 0, 0, 0), None, None)])
@example([((HUGE, 0, 0), None, None)])
@example([((0, 0, 0, 0), HUGE, None)])
def test_add_totals_keeps_a_plain_running_sum_of_the_accepted_deals(
    calls: list[tuple[Any, Any, Any]],
) -> None:
    match = Match(CLASSIC)
    expected = [0, 0, 0, 0]
    for totals, pig_taker, slam_seat in calls:
        before = _state(match)
        got = outcome(
            lambda: match.add_totals(totals, pig_taker=pig_taker, grand_slam_seat=slam_seat),  # noqa: B023
            MatchError,
        )
        assert _state(match) == before
        event(f"add_totals {type(got).__name__}")
        if isinstance(got, Match):
            assert not before[3]  # nothing is added once the match is over
            expected = [a + b for a, b in zip(expected, totals, strict=True)]
            assert list(got.totals) == expected
            assert got.deal_count == match.deal_count + 1
            assert got.table()
            match = got
    if match.is_over:
        assert isinstance(outcome(lambda: match.add_totals((0, 0, 0, 0)), MatchError), MatchError)


@given(garbage)
@example(gongzhu)
@example(Round)
@example(types.SimpleNamespace(score=lambda: None))
@example(types.SimpleNamespace(score=5, is_over=True))
@example(deal(seed=1))
@example(score(["QS"]))
def test_add_of_anything_that_is_not_a_finished_deal_is_a_match_error(thing: Any) -> None:
    match = Match(CLASSIC).add_totals((10, -10, 0, 0))
    before = _state(match)
    got = outcome(lambda: match.add(thing), MatchError)
    assert isinstance(got, MatchError)
    assert _state(match) == before


@given(st.one_of(garbage, st.lists(garbage, max_size=3)))
@example(None)
@example(5)
@example(iter([None]))
def test_extend_with_anything_but_finished_deals_is_a_match_error(things: Any) -> None:
    match = Match(CLASSIC)
    got = outcome(lambda: match.extend(things), MatchError)
    if isinstance(got, Match):
        # Only an empty iterable extends a match by nothing.
        assert got.deal_count == 0
    assert _state(match) == _state(Match(CLASSIC))


@given(st.lists(finished_rounds(rules=CLASSIC), min_size=1, max_size=3), st.one_of(seats, any_int))
def test_finished_rounds_add_and_any_seat_name_lookup_is_safe(
    rounds: list[Round], seat: Any
) -> None:
    match = Match(RuleSet(loss_threshold=None)).extend(rounds)  # never over
    assert match.deal_count == len(rounds)
    assert match.totals == tuple(map(sum, zip(*(r.score().totals for r in rounds), strict=True)))
    got = outcome(lambda: match.name(seat), MatchError)
    if isinstance(got, str):
        assert 0 <= seat < 4
