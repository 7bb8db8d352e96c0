"""benchmarks/margin.py: its parts of a game's score add up to the team difference."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from gongzhu import RuleOfThumbStrategy, deal

ROOT = Path(__file__).resolve().parents[2]


def _margin() -> ModuleType:
    spec = importlib.util.spec_from_file_location("margin", ROOT / "benchmarks" / "margin.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["margin"] = module
    spec.loader.exec_module(module)
    return module


def test_the_parts_add_up_to_the_team_difference_and_a_game_replays() -> None:
    margin = _margin()
    bot = RuleOfThumbStrategy()
    for seed in range(40):
        rnd = deal(rules=margin.TEAM_RULES, seed=seed).pass_exposure()
        while not rnd.is_over:
            rnd = rnd.play(bot.choose_play(rnd.view(rnd.to_act), rnd.legal_plays))
        totals = rnd.score().totals
        split = margin.parts(rnd)
        assert sum(split.values()) == totals[0] + totals[2] - totals[1] - totals[3]
        game = {
            "leader": rnd.tricks[0].leader,
            "dealt": [" ".join(c.code for c in hand) for hand in rnd.dealt],
            "plays": " ".join(c.code for t in rnd.tricks for c in t.cards),
        }
        assert margin.replay(game).score().totals == totals
