"""Every worked scoring example of RULES.md §3.1 and §7.1 and every number in the seeds.

Each example scores a *full* deal: the scored player (seat 0) takes the listed
cards, a second player (seat 1) takes what the example says "another player"
took, and the rest of the deck is spread round-robin over the remaining seats
(so nobody else sweeps the hearts by accident). Test ids name the source.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from gongzhu import (
    ACE_OF_HEARTS,
    PIG,
    SHEEP,
    TRANSFORMER,
    Card,
    CardSet,
    DealError,
    GongzhuError,
    RuleSet,
    TransformerEffect,
    exposure_preview,
    parse_cards,
    score,
)

ALL = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
"""All 13 hearts."""

CLASSIC = RuleSet()
ONLINE = RuleSet.preset("online")
CZECH_VARIANT = RuleSet.preset("czech-variant")
CATCH_THE_PIG = RuleSet.preset("catch-the-pig")


def deal(seat0: str, seat1: str | None = None, rules: RuleSet = CLASSIC) -> list[CardSet]:
    """Full captures: seat 0 takes ``seat0``, seat 1 ``seat1`` (if given), the rest round-robin."""
    taken = [parse_cards(seat0)]
    if seat1 is not None:
        taken.append(parse_cards(seat1))
    used = CardSet()
    for pile in taken:
        assert used.isdisjoint(pile)
        used |= pile
    rest = rules.deck - used
    others = rules.players - len(taken)
    extra: list[list[Card]] = [[] for _ in range(others)]
    for i, card in enumerate(rest):
        extra[i % others].append(card)
    piles = taken + [CardSet(p) for p in extra]
    assert sum(len(p) for p in piles) == len(rules.deck)
    return piles


def seat0_total(
    seat0: str,
    seat1: str | None = None,
    exposed: str | Mapping[Card | str, int] = "",
    rules: RuleSet = CLASSIC,
) -> int:
    result = score(deal(seat0, seat1, rules), exposed, rules=rules)
    return result.totals[0]


# -- RULES.md §3.1: the worked examples under the default rules ------------------

SECTION_3_1 = [
    pytest.param("AC TC QS JD", None, "", 0, id="000§07 AC TC QS JD = 2×(-100+100) = 0"),
    pytest.param("TC QS 7H", None, "", -220, id="000§07 10C QS 7H = -220"),
    pytest.param("TC QS 7H", None, "TC QS", -840, id="000§07 10C QS 7H, 10C QS exposed = -840"),
    pytest.param("TC 3H", None, "", 0, id="000§04/§07, 003, 004 10C 3H = 0"),
    pytest.param(f"{ALL} QS JD", None, "", 400, id="000§05 all hearts QS JD = +400"),
    pytest.param(f"{ALL} QS JD TC", None, "", 800, id="000§05 all hearts QS JD 10C = +800"),
    pytest.param("QS", ALL, "", -100, id="000§05 QS, another took all hearts = -100"),
    pytest.param("JD", ALL, "", 100, id="000§05 JD, another took all hearts = +100"),
    pytest.param(ALL, None, "AH", 400, id="000§06 all hearts, AH exposed = +400"),
    pytest.param("TC", None, "TC", 100, id="000§06, 002, 004 10C alone exposed = +100"),
    pytest.param("TC KH 7H", None, "", -100, id="001 10C KH 7H = -100"),
    pytest.param("5H 6H JH JD", None, "", 60, id="001 5H 6H JH JD = +60"),
    pytest.param("QS KH AH 2H", None, "", -190, id="001 QS KH AH 2H = -190"),
    pytest.param("4H 7H 8H 9H TH QH", None, "", -70, id="001 six hearts = -70"),
    pytest.param("4H 5H 9H JH KH JD TC", "AH", "AH JD", 80, id="002 case 1 = 2×(2×-80+200) = +80"),
    pytest.param(ALL, None, "", 200, id="002 case 2 all hearts = +200"),
    pytest.param(ALL, None, "AH", 400, id="002 case 2 all hearts, AH exposed = +400"),
    pytest.param(f"{ALL} TC", None, "", 400, id="002 case 3 all hearts 10C = +400"),
    pytest.param(f"{ALL} TC", None, "TC", 800, id="002 case 3 ... 10C exposed = +800"),
    pytest.param(f"{ALL} TC", None, "AH", 800, id="002 case 3 ... AH exposed = +800"),
    pytest.param(f"{ALL} TC", None, "AH TC", 1600, id="002 case 3 ... AH 10C exposed = +1600"),
    pytest.param(f"{ALL} QS", None, "", 300, id="002 case 4 all hearts QS = +300"),
    pytest.param(f"{ALL} QS", None, "QS", 400, id="002 case 4 ... QS exposed = +400"),
    pytest.param(f"{ALL} QS", None, "AH", 500, id="002 case 4 ... AH exposed = +500"),
    pytest.param(f"{ALL} QS", None, "AH QS", 600, id="002 case 4 ... AH QS exposed = +600"),
    pytest.param(
        f"{ALL} QS JD TC", None, "AH QS JD TC", 3200, id="002 case 5 all four exposed = +3200"
    ),
    pytest.param(
        "5H 6H 7H 8H 9H TH JH QH KH AH QS TC",
        None,
        "AH QS TC",
        -2400,
        id="002 case 6 5H-AH QS 10C, three exposed = -2400",
    ),
    pytest.param("QS TC AH", None, "QS TC AH", -1200, id="002 QS 10C AH all exposed = -1200"),
    pytest.param(
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", None, "AH", -300, id="002 all but AH = -300"
    ),
    pytest.param("TC QS JH QH KH TH", None, "TC", -800, id="003 10C with -200, exposed = -800"),
    # Numbers stated in the seeds' running text rather than in the table.
    pytest.param("TC", None, "", 50, id="000§04, 001, 002, 003, 004 10C alone = +50"),
    pytest.param("QS", None, "QS", -200, id="001, 002, 003 exposed pig = -200"),
    pytest.param("JD", None, "JD", 200, id="001, 003 exposed sheep = +200"),
    pytest.param(f"{ALL} QS", None, "QS", 400, id="003 all hearts + exposed QS = 200+200"),
    pytest.param(ALL, None, "AH", 400, id="001, 003, 004 all hearts AH exposed = +400"),
    pytest.param("TC 2H", None, "", 0, id="003 10C with 2H = 0"),
    pytest.param("TC 4H", None, "", 0, id="003 10C with 4H = 0"),
    pytest.param(f"{ALL} QS", None, "", 300, id="003, 004 all hearts + pig = +300"),
]


@pytest.mark.parametrize(("seat0", "seat1", "exposed", "expected"), SECTION_3_1)
def test_rules_3_1_worked_example(
    seat0: str, seat1: str | None, exposed: str, expected: int
) -> None:
    assert seat0_total(seat0, seat1, exposed) == expected


def test_seeds_001_example_deal_under_the_online_rules() -> None:
    """seeds/001 "Пример подсчёта": the four players' deal scores, +60 −190 +50 −70."""
    points = ["5H 6H JH JD", "QS KH AH 2H", "TC 3H", "4H 7H 8H 9H TH QH"]
    piles = [list(parse_cards(p)) for p in points]
    rest = ONLINE.deck - parse_cards(" ".join(points))
    assert not rest & parse_cards(f"{ALL} QS JD TC")
    for i, card in enumerate(rest):
        piles[i % 4].append(card)
    assert score(piles, (), rules=ONLINE).totals == (60, -190, 50, -70)
    # Under the default (000) rules North's 10♣ + 3♥ scores 0, not +50.
    assert score(piles).totals == (60, -190, 0, -70)


