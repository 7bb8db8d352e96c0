"""Issue #15: card values, the rotating leader, tied winners, pig counts and the program presets.

Every worked example names its source: the seeds, RULES.md, or the programs and
pages quoted in each option's metadata (duanap/gongzhu ``RULES.md``,
sdawzy/gongzhu ``api/src/env.py``, MrIfOffline ``Util.py`` and
``OfflineInterface.py``, the Taiwanese rule page
archive.esut.tp.edu.tw/~drpig/life/Pig_card.htm).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gongzhu import (
    PIG,
    SHEEP,
    TRANSFORMER,
    CardSet,
    EndReason,
    Match,
    RuleSet,
    TiedWinners,
    deal,
    exposure_preview,
    score,
)
from reference_scorer import partitions, scoring_rules

ALL = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
SLAM = ALL + " QS JD TC"
FOUR = "AH QS JD TC"

# -- card values ------------------------------------------------------------------------


def test_a_pig_of_minus_200_and_its_exposure() -> None:
    # issue #15 item 1: "a family rule plays −200"; exposure doubles it as it doubles −100.
    heavy = RuleSet(pig_value=-200)
    assert score("QS", rules=heavy).totals == (-400 // 2,)
    assert score("QS", exposed="QS", rules=heavy).totals == (-400,)
    # 000 §05 with the heavier pig: all hearts turn the pig positive, +200 + 200.
    assert score(ALL + " QS", rules=heavy).totals == (400,)
    assert str(exposure_preview("QS", rules=heavy)) == "Pig -200 → -400"


def test_sheep_and_lone_transformer_values() -> None:
    rules = RuleSet(sheep_value=150, transformer_bonus=80)
    assert score("JD", rules=rules).totals == (150,)
    # exposed_sheep_value None: twice sheep_value, like every other exposed card.
    assert score("JD", exposed="JD", rules=rules).totals == (300,)
    assert score("TC", rules=rules).totals == (80,)
    assert score("TC", exposed="TC", rules=rules).totals == (160,)
    assert str(exposure_preview("TC", rules=rules)) == "Transformer ×2 → ×4 (alone +80 → +160)"
    # An explicit exposed sheep (004 variants: −200) still wins over the doubling.
    assert score("JD", exposed="JD", rules=rules.replace(exposed_sheep_value=-200)).totals == (
        -200,
    )


def test_sign_swap_uses_the_configured_values() -> None:
    # 001's sign swap with a −200 pig and a +150 sheep: the signs turn, not the sizes.
    rules = RuleSet(sign_swap=True, pig_value=-200, sheep_value=150)
    assert score([ALL, "QS", "JD"], rules=rules).totals == (200, 200, -150)


@given(st.data())
def test_scaling_the_pig_scales_the_pig_line_and_nothing_else(data: st.DataObject) -> None:
    rules = data.draw(scoring_rules()).replace(pig_value=-100)
    piles = data.draw(partitions(rules))
    k = data.draw(st.integers(2, 5))
    plain = score(piles, (), rules=rules)
    scaled = score(piles, (), rules=rules.replace(pig_value=-100 * k))
    for a, b in zip(plain.players, scaled.players, strict=True):
        assert b.pig == k * a.pig
        assert (b.hearts, b.sheep) == (a.hearts, a.sheep)
        assert b.base - b.pig == a.base - a.pig


@given(st.data())
def test_scaling_the_sheep_scales_the_sheep_line_and_nothing_else(data: st.DataObject) -> None:
    rules = data.draw(scoring_rules()).replace(sheep_value=100, exposed_sheep_value=None)
    piles = data.draw(partitions(rules))
    exposed = data.draw(st.sampled_from([CardSet(), CardSet([SHEEP])]))
    exposed = exposed if SHEEP in rules.exposable else CardSet()
    k = data.draw(st.integers(2, 5))
    plain = score(piles, exposed, rules=rules)
    scaled = score(piles, exposed, rules=rules.replace(sheep_value=100 * k))
    for a, b in zip(plain.players, scaled.players, strict=True):
        assert b.sheep == k * a.sheep
        assert (b.hearts, b.pig) == (a.hearts, a.pig)


@given(st.data())
def test_the_lone_bonus_is_transformer_bonus_times_its_factor(data: st.DataObject) -> None:
    bonus = data.draw(st.integers(0, 500))
    rules = RuleSet(transformer_bonus=bonus)
    exposed = data.draw(st.sampled_from([CardSet(), CardSet([TRANSFORMER])]))
    result = score("TC 2C 3S", exposed, rules=rules)
    assert result.totals == (bonus * (2 if exposed else 1),)


# -- the presets' scoring ------------------------------------------------------------


def test_slam_pig_turns_the_pig_only_in_a_grand_slam() -> None:
    rules = RuleSet.preset("slam-pig")
    # duanap/gongzhu RULES.md 计分: 满贯 "无亮牌为 +800，四张全亮为 +3200".
    assert score(SLAM, rules=rules).totals == (800,)
    assert score(SLAM, exposed=FOUR, rules=rules).totals == (3200,)
    # All hearts and the pig without the sheep: the pig stays −100 (sdawzy calc_score).
    assert score(ALL + " QS", rules=rules).totals == (100,)


def test_flat_pig_never_turns_the_pig() -> None:
    rules = RuleSet.preset("flat-pig")
    # MrIfOffline Util.py calc_score: all hearts +400 on −200, pig −100, ×2 with 10♣.
    assert score(SLAM, rules=rules).totals == (400,)
    assert score(ALL, rules=rules).totals == (200,)
    assert score(ALL + " QS", rules=rules).totals == (100,)


def test_taiwan_scores_as_the_taiwanese_rule_page() -> None:
    rules = RuleSet.preset("taiwan")
    # Pig_card.htm 【拱豬計分方式】, 豬羊變色:
    assert score(SLAM, rules=rules).totals == (1000,)  # 全吃紅心加豬、羊、梅花10
    assert score(ALL + " QS JD", rules=rules).totals == (200,)  # 加豬、羊
    assert score(ALL + " QS", rules=rules).totals == (300,)  # 加豬
    assert score(ALL + " JD", rules=rules).totals == (100,)  # 加羊
    assert score(ALL, rules=rules).totals == (200,)  # 全吃紅心
    assert score([ALL, "QS", "JD"], rules=rules).totals == (200, 100, -100)  # 豬 +100, 羊 −100
    assert score("TC 5C", rules=rules).totals == (50,)  # 梅花10單吃 +50
    assert score("2H 3H 4H", rules=rules).totals == (-15,)  # 2 = −2, 3 = −3, 4 = −10


# -- the rotating leader ---------------------------------------------------------------


def test_a_rotating_leader_moves_one_seat_each_deal() -> None:
    # MrIfOffline OfflineInterface.py: pstart = (pstart + 1) % 4 before every new deal;
    # its first deal is led by seat 0, which is the seat after dealer 3.
    m = Match(RuleSet.preset("flat-pig"), first_dealer=3)
    leaders = []
    for _ in range(6):
        leaders.append(m.next_leader)
        m = m.add_totals((0, 0, 0, 0), pig_taker=2)
    assert leaders == [0, 1, 2, 3, 0, 1]


def test_a_match_deals_with_the_rotating_leader() -> None:
    rules = RuleSet.preset("flat-pig")
    m = Match(rules, first_dealer=1)
    rnd = deal(rules=rules, seed=5, leader=m.next_leader, dealer=m.dealer)
    assert rnd.leader == 2


# -- tied winners ---------------------------------------------------------------------


def test_tied_leaders_play_on_until_one_leads_alone() -> None:
    # duanap/gongzhu RULES.md 胜负: "累计分最高且唯一的玩家获胜；最高分并列时继续进行完整的
    # 一副牌，直到出现唯一最高分".
    rules = RuleSet.preset("slam-pig")
    m = Match(rules).add_totals((-1000, 300, 300, 0))
    assert not m.is_over
    assert m.playing_on
    assert "playing on" in m.table()
    m = m.add_totals((0, -50, -50, 0))  # still tied at 250
    assert m.playing_on
    m = m.add_totals((100, 0, 40, -20))
    assert m.is_over
    assert not m.playing_on
    assert m.end_reason is EndReason.LOSS_THRESHOLD
    assert m.winners == (2,)
    assert m.losers == (0,)
    assert m.deal_count == 3


def test_tied_winners_share_by_default() -> None:
    # 000 §08 (and today's behaviour): the match ends; equal highest totals share first.
    m = Match().add_totals((-1000, 300, 300, 0))
    assert m.is_over
    assert m.winners == (1, 2)
    assert m.rules.tied_winners is TiedWinners.SHARE


def test_playing_on_goes_past_the_deal_cap() -> None:
    rules = RuleSet(max_deals=1, loss_threshold=None, tied_winners="play-on")
    m = Match(rules).add_totals((50, 50, 0, -100))
    assert m.playing_on
    assert m.deal_count == 1
    m = m.add_totals((10, 0, 0, -10))
    assert m.end_reason is EndReason.DEAL_CAP
    assert m.winners == (0,)


def test_an_instant_win_grand_slam_ends_a_tie_at_once() -> None:
    rules = RuleSet(grand_slam_outcome="instant-win", tied_winners="play-on")
    m = Match(rules).add_totals((800, 800, 0, 0), grand_slam_seat=0)
    assert m.is_over
    assert m.winners == (0,)


@given(st.lists(st.tuples(*[st.integers(-400, 400)] * 4), min_size=1, max_size=40))
def test_a_play_on_match_never_ends_with_a_shared_first_place(
    deals: list[tuple[int, int, int, int]],
) -> None:
    m = Match(RuleSet(loss_threshold=-500, max_deals=5, tied_winners="play-on"))
    for totals in deals:
        if m.is_over:
            break
        m = m.add_totals(totals)
    if m.is_over and m.end_reason is not EndReason.GRAND_SLAM:
        assert m.totals.count(max(m.totals)) == 1
        assert m.winners == (m.totals.index(max(m.totals)),)


# -- win_inclusive -------------------------------------------------------------------------


def test_win_threshold_inclusive_or_only_past_it() -> None:
    # 001: reaching +500 ends the quick game; win_inclusive=False mirrors 002's "go past".
    quick = RuleSet.preset("online-quick")
    assert Match(quick).add_totals((500, 0, 0, -500 + 1)).end_reason is EndReason.WIN_THRESHOLD
    past = quick.replace(win_inclusive=False)
    assert not Match(past).add_totals((500, 0, 0, -499)).is_over
    assert Match(past).add_totals((510, 0, 0, -499)).end_reason is EndReason.WIN_THRESHOLD


# -- pig counts ----------------------------------------------------------------------------


def test_pigs_taken_counts_the_deals_each_seat_took_the_pig() -> None:
    m = Match()
    for piles in (["QS", "JD"], ["AH", "QS"], ["QS 2H", "JD"]):
        ds = score([*piles, "", ""])
        assert ds.pig_taker == next(s for s, p in enumerate(piles) if "QS" in p)
        assert PIG in ds[ds.pig_taker].cards
        assert ds.pig_taker is not None
        m = m.add(ds)
    assert m.pigs_taken == (2, 1, 0, 0)
    assert m.pig_kings == (0,)
    assert Match().pig_kings == ()
    assert sum(m.pigs_taken) == sum(d.pig_taker is not None for d in m.deals)
    assert SHEEP in m.deals[0][1].cards
