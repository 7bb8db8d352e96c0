"""Fuzz the public API of gongzhu for N minutes; report every exception not a GongzhuError.

The promise (issue #11, DESIGN.md): every public function, constructor and
method either returns or raises a :class:`gongzhu.GongzhuError`, quickly. This
script calls them — the names in ``gongzhu.__all__`` and in every public
module's ``__all__``, and the public methods and properties of sample objects
(rounds at every stage, views, card sets, rule sets, matches, scores, records)
— with arguments drawn from a vocabulary of plausible values and garbage (huge
ints, lone surrogates, control characters, NaN, endless iterators, objects of
the wrong type, hostile ``__repr__``/``__len__``).

Every argument is built from a Python expression, so each finding comes with
a reproducer you can paste into ``python``. Findings are grouped by exception
type and the innermost gongzhu frame; a call slower than ``--call-limit``
seconds is reported as slow.

Not part of CI. Run from the repository root::

    PYTHONPATH=$PWD/src python tools/fuzz_public_api.py              # 10 minutes
    PYTHONPATH=$PWD/src python tools/fuzz_public_api.py --minutes 2 --seed 7
    PYTHONPATH=$PWD/src python tools/fuzz_public_api.py --surfaces readers,server

Half the attempts (by default) go to the campaigns of issue #22 in
``tools/fuzz_surfaces.py``: the protocol readers with mutated JSON, the adapters
with hostile actions, the search bots with hostile views, and the example server
with hostile clients on 127.0.0.1.

Exit status 1 when something was found, 0 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import enum
import importlib
import inspect
import io
import os
import random
import resource
import signal
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import gongzhu
from gongzhu import GongzhuError

_TOOLS = os.path.dirname(os.path.abspath(__file__))  # before main() changes directory

# Modules whose ``__all__`` is fuzzed. The CLI is left out: it is a process
# boundary with its own fuzz suite (tests/cli/test_cli_fuzz.py), and it writes files.
MODULES = (
    "gongzhu",
    "gongzhu.actions",
    "gongzhu.bots",
    "gongzhu.cards",
    "gongzhu.dealing",
    "gongzhu.match",
    "gongzhu.parallel",
    "gongzhu.ai.parallel",
    "gongzhu.ai.arena",
    "gongzhu.i18n",
    "gongzhu.record",
    "gongzhu.round",
    "gongzhu.rules",
    "gongzhu.scoring",
    "gongzhu.trick",
    "gongzhu.view",
    "gongzhu.svg",
    "gongzhu.protocol",
    "gongzhu.ai",
    "gongzhu.arena",
)

# -- the vocabulary: expressions, evaluated in a namespace that imports gongzhu ------------

PRELUDE = """\
import itertools, math
from gongzhu import *
from gongzhu import record, bots, parallel
from gongzhu.bots import RandomStrategy, RuleOfThumbStrategy
from gongzhu.parallel import BotTable
class Hostile:
    def __repr__(self): raise RuntimeError("hostile repr")
    def __len__(self): return -1
    def __iter__(self): return iter(())
    def __index__(self): raise RuntimeError("hostile index")
    def __eq__(self, other): raise RuntimeError("hostile eq")
    __hash__ = object.__hash__
class Liar(list):
    def __len__(self): return 4
def decided(r):
    # RULES.md §9.1: every seat decides (here: declines) before the first lead.
    while r.phase is Phase.EXPOSURE and len(r.exposure_decided) < r.players:
        if r.rules.exposure_order is ExposureOrder.IN_TURN:
            r = r.expose([])
        else:
            r = r.expose([], seat=[s for s in range(r.players) if s not in r.exposure_decided][0])
    return r
def finished(seed=1, rules=None):
    r = decided(deal(rules or RuleSet(), seed=seed))
    while not r.is_over:
        r = r.play(r.legal_plays[0])
    return r
def started(seed=1, plays=5, rules=None):
    r = decided(deal(rules or RuleSet(), seed=seed))
    for _ in range(plays):
        if r.is_over:
            break
        r = r.play(r.legal_plays[0])
    return r
