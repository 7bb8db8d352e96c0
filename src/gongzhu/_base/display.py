"""Who draws what: a registry of picture renderers, filled by :mod:`gongzhu.svg` on import.

It sits below every module with a ``_repr_svg_`` method (cards, trick, view,
scoring), so they can offer pictures without importing the module that draws
them: no import circle, not even a deferred one. ``import gongzhu`` imports
:mod:`gongzhu.svg`, which registers its renderers here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["register", "svg"]

_RENDERERS: dict[str, Callable[[Any], str]] = {}


def register(type_name: str, renderer: Callable[[Any], str]) -> None:
    """Draw objects whose class is called ``type_name`` with ``renderer`` (SVG text)."""
    _RENDERERS[type_name] = renderer


def svg(obj: object) -> str | None:
    """``obj`` as an SVG picture, or ``None`` when no renderer is registered for its class.

    (Jupyter falls back to the next representation when ``_repr_svg_`` returns ``None``.)
    """
    renderer = _RENDERERS.get(type(obj).__name__)
    return renderer(obj) if renderer is not None else None
