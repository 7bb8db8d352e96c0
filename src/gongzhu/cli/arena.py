"""The ``gongzhu arena`` command: :func:`register` adds it to the CLI, :func:`run` runs it.

Errors print one line on stderr and exit with status 2. Its help is English
only for now (the other commands go through :mod:`gongzhu.i18n`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from typing import Any

__all__ = ["register", "run"]

_PROG = "gongzhu arena"
_LINE_LIMIT = 300


def register(subparsers: Any, t: object = None) -> argparse.ArgumentParser:
    """Add the ``arena`` subcommand to ``subparsers`` (``set_defaults(func=run)``)."""
    from gongzhu.ai.registry import STRATEGIES  # the bots' names, from the one registry

    p: argparse.ArgumentParser = subparsers.add_parser(
        "arena",
        help="two bots in duplicate play: mean team difference per deal ± standard error",
        description="BOT_A (seats 0 and 2) plays BOT_B (seats 1 and 3). Each deal is played "
        "with the hands rotated round the table (--rotations 2: the teams swap hands; 4: "
        "every hand at every seat), so the luck of the deal cancels. Prints the mean team "
        "difference per deal with its standard error over deals, wins/draws/losses, per-seat "
        "means and time per move. Deals: the 1,024 shipped with gongzhu (default), --seed S, "
        "or --deal-file F.",
        epilog=f"Bots: {', '.join(STRATEGIES)}, or module:factory (factory(seed) returns a "
        "Strategy; the module is looked up in the current folder too). Example: gongzhu arena "
        "search greedy --deals 64 --limit simulations=200 --rules mrif",
    )
    p.add_argument("bot_a", metavar="BOT_A", help="the bot at seats 0 and 2")
    p.add_argument("bot_b", metavar="BOT_B", help="the bot at seats 1 and 3")
    p.add_argument("--deals", type=int, metavar="N", help="deals to play (default: all, or 256)")
    p.add_argument(
        "--rotations", type=int, choices=(2, 4, 5), help="2 (default) or 4; 5 with 5 players"
    )
    p.add_argument(
        "--limit",
        metavar="LIMIT",
        help="the search bot's limit per decision: time=SECONDS, simulations=N, or both "
        "comma-separated (default simulations=400)",
    )
    p.add_argument(
        "--rules",
        default="classic",
        metavar="PRESET",
        help="a preset (classic), or 'mrif' for classic without exposure and with the pig "
        "staying -100 for the all-hearts taker (MrIf's rules)",
    )
    p.add_argument("--workers", type=int, default=1, metavar="K", help="processes (1; 0: all)")
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local processes (default) or ray: a Ray cluster (RAY_ADDRESS), else a local Ray"
        " of --workers CPUs (the ray extra)",
    )
    p.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    p.add_argument("--seed", metavar="S", help="play deals dealt from this seed")
    p.add_argument("--deal-file", metavar="F", help="play the deals of this JSON deal file")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=run)
    return p


def _one_line(text: str) -> str:
    text = "; ".join(part.strip() for part in str(text).split("\n") if part.strip())
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    if len(text) > _LINE_LIMIT:
        text = text[: _LINE_LIMIT - 60] + " … " + text[-57:]
    return text


def run(args: argparse.Namespace) -> int:
    """Run ``gongzhu arena`` with parsed ``args``; 0 on success, 2 on bad input."""
    from gongzhu.errors import GongzhuError

    try:
        return _run(args)
    except (GongzhuError, ValueError) as exc:
        print(f"{_PROG}: error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"{_PROG}: error: {_one_line(f'{where}{exc.strerror or exc}')}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    from gongzhu.ai.arena import ArenaError
    from gongzhu.ai.arena import run as arena_run
    from gongzhu.ai.search import Limit
    from gongzhu.rules import RuleSet

    if args.rules == "mrif":
        rules = RuleSet(pig_with_all_hearts="unchanged", exposable="")
    else:
        rules = RuleSet.preset(args.rules)
    limit = Limit.parse(args.limit) if args.limit else None
    seed: int | str | None = args.seed
    if seed is not None:
        with contextlib.suppress(ValueError):
            seed = int(seed)
    show = sys.stderr.isatty() and not args.quiet
    if ":" in args.bot_a + args.bot_b and "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # module:factory from here, as python -m finds it

    def progress(done: int, total: int, mean: float, se: float) -> None:
        print(f"\r  {done}/{total} deals  {mean:+.1f} ± {se:.1f}", end="", file=sys.stderr)
        sys.stderr.flush()

    if args.workers is not None and args.workers < 0:
        raise ArenaError(f"--workers must be 0 or more, got {args.workers}")
    from gongzhu.ai.ray_executor import executor_for

    executor = executor_for(args.backend, args.workers)
    try:
        result = _play(args, arena_run, rules, limit, seed, progress if show else None, executor)
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    if show:
        print(file=sys.stderr)
    print(result.summary())
    if args.json:
        data = result.to_json()
        data["limit"] = (
            None if limit is None else {"time": limit.time, "simulations": limit.simulations}
        )
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
    return 0


def _play(
    args: argparse.Namespace,
    arena_run: Any,
    rules: Any,
    limit: Any,
    seed: Any,
    progress: Any,
    executor: Any,
) -> Any:
    return arena_run(
        args.bot_a,
        args.bot_b,
        deals=args.deals,
        rotations=args.rotations,
        rules=rules,
        limit=limit,
        workers=args.workers,
        seed=seed,
        deal_file=args.deal_file,
        progress=progress,
        executor=executor,
    )
