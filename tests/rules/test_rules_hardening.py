"""Issue #11 in rules, scoring and match: bounded input, typed errors, frozen objects.

One regression test per item of the outside attack that touched these modules.
"""

from __future__ import annotations

import copy
import itertools
import math
import pickle

import pytest

from gongzhu import (
    PIG,
    PRESETS,
    CardParseError,
    CardSet,
    DealError,
    DealScore,
    GongzhuError,
    Match,
    MatchError,
    RuleSet,
    RuleSetError,
    exposure_preview,
    score,
)

# -- item 2: endless or huge iterables are read only as far as can be valid ----------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: score(itertools.count()),
        lambda: score(range(10**8)),
        lambda: score(itertools.repeat("QS")),
        lambda: score([itertools.repeat("QS")]),
        lambda: score(["QS"], exposed=itertools.repeat("QS")),
        lambda: score(["QS"], queen_bonus_tricks=itertools.count()),
        lambda: score(["QS"], exposed=dict.fromkeys(range(10**5), 2)),
    ],
    ids=["count", "range", "endless-piles", "endless-pile", "endless-exposed", "queen", "dict"],
)
def test_score_refuses_endless_input_quickly(call: object) -> None:
    with pytest.raises(DealError):
        call()  # type: ignore[operator]


def test_queen_bonus_tricks_with_too_many_counts_is_refused() -> None:
    with pytest.raises(DealError, match="one count 0-52 per pile"):
        score(["QS"], queen_bonus_tricks=itertools.count())


def test_match_refuses_endless_names_and_totals() -> None:
    with pytest.raises(MatchError, match="expected 4 names"):
        Match(names=(f"p{i}" for i in itertools.count()))
    with pytest.raises(MatchError, match="4 ints"):
        Match().add_totals(itertools.count())
    with pytest.raises(MatchError, match="4 ints"):
        Match().add_totals(range(10**8))


def test_rule_set_from_a_dict_with_too_many_keys_is_refused() -> None:
    with pytest.raises(RuleSetError, match="only"):
        RuleSet.from_dict({f"k{i}": i for i in range(1000)})


# -- item 6: raw exceptions where a GongzhuError is promised --------------------------------


def _deal_score(**changes: object) -> DealScore:
    fields: dict[str, object] = {
        "totals": (0, 0, 0, 0),
        "rules": RuleSet(),
        "captures": (CardSet(),) * 4,
        "exposed": {},
        "all_hearts_seat": None,
        "grand_slam_seat": None,
        "pig_taker": None,
        "lines": ((0, 0, 0, 0, 0, 1, 0, 0, 0),) * 4,
    }
    fields.update(changes)
    return DealScore(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "changes",
    [
        {"totals": ("x", 0, 0, 0)},
        {"totals": (math.nan, 0, 0, 0)},
        {"totals": (1.5, 0, 0, 0)},
        {"totals": (True, 0, 0, 0)},
        {"totals": (2**60, 0, 0, 0)},
        {"totals": [0, 0, 0, 0]},
        {"grand_slam_seat": 9},
        {"pig_taker": -1},
        {"all_hearts_seat": "0"},
        {"rules": "classic"},
        {"captures": ("QS",) * 4},
        {"exposed": {PIG: 100}},
        {"exposed": "QS"},
        {"lines": ((0, 0, 0, 0, 7, 1, 0, 0, 0),) * 4},
        {"lines": ()},
    ],
)
def test_a_deal_score_with_bad_fields_is_refused(changes: dict[str, object]) -> None:
    # "Match().add(DealScore(...)) accepts str or NaN totals"; "grand_slam_seat=9
    # (StopIteration)": refused when the score is built, before a match sees it.
    with pytest.raises(DealError):
        _deal_score(**changes)


def test_a_valid_hand_made_deal_score_is_added() -> None:
    m = Match().add(_deal_score(totals=(-100, 0, 50, 50), pig_taker=0))
    assert m.totals == (-100, 0, 50, 50)
    assert m.next_leader == 0


def test_add_totals_refuses_a_seat_that_does_not_exist() -> None:
    with pytest.raises(MatchError, match="grand_slam_seat"):
        Match().add_totals((0, 0, 0, 0), grand_slam_seat=9)


# -- item 7: the card parse error keeps its token and position ---------------------------


