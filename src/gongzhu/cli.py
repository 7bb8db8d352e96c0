"""The ``gongzhu`` command: score piles, show rule sets, let bots play, replay records, a demo.

Run ``gongzhu --help`` (or ``python -m gongzhu --help``). Each subcommand has
its own ``--help``. Errors print one line to stderr and exit with status 2
(bad input) or 1 (anything unexpected); there is never a traceback unless
``GONGZHU_DEBUG=1`` is set.

The engine modules are imported inside the subcommands, so ``gongzhu --help``
stays quick.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from gongzhu.match import Match
    from gongzhu.round import Round
    from gongzhu.rules import RuleSet

__all__ = ["main"]

# One line per preset for ``gongzhu rules --list`` (the long form is RuleSet.describe()).
_PRESET_SUMMARIES = {
    "classic": "seeds/000 club rules: 2♠ opens, pig taker leads later, lose at −1000",
    "online": "seeds/001 online rules: 2♣ must open, sign swap, ends at ±1000 or 30 deals",
    "online-quick": "seeds/001 quick game: the online rules ending at ±500",
    "encyclopedia": "seeds/002: 2♣ opens; everyone who crosses −1000 loses",
    "russian": "seeds/003: clockwise, the 2♠ holder opens every deal",
    "czech-variant": "seeds/004 variant: face-value hearts, fixed +1000 grand slam, no exposure",
    "catch-the-pig": "seeds/004 'Chyťte prase': face-down ×2 / face-up ×4 exposure",
    "slam-pig": "programs: the pig turns positive only in a grand slam; tied leaders play on",
    "flat-pig": "MrIfOffline: the pig never turns; no exposure; the leader rotates",
    "taiwan": "Taiwan: 7♠ opens, face-value hearts, 豬羊變色, +1000 grand slam, no exposure",
}

_BOT_NAMES = ("random", "rule-of-thumb")


class _UsageError(Exception):
    """Bad command-line input found after parsing (reported like an argparse error)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {_one_line(message)} (see {self.prog} --help)\n")


_LINE_LIMIT = 300


def _one_line(text: str) -> str:
    # Messages may quote hostile arguments (a 5000-digit --seed, a "\r"): keep them one
    # short printable line, escaping control characters and eliding a long middle.
    text = "; ".join(part.strip() for part in str(text).split("\n") if part.strip())
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    if len(text) > _LINE_LIMIT:
        text = text[: _LINE_LIMIT - 60] + " … " + text[-57:]
    return text


# -- helpers shared by the subcommands ---------------------------------------------------


def _rules(name: str, players: int | None = None) -> RuleSet:
    from gongzhu.errors import RuleSetError
    from gongzhu.rules import RuleSet

    rules = RuleSet.preset(name)
    if players is not None and players != rules.players:
        try:
            rules = rules.replace(players=players)
        except RuleSetError as exc:
            raise RuleSetError(
                f"{exc}; --players {players} needs a preset that allows it (e.g. classic)"
            ) from None
    return rules


def _bot_table(spec: str, players: int) -> tuple[str, ...]:
    names = tuple(part.strip() for part in spec.split(",") if part.strip())
    for name in names:
        if name not in _BOT_NAMES:
            raise _UsageError(f"unknown bot {name!r}; choose from {', '.join(_BOT_NAMES)}")
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise _UsageError(f"--bots needs 1 or {players} names, got {len(names)}")
    return names


def _bots_text(bots: Sequence[str]) -> str:
    if len(set(bots)) == 1:
        return f"{len(bots)} × {bots[0]}"
    return ", ".join(bots)


def _names(spec: str | None, players: int) -> tuple[str, ...] | None:
    if spec is None:
        return None
    names = tuple(part.strip() for part in spec.split(","))
    if len(names) != players or not all(names) or len(set(names)) != players:
        raise _UsageError(f"--names needs {players} distinct names separated by commas")
    return names


def _seat_name(names: Sequence[str] | None, seat: int) -> str:
    return names[seat] if names else f"seat {seat}"


def _exposure_text(rnd: Round, names: Sequence[str] | None) -> str:
    parts = [
        f"{cards} by {_seat_name(names, seat)}" for seat, cards in enumerate(rnd.exposures) if cards
    ]
    hidden = len(rnd.face_down)
    if hidden:
        parts.append(f"{hidden} face down")
    return ", ".join(parts) if parts else "nothing"


def _deal_header(number: int, rnd: Round, names: Sequence[str] | None) -> str:
    leader = rnd.tricks[0].leader if rnd.tricks else rnd.leader
    seed = f", seed {rnd.seed}" if rnd.seed is not None else ""
    return (
        f"== Deal {number}: dealer {_seat_name(names, rnd.dealer)}, "
        f"lead {_seat_name(names, leader)}{seed}; exposed: {_exposure_text(rnd, names)}"
    )


