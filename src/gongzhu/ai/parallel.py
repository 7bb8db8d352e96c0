"""Many bot deals or matches at once, with aggregated statistics: :func:`simulate`.

Every task (one deal, or one match) gets its own seed derived from the
simulation's ``seed`` and the task number, and the bots are built afresh for
each task. So the result depends only on the arguments — never on how many
worker processes ran the tasks or in which order they finished.
``workers=1`` runs in this process; more use a
:class:`concurrent.futures.ProcessPoolExecutor` (standard library only);
``executor=`` runs the tasks on any :class:`concurrent.futures.Executor`
(threads, processes, a Dask ``distributed.Client``'s executor, or
:class:`gongzhu.ai.ray_executor.RayExecutor` on a Ray cluster) with the same result.

>>> sim = simulate(40, seed=1)
>>> sim.deals, len(sim.mean_scores)
(40, 4)
>>> sim == simulate(40, seed=1)
True
"""

from __future__ import annotations

import itertools
import os
import pickle
import random
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from typing import Any, Final

import attrs

from gongzhu._base.frozen import guard_setstate, refuse_reinit
from gongzhu._base.text import brief as _brief
from gongzhu.ai.registry import STRATEGIES, make_strategy
from gongzhu.ai.strategies import (
    Strategy,
    _check_seed,
    play_deal,
    play_match,
    rules_of,
)
from gongzhu.ai.tasks import check_executor, run_tasks
from gongzhu.cards import PIG, SHEEP, TRANSFORMER
from gongzhu.errors import SimulationError, SimulationTypeError
from gongzhu.round import Round
from gongzhu.rules import RuleSet

__all__ = ["BotTable", "Simulation", "play_task", "run_tasks", "simulate", "task_seed"]

_DEFAULT_RULES: Final = RuleSet()
_MATCH_CAP: Final = 200
"""Deals after which a simulated match is abandoned (a safety cap; real matches end far sooner)."""


_MAX_SEATS: Final = 5  # the most players any rule set has


def _names(value: Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, str):
        raise SimulationError(
            f"BotTable takes one strategy name per seat, not one text {_brief(value)}"
            " (BotTable.uniform(name, players) repeats a name)"
        )
    try:
        # At most one more than any table has: an endless iterable is refused, not read.
        names = tuple(itertools.islice(value, _MAX_SEATS + 1))
    except TypeError:
        raise SimulationError(
            f"BotTable takes a sequence of strategy names, got {type(value).__name__}"
        ) from None
    if len(names) > _MAX_SEATS:
        raise SimulationError(f"BotTable has one name per seat, at most {_MAX_SEATS}")
    return names


@attrs.frozen
class BotTable:
    """A picklable strategy factory: one strategy name per seat (:data:`~gongzhu.bots.STRATEGIES`).

    Called with a task seed it builds fresh strategies; seat ``s`` of a random
    strategy is seeded with ``seed * 16 + s`` so seats play independently.

    >>> BotTable(("rule-of-thumb", "random", "rule-of-thumb", "random"))(7)[:2]
    [RuleOfThumbStrategy(), RandomStrategy(seed=113, expose_probability=0.0)]
    """

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self, "names", SimulationError)  # no re-initialising a table (#11 item 9)

    names: tuple[str, ...] = attrs.field(converter=_names)

    @names.validator
    def _check(self, _attribute: object, names: tuple[str, ...]) -> None:
        for name in names:
            if not isinstance(name, str) or name not in STRATEGIES:
                raise SimulationError(
                    f"unknown strategy {_brief(name)}; known: {', '.join(STRATEGIES)}"
                )

    @classmethod
    def uniform(cls, name: str, players: int) -> BotTable:
        """The same strategy at every seat."""
        if isinstance(players, bool) or not isinstance(players, int) or not 0 < players <= 5:
            raise SimulationError(f"players must be an int 1-5, got {_brief(players)}")
        return cls((name,) * players)

    def __call__(self, seed: int) -> list[Strategy]:
        _check_seed(seed)
        return [make_strategy(name, seed * 16 + seat) for seat, name in enumerate(self.names)]


