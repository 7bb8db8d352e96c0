"""Tests for gongzhu.match: running totals and the end of a match (RULES.md §5, §6, §7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gongzhu import (
    DealScore,
    EndReason,
    GrandSlamOutcome,
    LaterLeader,
    Match,
    MatchError,
    Round,
    RuleSet,
    SimultaneousLoss,
    deal,
    score,
)

ALL_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
GRAND_SLAM_PILE = ALL_HEARTS + " QS JD TC"


def played(rules: RuleSet, *deals: Sequence[int]) -> Match:
    """A match of ``rules`` after deals known by their totals."""
    match = Match(rules)
    for totals in deals:
        match = match.add_totals(totals)
    return match


# -- 000 §08 / 002: crossing the loss threshold -------------------------------------


def test_reaching_minus_1000_exactly_loses_by_default() -> None:
    # seeds/000 §08: "на −1000 чи нижче" — at −1000 or below.
    m = played(RuleSet(), (-600, 0, 0, 0), (-400, 100, 100, 200))
    assert m.totals == (-1000, 100, 100, 200)
    assert m.is_over
    assert m.end_reason is EndReason.LOSS_THRESHOLD
    assert m.losers == (0,)
    assert m.winners == (3,)


def test_match_runs_while_everyone_is_above_the_threshold() -> None:
    m = played(RuleSet(), (-600, 0, 0, 0), (-390, 100, 100, 190))
    assert not m.is_over
    assert m.end_reason is None
    assert m.losers == ()
    assert m.winners == ()


def test_simultaneous_crossing_only_the_lowest_loses() -> None:
    # seeds/000 §08: −1050 and −1100 after the same deal → only the −1100 player loses.
    m = played(RuleSet(), (-900, -1000 + 50, 0, 0), (-150, -150, 100, 200))
    assert m.totals == (-1050, -1100, 100, 200)
    assert m.end_reason is EndReason.LOSS_THRESHOLD
    assert m.losers == (1,)


def test_simultaneous_crossing_equal_lowest_share_the_loss() -> None:
    # seeds/000 §08: −1100 and −1100 → both share the loss.
    m = played(RuleSet(), (-900, 0, -900, 0), (-200, 100, -200, 300))
    assert m.totals == (-1100, 100, -1100, 300)
    assert m.losers == (0, 2)


def test_all_who_crossed_lose_under_the_encyclopedia_rule() -> None:
    # seeds/002: "Игрок(и), набравшие -1000 или меньше очков … проигрывают".
    rules = RuleSet.preset("encyclopedia")
    assert rules.simultaneous_loss is SimultaneousLoss.ALL_CROSSED
    m = played(rules, (-900, -900, 0, 0), (-150, -200, 150, 200))
    assert m.totals == (-1050, -1100, 150, 200)
    assert m.losers == (0, 1)


def test_loss_exclusive_exactly_the_threshold_does_not_lose() -> None:
    # RULES.md §7: 002's wording "go past" — only below the threshold loses.
    rules = RuleSet(loss_inclusive=False)
    m = played(rules, (-1000, 0, 0, 0))
    assert not m.is_over
    m = m.add_totals((-10, 0, 0, 0))
    assert m.end_reason is EndReason.LOSS_THRESHOLD
    assert m.losers == (0,)


def test_custom_loss_threshold() -> None:
    m = played(RuleSet(loss_threshold=-500), (-499, 0, 0, 0))
    assert not m.is_over
    assert m.add_totals((-1, 0, 0, 0)).losers == (0,)


# -- 001: ±threshold and the 30-deal cap ---------------------------------------------


def test_reaching_plus_500_ends_the_quick_match_and_the_lowest_is_the_pig() -> None:
    # seeds/001 §4: "Как только у кого-то набирается −500 или +500, игра заканчивается:
    # у кого больше всех - первое место, у кого меньше всех - «Свинья»".
    rules = RuleSet.preset("online-quick")
    m = played(rules, (300, -100, -200, 0), (200, -50, 0, -150))
    assert m.totals == (500, -150, -200, -150)
    assert m.end_reason is EndReason.WIN_THRESHOLD
    assert m.winners == (0,)
    assert m.losers == (2,)
    assert m.standings() == (0, 1, 3, 2)


def test_reaching_minus_500_ends_the_quick_match() -> None:
    m = played(RuleSet.preset("online-quick"), (-500, 100, 200, 200))
    assert m.end_reason is EndReason.LOSS_THRESHOLD
    assert m.losers == (0,)
    assert m.winners == (2, 3)


def test_online_match_ends_after_30_deals() -> None:
    # seeds/001 §26: "после 30 сдач игра заканчивается в любом случае".
    rules = RuleSet.preset("online")
    m = Match(rules)
    for i in range(29):
        m = m.add_totals((10, -10, 0, 0) if i % 2 else (-10, 0, 10, 0))
        assert not m.is_over
    assert m.totals == (-10 * 15 + 10 * 14, -10 * 14, 10 * 15, 0)
    m = m.add_totals((0, 0, 0, 0))
    assert m.deal_count == 30
    assert m.end_reason is EndReason.DEAL_CAP
    assert m.winners == (2,)
    assert m.losers == (1,)


def test_fixed_number_of_deals_without_thresholds() -> None:
    # 001 house rules / a family rule: a fixed number of deals, highest total wins.
    rules = RuleSet(loss_threshold=None, max_deals=2)
    m = played(rules, (-5000, 100, 0, 0))
    assert not m.is_over
    m = m.add_totals((0, 0, 300, 0))
    assert m.end_reason is EndReason.DEAL_CAP
    assert m.winners == (2,)
    assert m.losers == (0,)


# -- 004: exactly −1000 flips to +1000 -----------------------------------------------


def test_exactly_minus_1000_flips_to_plus_1000_and_ends_the_match() -> None:
    # seeds/004: "Jestliže někdo dosáhne přesně -1000 bodů, otáčí se jeho konto na +1000
    # bodů a hra končí." The flipped player is not a loser; the lowest total is the pig.
    rules = RuleSet.preset("czech-variant")
    assert rules.exact_threshold_flips
    m = played(rules, (-700, 0, -100, 0), (-300, 100, -200, 50))
    assert m.totals == (1000, 100, -300, 50)
    assert m.history[-1] == (1000, 100, -300, 50)
    assert m.end_reason is EndReason.EXACT_FLIP
    assert m.flipped == (0,)
    assert m.losers == (2,)
    assert m.winners == (0,)


def test_flip_and_another_player_below_the_threshold_in_the_same_deal() -> None:
    # RULES.md §6, library's reading of 004: any other player ≤ −1000 loses as usual.
    rules = RuleSet.preset("czech-variant")
    m = played(rules, (-800, -900, 0, 0), (-200, -150, 100, 250))
    assert m.totals == (1000, -1050, 100, 250)
    assert m.end_reason is EndReason.LOSS_THRESHOLD
    assert m.flipped == (0,)
    assert m.losers == (1,)
    assert m.winners == (0,)


def test_without_the_flip_option_exactly_minus_1000_loses() -> None:
    m = played(RuleSet(), (-700, 0, 0, 0), (-300, 0, 0, 0))
    assert m.totals == (-1000, 0, 0, 0)
    assert m.flipped == ()
    assert m.losers == (0,)


def test_passing_minus_1000_without_hitting_it_exactly_does_not_flip() -> None:
    m = played(RuleSet.preset("czech-variant"), (-700, 0, 0, 0), (-310, 0, 0, 0))
    assert m.totals == (-1010, 0, 0, 0)
    assert m.flipped == ()
    assert m.end_reason is EndReason.LOSS_THRESHOLD


# -- grand slam outcomes -------------------------------------------------------------


def slam_deal(rules: RuleSet, seat: int) -> DealScore:
    piles = ["", "", "", ""]
    piles[seat] = GRAND_SLAM_PILE
    return score(piles, rules=rules)


def test_grand_slam_rotates_the_running_totals() -> None:
    # seeds/003 v2: "очки всех игроков меняются местами"; library's reading (RULES.md §7):
    # after the slam deal is added, seat s takes the running total of seat s − 1.
    rules = RuleSet(grand_slam_outcome=GrandSlamOutcome.ROTATE)
    m = played(rules, (10, 20, 30, 40))
    slam = slam_deal(rules, 0)
    # §3 lines: all hearts +200, pig +100 with all hearts (000 §05), sheep +100, ×2 by 10♣.
    assert slam.totals == (800, 0, 0, 0)
    m = m.add(slam)
    assert m.totals == (40, 810, 20, 30)
    assert m.history == ((10, 20, 30, 40), (40, 810, 20, 30))
    assert not m.is_over


def test_rotation_can_push_a_total_over_the_threshold() -> None:
    rules = RuleSet(grand_slam_outcome="rotate")
    m = played(rules, (0, 0, 0, -1000 + 1)).add_totals((0, 0, 0, -1), grand_slam_seat=2)
    assert m.totals == (-1000, 0, 0, 0)
    assert m.losers == (0,)


def test_without_a_rotation_rule_a_grand_slam_is_just_a_score() -> None:
    m = Match().add(slam_deal(RuleSet(), 1))
    assert m.totals == (0, 800, 0, 0)
    assert not m.is_over


def test_grand_slam_instant_win() -> None:
    # seeds/002 v8: "сбор всех карточек очков дает игроку мгновенную победу, независимо от
    # предыдущего результата". Library's reading: the lowest of the others is the pig.
    rules = RuleSet(grand_slam_outcome="instant-win")
    m = played(rules, (-900, 500, -300, 0)).add(slam_deal(rules, 0))
    assert m.totals == (-100, 500, -300, 0)
    assert m.end_reason is EndReason.GRAND_SLAM
    assert m.winners == (0,)
    assert m.losers == (2,)


def test_instant_win_taker_never_loses_even_with_the_lowest_total() -> None:
    rules = RuleSet(grand_slam_outcome="instant-win")
    m = played(rules, (-900, 0, -50, 0)).add_totals((100, 0, 0, 0), grand_slam_seat=0)
    assert m.totals == (-800, 0, -50, 0)
    assert m.winners == (0,)
    assert m.losers == (2,)


def test_instant_win_takes_precedence_over_a_loss_in_the_same_deal() -> None:
    rules = RuleSet(grand_slam_outcome="instant-win")
    m = played(rules, (0, -990, -995, 0)).add_totals((0, -20, -20, 0), grand_slam_seat=3)
    assert m.end_reason is EndReason.GRAND_SLAM
    assert m.winners == (3,)
    assert m.losers == (2,)  # the lowest of those past the threshold, per 000 §08


# -- partnerships --------------------------------------------------------------------


def test_partnerships_thresholds_apply_to_team_totals() -> None:
    # RULES.md §7 pairs: partners opposite, thresholds on team totals (003, 004; pagat).
    rules = RuleSet(partnerships=True)
    m = played(rules, (-1200, 0, 500, 0))
    assert m.team_totals == (-700, 0)
    assert not m.is_over
    m = m.add_totals((-200, 100, -100, 0))
    assert m.team_totals == (-1000, 100)
    assert m.end_reason is EndReason.LOSS_THRESHOLD
    assert m.losing_teams == (0,)
    assert m.losers == (0, 2)
    assert m.winning_teams == (1,)
    assert m.winners == (1, 3)


def test_partnerships_flip_negates_the_team() -> None:
    rules = RuleSet(partnerships=True, exact_threshold_flips=True)
    m = played(rules, (-600, 0, -400, -100))
    assert m.totals == (600, 0, 400, -100)
    assert m.team_totals == (1000, -100)
    assert m.end_reason is EndReason.EXACT_FLIP
    assert m.flipped == (0, 2)
    assert m.losers == (1, 3)


def test_without_partnerships_every_seat_is_a_team_of_one() -> None:
    # issue #15 item 8: team_totals was None without pairs; now one total per team of
    # rules.teams, which are single seats, so callers need no special case.
    m = played(RuleSet(), (-1000, 0, 0, 0))
    assert m.team_totals == m.totals == (-1000, 0, 0, 0)
    assert m.losing_teams == (0,)
    assert len(m.team_totals) == len(m.rules.teams)


# -- priority of end conditions ------------------------------------------------------


def test_loss_and_win_threshold_in_the_same_deal_reports_the_loss() -> None:
    m = played(RuleSet.preset("online-quick"), (600, -550, 0, -50))
    assert m.end_reason is EndReason.LOSS_THRESHOLD
    assert m.winners == (0,)
    assert m.losers == (1,)


def test_loss_threshold_and_deal_cap_in_the_same_deal_reports_the_loss() -> None:
    m = played(RuleSet(max_deals=2), (0, -100, 0, 0), (-1100, 0, 0, 0))
    assert m.end_reason is EndReason.LOSS_THRESHOLD
    assert m.losers == (0,)


def test_nobody_is_both_winner_and_loser_when_everyone_is_level() -> None:
    m = played(RuleSet(max_deals=1), (0, 0, 0, 0))
    assert m.losers == (0, 1, 2, 3)
    assert m.winners == ()


# -- leader and dealer (RULES.md §5) -------------------------------------------------


def test_pig_taker_leads_the_next_deal() -> None:
    # seeds/000, 001, 004: the player who took Q♠ in the previous deal leads.
    m = Match()
    assert m.next_leader is None  # first deal: the opening-card holder
    m = m.add(score(["AH", "QS", "JD", "TC"]))
    assert m.next_leader == 1
    m = m.add(score(["", "", "", "QS"]))
    assert m.next_leader == 3


def test_opening_card_holder_leads_every_deal_under_the_russian_rules() -> None:
    # seeds/003: only the 2♠ holder is named, every deal.
    rules = RuleSet.preset("russian")
    assert rules.later_leader is LaterLeader.OPENING_CARD
    m = Match(rules).add(score(["AH", "QS", "JD", "TC"], rules=rules))
    assert m.next_leader is None


def test_uncaptured_pig_leaves_the_lead_to_the_opening_card_holder() -> None:
    m = Match().add(score(["AH", "", "JD", "TC"]))
    assert m.next_leader is None


def test_dealer_rotates_one_seat_per_deal() -> None:
    # seeds/003: the dealer rotates; seat numbers follow play order (RULES.md §5).
    m = Match(first_dealer=2)
    dealers = [m.dealer]
    for _ in range(4):
        m = m.add_totals((0, 0, 0, 0))
        dealers.append(m.dealer)
    assert dealers == [2, 3, 0, 1, 2]


def test_five_player_match() -> None:
    rules = RuleSet(players=5)
    m = Match(rules, first_dealer=4).add(score(["QS", "", "", "", "AH"], rules=rules))
    assert m.totals == (-100, 0, 0, 0, -50)
    assert m.dealer == 0
    assert m.next_leader == 0


# -- immutability and refusals -------------------------------------------------------


def test_add_returns_a_new_match_and_leaves_the_old_one_unchanged() -> None:
    m0 = Match()
    m1 = m0.add_totals((-100, 50, 0, 50), pig_taker=0)
    assert m0.totals == (0, 0, 0, 0)
    assert m0.deals == ()
    assert m0.history == ()
    assert m0.next_leader is None
    assert m1.totals == (-100, 50, 0, 50)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        m1.first_dealer = 2  # type: ignore[misc]


def test_branches_from_the_same_match_are_independent() -> None:
    base = played(RuleSet(), (-100, 0, 0, 100))
    a = base.add_totals((-900, 0, 0, 0))
    b = base.add_totals((0, 0, 0, 0))
    assert a.is_over
    assert not b.is_over
    assert not base.is_over


def test_equal_histories_give_equal_hashable_matches() -> None:
    a = played(RuleSet(), (-100, 0, 0, 100))
    b = played(RuleSet(), (-100, 0, 0, 100))
    assert a == b
    assert hash(a) == hash(b)
    assert a != played(RuleSet(), (-100, 100, 0, 0))


def test_adding_to_a_finished_match_raises() -> None:
    m = played(RuleSet(), (-1000, 0, 0, 0))
    with pytest.raises(MatchError, match="the match is over"):
        m.add_totals((0, 0, 0, 0))
    with pytest.raises(MatchError, match="over"):
        m.add(score(["QS"] + [""] * 3))


def test_a_deal_with_the_wrong_number_of_totals_is_refused() -> None:
    with pytest.raises(MatchError, match="3 totals but the match has 4 seats"):
        Match().add(score(["QS", "AH", "JD"]))
    with pytest.raises(MatchError, match="4 ints"):
        Match().add_totals((0, 0, 0))


def test_a_deal_scored_for_another_table_size_is_refused() -> None:
    five = RuleSet(players=5)
    with pytest.raises(MatchError, match="scored for 5 players"):
        Match().add(score(["QS", "AH", "JD", "TC"], rules=five))


@pytest.mark.parametrize("bad", [(0, 0, 0, 0), 42, "QS", None, [score(["QS"])]])
def test_adding_something_that_is_not_a_deal_is_refused(bad: Any) -> None:
    with pytest.raises(MatchError, match="DealScore"):
        Match().add(bad)


@pytest.mark.parametrize(
    "bad", [(0, 0, 0, 0.5), (0, 0, 0, True), "0000", 7, (0, 0, 0, 0, 0), ("1", 0, 0, 0)]
)
def test_add_totals_refuses_anything_but_one_int_per_seat(bad: Any) -> None:
    with pytest.raises(MatchError, match="one per seat"):
        Match().add_totals(bad)


@pytest.mark.parametrize(
    "kwargs", [{"pig_taker": 4}, {"grand_slam_seat": -1}, {"all_hearts_seat": "0"}]
)
def test_add_totals_refuses_bad_seats(kwargs: dict[str, Any]) -> None:
    with pytest.raises(MatchError, match="must be a seat"):
        Match().add_totals((0, 0, 0, 0), **kwargs)


class FakeRound:
    """A stand-in for the engine's Round: a finished deal object with a score() method."""

    def __init__(self, complete: bool, result: Any) -> None:
        self.is_over = complete
        self._result = result

    def score(self) -> Any:
        return self._result


