"""The ``:cards:`` role: ``:cards:`QS TC 7H``` renders as Q♠ 10♣ 7♥ with red hearts and diamonds.

Each card becomes ``<span class="gz-card gz-red">7♥</span>`` (``gz-black`` for
clubs and spades); ``docs/_static/gongzhu.css`` gives the colours. Cards keep
the order they are written in. A token that is not a card is a Sphinx error,
so the ``-W`` build fails instead of publishing a typo.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.parsers.rst.states import Inliner
from sphinx.application import Sphinx

from gongzhu import Card, CardParseError


def cards_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Inliner,
    options: dict[str, Any] | None = None,
    content: list[str] | None = None,
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """Render the card codes of ``text`` (any notation :meth:`gongzhu.Card.parse` reads)."""
    out: list[nodes.Node] = []
    for token in text.split():
        try:
            card = Card.parse(token)
        except CardParseError as exc:
            msg = inliner.reporter.error(f":cards: {token!r} is not a card ({exc})", line=lineno)
            return [inliner.problematic(rawtext, rawtext, msg)], [msg]
        if out:
            out.append(nodes.Text(" "))
        colour = "gz-red" if card.suit.is_red else "gz-black"
        out.append(nodes.inline(card.symbol, card.symbol, classes=["gz-card", colour]))
    return [nodes.inline(rawtext, "", *out, classes=["gz-cards"])], []


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_role("cards", cards_role)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
