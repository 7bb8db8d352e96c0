"""A small, honest mutation tester for one gongzhu module (see docs/how_we_test.rst).

It makes one small change ("mutant") at a time to a module's syntax tree with
classic operators, runs the tests that execute the changed line, and reports
each mutant as killed (a test failed, errored or timed out) or survived.

Operators (each site gives one mutant):

* comparison  ``<``→``<=``, ``<=``→``<``, ``>``→``>=``, ``>=``→``>``, ``==``↔``!=``,
  ``is``↔``is not``, ``in``↔``not in``
* arithmetic / bitwise  ``+``↔``-``, ``*``→``//``, ``//``→``*``, ``/``→``*``, ``%``→``//``,
  ``&``↔``|``, ``^``→``&``, ``<<``↔``>>`` (also in augmented assignments ``+=`` …)
* boolean  ``and``↔``or``; ``not x``→``x``; ``-x``→``x``; ``~x``→``x``
* constant  int ``n``→``n + 1``; ``True``↔``False``
* remove statement  a call statement, augmented assignment, ``raise``, attribute or
  item assignment, ``break`` or ``continue`` becomes ``pass``

Not mutated, on purpose: string constants and f-strings (messages and docs),
annotations, decorators, ``attrs.*(...)`` calls (field metadata), docstrings.

How it runs, to stay cheap on a small shared machine: the tree is a private copy
(``--root``); a coverage pass records which tests execute each line of the
module (and how long each test takes); each mutant is compiled from the edited
tree straight to a code object and served to a fresh ``fork()`` of a process
that has already imported pytest and Hypothesis, through an import hook, so
nothing is written to disk; only the tests that cover the mutated line run,
fastest first, with ``-x``. A line executed at import time (a module constant)
gets every test. Tests that fail on the unmutated module are left out.

Usage (normally through tools/mutation.sh)::

    python tools/mutate.py --root /tmp/copy src/gongzhu/scoring.py \
        --tests tests/scoring/test_scoring_examples.py ... --out /tmp/scoring.json

Equivalent mutants are listed, with a one-line reason each, in
tools/mutation_equivalent.txt as ``module | key | reason``; the key (function,
before → after, occurrence) does not depend on line numbers.
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import importlib.abc
import importlib.util
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

_CMP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
_BIN: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.BitXor: ast.BitAnd,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}

_EQUIVALENT_FILE = Path(__file__).with_name("mutation_equivalent.txt")


@dataclass
class Mutant:
    id: int
    line: int
    function: str
    operator: str
    before: str
    after: str
    key: str = ""
    lines: list[int] = field(default_factory=list)
    status: str = ""
    seconds: float = 0.0
    tests_run: int = 0


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Mutator(ast.NodeTransformer):
    """Walks a module in a fixed order; collects sites, or applies site number ``target``."""

    def __init__(self, source: str, target: int | None = None) -> None:
        self.source = source
        self.target = target
        self.count = 0
        self.sites: list[Mutant] = []
        self._names: list[str] = []
        self._stmt: list[ast.stmt] = []

    # -- the walk -------------------------------------------------------------
    def _site(self, node: ast.AST, operator: str, make: Callable[[], ast.AST]) -> ast.AST | None:
        """Register one mutation site; return the replacement if it is the target."""
        n = self.count
        self.count += 1
        if self.target is None:
            new = make()
            before = ast.get_source_segment(self.source, node) or ast.unparse(node)
            stmt_line = self._stmt[-1].lineno if self._stmt else node.lineno  # type: ignore[attr-defined]
            end = getattr(node, "end_lineno", None) or node.lineno  # type: ignore[attr-defined]
            lines = sorted({stmt_line, *range(node.lineno, end + 1)})  # type: ignore[attr-defined]
            self.sites.append(
                Mutant(
                    id=n,
                    line=node.lineno,  # type: ignore[attr-defined]
                    function=".".join(self._names) or "<module>",
                    operator=operator,
                    before=_short(before),
                    after=_short(ast.unparse(new)),
                    lines=lines,
                )
            )
            return None
        if n == self.target:
            return ast.copy_location(make(), node)
        return None

    def visit(self, node: ast.AST) -> Any:
        is_stmt = isinstance(node, ast.stmt)
        if is_stmt:
            self._stmt.append(node)  # type: ignore[arg-type]
        try:
            return super().visit(node)
        finally:
            if is_stmt:
                self._stmt.pop()

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> Any:
        self._names.append(node.name)
        try:
            # Decorators, annotations and bases are left alone; defaults and bodies are walked.
            if not isinstance(node, ast.ClassDef):
                node.args = self.visit(node.args)
            node.body = self._stmts(node.body)
            return node
        finally:
            self._names.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_arguments(self, node: ast.arguments) -> Any:
        node.defaults = [self.visit(d) for d in node.defaults]
        node.kw_defaults = [d if d is None else self.visit(d) for d in node.kw_defaults]
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> Any:
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> Any:
        return node

    def visit_Call(self, node: ast.Call) -> Any:
        if ast.unparse(node.func).startswith("attrs."):
            return node
        return self.generic_visit(node)

    def visit_If(self, node: ast.If) -> Any:
        if ast.unparse(node.test) == "TYPE_CHECKING":
            return node
        return self._statement(node)

    def _stmts(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out = []
        for i, stmt in enumerate(body):
            if i == 0 and _is_docstring(stmt):
                out.append(stmt)
                continue
            new = self.visit(stmt)
            out.append(new)
        return out

    def _statement(self, node: ast.stmt) -> Any:
        for name, value in ast.iter_fields(node):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, name, self._stmts(value))
            elif isinstance(value, list):
                setattr(node, name, [self.visit(v) if isinstance(v, ast.AST) else v for v in value])
            elif isinstance(value, ast.AST):
                setattr(node, name, self.visit(value))
        removable = (
            (isinstance(node, ast.Expr) and not isinstance(node.value, ast.Constant))
            or isinstance(node, (ast.AugAssign, ast.Raise, ast.Break, ast.Continue))
            or (
                isinstance(node, ast.Assign)
                and all(isinstance(t, (ast.Attribute, ast.Subscript)) for t in node.targets)
            )
        )
        if removable:
            new = self._site(node, "remove statement", ast.Pass)
            if new is not None:
                return new
        return node

    def generic_visit(self, node: ast.AST) -> Any:
        if isinstance(node, ast.stmt):
            return self._statement(node)
        node = super().generic_visit(node)
        return self._expression(node)

    def visit_Module(self, node: ast.Module) -> Any:
        node.body = self._stmts(node.body)
        return node

    # -- the operators ---------------------------------------------------------
    def _expression(self, node: ast.AST) -> ast.AST:
        result: ast.AST | None = None
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                repl = _CMP.get(type(op))
                if repl is None:
                    continue

                def make(i: int = i, repl: type[ast.cmpop] = repl) -> ast.AST:
                    new = copy.deepcopy(node)
                    new.ops[i] = repl()
                    return new

                result = self._site(node, "comparison", make) or result
        elif isinstance(node, ast.BinOp) and type(node.op) in _BIN:
            repl_op = _BIN[type(node.op)]
            result = self._site(
                node, "arithmetic", lambda: ast.BinOp(node.left, repl_op(), node.right)
            )
        elif isinstance(node, ast.BoolOp):
            other = ast.Or if isinstance(node.op, ast.And) else ast.And
            result = self._site(node, "and/or", lambda: ast.BoolOp(other(), node.values))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub, ast.Invert)):
            result = self._site(
                node, "boolean" if isinstance(node.op, ast.Not) else "unary", lambda: node.operand
            )
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                result = self._site(node, "constant", lambda: ast.Constant(not node.value))
            elif isinstance(node.value, int):
                result = self._site(node, "constant", lambda: ast.Constant(node.value + 1))
        return result if result is not None else node

    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        node.value = self.visit(node.value)
        repl_op = _BIN.get(type(node.op))
        if repl_op is not None:

            def make() -> ast.AST:
                return ast.AugAssign(node.target, repl_op(), node.value)

            new = self._site(node, "arithmetic", make)
            if new is not None:
                return new
        return self._statement_removal_only(node)

    def _statement_removal_only(self, node: ast.stmt) -> Any:
        new = self._site(node, "remove statement", ast.Pass)
        return new if new is not None else node


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def collect(source: str) -> list[Mutant]:
    """Every mutant of ``source``, each with a line-independent key."""
    m = _Mutator(source)
    m.visit(ast.parse(source))
    seen: dict[tuple[str, str, str], int] = {}
    for mut in m.sites:
        k = (mut.function, mut.before, mut.after)
        seen[k] = seen.get(k, 0) + 1
        mut.key = f"{mut.function}: {mut.before} -> {mut.after} #{seen[k]}"
    return m.sites


def mutated_code(source: str, path: str, target: int) -> Any:
    tree = _Mutator(source, target).visit(ast.parse(source))
    ast.fix_missing_locations(tree)
    return compile(tree, path, "exec", dont_inherit=True)


# -- running tests in forked children -----------------------------------------
class _Loader(importlib.abc.Loader):
    def __init__(self, code: Any) -> None:
        self.code = code

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: Any) -> None:
        exec(self.code, module.__dict__)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, name: str, path: str, code: Any) -> None:
        self.name, self.path, self.code = name, path, code

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        loader = _Loader(self.code)
        return importlib.util.spec_from_file_location(fullname, self.path, loader=loader)


def _pytest_args(tests: list[str]) -> list[str]:
    return ["-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--no-header", *tests]


def _fork(work: Callable[[], int], quiet: bool = True) -> int:
    pid = os.fork()
    if pid:
        return pid
    rc = 3
    try:
        os.setpgid(0, 0)
        if quiet:
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
        rc = work()
    finally:
        os._exit(rc)


def _coverage_map(module: str, path: str, tests: list[str], out: Path) -> dict[str, Any]:
    """Which tests run which lines of ``path``, each test's duration and outcome."""

    def work() -> int:
        import coverage
        import pytest

        cov = coverage.Coverage(data_file=None, include=[path], branch=False)
        durations: dict[str, float] = {}
        failed: set[str] = set()

        class Plugin:
            @pytest.hookimpl(hookwrapper=True)
            def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Iterator[None]:
                cov.switch_context(item.nodeid)
                yield
                cov.switch_context("")

            def pytest_runtest_logreport(self, report: Any) -> None:
                durations[report.nodeid] = durations.get(report.nodeid, 0.0) + report.duration
                if report.failed:
                    failed.add(report.nodeid)

        cov.start()
        pytest.main(
            ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", *tests], plugins=[Plugin()]
        )
        cov.stop()
        mod = sys.modules.get(module)
        if mod is None or os.path.realpath(mod.__file__ or "") != os.path.realpath(path):
            raise SystemExit(f"{module} was not imported from {path}")
        by_line = cov.get_data().contexts_by_lineno(path)
        out.write_text(
            json.dumps(
                {
                    "lines": {str(k): sorted(v) for k, v in by_line.items()},
                    "durations": durations,
                    "failed": sorted(failed),
                }
            )
        )
        return 0

    pid = _fork(work, quiet=False)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0 or not out.exists():
        raise SystemExit("coverage pass failed")
    data: dict[str, Any] = json.loads(out.read_text())
    return data