def test_a_finished_round_like_object_is_scored_and_added() -> None:
    m = Match().add(FakeRound(True, score(["QS", "", "", ""])))
    assert m.totals == (-100, 0, 0, 0)
    assert m.next_leader == 0


def test_an_unfinished_round_is_refused() -> None:
    with pytest.raises(MatchError, match="not complete"):
        Match().add(FakeRound(False, score(["QS", "", "", ""])))


def test_a_round_whose_score_is_not_a_deal_score_is_refused() -> None:
    with pytest.raises(MatchError, match="not a DealScore"):
        Match().add(FakeRound(True, (0, 0, 0, 0)))


def test_extend_adds_each_deal_and_stops_at_the_end() -> None:
    deals = [score(["QS TC", "", "", ""])] * 5  # −200 each: over after the fifth
    m = Match().extend(deals)
    assert m.totals == (-1000, 0, 0, 0)
    assert m.is_over
    with pytest.raises(MatchError):
        Match().extend(deals * 2)


# -- construction --------------------------------------------------------------------


def test_new_and_the_constructor_accept_a_preset_name() -> None:
    assert Match.new("online").rules == RuleSet.preset("online")
    assert Match("online") == Match(RuleSet.preset("online"))
    assert Match(rules="classic").rules is RuleSet.preset("classic")
    for make in (Match.new, Match):
        with pytest.raises(MatchError, match="unknown preset 'no-such-preset'; known: classic"):
            make("no-such-preset")


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (("A", "B", "C"), "expected 4 names"),
        (("A", "B", "C", ""), "non-empty"),
        (("A", "B", "C", 4), "needs a string"),
        (("A", "B", "A", "D"), "distinct"),
        ("ABCD", "not a single string"),
        (42, "sequence of names"),
    ],
)
def test_bad_names_are_refused(names: Any, message: str) -> None:
    with pytest.raises(MatchError, match=message):
        Match(names=names)


