#!/usr/bin/env python
"""gongzhu benchmark suite: figures for the engine, and baselines measured in the same run.

Run from a checkout (or anywhere the package is importable)::

    python benchmarks/run.py            # full run (about a minute)
    python benchmarks/run.py --quick    # CI smoke: a second or two, same table
    python benchmarks/run.py --json     # machine-readable output
    python benchmarks/run.py --both     # the compiled and the pure build, one table
    python benchmarks/run.py --vector   # the batched engine (benchmarks/vector.py)

``--both`` needs the compiled build installed (``pip install .`` with a C
compiler): it runs this script twice, in subprocesses, once on the installed
package and once on a pure-Python copy of the same sources
(``gongzhu.build._pure_copy``), each run with its own OpenSpiel baseline, and
prints the two columns side by side.

Absolute numbers depend on the machine and on whatever else runs on it, so
every figure is the best of several repeats, and the two baselines are timed
in the same run, interleaved with the engine's figures:

* ``naive``: a plain pure-Python random playout of a 4-player trick-taking
  deal on lists and ints (shuffle, follow suit, trick winner, count
  points) — no validation, no immutability. It calibrates the machine:
  ``playout / naive`` stays roughly constant from one machine to the next.
* ``openspiel``: OpenSpiel's Hearts (C++ engine, ``pip install open_spiel``,
  the ``bench`` extra) driven the same way as the engine, random legal
  actions chosen from Python until the state is terminal. Skipped with a
  message if ``pyspiel`` cannot be imported.

The figures, what they time and their targets are described in
``docs/performance.rst``. This directory is not collected by pytest: there
are no timed unit tests.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
import platform
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

try:
    import gongzhu
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
    import gongzhu

from gongzhu import DECK, CardSet, Match, Phase, RuleSet, deal, score

# -- timing -------------------------------------------------------------------------------


class Timer:
    """Best-of-repeats rates. ``budget`` is the time per repeat, in seconds."""

    def __init__(self, repeats: int, budget: float, clock: Callable[[], float]) -> None:
        self.repeats = repeats
        self.budget = budget
        self.clock = clock

    def rate(
        self,
        run: Callable[[Any], int],
        prepare: Callable[[], Any] = lambda: None,
    ) -> float:
        """Units per second: ``run(prepare())`` returns how many units it did.

        ``prepare`` is not timed (it builds fresh inputs so that no batch
        profits from caches filled by an earlier one). Each repeat calls
        ``run`` in a loop until ``budget`` is spent; every call is one timed
        batch and the best batch wins: on a shared machine the fastest batch
        is the one least disturbed by other processes.
        """
        best = 0.0
        for _ in range(self.repeats):
            spent = 0.0
            while spent < self.budget:
                data = prepare()
                gc.collect()
                clock = self.clock
                t0 = clock()
                units = run(data)
                elapsed = clock() - t0
                spent += elapsed
                best = max(best, units / elapsed)
        return best


# -- inputs ---------------------------------------------------------------------------------


def _declined(r: Any) -> Any:
    """``r`` with every seat's exposure decision made (declined), so that play can start
    (RULES.md §9.1: every seat decides before the first lead)."""
    if r.phase is Phase.EXPOSURE:
        return r.pass_exposure()
    return r


EXPOSABLE = ("QS", "JD", "TC", "AH")


def _score_inputs(rng: random.Random, count: int) -> list[tuple[list[CardSet], CardSet]]:
    """Finished deals: four random capture piles (any sizes) and a random set of exposures."""
    cards = list(DECK)
    exposable = [c for c in DECK if c.code in EXPOSABLE]
    inputs = []
    for _ in range(count):
        rng.shuffle(cards)
        cuts = sorted(rng.randrange(53) for _ in range(3))
        bounds = [0, *cuts, 52]
        piles = [CardSet(cards[bounds[i] : bounds[i + 1]]) for i in range(4)]
        exposed = CardSet(c for c in exposable if rng.random() < 0.25)
        inputs.append((piles, exposed))
    return inputs


def _positions(rules: RuleSet, rng: random.Random, count: int) -> list[bytes]:
    """Pickled Rounds at random points of random deals (unpickling gives fresh objects)."""
    out = []
    seed = 0
    while len(out) < count:
        r = _declined(deal(rules=rules, seed=seed))
        seed += 1
        states = []
        while not r.is_over:
            states.append(r)
            r = r.play(rng.choice(r.legal_plays))
        out.extend(pickle.dumps(s) for s in rng.sample(states, 8))
    return out[:count]


# -- the engine's figures -----------------------------------------------------------------


def bench_score(timer: Timer, rules: RuleSet, rng: random.Random) -> float:
    inputs = _score_inputs(rng, 1000)

    def run(_: None) -> int:
        for piles, exposed in inputs:
            score(piles, exposed, rules=rules)
        return len(inputs)

    return timer.rate(run)


def bench_step(timer: Timer, rng: random.Random) -> float:
    """Microseconds per bot step: legal_plays, a random choice, play()."""
    # Batches of 250 positions (from about 30 deals): small enough to stay in the CPU
    # cache, as the state a bot has just made does; 1000 add ~0.4 µs of cache misses.
    blobs = _positions(RuleSet(), rng, 250)
    choice = rng.choice

    def prepare() -> list[Any]:
        return [pickle.loads(b) for b in blobs]

    def run(positions: list[Any]) -> int:
        for r in positions:
            r.play(choice(r.legal_plays))
        return len(positions)

    return 1e6 / timer.rate(run, prepare)


def _playout_runner(
    rules: RuleSet, rng: random.Random, deals: int, expose: bool
) -> Callable[[None], int]:
    choice = rng.choice
    random_ = rng.random
    exposable = rules.exposable.mask
    counter = [0]

    def run(_: None) -> int:
        base = counter[0]
        counter[0] += deals
        for seed in range(base, base + deals):
            r = deal(rules=rules, seed=seed)
            if expose:
                # Every seat decides, in turn from the leader (an empty exposure declines).
                for k in range(rules.players):
                    seat = (r.leader + k) % rules.players
                    held = r.hands[seat].mask & exposable
                    chosen = [c for c in CardSet.from_mask(held) if random_() < 0.5]
                    r = r.expose(chosen, seat=seat)
            r = _declined(r)
            while not r.is_over:
                r = r.play(choice(r.legal_plays))
            r.score()
        return deals

    return run


def bench_playout(timer: Timer, rules: RuleSet, rng: random.Random, expose: bool = False) -> float:
    return timer.rate(_playout_runner(rules, rng, 50, expose))


def bench_rollout(timer: Timer, rules: RuleSet) -> float:
    """Deals/s of ``deal(rules, seed)`` → ``Round.rollout(seed=...)`` → ``score()``:
    the deal, 52 random legal plays inside the engine core, and the score, like the
    OpenSpiel baseline (chance nodes, random actions, returns)."""
    counter = [0]

    def run(_: None) -> int:
        base = counter[0]
        counter[0] += 100
        for seed in range(base, base + 100):
            deal(rules=rules, seed=seed).rollout(seed=seed).score()
        return 100

    return timer.rate(run)


def bench_match(timer: Timer, rng: random.Random) -> tuple[float, float, str]:
    """(matches/s, deals per match, driver): random bots until the loss threshold."""
    try:
        from gongzhu.bots import RandomStrategy, play_match  # type: ignore[attr-defined]
    except ImportError:
        RandomStrategy = play_match = None

    deals_played = [0, 0]
    if play_match is not None and RandomStrategy is not None:
        driver = "gongzhu.bots.play_match"

        def one(seed: int) -> None:
            bots = [RandomStrategy(seed=seed * 4 + i) for i in range(4)]
            result = play_match(bots, seed=seed)
            match = result[0] if isinstance(result, tuple) else result
            deals_played[0] += match.deal_count

    else:
        driver = "local random driver + Match"
        choice = rng.choice

        def one(seed: int) -> None:
            m = Match()
            leader = None
            k = 0
            while not m.is_over:
                r = deal(rules=m.rules, seed=seed * 1000 + k, leader=leader, dealer=m.dealer)
                r = _declined(r)
                k += 1
                while not r.is_over:
                    r = r.play(choice(r.legal_plays))
                m = m.add(r)
                leader = m.next_leader
            deals_played[0] += m.deal_count

    # Every batch plays the same seeded matches: match lengths vary a lot, and the
    # best of batches of unequal work would favour the short ones.
    def run(_: None) -> int:
        for seed in range(4):
            one(seed)
            deals_played[1] += 1
        return 4

    rate = timer.rate(run)
    per_match = deals_played[0] / deals_played[1] if deals_played[1] else 0.0
    return rate, per_match, driver


def bench_state_size(rng: random.Random) -> tuple[float, float, float]:
    """(bytes per Round in a 52-ply line, KB for all 53 states of a deal, KB for the deal alone)."""
    rules = RuleSet()
    choice = rng.choice
    results = []
    for seed in range(20):
        # The line's plays are chosen before measuring so that only Rounds are traced.
        r = _declined(deal(rules=rules, seed=seed))
        plays = []
        while not r.is_over:
            card = choice(r.legal_plays)
            plays.append(card)
            r = r.play(card)
        del r
        gc.collect()
        tracemalloc.start()
        t0 = tracemalloc.get_traced_memory()[0]
        first = _declined(deal(rules=rules, seed=seed))
        t1 = tracemalloc.get_traced_memory()[0]
        states = [first]
        for card in plays:
            states.append(states[-1].play(card))
        t2 = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        results.append((t1 - t0, t2 - t0, len(states)))
        del states, first
    first_b = min(a for a, _, _ in results)
    all_b = min(b for _, b, _ in results)
    n = results[0][2]
    return (all_b - first_b) / (n - 1), all_b / 1024, first_b / 1024


def bench_help(repeats: int, wall: bool) -> float:
    """Seconds for ``gongzhu --help`` in a new process, best of ``repeats``: the child's
    CPU time (user + system), or the wall clock with ``--wall``."""
    import resource
    import subprocess

    script = os.path.join(os.path.dirname(sys.executable), "gongzhu")
    if os.path.exists(script) and os.environ.get("PYTHONPATH") is None:
        command = [script, "--help"]
    else:  # a checkout or a pure copy on PYTHONPATH: the same entry point
        command = [sys.executable, "-m", "gongzhu", "--help"]

    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    clock = time.perf_counter if wall else cpu
    best = float("inf")
    for _ in range(max(3, repeats)):
        t0 = clock()
        subprocess.run(command, check=True, capture_output=True)
        best = min(best, clock() - t0)
    return best


def bench_import(repeats: int) -> tuple[float, float, str]:
    """Milliseconds ``import gongzhu`` and ``import json`` take in a new process, best of
    ``repeats`` (at least 5), and the heavy modules ``import gongzhu`` loaded ("" if none).

    Python's own ``-X importtime`` figure (the cumulative time of the top-level import),
    so the interpreter's start-up is not counted; ``import json`` is the baseline of the
    same run. Bytecode is written by a first import, not recompiled on every one.
    """
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    heavy = ("gongzhu.ai", "gongzhu.svg", "gongzhu.web", "gongzhu.i18n", "gongzhu.record")
    probe = f"import sys, gongzhu; print(*(m for m in sys.modules if m.startswith({heavy!r})))"
    loaded = subprocess.run(
        [sys.executable, "-c", probe], env=env, check=True, capture_output=True, text=True
    ).stdout.strip()

    def best(module: str) -> float:
        times = []
        for _ in range(max(5, repeats)):
            err = subprocess.run(
                [sys.executable, "-X", "importtime", "-c", f"import {module}"],
                env=env, check=True, capture_output=True, text=True,
            ).stderr  # fmt: skip
            last = [line for line in err.splitlines() if line.endswith(f"| {module}")][-1]
            times.append(int(last.split("|")[1]) / 1000)
        return min(times)

    return best("gongzhu"), best("json"), loaded


def bench_record(timer: Timer, rng: random.Random) -> float | str:
    try:
        from gongzhu import record
    except ImportError:
        return "gongzhu.record not available"
    dumps = getattr(record, "dumps", None)
    loads = getattr(record, "loads", None)
    if dumps is None or loads is None:
        return "gongzhu.record has no dumps/loads"
    choice = rng.choice
    rounds = []
    for seed in range(50):
        r = _declined(deal(seed=seed))
        while not r.is_over:
            r = r.play(choice(r.legal_plays))
        rounds.append(r)
    try:
        loads(dumps(rounds[0]))
    except Exception as exc:  # the API may differ from what this suite expects
        return f"record.dumps/loads failed on a finished Round: {type(exc).__name__}: {exc}"

    def run(_: None) -> int:
        for r in rounds:
            loads(dumps(r))
        return len(rounds)

    return timer.rate(run)


def _mid_positions(rules: RuleSet, count: int, plays: int = 20) -> list[Any]:
    """Rounds ``plays`` cards into random deals (the positions a search rolls out from)."""
    out = []
    for seed in range(count):
        r = _declined(deal(rules=rules, seed=10_000 + seed)).rollout(seed=seed)
        start = _declined(deal(rules=rules, seed=10_000 + seed))
        for action in r.history[len(start.history) : len(start.history) + plays]:
            start = start.apply(action)
        out.append(start)
    return out


def bench_mid_rollout(timer: Timer, rules: RuleSet) -> float:
    """Rollouts/s of ``pos.rollout(seed=k).score()`` from positions 20 cards into a deal."""
    positions = _mid_positions(rules, 20)
    counter = [0]

    def run(_: None) -> int:
        k = counter[0]
        counter[0] += 5 * len(positions)
        for pos in positions:
            for j in range(5):
                pos.rollout(seed=k + j).score()
            k += 5
        return 5 * len(positions)

    return timer.rate(run)


def bench_board_rollout(timer: Timer, rules: RuleSet) -> float | str:
    """Rollouts/s of ``board.copy().rollout(seed=k)`` (the totals) on a :class:`gongzhu.Board`
    of the same positions: the mutable board a search keeps."""
    board_class = getattr(gongzhu, "Board", None)
    if board_class is None:
        return "gongzhu.Board not available"
    boards = [board_class(pos) for pos in _mid_positions(rules, 20)]
    counter = [0]

    def run(_: None) -> int:
        k = counter[0]
        counter[0] += 5 * len(boards)
        for board in boards:
            for j in range(5):
                board.copy().rollout(seed=k + j)
            k += 5
        return 5 * len(boards)

    return timer.rate(run)


def _int_lane_runner(rules: RuleSet, rng: random.Random, deals: int) -> Callable[[None], int]:
    choice = rng.choice
    counter = [0]

    def run(_: None) -> int:
        base = counter[0]
        counter[0] += deals
        for seed in range(base, base + deals):
            r = deal(rules=rules, seed=seed)
            ids = r.legal_actions()
            while ids:
                r = r.apply(choice(ids))
                ids = r.legal_actions()
            r.score()
        return deals

    return run


def bench_int_lane(timer: Timer, rules: RuleSet, rng: random.Random) -> float:
    """Deals/s of the public integer lane: ``legal_actions()`` → ``apply(id)`` … ``score()``."""
    return timer.rate(_int_lane_runner(rules, rng, 50))


def bench_view(timer: Timer, rng: random.Random) -> float:
    """Microseconds per ``Round.view(seat to act)`` along played deals, state after state,
    as a bot or an environment asks for it (each batch replays fresh deals: nothing is
    shared with an earlier batch)."""
    lines = []
    for seed in range(8):
        r = _declined(deal(seed=seed))
        start = r
        while not r.is_over:
            r = r.play(rng.choice(r.legal_plays))
        lines.append((start, r.history[len(start.history) :]))

    def prepare() -> list[Any]:
        states = []
        for start, actions in lines:
            r = pickle.loads(pickle.dumps(start))
            for action in actions:
                states.append(r)
                r = r.apply(action)
        return states

    def run(states: list[Any]) -> int:
        for r in states:
            r.view(r.to_act)
        return len(states)

    return 1e6 / timer.rate(run, prepare)


def bench_rule_of_thumb(timer: Timer, rules: RuleSet | None = None) -> float:
    """Milliseconds per deal of ``deal(rules, seed).rollout(RuleOfThumbStrategy())`` (the
    default rules when ``rules`` is None)."""
    from gongzhu import RuleOfThumbStrategy

    bot = RuleOfThumbStrategy()
    counter = [0]
    chosen = RuleSet() if rules is None else rules

    def run(_: None) -> int:
        base = counter[0]
        counter[0] += 5
        for seed in range(base, base + 5):
            deal(rules=chosen, seed=seed).rollout(bot)
        return 5

    return 1e3 / timer.rate(run)


def bench_search(timer: Timer, simulations: int) -> float:
    """Decisions/s of ``SearchStrategy(Limit(simulations=...))`` choosing a play mid-deal."""
    from gongzhu import Limit, SearchStrategy

    positions = _mid_positions(RuleSet(), 6, plays=9)
    bot = SearchStrategy(Limit(simulations=simulations), seed=1)

    def run(_: None) -> int:
        for pos in positions:
            view = pos.view(pos.to_act)
            bot.choose_play(view, view.legal_plays)
        return len(positions)

    return timer.rate(run)


# -- baselines ------------------------------------------------------------------------------


def _naive_playout(rng: random.Random) -> list[int]:
    """A plain, mutable, list-based random deal of a Hearts-like game (no checks, no rules
    beyond following suit)."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [deck[i::4] for i in range(4)]
    points = [0, 0, 0, 0]
    leader = 0
    for _ in range(13):
        trick = []
        for k in range(4):
            hand = hands[(leader + k) % 4]
            if trick:
                led = trick[0] // 13
                legal = [c for c in hand if c // 13 == led] or hand
            else:
                legal = hand
            card = rng.choice(legal)
            hand.remove(card)
            trick.append(card)
        led = trick[0] // 13
        best = max(range(4), key=lambda i: trick[i] if trick[i] // 13 == led else -1)
        leader = (leader + best) % 4
        points[leader] += sum(1 for c in trick if c // 13 == 2) + 13 * (37 in trick)
    return points


def bench_naive(timer: Timer, rng: random.Random) -> float:
    def run(_: None) -> int:
        for _ in range(50):
            _naive_playout(rng)
        return 50

    return timer.rate(run)


def openspiel_game() -> tuple[Any, str] | str:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError as exc:
        return f'OpenSpiel not installed ({exc}); `pip install ".[bench]"` or open_spiel'
    try:
        from importlib.metadata import version

        ver = version("open_spiel")
    except Exception:
        ver = "?"
    # No passing phase: Gong Zhu has none, so both engines deal and play 52 cards.
    return pyspiel.load_game("hearts", {"pass_cards": False}), ver


def bench_openspiel(timer: Timer, game: Any, rng: random.Random) -> float:
    choice = rng.choice

    def playout() -> None:
        state = game.new_initial_state()
        # The deal is 52 chance nodes with uniform outcomes, so a random legal action
        # samples them correctly too; this is the cheapest way to drive the game
        # from Python (cheaper than chance_outcomes()), i.e. the stricter baseline.
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        state.returns()

    def run(_: None) -> int:
        for _ in range(20):
            playout()
        return 20

    return timer.rate(run)


def bench_openspiel_mid(timer: Timer, game: Any, rng: random.Random, plays: int = 20) -> float:
    """Rollouts/s of OpenSpiel cloning a position ``plays`` cards into a deal and playing it
    out at random (``clone()`` → ``apply_action`` … → ``returns()``)."""
    choice = rng.choice
    positions = []
    for _ in range(20):
        state = game.new_initial_state()
        played = 0
        while played < plays:
            if not state.is_chance_node():
                played += 1
            state.apply_action(choice(state.legal_actions()))
        positions.append(state)

    def run(_: None) -> int:
        for pos in positions:
            for _ in range(5):
                state = pos.clone()
                while not state.is_terminal():
                    state.apply_action(choice(state.legal_actions()))
                state.returns()
        return 5 * len(positions)

    return timer.rate(run)


# -- report ---------------------------------------------------------------------------------


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    cores = os.cpu_count() or 0
    return f"{cpu}, {cores} logical cores, {platform.system()} {platform.release()}"


# Figures other parts of the library add: (key, label, unit, format, function). The
# function gets the Timer and the random source and returns the figure, or a string
# (a note: why it was skipped, e.g. an optional dependency is missing).
# The PettingZoo environment's figure ("PettingZoo step vs bare Round.play") goes here.
EXTRA_FIGURES: list[tuple[str, str, str, str, Callable[[Timer, random.Random], float | str]]] = []

# key: (op, limit for the compiled build, limit for the pure build); None: no target.
# The ratio targets of issue #10 are measured on rules without exposure, as
# OpenSpiel's Hearts has none.
# Issue #18 sets the ratios to OpenSpiel (compiled build; the pure build's where it says),
# the view's time and the rule-of-thumb rollout (50× faster than 6.65 ms a deal).
TARGETS: dict[str, tuple[str, float | None, float | None]] = {
    "playout": (">=", 5000.0, 5000.0),
    "playout_vs_openspiel": (">=", 1.0, None),
    "int_lane_vs_openspiel": (">=", 2.5, None),
    "rollout_vs_openspiel": (">=", 6.0, None),
    "mid_rollout_vs_openspiel": (">=", 10.0, 3.0),
    "view_us": ("<=", 10.0, 10.0),
    "rule_of_thumb_ms": ("<=", 6.65 / 50, None),
    "score_default": (">=", 500_000.0, 200_000.0),
    "step_us": ("<=", 3.0, 3.0),
    "all_states_kb": ("<=", 20.0, 20.0),
    "help_s": ("<=", 0.3, 0.3),
    # Issue 28: the rules core only (absolute: Python's -X importtime, start-up excluded).
    "import_ms": ("<=", 50.0, 50.0),
}

# Rules without exposure (OpenSpiel's Hearts has none) for the figures compared with it.
NO_EXPOSURE = RuleSet(exposable="")


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure of this build, with the baselines, as a JSON-safe dict."""
    repeats = args.repeats or (1 if args.quick else 5)
    # CPU time of this process by default: on a shared machine, wall time also counts
    # the time other processes hold the core (the figures are for one core).
    clock = time.perf_counter if args.wall else time.process_time
    timer = Timer(repeats, 0.04 if args.quick else 0.4, clock)
    rng = random.Random(args.seed)
    os_game = openspiel_game()

    fig: dict[str, Any] = {}
    notes: dict[str, str] = {}
    # The ratios: the engine's playouts and the baselines take turns, one repeat each,
    # and each keeps its best, so a burst of load on a shared machine penalises
    # neither side of a ratio.
    once = Timer(1, timer.budget, timer.clock)
    playout, rollout, naive, osr = [], [], [], []
    int_lane, mid, os_mid, board = [], [], [], []
    for _ in range(repeats):
        naive.append(bench_naive(once, rng))
        playout.append(bench_playout(once, NO_EXPOSURE, rng))
        int_lane.append(bench_int_lane(once, NO_EXPOSURE, rng))
        rollout.append(bench_rollout(once, NO_EXPOSURE))
        mid.append(bench_mid_rollout(once, NO_EXPOSURE))
        board_rate = bench_board_rollout(once, NO_EXPOSURE)
        if isinstance(board_rate, str):
            notes["board_rollout"] = board_rate
        else:
            board.append(board_rate)
        if not isinstance(os_game, str):
            osr.append(bench_openspiel(once, os_game[0], rng))
            os_mid.append(bench_openspiel_mid(once, os_game[0], rng))
    fig["playout"] = max(playout)
    fig["int_lane"] = max(int_lane)
    fig["rollout"] = max(rollout)
    fig["mid_rollout"] = max(mid)
    if board:
        fig["board_rollout"] = max(board)

    fig["score_default"] = bench_score(timer, RuleSet(), rng)
    fig["score_sign_swap"] = bench_score(timer, RuleSet(sign_swap=True), rng)
    fig["step_us"] = bench_step(timer, rng)
    fig["view_us"] = bench_view(timer, rng)
    fig["rule_of_thumb_ms"] = bench_rule_of_thumb(timer)
    # A fixed simulation count per decision (the CI smoke run uses a tenth of it).
    sims = max(1, args.simulations // 10) if args.quick else args.simulations
    fig["search"] = bench_search(Timer(1 if args.quick else 3, timer.budget, timer.clock), sims)
    notes["search"] = f"{sims} simulations per decision, 6 positions 9 cards into a deal"
    fig["playout_exposable"] = bench_playout(timer, RuleSet(), rng)
    fig["playout_5p"] = bench_playout(timer, RuleSet(players=5), rng)
    fig["playout_exposed"] = bench_playout(timer, RuleSet(), rng, expose=True)
    fig["rollout_default"] = bench_rollout(timer, RuleSet())
    mrate, per_match, driver = bench_match(timer, rng)
    fig["match"] = mrate
    fig["match_deals"] = per_match
    notes["match"] = driver
    per_state, all_kb, first_kb = bench_state_size(rng)
    fig["state_bytes"] = per_state
    fig["all_states_kb"] = all_kb
    fig["deal_kb"] = first_kb
    rec = bench_record(timer, rng)
    if isinstance(rec, str):
        notes["record"] = rec
    else:
        fig["record"] = rec
    for key, _label, _unit, _fmt, function in EXTRA_FIGURES:
        value = function(timer, rng)
        if isinstance(value, str):
            notes[key] = value
        else:
            fig[key] = value
    fig["help_s"] = bench_help(repeats, args.wall)
    fig["import_ms"], fig["import_json_ms"], loaded = bench_import(repeats)
    if loaded:
        notes["import"] = f"import gongzhu loaded heavy modules: {loaded}"

    fig["naive"] = max(naive)
    fig["playout_vs_naive"] = fig["playout"] / fig["naive"]
    if osr:
        fig["openspiel"] = max(osr)
        fig["playout_vs_openspiel"] = fig["playout"] / fig["openspiel"]
        fig["rollout_vs_openspiel"] = fig["rollout"] / fig["openspiel"]
        fig["int_lane_vs_openspiel"] = fig["int_lane"] / fig["openspiel"]
        fig["openspiel_mid"] = max(os_mid)
        fig["mid_rollout_vs_openspiel"] = fig["mid_rollout"] / fig["openspiel_mid"]
        if board:
            fig["board_rollout_vs_openspiel"] = fig["board_rollout"] / fig["openspiel_mid"]
    else:
        notes["openspiel"] = str(os_game)

    compiled = bool(getattr(gongzhu, "compiled", False))
    header = {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "machine": machine(),
        "gongzhu": gongzhu.__version__,
        "build": "compiled" if compiled else "pure",
        "file": gongzhu.__file__,
        "open_spiel": os_game[1] if not isinstance(os_game, str) else None,
        "quick": args.quick,
        "repeats": repeats,
        "clock": "wall" if args.wall else "process CPU time",
    }
    targets = {}
    for key, (op, *limits) in TARGETS.items():
        limit = limits[0] if compiled else limits[1]
        met = None
        if key in fig and limit is not None:
            met = fig[key] >= limit if op == ">=" else fig[key] <= limit
        targets[key] = {"op": op, "limit": limit, "met": met}
    return {"header": header, "figures": fig, "notes": notes, "targets": targets}


def run_both(argv: list[str]) -> list[dict[str, Any]]:
    """This script's JSON from the compiled install and from a pure copy of its sources."""
    import subprocess
    import tempfile

    if not getattr(gongzhu, "compiled", False):
        raise SystemExit(
            "--both compares the compiled build with a pure copy of it, but this gongzhu "
            f"({gongzhu.__file__}) is pure Python: install it with a C compiler "
            "(`pip install .`) and run this script with that Python"
        )
    from gongzhu.build import _pure_copy

    rest = [a for a in argv if a != "--both"] + ["--json"]
    results = []
    with tempfile.TemporaryDirectory(prefix="gongzhu-bench-") as tmp:
        env = dict(os.environ)
        # The compiled run keeps the caller's PYTHONPATH (a build installed with
        # ``pip install --target DIR`` is found through it); the pure copy goes first.
        outer = env.get("PYTHONPATH")
        for pythonpath in (None, _pure_copy(tmp)):
            if pythonpath is not None:
                env["PYTHONPATH"] = pythonpath + (os.pathsep + outer if outer else "")
            out = subprocess.run(
                [sys.executable, os.path.abspath(__file__), *rest],
                env=env,
                cwd=tmp,
                check=False,
                capture_output=True,
                text=True,
            )
            if out.returncode:
                sys.stderr.write(out.stderr)
                raise SystemExit(f"the {'pure' if pythonpath else 'compiled'} run failed")
            results.append(json.loads(out.stdout))
    want = ["compiled", "pure"]
    got = [r["header"]["build"] for r in results]
    if got != want:
        raise SystemExit(f"--both expected the builds {want}, got {got}")
    return results


ROWS: list[tuple[str, str, str, str]] = [
    ("score_default", "score(), default rules", "deals/s", "{:,.0f}"),
    ("score_sign_swap", "score(), sign-swap rules", "deals/s", "{:,.0f}"),
    ("step_us", "legal_plays + choice + play()", "µs/step", "{:.2f}"),
    ("view_us", "Round.view(seat to act)", "µs", "{:.2f}"),
    ("playout", "card lane: legal_plays → play(card), no exposure", "deals/s", "{:,.0f}"),
    ("int_lane", "int lane: legal_actions → apply(id), no exp.", "deals/s", "{:,.0f}"),
    ("playout_exposable", "random playout, default rules", "deals/s", "{:,.0f}"),
    ("playout_5p", "random playout, 5 players", "deals/s", "{:,.0f}"),
    ("playout_exposed", "random playout, with exposures", "deals/s", "{:,.0f}"),
    ("rollout", "Round.rollout(), no exposure", "deals/s", "{:,.0f}"),
    ("rollout_default", "Round.rollout(), default rules", "deals/s", "{:,.0f}"),
    ("mid_rollout", "pos.rollout(seed).score(), 20 cards in", "rollouts/s", "{:,.0f}"),
    ("board_rollout", "Board(pos).copy().rollout(seed), 20 in", "rollouts/s", "{:,.0f}"),
    ("rule_of_thumb_ms", "Round.rollout(RuleOfThumbStrategy())", "ms/deal", "{:.3f}"),
    ("search", "SearchStrategy decision, fixed simulations", "decisions/s", "{:,.1f}"),
    ("match", "match of random bots to -1000", "matches/s", "{:,.1f}"),
    ("match_deals", "  deals per match", "deals", "{:.1f}"),
    ("state_bytes", "state size, 52-ply line", "bytes/Round", "{:,.0f}"),
    ("all_states_kb", "all 53 states of a deal alive", "KB", "{:.1f}"),
    ("deal_kb", "  of which the dealt Round", "KB", "{:.1f}"),
    ("record", "record dumps + loads", "records/s", "{:,.0f}"),
    ("help_s", "gongzhu --help (new process)", "s", "{:.3f}"),
    ("import_ms", "import gongzhu (new process, -X importtime)", "ms", "{:.1f}"),
]
BASELINE_ROWS: list[tuple[str, str, str, str]] = [
    ("import_json_ms", "import json (new process, -X importtime)", "ms", "{:.1f}"),
    ("naive", "naive list-based playout", "deals/s", "{:,.0f}"),
    ("playout_vs_naive", "playout / naive", "×", "{:.2f}"),
    ("openspiel", "OpenSpiel Hearts playout", "deals/s", "{:,.0f}"),
    ("playout_vs_openspiel", "card lane / OpenSpiel", "×", "{:.2f}"),
    ("int_lane_vs_openspiel", "int lane / OpenSpiel", "×", "{:.2f}"),
    ("rollout_vs_openspiel", "deal+rollout+score / OpenSpiel", "×", "{:.2f}"),
    ("openspiel_mid", "OpenSpiel clone + playout, 20 cards in", "rollouts/s", "{:,.0f}"),
    ("mid_rollout_vs_openspiel", "mid-deal rollout / OpenSpiel", "×", "{:.2f}"),
    ("board_rollout_vs_openspiel", "Board rollout / OpenSpiel", "×", "{:.2f}"),
]


def print_table(results: list[dict[str, Any]]) -> None:
    """One column of figures per build (with its targets), the baselines of each run."""
    first = results[0]["header"]
    print(f"gongzhu {first['gongzhu']} benchmarks — {first['python']}")
    print(f"machine: {first['machine']}")
    if first["open_spiel"]:
        print(f"open_spiel {first['open_spiel']}")
    quick = " (--quick)" if first["quick"] else ""
    print(f"best batch of {first['repeats']} repeat(s), {first['clock']}{quick}")
    for r in results:
        print(f"{r['header']['build']} build: {r['header']['file']}")
    print()

    def cell(result: dict[str, Any], key: str, fmt: str) -> str:
        value = result["figures"].get(key)
        text = "-" if value is None else fmt.format(value)
        target = result["targets"].get(key)
        if target and target["limit"] is not None:
            mark = {True: "ok", False: "MISSED", None: "n/a"}[target["met"]]
            text += f" ({target['op']} {target['limit']:,g} {mark})"
        return text

    extra = [(k, label, unit, fmt) for k, label, unit, fmt, _ in EXTRA_FIGURES]
    table = [("figure", *(r["header"]["build"] for r in results), "unit")]
    for key, label, unit, fmt in [*ROWS, *extra, ("", "-- baselines (same run) --", "", ""),
                                  *BASELINE_ROWS]:  # fmt: skip
        if not key:
            table.append((label, *("" for _ in results), ""))
        elif any(key in r["figures"] for r in results):
            table.append((label, *(cell(r, key, fmt) for r in results), unit))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        label, *values, unit = row
        line = f"{label:<{widths[0]}}"
        for i, value in enumerate(values, 1):
            line += f"  {value:>{widths[i]}}"
        print(f"{line}  {unit}".rstrip())
    for r in results:
        for key, note in r["notes"].items():
            print(f"note [{r['header']['build']}, {key}]: {note}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="CI smoke run (a second or two)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--both", action="store_true", help="run the compiled and the pure build, one table"
    )
    parser.add_argument("--repeats", type=int, default=None, help="repeats per figure (best wins)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the random inputs")
    parser.add_argument(
        "--simulations", type=int, default=200, help="simulations per search decision"
    )
    parser.add_argument(
        "--wall", action="store_true", help="time with the wall clock instead of CPU time"
    )
    parser.add_argument(
        "--vector", action="store_true", help="the batched engine's figures (benchmarks/vector.py)"
    )
    args = parser.parse_args(argv)
    if args.vector:  # issue #29: its own table, against OpenSpiel in the same run
        # Run as its own script, not imported: vector.py imports this module's timer and
        # baselines, and an import back would tie the two into a circle.
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vector.py")
        flags = (["--quick"] if args.quick else []) + (["--json"] if args.json else [])
        return subprocess.call([sys.executable, script, *flags])
    results = run_both(sys.argv[1:] if argv is None else argv) if args.both else [measure(args)]
    if args.json:
        print(json.dumps(results if args.both else results[0], indent=2))
    else:
        print_table(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
