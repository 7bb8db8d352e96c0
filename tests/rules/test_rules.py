"""RuleSet: defaults (RULES.md §§1–6), presets (§7.2), validation and serialisation (§7)."""

from __future__ import annotations

import json
import pickle
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gongzhu import (
    ACE_OF_HEARTS,
    FACE_VALUE_HEARTS,
    PIG,
    PRESETS,
    SHEEP,
    STANDARD_HEARTS,
    TRANSFORMER,
    Card,
    CardSet,
    Direction,
    ExposureKind,
    ExposureOrder,
    ExposureRestriction,
    GongzhuError,
    GrandSlam,
    GrandSlamOutcome,
    LaterLeader,
    PigWithAllHearts,
    Rank,
    RuleSet,
    RuleSetError,
    SimultaneousLoss,
    TiedWinners,
)
from gongzhu.rules import OPTION_NAMES
from reference_scorer import scoring_rules

# -- defaults: RULES.md §§1–6 ------------------------------------------------------------


def test_defaults_are_the_rules_of_sections_1_to_6() -> None:
    r = RuleSet()
    # §1: one deck, 4 players each for themselves, no "hearts broken" rule
    assert r.players == 4
    assert r.partnerships is False
    assert r.hand_size == 13
    assert r.deck == CardSet.from_mask((1 << 52) - 1)
    assert r.hearts_must_be_broken is False
    # §2: card values; the hearts total −200; 2–4♥ are point cards
    assert r.heart_values == STANDARD_HEARTS
    assert dict(zip(Rank, r.heart_values, strict=True))[Rank.ACE] == -50
    assert sum(r.heart_values) == -200
    assert r.heart_values[:3] == (0, 0, 0)
    assert r.zero_hearts_are_point_cards is True
    # §3: +200 small slam, the pig turns +100, no sign swap, scored by the lines
    assert r.all_hearts_value == 200
    assert r.pig_with_all_hearts is PigWithAllHearts.POSITIVE
    assert r.sign_swap is False
    assert r.pig_sheep_together is False
    assert r.pig_sheep_zero_sum is False
    assert r.grand_slam_outcome is GrandSlamOutcome.LINES
    assert r.queen_of_diamonds_bonus == 0
    # §4: exposure of the four cards, open ×2, sheep +200, suit restriction
    assert r.exposable == CardSet([ACE_OF_HEARTS, PIG, SHEEP, TRANSFORMER])
    assert r.exposure_kind is ExposureKind.OPEN
    assert r.blind_exposure is False
    assert r.exposed_sheep_value is None  # twice sheep_value
    assert r.effective_exposed_sheep_value == 200
    assert (r.pig_value, r.sheep_value, r.transformer_bonus) == (-100, 100, 50)
    assert r.exposure_restriction is ExposureRestriction.FIRST_TRICK_OF_SUIT
    assert r.hearts_locked_by_exposed_ace is False
    assert r.three_exposed_force_fourth is False
    # §5: counter-clockwise (000), 2♠ opens with any card, later the pig taker
    assert r.direction is Direction.COUNTER_CLOCKWISE
    assert r.opening_card is Card("2S")
    assert r.must_lead_opening_card is False
    assert r.later_leader is LaterLeader.PIG_TAKER
    # §6: ≤ −1000 after a complete deal loses; lowest loses, ties share; no cap
    assert r.loss_threshold == -1000
    assert r.loss_inclusive is True
    assert r.win_threshold is None
    assert r.max_deals is None
    assert r.simultaneous_loss is SimultaneousLoss.LOWEST
    assert r.exact_threshold_flips is False
    assert r.end_when_points_out is False
    assert r.claims is False
    assert r.teams == ((0,), (1,), (2,), (3,))


def test_every_option_has_documentation_and_sources() -> None:
    for field in attrs.fields(RuleSet):
        assert field.metadata["doc"], field.name
        assert field.metadata["sources"], field.name
    assert set(OPTION_NAMES) == {f.name for f in attrs.fields(RuleSet)}


# -- presets: RULES.md §7.2 ---------------------------------------------------------------


