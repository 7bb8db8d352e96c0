"""Rules of the match that mutation testing found untested (docs/how_we_test.rst).

Each test names the rule it checks; it was added because a small change to
``gongzhu.match`` (a mutant of ``tools/mutate.py``) broke that rule and no other
test noticed.
"""

from __future__ import annotations

from typing import Any

import pytest

from gongzhu import (
    DealError,
    EndReason,
    Match,
    MatchError,
    Round,
    RuleSet,
    TransformerEffect,
    score,
)

LIMIT = 2**53 - 1
"""add_totals' documented bound: "at most 2**53 - 1 in size" (JSON-safe)."""


def test_new_and_the_constructor_agree_the_first_dealer_is_seat_0() -> None:
    # RULES.md §5: the dealer rotates one seat per deal, from first_dealer (default 0).
    assert Match.new("classic").first_dealer == 0
    assert Match.new("classic").dealer == 0
    assert Match.new("classic").add_totals((0, 0, 0, 0)).dealer == 1


def test_a_total_of_2_to_the_53_minus_1_is_accepted_and_one_more_is_refused() -> None:
    m = Match(RuleSet(loss_threshold=None)).add_totals((LIMIT, -LIMIT, 0, 0))
    assert m.totals == (LIMIT, -LIMIT, 0, 0)
    for bad in (LIMIT + 1, -LIMIT - 1):
        with pytest.raises(MatchError, match="2\\*\\*53 - 1"):
            Match().add_totals((bad, 0, 0, 0))


@pytest.mark.parametrize(
    "deal",
    [
        (100, -600, -1100, 500),
        (-1100, -900, 100, 0),
        (100, 0, -1100, -900),
        (-1100, 0, 100, -900),
    ],
)
def test_a_team_that_flips_ends_the_match_by_the_flip_when_no_team_crossed(
    deal: tuple[int, ...],
) -> None:
    # RULES.md §6 (004 bundle) + §7 pairs: team 0 (seats 0 and 2) reaches exactly −1000,
    # both partners' totals flip, the team stands at +1000 and the match ends by the flip.
    # Team 1 (seats 1 and 3) stays above −1000, so nobody crossed: it is the pig as the lowest.
    rules = RuleSet(partnerships=True, exact_threshold_flips=True)
    m = Match(rules).add_totals(deal)
    assert m.totals == (-deal[0], deal[1], -deal[2], deal[3])
    assert m.team_totals is not None
    assert m.team_totals[0] == 1000
    assert m.end_reason is EndReason.EXACT_FLIP
    assert m.flipped == (0, 2)
    assert m.losing_teams == (1,)
    assert m.winning_teams == (0,)


def test_the_table_of_a_flipped_match_names_who_flipped() -> None:
    # RULES.md §6 (004 bundle): exactly −1000 flips to +1000 and the match ends.
    m = Match(RuleSet(exact_threshold_flips=True)).add_totals((-1000, 0, 0, -100))
    assert m.table().endswith("Flipped: seat 0.")


def test_the_table_is_printed_exactly_as_the_module_documents_it() -> None:
    # gongzhu.match's docstring example, compared without whitespace normalisation:
    # every column is at least 6 characters wide and right-aligned.
    m = Match.new("classic", names=("Ann", "Bob", "Cid", "Dee"))
    m = m.add_totals((-400, 100, -200, 0)).add_totals((-650, 0, 100, -100))
    assert str(m) == (
        "deal    Ann    Bob    Cid    Dee\n"
        "   1   -400    100   -200      0\n"
        "   2  -1050    100   -100   -100\n"
        "Over after 2 deals (loss threshold): Bob won the match; Ann lost it."
    )


def test_there_is_no_seat_numbered_like_the_player_count() -> None:
    # Seats are numbered 0 to players - 1 in play order (RULES.md §5).
    for m in (Match(), Match(names=("Ann", "Bob", "Cid", "Dee"))):
        with pytest.raises(MatchError, match="no seat 4"):
            m.name(4)
        assert m.name(3) in ("seat 3", "Dee")


# -- what add() accepts as a finished deal (Match.add's documented contract) -------------


class _ScoreOnly:
    """A finished deal known only by its score() method (no is_over)."""

    def score(self) -> Any:
        return score(["QS", "JD", "", ""])


class _Unscorable:
    is_over = True

    def score(self) -> Any:
        raise DealError("the piles overlap")


def test_a_deal_with_only_a_score_method_counts_as_finished() -> None:
    assert Match().add(_ScoreOnly()).totals == (-100, 100, 0, 0)


def test_a_deal_whose_scoring_fails_is_refused_as_a_match_error() -> None:
    with pytest.raises(MatchError, match="could not be scored: the piles overlap"):
        Match().add(_Unscorable())


def test_the_round_class_itself_is_refused_as_a_match_error() -> None:
    with pytest.raises(MatchError, match="could not be called"):
        Match().add(Round)


# -- a deal known only by its totals (Match.add_totals' documented contract) -------------


def test_a_totals_only_deal_shows_each_total_as_its_base_line_and_records_the_slam() -> None:
    # "The stored DealScore has no cards; each seat's sheet shows its total as the base line."
    m = Match().add_totals((1000, -400, -300, -300), grand_slam_seat=0, all_hearts_seat=0)
    recorded = m.deals[0]
    for seat, total in enumerate((1000, -400, -300, -300)):
        p = recorded[seat]
        assert (p.hearts, p.pig, p.sheep, p.bonus) == (0, 0, 0, 0)
        assert p.base == p.total == total
        assert p.transformer is TransformerEffect.NONE
        assert p.multiplier == 1
        assert not p.lone_transformer
        assert not p.fixed
    assert recorded[0].grand_slam
    assert recorded[0].all_hearts
    assert not any(recorded[s].grand_slam or recorded[s].all_hearts for s in (1, 2, 3))


# -- "all who crossed lose" (RULES.md §6, seeds/002) -----------------------------------


def test_all_who_crossed_includes_a_player_exactly_at_the_threshold() -> None:
    # 002: "Игрок(и), набравшие -1000 или меньше … проигрывают" — −1000 or less.
    rules = RuleSet(simultaneous_loss="all-crossed")
    m = Match(rules).add_totals((-1000, -1200, 0, 0))
    assert m.losers == (0, 1)


def test_all_who_went_past_excludes_a_player_exactly_at_the_threshold() -> None:
    # RULES.md §7 loss threshold "reached only below" (002's wording "go past").
    rules = RuleSet(simultaneous_loss="all-crossed", loss_inclusive=False)
    m = Match(rules).add_totals((-1000, -1100, 0, 0))
    assert m.end_reason is EndReason.LOSS_THRESHOLD
    assert m.losers == (1,)
