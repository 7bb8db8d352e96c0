"""The ``gongzhu`` command: play a match, score piles, show rule sets, replay records.

Run ``gongzhu --help`` (or ``python -m gongzhu --help``). Each command is one
module here with ``register(subparsers, t)`` (``t``: the
:class:`~gongzhu.i18n.Translator` for its help texts; ``register(subparsers)``
works too) that sets ``func=run``, and ``run(args) -> int``; adding one is a
module and a line in :data:`COMMANDS`. Errors print one line to
stderr and exit with status 2 (bad input) or 1 (anything unexpected); Ctrl-C
exits with 130; there is never a traceback unless ``GONGZHU_DEBUG=1`` is set.

The engine modules are imported inside the commands, so ``gongzhu --help``
stays quick.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import gongzhu.cli.arena as arena
import gongzhu.cli.demo as demo
import gongzhu.cli.json_table as json_table
import gongzhu.cli.play as play
import gongzhu.cli.replay as replay
import gongzhu.cli.review as review
import gongzhu.cli.rules as rules
import gongzhu.cli.score as score
import gongzhu.cli.serve as serve
from gongzhu.cli._common import (
    Parser,
    UsageError,
    add_language_option,
    one_line,
    prescan_language,
    translate_argparse,
)
from gongzhu.cli._streams import silence_stdout, tolerant_streams
from gongzhu.i18n import Translator

__all__ = ["main"]

COMMANDS = (play, arena, score, rules, replay, review, demo, serve, json_table)
"""The command modules, in the order ``gongzhu --help`` lists them."""


def build_parser(t: Translator) -> Parser:
    from gongzhu import __version__
    from gongzhu.build import LABEL

    parser = Parser(
        prog="gongzhu",
        description=t.gettext(
            "Gong Zhu (拱猪, Chase the Pig): play a match against bots, score deals, "
            "compare house rules, watch bots play, replay game records."
        ),
        epilog=t.gettext("Each command has its own --help, e.g. gongzhu play --help."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"gongzhu {__version__} ({LABEL})",
        help=t.gettext("show the version and exit"),
    )
    add_language_option(parser, t, top=True)
    sub = parser.add_subparsers(title=t.gettext("commands"), dest="command", metavar="COMMAND")
    for command in COMMANDS:
        _register(command, sub, t)
    return parser


def _register(command: Any, sub: Any, t: Translator) -> None:
    """``register(subparsers, t)``; a command module written without translations
    (``register(subparsers)``, like ``gongzhu arena``) is registered as it is."""
    import inspect

    if len(inspect.signature(command.register).parameters) >= 2:
        command.register(sub, t)
    else:
        command.register(sub)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 2 bad input, 1 unexpected, 130 ^C)."""
    if sys.stdout is None:
        # Started with standard output closed (``gongzhu demo >&-``): nobody reads it.
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    tolerant_streams()
    args_list = list(sys.argv[1:] if argv is None else argv)
    prog = "gongzhu"
    try:
        t = Translator(prescan_language(args_list))
        translate_argparse(t)
        parser = build_parser(t)
        args = parser.parse_args(args_list)
        if args.command is None:
            parser.print_help()
            return 0
        prog = f"gongzhu {args.command}"
        with warnings.catch_warnings():  # restores showwarning afterwards
            warnings.showwarning = _warning_line(prog)
            status: int = args.func(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        # At a terminal the cursor is after "^C" (a prompt, a progress line): end that line.
        start = "\n" if sys.stderr is not None and sys.stderr.isatty() else ""
        print(f"{start}{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``gongzhu replay x.json | head``): stop quietly.
        # (Before OSError, of which it is a subclass.)
        silence_stdout()
        return 1
    except Exception as exc:
        return _report(prog, exc)
    return status


def _warning_line(prog: str) -> Any:
    """Show a warning as one line a command's user reads (``gongzhu play: warning: ...``),
    not Python's file, line number and source line."""

    def show(message: Warning | str, *_args: Any, **_kwargs: Any) -> None:
        if sys.stderr is not None:
            print(f"{prog}: warning: {one_line(str(message))}", file=sys.stderr)

    return show


def _report(prog: str, exc: Exception) -> int:
    from gongzhu.errors import GongzhuError

    if isinstance(exc, (GongzhuError, UsageError, ValueError)):
        print(f"{prog}: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"{prog}: error: {one_line(f'{where}{exc.strerror or exc}')}", file=sys.stderr)
        return 2
    if os.environ.get("GONGZHU_DEBUG"):
        raise exc
    print(
        f"{prog}: internal error: {type(exc).__name__}: {one_line(str(exc))} "
        "(set GONGZHU_DEBUG=1 for details)",
        file=sys.stderr,
    )
    return 1