def _sheets(rnd: Round, before: Sequence[int], names: Sequence[str] | None) -> str:
    sheet = rnd.score().sheet(before)
    if not names:
        return sheet
    # The sheets say "seat N"; show the players' names instead.
    lines = []
    for line in sheet.splitlines():
        if line.startswith("seat "):
            head, _, rest = line.partition(":")
            seat = int(head.split()[1])
            line = f"{names[seat]}:{rest}"
        lines.append(line)
    return "\n".join(lines)


def _standings(match: Match) -> str:
    rows = [
        f"  {place}. {match.name(seat):10} {match.totals[seat]:>6}"
        for place, seat in enumerate(match.standings(), 1)
    ]
    return "Standings:\n" + "\n".join(rows)


def _show_match(
    rounds: Sequence[Round],
    rules: RuleSet,
    names: Sequence[str] | None,
    *,
    tricks: bool,
    quiet: bool,
    out: Any,
) -> Match:
    from gongzhu.match import Match

    match = Match(rules, names)
    for number, rnd in enumerate(rounds, 1):
        if not rnd.is_complete:
            if not quiet:
                print(_deal_header(number, rnd, names), file=out)
                print(f"   unfinished: {len(rnd.tricks)} tricks played", file=out)
            break
        before = match.totals
        match = match.add(rnd)
        if quiet:
            continue
        print(_deal_header(number, rnd, names), file=out)
        if tricks:
            for k, trick in enumerate(rnd.tricks, 1):
                points = f"  ({trick.points})" if trick.points else ""
                print(f"  {k:>2} {trick}{points}", file=out)
        print(_sheets(rnd, before, names), file=out)
        print(file=out)
    if match.deal_count:
        print(match.table(), file=out)
        print(_standings(match), file=out)
    return match


# -- subcommands ----------------------------------------------------------------------


def _cmd_score(args: argparse.Namespace) -> int:
    from gongzhu.scoring import score

    rules = _rules(args.rules)
    piles = ["" if pile.strip() == "-" else pile for pile in args.piles]
    result = score(piles, args.exposed or (), rules)
    if args.json:
        import json

        data = {
            "rules": str(rules),
            "exposed": {card.code: factor for card, factor in result.exposed.items()},
            "totals": list(result.totals),
            "pig_taker": result.pig_taker,
            "all_hearts_seat": result.all_hearts_seat,
            "grand_slam_seat": result.grand_slam_seat,
            "seats": [
                {
                    "seat": p.seat,
                    "cards": p.cards.code.split(),
                    "hearts": p.hearts,
                    "pig": p.pig,
                    "sheep": p.sheep,
                    "base": p.base,
                    "transformer": p.transformer.value,
                    "multiplier": p.multiplier,
                    "bonus": p.bonus,
                    "deal": p.total,
                    "all_hearts": p.all_hearts,
                    "grand_slam": p.grand_slam,
                    "lines": dict(p.lines()),
                }
                for p in result.players
            ],
        }
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(f"rules: {rules}; exposed: {args.exposed or 'nothing'}")
    print(result.sheet())
    print("totals: " + " ".join(str(t) for t in result.totals))
    return 0


def _cmd_rules(args: argparse.Namespace) -> int:
    from gongzhu.rules import PRESETS, RuleSet

    if args.list or (args.preset is None and args.diff is None):
        width = max(len(name) for name in PRESETS)
        for name, preset in PRESETS.items():
            summary = _PRESET_SUMMARIES.get(name) or str(preset)
            print(f"{name:{width}}  {summary}")
        return 0
    name = args.preset or "classic"
    rules = RuleSet.preset(name)
    if args.diff is None:
        print(rules.describe())
        return 0
    other = RuleSet.preset(args.diff)
    changes = rules.diff(other)
    if not changes:
        print(f"{name} and {args.diff} are the same rules")
        return 0
    width = max(len(option) for option in changes)
    left = max(len(name), *(len(_value_text(a)) for a, _ in changes.values()))
    print(f"{'option':{width}}  {name:{left}}  {args.diff}")
    for option, (a, b) in changes.items():
        print(f"{option:{width}}  {_value_text(a):{left}}  {_value_text(b)}")
    return 0


def _value_text(value: Any) -> str:
    """An option's value as ``RuleSet.describe`` words it."""
    from gongzhu.rules import _format_value

    return _format_value(value)