def test_preset_names() -> None:
    assert set(PRESETS) >= {
        "classic",
        "online",
        "online-quick",
        "encyclopedia",
        "russian",
        "czech-variant",
        "catch-the-pig",
        "slam-pig",
        "flat-pig",
        "taiwan",
    }
    assert RuleSet.preset("classic") == RuleSet()
    # seeds/004's base rules are seeds/000's: "czech" is another name, not a second preset
    # that preset_name() could never return (issue #15 item 7).
    assert "czech" not in PRESETS
    assert RuleSet.preset("czech") is RuleSet.preset("classic")
    values = list(PRESETS.values())
    assert all(values.count(r) == 1 for r in values), "two presets with the same rules"
    with pytest.raises(RuleSetError):
        RuleSet.preset("bridge")


def test_online_preset_is_seeds_001() -> None:
    r = RuleSet.preset("online")
    assert r.direction is Direction.CLOCKWISE
    assert r.opening_card is Card("2C")
    assert r.must_lead_opening_card is True
    assert r.later_leader is LaterLeader.PIG_TAKER
    assert r.exposure_order is ExposureOrder.SIMULTANEOUS
    assert len(r.exposable) == 4
    assert r.sign_swap is True
    assert r.grand_slam is GrandSlam.SIXTEEN
    assert r.grand_slam_outcome is GrandSlamOutcome.LINES
    assert r.zero_hearts_are_point_cards is False
    assert (r.loss_threshold, r.win_threshold, r.max_deals) == (-1000, 1000, 30)
    # "With the swap off, the pig stays −100 for the all-hearts taker"
    assert r.pig_with_all_hearts is PigWithAllHearts.UNCHANGED


def test_online_quick_preset_is_plus_minus_500() -> None:
    quick = RuleSet.preset("online-quick")
    assert (quick.loss_threshold, quick.win_threshold) == (-500, 500)
    assert set(quick.diff(RuleSet.preset("online"))) == {"loss_threshold", "win_threshold"}


def test_encyclopedia_preset_is_seeds_002() -> None:
    r = RuleSet.preset("encyclopedia")
    assert r.direction is Direction.COUNTER_CLOCKWISE
    assert r.opening_card is Card("2C")
    assert r.must_lead_opening_card is False
    assert r.later_leader is LaterLeader.PIG_TAKER
    assert r.pig_with_all_hearts is PigWithAllHearts.POSITIVE
    assert r.loss_threshold == -1000
    assert r.simultaneous_loss is SimultaneousLoss.ALL_CROSSED


def test_russian_preset_is_seeds_003() -> None:
    r = RuleSet.preset("russian")
    assert r.direction is Direction.CLOCKWISE
    assert r.opening_card is Card("2S")
    assert r.must_lead_opening_card is False
    assert r.later_leader is LaterLeader.OPENING_CARD
    assert r.exposure_restriction is ExposureRestriction.FIRST_TRICK_OF_SUIT
    assert r.loss_threshold == -1000
    # "4 or 5 players, pairs allowed"
    assert r.replace(players=5).hand_size == 10
    assert r.replace(partnerships=True).teams == ((0, 2), (1, 3))


def test_czech_presets_are_seeds_004() -> None:
    czech = RuleSet.preset("czech")
    assert czech.opening_card is Card("2S")
    assert czech.later_leader is LaterLeader.PIG_TAKER
    assert czech.exposure_restriction is ExposureRestriction.FIRST_TRICK_OF_SUIT
    variant = RuleSet.preset("czech-variant")
    assert variant.heart_values == FACE_VALUE_HEARTS
    assert variant.pig_sheep_zero_sum is True
    assert variant.grand_slam is GrandSlam.SIXTEEN
    assert variant.grand_slam_outcome is GrandSlamOutcome.FIXED
    assert variant.grand_slam_value == 1000
    assert variant.exact_threshold_flips is True
    assert variant.exposable == CardSet()
    catch = RuleSet.preset("catch-the-pig")
    assert catch.exposure_kind is ExposureKind.FACE_DOWN_UP
    assert set(catch.diff(czech)) == {"exposure_kind"}


def test_face_value_hearts_are_003_v1() -> None:
    # 2♥…10♥ minus their pips except 4♥ = −10; J −20 … A −50; total still −200.
    assert FACE_VALUE_HEARTS == (-2, -3, -10, -5, -6, -7, -8, -9, -10, -20, -30, -40, -50)
    assert sum(FACE_VALUE_HEARTS) == -200


