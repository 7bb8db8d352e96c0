"""The same captured piles scored under every preset, side by side.

Run it with ``python examples/compare_variants.py``. Each scenario gives the
cards each seat captured (and the exposed cards); the table shows every
seat's deal score under each preset, so the house rules' differences show up
as differing numbers (RULES.md §7; the presets are listed by
``gongzhu rules``). Where a preset plays no exposure (czech-variant), the
piles are scored without it, marked ``*``.
"""

from __future__ import annotations

from gongzhu import PRESETS, RuleOfThumbStrategy, parse_cards, play_deal, score

ALL_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"

# (title, one pile per seat, exposed cards)
SCENARIOS = [
    (
        "all hearts with the pig (seeds/000 §05, seeds/001 sign swap)",
        [f"{ALL_HEARTS} QS", "JD", "TC", "AS KS"],
        "",
    ),
    (
        "10♣ with a zero-valued heart (seeds/000 §04 vs seeds/001)",
        ["TC 3H", "QS JD", "AH", ""],
        "",
    ),
    (
        "pig and sheep exposed (seeds/000 §06; face-up ×4 in catch-the-pig)",
        ["QS 5H 6H", "JD TC", "KH", "AS"],
        "QS JD",
    ),
    (
        "all 16 point cards: a grand slam (a fixed +1000 in the seeds/004 variant)",
        [f"{ALL_HEARTS} QS JD TC", "", "", ""],
        "",
    ),
]


def main() -> None:
    rnd = play_deal([RuleOfThumbStrategy()] * 4, seed=42)
    bots = ("a bot deal (seed 42)", [p.code for p in rnd.captured], "")
    names = list(PRESETS)
    width = max(len(n) for n in names)
    for title, piles, exposed in [*SCENARIOS, bots]:
        print(f"== {title}")
        for seat, pile in enumerate(piles):
            print(f"   seat {seat} took: {parse_cards(pile) or '-'}")
        print(f"   exposed: {parse_cards(exposed) or 'nothing'}")
        print(f"   {'preset':{width}}  " + "".join(f"{f'seat {s}':>8}" for s in range(4)))
        for name in names:
            rules = PRESETS[name]
            shown = parse_cards(exposed) & rules.exposable
            mark = "*" if shown != parse_cards(exposed) else " "
            totals = score(piles, shown, rules=rules).totals
            print(f"   {name:{width}}{mark} " + "".join(f"{t:>8}" for t in totals))
        print()


if __name__ == "__main__":
    main()
