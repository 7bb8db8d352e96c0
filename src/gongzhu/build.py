"""Which build of the engine core is running: compiled with mypyc, or pure Python.

Installing from source (``pip install .``, or building a wheel) compiles every
module of the engine core (``gongzhu._core``) with mypyc when a C compiler and
the Python headers work, and installs the same modules as plain Python
otherwise, or when ``GONGZHU_PURE_PYTHON=1`` is set at build time. Editable
installs (``pip install -e .``) are always pure. Both builds behave the same;
the compiled one is faster (see the Performance page). ``gongzhu --version``
names the build too.
"""

from __future__ import annotations

import importlib.util
import os
import pkgutil
from importlib.machinery import EXTENSION_SUFFIXES

import gongzhu._core as _core

__all__ = ["LABEL", "compiled"]


def _is_extension(origin: str | None) -> bool:
    return origin is not None and origin.endswith(tuple(EXTENSION_SUFFIXES))


def _core_compiled() -> bool:
    # The import system prefers an extension module over a .py of the same name, so a
    # module's spec says which of the two an import loads (without importing it).
    names = [f"{_core.__name__}.{m.name}" for m in pkgutil.iter_modules(_core.__path__)]
    origins = [_core.__file__] + [
        spec.origin if (spec := importlib.util.find_spec(name)) else None for name in names
    ]
    return all(_is_extension(origin) for origin in origins)


compiled: bool = _core_compiled()
"""True when every module of the engine core is a compiled (mypyc) extension module.

(This page is built from the sources, which run as pure Python: hence ``False``.)
"""

LABEL: str = "compiled with mypyc" if compiled else "pure Python"
"""The build in words, for ``gongzhu --version``."""


def _pure_copy(dest: str) -> str:
    """Copy this package's sources, without its extension modules, into ``dest``.

    Returns ``dest``: with it first on ``PYTHONPATH``, ``import gongzhu`` loads the
    same sources as plain Python (the differential test and ``benchmarks/run.py
    --both`` run the pure build beside the compiled one this way).
    """
    import shutil  # here, not at the top: `import gongzhu` stays light

    root = os.path.dirname(os.path.dirname(os.path.abspath(_core.__file__)))
    shutil.copytree(
        root,
        os.path.join(dest, "gongzhu"),
        ignore=lambda _dir, names: [
            n for n in names if n == "__pycache__" or n.endswith(tuple(EXTENSION_SUFFIXES))
        ],
    )
    return dest
