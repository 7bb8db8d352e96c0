"""``rules`` is keyword-only in every public signature (docs/api_design.rst).

The library is unreleased, so there is no old spelling to keep: passing ``rules`` (or a
name after it) by position is a ``TypeError``, never a DeprecationWarning.
"""

from __future__ import annotations

import inspect
import json
import warnings
from collections.abc import Callable
from pathlib import Path
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


# (the function, a call that passes what is keyword-only by position)
CALLS: list[tuple[Callable[..., Any], Callable[[], Any]]] = [
    (deal, lambda: deal(ONLINE, 5)),
    (deal, lambda: deal(ONLINE, 5, 1, 2)),
    (score, lambda: score("TC QS", (), ONLINE)),
    (exposure_factors, lambda: exposure_factors("QS", "catch-the-pig")),
    (exposure_preview, lambda: exposure_preview("QS", "catch-the-pig")),
    (Round.from_hands, lambda: Round.from_hands(HANDS, ONLINE)),
    (play_deal, lambda: play_deal(_bots(), ONLINE, seed=3)),
    (play_match, lambda: play_match(_bots(), QUICK, seed=3, max_deals=2)),
    (simulate, lambda: simulate(2, QUICK, None, seed=1)),
]  # fmt: skip


@pytest.mark.parametrize(("func", "call"), CALLS)
def test_the_positional_spelling_is_refused_with_a_type_error(
    func: Callable[..., Any], call: Callable[[], Any]
) -> None:
    # The library is unreleased: its API is the current one, with no deprecated spelling.
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # refused outright, never warned about
        with pytest.raises(TypeError, match="positional argument"):
            call()


def test_load_deals_takes_its_rules_by_keyword_only(tmp_path: Any) -> None:
    path = tmp_path / "deals.json"
    path.write_text(json.dumps({"format": "gongzhu-deals", "version": 1, "players": 4,
                                "deals": [HANDS]}))  # fmt: skip
    with pytest.raises(TypeError, match="positional argument"):
        load_deals(path, RuleSet())
    assert load_deals(path, rules=RuleSet()) == load_deals(path)


@pytest.mark.parametrize(
    "func",
    [deal, score, exposure_factors, exposure_preview, Round.from_hands, play_deal, play_match,
     simulate, load_deals],
)  # fmt: skip
def test_rules_is_keyword_only_in_the_signature(func: Callable[..., Any]) -> None:
    assert inspect.signature(func).parameters["rules"].kind is inspect.Parameter.KEYWORD_ONLY


@pytest.mark.parametrize(
    "name",
    [
        "hands",
        "deals",
        "exposures",
        "captures",
        "finished_rounds",
        "rounds_in_progress",
        "score_inputs",
    ],
)
def test_the_testing_strategies_take_rules_by_keyword(name: str) -> None:
    testing = pytest.importorskip("gongzhu.testing")
    func = getattr(testing, name)
    assert inspect.signature(func).parameters["rules"].kind is inspect.Parameter.KEYWORD_ONLY
    with pytest.raises(TypeError, match="positional argument"):
        func(RuleSet())


def test_the_environments_take_rules_by_keyword() -> None:
    pettingzoo = pytest.importorskip("gongzhu.adapters.pettingzoo")
    gymnasium = pytest.importorskip("gongzhu.adapters.gymnasium")
    for func in (pettingzoo.env, pettingzoo.raw_env, pettingzoo.GongzhuAEC, gymnasium.GongzhuEnv):
        assert inspect.signature(func).parameters["rules"].kind is inspect.Parameter.KEYWORD_ONLY
    with pytest.raises(TypeError, match="positional argument"):
        gymnasium.GongzhuEnv(QUICK, 2)
    with pytest.raises(TypeError, match="positional argument"):
        pettingzoo.raw_env(QUICK)
    assert gymnasium.GongzhuEnv(rules=QUICK, seat=2).seat == 2


def test_a_name_given_both_ways_or_too_many_arguments_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        score("QS", (), ONLINE, rules=ONLINE)
    with pytest.raises(TypeError):
        deal(ONLINE, 1, 0, 0, 9)


def test_no_deprecation_machinery_is_shipped() -> None:
    import gongzhu

    root = Path(gongzhu.__file__).parent
    assert not (root / "_base" / "deprecation.py").exists()
    warned = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "DeprecationWarning" in p.read_text(encoding="utf-8")
    )
    assert warned == []
