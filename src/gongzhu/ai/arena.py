"""Duplicate matches between two bots: :func:`run` (also ``gongzhu.arena``), :class:`ArenaResult`.

Two bots meet 2 against 2: bot A sits at seats 0 and 2, bot B at 1 and 3.
Every deal is played ``rotations`` times with the same four hands moved round
the table (rotation ``r`` gives seat ``s`` the hand of seat ``s + r``), so each
team plays every hand the other team played and the luck of the deal cancels.
A deal's figure is the mean, over its rotations, of team A's total deal score
minus team B's. The reported mean and its standard error are over deals (the
rotations of one deal are not independent, so they are not counted apart).

With 5-player rules bot A sits at seats 0, 2 and 4, bot B at 1 and 3, and
every deal is played 5 times (every hand at every seat); a game's figure is
twice the difference of the two bots' mean seat scores (for 4 players that is
exactly the team difference above), so figures read the same for 4 and 5
players. 5-player deals are dealt from a seed (``seed=0`` unless given), the
shipped deal file being 4-player.

Deals come from seeds (deal ``k`` of seed ``S`` is ``gongzhu.deal(rules,
seed=f"gongzhu-arena:{S}:{k}")``) or from a JSON deal file (:func:`load_deals`);
by default from the 1,024 deals shipped with the package
(``gongzhu/ai/deals-1024.json``), so figures are comparable across versions.

A bot is one of

* a name of :data:`gongzhu.ai.registry.STRATEGIES` (``random``,
  ``rule-of-thumb``, ``greedy``, ``search``, the levels ``easy``, ``normal``,
  ``hard``, ...), as :func:`gongzhu.bots.make_strategy` spells them;
* ``"module:factory"``: ``factory(seed)`` returns a :class:`~gongzhu.Strategy`
  (the module must be importable: run from its folder with ``PYTHONPATH=.``);
* a :class:`~gongzhu.Strategy` object of your own: it plays at every seat of
  its team in every game, so any state it keeps carries over from game to game
  (and with ``workers`` > 1 each process plays a copy of it);
* a callable ``factory(seed)`` (a class taking a seed will do): a fresh,
  seeded strategy for every game and seat, as the names get.

The result names each bot as it was given: a name as itself, a Strategy object by
its ``repr``, a factory by its ``__qualname__`` (``MyBot``, ``make_bot``); a lambda
has no name of its own, so it is ``bot A`` or ``bot B``. ``names=("mine",
"theirs")`` names the two bots outright. ``rules`` is a :class:`~gongzhu.RuleSet`
or a preset's name (``rules="online"``), as everywhere a rule set is taken.

``limit`` sets the search bot's :class:`~gongzhu.Limit`. ``print(result)``
shows the :meth:`~ArenaResult.summary`.

Each game's bots are built afresh with seeds derived from ``seed``, the deal
and the seat, so the result never depends on ``workers`` or on the order in
which worker processes finish.

>>> from gongzhu import RuleSet
>>> res = run("rule-of-thumb", "random", deals=4, rules=RuleSet(exposable=""), seed=1)
>>> res.deals, res.rotations, len(res.differences), res.wins + res.draws + res.losses
(4, 2, 4, 4)
>>> res == run("rule-of-thumb", "random", deals=4, rules=RuleSet(exposable=""), seed=1, workers=2)
True
>>> from gongzhu.bots import RuleOfThumbStrategy
>>> mine = run(RuleOfThumbStrategy(), "random", deals=4, rules=RuleSet(exposable=""), seed=1)
>>> mine.bot_a, mine.differences == res.differences
('RuleOfThumbStrategy()', True)
>>> seeded = lambda seed: RuleOfThumbStrategy()
>>> pig = run(seeded, "random", deals=4, rules="catch-the-pig", seed=1)
>>> pig.bot_a, pig.rules == RuleSet.preset("catch-the-pig")
('bot A', True)
>>> run(seeded, "random", deals=4, seed=1, names=("mine", "theirs")).summary().split(":")[0]
'mine vs theirs'
"""

from __future__ import annotations

import importlib
import math
import os
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from gongzhu._base.text import brief as _brief
from gongzhu.actions import Action, Play
from gongzhu.ai.deals import (
    _MAX_DEALS,
    DEAL_FILE,
    ArenaError,
    ArenaTypeError,
    _arena_rules,
    _seeded_deals,
    load_deals,
    save_deals,
)
from gongzhu.ai.driver import play_out
from gongzhu.ai.registry import STRATEGIES, make_strategy
from gongzhu.ai.search import Limit, SearchStrategy
from gongzhu.ai.strategies import Strategy
from gongzhu.round import Round
from gongzhu.rules import RuleSet

