"""Every citation of a source links to the source itself, kept in ``docs/sources/``.

The pages cite the five primary sources as ``seeds/000``, ``seeds/000 §07``,
``000 §05``, ``(000, 003, 004)`` or by file name (``seeds/000_6dec96c3b8d10338.txt``).
After each page is resolved, this extension turns every such citation in the
running text (not in code or literal blocks) into a link to the file, and
copies ``docs/sources/`` into the built site as ``sources/``. A citation of a
number with no file in ``docs/sources/`` is a warning, so the ``-W`` build
fails instead of publishing a dead link.
"""

from __future__ import annotations

import posixpath
import re
import shutil
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

_logger = logging.getLogger(__name__)

_SOURCES = Path(__file__).resolve().parent.parent / "sources"
# 000 … 004 as a whole word (not part of 1000, 0.004 or 2004-05), optionally written
# as seeds/000, with the file's hash and .txt, and a section "§07".
_CITATION = re.compile(
    r"(?<![\w.\-/−])(?:seeds/)?(?P<number>00\d)(?:_[0-9a-f]{16}(?:\.txt)?)?"
    r"(?:\s§\s?\d{1,2})?(?![\w\-]|\.\d)"
)
_SKIP = (
    nodes.literal,
    nodes.literal_block,
    nodes.reference,
    nodes.raw,
    nodes.comment,
    nodes.doctest_block,
    nodes.title,
    nodes.target,
)


def _files() -> dict[str, str]:
    return {path.name[:3]: path.name for path in sorted(_SOURCES.glob("0*.txt"))}


def _link_citations(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format != "html":
        return
    files = _files()
    here = posixpath.dirname(app.builder.get_target_uri(docname))
    for literal in list(doctree.findall(nodes.literal)):
        # A file name in code style (``seeds/000_6dec96c3b8d10338.txt``) links as it stands.
        match = _CITATION.fullmatch(literal.astext())
        name = files.get(match.group("number")) if match else None
        if name is not None and not any(
            isinstance(a, nodes.reference) for a in _ancestors(literal)
        ):
            uri = posixpath.relpath(f"sources/{name}", here or ".")
            literal.replace_self(
                nodes.reference("", "", literal.deepcopy(), refuri=uri, classes=["gz-source"])
            )
    for text in list(doctree.findall(nodes.Text)):
        parent = text.parent
        if parent is None or any(isinstance(a, _SKIP) for a in _ancestors(text)):
            continue
        value = str(text)
        pieces: list[nodes.Node] = []
        last = 0
        for match in _CITATION.finditer(value):
            name = files.get(match.group("number"))
            if name is None:
                _logger.warning(
                    "citation %r: no file for source %s in docs/sources",
                    match.group(0),
                    match.group("number"),
                    location=(docname, parent.line),
                )
                continue
            uri = posixpath.relpath(f"sources/{name}", here or ".")
            pieces.append(nodes.Text(value[last : match.start()]))
            pieces.append(
                nodes.reference(
                    match.group(0), match.group(0), refuri=uri, classes=["gz-source"], reftitle=name
                )
            )
            last = match.end()
        if pieces:
            pieces.append(nodes.Text(value[last:]))
            parent.replace(text, pieces)


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    out = []
    parent = node.parent
    while parent is not None:
        out.append(parent)
        parent = parent.parent
    return out


def _copy_sources(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "sources"
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(_SOURCES.glob("0*.txt")):
        shutil.copyfile(path, target / path.name)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("doctree-resolved", _link_citations)
    app.connect("build-finished", _copy_sources)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
