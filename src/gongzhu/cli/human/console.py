"""The terminal: reading answers (echoed when not a terminal), colours, and the setup
screen before a match. Part of :mod:`gongzhu.cli.human`.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from typing import TYPE_CHECKING

from gongzhu.cli._common import BOT_TITLES, safe
from gongzhu.cli.human.words import _MAX_LINE, _QUIT, _QUIT_SHORT, _YES
from gongzhu.i18n import Translator

if TYPE_CHECKING:
    from gongzhu.rules import RuleSet


class _Quit(Exception):
    """The person quit (``quit``) or the input ended."""

    def __init__(self, ended: bool) -> None:
        super().__init__("end of input" if ended else "quit")
        self.ended = ended


class _Console:
    def __init__(self, interactive: bool, t: Translator | None = None) -> None:
        self.interactive = interactive
        self.t = t or Translator()
        # Red suits in red on a terminal (NO_COLOR=1 turns colour off: no-color.org).
        self.colour = (
            interactive
            and sys.stdout is not None
            and sys.stdout.isatty()
            and not os.environ.get("NO_COLOR")
        )

    def paint(self, text: str, red: bool) -> str:
        return f"\x1b[31m{text}\x1b[0m" if self.colour and red else text

    def say(self, text: str = "") -> None:
        print(text, flush=True)

    def read(self, prompt: str) -> str:
        if self.interactive:
            try:
                line = input(prompt)
            except EOFError:
                print()
                raise _Quit(ended=True) from None
        else:
            print(prompt, end="", flush=True)
            line = sys.stdin.readline(_MAX_LINE) if sys.stdin is not None else ""
            if not line:
                print()
                raise _Quit(ended=True)
            line = line.rstrip("\r\n")
            print(safe(line[:80]), flush=True)  # echoed, so the transcript shows the answer
        # Full-width letters and digits (Ｑ, １０) as typed with a Chinese input method.
        return unicodedata.normalize("NFKC", line).strip()

    def ask(self, prompt: str) -> str:
        t = self.t
        while True:
            word = self.read(prompt)
            lowered = word.lower()
            if lowered in _QUIT:
                raise _Quit(ended=False)
            if lowered in _QUIT_SHORT:
                sure = self.read(t.gettext("Leave the match? It is saved. (yes or no) > "))
                if sure.lower() in _YES:
                    raise _Quit(ended=False)
                continue
            return word


def setup_screen(
    console: _Console, t: Translator, rules: RuleSet, level: str
) -> tuple[RuleSet, str]:
    """Let the player switch the end score, the sign swap, exposure and the level; then play.

    Each number cycles its line; an empty answer (or ``start``) starts the match.
    """
    from gongzhu.cli._common import LEVELS
    from gongzhu.cli._show import _points
    from gongzhu.rules import RuleSet

    base = rules
    ends = [(-1000, 1000), (-500, 500), (base.loss_threshold, base.win_threshold)]
    ends = list(dict.fromkeys(ends))
    end = ends.index((base.loss_threshold, base.win_threshold))
    exposing = bool(base.exposable)
    full_exposable = base.exposable if exposing else RuleSet().exposable

    def on_off(flag: bool) -> str:
        return t.gettext("on") if flag else t.gettext("off")

    while True:
        loss, win = ends[end]
        points = t.gettext(" or ").join(_points(v) for v in (loss, win) if v is not None)
        console.say(t.gettext("Before the match (type a number to change it, Enter to start):"))
        console.say("  1. " + t.gettext("end of the match: {points}").format(points=points or "-"))
        console.say(
            "  2. "
            + t.gettext("sign swap (猪羊变色): {state}").format(state=on_off(rules.sign_swap))
        )
        console.say("  3. " + t.gettext("exposure (亮牌): {state}").format(state=on_off(exposing)))
        console.say(
            "  4. "
            + t.gettext("computer players: {level}").format(level=t.gettext(BOT_TITLES[level]))
        )
        answer = console.ask(t.gettext("Change which (1-4), or Enter to start > ")).lower()
        if answer in ("", "start", "开始", "s"):
            return rules, level
        if answer == "1":
            end = (end + 1) % len(ends)
            loss, win = ends[end]
            rules = rules.replace(loss_threshold=loss, win_threshold=win)
        elif answer == "2":
            rules = rules.replace(sign_swap=not rules.sign_swap)
        elif answer == "3":
            exposing = not exposing
            rules = rules.replace(exposable=full_exposable if exposing else ())
        elif answer == "4":
            level = LEVELS[(LEVELS.index(level) + 1) % len(LEVELS)] if level in LEVELS else "normal"
        else:
            console.say("  " + t.gettext("Type 1, 2, 3 or 4, or just Enter to start."))


# -- cards as a player types them ----------------------------------------------------------