def _tests_for(mut: Mutant, cov: dict[str, Any], all_tests: list[str]) -> list[str]:
    ctx: set[str] = set()
    for line in mut.lines:
        ctx.update(cov["lines"].get(str(line), ()))
    if "" in ctx:  # run at import time: any test may notice
        return all_tests
    dur = cov["durations"]
    return sorted((t for t in ctx if t in dur), key=lambda t: dur[t])


def run(args: argparse.Namespace) -> int:
    root = Path(args.root).resolve()
    os.chdir(root)
    sys.path.insert(0, str(root / "src"))
    path = str((root / args.module).resolve())
    rel = Path(args.module).with_suffix("")
    module = ".".join(rel.parts[1:] if rel.parts[0] == "src" else rel.parts)
    source = Path(path).read_text()
    missing = [t for t in args.tests if not (root / t.split("::")[0]).exists()]
    if missing:
        print(f"not in this tree, skipped: {missing}", flush=True)
    args.tests = [t for t in args.tests if t not in missing]
    mutants = collect(source)
    if args.functions:
        wanted = set(args.functions.split(","))
        mutants = [m for m in mutants if m.function.split(".")[0] in wanted or m.function in wanted]
    if args.only:
        keep = {int(i) for i in args.only.split(",")}
        mutants = [m for m in mutants if m.id in keep]
    if args.list:
        for m in mutants:
            print(f"{m.id:4} L{m.line:<5} {m.operator:16} {m.key}")
        return 0

    # Import the heavy, unmutated third-party modules once, before forking.
    import hypothesis.strategies  # noqa: F401
    import pytest

    if args.max_examples:
        # Registered before the fork, so tests/conftest.py can load it by name.
        from hypothesis import HealthCheck, settings

        settings.register_profile(
            "mutation",
            max_examples=args.max_examples,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=[HealthCheck.too_slow],
        )
        os.environ["HYPOTHESIS_PROFILE"] = "mutation"

    out = Path(args.out)
    cov_file = out.with_suffix(".coverage.json")
    # The coverage map is only valid for this very source and test list.
    stamp = hashlib.sha256(repr((source, args.tests)).encode()).hexdigest()
    cov: dict[str, Any] = {}
    if args.reuse_coverage and cov_file.exists():
        cov = json.loads(cov_file.read_text())
        if cov.get("stamp") != stamp:
            print("coverage map is stale: redoing it", flush=True)
            cov = {}
    if not cov:
        cov = _coverage_map(module, path, args.tests, cov_file)
        cov["stamp"] = stamp
        cov_file.write_text(json.dumps(cov))
    excluded = set(cov["failed"])
    if excluded:
        print(f"left out (fail on the unmutated module): {sorted(excluded)}", flush=True)
    all_tests = sorted(
        (t for t in cov["durations"] if t not in excluded), key=lambda t: cov["durations"][t]
    )
    base = sum(cov["durations"][t] for t in all_tests)
    print(f"{module}: {len(mutants)} mutants, {len(all_tests)} tests ({base:.0f}s)", flush=True)

    progress = out.with_suffix(".progress.jsonl")
    progress.write_text("")
    pending = list(mutants)
    running: dict[int, tuple[Mutant, float, float]] = {}
    done: list[Mutant] = []
    while pending or running:
        while pending and len(running) < args.workers:
            mut = pending.pop(0)
            tests = _tests_for(mut, cov, all_tests)
            mut.tests_run = len(tests)
            if not tests:
                mut.status = "survived (no test runs this line)"
                done.append(mut)
                with progress.open("a") as fh:
                    fh.write(json.dumps(asdict(mut)) + "\n")
                continue
            budget = args.timeout_factor * sum(cov["durations"][t] for t in tests) + 10
            code = mutated_code(source, path, mut.id)

            def work(code: Any = code, tests: list[str] = tests) -> int:

                finder = _Finder(module, path, code)

                class First:
                    # pytest puts its assertion rewriter first on sys.meta_path, and it
                    # would load the module from disk when the module is a test path.
                    def pytest_configure(self, config: Any) -> None:
                        sys.meta_path.insert(0, finder)

                return int(pytest.main(_pytest_args(tests), plugins=[First()]))

            pid = _fork(work, quiet=not args.verbose)
            running[pid] = (mut, time.monotonic(), budget)
        time.sleep(0.05)
        for pid, (mut, start, budget) in list(running.items()):
            got, status = os.waitpid(pid, os.WNOHANG)
            elapsed = time.monotonic() - start
            if got == 0 and elapsed < budget:
                continue
            if got == 0:
                os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                mut.status = "killed (timeout)"
            else:
                rc = os.waitstatus_to_exitcode(status)
                mut.status = {0: "survived", 1: "killed", 2: "killed (error)"}.get(
                    rc, f"runner error (exit {rc})"
                )
            mut.seconds = round(elapsed, 2)
            del running[pid]
            done.append(mut)
            with progress.open("a") as fh:
                fh.write(json.dumps(asdict(mut)) + "\n")
            mark = "." if mut.status.startswith("killed") else "S"
            print(mark, end="" if len(done) % 60 else "\n", flush=True)
    print(flush=True)
    return report(module, sorted(done, key=lambda m: m.id), out)


