"""``gongzhu.score`` agrees with the independent reference scorer (RULES.md §3, §7).

The reference (``tests/reference_scorer.py``) is a plain second reading of
the same text. Any disagreement found here was settled by RULES.md and added to
``test_scoring_examples.py`` as an example.
"""

from __future__ import annotations

from hypothesis import given, note
from hypothesis import strategies as st

from gongzhu import CardSet, RuleSet, TransformerEffect, score
from reference_scorer import (
    SLAM_SHAPES,
    ExposureKind,
    exposures,
    partitions,
    reference_score,
    scoring_rules,
)


def _assert_agree(
    piles: list[CardSet],
    exposed: dict,  # type: ignore[type-arg]
    rules: RuleSet,
    queen_tricks: list[int] | None = None,
    *,
    plain_exposed: bool = False,
) -> None:
    note(f"rules: {rules}")
    note(f"piles: {[p.code for p in piles]}  exposed: {exposed}")
    got = score(
        piles,
        list(exposed) if plain_exposed else exposed,
        rules=rules,
        queen_bonus_tricks=queen_tricks,
    )
    ref = reference_score(piles, exposed, rules, queen_tricks)
    assert got.totals == ref.totals
    assert got.all_hearts_seat == ref.all_hearts_seat
    assert got.grand_slam_seat == ref.grand_slam_seat
    assert got.pig_taker == ref.pig_taker
    for mine, theirs in zip(got.players, ref.lines, strict=True):
        assert (mine.hearts, mine.pig, mine.sheep, mine.base) == (
            theirs.hearts,
            theirs.pig,
            theirs.sheep,
            theirs.base,
        ), mine.seat
        assert mine.multiplier == theirs.multiplier
        assert (mine.transformer is TransformerEffect.LONE_BONUS) == theirs.lone_transformer
        assert (mine.transformer is TransformerEffect.MULTIPLIER) == (theirs.multiplier > 1)
        assert mine.lone_transformer == theirs.lone_transformer
        assert mine.all_hearts == theirs.took_all_hearts
        assert mine.grand_slam == theirs.grand_slam
        assert mine.bonus == theirs.queen_bonus
        assert mine.total == theirs.total
    if rules.partnerships:
        t = ref.totals
        assert got.team_totals == (t[0] + t[2], t[1] + t[3])


@given(st.data())
def test_score_agrees_with_the_reference_under_random_rules(data: st.DataObject) -> None:
    rules = data.draw(scoring_rules(), label="rules")
    piles = data.draw(partitions(rules), label="piles")
    exposed = data.draw(exposures(rules), label="exposed")
    queen_tricks = None
    if rules.queen_of_diamonds_bonus:
        queen_tricks = data.draw(
            st.lists(st.integers(0, 12), min_size=len(piles), max_size=len(piles))
        )
    # A plain list of cards means "face up": factor 2 for an open exposure (RULES.md §4).
    plain = rules.exposure_kind is ExposureKind.OPEN and set(exposed.values()) <= {2}
    _assert_agree(piles, exposed, rules, queen_tricks, plain_exposed=plain)


@given(st.data())
def test_score_agrees_with_the_reference_on_slams_under_random_rules(
    data: st.DataObject,
) -> None:
    rules = data.draw(scoring_rules(), label="rules")
    shape = data.draw(st.sampled_from([s for s in SLAM_SHAPES if s != "none"]), label="shape")
    piles = data.draw(partitions(rules, shape), label="piles")
    exposed = data.draw(exposures(rules), label="exposed")
    _assert_agree(piles, exposed, rules)


@given(st.sampled_from(SLAM_SHAPES).flatmap(lambda s: partitions(RuleSet(), s)), st.data())
def test_score_agrees_with_the_reference_under_the_default_rules(
    piles: list[CardSet], data: st.DataObject
) -> None:
    rules = RuleSet()
    exposed = data.draw(exposures(rules), label="exposed")
    _assert_agree(piles, exposed, rules, plain_exposed=True)


@given(
    st.sampled_from(["online", "czech-variant", "catch-the-pig", "encyclopedia"]),
    st.data(),
)
def test_score_agrees_with_the_reference_for_presets(name: str, data: st.DataObject) -> None:
    rules = RuleSet.preset(name)
    piles = data.draw(partitions(rules), label="piles")
    exposed = data.draw(exposures(rules), label="exposed")
    _assert_agree(piles, exposed, rules)


def test_the_generated_deals_do_contain_slams() -> None:
    """Guard against a strategy that silently stops producing the interesting cases."""
    from hypothesis import find

    find(partitions(), lambda piles: score(piles).grand_slam_seat is not None)
    find(
        partitions(),
        lambda piles: (
            score(piles).all_hearts_seat is not None and score(piles).grand_slam_seat is None
        ),
    )