# -- impossible combinations (RULES.md §7) ----------------------------------------------


@pytest.mark.parametrize(
    ("options", "named"),
    [
        pytest.param({"players": 5, "opening_card": "2C"}, {"players", "opening_card"}, id="5p 2C"),
        pytest.param({"players": 5, "opening_card": "2D"}, {"players", "opening_card"}, id="5p 2D"),
        pytest.param({"players": 3, "opening_card": "2C"}, {"players", "opening_card"}, id="3p 2C"),
        pytest.param({"players": 5, "partnerships": True}, {"players", "partnerships"}, id="pairs"),
        pytest.param({"players": 6}, {"players"}, id="6 players"),
        pytest.param({"loss_threshold": 500}, {"loss_threshold"}, id="positive loss"),
        pytest.param({"loss_threshold": 0}, {"loss_threshold"}, id="zero loss"),
        pytest.param({"win_threshold": -500}, {"win_threshold"}, id="negative win"),
        pytest.param({"max_deals": 0}, {"max_deals"}, id="no deals"),
        pytest.param({"exposable": "KS"}, {"exposable"}, id="KS exposable"),
        pytest.param({"exposable": "QS 2C"}, {"exposable"}, id="2C exposable"),
        pytest.param(
            {"hearts_locked_by_exposed_ace": True, "exposable": "QS TC"},
            {"hearts_locked_by_exposed_ace", "exposable"},
            id="lock without AH",
        ),
        pytest.param(
            {"sign_swap": True, "all_hearts_value": None},
            {"sign_swap", "all_hearts_value"},
            id="swap without small slam",
        ),
        pytest.param(
            {"pig_sheep_zero_sum": True, "all_hearts_value": None},
            {"pig_sheep_zero_sum", "all_hearts_value"},
            id="zero sum without small slam",
        ),
        pytest.param(
            {"exposure_kind": "face-down-up", "exposable": ""},
            {"exposure_kind", "exposable"},
            id="face down without exposure",
        ),
        pytest.param(
            {"blind_exposure": True, "exposable": ""},
            {"blind_exposure", "exposable"},
            id="blind without exposure",
        ),
        pytest.param(
            {"three_exposed_force_fourth": True, "exposable": "QS TC"},
            {"three_exposed_force_fourth", "exposable"},
            id="force fourth with two exposable",
        ),
        pytest.param(
            {"exact_threshold_flips": True, "loss_threshold": None},
            {"exact_threshold_flips", "loss_threshold"},
            id="flip without threshold",
        ),
        pytest.param(
            {"queen_of_diamonds_bonus": -10}, {"queen_of_diamonds_bonus"}, id="negative Q♦"
        ),
        pytest.param({"heart_values": (1, 2)}, {"heart_values"}, id="12 hearts short"),
        pytest.param({"heart_values": (0,) * 12 + (1.5,)}, {"heart_values"}, id="float heart"),
        pytest.param({"heart_values": "weird"}, {"heart_values"}, id="unknown table"),
    ],
)
def test_impossible_combinations_raise_naming_the_options(
    options: dict[str, Any], named: set[str]
) -> None:
    with pytest.raises(RuleSetError) as info:
        RuleSet(**options)
    assert set(info.value.options) == named
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, GongzhuError)
    for name in named:
        assert name in str(info.value)
    # replace() validates the same way
    with pytest.raises(RuleSetError):
        RuleSet().replace(**options)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("players", "4"),
        ("players", 4.0),
        ("players", True),
        ("sign_swap", 1),
        ("sign_swap", "yes"),
        ("direction", "sideways"),
        ("direction", 1),
        ("opening_card", "ZZ"),
        ("opening_card", 12),
        ("grand_slam", 15),
        ("all_hearts_value", True),
        ("all_hearts_value", "200"),
        ("loss_threshold", -1000.0),
        ("exposable", "XX"),
        ("exposable", 7),
        ("pig_with_all_hearts", "sometimes"),
        ("sign_swap", None),
        ("players", None),
    ],
)
def test_wrong_types_raise_rule_set_error_naming_the_option(name: str, value: object) -> None:
    with pytest.raises(RuleSetError) as info:
        RuleSet(**{name: value})
    assert info.value.options == (name,)


