"""Who draws what: a registry of picture renderers, filled by :mod:`gongzhu.svg` on import.

It sits below every module with a ``_repr_svg_`` method (cards, trick, view,
scoring), so they can offer pictures without importing the module that draws
them: no import circle, not even a deferred one. ``import gongzhu`` does not load
the pictures (nor the translations they use): the first picture asked for imports
:mod:`gongzhu.svg` by name, which registers its renderers here. That by-name import
is the one way up from this layer, a plug-in load, not an import the layer test sees.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["register", "svg"]

_RENDERERS: dict[str, Callable[[Any], str]] = {}
# The module whose import fills the registry (loaded on the first picture asked for).
_PICTURES = "gongzhu.svg"


def register(type_name: str, renderer: Callable[[Any], str]) -> None:
    """Draw objects whose class is called ``type_name`` with ``renderer`` (SVG text)."""
    _RENDERERS[type_name] = renderer


def svg(obj: object) -> str | None:
    """``obj`` as an SVG picture, or ``None`` when no renderer is registered for its class.

    (Jupyter falls back to the next representation when ``_repr_svg_`` returns ``None``.)
    """
    if not _RENDERERS:
        importlib.import_module(_PICTURES)
    renderer = _RENDERERS.get(type(obj).__name__)
    return renderer(obj) if renderer is not None else None
