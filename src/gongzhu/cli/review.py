"""``gongzhu review``: where a seat lost points in a game record, deal by deal.

Each finished deal of the record (or of a save of ``gongzhu play --human``) is
reviewed with :func:`gongzhu.ai.review.review`: the seat's exposure decision
and every card it chose are judged by the search bot from what the seat could
see then, and the choices it judges clearly worse than its own are printed with
the points they cost (the exposure first).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from gongzhu.cli._common import UsageError, add_language_option, translator_for
from gongzhu.cli._show import Seats
from gongzhu.cli.replay import read_record
from gongzhu.i18n import Translator

if TYPE_CHECKING:
    from gongzhu.ai.review import ExposureLoss


def register(sub: Any, t: Translator) -> None:
    p = sub.add_parser(
        "review",
        help=t.gettext("show where a seat lost points in a game record"),
        description=t.gettext(
            "Judge each card a seat chose in every finished deal of a record (or of a "
            "save of 'gongzhu play --human') from what that seat could see then, as the "
            "search bot does, and print the cards that cost points."
        ),
    )
    p.add_argument("file", metavar="FILE", help=t.gettext("the record (JSON)"))
    p.add_argument("--seat", type=int, default=0, help=t.gettext("the seat to review (default 0)"))
    p.add_argument("--deal", type=int, default=None, help=t.gettext("only this deal (1, 2, …)"))
    add_language_option(p, t)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gongzhu.ai.review import review

    t = translator_for(args)
    record = read_record(args.file)
    rules = record.rules
    if not 0 <= args.seat < rules.players:
        raise UsageError(t.gettext("--seat must be 0-{n}").format(n=rules.players - 1))
    done = [(k, r) for k, r in enumerate(record.rounds, 1) if r.is_over]
    if args.deal is not None:
        done = [(k, r) for k, r in done if k == args.deal]
        if not done:
            raise UsageError(t.gettext("no finished deal {n} in this record").format(n=args.deal))
    seats = Seats.of(t, rules.players, record.names, rules=rules)
    for number, rnd in done:
        found = review(rnd, args.seat)
        print(
            t.gettext("Deal {n}, {who}: {points} this deal").format(
                n=number, who=seats[args.seat], points=f"{found.score:+d}" if found.score else "0"
            )
        )
        if found.exposure_loss is not None:
            print("  " + _exposure_line(t, found.exposure_loss))
        for loss in found.losses:
            print(
                "  "
                + t.gettext(
                    "trick {n}: {card} cost about {points} points; {better} was better"
                ).format(n=loss.trick, card=loss.card, points=loss.points, better=loss.better)
            )
        if not found.losses and found.exposure_loss is None:
            print("  " + t.gettext("no costly card: each was as good as the computer's choice"))
    return 0


def _exposure_line(t: Translator, loss: ExposureLoss) -> str:
    if not loss.better:
        text = t.gettext(
            "exposure: exposing {cards} cost about {points} points; declining was better"
        )
    elif not loss.chosen:
        text = t.gettext(
            "exposure: declining cost about {points} points; exposing {better} was better"
        )
    else:
        text = t.gettext(
            "exposure: exposing {cards} cost about {points} points; exposing {better} was better"
        )
    return text.format(cards=loss.chosen, better=loss.better, points=loss.points)