def test_unknown_options_are_refused_by_name() -> None:
    with pytest.raises(RuleSetError) as info:
        RuleSet().replace(players=5, colour="red")
    assert info.value.options == ("colour",)
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_dict({"foo": 1, "bar": 2})
    assert set(info.value.options) == {"foo", "bar"}
    with pytest.raises(RuleSetError):
        RuleSet.from_dict({1: 2})  # type: ignore[dict-item]
    with pytest.raises(RuleSetError):
        RuleSet.from_dict(["players"])  # type: ignore[arg-type]


def test_the_previous_rule_set_is_untouched_by_a_refused_change() -> None:
    r = RuleSet(players=5)
    with pytest.raises(RuleSetError):
        r.replace(opening_card="2C")
    assert r.opening_card is Card("2S")


# -- text converters ---------------------------------------------------------------------


def test_text_converters() -> None:
    r = RuleSet(
        direction="clockwise",
        opening_card="2C",
        exposable="QS TC",
        heart_values="face-value",
        grand_slam="15",
        grand_slam_outcome="fixed",
        exposure_kind="face-down-up",
        pig_with_all_hearts="grand-slam-only",
        simultaneous_loss="all-crossed",
        later_leader="opening-card",
    )
    assert r.direction is Direction.CLOCKWISE
    assert r.opening_card is Card("2C")
    assert r.exposable == CardSet([PIG, TRANSFORMER])
    assert r.heart_values == FACE_VALUE_HEARTS
    assert r.grand_slam is GrandSlam.FIFTEEN
    assert r.grand_slam_outcome is GrandSlamOutcome.FIXED
    assert r.exposure_kind is ExposureKind.FACE_DOWN_UP
    assert r.pig_with_all_hearts is PigWithAllHearts.GRAND_SLAM_ONLY
    assert r.simultaneous_loss is SimultaneousLoss.ALL_CROSSED
    assert r.later_leader is LaterLeader.OPENING_CARD
    # enum member names work too, and the typed values are accepted as they are
    assert RuleSet(direction="CLOCKWISE") == RuleSet(direction=Direction.CLOCKWISE)
    assert RuleSet(opening_card="2♣") == RuleSet(opening_card=Card("2C"))
    assert RuleSet(exposable=[PIG, "TC"]).exposable == CardSet([PIG, TRANSFORMER])
    assert RuleSet(heart_values="standard").heart_values == STANDARD_HEARTS
    assert RuleSet(exposable="").exposable == CardSet()


def test_heart_values_from_a_mapping_and_a_list() -> None:
    r = RuleSet(heart_values={"A": -100, Rank.TWO: -1})
    assert r.heart_values[-1] == -100
    assert r.heart_values[0] == -1
    assert r.heart_values[1:-1] == STANDARD_HEARTS[1:-1]
    assert RuleSet(heart_values=list(FACE_VALUE_HEARTS)).heart_values == FACE_VALUE_HEARTS


def test_derived_facts_for_3_and_5_players() -> None:
    five = RuleSet(players=5)
    assert len(five.deck) == 50
    assert Card("2C") not in five.deck
    assert Card("2D") not in five.deck
    assert five.hand_size == 10
    three = RuleSet(players=3)
    assert len(three.deck) == 51
    assert Card("2C") not in three.deck
    assert three.hand_size == 17


# -- serialisation, diff, describe, hashing ------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_to_dict_from_dict_round_trip_for_every_preset(name: str) -> None:
    preset = RuleSet.preset(name)
    data = preset.to_dict()
    assert list(data) == list(OPTION_NAMES)
    assert RuleSet.from_dict(json.loads(json.dumps(data))) == preset
    changes = preset.to_dict(only_changes_from=RuleSet())
    assert RuleSet.from_dict(changes) == preset
    assert set(changes) == set(RuleSet().diff(preset))


