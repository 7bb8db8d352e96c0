"""The one way every pool of the library runs its tasks: :func:`run_tasks`.

:func:`gongzhu.parallel.simulate` and :func:`gongzhu.arena` share it: in this
process, on a process pool of its own (whose workers ignore SIGINT and are
terminated at once on any error), or on a caller's
:class:`concurrent.futures.Executor`.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from gongzhu._base.text import brief as _brief
from gongzhu.errors import SimulationError

__all__ = ["check_executor", "run_tasks"]


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (it terminates the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: cancel what has not started, kill what runs, reap the processes."""
    # The executor has no public way to stop running work before Python 3.14
    # (terminate_workers); before that, its process table is the way.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    terminate_workers = getattr(pool, "terminate_workers", None)
    if callable(terminate_workers):
        terminate_workers()
    for process in processes:
        # SIGKILL, not SIGTERM: a worker may have inherited a SIGTERM handler from the
        # parent (Ray installs one) and live on blocked on the pool's queue lock, and
        # shutdown() would then wait for it for ever (seen once in the test suite).
        process.kill()
    pool.shutdown(wait=True, cancel_futures=True)
    for process in processes:
        process.join(timeout=1)


_R = TypeVar("_R")


def check_executor(executor: object, error: type[Exception]) -> None:
    if executor is not None and not isinstance(executor, Executor):
        raise error(
            f"executor must be a concurrent.futures.Executor, got {type(executor).__name__}"
        )


def run_tasks(
    fn: Callable[..., _R],
    arguments: Sequence[tuple[Any, ...]],
    finished: Callable[[int, _R], None],
    *,
    workers: int = 1,
    executor: Executor | None = None,
) -> None:
    """Run ``fn(*arguments[k])`` for every ``k``; ``finished(k, result)`` here as each ends.

    The one way every pool of the library runs its tasks (:func:`simulate` and
    :func:`gongzhu.arena`). ``executor=None`` and ``workers=1``: in this
    process, in order; ``executor=None`` and more workers: a process pool of
    its own whose workers ignore SIGINT. Any exception (Ctrl-C, ``finished``
    raising, a task's error) stops the run at once: an own pool's processes are
    terminated and reaped; on a caller's ``executor`` every future not yet done
    is cancelled (the caller owns the executor and shuts it down).

    >>> out = []
    >>> run_tasks(pow, [(2, 3), (3, 2)], lambda k, r: out.append((k, r)))
    >>> out
    [(0, 8), (1, 9)]
    """
    if not callable(fn) or not callable(finished):
        raise SimulationError("run_tasks needs a callable task and a callable finished")
    if isinstance(arguments, (str, bytes)) or not isinstance(arguments, Sequence):
        raise SimulationError(f"arguments must be a sequence, got {type(arguments).__name__}")
    if not all(isinstance(args, tuple) for args in arguments):
        raise SimulationError("arguments must hold one tuple of arguments per task")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 1024:
        raise SimulationError(f"workers must be an int 1-1024, got {_brief(workers)}")
    check_executor(executor, SimulationError)
    if executor is None and workers == 1:
        for k, args in enumerate(arguments):
            finished(k, fn(*args))
        return
    own = executor is None
    pool: Executor = (
        ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
        if executor is None
        else executor
    )
    pending: dict[Future[_R], int] = {}
    try:
        for k, args in enumerate(arguments):
            pending[pool.submit(fn, *args)] = k
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                k = pending.pop(future)
                finished(k, future.result())
    except BaseException:
        # Ctrl-C, a raising callback or a task's error: do not wait for the tasks
        # still running (#11 item 14, #22 item 6).
        if isinstance(pool, ProcessPoolExecutor) and own:
            _terminate(pool)
        else:
            for future in pending:
                future.cancel()
        raise
    if own:
        pool.shutdown()
