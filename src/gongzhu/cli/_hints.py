"""Hints for ``play --human``: a searching bot's analysis as a few lines.

The level's bot gives the hint and plays ``auto``, so the two always agree: a
bot with ``analyse(view)`` (the search bot) ranks every legal card by its
expected deal score, and ``auto`` plays the top one.
"""

from __future__ import annotations

from typing import Any

from gongzhu.cli._common import safe
from gongzhu.i18n import Translator


def analysis_hint(t: Translator, analysis: Any) -> str | None:
    """``analysis.moves`` (best first) as a few lines, or None when it has another shape."""
    rows: list[str] = []
    for move in list(getattr(analysis, "moves", ()))[:6]:
        try:
            rows.append(
                t.ngettext(
                    "{card}: {expected} ± {stderr} ({samples} sample)",
                    "{card}: {expected} ± {stderr} ({samples} samples)",
                    int(move.samples),
                ).format(
                    card=t.card(move.card),
                    expected=f"{move.expected:+.0f}",
                    stderr=f"{move.stderr:.0f}",
                    samples=move.samples,
                )
            )
        except (AttributeError, TypeError, ValueError):
            rows.append(safe(move))
    if not rows:
        return None
    return t.gettext("hint from the computer (expected deal score per card):") + "".join(
        "\n    " + row for row in rows
    )


def exposure_analysis_hint(t: Translator, analysis: Any) -> str | None:
    """``analysis.options`` (exposure choices, best first) as a few lines, or None."""
    try:
        rows = [
            t.gettext("{choice}: {expected} ± {stderr}").format(
                choice=t.gettext("expose {cards}").format(cards=t.cards(o.cards))
                if o.cards
                else t.gettext("expose nothing"),
                expected=f"{o.expected:+.0f}",
                stderr=f"{o.stderr:.0f}",
            )
            for o in list(analysis.options)[:6]
        ]
    except (TypeError, ValueError, AttributeError):
        return None
    if not rows:
        return None
    return t.gettext("hint from the computer (expected deal score per choice):") + "".join(
        "\n    " + row for row in rows
    )
