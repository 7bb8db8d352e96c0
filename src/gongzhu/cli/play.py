"""``gongzhu play``: bots play a match, N deals for statistics, or a person plays a seat."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from gongzhu.cli._common import (
    LEVELS,
    UsageError,
    add_language_option,
    add_rules_options,
    bot_names,
    bot_table,
    bots_text,
    player_names,
    rules_from,
    translator_for,
    write_record,
)
from gongzhu.cli._progress import Progress
from gongzhu.cli._show import Seats, show_match, simulation_summary
from gongzhu.i18n import Translator

# A simulation larger than this is a typo, not a plan (10 million deals ≈ an hour).
MAX_DEALS = 10_000_000
# Deals per chunk when this process plays them itself: small, so progress moves.
_CHUNK = 100


def register(sub: Any, t: Translator) -> None:
    p = sub.add_parser(
        "play",
        help=t.gettext("play a match against bots (--human SEAT), or watch bots play"),
        description=t.gettext(
            "With --human SEAT you play that seat against the library's bots: a whole "
            "match, the standings after every deal. Without it, computer players play a "
            "seeded match and print each deal's score sheets and the standings; with "
            "--deals N they play N separate deals and print summary statistics."
        ),
        epilog=t.gettext(
            "Playing: type a card (QS, 10h, Q♠), 'hint', 'hand', 'help' or 'quit'. "
            "When input is not a terminal, one answer is read per line."
        ),
    )
    p.add_argument(
        "--human", type=int, metavar="SEAT", help=t.gettext("play this seat yourself (0, 1, …)")
    )
    p.add_argument(
        "--seed", type=int, help=t.gettext("seed of the match (default: random, printed)")
    )
    add_rules_options(p, t)
    p.add_argument("--players", type=int, choices=(4, 5), help=t.gettext("4 or 5 players"))
    p.add_argument(
        "--level",
        choices=LEVELS,
        help=t.gettext("how strong the computer players are: easy, normal (default) or hard"),
    )
    p.add_argument(
        "--bots",
        metavar="NAMES",
        help=t.gettext(
            "bot per seat, comma separated, or one for all, instead of --level: {names}"
        ).format(names=", ".join(bot_names())),
    )
    p.add_argument("--names", metavar="NAMES", help=t.gettext("player names, comma separated"))
    p.add_argument(
        "--deals", type=int, metavar="N", help=t.gettext("play N deals and print statistics")
    )
    p.add_argument(
        "--workers", type=int, default=1, metavar="K", help=t.gettext("processes for --deals")
    )
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        # English only for now: a new message would need every catalogue (tools/i18n.sh).
        help="where --deals run: local processes or a Ray cluster (RAY_ADDRESS)",
    )
    _add_match_options(p, t)
    add_language_option(p, t)
    p.set_defaults(func=run)


def _add_match_options(p: Any, t: Translator) -> None:
    """The match's length, its files and the options of a human player."""
    p.add_argument(
        "--max-deals", type=int, default=200, metavar="N", help=t.gettext("stop a match here")
    )
    p.add_argument("--record", metavar="FILE", help=t.gettext("write the match as a JSON record"))
    p.add_argument(
        "--save",
        metavar="FILE",
        help=t.gettext(
            "with --human: save the match here after every move "
            "(default: a file in your data folder, named at the start)"
        ),
    )
    p.add_argument(
        "--no-save", action="store_true", help=t.gettext("with --human: do not save the match")
    )
    p.add_argument(
        "--resume",
        metavar="FILE",
        help=t.gettext("go on with the match saved in FILE, exactly where it stopped"),
    )
    p.add_argument(
        "--setup",
        action="store_true",
        help=t.gettext(
            "with --human: a start screen to switch the end score, sign swap, exposure and level"
        ),
    )
    p.add_argument(
        "--auto-lone",
        action="store_true",
        help=t.gettext("with --human: play your card yourself only when there is a choice"),
    )
    p.add_argument(
        "--quiet", action="store_true", help=t.gettext("only the final table / statistics")
    )