StrategyFactory = Callable[[int], Sequence[Strategy]]
"""Builds one strategy per seat from a task seed. It must be picklable (a module-level
function or an object such as :class:`BotTable`) when ``workers > 1``."""


@attrs.frozen
class Simulation:
    """Statistics of a :func:`simulate` run. Counts are per seat unless said otherwise.

    Means and rates are properties derived from the counts, so two runs with
    the same arguments compare equal.
    """

    def __attrs_pre_init__(self) -> None:
        refuse_reinit(self, "rules", SimulationError)  # no re-initialising (#11 item 9)

    rules: RuleSet = attrs.field(repr=False)
    players: int
    seed: int
    deals: int
    """Deals played (in match mode: over all matches)."""
    score_sums: tuple[int, ...]
    """Each seat's summed deal scores."""
    pig_taken: tuple[int, ...]
    """How often each seat took Q♠."""
    sheep_taken: tuple[int, ...]
    """How often each seat took J♦."""
    transformer_taken: tuple[int, ...]
    """How often each seat took 10♣."""
    sheep_deals: int
    """Deals in which somebody took the sheep."""
    sheep_taker_won: int
    """Deals the sheep's taker won outright (the highest deal score, alone)."""
    pig_taker_last: int
    """Deals the pig taker finished last (the lowest deal score, alone)."""
    all_hearts: int
    """Deals in which one seat took every heart."""
    grand_slams: int
    exposed_cards: int
    """Cards exposed, over all deals."""
    matches: int = 0
    """Matches played (0 in deal mode)."""
    losses: tuple[int, ...] = ()
    """Matches each seat lost (was "the pig"); match mode only."""
    wins: tuple[int, ...] = ()
    """Matches each seat won; match mode only."""
    unfinished: int = 0
    """Matches abandoned at the safety cap of 200 deals."""

    @property
    def mean_scores(self) -> tuple[float, ...]:
        """Each seat's mean deal score."""
        return tuple(s / self.deals for s in self.score_sums) if self.deals else ()

    @property
    def sheep_taker_win_rate(self) -> float:
        """How often the sheep's taker won the deal, among deals where it was taken."""
        return self.sheep_taker_won / self.sheep_deals if self.sheep_deals else 0.0

    def summary(self) -> str:
        """A few lines of text for people.

        >>> print(simulate(8, seed=2).summary().splitlines()[0])
        8 deals, rules classic, seed 2
        """
        n = self.players
        head = f"{self.deals} deals"
        if self.matches:
            head = f"{self.matches} matches ({self.deals} deals)"
        lines = [f"{head}, rules {self.rules}, seed {self.seed}"]
        width = 8
        lines.append("seat          " + "".join(f"{s:>{width}}" for s in range(n)))

        def row(label: str, values: Iterable[object]) -> None:
            lines.append(f"{label:14}" + "".join(f"{v:>{width}}" for v in values))

        row("mean score", (f"{m:.1f}" for m in self.mean_scores))
        row("pig taken", (_pct(c, self.deals) for c in self.pig_taken))
        row("sheep taken", (_pct(c, self.deals) for c in self.sheep_taken))
        row("10♣ taken", (_pct(c, self.deals) for c in self.transformer_taken))
        if self.matches:
            row("matches lost", self.losses)
            row("matches won", self.wins)
        lines.append(
            f"the sheep's taker won the deal in {_pct(self.sheep_taker_won, self.sheep_deals)}"
            " of the deals where it was taken;\nthe pig's taker came last in"
            f" {_pct(self.pig_taker_last, self.deals)} of all deals"
        )
        extra = [
            f"all hearts {self.all_hearts}",
            f"grand slams {self.grand_slams}",
            f"exposed cards {self.exposed_cards}",
        ]
        if self.unfinished:
            extra.append(f"unfinished matches {self.unfinished}")
        lines.append(", ".join(extra))
        return "\n".join(lines)