@pytest.mark.parametrize("dealer", [-1, 4, True, "0"])
def test_bad_first_dealer_is_refused(dealer: Any) -> None:
    with pytest.raises(MatchError, match="first_dealer"):
        Match(first_dealer=dealer)


@pytest.mark.parametrize("rules", [5, None, ["classic"]])
def test_rules_must_be_a_rule_set_or_a_preset_name(rules: Any) -> None:
    with pytest.raises(MatchError, match="RuleSet"):
        Match(rules=rules)


# -- text ----------------------------------------------------------------------------


def test_table_shows_names_running_totals_and_the_outcome() -> None:
    m = Match(names=("Ann", "Bob", "Cid", "Dee")).add_totals((-600, 0, 100, 0), pig_taker=0)
    text = m.table()
    assert text.splitlines()[0].split() == ["deal", "Ann", "Bob", "Cid", "Dee"]
    assert text.splitlines()[1].split() == ["1", "-600", "0", "100", "0"]
    assert "dealer Bob, leader Ann" in text
    m = m.add_totals((-500, 0, 0, 0))
    assert str(m).endswith(
        "Over after 2 deals (loss threshold): Cid won the match; Ann lost it."
    )
    assert "pig" not in str(m).splitlines()[-1]  # the loser is not the deal's Q♠ taker
    assert "LOSS_THRESHOLD" in repr(m)


