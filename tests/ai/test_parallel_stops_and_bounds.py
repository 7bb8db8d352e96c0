"""Issue #22 items 6-7 (arena pools stop at once; deal files read bounded) and issue #19
item 4 (any concurrent.futures.Executor, the Ray backend)."""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

import gongzhu
from gongzhu import GongzhuError, Limit, RuleSet, arena
from gongzhu.ai.arena import ArenaError, load_deals, save_deals
from gongzhu.ai.parallel import BotTable, run_tasks, simulate
from gongzhu.cards import parse_cards
from gongzhu.errors import SimulationError
from proc_tree import alive, descendants

# The build under test (src here; the installed, maybe compiled, package in CI) for subprocesses.
SRC = str(Path(gongzhu.__file__).resolve().parents[1])
MRIF = RuleSet(pig_with_all_hearts="unchanged", exposable="")
HAS_PROC = os.path.isdir("/proc") and sys.platform == "linux"


# -- item 6 -----------------------------------------------------------------------------


@pytest.mark.skipif(not HAS_PROC, reason="needs /proc")
def test_item_6_gongzhu_arena_workers_stops_within_two_seconds_of_ctrl_c() -> None:
    # Before: "interrupted" 42-60 s after Ctrl-C.
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    args = ["arena", "search", "rule-of-thumb", "--workers", "2", "--deals", "48",
            "--limit", "simulations=200", "--seed", "1", "--quiet"]  # fmt: skip
    code = (
        "import signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from gongzhu.cli import main\n"
        f"sys.exit(main({args!r}))\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 30
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            workers = descendants(proc.pid)
        assert len(workers) >= 2, "the workers did not start"
        time.sleep(1.0)  # let them get busy with their games
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        proc.wait(timeout=60)
        elapsed = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert elapsed < 2.0, f"took {elapsed:.2f}s after SIGINT"
    time.sleep(0.2)
    assert not [pid for pid in workers if alive(pid)]


def test_item_6_a_raising_progress_callback_stops_arena_with_workers_at_once() -> None:
    # Before: the error came back 30-40 s later, after every queued game.
    raised: list[float] = []

    def progress(done: int, total: int, mean: float, se: float) -> None:
        raised.append(time.monotonic())
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        arena("search", "rule-of-thumb", deals=48, rules=MRIF, seed=1, workers=2,
              limit=Limit(simulations=60), progress=progress)  # fmt: skip
    assert time.monotonic() - raised[0] < 2.0
    time.sleep(0.2)
    assert not multiprocessing.active_children()


def test_item_6_a_raising_progress_callback_stops_simulate_with_workers_at_once() -> None:
    raised: list[float] = []

    def progress(done: int, total: int) -> None:
        raised.append(time.monotonic())
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        simulate(1_600, seed=1, workers=2, progress=progress)
    assert time.monotonic() - raised[0] < 2.0
    time.sleep(0.2)
    assert not multiprocessing.active_children()


def test_item_6_run_tasks_cancels_what_a_callers_executor_has_not_started() -> None:
    started: list[int] = []

    def task(k: int) -> int:
        started.append(k)
        time.sleep(0.05)
        return k

    def finished(k: int, result: int) -> None:
        raise KeyError(k)

    with ThreadPoolExecutor(1) as pool, pytest.raises(KeyError):
        run_tasks(task, [(k,) for k in range(200)], finished, executor=pool)
    assert len(started) < 10


# -- item 7 -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/dev/zero", "/proc/self/status"])
def test_item_7_a_deal_file_that_stat_calls_empty_is_read_bounded(path: str) -> None:
    if not os.path.exists(path):
        pytest.skip(f"no {path}")
    t0 = time.monotonic()
    with pytest.raises(ArenaError):
        load_deals(path)
    assert time.monotonic() - t0 < 5


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000, '{"a":' * 50_000, '{"format": "gongzhu-deals", "format": "x"}', "NaN"],
)
def test_item_7_nesting_duplicate_keys_and_nan_are_arena_errors(tmp_path: Path, text: str) -> None:
    f = tmp_path / "deals.json"
    f.write_text(text)
    with pytest.raises(ArenaError, match="not a JSON deal file"):
        load_deals(f)


def test_item_7_the_cli_refuses_dev_zero_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from gongzhu.cli import main

    assert main(["arena", "random", "random", "--deal-file", "/dev/zero", "--quiet"]) == 2
    assert "deal files are at most" in capsys.readouterr().err


def test_item_7_a_good_deal_file_still_reads(tmp_path: Path) -> None:
    hands = [[parse_cards(h) for h in d] for d in [["2C 3C", "4C 5C", "6C 7C", "8C 9C"]]]
    f = tmp_path / "d.json"
    save_deals(f, hands)
    with pytest.raises(ArenaError, match="deal 0"):  # a 2-card deal is no deal; read, then checked
        load_deals(f)


# -- issue 19 item 4: executors -------------------------------------------------------------


def test_issue19_item_4_arena_is_the_same_for_every_executor_and_worker_count() -> None:
    def play(**kw: object) -> object:
        return arena("search", "rule-of-thumb", deals=6, rules=MRIF, seed=3,
                     limit=Limit(simulations=12), **kw)  # type: ignore[arg-type]  # fmt: skip

    local = play()
    assert play(workers=2) == local
    with ThreadPoolExecutor(3) as pool:
        assert play(executor=pool) == local
    with ProcessPoolExecutor(2) as pool:
        assert play(executor=pool, workers=2) == local
    assert local.moves[0] > 0


