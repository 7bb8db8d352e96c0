"""The shape of the source: cohesion, not line count (docs: the architecture page).

* no ``__init__.py`` over 150 lines (a package's ``__init__`` only re-exports);
* no function over 80 lines, counted from its ``def`` line to its last line;
* no class split across modules by inheritance from a private base (a class whose base
  is a private class ``_X`` defined in another module of the package): a class is one
  thing in one module, however long;
* no mixins: no class with two or more bases from the package (error classes aside: an
  error is both its cause and, say, a ``TypeError``);
* free functions read no other object's private fields (``obj._x`` where ``obj`` is not
  ``self``/``cls`` or an imported module): they take public records.

A long module is fine when it holds one cohesive class (python-chess's ``Board``, attrs'
``_make.py``), so there is no file-size limit. The exceptions are listed below, each with
its reason. Every listed entry must still be needed (a stale entry fails the test), so the
lists only shrink.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import gongzhu

ROOT = Path(gongzhu.__file__).parent

MAX_INIT = 150
MAX_FUNCTION = 80

# Functions allowed over MAX_FUNCTION: "path:qualified name" -> reason.
FUNCTION_EXCEPTIONS: dict[str, str] = {
    # The rollout hot loop: one flat loop with its state in locals, because a call per card
    # (mypyc or CPython) costs more than the whole step; see the comment at its top.
    "_core/rollout.py:_rollout_random": "the core's rollout hot loop",
}

# Free functions allowed to read another object's private fields: "path:function" -> reason.
PRIVATE_READ_EXCEPTIONS: dict[str, str] = {
    "round/_deal.py:deal": (
        "deal() is Round's named constructor for a shuffled deal, in Round's own package;"
        " Round._start is the trusted path it shares with Round.from_hands"
    ),
    "adapters/openspiel.py:state_to_text": (
        "the text form of the module's own GongzhuState, beside it; pyspiel calls the"
        " state's methods, so its action lists stay private to the module"
    ),
}


def _sources() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts)


def _key(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@functools.cache
def _trees() -> dict[str, ast.Module]:
    return {_key(p): ast.parse(p.read_text(encoding="utf-8")) for p in _sources()}


def _functions(tree: ast.AST, prefix: str = "") -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = prefix + node.name
            if not isinstance(node, ast.ClassDef):
                end = node.end_lineno or node.lineno
                found.append((name, end - node.lineno + 1))
            found.extend(_functions(node, name + "."))
        else:
            found.extend(_functions(node, prefix))
    return found


def _long_functions() -> dict[str, int]:
    long: dict[str, int] = {}
    for key, tree in _trees().items():
        for name, lines in _functions(tree):
            if lines > MAX_FUNCTION:
                long[f"{key}:{name}"] = lines
    return long


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


# -- classes: one thing in one module --------------------------------------------------------


def _classes(trees: dict[str, ast.Module]) -> list[tuple[str, ast.ClassDef]]:
    return [
        (key, node)
        for key, tree in trees.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    ]


def _base_names(node: ast.ClassDef) -> list[str]:
    # ``mod.Name`` and ``Name[T]`` both name the class ``Name``.
    names = []
    for base in node.bases:
        while isinstance(base, ast.Subscript):
            base = base.value
        if isinstance(base, ast.Attribute):
            names.append(base.attr)
        elif isinstance(base, ast.Name):
            names.append(base.id)
    return names


def _is_error(node: ast.ClassDef) -> bool:
    return any(n.endswith(("Error", "Exception", "Warning")) for n in _base_names(node))


def _private_base_splits(trees: dict[str, ast.Module]) -> dict[str, list[str]]:
    """``path:class`` -> the private bases it inherits from another module of the package."""
    defined: dict[str, set[str]] = {}
    for key, node in _classes(trees):
        defined.setdefault(node.name, set()).add(key)
    found: dict[str, list[str]] = {}
    for key, node in _classes(trees):
        split = [b for b in _base_names(node) if _is_private(b) and defined.get(b, {key}) - {key}]
        if split:
            found[f"{key}:{node.name}"] = split
    return found


def _mixins(trees: dict[str, ast.Module]) -> dict[str, list[str]]:
    """``path:class`` -> its bases from the package, for classes with two or more."""
    defined = {node.name for _key, node in _classes(trees)}
    found: dict[str, list[str]] = {}
    for key, node in _classes(trees):
        ours = [b for b in _base_names(node) if b in defined]
        if len(ours) >= 2 and not _is_error(node):
            found[f"{key}:{node.name}"] = ours
    return found


# -- free functions: public records, not private fields --------------------------------------


def _is_module(dotted: str) -> bool:
    """Whether ``dotted`` names a module: outside the package, assumed so (``from os import
    path``); inside, a module or package file exists."""
    parts = dotted.split(".")
    if parts[0] != "gongzhu":
        return True
    path = ROOT.joinpath(*parts[1:])
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imported_modules(tree: ast.Module) -> set[str]:
    """The names a module binds to imported modules (``_p`` of ``from gongzhu._core import
    play as _p``): ``_p._x`` is a module's name, not an object's field. An imported class
    is not among them (``Round._start`` reads the class's private member)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.update(
                a.asname or a.name for a in node.names if _is_module(f"{node.module}.{a.name}")
            )
    return names