# -- RULES.md §7.1: worked examples for options ----------------------------------

SECTION_7_1 = [
    pytest.param(ONLINE, "TC 2H", None, "", 50, id="001 zero hearts not point cards 10C 2H = +50"),
    pytest.param(ONLINE, "TC 3H", None, "", 50, id="001 zero hearts not point cards 10C 3H = +50"),
    pytest.param(
        ONLINE, f"{ALL} QS JD TC", None, "JD", 1000, id="001 sign swap grand slam, JD exp = +1000"
    ),
    pytest.param(ONLINE, "QS", ALL, "", 100, id="001 sign swap QS, another all hearts = +100"),
    pytest.param(ONLINE, "JD", ALL, "", -100, id="001 sign swap JD, another all hearts = -100"),
    pytest.param(
        RuleSet(heart_values="face-value"), "2H 3H 4H", None, "", -15, id="003 v1 face value = -15"
    ),
    pytest.param(CZECH_VARIANT, ALL, None, "", 200, id="004 bundle face value all hearts = +200"),
    pytest.param(
        RuleSet(grand_slam="15", grand_slam_outcome="fixed"),
        f"{ALL} QS JD",
        None,
        "",
        1000,
        id="003 v3 15-card grand slam fixed = +1000",
    ),
    pytest.param(
        CZECH_VARIANT, f"{ALL} QS JD TC", None, "", 1000, id="004 bundle 16-card slam = +1000"
    ),
    pytest.param(
        RuleSet(pig_sheep_together=True), f"{ALL} QS", None, "", -300, id="004 Man Juan = -300"
    ),
    pytest.param(
        RuleSet(pig_sheep_together=True), ALL, None, "", -200, id="004 Man Juan hearts only = -200"
    ),
    pytest.param(
        RuleSet(pig_sheep_together=True),
        f"{ALL} QS JD",
        None,
        "",
        400,
        id="004 Man Juan with the sheep = +400",
    ),
    pytest.param(CZECH_VARIANT, f"{ALL} QS", None, "", 300, id="004 bundle zero sum AH QS = +300"),
    pytest.param(CZECH_VARIANT, "JD", f"{ALL} QS", "", -100, id="004 bundle zero sum JD = -100"),
    pytest.param(
        CZECH_VARIANT, f"{ALL} QS JD", None, "", 200, id="004 bundle zero sum all QS JD = +200"
    ),
    pytest.param(
        CZECH_VARIANT.replace(grand_slam_outcome="lines"),
        f"{ALL} QS JD TC",
        None,
        "",
        400,
        id="004 bundle by the lines: 2×(200+100-100) = +400",
    ),
    # Found by the reference scorer: 004 says pig + sheep "is always 0", so a pig
    # that stays −100 for the all-hearts taker leaves the sheep at +100.
    pytest.param(
        RuleSet(pig_sheep_zero_sum=True, pig_with_all_hearts="unchanged"),
        "JD",
        f"{ALL} QS",
        "",
        100,
        id="004 bundle zero sum with an unchanged pig: JD = +100",
    ),
]