@st.composite
def any_rules(draw: st.DrawFn) -> RuleSet:
    """Random valid rule sets: the scoring options plus the play and match options."""
    base = draw(scoring_rules())
    openings = [c for c in base.deck if c.rank in (Rank.TWO, Rank.SEVEN)]
    loss = draw(st.sampled_from([-1000, -500, None]))
    changes: dict[str, Any] = {
        "direction": draw(st.sampled_from(list(Direction))),
        "opening_card": draw(st.sampled_from(openings)),
        "must_lead_opening_card": draw(st.booleans()),
        "later_leader": draw(st.sampled_from(list(LaterLeader))),
        "win_inclusive": draw(st.booleans()),
        "tied_winners": draw(st.sampled_from(list(TiedWinners))),
        "hearts_must_be_broken": draw(st.booleans()),
        "exposure_restriction": draw(st.sampled_from(list(ExposureRestriction))),
        "exposure_order": draw(st.sampled_from(list(ExposureOrder))),
        "end_when_points_out": draw(st.booleans()),
        "claims": draw(st.booleans()),
        "loss_threshold": loss,
        "loss_inclusive": draw(st.booleans()),
        "win_threshold": draw(st.sampled_from([None, 500, 1000])),
        "max_deals": draw(st.sampled_from([None, 1, 30])),
        "simultaneous_loss": draw(st.sampled_from(list(SimultaneousLoss))),
        "exact_threshold_flips": loss is not None and draw(st.booleans()),
        "hearts_locked_by_exposed_ace": ACE_OF_HEARTS in base.exposable and draw(st.booleans()),
        "three_exposed_force_fourth": len(base.exposable) == 4 and draw(st.booleans()),
    }
    if changes["later_leader"] is LaterLeader.ROTATE:
        changes["must_lead_opening_card"] = False  # refused together (rules._validate)
    return base.replace(**changes)


@given(any_rules())
def test_to_dict_from_dict_round_trip_for_random_rule_sets(rules: RuleSet) -> None:
    data = rules.to_dict()
    assert RuleSet.from_dict(json.loads(json.dumps(data))) == rules
    assert RuleSet.from_dict(rules.to_dict(only_changes_from=RuleSet())) == rules
    base = RuleSet.preset("online")
    assert RuleSet.from_dict(rules.to_dict(only_changes_from=base), base=base) == rules


@given(any_rules(), any_rules())
def test_diff_names_exactly_the_differing_options(a: RuleSet, b: RuleSet) -> None:
    diff = a.diff(b)
    assert all(getattr(a, k) != getattr(b, k) for k in diff)
    assert all(getattr(a, k) == getattr(b, k) for k in OPTION_NAMES if k not in diff)
    assert {k: (v2, v1) for k, (v1, v2) in diff.items()} == b.diff(a)
    assert (not diff) == (a == b)
    assert a.replace(**{k: v[1] for k, v in diff.items()}) == b


@given(any_rules())
def test_equal_rule_sets_hash_equal_and_pickle(rules: RuleSet) -> None:
    twin = RuleSet.from_dict(rules.to_dict())
    assert twin == rules
    assert hash(twin) == hash(rules)
    assert {rules: 1}[twin] == 1
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_rule_sets_are_frozen() -> None:
    r = RuleSet()
    with pytest.raises(AttributeError):
        r.players = 5  # type: ignore[misc]
    assert r.players == 4


def test_diff_example() -> None:
    assert RuleSet().diff(RuleSet(players=5)) == {"players": (4, 5)}
    assert RuleSet().diff(RuleSet()) == {}


def test_describe_names_the_preset_and_marks_changes() -> None:
    text = RuleSet.preset("czech-variant").describe()
    assert text.splitlines()[0] == "Rule set czech-variant"
    assert len(text.splitlines()) == 1 + len(OPTION_NAMES)
    changed = RuleSet(players=5, sign_swap=True).describe().splitlines()
    assert changed[0] == "Rule set classic + players=5, sign_swap=yes"
    marked = {line.split()[0] for line in changed[1:] if line.endswith("*")}
    assert marked == {"players", "sign_swap"}
    assert "face-value" in RuleSet.preset("czech-variant").describe()


def test_str_is_the_preset_name_or_the_changes() -> None:
    assert str(RuleSet.preset("online")) == "online"
    assert str(RuleSet(players=5)) == "classic + players=5"
    assert RuleSet(players=5).preset_name() is None
    assert RuleSet.preset("online-quick").preset_name() == "online-quick"
    name, changes = RuleSet.preset("online").replace(max_deals=None).closest_preset()
    assert name == "online"
    assert changes == {"max_deals": (None, 30)}


