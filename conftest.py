"""Doctest collection of the modules of optional extras: a skip that names the extra.

``pytest --doctest-modules`` imports every module under ``src/gongzhu``. The modules
below import a package of an optional extra at their top; when that package is not
installed, the module is not imported: it is reported as skipped, with the extra that
would run it (``pip install -e ".[test]"`` installs the web table's packages; the RL
adapters need the ``rl`` extra). The tests of those modules skip the same way
(``pytest.importorskip``).
"""

from __future__ import annotations

from collections.abc import Generator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

# A module (its path inside the gongzhu package) -> the packages it imports, and its extra.
OPTIONAL_MODULES: dict[tuple[str, ...], tuple[tuple[str, ...], str]] = {
    # gongzhu.web: the modules that import Starlette (the test extra installs it).
    ("web", "app.py"): (("starlette",), "web"),
    ("web", "assets.py"): (("starlette",), "web"),
    ("web", "guard.py"): (("starlette",), "web"),
    ("web", "hub.py"): (("starlette",), "web"),
    ("web", "server.py"): (("starlette",), "web"),
    ("adapters", "pettingzoo.py"): (("numpy", "gymnasium", "pettingzoo"), "rl"),
    ("adapters", "gymnasium.py"): (("numpy", "gymnasium"), "rl"),
    ("adapters", "openspiel.py"): (("numpy", "pyspiel"), "rl"),
    # gongzhu.vector: the batched engine on NumPy, its Gymnasium environment.
    ("vector", "__init__.py"): (("numpy",), "rl"),
    ("vector", "_engine.py"): (("numpy",), "rl"),
    ("vector", "_observe.py"): (("numpy",), "rl"),
    ("vector", "_policy.py"): (("numpy",), "rl"),
    ("vector", "_tables.py"): (("numpy",), "rl"),
    ("vector", "_env.py"): (("numpy", "gymnasium"), "rl"),
}


def missing_extra(path: Path) -> str | None:
    """Why the doctests of ``path`` cannot run here (a package of its extra is missing)."""
    parts = path.parts
    for tail, (packages, extra) in OPTIONAL_MODULES.items():
        if parts[-len(tail) - 1 :] == ("gongzhu", *tail):
            missing = [p for p in packages if find_spec(p) is None]
            if missing:
                return (
                    f"needs the {extra!r} extra (pip install -e \".[{extra}]\"): "
                    f"{', '.join(missing)} not installed"
                )
    return None


class MissingExtra(pytest.File):
    """A module whose extra is not installed: collected as one skip with the reason."""

    reason = ""

    def collect(self) -> list[Any]:
        pytest.skip(self.reason)


@pytest.hookimpl(hookwrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Generator[Any, Any, None]:
    outcome = yield
    if file_path.suffix != ".py":
        return
    reason = missing_extra(file_path)
    if reason is not None:
        # Instead of the doctest module (whose import would fail), one skip with the reason.
        item = MissingExtra.from_parent(parent, path=file_path)
        item.reason = reason
        outcome.force_result([item])
