"""Card pictures in the docs: the ``:cards:`` role and the ``gongzhu-repr`` directive.

``:cards:`QS TC 7H``` renders as Q♠ 10♣ 7♥ with red hearts and diamonds.
Each card becomes ``<span class="gz-card gz-red">7♥</span>`` (``gz-black`` for
clubs and spades); ``docs/_static/gongzhu.css`` gives the colours. Cards keep
the order they are written in. A token that is not a card is a Sphinx error,
so the ``-W`` build fails instead of publishing a typo.

``.. gongzhu-repr::`` runs its content (Python, after ``from gongzhu import
*``) and embeds the ``_repr_html_()`` of the last line's value in the HTML
page, as a notebook would show it; other builders skip it. An exception is a
Sphinx error.

Cross-references to top-level names (``:class:`~gongzhu.Round```,
``:meth:`gongzhu.Round.play```, ``:data:`gongzhu.PIG```) resolve to the module
that defines them (``gongzhu.round.Round``), which is where the API page
documents them; without this, every ``gongzhu.X`` reference in the guides
would render as plain text.
"""

from __future__ import annotations

import importlib
from typing import Any

from docutils import nodes
from docutils.parsers.rst.states import Inliner
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

import gongzhu
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


class ReprDirective(SphinxDirective):
    """Embed the HTML repr of a Python expression (the content's last line)."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        lines = [line for line in self.content if line.strip()]
        if not lines:
            raise self.error("gongzhu-repr needs Python code")
        namespace: dict[str, Any] = {}
        try:
            exec("from gongzhu import *", namespace)
            exec("\n".join(lines[:-1]), namespace)
            value = eval(lines[-1], namespace)
            html = value._repr_html_()
        except Exception as exc:  # any failure of the example is a build error
            raise self.error(f"gongzhu-repr: {type(exc).__name__}: {exc}") from None
        return [nodes.raw("", f'<div class="gongzhu-repr">{html}</div>', format="html")]


def _defining_module(name: str) -> str | None:
    """The public submodule whose ``__all__`` lists ``name`` (``Round`` → ``gongzhu.round``)."""
    for module_name in sorted(
        {
            getattr(gongzhu, n).__module__
            for n in gongzhu.__all__
            if hasattr(getattr(gongzhu, n), "__module__")
        }
        | {"gongzhu.cards", "gongzhu.rules"}
    ):
        if not module_name.startswith("gongzhu.") or module_name.split(".")[-1].startswith("_"):
            continue
        module = importlib.import_module(module_name)
        if name in getattr(module, "__all__", ()):
            return module_name
    return None


def _resolve_top_level(
    app: Sphinx, env: Any, node: nodes.Element, contnode: nodes.Element
) -> nodes.Element | None:
    if node.get("refdomain") != "py":
        return None
    target: str = node.get("reftarget", "")
    if not target.startswith("gongzhu."):
        return None
    head, _, rest = target.removeprefix("gongzhu.").partition(".")
    module = _defining_module(head)
    if module is None:
        return None
    new_target = f"{module}.{head}" + (f".{rest}" if rest else "")
    resolved: nodes.Element | None = env.get_domain("py").resolve_xref(
        env, node["refdoc"], app.builder, node["reftype"], new_target, node, contnode
    )
    return resolved


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("missing-reference", _resolve_top_level)
    app.add_role("cards", cards_role)
    app.add_directive("gongzhu-repr", ReprDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
