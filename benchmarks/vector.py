#!/usr/bin/env python
"""The batched engine (``gongzhu.vector``, issue #29) against OpenSpiel and the integer lane.

Run from a checkout (or anywhere the package is importable)::

    python benchmarks/vector.py            # batches 1, 64, 1024, 8192 (about a minute)
    python benchmarks/vector.py --quick    # a smoke run (a few seconds)
    python benchmarks/vector.py --json
    python benchmarks/run.py --vector      # the same, from the main suite

Every figure is the best of several repeats of process CPU time (one core),
and the baselines are timed in the same run, interleaved with the batch's
figures, so that a burst of load on a shared machine penalises neither side of
a ratio:

* ``openspiel``: OpenSpiel's Hearts (C++; ``benchmarks/run.py``'s driver: random
  legal actions from Python until terminal, 52 chance nodes then 52 cards);
* ``int_lane``: the library's integer lane, ``legal_actions()`` → ``apply(id)``
  … ``score()`` (``benchmarks/run.py``);
* ``rule_of_thumb_core``: ``deal(rules, seed).rollout(RuleOfThumbStrategy())``,
  the core's own rule-of-thumb deals.

The batch's figures, for a fresh batch each time (``VectorDeal.random``: the deal
is inside the clock, as OpenSpiel's chance nodes are): ``playout``: random legal
play to the end and the totals (``VectorDeal.playout`` then ``totals()``);
``step``: the same by the per-card API (``random_actions`` → ``step``);
``rule_of_thumb``: every seat by ``gongzhu.vector.rule_of_thumb``. Cards per
second are 52 a deal. Memory is the batch's array bytes per deal. All on rules
without exposure (OpenSpiel's Hearts has none).

Targets (issue #29, compiled build): playout at batch 1024 ≥ 30× OpenSpiel's
cards per second (moonshot 100×); the vector rule of thumb ≥ 10× the core's
rule-of-thumb deals per second; ≤ 1 KB a deal.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
try:
    import gongzhu
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, os.path.join(HERE, "..", "src"))
    import gongzhu

import numpy as np  # noqa: E402 (after the path set-up above)
from run import (  # noqa: E402
    NO_EXPOSURE,
    Timer,
    bench_int_lane,
    bench_openspiel,
    bench_rule_of_thumb,
    openspiel_game,
)

from gongzhu.vector import VectorDeal, rule_of_thumb  # noqa: E402

BATCHES = (1, 64, 1024, 8192)
TARGETS = {
    "playout_1024_vs_openspiel": 30.0,
    "rule_of_thumb_1024_vs_core": 10.0,
    "bytes_per_deal_max": 1024.0,
}


def _runner(kind: str, size: int, rng: np.random.Generator) -> Callable[[None], int]:
    rules = NO_EXPOSURE

    def run(_: None) -> int:
        batch = VectorDeal.random(rules, size, rng)
        if kind == "playout":
            batch.playout(rng)
        elif kind == "step":
            while not batch.is_over.all():
                batch.step(batch.random_actions(rng))
        else:
            while not batch.is_over.all():
                batch.play_trusted(rule_of_thumb(batch))
        batch.totals()
        return size

    return run


def bench_rule_of_thumb_core(timer: Timer) -> float:
    """Deals/s of the core's rule of thumb, ``deal(rules, seed).rollout(RuleOfThumbStrategy())``."""
    return 1e3 / bench_rule_of_thumb(timer, NO_EXPOSURE)