@pytest.mark.parametrize(("rules", "seat0", "seat1", "exposed", "expected"), SECTION_7_1)
def test_rules_7_1_worked_example(
    rules: RuleSet, seat0: str, seat1: str | None, exposed: str, expected: int
) -> None:
    assert seat0_total(seat0, seat1, exposed, rules) == expected


def test_zero_sum_with_an_unchanged_pig_scores_the_taker_by_the_lines() -> None:
    # RULES.md §7 zero sum + pig_with_all_hearts=unchanged: 200 − 100 for the taker.
    rules = RuleSet(pig_sheep_zero_sum=True, pig_with_all_hearts="unchanged")
    result = score(deal("JD", f"{ALL} QS", rules), (), rules=rules)
    assert result[1].pig == -100
    assert result[0].sheep == 100
    assert result.totals[:2] == (100, 100)


# -- the sheet lines ----------------------------------------------------------------


def test_sheet_lines_of_the_000_minus_840_example() -> None:
    p = score(deal("TC QS 7H"), "TC QS")[0]
    assert (p.hearts, p.pig, p.sheep, p.base) == (-10, -200, 0, -210)
    assert p.transformer is TransformerEffect.MULTIPLIER
    assert p.multiplier == 4
    assert p.total == -840
    assert p.transformer_line == "×4"
    rows = dict(p.lines(running_before=40))
    assert rows["④ base"] == "-210"
    assert rows["⑥ deal"] == "-840"
    assert rows["⑦ total"] == "-800"


def test_sheet_lines_of_002_case_1() -> None:
    p = score(deal("4H 5H 9H JH KH JD TC", "AH"), "AH JD")[0]
    assert (p.hearts, p.pig, p.sheep, p.base, p.multiplier, p.total) == (-160, 0, 200, 40, 2, 80)


def test_sheet_lines_of_the_001_grand_slam_with_the_sign_swap() -> None:
    p = score(deal(f"{ALL} QS JD TC", rules=ONLINE), "JD", rules=ONLINE)[0]
    assert (p.hearts, p.pig, p.sheep, p.base, p.multiplier) == (200, 100, 200, 500, 2)
    assert p.grand_slam
    assert p.all_hearts


