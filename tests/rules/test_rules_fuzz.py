"""Fuzzing RuleSet: random option dicts are either a valid rule set or a RuleSetError.

``RuleSet(**options)``, ``RuleSet.from_dict``, ``RuleSet.replace`` and
``RuleSet.preset`` take outside data (a CLI flag, a JSON record, a config
file). Whatever they are given they return a working rule set — one that
round-trips through ``to_dict``/JSON, describes itself and can deal, play and
score a deal — or raise :class:`~gongzhu.RuleSetError`. RULES.md §7 lists
the options.
"""

from __future__ import annotations

import enum
import json
from typing import Any

import attrs
import jsonschema
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fuzz_garbage import HUGE, any_int, any_text, garbage, huge_ints, outcome
from gongzhu import PRESETS, Card, CardSet, RuleSet, RuleSetError, deal, protocol
from gongzhu.rules import OPTION_NAMES

# Values a confused or hostile caller might give an option: the right kind of
# thing with a wrong value, the wrong kind, and valid spellings of other options.
plausible = st.one_of(
    st.sampled_from(
        [
            "clockwise",
            "COUNTER_CLOCKWISE",
            "pig-taker",
            "opening-card",
            "positive",
            "grand-slam-only",
            "16",
            "15",
            "fixed",
            "rotate",
            "instant-win",
            "open",
            "face-down-up",
            "none",
            "first-trick-of-deal",
            "in-turn",
            "all-crossed",
            "standard",
            "face-value",
            "2C",
            "2S",
            "7S",
            "QS",
            "QS TC",
            "AH QS JD TC",
            "",
            "2D",
            "QS QS",
            3,
            4,
            5,
            0,
            -1,
            1,
            -1000,
            1000,
            200,
            None,
            True,
            False,
            [0] * 13,
            tuple(range(13)),
            ["x"] * 13,
            [0] * 12,
            {"Q": -30},
            {"Z": 1},
            {2: 5},
            {"10": None},
            {None: 1},
        ]
    ),
    any_int,
    huge_ints.map(lambda n: [n] * 13),
    huge_ints.map(lambda n: {"A": n}),
    garbage,
)


def _right_kind(option: str) -> st.SearchStrategy[Any]:
    """Values of the option's declared kind (as text where text is accepted), in or out of range."""
    field = attrs.fields_dict(RuleSet)[option]
    kind = field.metadata["type"]
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return st.sampled_from([m.value for m in kind])
    if kind is bool:
        return st.booleans()
    if kind is int:
        return st.one_of(st.integers(-2000, 2000), st.none())
    if kind is Card:
        return st.sampled_from(["2S", "2C", "2D", "7S", "AH"])
    if kind is CardSet:
        return st.sets(st.sampled_from(["AH", "QS", "JD", "TC"])).map(" ".join)
    return st.sampled_from(["standard", "face-value"])


option_dicts = st.dictionaries(st.sampled_from(OPTION_NAMES), plausible, max_size=6)
right_kind_dicts = st.sampled_from(OPTION_NAMES).flatmap(
    lambda first: st.dictionaries(
        st.sampled_from(OPTION_NAMES).filter(lambda o: o != first), plausible, max_size=1
    ).flatmap(lambda rest: _right_kind(first).map(lambda v: {first: v, **rest}))
)

any_keys = st.one_of(st.sampled_from(OPTION_NAMES), any_text, any_int, st.none())
hostile_dicts = st.dictionaries(any_keys, plausible, max_size=5)


def _check_works(rules: RuleSet) -> None:
    """An accepted rule set is fully usable: serialisable, describable, comparable."""
    data = rules.to_dict()
    assert RuleSet.from_dict(json.loads(json.dumps(data))) == rules
    assert RuleSet.from_dict(rules.to_dict(only_changes_from=RuleSet())) == rules
    assert rules.describe().splitlines()[0].startswith("Rule set")
    assert str(rules)
    assert hash(rules) == hash(RuleSet(**{k: getattr(rules, k) for k in OPTION_NAMES}))
    assert len(rules.deck) == rules.players * rules.hand_size


def _in_schema_form(options: dict[str, Any]) -> bool:
    validator = jsonschema.Draft202012Validator(protocol.schema("rules"))
    return validator.is_valid(json.loads(json.dumps(options, default=str)))


