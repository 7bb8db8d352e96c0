# ruff: noqa: E501
"""Issue #22 items 9, 11, 14 and 16: the protocol readers, the action records and i18n
refuse what they cannot stand behind, with typed errors."""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gongzhu import (
    PIG,
    Action,
    Card,
    CardSet,
    DealScore,
    GongzhuError,
    PlayerView,
    RuleSet,
    deal,
    score,
)
from gongzhu.actions import Claim, ClaimResponse, Exposure, Play
from gongzhu.errors import ProtocolError
from gongzhu.i18n import LanguageError, Translator, card_name, negotiate, translator

jsonschema = pytest.importorskip("jsonschema")

# -- item 9: views ---------------------------------------------------------------------------


def _view(seed: int = 1, plays: int = 0) -> dict[str, Any]:
    r = deal(seed=seed).pass_exposure()
    for _ in range(plays):
        r = r.play(r.legal_plays[0])
    return r.view(r.to_act if r.to_act is not None else 0).to_dict()


IMPOSSIBLE_VIEWS: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("a captured card that scores nothing", lambda d: d.update(captured_points=[["2C"], [], [], []])),
    ("a card played twice", lambda d: d["tricks"][1]["cards"].__setitem__(0, d["tricks"][0]["cards"][0])),
    ("a card in two piles", lambda d: d.update(captured_points=[["QS"], ["QS"], [], []])),
    ("hand sizes that do not add up", lambda d: d["hand_sizes"].__setitem__((d["seat"] + 1) % 4, 5)),
    ("another seat exposing this seat's card", lambda d: d["exposures"].__setitem__((d["seat"] + 1) % 4, [d["hand"][0]])),
    ("two seats exposing one card", lambda d: d.update(exposures=[["QS"], ["QS"], [], []])),
    ("a shown card that was played", lambda d: d.update(shown=[d["tricks"][0]["cards"][0]])),
]  # fmt: skip


@pytest.mark.parametrize(("name", "mutate"), IMPOSSIBLE_VIEWS, ids=[n for n, _ in IMPOSSIBLE_VIEWS])
def test_item_9_from_dict_refuses_views_no_deal_can_have(
    name: str, mutate: Callable[[dict[str, Any]], None]
) -> None:
    d = _view(1, plays=9)
    PlayerView.from_dict(d)  # the real one is fine
    mutate(d)
    with pytest.raises(ProtocolError):
        PlayerView.from_dict(d)


def test_item_9_the_reviews_reproducer_is_refused() -> None:
    d = {**deal(seed=1).pass_exposure().view(0).to_dict(), "captured_points": [["2C"], [], [], []]}
    with pytest.raises(ProtocolError, match="point cards"):
        PlayerView.from_dict(d)


def test_item_9_a_card_outside_the_rule_sets_deck_is_refused() -> None:
    r = deal(rules=RuleSet(players=5), seed=2).pass_exposure()
    d = r.view(0).to_dict()
    PlayerView.from_dict(d)
    d["captured_points"][1] = ["2H"]  # a point card, but not in this pile's tricks
    with pytest.raises(ProtocolError):
        PlayerView.from_dict(d)
    d = r.view(0).to_dict()
    d["exposures"][1] = ["2C"]  # 5 players: no 2♣ in the deck
    with pytest.raises(ProtocolError):
        PlayerView.from_dict(d)


def test_item_9_stated_computed_keys_must_be_the_views_own() -> None:
    d = _view(2, plays=6)
    d["running_totals"] = [5, 0, 0, 0]
    with pytest.raises(ProtocolError, match="running_totals"):
        PlayerView.from_dict(d)


def test_item_9_every_real_view_is_still_accepted() -> None:
    rng = random.Random(2)
    from gongzhu.adapters import _driver

    for rules in (RuleSet(), RuleSet(claims=True), RuleSet(players=5),
                  RuleSet(exposure_kind="face-down-up")):  # fmt: skip
        r = deal(rules=rules, seed=rng.randrange(100))
        while True:
            for s in range(rules.players):
                v = r.view(s)
                assert PlayerView.from_dict(v.to_dict()) == v
            if r.is_over:
                break
            a = _driver.actor(r)
            assert a is not None
            r = _driver.step(r, a, rng.choice(_driver.legal_ids(r, a)))


def test_item_9_accepted_mutants_never_fail_raw() -> None:
    rng = random.Random(9)
    base = [_view(s, plays=p) for s in range(6) for p in (0, 5, 17, 30)]
    codes = [Card.from_index(i).code for i in range(52)]
    accepted = 0
    for _ in range(1500):
        d = copy.deepcopy(rng.choice(base))
        key = rng.choice(["hand", "captured_points", "exposures", "hand_sizes", "shown"])
        if key == "hand_sizes":
            d[key][rng.randrange(4)] += rng.choice((-1, 1))
        elif key in ("captured_points", "exposures"):
            d[key][rng.randrange(4)].append(rng.choice(codes))
        else:
            d[key].append(rng.choice(codes))
        try:
            v = PlayerView.from_dict(d)
        except GongzhuError:
            continue
        accepted += 1
        for method in (v.observation, v.information_state, v.to_dict, v.legal_actions):
            with contextlib.suppress(GongzhuError):
                method()
    assert accepted > 0


# -- item 11: DealScore and every reader against its schema ------------------------------------


def _score() -> dict[str, Any]:
    return score(["TC 7H", "QS", "JD", ""], {"QS": 2}).to_dict()