@given(any_rules())
def test_closest_preset_gives_its_changes_in_the_order_of_diff(rules: RuleSet) -> None:
    name, changes = rules.closest_preset()
    assert changes == rules.diff(PRESETS[name])


@given(any_rules())
def test_a_rule_set_has_one_name_in_text(rules: RuleSet) -> None:
    # str(), nearest_name() and describe()'s first line all say the same name.
    assert str(rules) == rules.nearest_name()
    assert rules.describe().splitlines()[0] == f"Rule set {rules}"
    name, changes = rules.closest_preset()
    assert str(rules) == name if not changes else str(rules).startswith(f"{name} + ")


def test_each_presets_summary_and_sources_are_public() -> None:
    from gongzhu.rules import PRESET_INFO, PresetInfo

    assert list(PRESET_INFO) == list(PRESETS)
    for name, info in PRESET_INFO.items():
        assert isinstance(info, PresetInfo)
        assert info.name == name
        assert info.rules is PRESETS[name]
        assert info.summary
        assert info.sources
        assert info.description
    assert PRESET_INFO["russian"].sources == "seeds/003"


# -- issue #15: naming, repr, new options, presets, precedence ------------------------


def test_names_are_honest_a_preset_only_on_an_exact_match() -> None:
    # A Taiwanese-like set used to print as "czech-variant + …" (issue #15 item 7).
    taiwanish = RuleSet(opening_card="7S", heart_values="face-value", sign_swap=True)
    assert str(taiwanish) == "taiwan + exposable=10♣ J♦ A♥ Q♠, grand_slam_outcome=lines"
    assert taiwanish.describe().splitlines()[0] == f"Rule set {taiwanish}"
    for name, preset in PRESETS.items():
        assert str(preset) == name
        assert preset.preset_name() == name


@given(any_rules())
def test_repr_is_short_and_rebuilds_the_rule_set(rules: RuleSet) -> None:
    text = repr(rules)
    assert eval(text, {"RuleSet": RuleSet}) == rules
    assert text.startswith(("RuleSet(", "RuleSet.preset("))
    # Never longer than spelling out every change from the default.
    assert len(text) <= len(f"RuleSet({RuleSet().to_dict(only_changes_from=rules)})") + 400


def test_repr_of_presets_and_their_changes() -> None:
    assert repr(RuleSet()) == "RuleSet.preset('classic')"
    assert repr(RuleSet.preset("russian").replace(players=5)) == (
        "RuleSet.preset('russian').replace(players=5)"
    )
    assert repr(RuleSet(players=5)) == "RuleSet(players=5)"
    assert len(repr(RuleSet.preset("online"))) < 40


def test_a_rule_set_cannot_be_initialised_again() -> None:
    # issue #11 item 9: PRESETS["classic"].__init__(players=5) changed the shared preset.
    classic = PRESETS["classic"]
    with pytest.raises(RuleSetError, match="immutable"):
        classic.__init__(players=5)  # type: ignore[misc]
    assert classic.players == 4
    assert classic == RuleSet()
    with pytest.raises(TypeError):
        PRESETS["classic"] = RuleSet(players=5)  # type: ignore[index]


@pytest.mark.parametrize(
    ("option", "bad", "message"),
    [
        ("pig_value", 0, "must be negative"),
        ("pig_value", 100, "must be negative"),
        ("sheep_value", 0, "must be positive"),
        ("sheep_value", -100, "must be positive"),
        ("transformer_bonus", -1, "0 or positive"),
        ("pig_value", "-100", "expected int"),
        ("tied_winners", "sometimes", "expected TiedWinners"),
        ("win_inclusive", 1, "expected bool"),
    ],
)
def test_new_options_are_validated(option: str, bad: Any, message: str) -> None:
    with pytest.raises(RuleSetError, match=message) as info:
        RuleSet(**{option: bad})
    assert option in info.value.options


def test_a_rotating_leader_cannot_be_made_to_lead_the_opening_card() -> None:
    # The one new impossible combination (rules._validate lists them all).
    with pytest.raises(RuleSetError) as info:
        RuleSet(later_leader="rotate", must_lead_opening_card=True)
    assert set(info.value.options) == {"later_leader", "must_lead_opening_card"}


