"""No two gongzhu modules import each other, directly or round a longer circle.

Deferred imports (inside functions) and ``if TYPE_CHECKING:`` imports count:
they are still a tie between the modules (DESIGN.md: arrows point down only).
The engine core (``gongzhu._core``) imports nothing from the public modules, so
mypyc can compile it on its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

import gongzhu

ROOT = Path(gongzhu.__file__).parent


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        parts = ("gongzhu", *path.relative_to(ROOT).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                deps.add(node.module)
            elif isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
        graph[name] = {d for d in deps if d.startswith("gongzhu.")}
    return graph


def test_the_package_has_no_import_circles() -> None:
    graph = _imports()
    circles: list[list[str]] = []
    done: set[str] = set()

    def visit(module: str, stack: list[str]) -> None:
        if module in stack:
            circles.append([*stack[stack.index(module) :], module])
            return
        if module in done or module not in graph:
            return
        for dep in sorted(graph[module]):
            visit(dep, [*stack, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    assert circles == []


def test_the_engine_core_imports_no_public_module() -> None:
    graph = _imports()
    core = {m: deps for m, deps in graph.items() if m.startswith("gongzhu._core")}
    assert core, "the engine core was not found"
    for module, deps in core.items():
        assert {d for d in deps if not d.startswith("gongzhu._core")} == set(), module


# The layers of the package, lowest first (DESIGN.md "Layers and modules"). A module
# may import modules of its own layer or of lower ones, never of a higher one: the
# folders show the layers, and this keeps the arrows pointing down.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("gongzhu.errors", "gongzhu._base", "gongzhu.phase")),
    ("core", ("gongzhu._core", "gongzhu.build")),
    (
        "values",
        (
            "gongzhu.cards",
            "gongzhu.rules",
            "gongzhu.scoring",
            "gongzhu.trick",
            "gongzhu.actions",
            "gongzhu._codec",
            "gongzhu.protocol",
        ),
    ),
    (
        "engine",
        ("gongzhu.round", "gongzhu.dealing", "gongzhu.view", "gongzhu.match", "gongzhu.board"),
    ),
    ("interfaces", ("gongzhu.record", "gongzhu.table", "gongzhu.svg", "gongzhu.i18n")),
    ("playing", ("gongzhu.ai", "gongzhu.bots", "gongzhu.parallel")),
    ("adapters", ("gongzhu.adapters", "gongzhu.testing")),
    ("entry", ("gongzhu.web", "gongzhu.cli", "gongzhu.__main__")),
]


def _layer(module: str) -> int:
    for rank, (_name, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS")


def test_every_module_imports_only_its_own_layer_or_lower_ones() -> None:
    graph = _imports()
    upward = sorted(
        f"{module} ({LAYERS[_layer(module)][0]}) -> {dep} ({LAYERS[_layer(dep)][0]})"
        for module, deps in graph.items()
        if module != "gongzhu"  # the package root re-exports every layer
        for dep in deps
        if dep in graph and _layer(dep) > _layer(module)
    )
    assert upward == []


def test_no_private_module_sits_at_the_top_level() -> None:
    # A top-level module is a public API page; a layer's internals live in its folder.
    private = sorted(
        p.name for p in ROOT.glob("_*.py") if p.name not in ("__init__.py", "__main__.py")
    )
    assert private == []
