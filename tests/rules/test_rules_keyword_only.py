"""``rules`` is keyword-only in every public signature (issue 28, docs/api_design.rst).

The old positional spelling keeps working for one minor version: it gives the same
result and a DeprecationWarning that names the new spelling (gongzhu._base.deprecation).
"""

from __future__ import annotations

import inspect
import json
import warnings
from collections.abc import Callable
from typing import Any

import pytest

from gongzhu import (
    RandomStrategy,
    RuleSet,
    deal,
    exposure_factors,
    exposure_preview,
    play_deal,
    play_match,
    score,
)
from gongzhu._base.deprecation import keyword_only
from gongzhu.ai.deals import load_deals
from gongzhu.ai.parallel import simulate
from gongzhu.round import Round

ONLINE = RuleSet.preset("online")
QUICK = RuleSet.preset("online-quick")
HANDS = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]


def _bots() -> list[RandomStrategy]:
    return [RandomStrategy(seed=s) for s in range(4)]


# (the function, its old positional call, the same call in the new spelling, the names moved)
CALLS: list[tuple[Callable[..., Any], Callable[[], Any], Callable[[], Any], str]] = [
    (deal, lambda: deal(ONLINE, 5), lambda: deal(rules=ONLINE, seed=5), "rules, seed"),
    (deal, lambda: deal(ONLINE, 5, 1, 2), lambda: deal(rules=ONLINE, seed=5, leader=1, dealer=2),
     "rules, seed, leader, dealer"),
    (score, lambda: score("TC QS", (), ONLINE), lambda: score("TC QS", (), rules=ONLINE), "rules"),
    (exposure_factors, lambda: exposure_factors("QS", "catch-the-pig"),
     lambda: exposure_factors("QS", rules="catch-the-pig"), "rules"),
    (exposure_preview, lambda: str(exposure_preview("QS", "catch-the-pig")),
     lambda: str(exposure_preview("QS", rules="catch-the-pig")), "rules"),
    (Round.from_hands, lambda: Round.from_hands(HANDS, ONLINE),
     lambda: Round.from_hands(HANDS, rules=ONLINE), "rules"),
]  # fmt: skip


@pytest.mark.parametrize(("func", "old", "new", "moved"), CALLS)
def test_the_positional_spelling_warns_and_gives_the_same_result(
    func: Callable[..., Any], old: Callable[[], Any], new: Callable[[], Any], moved: str
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new spelling warns about nothing
        expected = new()
    with pytest.warns(DeprecationWarning, match="by position is deprecated") as caught:
        got = old()
    assert got == expected
    message = str(caught[0].message)
    name = func.__qualname__
    assert message.startswith(f"{name}(): {moved} by position is deprecated (removed in 0.3)")
    assert f"use {name}(..., " in message
    assert all(f"{m}=..." in message for m in moved.split(", "))
    assert caught[0].filename == __file__  # the warning points at the caller's line


def test_the_playing_layer_refuses_rules_by_position(tmp_path: Any) -> None:
    path = tmp_path / "deals.json"
    path.write_text(json.dumps({"format": "gongzhu-deals", "version": 1, "players": 4,
                                "deals": [HANDS]}))  # fmt: skip
    for call in (
        lambda: load_deals(path, RuleSet()),
        lambda: play_deal(_bots(), ONLINE, seed=3),
        lambda: play_match(_bots(), QUICK, seed=3, max_deals=2),
        lambda: simulate(2, QUICK, None, seed=1),
    ):
        with pytest.raises(TypeError, match="positional argument"):
            call()


@pytest.mark.parametrize(
    "func",
    [deal, score, exposure_factors, exposure_preview, Round.from_hands, play_deal, play_match,
     simulate, load_deals],
)  # fmt: skip
def test_rules_is_keyword_only_in_the_signature(func: Callable[..., Any]) -> None:
    assert inspect.signature(func).parameters["rules"].kind is inspect.Parameter.KEYWORD_ONLY


@pytest.mark.parametrize(
    "name", ["hands", "deals", "exposures", "captures", "finished_rounds", "rounds_in_progress"]
)
def test_the_testing_strategies_take_rules_by_keyword(name: str) -> None:
    testing = pytest.importorskip("gongzhu.testing")
    func = getattr(testing, name)
    assert inspect.signature(func).parameters["rules"].kind is inspect.Parameter.KEYWORD_ONLY
    with pytest.warns(DeprecationWarning, match=rf"{name}\(\): rules by position"):
        func(RuleSet())


def test_the_environments_take_rules_by_keyword() -> None:
    pettingzoo = pytest.importorskip("gongzhu.adapters.pettingzoo")
    gymnasium = pytest.importorskip("gongzhu.adapters.gymnasium")
    for func in (pettingzoo.env, pettingzoo.raw_env, pettingzoo.GongzhuAEC, gymnasium.GongzhuEnv):
        assert inspect.signature(func).parameters["rules"].kind is inspect.Parameter.KEYWORD_ONLY
    with pytest.warns(DeprecationWarning, match=r"GongzhuEnv.__init__\(\): rules, seat by"):
        old = gymnasium.GongzhuEnv(QUICK, 2)
    assert (old.rules, old.seat) == (QUICK, 2)
    with pytest.warns(DeprecationWarning, match=r"raw_env\(\): rules by position"):
        assert pettingzoo.raw_env(QUICK).rules == QUICK


def test_a_name_given_both_ways_or_too_many_arguments_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="multiple values for argument 'rules'"):
        score("QS", (), ONLINE, rules=ONLINE)
    with pytest.raises(TypeError, match=r"deal\(\) takes at most 4 positional arguments"):
        deal(ONLINE, 1, 0, 0, 9)


def test_the_decorator_refuses_a_name_that_is_not_keyword_only() -> None:
    def f(a: int, rules: int = 0) -> int:
        return a + rules

    with pytest.raises(TypeError, match="not keyword-only"):
        keyword_only("rules")(f)