@given(st.one_of(option_dicts, right_kind_dicts))
@example({"loss_threshold": HUGE})
@example({"players": HUGE})
@example({"heart_values": [HUGE] * 13})
@example({"heart_values": {HUGE: 1}})
@example({"grand_slam_value": HUGE})
def test_constructor_and_from_dict_agree_and_accept_only_working_rule_sets(
    options: dict[str, Any],
) -> None:
    built = outcome(lambda: RuleSet(**options), RuleSetError)
    loaded = outcome(lambda: RuleSet.from_dict(options), RuleSetError)
    if isinstance(built, RuleSet) and isinstance(loaded, RuleSetError):
        # The constructor also takes Python conveniences ("standard", a rank mapping);
        # the JSON reader takes what the published rules schema allows, and nothing more.
        assert "is not a value of the rules schema" in str(loaded)
        assert not _in_schema_form(options)
        return
    # Both refuse, or both build the same rule set. The constructor may say more precisely
    # why (a RuleSetTypeError for a value of the wrong Python type is still a RuleSetError).
    assert isinstance(built, RuleSet) is isinstance(loaded, RuleSet)
    if isinstance(built, RuleSet):
        assert built == loaded
        _check_works(built)


@given(hostile_dicts)
def test_from_dict_of_any_mapping_is_a_rule_set_or_a_rule_set_error(data: dict[Any, Any]) -> None:
    got = outcome(lambda: RuleSet.from_dict(data), RuleSetError)
    if isinstance(got, RuleSet):
        assert set(data) <= set(OPTION_NAMES)
        _check_works(got)
    elif not set(data) <= set(OPTION_NAMES):
        # Unknown keys are named (text keys) or refused as not text.
        assert isinstance(got, RuleSetError)


@given(garbage, st.one_of(garbage, st.sampled_from([None, RuleSet(), PRESETS["online"]])))
@example({}, "classic")
@example({"players": 5}, 5)
def test_from_dict_with_any_data_and_base_is_a_rule_set_or_a_rule_set_error(
    data: object, base: object
) -> None:
    got = outcome(lambda: RuleSet.from_dict(data, base=base), RuleSetError)  # type: ignore[arg-type]
    if isinstance(got, RuleSet):
        _check_works(got)


@given(st.sampled_from(sorted(PRESETS)), st.dictionaries(any_text, plausible, max_size=4))
def test_replace_never_changes_the_original_and_names_unknown_options(
    name: str, changes: dict[str, Any]
) -> None:
    base = RuleSet.preset(name)
    before = base.to_dict()
    got = outcome(lambda: base.replace(**changes), RuleSetError)
    assert base.to_dict() == before
    assert base is PRESETS[name]
    unknown = sorted(set(changes) - set(OPTION_NAMES))
    if unknown:
        assert isinstance(got, RuleSetError)
        assert got.options == tuple(unknown)
    if isinstance(got, RuleSet):
        _check_works(got)


@given(st.one_of(any_text, garbage, st.sampled_from(sorted(PRESETS))))
def test_preset_of_anything_is_that_preset_or_a_rule_set_error(name: object) -> None:
    got = outcome(lambda: RuleSet.preset(name), RuleSetError)  # type: ignore[arg-type]
    if isinstance(got, RuleSet):
        assert got is PRESETS[name]  # type: ignore[index]
    else:
        assert not (isinstance(name, str) and name in PRESETS)


@given(st.dictionaries(any_text, plausible, max_size=4))
def test_the_constructor_names_unknown_options_like_from_dict(options: dict[str, Any]) -> None:
    built = outcome(lambda: RuleSet(**options), RuleSetError)
    loaded = outcome(lambda: RuleSet.from_dict(options), RuleSetError)
    assert type(built) is type(loaded)
    unknown = tuple(sorted(set(options) - set(OPTION_NAMES)))
    if unknown:
        assert isinstance(built, RuleSetError)
        assert built.options == unknown


@settings(max_examples=30)
@given(
    st.one_of(
        st.lists(st.sampled_from(OPTION_NAMES), unique=True, max_size=3).flatmap(
            lambda keys: st.fixed_dictionaries({k: _right_kind(k) for k in keys})
        ),
        right_kind_dicts,
    ),
    st.integers(0, 2**64),
)
def test_every_accepted_rule_set_deals_plays_and_scores_a_whole_deal(
    options: dict[str, Any], seed: int
) -> None:
    rules = outcome(lambda: RuleSet.from_dict(options), RuleSetError)
    if not isinstance(rules, RuleSet):
        return
    rnd = deal(rules=rules, seed=seed).pass_exposure()  # every seat decides first (RULES.md §9.1)
    while not rnd.is_over:
        rnd = rnd.play(rnd.legal_plays[0])
    totals = rnd.score().totals
    assert len(totals) == rules.players
    assert all(type(t) is int for t in totals)
