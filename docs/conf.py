"""Sphinx configuration for the gongzhu documentation (builds offline: no intersphinx)."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
# The local extension that generates the Variants page from the RuleSet metadata.
sys.path.insert(0, str(_HERE / "_ext"))
# Build from the checkout even when the package is not installed.
sys.path.insert(0, str(_HERE.parent / "src"))

import gongzhu  # noqa: E402

project = "gongzhu"
author = "gongzhu maintainers"
copyright = "gongzhu maintainers"
release = gongzhu.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "myst_parser",
    "gongzhu_docs",
    "cards_role",
    "svg_pictures",
    "sources_links",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext"]
language = "en"

html_theme = "furo"
html_title = f"gongzhu {release}"
# Card colours for the :cards: role (docs/_ext/cards_role.py).
html_static_path = ["_static"]
html_css_files = ["gongzhu.css"]

autodoc_default_options = {
    "members": True,
    "show-inheritance": True,
    "member-order": "bysource",
}
autodoc_typehints = "description"
# A bare ``type`` in a signature would be looked up among the attributes named ``type``.
autodoc_type_aliases = {"OptionKind": "gongzhu.rules._options.OptionKind"}
autodoc_class_signature = "mixed"

# Every doctest on every page starts from the public API.
doctest_global_setup = "from gongzhu import *\n"
# docs/agents.rst skips its adapter examples when the rl extra is not installed.
doctest_global_setup += (
    "from importlib.util import find_spec as _find\n"
    "HAS_PETTINGZOO = all(_find(m) for m in ('numpy', 'pettingzoo', 'gymnasium'))\n"
    "HAS_GYMNASIUM = all(_find(m) for m in ('numpy', 'gymnasium'))\n"
    "HAS_PYSPIEL = all(_find(m) for m in ('numpy', 'pyspiel'))\n"
)

myst_heading_anchors = 2