def test_sheet_lines_of_a_lone_exposed_transformer() -> None:
    p = score(deal("TC AC"), "TC")[0]
    assert (p.hearts, p.pig, p.sheep, p.base) == (0, 0, 0, 0)
    assert p.transformer is TransformerEffect.LONE_BONUS
    assert p.lone_transformer
    assert p.multiplier == 1
    assert p.transformer_line == "+100"
    assert p.total == 100


def test_sheet_lines_of_the_fixed_grand_slam() -> None:
    p = score(deal(f"{ALL} QS JD TC", rules=CZECH_VARIANT), (), rules=CZECH_VARIANT)[0]
    assert p.fixed
    assert p.total == 1000
    assert "(grand slam, fixed)" in p.sheet()


def test_sheet_text_has_the_seven_lines_of_001() -> None:
    text = score(deal("TC QS 7H"))[0].sheet()
    for label in ("① hearts", "② pig", "③ sheep", "④ base", "⑤ transformer", "⑥ deal", "⑦ total"):
        assert label in text


def test_a_player_without_10c_has_no_transformer_line() -> None:
    p = score(deal("QS 7H"))[0]
    assert p.transformer is TransformerEffect.NONE
    assert p.transformer_line == "none"
    assert p.total == p.base == -110


# -- flags and deal facts ------------------------------------------------------------


def test_flags_for_a_small_slam() -> None:
    result = score(deal(f"{ALL} QS"))
    assert result.all_hearts_seat == 0
    assert result.grand_slam_seat is None
    assert result.pig_taker == 0
    assert result[0].all_hearts
    assert not result[0].grand_slam
    assert not any(p.all_hearts for p in result.players[1:])


def test_flags_for_a_grand_slam_16_and_15() -> None:
    assert score(deal(f"{ALL} QS JD TC")).grand_slam_seat == 0
    assert score(deal(f"{ALL} QS JD")).grand_slam_seat is None
    fifteen = RuleSet(grand_slam="15")
    assert score(deal(f"{ALL} QS JD", rules=fifteen), (), rules=fifteen).grand_slam_seat == 0


def test_flags_for_the_lone_transformer_and_the_pig_taker() -> None:
    result = score(deal("TC 2C", "QS"))
    assert result[0].lone_transformer
    assert not result[1].lone_transformer
    assert result.pig_taker == 1
    assert result.all_hearts_seat is None
    assert score(deal("TC 2H"))[0].lone_transformer is False


# -- partnerships -------------------------------------------------------------------


def test_team_totals_add_partners_opposite() -> None:
    # RULES.md §7 pairs (library's reading, pagat): seats 0+2 against 1+3.
    rules = RuleSet(partnerships=True)
    piles = ["QS AC", "TC 2C", f"JD {ALL}", "KC"]
    result = score(piles, (), rules=rules)
    assert result.totals == (-100, 50, 300, 0)
    assert result.team_totals == (200, 50)
    # issue #15 item 8: without pairs each seat is a team of one.
    assert score(piles).team_totals == score(piles).totals


# -- the Q♦ bonus hook (002 v7) ---------------------------------------------------------


def test_queen_of_diamonds_bonus_is_added_after_the_transformer() -> None:
    rules = RuleSet(queen_of_diamonds_bonus=10)
    piles = deal("QD TC 7H")
    result = score(piles, (), rules=rules, queen_bonus_tricks=[3, 5, 0, 0])
    assert result[0].bonus == 30
    assert result.totals[0] == 2 * -10 + 30
    assert result[1].bonus == 0  # only the Q♦ taker's count counts


def test_queen_of_diamonds_bonus_is_off_by_default_and_without_counts() -> None:
    piles = deal("QD TC 7H")
    assert score(piles, (), rules=CLASSIC, queen_bonus_tricks=[3, 0, 0, 0]).totals[0] == -20
    assert score(piles, (), rules=RuleSet(queen_of_diamonds_bonus=10)).totals[0] == -20


def test_queen_bonus_counts_must_match_the_piles() -> None:
    with pytest.raises(DealError):
        score(deal("QD"), (), rules=RuleSet(queen_of_diamonds_bonus=10), queen_bonus_tricks=[1])


# -- exposure factors: "Chyťte prase" (004), blind exposure (004) ----------------------