def _cmd_play(args: argparse.Namespace) -> int:
    import random

    rules = _rules(args.rules, args.players)
    bots = _bot_table(args.bots, rules.players)
    names = _names(args.names, rules.players)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    if args.max_deals < 1:
        raise _UsageError(f"--max-deals must be at least 1, got {args.max_deals}")
    if args.deals is not None:
        return _simulate(args, rules, bots, seed)
    from gongzhu.bots import play_match
    from gongzhu.parallel import BotTable

    match, rounds = play_match(BotTable(bots)(seed), rules, seed=seed, max_deals=args.max_deals)
    if not args.quiet:
        print(f"Match: rules {rules}, seed {seed}, bots {_bots_text(bots)}\n")
    _show_match(rounds, rules, names, tricks=False, quiet=args.quiet, out=sys.stdout)
    if not match.is_over:
        print(f"(stopped after {match.deal_count} deals: --max-deals)")
    if args.record:
        _record(args.record, rounds, names)
    return 0


# A simulation larger than this is a typo, not a plan (10 million deals ≈ an hour).
_MAX_DEALS = 10_000_000


def _simulate(args: argparse.Namespace, rules: RuleSet, bots: tuple[str, ...], seed: int) -> int:
    from gongzhu.parallel import BotTable, simulate

    if args.record:
        raise _UsageError("--record records a match; it cannot be combined with --deals")
    if args.deals < 1:
        raise _UsageError(f"--deals must be at least 1, got {args.deals}")
    if args.deals > _MAX_DEALS:
        raise _UsageError(f"--deals must be at most {_MAX_DEALS:,}, got {args.deals:,}")
    if not 1 <= args.workers <= 256:
        raise _UsageError(f"--workers must be 1 to 256, got {args.workers}")
    show = sys.stderr.isatty() and not args.quiet

    def progress(done: int, total: int) -> None:
        print(f"\r  {done}/{total} deals", end="", file=sys.stderr, flush=True)

    sim = simulate(
        args.deals,
        rules,
        BotTable(bots),
        workers=args.workers,
        seed=seed,
        progress=progress if show else None,
    )
    if show:
        print(file=sys.stderr)
    print(f"bots: {_bots_text(bots)}")
    print(sim.summary())
    return 0


def _record(path: str, rounds: Sequence[Round], names: Sequence[str] | None) -> None:
    try:
        from gongzhu.record import dumps
    except ImportError:  # pragma: no cover - only while gongzhu.record is being written
        raise _UsageError("--record needs gongzhu.record, which this install lacks") from None
    text = dumps(list(rounds), names=names)
    with open(path, "w", encoding="utf-8") as fp:
        fp.write(text + "\n")
    print(f"record written to {path}")


def _cmd_replay(args: argparse.Namespace) -> int:
    from gongzhu.record import loads

    with open(args.file, "rb") as fp:
        data = fp.read()
    record = loads(data)
    rules, names = record.rules, record.names
    if not args.quiet:
        deals = len(record.rounds)
        print(f"Record: rules {rules}, {deals} deal{'s' if deals != 1 else ''}\n")
    _show_match(
        record.rounds, rules, names, tricks=not args.quiet, quiet=args.quiet, out=sys.stdout
    )
    if not record.rounds:
        print("(no deals)")
    return 0


_DEMO_NAMES = ("Ann", "Bob", "Cid", "Dee")


def _cmd_demo(args: argparse.Namespace) -> int:
    from gongzhu.bots import RuleOfThumbStrategy, play_match
    from gongzhu.match import Match
    from gongzhu.rules import RuleSet

    rules = RuleSet()
    names = _DEMO_NAMES
    seed = args.seed
    _, rounds = play_match([RuleOfThumbStrategy()] * 4, rules, seed=seed)
    first = rounds[0]
    print(
        "Four rule-of-thumb bots play a match of Gong Zhu (拱猪, 'Chase the Pig') under\n"
        f"the classic club rules of seeds/000, seed {seed}. The pig Q♠ is −100, the sheep\n"
        "J♦ +100, hearts count against you, and 10♣ doubles whatever its taker won.\n"
    )
    print(f"Deal 1, dealt by {names[first.dealer]}. The hands:")
    for seat, cards in enumerate(first.dealt):
        from gongzhu.cards import CardSet

        print(f"  {names[seat]}: {CardSet(cards)}")
    print(f"Exposed before the first trick (doubling those cards): {_exposure_text(first, names)}")
    print("The tricks (seat:card, → the winner, and the point cards taken):")
    for k, trick in enumerate(first.tricks, 1):
        played = " ".join(f"{names[s]}:{c}" for s, c in zip(trick.seats, trick.cards, strict=True))
        winner = names[trick.winner] if trick.winner is not None else "?"
        points = f"  ({trick.points})" if trick.points else ""
        print(f"  {k:>2}  {played}  → {winner}{points}")
    print("\nThe score sheets of deal 1:")
    print(_sheets(first, (0,) * 4, names))
    match = Match(rules, names).extend(rounds)
    print(f"\nThe match went on for {len(rounds)} deals:")
    print(match.table())
    print(_standings(match))
    print(
        '\nTry: gongzhu score "QS TC 7H" "AC JD" --exposed "QS TC"   '
        "gongzhu rules online --diff classic   gongzhu play --seed 1 --deals 200"
    )
    return 0


