"""``gongzhu score``: score captured piles and print each seat's seven-line sheet."""

from __future__ import annotations

import argparse
import json
from typing import Any

from gongzhu.cli._common import add_language_option, add_rules_options, rules_from, translator_for
from gongzhu.cli._show import Seats, notes, sheets
from gongzhu.i18n import Translator


def register(sub: Any, t: Translator) -> None:
    p = sub.add_parser(
        "score",
        help=t.gettext("score captured piles: the 7-line sheet per seat"),
        description=t.gettext(
            "Score one deal from the cards each seat captured (one argument per "
            "seat, in seat order; '-' for a seat that took nothing)."
        ),
        epilog=t.gettext('Example: gongzhu score "QS TC 7H" "AC JD" --exposed "QS TC"'),
    )
    p.add_argument(
        "piles", nargs="+", metavar="PILE", help=t.gettext('captured cards, e.g. "QS TC 7H"')
    )
    p.add_argument("--exposed", metavar="CARDS", help=t.gettext('exposed cards, e.g. "QS TC"'))
    add_rules_options(p, t)
    p.add_argument("--json", action="store_true", help=t.gettext("print JSON with every line"))
    add_language_option(p, t)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gongzhu.scoring import score

    t = translator_for(args)
    rules = rules_from(args)
    piles = ["" if pile.strip() == "-" else pile for pile in args.piles]
    result = score(piles, args.exposed or (), rules=rules)
    if args.json:
        print(json.dumps(_json(result, rules), ensure_ascii=False, indent=2))
        return 0
    exposed = t.cards(result.exposed) if result.exposed else t.gettext("nothing")
    print(t.gettext("rules: {rules}; exposed: {exposed}").format(rules=rules, exposed=exposed))
    seats = Seats.numbered(t, len(result))
    print(sheets(t, result, (0,) * len(result), seats))
    for line in notes(t, result, seats):
        print("  * " + line)
    print(t.gettext("totals: {totals}").format(totals=" ".join(str(x) for x in result.totals)))
    return 0


def _json(result: Any, rules: Any) -> dict[str, Any]:
    return {
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