@pytest.mark.parametrize(
    ("rules", "seat0", "exposed", "expected"),
    [
        pytest.param(CATCH_THE_PIG, "QS", "QS", -400, id="004 catch-the-pig face-up pig = -400"),
        pytest.param(CATCH_THE_PIG, "TC 7H", "TC", -80, id="004 catch-the-pig face-up 10C ×8"),
        pytest.param(CATCH_THE_PIG, "TC", "TC", 200, id="004 catch-the-pig face-up lone = +200"),
        pytest.param(CATCH_THE_PIG, "QS", {PIG: 2}, -200, id="004 catch-the-pig face-down pig"),
        pytest.param(CATCH_THE_PIG, "TC 7H", {"TC": 2}, -40, id="004 face-down 10C ×4"),
        pytest.param(CATCH_THE_PIG, "JD", "JD", 400, id="004 catch-the-pig face-up sheep = +400"),
        pytest.param(CATCH_THE_PIG, ALL, "AH", 800, id="004 catch-the-pig face-up AH = 4×200"),
        pytest.param(RuleSet(blind_exposure=True), "QS", {PIG: 4}, -400, id="004 blind pig = -400"),
        pytest.param(
            RuleSet(blind_exposure=True), "TC QS", {TRANSFORMER: 4}, -800, id="004 blind 10C ×8"
        ),
        pytest.param(
            RuleSet(exposed_sheep_value=-200), "JD", "JD", -200, id="004 negative sheep = -200"
        ),
        pytest.param(
            RuleSet(exposed_sheep_value=-400), "JD", "JD", -400, id="004 negative sheep = -400"
        ),
        pytest.param(
            RuleSet(exposed_sheep_value=-200), "JD", "", 100, id="004 unexposed sheep stays +100"
        ),
        pytest.param(
            RuleSet(exposed_sheep_value=-200),
            "JD TC",
            "JD TC",
            -800,
            id="004 negative sheep under the exposed 10C = 4×-200",
        ),
    ],
)
def test_exposure_factor_example(
    rules: RuleSet, seat0: str, exposed: str | dict[Card, int], expected: int
) -> None:
    assert seat0_total(seat0, None, exposed, rules) == expected


def test_a_plain_exposure_is_face_up() -> None:
    from gongzhu import exposure_factors

    assert exposure_factors("QS TC") == {TRANSFORMER: 2, PIG: 2}
    assert exposure_factors("QS", rules=CATCH_THE_PIG) == {PIG: 4}


def test_exposing_a_card_that_is_not_exposable_is_a_deal_error() -> None:
    with pytest.raises(DealError):
        score(deal("QS"), "QS", rules=CZECH_VARIANT)  # exposure is off in the bundle
    with pytest.raises(DealError):
        score(deal("QS"), "KS")
    with pytest.raises(DealError):
        score(deal("QS"), {PIG: 0})


# -- the pig of the all-hearts taker, the all-hearts value, zero hearts ----------------


@pytest.mark.parametrize(
    ("rules", "seat0", "expected"),
    [
        pytest.param(
            RuleSet(pig_with_all_hearts="grand-slam-only"),
            f"{ALL} QS",
            100,
            id="002 glossary pig only in a grand slam: 200-100",
        ),
        pytest.param(
            RuleSet(pig_with_all_hearts="grand-slam-only"),
            f"{ALL} QS JD TC",
            800,
            id="002 glossary grand slam: 2×(200+100+100)",
        ),
        pytest.param(
            RuleSet(pig_with_all_hearts="grand-slam-only", grand_slam="15"),
            f"{ALL} QS JD",
            400,
            id="002 glossary, 003 15-card grand slam: 200+100+100",
        ),
        pytest.param(
            RuleSet(pig_with_all_hearts="unchanged"),
            f"{ALL} QS",
            100,
            id="001 swap off: pig unchanged 200-100",
        ),
        pytest.param(
            RuleSet(pig_with_all_hearts="unchanged"),
            f"{ALL} QS JD TC",
            400,
            id="001 swap off grand slam: 2×(200-100+100)",
        ),
        pytest.param(
            ONLINE.replace(sign_swap=False),
            f"{ALL} QS",
            100,
            id="001 online with the swap off: pig stays -100",
        ),
        pytest.param(RuleSet(all_hearts_value=400), ALL, 400, id="001 house rule all hearts +400"),
        pytest.param(RuleSet(all_hearts_value=None), ALL, -200, id="all-hearts value off"),
        pytest.param(
            RuleSet(all_hearts_value=None), f"{ALL} QS", -300, id="all-hearts value off + pig"
        ),
    ],
)
def test_all_hearts_option_example(rules: RuleSet, seat0: str, expected: int) -> None:
    assert seat0_total(seat0, None, "", rules) == expected


