"""``gongzhu replay``: check a JSON game record through the engine and print it deal by deal."""

from __future__ import annotations

import argparse
from typing import Any

import gongzhu.cli._save as _save
from gongzhu.cli._common import add_language_option, safe, translator_for
from gongzhu.cli._show import Seats, show_match
from gongzhu.i18n import Translator


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


def run(args: argparse.Namespace) -> int:
    from gongzhu.errors import RecordError
    from gongzhu.record import load

    t = translator_for(args)
    # record.load reads at most its size cap (a record is never megabytes), so
    # /dev/zero or a huge file is refused without being read whole.
    with open(args.file, "rb") as fp:
        try:
            record = load(fp)
        except RecordError as exc:
            # A save of ``gongzhu play --human`` holds a record: replay that.
            try:
                _save.read_data(args.file)
            except _save.SaveError:
                raise exc from None  # no save either: the record's complaint
            # A save: replay it, or say what is wrong with it as a save.
            record = _save.record_of(*_save.read(args.file))
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
