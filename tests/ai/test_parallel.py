"""parallel.simulate: seeded per task, so the statistics do not depend on the worker count."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gongzhu import PIG, SHEEP, RuleSet
from gongzhu.bots import RandomStrategy, RuleOfThumbStrategy, Strategy
from gongzhu.errors import SimulationError
from gongzhu.parallel import BotTable, play_task, simulate, task_seed


def _mixed(seed: int) -> Sequence[Strategy]:
    """A module-level (so picklable) factory: two bots against two random players."""
    return [
        RuleOfThumbStrategy(),
        RandomStrategy(seed),
        RuleOfThumbStrategy(),
        RandomStrategy(-seed),
    ]


def test_results_are_identical_for_one_and_two_workers() -> None:
    one = simulate(24, rules=RuleSet(), strategies=_mixed, workers=1, seed=9)
    two = simulate(24, rules=RuleSet(), strategies=_mixed, workers=2, seed=9)
    assert one == two
    assert one.deals == 24


def test_match_results_are_identical_for_one_and_two_workers() -> None:
    rules = RuleSet.preset("online-quick")
    one = simulate(3, rules=rules, matches=True, workers=1, seed=4)
    two = simulate(3, rules=rules, matches=True, workers=2, seed=4)
    assert one == two
    assert one.matches == 3
    # RULES.md §6: every finished match has at least one loser.
    assert sum(one.losses) >= 3 - one.unfinished


def test_a_different_seed_gives_different_deals() -> None:
    assert simulate(20, seed=1).score_sums != simulate(20, seed=2).score_sums


def test_the_statistics_count_what_the_deals_show() -> None:
    # The same tasks replayed one by one give the counts simulate reports.
    rules = RuleSet()
    sim = simulate(16, rules=rules, strategies=_mixed, seed=3)
    rounds = [r for k in range(16) for r in play_task(rules, _mixed, 3, k, False)]
    sums = [sum(r.score().totals[s] for r in rounds) for s in range(4)]
    assert sim.score_sums == tuple(sums)
    assert sim.pig_taken == tuple(sum(PIG in r.captured[s] for r in rounds) for s in range(4))
    assert sim.sheep_taken == tuple(sum(SHEEP in r.captured[s] for r in rounds) for s in range(4))
    assert sim.sheep_deals == sum(sim.sheep_taken) <= 16
    assert 0 <= sim.sheep_taker_won <= sim.sheep_deals
    assert sim.mean_scores == tuple(s / 16 for s in sums)
    # Deal k is dealt by seat k mod 4 (RULES.md §5).
    assert [r.dealer for r in rounds] == [k % 4 for k in range(16)]


def test_progress_reaches_the_total() -> None:
    seen: list[tuple[int, int]] = []
    simulate(10, progress=lambda done, total: seen.append((done, total)), seed=1)
    assert seen[-1] == (10, 10)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_task_seeds_differ_per_task_and_per_simulation() -> None:
    seeds = {task_seed(s, k) for s in range(3) for k in range(50)}
    assert len(seeds) == 150


def test_five_players_and_summary() -> None:
    rules = RuleSet(players=5)
    sim = simulate(
        10, rules=rules, strategies=BotTable(("random", "rule-of-thumb") * 2 + ("random",)), seed=1
    )
    assert len(sim.mean_scores) == 5
    text = sim.summary()
    assert text.startswith("10 deals")
    assert "pig taken" in text


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: simulate(-1), "non-negative"),
        (lambda: simulate(3, workers=-2), "workers"),
        (lambda: BotTable(("rule-of-thumb", "genius")), "unknown strategy"),
        (lambda: simulate(2, rules=RuleSet(loss_threshold=None), matches=True), "never end"),
    ],
)
def test_bad_arguments_raise_a_gongzhu_error(call: object, message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        call()  # type: ignore[operator]


def test_zero_tasks_is_an_empty_simulation() -> None:
    sim = simulate(0)
    assert sim.deals == 0
    assert sim.mean_scores == ()