def _free_functions(
    tree: ast.AST, prefix: str = "", in_class: bool = False
) -> list[tuple[str, ast.AST]]:
    """``(qualified name, node)`` of every function not defined in a class (nor in a
    method): module-level functions and the functions nested in them."""
    found: list[tuple[str, ast.AST]] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            found.extend(_free_functions(node, prefix + node.name + ".", True))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if not in_class:
                found.append((prefix + node.name, node))
        else:
            found.extend(_free_functions(node, prefix, in_class))
    return found


def _private_reads(trees: dict[str, ast.Module]) -> dict[str, list[str]]:
    """``path:function`` -> the ``obj._x`` reads of a free function (obj not self/cls/a
    module)."""
    found: dict[str, list[str]] = {}
    for key, tree in trees.items():
        modules = _imported_modules(tree) | {"self", "cls"}
        for name, func in _free_functions(tree):
            reads = sorted(
                {
                    ast.unparse(node)
                    for node in ast.walk(func)
                    if isinstance(node, ast.Attribute)
                    and _is_private(node.attr)
                    and not (isinstance(node.value, ast.Name) and node.value.id in modules)
                }
            )
            if reads:
                found[f"{key}:{name}"] = reads
    return found


def _not_excused(found: dict[str, list[str]], *lists: dict[str, str]) -> dict[str, list[str]]:
    excused = {k for entries in lists for k in entries}
    return {k: v for k, v in found.items() if k not in excused and k.split(":")[0] not in excused}


def _stale(found: dict[str, list[str]], *lists: dict[str, str]) -> list[str]:
    used = set(found) | {k.split(":")[0] for k in found}
    return sorted(k for entries in lists for k in entries if k not in used)


# -- the tests -------------------------------------------------------------------------------


def test_the_source_tree_is_found() -> None:
    assert len(_sources()) > 50
    assert (ROOT / "_core" / "rollout.py").is_file()


def test_every_init_only_re_exports_within_150_lines() -> None:
    long = {
        _key(p): n
        for p in _sources()
        if p.name == "__init__.py"
        and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_INIT
    }
    assert long == {}, f"__init__.py files over {MAX_INIT} lines: {long}"


def test_no_function_is_over_80_lines() -> None:
    over = {k: n for k, n in _long_functions().items() if k not in FUNCTION_EXCEPTIONS}
    assert over == {}, f"functions over {MAX_FUNCTION} lines: {over}"


def test_no_class_is_split_across_modules_by_a_private_base() -> None:
    found = _not_excused(_private_base_splits(_trees()))
    assert found == {}, f"one class in one module: compose, or fold the base in: {found}"


def test_no_class_is_a_mixin_of_the_packages_classes() -> None:
    found = _not_excused(_mixins(_trees()))
    assert found == {}, f"compose objects with explicit dependencies instead: {found}"


def test_free_functions_read_no_other_objects_private_fields() -> None:
    found = _not_excused(_private_reads(_trees()), PRIVATE_READ_EXCEPTIONS)
    assert found == {}, f"take a public record or make it a method: {found}"


def test_every_exception_is_still_needed() -> None:
    # An entry whose function or class is back within the rules leaves the list: it only
    # shrinks.
    trees = _trees()
    stale = sorted(set(FUNCTION_EXCEPTIONS) - set(_long_functions()))
    stale += _stale(_private_reads(trees), PRIVATE_READ_EXCEPTIONS)
    assert stale == [], f"delete these exceptions, they are no longer needed: {stale}"


def test_the_counter_counts_from_def_to_the_end() -> None:
    source = "class A:\n    @staticmethod\n    def f():\n        x = 1\n\n        return x\n"
    assert _functions(ast.parse(source)) == [("A.f", 4)]


def test_the_cohesion_checks_find_what_they_forbid() -> None:
    trees = {
        "a.py": ast.parse("class _Half:\n    pass\nclass Base:\n    pass\n"),
        "b.py": ast.parse(
            "import os\nfrom gongzhu import cards\nfrom gongzhu.a import _Half, Base\n"
            "class Whole(_Half):\n    pass\n"
            "class Mixed(Whole, Base):\n    pass\n"
            "class Oops(DealError, Base, Whole):\n    pass\n"
            "def peek(obj):\n    return obj._secret, os._exit, Whole._x, Base._y, cards._z\n"
            "class Fine:\n    def own(self, other):\n        return self._a, other._b\n"
        ),
    }
    assert _private_base_splits(trees) == {"b.py:Whole": ["_Half"]}
    assert _mixins(trees) == {"b.py:Mixed": ["Whole", "Base"]}
    assert _private_reads(trees) == {"b.py:peek": ["Base._y", "Whole._x", "obj._secret"]}
