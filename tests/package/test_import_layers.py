"""No two gongzhu modules import each other, directly or round a longer circle.

Deferred imports (inside functions) and ``if TYPE_CHECKING:`` imports count:
they are still a tie between the modules (docs/architecture.rst, "Import rules": arrows
point down only).
The engine core (``gongzhu._core``) imports nothing from the public modules, so
mypyc can compile it on its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
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
    return circles


def test_the_package_has_no_import_circles() -> None:
    assert _circles(_imports()) == []


def test_errors_is_the_bottom_and_imports_nothing_from_the_package() -> None:
    # Every layer raises typed errors, so gongzhu.errors may lean on no other module of the
    # package (not even gongzhu._base: _base imports errors).
    assert _imports()["gongzhu.errors"] == set()


BENCHMARKS = ROOT.parent.parent / "benchmarks"


def _script_imports() -> dict[str, set[str]]:
    # The benchmark scripts import each other by bare module name (their folder is put on
    # sys.path); deferred imports count here too.
    names = {p.stem for p in BENCHMARKS.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in BENCHMARKS.glob("*.py"):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                deps.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                deps.update(alias.name.split(".")[0] for alias in node.names)
        graph[path.stem] = deps & names - {path.stem}
    return graph


def test_the_benchmark_scripts_have_no_import_circles() -> None:
    if not BENCHMARKS.is_dir():
        pytest.skip("no benchmarks/ beside the sources (an installed package)")
    graph = _script_imports()
    assert graph, "no benchmark scripts found"
    assert _circles(graph) == []


def test_the_engine_core_imports_no_public_module() -> None:
    graph = _imports()
    core = {m: deps for m, deps in graph.items() if m.startswith("gongzhu._core")}
    assert core, "the engine core was not found"
    for module, deps in core.items():
        assert {d for d in deps if not d.startswith("gongzhu._core")} == set(), module


# The layers of the package, lowest first (docs/architecture.rst, "Layers"). A module
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
        (
            "gongzhu.round",
            "gongzhu.dealing",
            "gongzhu.view",
            "gongzhu.match",
            "gongzhu.board",
            "gongzhu.position",
        ),
    ),
    ("interfaces", ("gongzhu.record", "gongzhu.table", "gongzhu.svg", "gongzhu.i18n")),
    ("playing", ("gongzhu.ai", "gongzhu.bots", "gongzhu.parallel")),
    ("adapters", ("gongzhu.adapters", "gongzhu.testing", "gongzhu.vector")),
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


# -- No private reach-ins across packages (issue 28) -----------------------------------------
#
# A package is gongzhu's top-level module or folder (gongzhu.round, gongzhu.ai, ...). Across
# packages a module may not import a private name (`from gongzhu.x import _y`), import from a
# private module of another package (`from gongzhu.rules._tables import ...`), or reach for a
# private attribute that its own package does not define (`view.rules._tables`). The shared
# internals below every layer (gongzhu._core, gongzhu._base, gongzhu._codec) are packages meant
# to be imported: their modules are private, their names are not.
SHARED_INTERNALS = ("gongzhu._core", "gongzhu._base", "gongzhu._codec")

# The reach-ins that remain, each with its owner. The list may only shrink: an entry that no
# longer occurs fails the test (delete it), a new reach-in fails the test (give the thing a
# public or _base home instead). Keys: "FROM -> PACKAGE:NAME" (a private name imported),
# "FROM -> PACKAGE.MODULE" (a private module imported), "FROM -> .ATTRIBUTE" (a private
# attribute of an object of another package); FROM "*" is any package.
ALLOWED_REACH_INS: dict[str, str] = {}


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _modules() -> dict[str, ast.Module]:
    trees = {}
    for path in ROOT.rglob("*.py"):
        parts = ("gongzhu", *path.relative_to(ROOT).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        trees[name] = ast.parse(path.read_text(encoding="utf-8"))
    return trees


def _defined_names(trees: dict[str, ast.Module]) -> dict[str, set[str]]:
    """Per package, every name it defines: functions, classes, assigned names and attributes,
    and strings that may name slots or attrs fields."""
    defined: dict[str, set[str]] = {}
    for module, tree in trees.items():
        names = defined.setdefault(_package(module), set())
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.add(node.value)
    return defined


def _reach_ins(trees: dict[str, ast.Module] | None = None) -> dict[str, list[str]]:
    """Every private reach-in across packages: its key -> where it occurs."""
    trees = _modules() if trees is None else trees
    defined = _defined_names(trees)
    found: dict[str, list[str]] = {}
    for module, tree in trees.items():
        own = _package(module)
        for node in ast.walk(tree):
            keys: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                target = _package(node.module)
                if not node.module.startswith("gongzhu.") or target == own:
                    continue
                inner = node.module.split(".")[2:]
                if target not in SHARED_INTERNALS and any(_is_private(p) for p in inner):
                    keys.append(f"{own} -> {node.module}")
                keys += [
                    f"{own} -> {node.module}:{a.name}" for a in node.names if _is_private(a.name)
                ]
            elif isinstance(node, ast.Attribute) and _is_private(node.attr):
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    continue
                if node.attr not in defined[own]:
                    keys.append(f"{own} -> .{node.attr}")
            for key in keys:
                found.setdefault(key, []).append(f"{module}:{node.lineno}")
    return found


def _allowed(key: str, allowed: dict[str, str] = ALLOWED_REACH_INS) -> str | None:
    """The allowlist entry that covers ``key``, if one does."""
    if key in allowed:
        return key
    wildcard = "* -> " + key.split(" -> ", 1)[1]
    return wildcard if wildcard in allowed else None


def test_no_module_reaches_into_another_package_s_private_names() -> None:
    found = _reach_ins()
    new = {key: where for key, where in found.items() if _allowed(key) is None}
    assert new == {}, "private reach-ins across packages: give the thing a public home"


def test_every_allowed_reach_in_still_occurs_so_the_list_only_shrinks() -> None:
    used = {_allowed(key) for key in _reach_ins()}
    stale = sorted(set(ALLOWED_REACH_INS) - used)
    assert stale == [], "these reach-ins are gone: delete them from ALLOWED_REACH_INS"


def test_the_reach_in_check_sees_each_kind_of_reach_in() -> None:
    trees = {
        "gongzhu.svg": ast.parse(
            "from gongzhu.scoring import _totals, score\n"
            "from gongzhu.rules._tables import Tables\n"
            "from gongzhu._core.play import _fast\n"
            "x = view.rules._tables\n"
            "y = self._mine\n"
        ),
        "gongzhu.scoring": ast.parse("def _totals(): pass\n"),
        "gongzhu.scoring._sheet": ast.parse("from gongzhu.scoring import _totals\n"),
    }
    assert sorted(_reach_ins(trees)) == [
        "gongzhu.svg -> ._tables",
        "gongzhu.svg -> gongzhu._core.play:_fast",
        "gongzhu.svg -> gongzhu.rules._tables",
        "gongzhu.svg -> gongzhu.scoring:_totals",
    ]
    assert _allowed("gongzhu.svg -> gongzhu.scoring:_running_totals") is None
    wildcard = {"* -> gongzhu.errors:_brief": "an entry for any package"}
    assert (
        _allowed("gongzhu.svg -> gongzhu.errors:_brief", wildcard) == "* -> gongzhu.errors:_brief"
    )


# -- The engine core's declared API (issue 28) -----------------------------------------------
#
# gongzhu._core declares what the rest of the package may import from it (gongzhu._core.API,
# listed in its docstring too). Any other module or name of the core imported outside it fails
# here: `from gongzhu._core.x import name`, `import gongzhu._core.x`, and the attributes read
# through a module imported as a whole (`from gongzhu._core import play as _p` ... `_p.name`).


def _core_uses(trees: dict[str, ast.Module] | None = None) -> dict[str, list[str]]:
    """Every use of the core outside it: "MODULE:NAME" (or "MODULE" alone) -> where."""
    trees = _modules() if trees is None else trees
    found: dict[str, list[str]] = {}

    def use(key: str, module: str, node: ast.AST) -> None:
        found.setdefault(key, []).append(f"{module}:{getattr(node, 'lineno', 0)}")

    for module, tree in trees.items():
        if module == "gongzhu._core" or module.startswith("gongzhu._core."):
            continue
        aliases: dict[str, str] = {}  # a core module imported whole: its local name -> module
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                parts = node.module.split(".")
                if parts[:2] != ["gongzhu", "_core"]:
                    continue
                if len(parts) == 2:
                    for a in node.names:
                        aliases[a.asname or a.name] = a.name
                        use(a.name, module, node)
                else:
                    for a in node.names:
                        use(f"{'.'.join(parts[2:])}:{a.name}", module, node)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    parts = a.name.split(".")
                    if parts[:2] == ["gongzhu", "_core"] and len(parts) > 2:
                        use(".".join(parts[2:]), module, node)  # (the package alone is fine)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                use(f"{aliases[node.value.id]}:{node.attr}", module, node)
    return found


def _outside_the_core_api(uses: dict[str, list[str]]) -> dict[str, list[str]]:
    from gongzhu._core import API

    def declared(key: str) -> bool:
        module, _, name = key.partition(":")
        return module in API and (not name or name in API[module])

    return {key: where for key, where in uses.items() if not declared(key)}


def test_the_rest_of_the_package_imports_only_the_core_s_declared_api() -> None:
    uses = _core_uses()
    assert "play:advance" in uses  # the check sees the core's users
    assert _outside_the_core_api(uses) == {}, "add the name to gongzhu._core.API, on purpose"


def test_every_name_of_the_core_s_api_exists() -> None:
    import importlib

    from gongzhu._core import API

    missing = []
    for module, names in API.items():
        if not (ROOT / "_core" / f"{module}.py").exists():
            continue  # declared for a branch that adds the module (see API's comments)
        loaded = importlib.import_module(f"gongzhu._core.{module}")
        missing += [f"{module}:{name}" for name in sorted(names) if not hasattr(loaded, name)]
    assert missing == []


def test_the_core_api_check_sees_each_kind_of_use() -> None:
    trees = {
        "gongzhu.svg": ast.parse(
            "from gongzhu._core.play import advance, _fast\n"
            "from gongzhu._core import rollout as _ro\n"
            "import gongzhu._core.bits\n"
            "import gongzhu._core as _core\n"
            "x = _ro.rollout_random\n"
            "y = _ro.secret\n"
        ),
        "gongzhu._core.play": ast.parse("from gongzhu._core.bits import anything\n"),
    }
    uses = _core_uses(trees)
    assert sorted(uses) == [
        "bits",
        "play:_fast",
        "play:advance",
        "rollout",
        "rollout:rollout_random",
        "rollout:secret",
    ]
    assert sorted(_outside_the_core_api(uses)) == ["play:_fast", "rollout:secret"]