def test_all_hearts_value_is_doubled_by_the_exposed_ace() -> None:
    assert seat0_total(ALL, None, "AH", RuleSet(all_hearts_value=400)) == 800
    assert seat0_total(ALL, None, "AH", RuleSet(all_hearts_value=None)) == -400


@pytest.mark.parametrize(
    ("rules", "seat0", "expected"),
    [
        pytest.param(CLASSIC, "TC 2H", 0, id="000§04 10C 2H = 0"),
        pytest.param(CLASSIC, "TC 3H", 0, id="000§04 10C 3H = 0"),
        pytest.param(RuleSet(zero_hearts_are_point_cards=False), "TC 2H", 50, id="001 10C 2H"),
        pytest.param(RuleSet(zero_hearts_are_point_cards=False), "TC 3H", 50, id="001 10C 3H"),
        pytest.param(
            RuleSet(zero_hearts_are_point_cards=False),
            "TC 2H 3H 4H",
            50,
            id="001 10C with all three zero hearts = +50",
        ),
        pytest.param(
            RuleSet(zero_hearts_are_point_cards=False, heart_values="face-value"),
            "TC 2H",
            -4,
            id="face value: 2H is worth -2, so 10C doubles it",
        ),
    ],
)
def test_zero_hearts_option_example(rules: RuleSet, seat0: str, expected: int) -> None:
    assert seat0_total(seat0, None, "", rules) == expected


def test_face_value_hearts_total_minus_200() -> None:
    rules = RuleSet(heart_values="face-value")
    assert seat0_total("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "AH", "", rules) == -150
    assert seat0_total("4H", None, "", rules) == -10  # 003 v1: "except 4♥, −10"


# -- 5 players ---------------------------------------------------------------------------


def test_five_player_deck_has_no_2c_or_2d() -> None:
    rules = RuleSet(players=5)
    with pytest.raises(DealError):
        score(["QS 2C"], (), rules=rules)
    with pytest.raises(DealError):
        score(["2D"], (), rules=rules)
    piles = deal("TC QS 7H", rules=rules)
    assert len(piles) == 5
    assert score(piles, (), rules=rules).totals[0] == -220


def test_more_piles_than_players_is_a_deal_error() -> None:
    with pytest.raises(DealError):
        score(["QS", "JD", "TC", "AH", "KH"])


def test_a_list_of_cards_instead_of_piles_is_a_deal_error() -> None:
    with pytest.raises(DealError) as info:
        score(list(parse_cards("QS JD")))  # type: ignore[arg-type]
    assert isinstance(info.value, GongzhuError)


# -- exposure previews (001: "Свинья −100 → −200") ------------------------------------


def test_exposure_preview_pig_as_in_001() -> None:
    preview = exposure_preview("QS")
    assert (preview.before, preview.after) == (-100, -200)
    assert str(preview) == "Pig -100 → -200"


def test_exposure_preview_each_card() -> None:
    sheep = exposure_preview(SHEEP)
    assert (sheep.before, sheep.after) == (100, 200)
    ten = exposure_preview(TRANSFORMER)
    assert (ten.before, ten.after, ten.lone_before, ten.lone_after) == (2, 4, 50, 100)
    ace = exposure_preview(ACE_OF_HEARTS)
    assert (ace.before, ace.after) == (1, 2)


def test_exposure_preview_follows_the_rules() -> None:
    assert exposure_preview("QS", rules=CATCH_THE_PIG).after == -400
    assert exposure_preview("QS", rules=CATCH_THE_PIG, factor=2).after == -200
    ten = exposure_preview("TC", rules=CATCH_THE_PIG)
    assert (ten.after, ten.lone_after) == (8, 200)
    assert exposure_preview("JD", rules=RuleSet(exposed_sheep_value=-200)).after == -200
    with pytest.raises(DealError):
        exposure_preview("QS", rules=CZECH_VARIANT)
    with pytest.raises(DealError):
        exposure_preview("KS")


def test_preview_matches_what_score_does() -> None:
    """The panel's promise (001) is what scoring delivers for a lone card."""
    for card, pile in ((PIG, "QS"), (SHEEP, "JD")):
        preview = exposure_preview(card)
        assert seat0_total(pile) == preview.before
        assert seat0_total(pile, None, card.code) == preview.after
