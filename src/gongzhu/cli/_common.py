"""What the ``gongzhu`` commands share: the parser, options, terminal-safe text, seat names.

Every command module has the same shape — ``register(subparsers, t)`` adds its
parser and ``run(args) -> int`` runs it — so a new command is one module plus
one line in :mod:`gongzhu.cli`.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from gongzhu.i18n import N_, Translator, negotiate

if TYPE_CHECKING:
    from gongzhu.ai.driver import Strategy
    from gongzhu.round import Round
    from gongzhu.rules import RuleSet


class UsageError(Exception):
    """Bad command-line input found after parsing (reported like an argparse error)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        import argparse as _argparse

        see = getattr(_argparse, "_", lambda text: text)("(see {prog} --help)")
        line = f"{self.prog}: error: {one_line(message)} {see.format(prog=self.prog)}"
        self.exit(2, line + "\n")


# argparse's own words, for the catalogues: argparse looks each up through its module's
# ``_`` and ``ngettext``, which translate_argparse() points at the output's language.
_ARGPARSE_WORDS = (
    N_("usage: "),
    N_("options"),
    N_("optional arguments"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("the following arguments are required: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("(see {prog} --help)"),
)


def translate_argparse(t: Translator) -> None:
    """Let argparse write its words (usage, options, its errors) in ``t``'s language.

    The command line owns its process, so it may set argparse's module-level
    lookups (argparse reads them at each call).
    """
    setattr(argparse, "_", t.gettext)  # noqa: B010 (argparse's private hook, set on purpose)
    setattr(argparse, "ngettext", t.ngettext)  # noqa: B010


_LINE_LIMIT = 300


def one_line(text: str) -> str:
    """``text`` as one short printable line (messages may quote hostile arguments)."""
    text = "; ".join(part.strip() for part in str(text).split("\n") if part.strip())
    text = safe(text)
    if len(text) > _LINE_LIMIT:
        text = text[: _LINE_LIMIT - 60] + " … " + text[-57:]
    return text


# Control (Cc), format (Cf: bidi overrides, zero-width joiners), line and paragraph
# separators (Zl, Zp), surrogates and unassigned code points: none may reach a terminal
# raw, where they clear screens, retitle windows or reorder a standings line.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def safe(text: object) -> str:
    """``text`` with every character that could act on a terminal shown as an escape.

    >>> safe("Ann\\x1b[2J\\u202e\\u200b\\r\\n")
    'Ann\\\\x1b[2J\\\\u202e\\\\u200b\\\\r\\\\n'
    >>> safe("红桃A Q♠")
    '红桃A Q♠'
    """
    text = str(text)
    if text.isprintable() and text.isascii():
        return text
    out = []
    for ch in text:
        if unicodedata.category(ch) in _UNSAFE_CATEGORIES:
            out.append(ascii(ch)[1:-1])
        else:
            out.append(ch)
    return "".join(out)


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, columns: int) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns."""
    return text + " " * max(0, columns - width(text))


# -- options shared by several commands ----------------------------------------------


def prescan_language(argv: Sequence[str]) -> str:
    """The language for the help texts, read before parsing (``--lang X`` / ``--lang=X``)."""
    requested = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            requested = argv[i + 1]
        elif arg.startswith("--lang="):
            requested = arg.partition("=")[2]
    try:
        return negotiate(requested)
    except ValueError:
        return negotiate(None)  # the parser reports the bad --lang itself


def add_language_option(p: argparse.ArgumentParser, t: Translator, *, top: bool = False) -> None:
    """``--lang`` on a command (or, ``top``, before it: ``gongzhu --lang zh demo``)."""
    from gongzhu.i18n import LANGUAGES

    p.add_argument(
        "--lang",
        choices=tuple(LANGUAGES),
        metavar="LANG",
        # A command's own --lang leaves the top-level one alone unless given.
        default=None if top else argparse.SUPPRESS,
        help=t.gettext("language of the output: {languages} (default: from LANGUAGE/LANG)").format(
            languages=", ".join(LANGUAGES)
        ),
    )


# The preset names, as typed (a copy, so ``--help`` imports no engine module; a test
# checks it against gongzhu.rules.PRESETS).
PRESET_NAMES = (
    "classic",
    "online",
    "online-quick",
    "encyclopedia",
    "russian",
    "czech-variant",
    "catch-the-pig",
    "slam-pig",
    "flat-pig",
    "taiwan",
)


def add_rules_options(p: argparse.ArgumentParser, t: Translator) -> None:
    p.add_argument(
        "--rules",
        default="classic",
        metavar="PRESET",
        help=t.gettext("preset: {presets} (default classic; gongzhu rules lists them)").format(
            presets=", ".join(PRESET_NAMES)
        ),
    )
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=t.gettext(
            "change one option of the preset, e.g. --rule sign_swap=yes (repeatable; "
            "gongzhu rules --explain lists them)"
        ),
    )


def translator_for(args: argparse.Namespace) -> Translator:
    return Translator(negotiate(getattr(args, "lang", None)))


_TRUE = frozenset({"true", "yes", "on", "1", "y"})
_FALSE = frozenset({"false", "no", "off", "0", "n"})
_NONE = frozenset({"none", "off", "null", "no"})


def rule_value(option: str, text: str) -> Any:
    """The value ``text`` stands for as option ``option``; RuleSet validates it.

    Text that fits no reading is passed through as it is, so the refusal is
    RuleSet's own message. What ``gongzhu rules`` prints reads back: ``none``
    for an empty card set, ``yes``/``no``, a list of values with or without
    brackets. A list is read whole (every item; a wrong count is RuleSet's
    refusal), and numbers are ASCII digits only.

    >>> rule_value("sign_swap", "yes"), rule_value("loss_threshold", "-500")
    (True, -500)
    >>> rule_value("win_threshold", "none"), rule_value("heart_values", "face-value")
    (None, 'face-value')
    >>> rule_value("exposable", "none"), rule_value("direction", "Clockwise")
    ('', 'clockwise')
    """
    import enum

    import attrs

    from gongzhu.cards import CardSet
    from gongzhu.rules import RuleSet

    fields = attrs.fields_dict(RuleSet)
    if option not in fields:
        return text
    meta = fields[option].metadata
    kind, optional = meta["type"], meta.get("optional", False)
    value = text.strip()
    lowered = value.lower()
    if optional and lowered in _NONE:
        return None
    if kind is bool:
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        return value
    if kind is int:
        return _ascii_int(value)
    if kind is tuple:
        if lowered in ("standard", "face-value"):
            return lowered
        inner = value.strip("()[] ")
        numbers = [_ascii_int(part.strip()) for part in inner.split(",")]
        if all(isinstance(number, int) for number in numbers):
            return tuple(numbers)
        return value
    if kind is CardSet and lowered in _NONE:
        return ""
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return lowered
    return value


def _ascii_int(text: str) -> int | str:
    """``text`` as an int if it is one in ASCII digits of sensible length, else ``text``."""
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 20:
        return text
    return int(text)


def rules_from(args: argparse.Namespace, players: int | None = None) -> RuleSet:
    """The preset of ``--rules`` with every ``--rule KEY=VALUE`` (and ``--players``) applied."""
    from gongzhu.errors import RuleSetError
    from gongzhu.rules import RuleSet

    rules = RuleSet.preset(args.rules)
    changes: dict[str, Any] = {}
    for item in getattr(args, "rule", None) or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--rule needs KEY=VALUE, got {item!r}")
        option = key.strip().replace("-", "_")
        changes[option] = rule_value(option, value)
    if changes:
        rules = rules.replace(**changes)
    if players is not None and players != rules.players:
        try:
            rules = rules.replace(players=players)
        except RuleSetError as exc:
            raise RuleSetError(
                f"{exc}; --players {players} needs a preset that allows it (e.g. classic)"
            ) from None
    return rules


LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
"""The opponents' levels of ``gongzhu play --level`` (names in the strategy registry)."""

# The levels and bot names as a player reads them (the names typed stay these codes).
BOT_TITLES = {
    "easy": N_("easy"),
    "normal": N_("normal"),
    "hard": N_("hard"),
    "random": N_("random"),
    "rule-of-thumb": N_("rule-of-thumb"),
    "search": N_("search"),
    "greedy": N_("greedy"),
}


def make_bot(name: str, seed: int | None) -> Strategy:
    """The strategy for a level or a bot name (:data:`gongzhu.ai.registry.STRATEGIES`), seeded."""
    from gongzhu.ai.registry import make_strategy

    return make_strategy(name, seed)


def bot_names() -> tuple[str, ...]:
    """The strategy names :func:`gongzhu.bots.make_strategy` knows (the levels too)."""
    from gongzhu.ai.registry import STRATEGIES

    return tuple(STRATEGIES)


def bot_table(spec: str, players: int) -> tuple[str, ...]:
    names = tuple(part.strip() for part in spec.split(",") if part.strip())
    known = bot_names()
    for name in names:
        if name not in known:
            raise UsageError(f"unknown bot {name!r}; choose from {', '.join(known)}")
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise UsageError(f"--bots needs 1 or {players} names, got {len(names)}")
    return names


def bots_text(bots: Sequence[str], t: Translator | None = None) -> str:
    """``3 × rule-of-thumb`` (names in the output's language when ``t`` is given)."""

    def title(name: str) -> str:
        return t.gettext(BOT_TITLES[name]) if t is not None and name in BOT_TITLES else name

    if len(set(bots)) == 1:
        if t is not None:
            return t.ngettext(
                "{n} computer player ({level})", "{n} computer players ({level})", len(bots)
            ).format(n=len(bots), level=title(bots[0]))
        return f"{len(bots)} × {bots[0]}"
    sep = t.gettext(", ") if t is not None else ", "
    return sep.join(title(b) for b in bots)


def player_names(spec: str | None, players: int) -> tuple[str, ...] | None:
    if spec is None:
        return None
    names = tuple(part.strip() for part in spec.split(","))
    if len(names) != players or not all(names) or len(set(names)) != players:
        raise UsageError(f"--names needs {players} distinct names separated by commas")
    return names


def out() -> TextIO:
    return sys.stdout


def write_record(
    t: Translator, path: str, rounds: Iterable[Round], names: Sequence[str] | None
) -> None:
    from gongzhu.record import dumps

    text = dumps(list(rounds), names=names)
    with open(path, "w", encoding="utf-8") as fp:
        fp.write(text + "\n")
    print(t.gettext("record written to {path}").format(path=path))
