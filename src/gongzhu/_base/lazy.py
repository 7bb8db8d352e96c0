"""PEP 562 lazy attributes for a package: its public names load on first use.

``gongzhu/__init__.py`` names the playing layer's classes and functions (and the game
records) without importing them; :func:`attach` gives it the module ``__getattr__``
that imports one on first use and keeps it, and a ``__dir__`` that lists the public
names only (not the submodules that importing binds as attributes).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["attach"]


def attach(
    package: str, lazy: Mapping[str, tuple[str, str]], public: Iterable[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``.

    ``lazy`` maps a name to (the module that defines it, the attribute; ``""`` for the
    module itself). A submodule not imported yet (``gongzhu.ai``, ``gongzhu.svg``) loads
    on first use too, as it did when the package imported it eagerly.
    """
    names = sorted(public)

    def __getattr__(name: str) -> Any:
        if name in lazy:
            module, attribute = lazy[name]
            value = importlib.import_module(module)
            if attribute:
                value = getattr(value, attribute)
            setattr(sys.modules[package], name, value)
            return value
        if not name.startswith("_") and importlib.util.find_spec(f"{package}.{name}"):
            return importlib.import_module(f"{package}.{name}")
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return list(names)

    return __getattr__, __dir__