def run(args: argparse.Namespace) -> int:
    t = translator_for(args)
    if args.resume is not None:
        from gongzhu.cli.human import resume_human

        return resume_human(args, t)
    rules = rules_from(args, args.players)
    names = player_names(args.names, rules.players)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    if args.max_deals < 1:
        raise UsageError(f"--max-deals must be at least 1, got {args.max_deals}")
    if args.human is not None:
        if args.deals is not None:
            raise UsageError("--human plays a match; it cannot be combined with --deals")
        from gongzhu.cli.human import play_human

        if args.no_save and args.save:
            raise UsageError("--save and --no-save contradict each other")
        return play_human(args, t, rules, names, seed)
    if args.save or args.auto_lone or args.setup:
        raise UsageError("--save, --setup and --auto-lone go with --human")
    # Watching and statistics name the algorithm (rule-of-thumb) unless a level is asked for.
    bots = bot_table(args.bots or args.level or "rule-of-thumb", rules.players)
    if args.deals is not None:
        return _simulate(args, t, rules, bots, seed)
    from gongzhu.ai.parallel import BotTable
    from gongzhu.ai.strategies import play_match

    table = BotTable(bots)
    match, rounds = play_match(table(seed), rules=rules, seed=seed, max_deals=args.max_deals)
    if not args.quiet:
        print(
            t.gettext("Match: rules {rules}, seed {seed}, bots {bots}").format(
                rules=rules.nearest_name(), seed=seed, bots=bots_text(bots, t)
            )
            + "\n"
        )
    seats = Seats.of(t, rules.players, names, rules=rules)
    show_match(t, rounds, rules, seats, names, tricks=False, quiet=args.quiet, write=print)
    if not match.is_over:
        n = match.deal_count
        print(
            t.ngettext(
                "(stopped after {n} deal: --max-deals)", "(stopped after {n} deals: --max-deals)", n
            ).format(n=n)
        )
    if args.record:
        write_record(t, args.record, rounds, names)
    return 0


def _simulate(
    args: argparse.Namespace, t: Translator, rules: Any, bots: tuple[str, ...], seed: int
) -> int:
    import gongzhu.ai.parallel as parallel

    if args.record:
        raise UsageError("--record records a match; it cannot be combined with --deals")
    if args.deals < 1:
        raise UsageError(f"--deals must be at least 1, got {args.deals}")
    if args.deals > MAX_DEALS:
        raise UsageError(f"--deals must be at most {MAX_DEALS:,}, got {args.deals:,}")
    if not 1 <= args.workers <= 256:
        raise UsageError(f"--workers must be 1 to 256, got {args.workers}")
    table = parallel.BotTable(bots)
    show = sys.stderr.isatty() and not args.quiet
    run_chunk: Any = getattr(parallel, "_run_chunk", None)
    aggregate: Any = getattr(parallel, "_aggregate", None)
    with Progress(t, args.deals, show=show) as progress:
        backend = getattr(args, "backend", "local")
        here = backend == "local" and args.workers == 1
        if here and run_chunk is not None and aggregate is not None:
            # In this process: small chunks, so the progress line moves; the tasks and
            # their order are simulate()'s, so the figures are the same.
            results: list[Any] = []
            for start in range(0, args.deals, _CHUNK):
                numbers = range(start, min(args.deals, start + _CHUNK))
                results.extend(run_chunk(rules, table, seed, numbers, False))
                progress.update(numbers.stop)
            sim = aggregate(rules, seed, results, False)
        else:
            from gongzhu.ai.ray_executor import executor_for

            executor = executor_for(backend, args.workers)
            try:
                sim = parallel.simulate(
                    args.deals,
                    rules=rules,
                    strategies=table,
                    workers=args.workers,
                    seed=seed,
                    progress=progress.update,
                    executor=executor,
                )
            finally:
                if executor is not None:
                    executor.shutdown(cancel_futures=True)
    print(t.gettext("bots: {bots}").format(bots=bots_text(bots)))
    print(simulation_summary(t, sim))
    return 0
