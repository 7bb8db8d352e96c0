"""Rules of scoring that mutation testing found untested (docs/how_we_test.rst).

Each test names the rule it checks; it was added because a small change to
``gongzhu.scoring`` (a mutant of ``tools/mutate.py``) broke that rule and no
other test noticed.
"""

from __future__ import annotations

import pytest

from gongzhu import (
    PIG,
    CardSet,
    DealError,
    RandomStrategy,
    RuleSet,
    exposure_factors,
    exposure_preview,
    parse_cards,
    play_deal,
    score,
)

ALL = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
"""All 13 hearts."""

BONUS = RuleSet(queen_of_diamonds_bonus=10)
"""RULES.md §7 Q♦ trick bonus (002 v7): +10 per trick won after the Q♦ trick."""


# -- the score sheet (seeds/001: seven lines, ⑦ = running total) ----------------------


def test_line_7_is_the_deal_total_when_nothing_came_before() -> None:
    # seeds/001 sheet: ⑦ running total = the total before this deal + ⑥.
    result = score(["TC QS 7H", "JD"])
    assert dict(result[0].lines())["⑦ total"] == "-220"
    assert dict(result[0].lines(running_before=-100))["⑦ total"] == "-320"
    sheet = result.sheet()
    assert "⑦ total          -220" in sheet
    assert "⑦ total           100" in sheet


def test_the_sheet_shows_the_queen_of_diamonds_bonus_before_the_deal_line() -> None:
    # RULES.md §7 Q♦ trick bonus (002 v7): the bonus is part of the deal total.
    result = score(["QD TC 7H", "JD"], (), rules=BONUS, queen_bonus_tricks=[3, 0])
    labels = [label for label, _ in result[0].lines()]
    assert labels.index("Q♦ bonus") == labels.index("⑥ deal") - 1
    assert dict(result[0].lines())["Q♦ bonus"] == "+30"
    assert "Q♦ bonus" not in dict(result[1].lines())


@pytest.mark.parametrize("bonus_seat", [0, 1])
def test_the_html_sheet_has_one_queen_bonus_row_whoever_earned_it(bonus_seat: int) -> None:
    # RULES.md §7 Q♦ trick bonus: the row is shown once, for the seat that earned it.
    piles = ["TC 7H", "JD"]
    piles[bonus_seat] += " QD"
    counts = [0, 0]
    counts[bonus_seat] = 2
    html = score(piles, (), rules=BONUS, queen_bonus_tricks=counts)._repr_html_()
    assert html.count("Q♦ bonus") == 1
    assert "+20" in html


def test_the_html_sheet_has_no_queen_bonus_row_without_a_bonus() -> None:
    assert "Q♦ bonus" not in score(["TC 7H", "JD"])._repr_html_()


def test_the_html_sheet_shows_lines_1_to_6_of_a_single_pile() -> None:
    # seeds/001 sheet lines ①-⑥ (⑦ needs the match's running total); a single pile is seat 0.
    html = score("TC QS 7H")._repr_html_()
    for label in ("① hearts", "② pig", "③ sheep", "④ base", "⑤ transformer", "⑥ deal"):
        assert label in html
    assert "⑦" not in html
    assert "-220" in html


# -- deal facts ------------------------------------------------------------------------


def test_a_small_slam_is_not_a_fixed_grand_slam() -> None:
    # RULES.md §7 grand-slam outcome "fixed": only the grand slam gets the fixed value;
    # all hearts with Q♠ but without J♦ is scored by the lines (+300).
    rules = RuleSet(grand_slam_outcome="fixed")
    small = score([f"{ALL} QS", "JD TC"], (), rules=rules)
    assert small[0].all_hearts
    assert not small[0].grand_slam
    assert not small[0].fixed
    assert small.totals[0] == 300
    grand = score([f"{ALL} QS JD TC"], (), rules=rules)
    assert grand[0].fixed
    assert grand[0].grand_slam


def test_zero_sum_leaves_the_sheep_alone_when_the_pig_stays_negative() -> None:
    # RULES.md §7 pig-sheep zero sum (004 bundle): the sheep turns −100 only when the
    # all-hearts taker's pig counts +100. With "pig positive only in a grand slam" and no
    # grand slam, the pig stays −100, so the sheep stays +100.
    rules = RuleSet(pig_sheep_zero_sum=True, pig_with_all_hearts="grand-slam-only")
    assert score([f"{ALL} QS", "JD"], (), rules=rules).totals == (100, 100)


# -- exposure factors (RULES.md §4, 004's face-down/face-up and blind exposures) ---------