def test_issue19_item_4_simulate_is_the_same_for_every_executor_and_worker_count() -> None:
    table = BotTable(("random", "rule-of-thumb", "random", "rule-of-thumb"))
    local = simulate(24, rules=MRIF, strategies=table, seed=9)
    assert simulate(24, rules=MRIF, strategies=table, seed=9, workers=2) == local
    with ThreadPoolExecutor(2) as pool:
        assert simulate(24, rules=MRIF, strategies=table, seed=9, executor=pool) == local
    with ProcessPoolExecutor(2) as pool:
        assert simulate(24, rules=MRIF, strategies=table, seed=9, executor=pool, workers=2) == local


@pytest.mark.parametrize("bad", ["ray", 3, object()])
def test_issue19_item_4_an_executor_that_is_not_one_is_a_typed_error(bad: object) -> None:
    with pytest.raises(ArenaError, match="Executor"):
        arena("random", "random", deals=1, seed=1, executor=bad)  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match="Executor"):
        simulate(1, executor=bad)  # type: ignore[arg-type]


def test_issue19_item_4_without_ray_the_ray_backend_is_a_typed_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gongzhu.ai.ray_executor import RayExecutor, RayUnavailableError, executor_for

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    hint = r'pip install "\.\[ray\]" from a checkout of gongzhu'
    with pytest.raises(RayUnavailableError, match=hint):
        RayExecutor()
    with pytest.raises(GongzhuError):
        executor_for("ray")
    assert executor_for("local") is None
    with pytest.raises(SimulationError):
        executor_for("dask")


def test_issue19_item_4_import_gongzhu_never_imports_ray() -> None:
    code = (
        "import sys, gongzhu, gongzhu.ai.arena, gongzhu.parallel, gongzhu.cli\n"
        "import gongzhu.ai.ray_executor\n"
        "assert 'ray' not in sys.modules, 'ray imported'\n"
    )
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=60)  # fmt: skip
    assert out.returncode == 0, out.stderr


_RAY_CHECK = """
import contextlib, io, ray
from gongzhu import RuleSet
from gongzhu.ai.arena import arena
from gongzhu.ai.ray_executor import RayExecutor
from gongzhu.ai.search import Limit
from gongzhu.cli import main
from gongzhu.parallel import BotTable, simulate

MRIF = RuleSet(pig_with_all_hearts="unchanged", exposable="")
ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
try:
    executor = RayExecutor()
    kw = {"deals": 8, "rules": MRIF, "seed": 5, "limit": Limit(simulations=10)}
    # `gongzhu arena search greedy --backend ray` in small: the same figures as here.
    local = arena("search", "greedy", **kw)
    on_ray = arena("search", "greedy", executor=executor, workers=2, **kw)
    assert on_ray == local, (on_ray, local)
    table = BotTable.uniform("rule-of-thumb", 4)
    assert simulate(16, rules=MRIF, strategies=table, seed=2, executor=executor) == simulate(
        16, rules=MRIF, strategies=table, seed=2
    )
    # The CLI's --backend ray uses the Ray already running here.
    args = ["arena", "search", "greedy", "--rules", "mrif", "--deals", "8", "--seed",
            "5", "--limit", "simulations=10", "--quiet"]
    texts = []
    for extra in ([], ["--backend", "ray", "--workers", "2"]):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main([*args, *extra]) == 0
        texts.append(out.getvalue().splitlines()[0])
    assert texts[0] == texts[1], texts
finally:
    ray.shutdown()
print("ray ok")
"""


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="the ray extra")
def test_issue19_item_4_a_local_ray_gives_exactly_the_local_result() -> None:
    # In a process of its own: Ray changes a process's signal handling and threads,
    # which the other tests of this worker (pools that fork, time limits) must not meet.
    out = subprocess.run([sys.executable, "-c", _RAY_CHECK], capture_output=True, text=True,
                         timeout=240)  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    assert "ray ok" in out.stdout


# -- found by tools/fuzz_surfaces.py and tools/fuzz_public_api.py ---------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: run_tasks(object(), [(1,)], print),  # type: ignore[arg-type]
        lambda: run_tasks(pow, RuleSet(), print),  # type: ignore[arg-type]
        lambda: run_tasks(pow, [1, 2], print),  # type: ignore[list-item]
        lambda: run_tasks(pow, [(1, 2)], print, workers=True),
        lambda: run_tasks(pow, [(1, 2)], print, executor=3),  # type: ignore[arg-type]
    ],
)
def test_fuzz_find_run_tasks_checks_its_arguments(call: object) -> None:
    with pytest.raises(SimulationError):
        call()  # type: ignore[operator]


@pytest.mark.parametrize("path", [True, "x" * 100_000, "bad\ud800name", "nul\x00name", 3])
def test_fuzz_find_deal_file_paths_are_typed(path: object) -> None:
    with pytest.raises(ArenaError) as info:
        load_deals(path)  # type: ignore[arg-type]
    assert len(str(info.value)) < 400


@pytest.mark.parametrize("hands", [[["QS"] * 4], [object()], "QS", [[1, 2, 3, 4]], 5, [[]]])
def test_fuzz_find_save_deals_checks_its_hands(tmp_path: Path, hands: object) -> None:
    with pytest.raises(ArenaError):
        save_deals(tmp_path / "d.json", hands)  # type: ignore[arg-type]


def test_fuzz_find_load_deals_checks_its_rules() -> None:
    from gongzhu.ai.arena import DEAL_FILE

    with pytest.raises(ArenaError, match="unknown preset 'AH KH'; known: classic"):
        load_deals(DEAL_FILE, rules="AH KH")  # text: a preset's name, and no such preset
    with pytest.raises(ArenaError, match="RuleSet"):
        load_deals(DEAL_FILE, rules=["AH KH"])  # type: ignore[arg-type]