def _pct(count: int, total: int) -> str:
    return f"{100 * count / total:.0f}%" if total else "-"


# One deal's facts, as plain ints so they cross process boundaries cheaply:
# (totals, pig taker, sheep taker, transformer taker, all-hearts seat, grand-slam seat, exposed).
_DealFacts = tuple[tuple[int, ...], int, int, int, int, int, int]
# One task's result: its deals' facts, and for a match (losers, winners, finished).
_TaskResult = tuple[list[_DealFacts], tuple[tuple[int, ...], tuple[int, ...], bool] | None]


def _facts(rnd: Round) -> _DealFacts:
    sc = rnd.score()
    taker = {PIG: -1, SHEEP: -1, TRANSFORMER: -1}
    for seat, pile in enumerate(rnd.captured):
        for card in taker:
            if card in pile:
                taker[card] = seat
    exposed = len(rnd.exposed) + len(rnd.face_down)

    def or_none(value: int | None) -> int:
        return -1 if value is None else value

    return (
        sc.totals,
        taker[PIG],
        taker[SHEEP],
        taker[TRANSFORMER],
        or_none(sc.all_hearts_seat),
        or_none(sc.grand_slam_seat),
        exposed,
    )


def task_seed(seed: int, number: int) -> int:
    """The seed of task ``number`` of a simulation seeded with ``seed`` (stable everywhere).

    >>> task_seed(1, 0) == task_seed(1, 0) != task_seed(1, 1)
    True
    """
    _check_sim_seed(seed)
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise SimulationError(f"a task number is an int >= 0, got {_brief(number)}")
    if number >= _MAX_TASKS:
        raise SimulationError(f"a task number is below 10**15, got {_brief(number)}")
    return random.Random(f"gongzhu-simulate:{seed}:{number}").getrandbits(48)


_MAX_TASKS: Final = 10**15
"""More tasks than any run can play; it keeps task numbers short enough to format."""


def _check_sim_seed(seed: object) -> None:
    # An int only: it is formatted into every task's seed, so anything else
    # (an object seeded by its id) would not reproduce (#11 item 6).
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SimulationError(f"seed must be an int, got {type(seed).__name__}")
    _check_seed(seed)


def play_task(
    rules: RuleSet | str, factory: StrategyFactory, seed: int, number: int, matches: bool
) -> tuple[Round, ...]:
    """The deals of task ``number``: one deal (dealer rotating with ``number``), or a whole match.

    This is what each worker runs; :func:`simulate` keeps only the statistics.
    The CLI calls it to record the very deals a simulation played. ``rules`` is a
    :class:`~gongzhu.RuleSet` or a preset's name.
    """
    rules = rules_of(rules)
    if not callable(factory):
        raise SimulationError(f"factory must be callable, got {type(factory).__name__}")
    ts = task_seed(seed, number)
    strategies = factory(ts)
    if matches:
        return play_match(strategies, rules=rules, seed=ts, max_deals=_MATCH_CAP)[1]
    return (play_deal(strategies, rules=rules, seed=ts, dealer=number % rules.players),)


def _run_chunk(
    rules: RuleSet, factory: StrategyFactory, seed: int, numbers: range, matches: bool
) -> list[_TaskResult]:
    out: list[_TaskResult] = []
    for number in numbers:
        rounds = play_task(rules, factory, seed, number, matches)
        outcome = _match_outcome(rules, rounds) if matches else None
        out.append(([_facts(r) for r in rounds], outcome))
    return out


def _run_chunk_in_worker(
    rules: RuleSet, factory: StrategyFactory, seed: int, numbers: range, matches: bool
) -> list[_TaskResult]:
    """:func:`_run_chunk` in a worker process: its error must survive the trip back."""
    try:
        return _run_chunk(rules, factory, seed, numbers, matches)
    except Exception as exc:
        try:
            pickle.loads(pickle.dumps(exc))
        except Exception:
            # An error that cannot be rebuilt in the parent (say a strategy's own
            # exception class needing arguments) would kill the pool and surface as
            # "BrokenProcessPool: terminated abruptly"; say what it was instead.
            raise SimulationError(
                f"a task in tasks {numbers.start}-{numbers.stop - 1} raised"
                f" {type(exc).__name__}: {_clip(exc)} (that error cannot be sent back from"
                " a worker process; run with workers=1 to get it as it is)"
            ) from None
        raise


