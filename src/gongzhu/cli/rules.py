"""``gongzhu rules``: list the presets, describe one, compare two, or explain every option."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from gongzhu.cli._common import add_language_option, rules_from, translator_for
from gongzhu.i18n import N_, Translator

# One line per preset for ``gongzhu rules --list`` (the long form is RuleSet.describe()).
PRESET_SUMMARIES = {
    "classic": N_("seeds/000 club rules: 2♠ opens, pig taker leads later, lose at −1000"),
    "online": N_("seeds/001 online rules: 2♣ must open, sign swap, ends at ±1000 or 30 deals"),
    "online-quick": N_("seeds/001 quick game: the online rules ending at ±500"),
    "encyclopedia": N_("seeds/002: 2♣ opens; everyone who crosses −1000 loses"),
    "russian": N_("seeds/003: clockwise, the 2♠ holder opens every deal"),
    "czech-variant": N_(
        "seeds/004 variant: face-value hearts, fixed +1000 grand slam, no exposure"
    ),
    "catch-the-pig": N_("seeds/004 'Chyťte prase': face-down ×2 / face-up ×4 exposure"),
    "slam-pig": N_("programs: the pig turns positive only in a grand slam; tied leaders play on"),
    "flat-pig": N_("MrIfOffline: the pig never turns; no exposure; the leader rotates"),
    "taiwan": N_("Taiwan: 7♠ opens, face-value hearts, 豬羊變色, +1000 grand slam, no exposure"),
}

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
    from gongzhu.rules import PRESETS, RuleSet

    t = translator_for(args)
    name = args.preset or "classic"
    chosen = rules_from(argparse.Namespace(rules=name, rule=args.rule))
    if args.rule:
        name = chosen.nearest_name()  # "online + sign_swap=no": the nearest preset
    if args.explain:
        return _explain(t, chosen, name)
    if args.list or (args.preset is None and args.diff is None and not args.rule):
        name_width = max(len(name) for name in PRESETS)
        for name, preset in PRESETS.items():
            summary = PRESET_SUMMARIES.get(name)
            print(f"{name:{name_width}}  {t.gettext(summary) if summary else preset}")
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


def _value_text(value: Any) -> str:
    """An option's value as ``RuleSet.describe`` words it."""
    from gongzhu.rules import _format_value

    return _format_value(value)


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
        for line in textwrap.wrap(meta.get("doc", ""), 94):
            print("    " + line)
        sources = meta.get("sources", "")
        if sources:
            text = t.gettext("sources: {sources}").format(sources=sources)
            for line in textwrap.wrap(text, 94):
                print("    " + line)
    return 0
