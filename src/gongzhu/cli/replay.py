"""``gongzhu replay``: check a JSON game record through the engine and print it deal by deal."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

import gongzhu.cli._save as _save
from gongzhu.cli._common import add_language_option, safe, translator_for
from gongzhu.cli._show import Seats, show_match
from gongzhu.i18n import Translator

if TYPE_CHECKING:
    from gongzhu.record import GameRecord


def register(sub: Any, t: Translator) -> None:
    p = sub.add_parser(
        "replay",
        help=t.gettext("check a JSON game record and print it deal by deal"),
        description=t.gettext(
            "Read a record written by 'gongzhu play --record' (or gongzhu.record), "
            "replay every move through the engine and print the tricks and score sheets."
        ),
    )
    p.add_argument("file", metavar="FILE", help=t.gettext("the record (JSON)"))
    p.add_argument("--quiet", action="store_true", help=t.gettext("only the final table"))
    add_language_option(p, t)
    p.set_defaults(func=run)


def read_record(path: str) -> GameRecord:
    """The game record in ``path``: a record, or a save of ``gongzhu play --human``."""
    from gongzhu.errors import RecordError
    from gongzhu.record import load

    # record.load reads at most its size cap (a record is never megabytes), so
    # /dev/zero or a huge file is refused without being read whole.
    with open(path, "rb") as fp:
        try:
            return load(fp)
        except RecordError as exc:
            # A save of ``gongzhu play --human`` holds a record: replay that.
            try:
                _save.read_data(path)
            except _save.SaveError:
                raise exc from None  # no save either: the record's complaint
            # A save: replay it, or say what is wrong with it as a save.
            return _save.record_of(*_save.read(path))


def run(args: argparse.Namespace) -> int:
    t = translator_for(args)
    record = read_record(args.file)
    rules, names = record.rules, record.names
    if not args.quiet:
        deals = len(record.rounds)
        print(
            t.ngettext(
                "Record: rules {rules}, {n} deal", "Record: rules {rules}, {n} deals", deals
            ).format(rules=safe(rules), n=deals)
            + "\n"
        )
    # Names come from the file: Seats makes them safe for the terminal.
    seats = Seats.of(t, rules.players, names, rules=rules)
    show_match(
        t, record.rounds, rules, seats, names, tricks=not args.quiet, quiet=args.quiet, write=print
    )
    if not record.rounds:
        print(t.gettext("(no deals)"))
    return 0
