"""``gongzhu play --human``: a new match or a resumed one, set up and started.
Part of :mod:`gongzhu.cli.human`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

import gongzhu.cli._save as _save
from gongzhu.cli._common import UsageError, bot_table, safe
from gongzhu.cli._show import Seats, compass_names
from gongzhu.cli.human.console import _Console, _Quit, setup_screen
from gongzhu.cli.human.game import _Game
from gongzhu.i18n import Translator
from gongzhu.table import Table

if TYPE_CHECKING:
    from gongzhu.rules import RuleSet


def _other_bots(spec: str, players: int, human: int) -> list[str]:
    """One bot name per seat (the human's entry unused): 1, players − 1 or players names."""
    names = [part.strip() for part in spec.split(",") if part.strip()]
    if len(names) == players - 1 and players > 2:
        names.insert(human, names[0])
    return list(bot_table(",".join(names), players))


def play_human(
    args: argparse.Namespace,
    t: Translator,
    rules: RuleSet,
    names: Sequence[str] | None,
    seed: int,
) -> int:
    n = rules.players
    human = args.human
    if not 0 <= human < n:
        raise UsageError(f"--human must be a seat 0-{n - 1}, got {human}")
    level = args.level or "normal"
    if getattr(args, "setup", False):
        interactive = sys.stdin is not None and sys.stdin.isatty()
        try:
            rules, level = setup_screen(_Console(interactive, t), t, rules, level)
        except _Quit:
            return 0
    bots = _other_bots(args.bots, n, human) if args.bots else [level] * n
    session = _save.Session(
        human=human,
        level=level,
        bots=tuple(bots),
        names=None if names is None else tuple(names),
        max_deals=args.max_deals,
        auto_lone=bool(args.auto_lone),
    )
    path = None if args.no_save else Path(args.save) if args.save else _save.default_path(seed)
    return _start(args, t, Table.start(rules, seed), session, path, resumed=False)


def resume_human(args: argparse.Namespace, t: Translator) -> int:
    """``gongzhu play --resume FILE``: the saved match, from where it stopped."""
    session, saved = _save.read(args.resume)
    if args.auto_lone:
        session = attrs.evolve(session, auto_lone=True)
    path = None if args.no_save else Path(args.save) if args.save else Path(args.resume)
    return _start(args, t, saved, session, path, resumed=True)


def _start(
    args: argparse.Namespace,
    t: Translator,
    table: Table,
    session: _save.Session,
    path: Path | None,
    *,
    resumed: bool,
) -> int:
    human = session.human
    shown = list(session.names) if session.names else compass_names(t, table.rules, human)
    place = safe(shown[human])
    shown[human] = t.gettext("{name} (you)").format(name=shown[human])
    interactive = sys.stdin is not None and sys.stdin.isatty()
    game = _Game(t, table, Seats(shown), session, _Console(interactive, t))
    game.place = place
    game.path = path
    return game.play_match(args, resumed)
