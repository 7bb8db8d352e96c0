"""Pictures drawn by the library at build time: the ``gongzhu-picture`` directive.

``.. gongzhu-picture::`` runs its content (Python, after ``from gongzhu import
*`` and ``from gongzhu import svg``) and embeds the last line's value in the
HTML page as an inline SVG picture: either SVG text (from :mod:`gongzhu.svg`)
or an object with ``_repr_svg_`` (a ``Card``, ``CardSet``, ``Trick``,
``PlayerView`` or ``DealScore``), as a notebook would show it. Because the
picture is drawn from the library on every build, it cannot drift from the
code. ``:caption:`` adds a caption; ``:alt:`` replaces the picture's own title
as its text for screen readers. Other builders skip the picture. An exception,
or a value that is no picture, is a Sphinx error, so the ``-W`` build fails.

.. code-block:: rst

   .. gongzhu-picture::
      :caption: The hand of the first seat

      deal(seed=300).hands[0]
"""

from __future__ import annotations

import html
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


class PictureDirective(SphinxDirective):
    """Embed the SVG picture of a Python expression (the content's last line)."""

    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "caption": directives.unchanged,
        "alt": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        lines = [line for line in self.content if line.strip()]
        if not lines:
            raise self.error("gongzhu-picture needs Python code")
        namespace: dict[str, Any] = {}
        try:
            exec("from gongzhu import *\nfrom gongzhu import svg", namespace)
            exec("\n".join(lines[:-1]), namespace)
            value = eval(lines[-1], namespace)
            picture = value if isinstance(value, str) else value._repr_svg_()
        except Exception as exc:  # any failure of the example is a build error
            raise self.error(f"gongzhu-picture: {type(exc).__name__}: {exc}") from None
        if not isinstance(picture, str) or not picture.startswith("<svg"):
            raise self.error(f"gongzhu-picture: {lines[-1]!r} is not a picture")
        alt = self.options.get("alt")
        if alt:
            picture = picture.replace('role="img"', f'role="img" aria-label="{html.escape(alt)}"')
        caption = self.options.get("caption")
        figcaption = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
        return [
            nodes.raw(
                "",
                f'<figure class="gongzhu-picture">{picture}{figcaption}</figure>',
                format="html",
            )
        ]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("gongzhu-picture", PictureDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