def _clip(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:
        text = "?"
    return text if len(text) <= 200 else text[:199] + "…"


def _match_outcome(
    rules: RuleSet, rounds: Sequence[Round]
) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    from gongzhu.match import Match

    match = Match(rules).extend(rounds)
    return match.losers, match.winners, match.is_over


def _check_simulate(
    n: object,
    rules: RuleSet,
    strategies: object,
    matches: object,
    workers: object,
    seed: object,
    progress: object,
    executor: object,
) -> None:
    """Refuse :func:`simulate`'s bad arguments with a :class:`~gongzhu.SimulationError`."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < _MAX_TASKS:
        error = SimulationError if isinstance(n, int) else SimulationTypeError
        raise error(f"n must be a non-negative int below 10**15, got {_brief(n)}")
    if strategies is not None and not callable(strategies):
        raise SimulationTypeError(
            "strategies must build one strategy per seat from a task seed (a callable"
            f" such as BotTable), got {type(strategies).__name__}"
        )
    if not isinstance(matches, bool):
        raise SimulationError(f"matches must be True or False, got {_brief(matches)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise SimulationError(f"workers must be a non-negative int, got {_brief(workers)}")
    _check_sim_seed(seed)
    if progress is not None and not callable(progress):
        raise SimulationError(f"progress must be callable, got {type(progress).__name__}")
    check_executor(executor, SimulationError)
    if (
        matches
        and rules.loss_threshold is None
        and rules.win_threshold is None
        and (rules.max_deals is None)
    ):
        raise SimulationError("these rules never end a match; simulate deals instead")


def simulate(
    n: int,
    *,
    rules: RuleSet | str = _DEFAULT_RULES,
    strategies: StrategyFactory | None = None,
    matches: bool = False,
    workers: int = 1,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
) -> Simulation:
    """Play ``n`` deals (or ``n`` matches with ``matches=True``) among bots; aggregate statistics.

    ``rules`` is a :class:`~gongzhu.RuleSet` or a preset name (``"classic"``).
    ``strategies`` builds one strategy per seat from a task seed (default:
    :class:`RuleOfThumbStrategy <gongzhu.bots.RuleOfThumbStrategy>` at every
    seat). Deal ``k`` is dealt by seat ``k mod players`` and led by the
    opening-card holder; a match runs to its end (or 200 deals). ``seed`` is an
    int. ``progress(done, n)`` is called as tasks finish. The result is the
    same for every ``workers``.

    ``workers`` processes share the tasks (``1``: in this process; ``0``: one
    per CPU available to this process). More workers than CPUs would only
    compete for them, so ``workers`` is capped at the CPU count, with a
    :class:`RuntimeWarning` saying so.

    ``executor``: run the tasks on this :class:`concurrent.futures.Executor`
    instead (``workers`` then only sets how they are chunked, never the
    result); the caller owns it and shuts it down. The tasks, the strategy
    factory and its strategies must then be picklable for a process or
    cluster executor.

    Interrupting (Ctrl-C), an exception from ``progress`` or from a task stops
    the run at once: the worker processes are terminated (they ignore SIGINT
    themselves) and the exception reaches the caller as it was raised — a
    bot's illegal move as the engine's :class:`~gongzhu.IllegalActionError`.
    With an ``executor`` of your own, the tasks not yet finished are cancelled
    (what a process pool already runs ends in its own time).
    Bad arguments raise :class:`~gongzhu.SimulationError`.

    >>> from gongzhu import RuleSet
    >>> table = BotTable(("random",) * 4)
    >>> a = simulate(12, rules=RuleSet.preset("online"), strategies=table, seed=5)
    >>> a.deals, sum(a.pig_taken) <= 12
    (12, True)
    """
    rules = rules_of(rules)
    _check_simulate(n, rules, strategies, matches, workers, seed, progress, executor)
    factory: StrategyFactory = strategies or BotTable.uniform("rule-of-thumb", rules.players)
    cpus = _cpu_count()
    if workers > cpus:
        warnings.warn(
            f"simulate: workers={_brief(workers)} capped at the {cpus} CPU(s) available",
            RuntimeWarning,
            stacklevel=2,
        )
    workers = max(1, min(workers or cpus, cpus, n))
    # A few chunks per worker balance the load without much pickling.
    size = max(1, -(-n // (workers * 4)))
    chunks = [range(i, min(n, i + size)) for i in range(0, n, size)]
    results: list[list[_TaskResult]] = [[] for _ in chunks]
    done = 0

    def finished(k: int, result: list[_TaskResult]) -> None:
        nonlocal done
        results[k] = result
        done += len(chunks[k])
        if progress is not None:
            progress(done, n)

    local = executor is None and workers == 1
    run_tasks(
        _run_chunk if local else _run_chunk_in_worker,
        [(rules, factory, seed, numbers, matches) for numbers in chunks],
        finished,
        workers=workers,
        executor=executor,
    )
    return _aggregate(rules, seed, [r for chunk in results for r in chunk], matches)


def _cpu_count() -> int:
    """The CPUs this process may run on (its affinity mask, where the OS has one)."""
    affinity: Any = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return max(1, len(affinity(0)))
    return os.cpu_count() or 1


def _aggregate(
    rules: RuleSet, seed: int, results: Sequence[_TaskResult], matches: bool
) -> Simulation:
    n = rules.players
    sums = [0] * n
    pig = [0] * n
    sheep = [0] * n
    ten = [0] * n
    losses = [0] * n
    wins = [0] * n
    deals = sheep_deals = sheep_won = pig_last = all_hearts = slams = exposed = 0
    unfinished = 0
    for facts, outcome in results:
        for totals, p, s, t, ah, gs, ex in facts:
            deals += 1
            for seat, value in enumerate(totals):
                sums[seat] += value
            top, low = max(totals), min(totals)
            if p >= 0:
                pig[p] += 1
                pig_last += totals[p] == low and totals.count(low) == 1
            if s >= 0:
                sheep[s] += 1
                sheep_deals += 1
                sheep_won += totals[s] == top and totals.count(top) == 1
            if t >= 0:
                ten[t] += 1
            all_hearts += ah >= 0
            slams += gs >= 0
            exposed += ex
        if outcome is not None:
            lost, won, finished = outcome
            for seat in lost:
                losses[seat] += 1
            for seat in won:
                wins[seat] += 1
            unfinished += not finished
    return Simulation(
        rules=rules,
        players=n,
        seed=seed,
        deals=deals,
        score_sums=tuple(sums),
        pig_taken=tuple(pig),
        sheep_taken=tuple(sheep),
        transformer_taken=tuple(ten),
        sheep_deals=sheep_deals,
        sheep_taker_won=sheep_won,
        pig_taker_last=pig_last,
        all_hearts=all_hearts,
        grand_slams=slams,
        exposed_cards=exposed,
        matches=len(results) if matches else 0,
        losses=tuple(losses) if matches else (),
        wins=tuple(wins) if matches else (),
        unfinished=unfinished,
    )


# Nor re-stated: pickle's __setstate__ on a finished object would rewrite it (#11 item 9).
guard_setstate(BotTable, "names", SimulationError)
guard_setstate(Simulation, "rules", SimulationError)


# The public path of these names is gongzhu.parallel (a module that re-exports them): repr,
# pickles and the API reference keep showing it.
for _public in (BotTable, Simulation, play_task, simulate, task_seed):
    _public.__module__ = "gongzhu.parallel"
