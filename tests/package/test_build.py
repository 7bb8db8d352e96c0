"""The build that runs: ``gongzhu.compiled``, the shipped sources and data files.

``.ci/run`` installs the package twice (compiled with mypyc, and pure with
``GONGZHU_PURE_PYTHON=1``) and runs the suite against each with
``GONGZHU_EXPECT_BUILD=compiled|pure``; the tests marked so check that the
suite really runs against that installed build (not against ``src/``).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, SourceFileLoader
from pathlib import Path

import pytest

import gongzhu
import gongzhu._core
from gongzhu.build import LABEL, _pure_copy

EXPECT = os.environ.get("GONGZHU_EXPECT_BUILD")
SRC = Path(__file__).resolve().parents[2] / "src"


def _core_modules() -> list[object]:
    names = [m.name for m in pkgutil.iter_modules(gongzhu._core.__path__)]
    return [gongzhu._core] + [importlib.import_module(f"gongzhu._core.{n}") for n in names]


def test_compiled_says_how_every_core_module_was_loaded() -> None:
    # By the loaders of the imported modules, not by file names as gongzhu._build does.
    loaders = {type(getattr(m, "__loader__", None)) for m in _core_modules()}
    assert isinstance(gongzhu.compiled, bool)
    if gongzhu.compiled:
        assert loaders == {ExtensionFileLoader}
    else:
        assert ExtensionFileLoader not in loaders
        assert loaders <= {SourceFileLoader}
    assert ("compiled with mypyc" if gongzhu.compiled else "pure Python") == LABEL


def test_every_core_module_ships_its_python_source() -> None:
    # Both builds hold the same .py files; the compiled one adds extension modules.
    for module in _core_modules():
        path = Path(module.__file__)  # type: ignore[attr-defined]
        source = path.with_name(path.name.split(".", 1)[0] + ".py")
        assert source.is_file(), f"{module} has no source next to it"


def test_the_package_ships_its_data_files() -> None:
    assert (Path(gongzhu.__file__).parent / "py.typed").is_file()


@pytest.mark.skipif(EXPECT is None, reason="GONGZHU_EXPECT_BUILD not set (.ci/run sets it)")
def test_the_suite_runs_against_the_expected_installed_build() -> None:
    assert EXPECT in ("compiled", "pure")
    assert gongzhu.compiled is (EXPECT == "compiled"), f"expected the {EXPECT} build"
    installed = Path(gongzhu.__file__).resolve()
    assert SRC not in installed.parents, f"tests import {installed}, from src/, not the install"


def test_a_pure_copy_imports_as_pure_python(tmp_path: Path) -> None:
    path = _pure_copy(str(tmp_path))
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(tuple(EXTENSION_SUFFIXES))]
    out = subprocess.run(
        [sys.executable, "-c", "import gongzhu; print(gongzhu.compiled, gongzhu.__file__)"],
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout.split()
    assert out == ["False", str(tmp_path / "gongzhu" / "__init__.py")]