@pytest.mark.parametrize(
    ("field", "value"),
    [("pig_taker", True), ("all_hearts_seat", False), ("team_totals", True)],
)
def test_item_11_dealscore_keeps_booleans_and_integers_apart(field: str, value: Any) -> None:
    d = _score()
    if field == "pig_taker":
        assert d["pig_taker"] == 1
    d[field] = value
    with pytest.raises(GongzhuError):
        DealScore.from_dict(d)


def test_item_11_players_fields_keep_booleans_and_integers_apart() -> None:
    d = _score()
    d["players"][0]["seat"] = False
    with pytest.raises(GongzhuError):
        DealScore.from_dict(d)
    d = _score()
    d["players"][0]["fixed"] = 0
    with pytest.raises(GongzhuError):
        DealScore.from_dict(d)


@pytest.mark.parametrize("spelling", ["jd", "10♣", "q♠", "QS "])
def test_item_11_dealscore_reads_card_codes_only(spelling: str) -> None:
    d = _score()
    d["captures"][2] = [spelling]
    with pytest.raises(GongzhuError):
        DealScore.from_dict(d)


def _mutations(value: Any, rng: random.Random) -> Iterator[Any]:
    """One-field mutants of a JSON value: every scalar swapped for a hostile one."""
    hostile = [True, False, 0, 1, -1, 1.5, 2**60, "", "x", "qs", "10♣", None, [], {}]
    if isinstance(value, dict):
        for key in list(value):
            for sub in _mutations(value[key], rng):
                yield {**value, key: sub}
        yield {k: v for k, v in value.items() if k != next(iter(value), None)}
        yield {**value, "extra": 1}
    elif isinstance(value, list):
        for i in range(min(len(value), 3)):
            for sub in _mutations(value[i], rng):
                yield [*value[:i], sub, *value[i + 1 :]]
        yield [*value, value[0] if value else 1]
    else:
        yield from rng.sample(hostile, 5)


def _instances() -> dict[str, tuple[Callable[[Any], Any], list[Any]]]:
    r = deal(seed=4).pass_exposure()
    r = r.play(r.legal_plays[0])
    actions = [Play(0, PIG).to_dict(), Exposure(1, CardSet([PIG])).to_dict(),
               Claim(2).to_dict(), ClaimResponse(3, True).to_dict()]  # fmt: skip
    return {
        "action": (Action.from_dict, actions),
        "score": (DealScore.from_dict, [_score()]),
        "view": (PlayerView.from_dict, [r.view(1).to_dict()]),
        "rules": (RuleSet.from_dict, [RuleSet().to_dict(), RuleSet(players=5).to_dict()]),
    }


@pytest.mark.parametrize("name", ["action", "score", "view", "rules"])
def test_item_11_every_reader_refuses_what_its_schema_refuses(name: str) -> None:
    from gongzhu.protocol import schema

    reader, bases = _instances()[name]
    validator = jsonschema.Draft202012Validator(schema(name))
    rng = random.Random(11)
    refused = 0
    looser = []
    for base in bases:
        assert validator.is_valid(base)
        reader(copy.deepcopy(base))
        for mutant in _mutations(base, rng):
            if validator.is_valid(mutant):
                continue
            refused += 1
            try:
                reader(copy.deepcopy(mutant))
            except GongzhuError:
                continue
            looser.append(mutant)
    assert refused > 20
    assert not looser, f"{len(looser)} schema counter-examples accepted, e.g. {looser[0]}"


# -- item 14: action records checked when built --------------------------------------------


@pytest.mark.parametrize(
    "build",
    [
        lambda: Play(0, "2C"),
        lambda: Exposure(0, "QS"),
        lambda: Exposure(0, None),
        lambda: Exposure(0, [PIG]),
        lambda: Play(True, PIG),
        lambda: Play(9, PIG),
        lambda: Claim("0"),
        lambda: ClaimResponse(0, 1),
        lambda: Exposure(0, CardSet(), blind=1),
        lambda: Exposure(0, CardSet([PIG]), face_down="yes"),
    ],
)
def test_item_14_bad_action_records_are_refused_when_built(build: Callable[[], Any]) -> None:
    with pytest.raises(ProtocolError):
        build()


def test_item_14_a_built_record_can_always_be_written_and_hashed() -> None:
    import numpy as np

    for action in (Play(np.int64(1), PIG), Exposure(0, CardSet([PIG])), Claim(4),
                   ClaimResponse(2, False)):  # fmt: skip
        assert Action.from_dict(action.to_dict()) == action
        hash(action)
    assert type(Play(np.int64(1), PIG).seat) is int


# -- item 16: languages ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: Translator(["zh"]),
        lambda: card_name(PIG, lang=["zh"]),  # type: ignore[arg-type]
        lambda: negotiate({"zh": 1}),
        lambda: translator({"zh"}),  # type: ignore[arg-type]
        lambda: negotiate(environ={"LANG": 5}),
        lambda: negotiate(environ=["zh"]),  # type: ignore[dict-item,arg-type]
        lambda: Translator(b"zh"),
    ],  # type: ignore[arg-type]
)
def test_item_16_a_language_that_is_not_text_is_a_language_error(call: Callable[[], Any]) -> None:
    with pytest.raises(LanguageError):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: card_name(deal(seed=1)),
        lambda: card_name([PIG]),  # type: ignore[arg-type]
        lambda: Translator("zh").refusal(1.5),
        lambda: Translator().nickname("QS"),
    ],  # type: ignore[arg-type]
)
def test_fuzz_find_the_translator_renders_only_cards_and_refusals(call: Callable[[], Any]) -> None:
    with pytest.raises(LanguageError):
        call()
