"""Score a few Gong Zhu deals and print their score sheets.

Run it with ``python examples/score_a_hand.py``. Every deal comes from a worked
example of the sources (seeds/000 §07, §05; seeds/001), named in its title.
"""

from __future__ import annotations

from gongzhu import RuleSet, parse_cards, score

ALL_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"

# (title, captured piles one per seat, exposed cards, rules)
DEALS = [
    (
        "seeds/000 §07: 10♣ with Q♠ and 7♥, nothing exposed: 2 × (−100 − 10)",
        ["10C QS 7H", "AC JD", "KS 2H"],
        "",
        RuleSet(),
    ),
    (
        "seeds/000 §07: the same pile with 10♣ and Q♠ exposed: 4 × (−200 − 10)",
        ["10C QS 7H", "AC JD", "KS 2H"],
        "10C QS",
        RuleSet(),
    ),
    (
        "seeds/000 §05: all hearts with Q♠ and J♦, then 10♣ doubles it",
        [f"{ALL_HEARTS} QS JD 10C", "AS KS"],
        "",
        RuleSet(),
    ),
    (
        "seeds/001 (online rules, sign swap): Q♠ is +100 when another player took all hearts",
        [ALL_HEARTS, "QS", "JD"],
        "",
        RuleSet.preset("online"),
    ),
]


def main() -> None:
    for title, piles, exposed, rules in DEALS:
        deal = score(piles, exposed, rules=rules)
        print(f"== {title}")
        print(f"   rules: {rules}; exposed: {parse_cards(exposed) or 'none'}")
        print(deal.sheet())
        print(f"   deal totals: {deal.totals}\n")


if __name__ == "__main__":
    main()