def test_the_end_of_the_match_says_plainly_who_won_and_who_lost() -> None:
    one = Match(names=("Ann", "Bob", "Cid", "Dee")).add_totals((-1000, 50, 50, 0))
    assert one.table().splitlines()[-1] == (
        "Over after 1 deal (loss threshold): Bob and Cid won the match; Ann lost it."
    )
    two = Match(names=("Ann", "Bob", "Cid", "Dee")).add_totals((-1000, -1000, 50, 0))
    assert two.table().splitlines()[-1] == (
        "Over after 1 deal (loss threshold): Cid won the match; Ann and Bob lost it."
    )


def test_table_shows_team_totals_with_partnerships() -> None:
    m = Match(RuleSet(partnerships=True)).add_totals((-100, 0, -50, 20))
    assert "teams: seat 0+seat 2 -150, seat 1+seat 3 20" in m.table()


def test_add_totals_records_the_deal_facts() -> None:
    m = Match().add_totals((200, 0, 0, 0), pig_taker=0, all_hearts_seat=0)
    recorded = m.deals[0]
    assert recorded.totals == (200, 0, 0, 0)
    assert recorded.pig_taker == 0
    assert recorded.all_hearts_seat == 0
    assert recorded.grand_slam_seat is None
    assert recorded[0].all_hearts
    assert not recorded[0].grand_slam
    assert recorded[0].total == 200