def test_score_keeps_the_card_parse_error_as_its_cause() -> None:
    with pytest.raises(DealError) as info:
        score("QS 1X")
    cause = info.value.__cause__
    assert isinstance(cause, CardParseError)
    assert (cause.token, cause.position) == ("1X", 1)
    assert "token 2 '1X'" in str(info.value)
    with pytest.raises(DealError) as info:
        score(["QS"], exposed={"1X": 2})
    assert isinstance(info.value.__cause__, CardParseError)


# -- item 9: frozen objects stay frozen --------------------------------------------------


def test_a_preset_cannot_be_reinitialised() -> None:
    with pytest.raises(RuleSetError, match="immutable"):
        PRESETS["classic"].__init__(players=5)  # type: ignore[misc]
    assert PRESETS["classic"] == RuleSet()
    assert PRESETS["classic"].players == 4
    with pytest.raises(TypeError):
        PRESETS["classic"] = RuleSet(players=5)  # type: ignore[index]


def test_scores_matches_and_previews_cannot_be_reinitialised() -> None:
    ds = score(["QS", "JD"], exposed="QS")
    with pytest.raises(GongzhuError, match="immutable"):
        ds.__init__(**_fields_of(score(["JD", "QS"])))  # type: ignore[misc]
    assert ds.totals == (-200, 100)
    player = ds[0]
    with pytest.raises(GongzhuError, match="immutable"):
        player.__init__(0, CardSet(), 0, 0, 0, 0, None, 1, 0, 0, False, False, False, False)  # type: ignore[misc]
    assert player.pig == -200
    m = Match().add(ds.__class__(**_fields_of(score(["QS", "JD", "", ""]))))
    with pytest.raises(MatchError, match="immutable"):
        m.__init__(RuleSet(players=5))  # type: ignore[misc]
    assert m.rules.players == 4
    assert m.totals == (-100, 100, 0, 0)
    preview = exposure_preview("QS")
    with pytest.raises(GongzhuError, match="immutable"):
        preview.__init__(PIG, "Pig", 0, 0)  # type: ignore[misc]
    assert str(preview) == "Pig -100 → -200"


def _fields_of(ds: DealScore) -> dict[str, object]:
    return {
        "totals": ds.totals,
        "rules": ds.rules,
        "captures": ds.captures,
        "exposed": ds.exposed,
        "all_hearts_seat": ds.all_hearts_seat,
        "grand_slam_seat": ds.grand_slam_seat,
        "pig_taker": ds.pig_taker,
        "lines": ds._lines,
    }


def test_the_exposed_mapping_of_a_score_is_read_only() -> None:
    ds = score(["QS", "JD"], exposed="QS")
    with pytest.raises(TypeError):
        ds.exposed[PIG] = 8  # type: ignore[index]
    with pytest.raises(AttributeError):
        ds.exposed._data = {}  # type: ignore[attr-defined]
    assert ds.exposed == {PIG: 2}
    assert ds == score(["QS", "JD"], exposed="QS")
    again = pickle.loads(pickle.dumps(ds))
    assert again == ds
    assert again.exposed == {PIG: 2}
    assert copy.deepcopy(ds) == ds
    assert hash(ds.exposed) == hash(copy.copy(ds.exposed))


def test_set_state_cannot_rewrite_a_finished_object() -> None:
    # The same hole as a second __init__, through pickle's hook.
    classic = PRESETS["classic"]
    with pytest.raises(RuleSetError, match="immutable"):
        classic.__setstate__({**classic.__getstate__(), "players": 5})
    assert classic.players == 4
    ds = score(["QS", "JD"])
    with pytest.raises(DealError, match="immutable"):
        ds.__setstate__({**ds.__getstate__(), "totals": (0, 0)})
    assert ds.totals == (-100, 100)
    m = Match().add(score(["QS", "JD", "", ""]))
    with pytest.raises(MatchError, match="immutable"):
        m.__setstate__({**m.__getstate__(), "rules": RuleSet(players=5)})
    preview = exposure_preview("QS")
    with pytest.raises(DealError, match="immutable"):
        preview.__setstate__({**preview.__getstate__(), "after": 0})
    # Pickling and copying (which use __setstate__ on fresh objects) still work.
    for obj in (classic, ds, ds[0], m, preview):
        assert pickle.loads(pickle.dumps(obj)) == obj
        assert copy.deepcopy(obj) == obj
