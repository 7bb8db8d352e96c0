#!/usr/bin/env python
"""Agent-side figures (issue #13): one PettingZoo env step against one bare ``Round.play``.

``bench_pettingzoo_step()`` plays the same seeded deals twice, interleaved and
best of ``repeats``: once by calling ``Round.play`` on the engine directly
(legal plays from ``Round.legal_plays``), once through
``gongzhu.adapters.pettingzoo`` (``env.step(action)`` with the same actions,
taken from the environment's own mask). It times the steps only (choosing the
action is outside both clocks) and returns the seconds per step of each and
their ratio; the target is a ratio of at most 3. Run it directly for a line of
output: ``python benchmarks/agents.py [--quick]``.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

try:
    import gongzhu
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
    import gongzhu

from gongzhu import RuleSet, deal


def _bare(seeds: range, rules: RuleSet) -> tuple[float, int]:
    clock = time.perf_counter
    spent = 0.0
    steps = 0
    for seed in seeds:
        rnd = deal(rules=rules, seed=seed)
        while not rnd.is_over:
            card = rnd.legal_plays[0]
            t = clock()
            rnd = rnd.play(card)
            spent += clock() - t
            steps += 1
    return spent, steps


def _observe(seeds: range, rules: RuleSet) -> float:
    """Seconds per ``env.observe(agent)`` of the agent to act (observation and mask)."""
    from gongzhu.adapters.pettingzoo import raw_env

    env = raw_env(rules=rules)
    clock = time.perf_counter
    spent = 0.0
    steps = 0
    for seed in seeds:
        env.reset(seed=seed)
        while not env.round.is_over:
            agent = env.agent_selection
            t = clock()
            obs = env.observe(agent)
            spent += clock() - t
            steps += 1
            env.step(int(obs["action_mask"].nonzero()[0][0]))
    return spent / steps


def _env(seeds: range, rules: RuleSet) -> tuple[float, int]:
    from gongzhu.adapters import _driver
    from gongzhu.adapters.pettingzoo import raw_env

    env = raw_env(rules=rules)
    clock = time.perf_counter
    spent = 0.0
    steps = 0
    for seed in seeds:
        env.reset(seed=seed)
        inner = env
        while not inner.round.is_over:
            seat = inner.possible_agents.index(inner.agent_selection)
            action = _driver.legal_ids(inner.round, seat)[0]
            t = clock()
            env.step(action)
            spent += clock() - t
            steps += 1
    return spent, steps


def bench_pettingzoo_step(deals: int = 20, repeats: int = 5) -> dict[str, Any]:
    """Seconds per step: bare ``Round.play`` and PettingZoo ``env.step``, and their ratio.

    Under rules without exposure, so both make exactly the same 52 plays a deal.
    Returns ``{"round_play": s, "pettingzoo_step": s, "ratio": r, "steps": n,
    "pettingzoo_observe": s}`` (the last: one ``observe`` of the seat to act, the
    observation vector and its mask, which agents pay besides the step), or
    ``{"skipped": reason}`` when PettingZoo is not installed.
    """
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        return {"skipped": 'pettingzoo is not installed (pip install ".[rl]")'}
    rules = RuleSet(exposable="")
    seeds = range(deals)
    best_bare = best_env = float("inf")
    steps = 0
    for _ in range(repeats):
        spent, steps = _bare(seeds, rules)
        best_bare = min(best_bare, spent / steps)
        spent, steps = _env(seeds, rules)
        best_env = min(best_env, spent / steps)
    observe = min(_observe(range(max(1, deals // 4)), rules) for _ in range(2))
    return {
        "round_play": best_bare,
        "pettingzoo_step": best_env,
        "ratio": best_env / best_bare,
        "steps": steps,
        "pettingzoo_observe": observe,
    }


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    result = bench_pettingzoo_step(deals=3 if quick else 20, repeats=2 if quick else 5)
    if "skipped" in result:
        print("skipped:", result["skipped"])
    else:
        print(
            f"Round.play {result['round_play'] * 1e6:.1f} µs/step, "
            f"PettingZoo env.step {result['pettingzoo_step'] * 1e6:.1f} µs/step, "
            f"ratio {result['ratio']:.2f} (target ≤ 3); observe "
            f"{result['pettingzoo_observe'] * 1e6:.0f} µs; gongzhu {gongzhu.__version__}"
        )
