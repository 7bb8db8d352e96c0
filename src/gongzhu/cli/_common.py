"""What the ``gongzhu`` commands share: the parser, options, terminal-safe text, seat names.

Every command module has the same shape — ``register(subparsers, t)`` adds its
parser and ``run(args) -> int`` runs it — so a new command is one module plus
one line in :mod:`gongzhu.cli`.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from gongzhu.i18n import Translator, negotiate

if TYPE_CHECKING:
    from gongzhu.rules import RuleSet


class UsageError(Exception):
    """Bad command-line input found after parsing (reported like an argparse error)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


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


def add_rules_options(p: argparse.ArgumentParser, t: Translator) -> None:
    p.add_argument(
        "--rules", default="classic", metavar="PRESET", help=t.gettext("preset (classic)")
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
    RuleSet's own message.

    >>> rule_value("sign_swap", "yes"), rule_value("loss_threshold", "-500")
    (True, -500)
    >>> rule_value("win_threshold", "none"), rule_value("heart_values", "face-value")
    (None, 'face-value')
    """
    import attrs

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
        try:
            return int(value) if len(value) <= 20 else value
        except ValueError:
            return value
    if kind is tuple:
        parts = [part.strip() for part in value.split(",")]
        try:
            return tuple(int(part) for part in parts if len(part) <= 20)
        except ValueError:
            return value
    return value


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


def bot_names() -> tuple[str, ...]:
    """The strategy names :func:`gongzhu.bots.make_strategy` knows."""
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


def bots_text(bots: Sequence[str]) -> str:
    if len(set(bots)) == 1:
        return f"{len(bots)} × {bots[0]}"
    return ", ".join(bots)


def player_names(spec: str | None, players: int) -> tuple[str, ...] | None:
    if spec is None:
        return None
    names = tuple(part.strip() for part in spec.split(","))
    if len(names) != players or not all(names) or len(set(names)) != players:
        raise UsageError(f"--names needs {players} distinct names separated by commas")
    return names


def out() -> TextIO:
    return sys.stdout


def write_record(t: Translator, path: str, rounds: Any, names: Any) -> None:
    from gongzhu.record import dumps

    text = dumps(list(rounds), names=names)
    with open(path, "w", encoding="utf-8") as fp:
        fp.write(text + "\n")
    print(t.gettext("record written to {path}").format(path=path))
