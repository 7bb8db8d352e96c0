"""Hints from the search bot (#12) for ``play --human``: its analysis as a few lines.

The search bot is optional (``getattr(gongzhu, "SearchStrategy", None)``): when
the library has none, or its API is not the expected one, these return ``None``
and the caller falls back to the rule-of-thumb bot's suggestion.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gongzhu.cli._common import safe
from gongzhu.i18n import Translator


def search_hint(t: Translator, search: Any, limit_cls: Any, view: Any) -> str | None:
    """The search bot's analysis as a few lines, or None when its API is not the expected one.

    ``SearchStrategy(limit=, seed=).analyse(view, limit)`` returns the legal cards best
    first, each with its expected deal score, standard error and samples (#12).
    """
    from gongzhu.errors import GongzhuError

    try:
        limit = limit_cls(time=1.0) if limit_cls is not None else None
        bot = search(limit=limit, seed=0) if limit is not None else search()
        analysis = bot.analyse(view, limit) if limit is not None else bot.analyse(view)
    except (GongzhuError, TypeError, ValueError, AttributeError):
        return None
    rows: list[str] = []
    moves = getattr(analysis, "moves", None)
    if moves is not None:
        for move in list(moves)[:6]:
            try:
                rows.append(
                    t.gettext("{card}: {expected} ± {stderr} ({samples} samples)").format(
                        card=t.card(move.card),
                        expected=f"{move.expected:+.0f}",
                        stderr=f"{move.stderr:.0f}",
                        samples=move.samples,
                    )
                )
            except (AttributeError, TypeError, ValueError):
                rows.append(safe(move))
    elif isinstance(analysis, Mapping):
        rows = [f"{safe(key)}: {safe(value)}" for key, value in list(analysis.items())[:6]]
    else:
        rows = [safe(line) for line in str(analysis).splitlines()[:6]]
    if not rows:
        return None
    return t.gettext("hint from the search bot (expected deal score per card):") + "".join(
        "\n    " + row for row in rows
    )


def search_exposure_hint(t: Translator, search: Any, limit_cls: Any, view: Any) -> str | None:
    """The search bot's exposure choices, best first (``analyse_exposure``), or None."""
    from gongzhu.errors import GongzhuError

    try:
        limit = limit_cls(time=1.0) if limit_cls is not None else None
        bot = search(limit=limit, seed=0) if limit is not None else search()
        options = list(bot.analyse_exposure(view, limit).options)[:6]
        rows = [
            t.gettext("{choice}: {expected} ± {stderr}").format(
                choice=t.gettext("expose {cards}").format(cards=t.cards(o.cards))
                if o.cards
                else t.gettext("expose nothing"),
                expected=f"{o.expected:+.0f}",
                stderr=f"{o.stderr:.0f}",
            )
            for o in options
        ]
    except (GongzhuError, TypeError, ValueError, AttributeError):
        return None
    if not rows:
        return None
    return t.gettext("hint from the search bot (expected deal score per choice):") + "".join(
        "\n    " + row for row in rows
    )