if TYPE_CHECKING:  # the pools load on demand: `gongzhu --help` stays quick
    from concurrent.futures import Executor

__all__ = [
    "ArenaError",
    "ArenaResult",
    "ArenaTypeError",
    "arena",
    "load_deals",
    "run",
    "save_deals",
]


@attrs.frozen
class ArenaResult:
    """The outcome of :func:`run`. Means and errors are properties of the recorded figures."""

    bot_a: str
    bot_b: str
    rules: RuleSet = attrs.field(repr=False)
    rotations: int
    source: str
    """Where the deals came from: ``seed S`` or the deal file's name."""
    differences: tuple[float, ...]
    """Per deal: team A's minus team B's total deal score, averaged over the rotations."""
    seat_sums: tuple[int, ...]
    """Each seat's summed deal scores over every game (seats 0 and 2 are bot A)."""
    moves: tuple[int, int]
    """Card plays decided by bot A and by bot B."""
    seconds: tuple[float, float] = attrs.field(eq=False)
    """CPU seconds bot A and bot B spent deciding them (``time.process_time`` of the
    process playing the game, so other jobs on the machine do not inflate it; not
    compared: it depends on the machine)."""

    @property
    def deals(self) -> int:
        return len(self.differences)

    @property
    def games(self) -> int:
        return self.deals * self.rotations

    @property
    def mean(self) -> float:
        """Mean team difference per deal (positive: bot A is stronger)."""
        return sum(self.differences) / self.deals if self.deals else 0.0

    @property
    def stderr(self) -> float:
        """Standard error of :attr:`mean`, over deals."""
        n = self.deals
        if n < 2:
            return 0.0
        m = self.mean
        var = sum((d - m) ** 2 for d in self.differences) / (n - 1)
        return math.sqrt(var / n)

    @property
    def wins(self) -> int:
        """Deals bot A won (positive difference)."""
        return sum(1 for d in self.differences if d > 0)

    @property
    def draws(self) -> int:
        return sum(1 for d in self.differences if d == 0)

    @property
    def losses(self) -> int:
        return sum(1 for d in self.differences if d < 0)

    @property
    def seat_means(self) -> tuple[float, ...]:
        """Each seat's mean deal score over every game."""
        g = self.games
        return tuple(s / g for s in self.seat_sums) if g else ()

    @property
    def ms_per_move(self) -> tuple[float, float]:
        """CPU milliseconds per card decision, bot A and bot B."""
        return tuple(  # type: ignore[return-value]
            1000 * s / m if m else 0.0 for s, m in zip(self.seconds, self.moves, strict=True)
        )

    def summary(self) -> str:
        """A few lines for people.

        >>> print(ArenaResult("a", "b", RuleSet(), 2, "seed 0", (10.0, -20.0, 40.0), (1, 2, 3, 4),
        ...                   (10, 10), (0.01, 0.02)).summary())
        a vs b: +10.0 ± 17.3 a deal over 3 deals (2 rotations, seed 0, rules classic)
        wins/draws/losses 2/0/1; seat means +0.2 +0.3 +0.5 +0.7
        CPU ms per move: a 1.0, b 2.0
        """
        a, b = (f"{ms:.1f}" if ms >= 0.1 or not ms else f"{ms:.3f}" for ms in self.ms_per_move)
        seats = " ".join(f"{m:+.1f}" for m in self.seat_means)
        return (
            f"{self.bot_a} vs {self.bot_b}: {self.mean:+.1f} ± {self.stderr:.1f} a deal over"
            f" {self.deals} deals ({self.rotations} rotations, {self.source}, rules {self.rules})\n"
            f"wins/draws/losses {self.wins}/{self.draws}/{self.losses}; seat means {seats}\n"
            f"CPU ms per move: {self.bot_a} {a}, {self.bot_b} {b}"
        )

    def __str__(self) -> str:
        return self.summary()

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data (the CLI's ``--json``)."""
        return {
            "bot_a": self.bot_a,
            "bot_b": self.bot_b,
            "rules": self.rules.to_dict(),
            "rotations": self.rotations,
            "source": self.source,
            "deals": self.deals,
            "mean": self.mean,
            "stderr": self.stderr,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "seat_means": list(self.seat_means),
            "ms_per_move": list(self.ms_per_move),
            "differences": list(self.differences),
        }


# -- bots -------------------------------------------------------------------------------


Bot = str | Strategy | Callable[[int], Strategy]
"""What :func:`run` takes for a bot: a name, a Strategy object, or a factory of a seed."""


def _is_strategy(obj: object) -> bool:
    return not isinstance(obj, type) and all(
        callable(getattr(obj, m, None)) for m in ("choose_play", "choose_exposure")
    )


_NAME_LIMIT: Final = 80
"""The most characters a result names a bot with (a longer name given is refused)."""


def _name(bot: Bot, default: str) -> str:
    """How a result names ``bot``: its name, its ``repr`` (a Strategy object), its
    ``__qualname__`` (a factory), or ``default`` for a lambda, which has no name."""
    if isinstance(bot, str):
        return bot
    text = repr(bot) if _is_strategy(bot) else getattr(bot, "__qualname__", None) or repr(bot)
    if "<lambda>" in text:
        return default
    return text if len(text) <= _NAME_LIMIT else text[: _NAME_LIMIT - 1] + "…"


def _names(names: object, bot_a: Bot, bot_b: Bot) -> tuple[str, str]:
    """The two bots' names in the result: ``names`` when given (checked), else :func:`_name`'s."""
    if names is None:
        return _name(bot_a, "bot A"), _name(bot_b, "bot B")
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
        raise ArenaTypeError(f"names must be a pair of names, got {type(names).__name__}")
    if len(names) != 2 or not all(isinstance(n, str) for n in names):
        raise ArenaTypeError(f"names must be two strings (bot A's, bot B's), got {_brief(names)}")
    for n in names:
        if not n.strip() or not n.isprintable() or len(n) > _NAME_LIMIT:
            raise ArenaError(
                f"a bot's name is 1-{_NAME_LIMIT} printable characters, got {_brief(n)}"
            )
    return names[0], names[1]


def _factory(bot: Bot, limit: Limit | None) -> Callable[[int], Strategy]:
    if not isinstance(bot, str):
        if _is_strategy(bot):
            strategy: Strategy = bot  # type: ignore[assignment]
            return lambda seed: strategy
        if callable(bot):
            return bot
        raise ArenaTypeError(
            f"a bot is a name, a Strategy or a factory of a seed, got {type(bot).__name__}"
        )
    name = bot
    if name == "search":
        return lambda seed: SearchStrategy(limit, seed=seed)
    if name in STRATEGIES:
        return lambda seed: make_strategy(name, seed)
    module, sep, attr = name.partition(":")
    if not sep or not module or not attr:
        raise ArenaError(
            f"unknown bot {_brief(name)}; known: {', '.join(STRATEGIES)}, or module:factory"
        )
    try:
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        hint = (
            " (is its folder on sys.path? try PYTHONPATH=.)" if isinstance(exc, ImportError) else ""
        )
        raise ArenaError(f"cannot load bot {_brief(name)}: {_brief(str(exc))}{hint}") from None
    if not callable(obj):
        raise ArenaError(f"bot {name!r} is not callable")
    factory: Callable[[int], Strategy] = obj
    return factory


def _bot_seed(seed: int | str, deal_no: int, rotation: int, seat: int) -> int:
    return random.Random(f"gongzhu-arena-bot:{seed}:{deal_no}:{rotation}:{seat}").getrandbits(48)


# -- playing --------------------------------------------------------------------------------

# One game's figures: seat totals, then (moves, seconds) of bot A and of bot B.
_Game = tuple[tuple[int, ...], int, float, int, float]


def _play_game(
    rules: RuleSet,
    hands: Sequence[Any],
    strategies: Sequence[Strategy],
    is_a: Sequence[bool],
) -> _Game:
    moves = [0, 0]
    secs = [0.0, 0.0]

    def timed(_rnd: Round, action: Action, seconds: float) -> None:
        if isinstance(action, Play):  # card plays are timed; exposure decisions are not
            k = 0 if is_a[action.seat] else 1
            secs[k] += seconds
            moves[k] += 1

    rnd = play_out(Round.from_hands(hands, rules=rules), strategies, timed)
    return rnd.score().totals, moves[0], secs[0], moves[1], secs[1]


def _play_deals(
    bot_a: Bot,
    bot_b: Bot,
    limit: Limit | None,
    rules: RuleSet,
    rotations: int,
    seed: int | str,
    numbered: Sequence[tuple[int, Sequence[Any]]],
) -> list[list[_Game]]:
    fa, fb = _factory(bot_a, limit), _factory(bot_b, limit)
    n = rules.players
    is_a = [s % 2 == 0 for s in range(n)]
    out = []
    for number, hands in numbered:
        games = []
        for r in range(rotations):
            rotated = [hands[(s + r) % n] for s in range(n)]
            strategies = [(fa if is_a[s] else fb)(_bot_seed(seed, number, r, s)) for s in range(n)]
            games.append(_play_game(rules, rotated, strategies, is_a))
        out.append(games)
    return out


def _check_run(
    bot_a: Bot,
    bot_b: Bot,
    rules: RuleSet,
    rotations: int | None,
    workers: object,
    deals: object,
    limit: object,
    deal_file: object,
    progress: object,
    executor: object,
) -> int:
    """Refuse :func:`run`'s bad arguments with an :class:`ArenaError`; the rotations to play."""
    # Every hand must meet both bots equally often: 2 or 4 rotations at 4 seats, 5 at 5.
    allowed = (2, 4) if rules.players == 4 else (rules.players,)
    if rotations is None:
        rotations = allowed[0]
    if type(rotations) is not int or rotations not in allowed:
        raise (ArenaError if type(rotations) is int else ArenaTypeError)(
            f"with {rules.players} players rotations must be"
            f" {' or '.join(map(str, allowed))}, got {_brief(rotations)}"
        )
    _count(workers, "workers", 0, 1024)
    if deals is not None:
        _count(deals, "deals", 1, _MAX_DEALS)
    if limit is not None and not isinstance(limit, Limit):
        raise ArenaTypeError(f"limit must be a Limit, got {type(limit).__name__}")
    if deal_file is not None and not isinstance(deal_file, (str, os.PathLike)):
        raise ArenaTypeError(f"deal_file must be a path, got {type(deal_file).__name__}")
    if progress is not None and not callable(progress):
        raise ArenaTypeError(f"progress must be callable, got {type(progress).__name__}")
    if executor is not None and not _is_executor(executor):
        raise ArenaTypeError(
            f"executor must be a concurrent.futures.Executor, got {type(executor).__name__}"
        )
    for bot in (bot_a, bot_b):
        if isinstance(bot, str) and len(bot) > 200:
            raise ArenaError(f"a bot's name is at most 200 characters, got {_brief(bot)}")
        _factory(bot, limit)  # unknown names fail here, not in a worker
    return rotations


def _count(value: object, what: str, low: int, high: int) -> None:
    """Refuse ``value`` unless it is an int from ``low`` to ``high`` (another type: a TypeError)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArenaTypeError(f"{what} must be an int {low}-{high}, got {_brief(value)}")
    if not low <= value <= high:
        raise ArenaError(f"{what} must be an int {low}-{high}, got {_brief(value)}")


def _hands(
    rules: RuleSet,
    seed: int | str | None,
    deal_file: str | os.PathLike[str] | None,
    deals: int | None,
) -> tuple[list[Sequence[Any]], str, int | str]:
    """The deals :func:`run` plays: ``(hands of each deal, their source, the bots' seed)``."""
    if seed is not None and deal_file is not None:
        raise ArenaError("give seed or deal_file, not both")
    if seed is None and deal_file is None and rules.players != 4:
        seed = 0  # the shipped deal file is 4-player
    if seed is not None:
        count = 256 if deals is None else deals
        hands_list: list[Sequence[Any]] = list(_seeded_deals(rules, seed, count))
        source = f"seed {seed}"
        bot_seed: int | str = seed
    else:
        path = DEAL_FILE if deal_file is None else Path(deal_file)
        loaded = load_deals(path, rules=rules)
        if deals is not None:
            if deals > len(loaded):
                raise ArenaError(f"{path.name} holds {len(loaded)} deals, not {deals}")
            loaded = loaded[:deals]
        hands_list = [[tuple(h) for h in d] for d in loaded]
        source = path.name
        bot_seed = path.name
    return hands_list, source, bot_seed


def _sums(
    players: int, results: Sequence[Sequence[_Game]]
) -> tuple[list[int], list[int], list[float]]:
    """Each seat's total, and each bot's moves and seconds, over every game."""
    seat_sums = [0] * players
    moves = [0, 0]
    secs = [0.0, 0.0]
    for deal_games in results:
        for totals, ma, sa, mb, sb in deal_games:
            for s, v in enumerate(totals):
                seat_sums[s] += v
            moves[0] += ma
            moves[1] += mb
            secs[0] += sa
            secs[1] += sb
    return seat_sums, moves, secs


def run(
    bot_a: Bot,
    bot_b: Bot,
    *,
    deals: int | None = None,
    rotations: int | None = None,
    rules: RuleSet | str | None = None,
    limit: Limit | None = None,
    workers: int = 1,
    seed: int | str | None = None,
    deal_file: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int, float, float], None] | None = None,
    executor: Executor | None = None,
    names: tuple[str, str] | None = None,
) -> ArenaResult:
    """Play ``bot_a`` against ``bot_b`` in duplicate; see the module doc.

    ``rules``: a :class:`~gongzhu.RuleSet` or a preset's name (the classic rules by
    default). ``names``: what the result calls bot A and bot B (by default their names,
    as the module doc says).

    ``deals`` defaults to every deal of the file (or 256 seeded deals);
    ``rotations`` is 2 (teams swap hands, the default) or 4 (every hand at every
    seat); with 5 players it is 5 (every hand at every seat, the default);
    ``workers`` processes share the deals (1: this process; 0: one per CPU).
    ``progress(done, total, mean, stderr)`` is called as deals finish.
    ``executor``: run the deals on this :class:`concurrent.futures.Executor`
    (threads, processes, Dask's, :class:`~gongzhu.ai.ray_executor.RayExecutor`);
    the caller owns it. The result is the same for every ``workers`` and
    ``executor``: each game's bots are seeded from the deal.

    Ctrl-C, a raising ``progress`` or a game's error stops the run at once: the
    worker processes are terminated (:func:`gongzhu.ai.tasks.run_tasks`).
    """
    rules = _arena_rules(rules)
    name_a, name_b = _names(names, bot_a, bot_b)
    rotations = _check_run(
        bot_a, bot_b, rules, rotations, workers, deals, limit, deal_file, progress, executor
    )
    hands_list, source, bot_seed = _hands(rules, seed, deal_file, deals)
    numbered = list(enumerate(hands_list))
    total = len(numbered)
    workers = workers or os.cpu_count() or 1
    workers = max(1, min(workers, total))
    results: list[list[_Game]] = [[] for _ in numbered]
    finished: list[float] = []

    def report(done_games: Sequence[tuple[int, list[_Game]]]) -> None:
        for number, games in done_games:
            results[number] = games
            finished.append(_difference(games))
        if progress is not None:
            progress(len(finished), total, sum(finished) / len(finished), _stderr(finished))

    chunks = _chunks(numbered, workers)

    def chunk_done(k: int, games: list[list[_Game]]) -> None:
        report([(num, g) for (num, _h), g in zip(chunks[k], games, strict=True)])

    from gongzhu.ai.tasks import run_tasks

    run_tasks(
        _play_deals,
        [(bot_a, bot_b, limit, rules, rotations, bot_seed, c) for c in chunks],
        chunk_done,
        workers=workers,
        executor=executor,
    )
    seat_sums, moves, secs = _sums(rules.players, results)
    return ArenaResult(
        bot_a=name_a,
        bot_b=name_b,
        rules=rules,
        rotations=rotations,
        source=source,
        differences=tuple(_difference(g) for g in results),
        seat_sums=tuple(seat_sums),
        moves=(moves[0], moves[1]),
        seconds=(round(secs[0], 6), round(secs[1], 6)),
    )


arena = run
"""``gongzhu.arena``: the same function as :func:`run`."""


def _chunks(
    numbered: Sequence[tuple[int, Sequence[Any]]], workers: int
) -> list[Sequence[tuple[int, Sequence[Any]]]]:
    """The numbered deals in the chunks a task plays: small ones, since search games are
    slow and uneven, and progress should move."""
    total = len(numbered)
    size = 1 if workers == 1 else max(1, min(8, total // (workers * 8) or 1))
    return [numbered[i : i + size] for i in range(0, total, size)]


def _is_executor(value: object) -> bool:
    from concurrent.futures import Executor

    return isinstance(value, Executor)


def _difference(games: Sequence[_Game]) -> float:
    diffs = []
    for totals, *_rest in games:
        a = [v for s, v in enumerate(totals) if s % 2 == 0]
        b = [v for s, v in enumerate(totals) if s % 2 == 1]
        # Twice the difference of the mean seat scores: the team difference at 4 seats.
        diffs.append(2 * (sum(a) / len(a) - sum(b) / len(b)))
    return sum(diffs) / len(diffs)


def _stderr(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    m = sum(xs) / n
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)