def measure(quick: bool, repeats: int | None = None) -> dict[str, Any]:
    repeats = repeats or (1 if quick else 3)
    clock = time.process_time
    budget = 0.05 if quick else 0.5
    once = Timer(1, budget, clock)
    rng = random.Random(2029)
    gen = np.random.default_rng(2029)
    game = openspiel_game()
    batches = (1, 64, 1024) if quick else BATCHES
    best: dict[str, float] = {}

    def keep(key: str, value: float) -> None:
        best[key] = max(best.get(key, 0.0), value)

    for _ in range(repeats):
        if not isinstance(game, str):
            keep("openspiel", bench_openspiel(once, game[0], rng))
        keep("int_lane", bench_int_lane(once, NO_EXPOSURE, rng))
        keep("rule_of_thumb_core", bench_rule_of_thumb_core(once))
        for size in batches:
            keep(f"playout_{size}", once.rate(_runner("playout", size, gen)))
            if size >= 64:
                keep(f"rule_of_thumb_{size}", once.rate(_runner("rule_of_thumb", size, gen)))
        keep("step_1024", once.rate(_runner("step", 1024, gen)))
    fig: dict[str, float] = dict(best)
    fig["bytes_per_deal"] = VectorDeal.random(NO_EXPOSURE, 1024, gen).nbytes / 1024
    fig["bytes_per_deal_5p"] = (
        VectorDeal.random(NO_EXPOSURE.replace(players=5, opening_card="3C"), 1024, gen).nbytes
        / 1024
    )
    if "openspiel" in fig:
        for size in batches:
            fig[f"playout_{size}_vs_openspiel"] = fig[f"playout_{size}"] / fig["openspiel"]
        fig["step_1024_vs_openspiel"] = fig["step_1024"] / fig["openspiel"]
        fig["int_lane_vs_openspiel"] = fig["int_lane"] / fig["openspiel"]
    fig["playout_1024_vs_int_lane"] = fig["playout_1024"] / fig["int_lane"]
    for size in batches:
        if size >= 64:
            fig[f"rule_of_thumb_{size}_vs_core"] = (
                fig[f"rule_of_thumb_{size}"] / fig["rule_of_thumb_core"]
            )
    compiled = bool(getattr(gongzhu, "compiled", False))
    header = {
        "gongzhu": gongzhu.__version__,
        "build": "compiled" if compiled else "pure",
        "numpy": np.__version__,
        "open_spiel": None if isinstance(game, str) else game[1],
        "note": game if isinstance(game, str) else "",
        "quick": quick,
        "repeats": repeats,
        "clock": "process CPU time",
    }
    met = {
        "playout_1024_vs_openspiel": fig.get("playout_1024_vs_openspiel", 0.0)
        >= TARGETS["playout_1024_vs_openspiel"],
        "rule_of_thumb_1024_vs_core": fig["rule_of_thumb_1024_vs_core"]
        >= TARGETS["rule_of_thumb_1024_vs_core"],
        "bytes_per_deal_max": fig["bytes_per_deal_5p"] <= TARGETS["bytes_per_deal_max"],
    }
    return {"header": header, "figures": fig, "targets": TARGETS, "met": met}


def print_table(result: dict[str, Any]) -> None:
    h, fig = result["header"], result["figures"]
    spiel = h["open_spiel"] or "not installed"
    print(f"gongzhu {h['gongzhu']} ({h['build']}), numpy {h['numpy']}, OpenSpiel {spiel}; "
          f"{h['clock']}, best of {h['repeats']}")  # fmt: skip
    if h["note"]:
        print("  ", h["note"])
    rows = [("openspiel", "OpenSpiel Hearts, random play"), ("int_lane", "integer lane, random"),
            ("rule_of_thumb_core", "core rule of thumb (Round.rollout)")]  # fmt: skip
    for key, label in rows:
        if key in fig:
            print(f"  {label:<40} {fig[key]:>12,.0f} deals/s {fig[key] * 52:>14,.0f} cards/s")
    for size in BATCHES:
        for kind in ("playout", "rule_of_thumb"):
            key = f"{kind}_{size}"
            if key not in fig:
                continue
            label = f"vector {kind.replace('_', ' ')}, batch {size}"
            ratio = fig.get(f"{key}_vs_openspiel") or fig.get(f"{key}_vs_core")
            base = "OpenSpiel" if kind == "playout" else "core"
            extra = f"  {ratio:6.1f}× {base}" if ratio else ""
            rate = f"{fig[key]:>12,.0f} deals/s {fig[key] * 52:>14,.0f} cards/s"
            print(f"  {label:<40} {rate}{extra}")
    if "step_1024" in fig:
        ratio = fig.get("step_1024_vs_openspiel")
        extra = f"  {ratio:6.1f}× OpenSpiel" if ratio else ""
        print(f"  {'vector step API (random), batch 1024':<40} {fig['step_1024']:>12,.0f} deals/s"
              f" {fig['step_1024'] * 52:>14,.0f} cards/s{extra}")  # fmt: skip
    print(f"  memory: {fig['bytes_per_deal']:.0f} bytes a deal (4 players), "
          f"{fig['bytes_per_deal_5p']:.0f} (5 players)")  # fmt: skip
    for key, ok in result["met"].items():
        print(f"  target {key} ({result['targets'][key]}): {'met' if ok else 'NOT met'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (a few seconds)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--repeats", type=int, default=None, help="repeats per figure")
    args = parser.parse_args(argv)
    result = measure(args.quick, args.repeats)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