# -- properties ----------------------------------------------------------------------

deal_totals = st.tuples(*[st.integers(-1600, 1000)] * 4)
plain_rules = st.builds(
    RuleSet,
    loss_threshold=st.sampled_from([None, -500, -1000]),
    loss_inclusive=st.booleans(),
    win_threshold=st.sampled_from([None, 500, 1000]),
    max_deals=st.sampled_from([None, 1, 5, 30]),
    simultaneous_loss=st.sampled_from(SimultaneousLoss),
    partnerships=st.booleans(),
)


def play_until_over(rules: RuleSet, deals: list[tuple[int, ...]]) -> tuple[Match, int]:
    """Add deals while the match runs; return it and how many were added."""
    m = Match(rules)
    used = 0
    for totals in deals:
        if m.is_over:
            break
        m = m.add_totals(totals)
        used += 1
    return m, used


@given(plain_rules, st.lists(deal_totals, max_size=12))
def test_totals_are_the_column_sums_of_the_deals_without_flips_or_rotation(
    rules: RuleSet, deals: list[tuple[int, ...]]
) -> None:
    m, used = play_until_over(rules, deals)
    expected = tuple(sum(d[s] for d in deals[:used]) for s in range(4))
    assert m.totals == expected
    assert m.deal_count == used
    assert len(m.history) == used
    assert tuple(sum(d.totals[s] for d in m.deals) for s in range(4)) == expected


