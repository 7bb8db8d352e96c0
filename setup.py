"""Build script: compiles ``gongzhu._core`` with mypyc, or installs it as plain Python.

The project's metadata lives in ``pyproject.toml``; this file only decides how
the engine core is built. Every module under ``src/gongzhu/_core/`` is compiled
with mypyc (one C extension per module plus one shared library,
``_gongzhu_core__mypyc``) when mypyc is importable and a trial compile of a
tiny C extension against this Python's headers succeeds. Otherwise, or if any
part of the extension step fails, the same modules install as plain Python,
with a message saying why. The ``.py`` sources always ship next to the
compiled modules (Python imports the extension first), so both builds hold
the same source files.

* ``GONGZHU_PURE_PYTHON=1`` at build time forces the pure build.
* Editable installs (``pip install -e .``) are always pure: compiled modules in
  ``src/`` would shadow the sources being edited.
"""

from __future__ import annotations

import glob
import os
import sys
import tempfile
import textwrap
import time
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

CORE_DIR = os.path.join("src", "gongzhu", "_core")
# mypyc puts the code of every module of the group into this one shared library
# (a top-level module, as mypyc expects: inside the package, the modules that
# compiled code imports get wrong __file__ paths); the per-module extensions are
# small shims that import it.
GROUP = "_gongzhu_core"
SHARED_LIB = GROUP + "__mypyc"
# The commands that build into src/ (editable installs, develop): always pure.
EDITABLE_COMMANDS = {"editable_wheel", "develop"}


# What compiling the core usually takes on 2 cores (mypyc translating the core's modules,
# gcc -O3 compiling them), measured with `pip install .` on the project's shared 2-core
# machine (December 2026): 53 s at a load average of 9, 81 s at 18; 40 s on a quieter one.
USUAL_SECONDS = "about a minute"


def _say(message: str) -> None:
    # stderr, framed, so that it stands out in pip's (verbose) build log.
    bar = "=" * 78
    print(f"\n{bar}\ngongzhu build: {message}\n{bar}\n", file=sys.stderr, flush=True)


def _tell(message: str) -> None:
    """``message`` on stderr (pip shows it with ``-v``) and on the terminal itself.

    pip captures a build's output and shows it only with ``-v`` (or when the build
    fails); a person who typed ``pip install .`` would wait minutes in silence. So the
    line also goes to the controlling terminal (``/dev/tty``) when there is one and
    stderr is not it; a CI run (no terminal) has it in pip's verbose log.
    """
    _say(message)
    if os.environ.get("CI") or sys.stderr.isatty():
        return
    try:
        with open("/dev/tty", "w", encoding="utf-8") as tty:
            tty.write(f"\ngongzhu build: {message}\n")
    except OSError:
        pass  # no terminal (CI, a service, Windows): pip's -v log has the line


def _pure_requested() -> str | None:
    """Why the build is pure before anything is tried, or None."""
    flag = os.environ.get("GONGZHU_PURE_PYTHON", "").strip().lower()
    if flag not in ("", "0", "false", "no"):
        return f"GONGZHU_PURE_PYTHON={flag!r} is set"
    if EDITABLE_COMMANDS.intersection(sys.argv[1:]):
        return "editable install (compiled modules in src/ would shadow the sources)"
    return None


def _core_sources() -> list[str]:
    return sorted(glob.glob(os.path.join(CORE_DIR, "*.py")))


_PROBE_C = textwrap.dedent(
    """\
    #define PY_SSIZE_T_CLEAN
    #include <Python.h>
    static struct PyModuleDef probe = {PyModuleDef_HEAD_INIT, "_gongzhu_probe", NULL, -1, NULL};
    PyMODINIT_FUNC PyInit__gongzhu_probe(void) { return PyModule_Create(&probe); }
    """
)


def _trial_compile(template: build_ext) -> str | None:
    """Compile and link a tiny extension with the toolchain setuptools will use.

    Returns None when it works, else the reason it did not.
    """
    from setuptools import Distribution

    with tempfile.TemporaryDirectory(prefix="gongzhu-probe-") as tmp:
        source = os.path.join(tmp, "_gongzhu_probe.c")
        with open(source, "w", encoding="ascii") as f:
            f.write(_PROBE_C)
        dist = Distribution(
            {"name": "gongzhu-probe", "ext_modules": [Extension("_gongzhu_probe", [source])]}
        )
        cmd: Any = build_ext(dist)
        cmd.build_lib = os.path.join(tmp, "lib")
        cmd.build_temp = os.path.join(tmp, "temp")
        cmd.compiler = template.compiler
        try:
            cmd.ensure_finalized()
            cmd.run()
        except (Exception, SystemExit) as exc:
            return f"{type(exc).__name__}: {exc}"
        built = glob.glob(os.path.join(tmp, "lib", "_gongzhu_probe*"))
        return None if built else "the trial build produced no extension module"