def test_an_exposure_factor_of_1_is_the_unexposed_card() -> None:
    # exposure_factors' documented range is 1-64; 1 multiplies nothing.
    piles = ["TC QS 7H", "JD"]
    assert score(piles, {"QS": 1, "TC": 1}).totals == score(piles).totals
    assert exposure_preview("QS", factor=1).after == -100


def test_an_exposure_factor_of_64_is_the_documented_maximum() -> None:
    assert exposure_factors({PIG: 64}) == {PIG: 64}
    assert score(["QS"], {PIG: 64}).totals == (-6400,)
    assert exposure_preview("QS", factor=64).after == -6400
    for bad in (0, 65):
        with pytest.raises(DealError, match="1-64"):
            exposure_factors({PIG: bad})
        with pytest.raises(DealError, match="1-64"):
            exposure_preview("QS", factor=bad)


def test_exposing_when_exposure_is_off_says_so() -> None:
    # RULES.md §7 exposure: off (czech-variant bundle).
    with pytest.raises(DealError, match="exposure is off"):
        score(["QS"], "QS", rules=RuleSet.preset("czech-variant"))


def test_a_bad_exposed_card_is_named_as_a_bad_card() -> None:
    with pytest.raises(DealError, match="bad exposed card") as info:
        exposure_factors({"XX": 2})
    assert "None" not in str(info.value)


def test_an_exposed_cardset_with_a_card_that_cannot_be_exposed_is_refused() -> None:
    # RULES.md §4: only A♥, Q♠, J♦ and 10♣ may be exposed.
    with pytest.raises(DealError, match="cannot be exposed"):
        score(["QS"], parse_cards("QS KS"))
    with pytest.raises(DealError, match="cannot be exposed"):
        score(["QS"], parse_cards("KS"))
    assert score(["TC QS 7H"], parse_cards("TC QS")).totals == (-840,)


def test_exposed_cards_given_as_a_tuple_count() -> None:
    # seeds/000 §07: 10♣ Q♠ 7♥ with 10♣ and Q♠ exposed = 4 × (−200 − 10).
    assert score(["TC QS 7H"], ("TC", "QS")).totals == (-840,)
    assert score(["TC QS 7H"], ()).totals == (-220,)


@pytest.mark.parametrize("garbage", [0, False, 0.0])
def test_an_exposed_argument_that_is_not_cards_is_refused_even_when_falsy(garbage: object) -> None:
    with pytest.raises(DealError):
        score(["QS"], garbage)  # type: ignore[arg-type]


# -- the piles (RULES.md §3: disjoint piles from the rule set's deck) -------------------


def test_a_list_of_cards_is_refused_with_a_hint_to_pass_piles() -> None:
    with pytest.raises(DealError, match="one pile per seat"):
        score(list(parse_cards("QS JD")))  # type: ignore[arg-type]


def test_an_overlap_error_names_only_the_card_taken_twice() -> None:
    with pytest.raises(DealError) as info:
        score(["QS JD", "QS TC"])
    message = str(info.value)
    assert "seat 1" in message
    assert "Q♠" in message
    assert "J♦" not in message
    assert "10♣" not in message


def test_a_card_outside_the_5_player_deck_is_named_alone() -> None:
    # RULES.md §7 players=5: 2♣ and 2♦ are removed from the deck.
    with pytest.raises(DealError) as info:
        score(["QS 2C"], (), rules=RuleSet(players=5))
    assert "2♣" in str(info.value)
    assert "Q♠" not in str(info.value)


# -- the Q♦ bonus counts (score()'s documented contract: one count 0-52 per pile) --------


def test_queen_bonus_counts_are_ints_0_to_52() -> None:
    piles = ["QD", "JD"]
    assert score(piles, (), rules=BONUS, queen_bonus_tricks=[52, 0]).totals == (520, 100)
    assert score(piles, (), rules=BONUS, queen_bonus_tricks=[0, 0]).totals == (0, 100)
    for bad in ([53, 0], [-1, 0], [True, 0], ["1", 0]):
        with pytest.raises(DealError, match="0-52"):
            score(piles, (), rules=BONUS, queen_bonus_tricks=bad)  # type: ignore[arg-type]


# -- a finished round's score (RULES.md §3: a pure function of the captured cards) -------


@pytest.mark.parametrize("rules", [RuleSet(), BONUS], ids=["default", "Q♦ bonus"])
def test_a_finished_rounds_score_holds_the_captured_piles(rules: RuleSet) -> None:
    rnd = play_deal([RandomStrategy(seed=s) for s in range(4)], rules=rules, seed=7)
    result = rnd.score()
    assert result.captures == rnd.captured
    assert [p.cards for p in result.players] == list(rnd.captured)
    everything = CardSet()
    for pile in result.captures:
        everything |= pile
    assert everything == rules.deck