def test_slam_pig_preset_is_duanap_and_sdawzy() -> None:
    # duanap/gongzhu RULES.md; sdawzy/gongzhu api/src/env.py calc_score.
    r = RuleSet.preset("slam-pig")
    assert r.pig_with_all_hearts is PigWithAllHearts.GRAND_SLAM_ONLY
    assert r.opening_card is Card("2C")
    assert r.must_lead_opening_card
    assert r.tied_winners is TiedWinners.PLAY_ON
    assert r.grand_slam is GrandSlam.SIXTEEN
    assert r.three_exposed_force_fourth is False


def test_flat_pig_preset_is_mrifoffline() -> None:
    # MrIfOffline Util.py calc_score and OfflineInterface.py prepare_new.
    r = RuleSet.preset("flat-pig")
    assert r.pig_with_all_hearts is PigWithAllHearts.UNCHANGED
    assert r.exposable == CardSet()
    assert r.later_leader is LaterLeader.ROTATE


def test_taiwan_preset_is_the_taiwanese_rule_page() -> None:
    # archive.esut.tp.edu.tw/~drpig/life/Pig_card.htm: 7♠ opens, counter-clockwise,
    # face-value hearts, 豬羊變色, +1000 for all 16, no exposure.
    r = RuleSet.preset("taiwan")
    assert r.opening_card is Card("7S")
    assert not r.must_lead_opening_card
    assert r.direction is Direction.COUNTER_CLOCKWISE
    assert r.heart_values == FACE_VALUE_HEARTS
    assert r.sign_swap
    assert r.exposable == CardSet()
    assert (r.grand_slam_outcome, r.grand_slam_value) == (GrandSlamOutcome.FIXED, 1000)


def test_sign_swap_precedence_over_pig_with_all_hearts_is_shown() -> None:
    # The choice (issue #15 item 6): documented, not refused, because seeds/001 has one
    # switch for the swap, and with it off "the pig stays −100" — online keeps that.
    online = RuleSet.preset("online")
    line = next(x for x in online.describe().splitlines() if "pig_with_all_hearts" in x)
    assert "no effect: sign_swap is on" in line
    assert "pig_with_all_hearts" in attrs.fields_dict(RuleSet)["sign_swap"].metadata["doc"]
    assert "sign_swap" in attrs.fields_dict(RuleSet)["pig_with_all_hearts"].metadata["doc"]
    off = online.replace(sign_swap=False)
    assert "no effect" not in off.describe()


@given(any_rules())
def test_new_options_round_trip_through_dicts_and_records(rules: RuleSet) -> None:
    from gongzhu import deal
    from gongzhu.record import dumps, loads

    data = rules.to_dict()
    for option in (
        "pig_value",
        "sheep_value",
        "transformer_bonus",
        "win_inclusive",
        "tied_winners",
    ):
        assert option in data
    assert RuleSet.from_dict(json.loads(json.dumps(data))) == rules
    rnd = deal(rules=rules, seed=1)
    while rnd.exposure_decided != tuple(range(rules.players)) and rules.exposable:
        seat = next(s for s in range(rules.players) if s not in rnd.exposure_decided)
        try:
            rnd = rnd.expose(CardSet(), seat=seat)
        except GongzhuError:
            break
    assert loads(dumps([rnd])).rules == rules


def test_options_lists_every_option_from_its_definition() -> None:
    import enum

    import attrs

    from gongzhu.rules import OPTION_NAMES, OptionInfo

    listed = RuleSet.options()
    assert all(isinstance(o, OptionInfo) for o in listed)
    assert tuple(o.name for o in listed) == OPTION_NAMES
    defaults = RuleSet()
    for option, field in zip(listed, attrs.fields(RuleSet), strict=True):
        assert option.default == getattr(defaults, option.name)
        assert option.description == field.metadata["doc"]
        assert option.description
        assert option.sources == field.metadata["sources"]
        if issubclass(option.kind, enum.Enum):
            assert option.values == tuple(option.kind)
            for value in option.values:  # every allowed value is accepted, by name or value
                assert getattr(RuleSet(**{option.name: value.value}), option.name) is value
        elif option.kind is bool:
            assert option.values == (False, True)
        else:
            assert option.values == ()
        if option.optional:
            assert option.default is None or RuleSet(**{option.name: None})
        if option.default is not None:
            assert isinstance(option.default, option.kind)
