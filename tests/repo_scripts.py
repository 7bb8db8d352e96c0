"""Load a script of the repository (a benchmark, a tool, an example) as a module, by path
(not a test module itself): scripts are not a package, so the tests import them this way."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(path: str | Path, name: str) -> ModuleType:
    """The module of ``path`` (relative to the repository's root, or absolute), registered
    in ``sys.modules`` as ``name`` (so its attrs classes and dataclasses resolve)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