@given(plain_rules, st.lists(deal_totals, min_size=1, max_size=12))
def test_a_match_never_continues_after_it_is_over(
    rules: RuleSet, deals: list[tuple[int, ...]]
) -> None:
    m = Match(rules)
    for i, totals in enumerate(deals):
        if m.is_over:
            with pytest.raises(MatchError):
                m.add_totals(totals)
            # Every earlier state was running: the match ended at the last add.
            assert all(not played(rules, *deals[:k]).is_over for k in range(i))
            return
        m = m.add_totals(totals)


@given(plain_rules, st.lists(deal_totals, max_size=12))
def test_standings_are_the_seats_sorted_by_total_highest_first(
    rules: RuleSet, deals: list[tuple[int, ...]]
) -> None:
    m, _ = play_until_over(rules, deals)
    order = m.standings()
    assert sorted(order) == [0, 1, 2, 3]
    keys = [(-m.totals[s], s) for s in order]
    assert keys == sorted(keys)


@given(plain_rules, st.lists(deal_totals, max_size=12))
def test_a_finished_match_has_losers_who_hold_the_lowest_total_of_their_kind(
    rules: RuleSet, deals: list[tuple[int, ...]]
) -> None:
    m, _ = play_until_over(rules, deals)
    units = m.team_totals if rules.partnerships else m.totals
    assert units is not None
    if not m.is_over:
        assert m.losers == () == m.winners
        return
    assert m.losing_teams
    assert not set(m.losing_teams) & set(m.winning_teams)
    lowest = min(units)
    if rules.simultaneous_loss is SimultaneousLoss.LOWEST:
        # Without flips or slams the pig is whoever holds the lowest total (000 §08, 001).
        assert {units[u] for u in m.losing_teams} == {lowest}
        assert set(m.losing_teams) == {u for u, t in enumerate(units) if t == lowest}
    else:
        assert lowest in {units[u] for u in m.losing_teams}
    if m.winning_teams:
        assert {units[u] for u in m.winning_teams} == {
            max(t for u, t in enumerate(units) if u not in m.losing_teams)
        }