# -- the parser -------------------------------------------------------------------------


def _build_parser() -> _Parser:
    from gongzhu import __version__
    from gongzhu.build import _LABEL

    parser = _Parser(
        prog="gongzhu",
        description="Gong Zhu (拱猪, Chase the Pig): score deals, compare house rules, "
        "watch bots play, replay game records.",
        epilog="Each command has its own --help, e.g. gongzhu score --help.",
    )
    parser.add_argument("--version", action="version", version=f"gongzhu {__version__} ({_LABEL})")
    sub = parser.add_subparsers(title="commands", dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "score",
        help="score captured piles: the 7-line sheet per seat",
        description="Score one deal from the cards each seat captured (one argument per "
        "seat, in seat order; '-' for a seat that took nothing).",
        epilog='Example: gongzhu score "QS TC 7H" "AC JD" --exposed "QS TC"',
    )
    p.add_argument("piles", nargs="+", metavar="PILE", help='captured cards, e.g. "QS TC 7H"')
    p.add_argument("--exposed", metavar="CARDS", help='exposed cards, e.g. "QS TC"')
    p.add_argument("--rules", default="classic", metavar="PRESET", help="preset (classic)")
    p.add_argument("--json", action="store_true", help="print JSON with every line")
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser(
        "rules",
        help="list the presets, describe one, or compare two",
        description="Without arguments, list the presets. With PRESET, print every option "
        "of it; with --diff OTHER, only the options where the two differ.",
    )
    p.add_argument("preset", nargs="?", metavar="PRESET", help="the preset to describe")
    p.add_argument("--diff", metavar="OTHER", help="compare PRESET (default classic) with OTHER")
    p.add_argument("--list", action="store_true", help="list the presets")
    p.set_defaults(func=_cmd_rules)

    p = sub.add_parser(
        "play",
        help="bots play a match (or --deals N for statistics)",
        description="Computer players play a seeded match and print each deal's score "
        "sheets and the standings. With --deals N they play N separate deals instead and "
        "print summary statistics.",
    )
    p.add_argument("--seed", type=int, help="seed of the match (default: random, printed)")
    p.add_argument("--rules", default="classic", metavar="PRESET", help="preset (classic)")
    p.add_argument("--players", type=int, choices=(4, 5), help="4 or 5 players")
    p.add_argument(
        "--bots",
        default="rule-of-thumb",
        metavar="NAMES",
        help="bot per seat, comma separated, or one for all: " + ", ".join(_BOT_NAMES),
    )
    p.add_argument("--names", metavar="NAMES", help="player names, comma separated")
    p.add_argument("--deals", type=int, metavar="N", help="play N deals and print statistics")
    p.add_argument("--workers", type=int, default=1, metavar="K", help="processes for --deals")
    p.add_argument("--max-deals", type=int, default=200, metavar="N", help="stop a match here")
    p.add_argument("--record", metavar="FILE", help="write the match as a JSON record")
    p.add_argument("--quiet", action="store_true", help="only the final table / statistics")
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser(
        "replay",
        help="check a JSON game record and print it deal by deal",
        description="Read a record written by 'gongzhu play --record' (or gongzhu.record), "
        "replay every move through the engine and print the tricks and score sheets.",
    )
    p.add_argument("file", metavar="FILE", help="the record (JSON)")
    p.add_argument("--quiet", action="store_true", help="only the final table")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser(
        "demo",
        help="a short seeded match showing tricks, exposures, sheets and standings",
        description="Bots play a seeded match; the first deal is shown trick by trick.",
    )
    p.add_argument("--seed", type=int, default=300, help="seed of the match (300)")
    p.set_defaults(func=_cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 2 bad input, 1 unexpected)."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    from gongzhu.errors import GongzhuError

    prog = f"gongzhu {args.command}"
    try:
        status: int = args.func(args)
    except (GongzhuError, _UsageError, ValueError) as exc:
        print(f"{prog}: error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (``gongzhu replay x.json | head``): stop quietly.
        # (Before OSError, of which it is a subclass.)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"{prog}: error: {_one_line(f'{where}{exc.strerror or exc}')}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if os.environ.get("GONGZHU_DEBUG"):
            raise
        print(
            f"{prog}: internal error: {type(exc).__name__}: {_one_line(str(exc))} "
            "(set GONGZHU_DEBUG=1 for details)",
            file=sys.stderr,
        )
        return 1
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status