def _equivalents(module: str) -> dict[str, str]:
    known: dict[str, str] = {}
    if _EQUIVALENT_FILE.exists():
        for raw in _EQUIVALENT_FILE.read_text().splitlines():
            if not raw.strip() or raw.startswith("#"):
                continue
            # The key may itself contain " | " (a bitwise-or mutant): split from both ends.
            mod, rest = raw.split(" | ", 1)
            key, reason = rest.rsplit(" | ", 1)
            mod, key = mod.strip(), key.strip()
            if mod == module:
                known[key] = reason
    return known


def report(module: str, done: list[Mutant], out: Path) -> int:
    known = _equivalents(module)
    killed = [m for m in done if m.status.startswith("killed")]
    errors = [m for m in done if m.status.startswith("runner error")]
    survivors = [m for m in done if m.status.startswith("survived")]
    equivalent = [m for m in survivors if m.key in known]
    gaps = [m for m in survivors if m.key not in known]
    scored = len(done) - len(equivalent) - len(errors)
    pct = 100.0 * len(killed) / scored if scored else 100.0
    summary = {
        "module": module,
        "total": len(done),
        "killed": len(killed),
        "equivalent": len(equivalent),
        "survived_not_equivalent": len(gaps),
        "runner_errors": len(errors),
        "score_percent": round(pct, 1),
    }
    out.write_text(json.dumps({"summary": summary, "mutants": [asdict(m) for m in done]}, indent=1))
    print(json.dumps(summary))
    for m in gaps + errors:
        print(f"  {m.status:34} L{m.line:<5} [{m.operator}] {m.key}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("module", help="the module file, relative to --root")
    parser.add_argument("--root", default=".", help="a private copy of the repository")
    parser.add_argument("--tests", nargs="+", default=["tests"], help="test files / node ids")
    parser.add_argument("--out", default="mutation.json", help="where the results go (JSON)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--timeout-factor", type=float, default=4.0)
    parser.add_argument("--functions", help="comma-separated: mutate only these functions")
    parser.add_argument("--only", help="comma-separated mutant ids")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument(
        "--reuse-coverage",
        action="store_true",
        help="reuse the last coverage pass (same tree and tests only)",
    )
    parser.add_argument(
        "--max-examples",
        type=int,
        help="Hypothesis examples per property test (a derandomized profile)",
    )
    parser.add_argument("--verbose", action="store_true", help="show the test output")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