@given(st.lists(deal_totals, max_size=8))
def test_team_totals_are_the_sums_of_partners(deals: list[tuple[int, ...]]) -> None:
    m, _ = play_until_over(RuleSet(partnerships=True), deals)
    t = m.totals
    assert m.team_totals == (t[0] + t[2], t[1] + t[3])


@given(st.lists(deal_totals, min_size=1, max_size=8), st.integers(0, 3))
def test_rotation_moves_each_total_one_seat_on(
    deals: list[tuple[int, ...]], slam_seat: int
) -> None:
    rules = RuleSet(loss_threshold=None, grand_slam_outcome="rotate")
    m = played(rules, *deals[:-1])
    before = m.totals
    last = deals[-1]
    after = m.add_totals(last, grand_slam_seat=slam_seat).totals
    summed = [b + d for b, d in zip(before, last, strict=True)]
    assert after == tuple(summed[s - 1] for s in range(4))


# -- with the play engine ------------------------------------------------------------


def play_out(round_: Round) -> Round:
    """Finish a deal by always playing the lowest legal card (every seat declines exposure)."""
    round_ = round_.pass_exposure()
    while not round_.is_over:
        round_ = round_.play(min(round_.legal_plays, key=lambda c: c.index))
    return round_


def test_a_match_of_real_rounds_feeds_leader_and_dealer_to_the_next_deal() -> None:
    # RULES.md §5: the pig taker leads later deals; the dealer rotates.
    rules = RuleSet(max_deals=6)
    m = Match(rules, first_dealer=1)
    previous_pig_taker = None
    for n in range(6):
        r = deal(rules=rules, seed=n, leader=m.next_leader, dealer=m.dealer)
        assert r.dealer == (1 + n) % 4
        if previous_pig_taker is not None:
            assert r.leader == previous_pig_taker
        finished = play_out(r)
        with pytest.raises(MatchError, match="not complete"):
            m.add(r)
        before = m.totals
        m = m.add(finished)
        assert m.deals[-1].totals == finished.score().totals
        if not m.is_over:
            assert m.totals == tuple(a + b for a, b in zip(before, m.deals[-1].totals, strict=True))
        previous_pig_taker = finished.score().pig_taker
        if m.is_over:
            break
    assert m.is_over


def test_arguments_of_the_wrong_type_are_type_errors_and_match_errors() -> None:
    from gongzhu.errors import MatchError, MatchTypeError

    for bad in ({"rules": 5}, {"names": 42}, {"names": ["a", "b", "c", 4]},
                {"first_dealer": "1"}):  # fmt: skip
        with pytest.raises(MatchTypeError) as caught:
            Match(**bad)
        assert isinstance(caught.value, TypeError)
        assert isinstance(caught.value, MatchError)
    for bad_value in ({"first_dealer": 7}, {"names": ["a", "a", "b", "c"]}):
        with pytest.raises(MatchError) as refused:
            Match(**bad_value)
        assert not isinstance(refused.value, TypeError)