"""

PLAUSIBLE = [
    "0", "1", "2", "3", "4", "5", "-1", "13", "52", "True", "False", "None",
    "'QS'", "'qs 10c'", "'2C'", "'AH KH'", "'classic'", "'online'", "'catch-the-pig'",
    "'random'", "'rule-of-thumb'", "'Ann'", "['Ann', 'Bob', 'Cid', 'Dee']",
    "PIG", "SHEEP", "TRANSFORMER", "ACE_OF_HEARTS", "DECK", "CardSet()", "parse_cards('QS JD')",
    "Suit.HEARTS", "Rank.QUEEN", "Card('2C')",
    "RuleSet()", "RuleSet(players=5)", "RuleSet(players=3)", "RuleSet(claims=True)",
    "RuleSet.preset('catch-the-pig')", "RuleSet(exposure_order='in-turn')",
    "deal(seed=1)", "deal(RuleSet(claims=True), seed=2)", "started()", "started(3, 13)",
    "decided(deal(seed=6))", "deal(seed=1).expose([], seat=2)",
    "started(2, 0, RuleSet(claims=True))",
    "finished()", "finished(4, RuleSet(players=5))", "deal(seed=1).view(0)", "started().view(1)",
    "finished().score()", "Match()", "Match().add(finished())", "(0, 0, 0, 0)",
    "(-100, 50, 0, 50)", "[finished(), finished(2)]", "record.dumps(finished())",
    "record.loads(record.dumps(finished()))", "RandomStrategy(1)", "RuleOfThumbStrategy()",
    "[RuleOfThumbStrategy()] * 4", "BotTable(('random',) * 4)", "deal(seed=1).history",
    "finished().history[0]", "finished().tricks[0]", "{'players': 4}", "{}", "[]", "()",
]  # fmt: skip

GARBAGE = [
    "10**5000", "-10**5000", "2**64", "2**63", "-2**63", "10**30", "1.5", "float('nan')",
    "float('inf')", "-0.0", "1j", "b'QS'", "bytearray(b'x')", "'\\ud800'", "'\\x00'",
    "'\\x1b[2J'", "'\\u202eAnn'", "'Ann\\u200b'", "'Ann '", "' '", "''", "'x' * 100000",
    "'QS ' * 20000", "'ſ'", "'Ｑ♠'", "object()", "Hostile()", "Liar()", "itertools.count()",
    "itertools.repeat('QS')", "iter(lambda: 0, 1)", "range(10**12)", "range(-5, 5)",
    "[None] * 4", "[[], [], [], []]", "{'x': 1}", "{'players': 10**5000}", "{1, 2}",
    "frozenset()", "lambda *a, **k: None", "print", "type", "int", "str", "...",
    "NotImplemented", "Exception", "[[[[[[[[]]]]]]]]", "('QS',) * 60",
]  # fmt: skip


# Classes made only by their factories, whose constructor refuses on purpose.
_NO_CONSTRUCTOR = frozenset({"Round"})


class _Slow(BaseException):
    """Raised by the alarm inside a call that took too long."""


def _alarm(signum: int, frame: Any) -> None:
    raise _Slow


def _public_callables() -> list[tuple[str, Callable[..., Any]]]:
    seen: set[int] = set()
    out: list[tuple[str, Callable[..., Any]]] = []
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr, None)
            if obj is None or id(obj) in seen or not callable(obj):
                continue
            if isinstance(obj, type) and (
                issubclass(obj, (BaseException, enum.Enum))  # Suit(99) is the enum's ValueError
                or getattr(obj, "_is_protocol", False)  # Strategy() is typing's TypeError
                or obj.__name__ in _NO_CONSTRUCTOR
            ):
                continue
            seen.add(id(obj))
            out.append((f"{name}.{attr}", obj))
    return out


def _ours(owner: Any, name: str) -> bool:
    """True when ``name`` is defined by a gongzhu class (not int's to_bytes, not a list's sort)."""
    for klass in type(owner).__mro__:
        if name in klass.__dict__:
            return klass.__module__.startswith("gongzhu")
    return False


def _safe_repr(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 200 else text[:199] + "…"


class Fuzzer:
    def __init__(self, rng: random.Random, call_limit: float) -> None:
        self.rng = rng
        self.call_limit = call_limit
        self.namespace: dict[str, Any] = {}
        exec(PRELUDE, self.namespace)  # our own code, not outside data
        self.values: dict[str, Any] = {}
        for expr in PLAUSIBLE + GARBAGE:
            self.values[expr] = self._eval(expr)
        self.targets = _public_callables()
        # Sample objects whose public methods and properties are fuzzed too.
        self.objects = [
            e for e in PLAUSIBLE if type(self.values[e]).__module__.startswith("gongzhu")
        ]
        self.findings: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.slow: dict[str, dict[str, Any]] = {}
        self.calls = 0

    def _eval(self, expr: str) -> Any:
        # Fresh values for the stateful ones (iterators), cached for the rest.
        return eval(expr, self.namespace)

    def _argument(self) -> str:
        pool = PLAUSIBLE if self.rng.random() < 0.6 else GARBAGE
        return self.rng.choice(pool)

    def _arguments(self, fn: Callable[..., Any]) -> tuple[list[str], dict[str, str]] | None:
        try:
            sig = inspect.signature(fn)
        except (TypeError, ValueError):
            return [self._argument() for _ in range(self.rng.randrange(3))], {}
        args: list[str] = []
        kwargs: dict[str, str] = {}
        for p in sig.parameters.values():
            if p.name == "self":
                continue
            required = p.default is inspect.Parameter.empty
            if p.kind is p.VAR_POSITIONAL:
                args += [self._argument() for _ in range(self.rng.randrange(2))]
            elif p.kind is p.VAR_KEYWORD or (not required and self.rng.random() < 0.5):
                continue
            elif p.kind is p.KEYWORD_ONLY or (not required and self.rng.random() < 0.5):
                kwargs[p.name] = self._argument()
            elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and not kwargs:
                args.append(self._argument())
            else:
                kwargs[p.name] = self._argument()
        return args, kwargs

    def _materialise(self, expr: str) -> Any:
        if expr.startswith(("itertools.", "iter(", "Liar", "Hostile", "[", "{")):
            return self._eval(expr)  # not shared: a call may consume or change it
        return self.values[expr]

    def _one(self) -> None:
        if self.rng.random() < 0.5:
            label, fn = self.rng.choice(self.targets)
            owner_expr = None
        else:
            owner_expr = self.rng.choice(self.objects)
            owner = self._materialise(owner_expr)
            names = [n for n in dir(type(owner)) if not n.startswith("_") and _ours(owner, n)]
            if not names:
                return
            name = self.rng.choice(names)
            label = f"{type(owner).__name__}.{name}"
            try:
                attribute = inspect.getattr_static(owner, name)
            except AttributeError:
                return
            if isinstance(attribute, property) or not callable(getattr(owner, name, None)):
                # A property: reading it must not raise anything but a GongzhuError.
                self._call(label, lambda: getattr(owner, name), f"({owner_expr}).{name}")
                return
            fn = getattr(owner, name)
        chosen = self._arguments(fn)
        if chosen is None:
            return
        arg_exprs, kw_exprs = chosen
        try:
            args = [self._materialise(e) for e in arg_exprs]
            kwargs = {k: self._materialise(e) for k, e in kw_exprs.items()}
        except Exception:
            return
        try:
            inspect.signature(fn).bind(*args, **kwargs)
        except TypeError:
            return  # a wrong call in Python's own sense (arity, unknown keyword)
        except ValueError:
            pass
        call_text = ", ".join(arg_exprs + [f"{k}={v}" for k, v in kw_exprs.items()])
        where = label if owner_expr is None else f"({owner_expr}).{label.split('.', 1)[1]}"
        if owner_expr is None:
            module, _, attr = label.rpartition(".")
            where = f"__import__('{module}', fromlist=['x']).{attr}"
        self._call(label, lambda: fn(*args, **kwargs), f"{where}({call_text})")

    def _call(self, label: str, thunk: Callable[[], Any], reproducer: str) -> None:
        self.calls += 1
        signal.setitimer(signal.ITIMER_REAL, self.call_limit)
        start = time.perf_counter()
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                thunk()
        except _Slow:
            self.slow.setdefault(label, {"reproducer": reproducer, "count": 0})["count"] += 1
        except GongzhuError as exc:
            text = str(exc)
            if len(text) > 600:
                self._record(label, exc, reproducer, note=f"message of {len(text)} characters")
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            self._record(label, exc, reproducer)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        del start

    def _record(self, label: str, exc: BaseException, reproducer: str, note: str = "") -> None:
        frames = traceback.extract_tb(exc.__traceback__)
        inner = next(
            (f for f in reversed(frames) if "/gongzhu/" in f.filename.replace(os.sep, "/")),
            frames[-1] if frames else None,
        )
        place = f"{inner.filename.rsplit('/', 1)[-1]}:{inner.lineno}" if inner else "?"
        key = (label, type(exc).__name__, place)
        if frames and frames[-1].filename == "<string>" and not note:
            return  # raised by a hostile argument's own method (Hostile.__eq__): its own error
        entry = self.findings.setdefault(
            key,
            {
                "reproducer": reproducer,
                "message": note or _safe_repr(exc)[:300],
                "traceback": "".join(traceback.format_exception(exc))[-3000:],
                "count": 0,
            },
        )
        entry["count"] += 1

    def run(self, seconds: float, surfaces: Any = None, share: float = 0.5) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if surfaces is not None and (not self.targets or self.rng.random() < share):
                self._surface(surfaces)
            else:
                self._one()

    def _surface(self, surfaces: Any) -> None:
        """One attempt of a campaign of tools/fuzz_surfaces.py, under a 60 s alarm."""
        self.calls += 1
        signal.setitimer(signal.ITIMER_REAL, 60.0)
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                surfaces.step()
        except _Slow:
            self.slow.setdefault("surface", {"reproducer": "a campaign step", "count": 0})[
                "count"
            ] += 1
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # the harness's own slip: reported, and the run goes on
            self._record("fuzz_surfaces harness", exc, "a campaign step")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)


def _report(fuzzer: Fuzzer, seconds: float, out: Iterator[str] | None = None) -> str:
    lines = [
        f"{fuzzer.calls} calls in {seconds:.0f} s over {len(fuzzer.targets)} public callables"
        f" and {len(fuzzer.objects)} sample objects; {len(fuzzer.findings)} distinct findings,"
        f" {len(fuzzer.slow)} slow call sites",
        "",
    ]
    for (label, kind, place), entry in sorted(fuzzer.findings.items()):
        lines += [
            f"== {label}: {kind} at {place} ({entry['count']}x)",
            f"   {entry['message']}",
            "   reproduce (after the prelude of tools/fuzz_public_api.py):",
            f"   {entry['reproducer'][:1000]}",
            "   " + entry["traceback"].replace("\n", "\n   "),
        ]
    for label, entry in sorted(fuzzer.slow.items()):
        lines.append(f"-- slow: {label} ({entry['count']}x): {entry['reproducer'][:300]}")
    return "\n".join(lines)


_TOOLS = os.path.dirname(os.path.abspath(__file__))  # before main() changes directory


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--call-limit", type=float, default=3.0, help="seconds per call")
    parser.add_argument("--memory-mb", type=int, default=1500, help="address-space cap")
    parser.add_argument("--out", help="also write the report to this file")
    parser.add_argument(
        "--surfaces",
        default="api,readers,adapters,search,server",
        help="what to fuzz: api (every public callable), and the #22 campaigns of"
        " tools/fuzz_surfaces.py: readers, adapters, search, server (127.0.0.1 only)",
    )
    options = parser.parse_args(argv)
    if options.out:
        options.out = os.path.abspath(options.out)
    # Fuzzed calls write files under names they make up (save_deals, record.dump...):
    # they go to a scratch directory, never into the working tree.
    scratch = tempfile.mkdtemp(prefix="gongzhu-fuzz-")
    os.chdir(scratch)
    chosen = [x for x in options.surfaces.split(",") if x]
    # A call that eats memory gets MemoryError (a finding) instead of the machine's swap.
    limit = options.memory_mb * 2**20
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sys.setrecursionlimit(3000)
    # Functions that write files (save_deals('Ann', ...)) write into a scratch directory.
    os.chdir(tempfile.mkdtemp(prefix="gongzhu-fuzz-cwd-"))
    signal.signal(signal.SIGALRM, _alarm)
    fuzzer = Fuzzer(random.Random(options.seed), options.call_limit)
    if "api" not in chosen:
        fuzzer.targets = []
    campaigns = [x for x in chosen if x != "api"]
    surfaces = None
    if campaigns:
        sys.path.insert(0, _TOOLS)
        from fuzz_surfaces import Surfaces

        surfaces = Surfaces(random.Random(options.seed + 1), fuzzer._record, campaigns)
    start = time.monotonic()
    with contextlib.suppress(KeyboardInterrupt):
        fuzzer.run(options.minutes * 60, surfaces)
    report = _report(fuzzer, time.monotonic() - start)
    if surfaces is not None:
        report += "\ncampaign attempts: " + ", ".join(
            f"{k} {v}" for k, v in sorted(surfaces.attempts.items())
        )
    print(report)
    if options.out:
        with open(options.out, "w", encoding="utf-8") as f:
            f.write(report + "\n")
    return 1 if fuzzer.findings else 0


if __name__ == "__main__":
    print(f"gongzhu {gongzhu.__version__}", file=sys.stderr)
    sys.exit(main())