class BuildPy(build_py):
    """Copies the sources; drops compiled core modules left in build/ by an earlier build.

    pip builds in the source tree, so ``build/lib*`` may hold the extensions of a
    previous compiled build; a pure build must not ship them.
    """

    def run(self) -> None:
        super().run()
        if not self.distribution.ext_modules:
            _remove_compiled(self.build_lib)


def _remove_compiled(build_lib: str) -> None:
    from importlib.machinery import EXTENSION_SUFFIXES

    for suffix in EXTENSION_SUFFIXES:
        for path in [
            *glob.glob(os.path.join(build_lib, "gongzhu", "_core", "*" + suffix)),
            *glob.glob(os.path.join(build_lib, SHARED_LIB + suffix)),
        ]:
            os.remove(path)


class BuildExt(build_ext):
    """Compiles the core with mypyc; on any failure, leaves the pure modules in place.

    The work happens in ``run`` (setuptools finalizes this command while it only
    collects metadata, too), so the trial compile and mypyc run once, when the
    extension step of a real build runs.
    """

    def run(self) -> None:
        if not self.extensions:
            return
        why = self._why_pure()
        if why is None:
            why = self._translate()
        if why is not None:
            self._go_pure(why)
            return
        try:
            super().run()
        except (Exception, SystemExit) as exc:
            self._go_pure(f"compiling the core failed ({type(exc).__name__}: {exc})")
            return
        names = ", ".join(sorted(ext.name for ext in self.extensions))
        took = time.monotonic() - self._started
        _tell(f"compiled gongzhu._core with mypyc in {took:.0f} s: {names}")

    def _why_pure(self) -> str | None:
        if getattr(self, "editable_mode", False) or self.inplace:
            return "in-place/editable build (compiled modules in src/ would shadow the sources)"
        try:
            import mypyc.build  # noqa: F401
        except ImportError as exc:
            return f"mypyc is not importable ({exc}); install mypy to compile the core"
        problem = _trial_compile(self)
        if problem is not None:
            return (
                "no working C compiler/Python headers (a trial compile failed: "
                f"{problem}); gcc (or cc) and the Python development headers are needed"
            )
        return None

    def _translate(self) -> str | None:
        """Replace the placeholder by mypyc's extensions; the reason if that fails."""
        self._started = time.monotonic()
        _tell(
            f"compiling the engine core (gongzhu._core, {len(_core_sources())} modules) with "
            f"mypyc and the C compiler: usually {USUAL_SECONDS} on 2 cores "
            "(GONGZHU_PURE_PYTHON=1 skips it)"
        )
        try:
            from mypyc.build import mypycify

            extensions = mypycify(
                _core_sources(),
                opt_level="3",
                group_name=GROUP,
                target_dir=os.path.join("build", "mypyc"),
            )
            self.check_extensions_list(extensions)
        except (Exception, SystemExit) as exc:
            return f"mypyc could not translate the core ({type(exc).__name__}: {exc})"
        self.distribution.ext_modules[:] = extensions
        self.extensions = extensions
        # What setuptools' finalize_options does per extension (none links a shared
        # setuptools Library, so no stubs).
        ext: Any
        for ext in extensions:
            full = self.get_ext_fullname(ext.name)
            ext._full_name = full
            self.ext_map[full] = self.ext_map[full.split(".")[-1]] = ext
            ext._links_to_dynamic = False
            ext._needs_stub = False
            ext._file_name = self.get_ext_filename(full)
        return None

    def _go_pure(self, why: str) -> None:
        _say(f"installing gongzhu._core as PURE PYTHON: {why}.")
        self.extensions = []
        self.distribution.ext_modules[:] = []
        _remove_compiled(self.build_lib)

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


def _ext_modules() -> list[Extension]:
    why = _pure_requested()
    if why is not None:
        if {"build", "build_ext", "bdist_wheel", "install", *EDITABLE_COMMANDS} & set(sys.argv):
            _say(f"installing gongzhu._core as PURE PYTHON: {why}.")
        return []
    # A placeholder: it makes the wheel platform-specific; BuildExt replaces it with
    # mypyc's extensions (or drops it) when the extension step runs.
    return [Extension(SHARED_LIB, sources=[])]


setup(
    ext_modules=_ext_modules(),
    cmdclass={"build_py": BuildPy, "build_ext": BuildExt},
)
