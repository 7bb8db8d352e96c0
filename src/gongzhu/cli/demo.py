"""``gongzhu demo``: four bots play a seeded match; the first deal is shown trick by trick."""

from __future__ import annotations

import argparse
from typing import Any

from gongzhu.cli._common import add_language_option, translator_for
from gongzhu.cli._show import (
    Seats,
    compass_names,
    exposure_text,
    notes,
    sheets_side_by_side,
    standings,
    table,
    trick_line,
)
from gongzhu.i18n import Translator


def register(sub: Any, t: Translator) -> None:
    p = sub.add_parser(
        "demo",
        help=t.gettext("a short seeded match showing tricks, exposures, sheets and standings"),
        description=t.gettext("Bots play a seeded match; the first deal is shown trick by trick."),
    )
    p.add_argument("--seed", type=int, default=300, help=t.gettext("seed of the match (300)"))
    add_language_option(p, t)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gongzhu.ai.strategies import RuleOfThumbStrategy, play_match
    from gongzhu.match import Match
    from gongzhu.rules import RuleSet

    t = translator_for(args)
    rules = RuleSet()
    # The seats named as in every command: by compass, seat 0 South.
    seats = Seats(compass_names(t, rules, 0))
    _, rounds = play_match([RuleOfThumbStrategy()] * 4, rules=rules, seed=args.seed)
    first = rounds[0]
    print(
        t.gettext(
            "Four rule-of-thumb bots play a match of Gong Zhu (拱猪, 'Chase the Pig') under\n"
            "the classic club rules of seeds/000, seed {seed}. The pig Q♠ is −100, the sheep\n"
            "J♦ +100, hearts count against you, and 10♣ doubles whatever its taker won.\n"
        ).format(seed=args.seed)
    )
    print(t.gettext("Deal 1, dealt by {dealer}. The hands:").format(dealer=seats[first.dealer]))
    from gongzhu.cards import CardSet

    for seat, cards in enumerate(first.dealt):
        print(f"  {seats[seat]}: {t.cards(CardSet(cards))}")
    print(
        t.gettext("Exposed before the first trick (doubling those cards): {what}").format(
            what=exposure_text(t, first, seats)
        )
    )
    print(t.gettext("The tricks (who played what, → the winner, and the point cards taken):"))
    for k, trick in enumerate(first.tricks, 1):
        print(f"  {k:>2}  {trick_line(t, trick, seats)}")
    print()
    print(t.gettext("The score sheets of deal 1:"))
    score = first.score()
    print(sheets_side_by_side(t, score, (0,) * 4, seats))
    for line in notes(t, score, seats):
        print("  * " + line)
    match = Match(rules).extend(rounds)
    print()
    print(
        t.ngettext(
            "The match went on for {n} deal:", "The match went on for {n} deals:", len(rounds)
        ).format(n=len(rounds))
    )
    print(table(t, match, seats))
    print(standings(t, match, seats))
    print()
    print(t.gettext("Try:"))
    print('  gongzhu score "QS TC 7H" "AC JD" --exposed "QS TC"')
    print("  gongzhu rules online --diff classic")
    print("  gongzhu play --human 0")
    print("  gongzhu play --seed 1 --deals 200")
    return 0
