"""Many bot deals or matches at once, with aggregated statistics: :func:`simulate`.

Every task (one deal, or one match) gets its own seed derived from the
simulation's ``seed`` and the task number, and the bots are built afresh for
each task. So the result depends only on the arguments — never on how many
worker processes ran the tasks or in which order they finished.
``workers=1`` runs in this process; more use a
:class:`concurrent.futures.ProcessPoolExecutor` (standard library only).

>>> sim = simulate(40, seed=1)
>>> sim.deals, len(sim.mean_scores)
(40, 4)
>>> sim == simulate(40, seed=1)
True
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Final

import attrs

from gongzhu.bots import STRATEGIES, Strategy, make_strategy, play_deal, play_match
from gongzhu.cards import PIG, SHEEP, TRANSFORMER
from gongzhu.errors import SimulationError
from gongzhu.round import Round
from gongzhu.rules import RuleSet

__all__ = ["BotTable", "Simulation", "play_task", "simulate", "task_seed"]

_DEFAULT_RULES: Final = RuleSet()
_MATCH_CAP: Final = 200
"""Deals after which a simulated match is abandoned (a safety cap; real matches end far sooner)."""


def _names(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


@attrs.frozen
class BotTable:
    """A picklable strategy factory: one strategy name per seat (:data:`~gongzhu.bots.STRATEGIES`).

    Called with a task seed it builds fresh strategies; seat ``s`` of a random
    strategy is seeded with ``seed * 16 + s`` so seats play independently.

    >>> BotTable(("rule-of-thumb", "random", "rule-of-thumb", "random"))(7)[:2]
    [RuleOfThumbStrategy(), RandomStrategy(seed=113, expose_probability=0.0)]
    """

    names: tuple[str, ...] = attrs.field(converter=_names)

    @names.validator
    def _check(self, _attribute: object, names: tuple[str, ...]) -> None:
        for name in names:
            if name not in STRATEGIES:
                raise SimulationError(f"unknown strategy {name!r}; known: {', '.join(STRATEGIES)}")

    @classmethod
    def uniform(cls, name: str, players: int) -> BotTable:
        """The same strategy at every seat."""
        return cls((name,) * players)

    def __call__(self, seed: int) -> list[Strategy]:
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
    return random.Random(f"gongzhu-simulate:{seed}:{number}").getrandbits(48)


def play_task(
    rules: RuleSet, factory: StrategyFactory, seed: int, number: int, matches: bool
) -> tuple[Round, ...]:
    """The deals of task ``number``: one deal (dealer rotating with ``number``), or a whole match.

    This is what each worker runs; :func:`simulate` keeps only the statistics.
    The CLI calls it to record the very deals a simulation played.
    """
    ts = task_seed(seed, number)
    strategies = factory(ts)
    if matches:
        return play_match(strategies, rules, seed=ts, max_deals=_MATCH_CAP)[1]
    return (play_deal(strategies, rules, seed=ts, dealer=number % rules.players),)


def _run_chunk(
    rules: RuleSet, factory: StrategyFactory, seed: int, numbers: range, matches: bool
) -> list[_TaskResult]:
    out: list[_TaskResult] = []
    for number in numbers:
        rounds = play_task(rules, factory, seed, number, matches)
        outcome = _match_outcome(rules, rounds) if matches else None
        out.append(([_facts(r) for r in rounds], outcome))
    return out


def _match_outcome(
    rules: RuleSet, rounds: Sequence[Round]
) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    from gongzhu.match import Match

    match = Match(rules).extend(rounds)
    return match.losers, match.winners, match.is_over


def simulate(
    n: int,
    rules: RuleSet = _DEFAULT_RULES,
    strategies: StrategyFactory | None = None,
    *,
    matches: bool = False,
    workers: int = 1,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Simulation:
    """Play ``n`` deals (or ``n`` matches with ``matches=True``) among bots; aggregate statistics.

    ``strategies`` builds one strategy per seat from a task seed (default:
    :class:`RuleOfThumbStrategy <gongzhu.bots.RuleOfThumbStrategy>` at every
    seat). Deal ``k`` is dealt by seat ``k mod players`` and led by the
    opening-card holder; a match runs to its end (or 200 deals). ``workers``
    processes share the tasks (``workers=1``: in this process; ``0``: one per
    CPU). ``progress(done, n)`` is called as tasks finish. The result is the
    same for every ``workers``.

    >>> a = simulate(12, RuleSet.preset("online"), BotTable(("random",) * 4), seed=5)
    >>> a.deals, sum(a.pig_taken) <= 12
    (12, True)
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise SimulationError(f"n must be a non-negative int, got {n!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise SimulationError(f"workers must be a non-negative int, got {workers!r}")
    if (
        matches
        and rules.loss_threshold is None
        and rules.win_threshold is None
        and (rules.max_deals is None)
    ):
        raise SimulationError("these rules never end a match; simulate deals instead")
    factory: StrategyFactory = strategies or BotTable.uniform("rule-of-thumb", rules.players)
    workers = workers or os.cpu_count() or 1
    workers = max(1, min(workers, n))
    # A few chunks per worker balance the load without much pickling.
    size = max(1, -(-n // (workers * 4)))
    chunks = [range(i, min(n, i + size)) for i in range(0, n, size)]
    results: list[list[_TaskResult]] = [[] for _ in chunks]
    done = 0
    if workers == 1:
        for k, numbers in enumerate(chunks):
            results[k] = _run_chunk(rules, factory, seed, numbers, matches)
            done += len(numbers)
            if progress is not None:
                progress(done, n)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {
                pool.submit(_run_chunk, rules, factory, seed, numbers, matches): k
                for k, numbers in enumerate(chunks)
            }
            for future in as_completed(futures):
                k = futures[future]
                results[k] = future.result()
                done += len(chunks[k])
                if progress is not None:
                    progress(done, n)
    return _aggregate(rules, seed, [r for chunk in results for r in chunk], matches)


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
