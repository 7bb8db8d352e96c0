"""Fuzzing score(), exposure_factors() and exposure_preview() with garbage and near misses.

These take captures and exposures from outside (a score-keeper's input, a
record file). Whatever they are given, they return a result that can be
shown — or raise :class:`~gongzhu.DealError` (RULES.md §3: the scored deal
must be a set of disjoint piles from the rule set's deck).
"""

from __future__ import annotations

from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from fuzz_garbage import HUGE, any_int, garbage, huge_ints, outcome
from gongzhu import (
    DealError,
    DealScore,
    ExposurePreview,
    GongzhuError,
    RuleSet,
    RuleSetError,
    exposure_factors,
    exposure_preview,
    score,
)
from gongzhu.testing import captures, exposures, rule_sets

card_texts = st.sampled_from(["QS", "TC", "JD", "AH", "2C", "2D", "KH", "3H", "Q♠", "qs", "XX", ""])
pile_texts = st.lists(card_texts, max_size=6).map(" ".join)
piles = st.one_of(pile_texts, st.lists(card_texts, max_size=4), garbage)
rules_args = st.one_of(
    st.sampled_from([RuleSet(), RuleSet.preset("online"), RuleSet(players=5), RuleSet(players=3)]),
    garbage,
)
factors = st.one_of(st.sampled_from([1, 2, 4, 8, 64, 65, 0, -2, True]), any_int, garbage)
exposed_args = st.one_of(
    st.none(),
    pile_texts,
    st.dictionaries(card_texts, factors, max_size=4),
    garbage,
)
queen_counts = st.one_of(
    st.none(),
    st.lists(st.one_of(st.integers(-1, 53), garbage), max_size=5),
    garbage,
)


def _check_shows(result: DealScore) -> None:
    """A DealScore is fully usable: every sheet renders and the totals are ints."""
    assert all(type(t) is int for t in result.totals)
    assert result.sheet().count("⑥ deal") == len(result.totals)
    for player in result.players:
        assert player.total == result.totals[player.seat]


@given(
    st.one_of(st.lists(piles, max_size=6), piles, garbage),
    exposed_args,
    rules_args,
    queen_counts,
)
@example(["QS"], (), RuleSet(), 5)
@example(["QS"], {"QS": HUGE}, RuleSet(), None)
@example(["QS"], "QS", "classic", None)
@example([[HUGE]], (), RuleSet(), None)
def test_score_of_anything_is_a_deal_score_or_a_deal_error(
    captured: Any, exposed: Any, rules: Any, queens: Any
) -> None:
    # A text ``rules`` names a preset (an unknown name is a RuleSetError listing them).
    got = outcome(
        lambda: score(captured, exposed, rules=rules, queen_bonus_tricks=queens),
        DealError,
        RuleSetError,
    )
    if isinstance(got, RuleSetError):
        assert isinstance(rules, str)
    if isinstance(got, DealScore):
        if isinstance(rules, str):
            rules = RuleSet.preset(rules)
        assert isinstance(rules, RuleSet)
        assert 1 <= len(got.totals) <= rules.players
        _check_shows(got)


@given(st.data())
def test_valid_captures_with_hostile_exposures_score_or_fail_cleanly(data: st.DataObject) -> None:
    rules = data.draw(rule_sets())
    piles_ = data.draw(captures(rules=rules, complete=data.draw(st.booleans())))
    valid_exposure = data.draw(st.booleans())
    exposed = data.draw(exposures(rules=rules) if valid_exposure else exposed_args)
    got = outcome(lambda: score(piles_, exposed, rules=rules), DealError)
    if valid_exposure:
        # The piles and exposures came from valid generators: nothing to refuse.
        assert isinstance(got, DealScore)
    if isinstance(got, DealScore):
        _check_shows(got)
        # Accepted exposures are the rule set's exposable cards only.
        assert set(got.exposed) <= set(rules.exposable)


@given(exposed_args, rules_args)
@example({"QS": HUGE}, RuleSet())
@example("QS", "x")
@example({"QS": 2}, None)
def test_exposure_factors_of_anything_are_checked_factors_or_a_deal_error(
    exposed: Any, rules: Any
) -> None:
    got = outcome(lambda: exposure_factors(exposed, rules=rules), DealError, RuleSetError)
    if isinstance(got, RuleSetError):
        assert isinstance(rules, str)  # text names a preset; not one of them
    if isinstance(rules, str) and not isinstance(got, GongzhuError):
        rules = RuleSet.preset(rules)
    if isinstance(got, dict):
        assert isinstance(rules, RuleSet)
        assert set(got) <= set(rules.exposable)
        assert all(type(f) is int and 1 <= f <= 64 for f in got.values())


@given(st.one_of(card_texts, garbage), rules_args, st.one_of(st.none(), factors, huge_ints))
@example("QS", "x", None)
@example("QS", RuleSet(), "x")
@example("QS", RuleSet(), HUGE)
@example("QS", RuleSet(), 0)
def test_exposure_preview_of_anything_is_a_printable_preview_or_an_error(
    card: Any, rules: Any, factor: Any
) -> None:
    got = outcome(lambda: exposure_preview(card, rules=rules, factor=factor), GongzhuError)
    if isinstance(rules, str) and not isinstance(got, GongzhuError):
        rules = RuleSet.preset(rules)  # text names a preset
    if isinstance(got, ExposurePreview):
        assert isinstance(rules, RuleSet)
        assert got.card in rules.exposable
        assert type(got.after) is int
        assert str(got).startswith(got.name)
    elif isinstance(got, RuleSetError):
        assert isinstance(rules, str)  # text names a preset; not one of them
    else:
        assert isinstance(got, DealError)
