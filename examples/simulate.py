"""Bots play many deals under every preset; statistics per preset.

Run it with ``python examples/simulate.py [DEALS] [WORKERS]`` (default 60
deals per preset, 2 worker processes). It uses
:func:`gongzhu.parallel.simulate`, which seeds every deal on its own, so the
numbers are the same for any number of workers.

Questions it answers, per preset: what is a deal worth on average, how often
does the sheep's taker win the deal (seeds/001 calls the sheep the only plus
card), how often does the pig's taker come last? Then: how much better than
chance does the rule-of-thumb bot play?
"""

from __future__ import annotations

import sys

from gongzhu import PRESETS, RuleSet
from gongzhu.parallel import BotTable, simulate


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    print(f"{deals} deals per preset, four rule-of-thumb bots, {workers} workers\n")
    head = (
        f"{'preset':14} {'mean deal':>9} {'sheep taker':>12} {'pig taker':>10} {'all hearts':>11}"
    )
    print(head)
    print(f"{'':14} {'per seat':>9} {'wins':>12} {'last':>10} {'(deals)':>11}")
    seen: dict[RuleSet, str] = {}
    for name, rules in PRESETS.items():
        if rules in seen:
            print(f"{name:14} (the same rules as {seen[rules]})")
            continue
        seen[rules] = name
        sim = simulate(deals, rules=rules, workers=workers, seed=2024)
        mean = sum(sim.mean_scores) / len(sim.mean_scores)
        sheep = f"{100 * sim.sheep_taker_win_rate:.0f}%"
        pig = f"{100 * sim.pig_taker_last / sim.deals:.0f}%"
        print(f"{name:14} {mean:>9.1f} {sheep:>12} {pig:>10} {sim.all_hearts:>11}")

    print("\nRule of thumb (seats 0 and 2) against random play (seats 1 and 3), classic rules:")
    table = BotTable(("rule-of-thumb", "random", "rule-of-thumb", "random"))
    sim = simulate(deals * 2, rules=RuleSet(), strategies=table, workers=workers, seed=7)
    print(sim.summary())


if __name__ == "__main__":
    main()
