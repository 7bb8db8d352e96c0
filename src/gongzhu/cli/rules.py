"""``gongzhu rules``: list the presets, describe one, compare two, or explain every option."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from gongzhu.cli._common import add_language_option, rules_from, translator_for
from gongzhu.i18n import N_, Translator

# The presets as a player reads their names (``gongzhu play``'s start line); typed, a
# preset keeps its code name.
PRESET_TITLES = {
    "classic": N_("classic club rules"),
    "online": N_("online rules"),
    "online-quick": N_("online quick game"),
    "encyclopedia": N_("encyclopedia rules"),
    "russian": N_("Russian rules"),
    "czech-variant": N_("Czech variant"),
    "catch-the-pig": N_("Chyťte prase"),
    "slam-pig": N_("slam pig"),
    "flat-pig": N_("flat pig"),
    "taiwan": N_("Taiwanese rules"),
}


# Every option's meaning for ``gongzhu rules --explain``, in the catalogue so that it is
# translated. The English must stay RuleSet's own field doc (a test compares them); an
# option missing here is explained by its field doc, in English.
OPTION_DOCS = {
    "players": N_(
        "Number of players: 4 (13 cards each); 5 (2♣ and 2♦ removed, 10 each); 3 (2♣ "
        "removed, 17 each; an extension)."
    ),
    "partnerships": N_(
        "Two teams of two, partners opposite (seats 0+2 and 1+3): a team scores the "
        "sum of its players' deal scores and the thresholds apply to team totals (the "
        "library's reading, as on pagat)."
    ),
    "direction": N_(
        "Direction of play. It names the seats and orders the dealer rotation and the "
        "grand-slam rotation; seat numbers always follow play order."
    ),
    "opening_card": N_("Its holder leads the first trick of the first deal."),
    "must_lead_opening_card": N_("The opening card itself must be the first card led."),
    "later_leader": N_(
        "Who leads the first trick of later deals: the previous pig taker; the "
        "opening-card holder; or, with 'rotate', the seat after the dealer in every "
        "deal, the first included (Match.next_leader gives it; the opening card then "
        "plays no part)."
    ),
    "hearts_must_be_broken": N_(
        "Hearts may not be led until a heart has been played, unless the leader holds only hearts."
    ),
    "heart_values": N_(
        "Values of 2♥ … A♥ (13 ints, or 'standard' / 'face-value', or a mapping rank "
        "→ value over the standard table)."
    ),
    "pig_value": N_(
        "The pig's (Q♠) value, negative. Exposure multiplies it; where a rule turns "
        "the pig positive (all hearts, the sign swap, a grand slam) it counts the "
        "opposite."
    ),
    "sheep_value": N_(
        "The sheep's (J♦) value, positive. Exposure multiplies it (see "
        "exposed_sheep_value); where a rule turns the sheep negative it counts the "
        "opposite."
    ),
    "transformer_bonus": N_(
        "The lone transformer's bonus: the deal total of a player who took 10♣ and no "
        "other point card (0 or more; exposure multiplies it)."
    ),
    "zero_hearts_are_point_cards": N_(
        "Whether hearts worth 0 (2–4♥) count as point cards for the lone-10♣ bonus "
        "(10♣ + 3♥ = 0) or not (10♣ + 3♥ = +50)."
    ),
    "all_hearts_value": N_(
        "The hearts line of a player who took all 13 hearts (small slam, 全红), before "
        "exposure doubling; None: no small-slam effect at all."
    ),
    "pig_with_all_hearts": N_(
        "The pig's sign for the player who also took all hearts. No effect while "
        "sign_swap is on (the swap turns the pig for everybody): so 001's one switch, "
        "sign_swap, moves between its two readings (swap on; swap off with the pig "
        "unchanged)."
    ),
    "sign_swap": N_(
        "猪羊变色: when a player takes all 13 hearts, the pig counts +100 and the sheep "
        "−100 for whoever took them (exposed sheep −200); in a grand slam every line "
        "of the slam taker is positive and the transformer multiplies. While it is "
        "on, pig_with_all_hearts has no effect."
    ),
    "pig_sheep_together": N_(
        "猪羊满圈 (Zhu Yang Man Juan): the all-hearts taker's hearts and pig turn "
        "positive only if they also took J♦; otherwise all their lines stay negative."
    ),
    "pig_sheep_zero_sum": N_(
        "When the all-hearts taker also took the pig and it counts +100 for them, the "
        "sheep counts −100 for whoever took it (so pig + sheep is 0; if "
        "pig_with_all_hearts keeps that pig at −100, the sheep stays +100)."
    ),
    "grand_slam": N_("The cards of a grand slam (满贯): all 16 point cards, or 15 without 10♣."),
    "grand_slam_outcome": N_(
        "What a grand slam does: scored by the lines; a fixed deal total; an instant "
        "match win; or the running totals rotate one seat."
    ),
    "grand_slam_value": N_("The slam taker's deal total when grand_slam_outcome is 'fixed'."),
    "queen_of_diamonds_bonus": N_(
        "Points the taker of Q♦ gets for each trick they win after that trick; 0 is "
        "off (the library's reading of 002 v7: +10, added after the transformer)."
    ),
    "exposable": N_("Cards that may be exposed (亮牌) before the first lead; empty: no exposure."),
    "exposure_kind": N_(
        "Open ×2; or face-down ×2 / face-up ×4 (the factor multiplies the card's "
        "effect: face-up pig −400, face-up 10♣ ×8 or +200 alone)."
    ),
    "blind_exposure": N_(
        "A player may expose the first card dealt to them before looking at the rest; "
        "its effect doubles again (pig −400, 10♣ ×8)."
    ),
    "exposed_sheep_value": N_(
        "The exposed sheep's value at the ×2 exposure factor (scaled for other "
        "factors); None: twice sheep_value, like every other exposed card."
    ),
    "exposure_restriction": N_("When exposed cards are held back."),
    "hearts_locked_by_exposed_ace": N_(
        "'Blood lock': while A♥ is exposed, hearts may not be led until a heart has "
        "been played, unless the leader holds only hearts."
    ),
    "three_exposed_force_fourth": N_(
        "When three exposable cards are exposed, the holder of the fourth must expose "
        "it (the library applies this when the first card is played)."
    ),
    "exposure_order": N_("Exposures decided all at once, or one seat at a time from the leader."),
    "end_when_points_out": N_("The deal ends as soon as every point card has been captured."),
    "claims": N_(
        "摊牌/全大: the player to act may show their hand and claim the remaining tricks; "
        "if every other player accepts, the claimer takes them, else play continues."
    ),
    "loss_threshold": N_(
        "A running total at (or below) this loses the match; None: no loss threshold."
    ),
    "loss_inclusive": N_(
        "Whether reaching the loss threshold exactly loses (≤) or only going past it (<)."
    ),
    "win_threshold": N_(
        "A running total at (or above) this ends the match (highest first, lowest is "
        "the pig); None: no win threshold."
    ),
    "win_inclusive": N_(
        "Whether reaching the win threshold exactly ends the match (≥) or only going "
        "past it (>); the mirror of loss_inclusive."
    ),
    "max_deals": N_(
        "The match ends after this many deals (a cap, or a fixed number of deals when "
        "there are no thresholds); None: no cap."
    ),
    "simultaneous_loss": N_("Who loses when several cross the loss threshold after the same deal."),
    "tied_winners": N_(
        "When the match would end with two or more seats (teams) tied for the highest "
        "total: they share the win, or whole deals are played on (past the thresholds "
        "and max_deals) until the highest total is unique."
    ),
    "exact_threshold_flips": N_(
        "A running total of exactly the loss threshold flips to its opposite (−1000 → "
        "+1000) and the match ends; the flipped player does not lose."
    ),
}


def register(sub: Any, t: Translator) -> None:
    p = sub.add_parser(
        "rules",
        help=t.gettext("list the presets, describe one, compare two, explain the options"),
        description=t.gettext(
            "Without arguments, list the presets. With PRESET, print every option "
            "of it; with --diff OTHER, only the options where the two differ; with "
            "--explain, every option with its meaning and its sources."
        ),
    )
    p.add_argument("preset", nargs="?", metavar="PRESET", help=t.gettext("the preset to describe"))
    p.add_argument(
        "--diff", metavar="OTHER", help=t.gettext("compare PRESET (default classic) with OTHER")
    )
    p.add_argument("--list", action="store_true", help=t.gettext("list the presets"))
    p.add_argument(
        "--explain",
        action="store_true",
        help=t.gettext("every option of PRESET (default classic): value, meaning, sources"),
    )
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=t.gettext("describe or explain PRESET with this option changed (repeatable)"),
    )
    add_language_option(p, t)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gongzhu.rules import PRESET_INFO, PRESETS, RuleSet

    t = translator_for(args)
    name = args.preset or "classic"
    chosen = rules_from(argparse.Namespace(rules=name, rule=args.rule))
    if args.rule:
        name = chosen.nearest_name()  # "online + sign_swap=no": the nearest preset
    if args.explain:
        return _explain(t, chosen, name)
    if args.list or (args.preset is None and args.diff is None and not args.rule):
        name_width = max(len(name) for name in PRESETS)
        for name, info in PRESET_INFO.items():
            print(f"{name:{name_width}}  {t.gettext(info.summary)}")
        return 0
    rules = chosen
    if args.diff is None:
        lines = rules.describe().splitlines()
        # The first line names the rule set; the option lines are names and values.
        print(t.gettext("Rule set {name}").format(name=name))
        print("\n".join(lines[1:]))
        return 0
    other = RuleSet.preset(args.diff)
    changes = rules.diff(other)
    if not changes:
        print(t.gettext("{a} and {b} are the same rules").format(a=name, b=args.diff))
        return 0
    option_width = max(len(option) for option in changes)
    left = max(len(name), *(len(_value_text(a)) for a, _ in changes.values()))
    print(f"{t.gettext('option'):{option_width}}  {name:{left}}  {args.diff}")
    for option, (a, b) in changes.items():
        print(f"{option:{option_width}}  {_value_text(a):{left}}  {_value_text(b)}")
    return 0


def _wrap(text: str, columns: int) -> list[str]:
    """``text`` in lines of at most ``columns`` terminal columns (Chinese has no spaces)."""
    from gongzhu.cli._common import width

    if width(text) == len(text):
        return textwrap.wrap(text, columns)
    lines: list[str] = []
    for word in textwrap.wrap(text, columns, break_long_words=False):
        line = ""
        for ch in word:
            if width(line + ch) > columns:
                lines.append(line)
                line = ""
            line += ch
        lines.append(line)
    return lines


def _value_text(value: Any) -> str:
    """An option's value as ``RuleSet.describe`` words it."""
    from gongzhu.rules import format_value

    return format_value(value)


def _explain(t: Translator, rules: Any, name: str) -> int:
    import attrs

    from gongzhu.rules import RuleSet

    print(
        t.gettext("Rule set {name}: every option, its value, meaning and sources").format(name=name)
    )
    print(t.gettext("(change one with --rule KEY=VALUE on score, play and rules)"))
    for field in attrs.fields(RuleSet):
        meta = field.metadata
        print()
        print(f"{field.name} = {_value_text(getattr(rules, field.name))}")
        doc = meta.get("doc", "")
        if OPTION_DOCS.get(field.name) == doc:
            doc = t.gettext(doc)
        for line in _wrap(doc, 94):
            print("    " + line)
        sources = meta.get("sources", "")
        if sources:
            text = t.gettext("sources: {sources}").format(sources=sources)
            for line in _wrap(text, 94):
                print("    " + line)
    return 0
