"""benchmarks/margin.py: its parts of a game's score add up to the team difference."""

from __future__ import annotations

from types import ModuleType

from gongzhu import RuleOfThumbStrategy, deal
from repo_scripts import load_script


def _margin() -> ModuleType:
    return load_script("benchmarks/margin.py", "margin")


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
