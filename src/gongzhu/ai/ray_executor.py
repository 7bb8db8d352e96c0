"""Arenas and simulations on a Ray cluster: :class:`RayExecutor` (the ``ray`` extra).

A :class:`concurrent.futures.Executor` whose tasks are Ray tasks, so
``gongzhu.arena(..., executor=RayExecutor())`` and ``simulate(...,
executor=...)`` run on Ray with exactly the result of a local run (every task
is seeded from its deal). The CLI's ``--backend ray`` makes one. Ray is
imported when an executor is made, never by ``import gongzhu``.

Where it runs: on the cluster that ``address`` (or the ``RAY_ADDRESS``
environment variable) names, else on a local Ray started here (``num_cpus``
CPUs; its dashboard off). The workers must be able to import ``gongzhu`` (and
any ``module:factory`` bot): install it on the cluster or pass a Ray
``runtime_env``. ``shutdown`` cancels what is still running (``cancel_futures``)
and stops the local Ray this executor started.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

from gongzhu.errors import SimulationError

__all__ = ["RayExecutor", "RayUnavailableError", "executor_for"]

_R = TypeVar("_R")


class RayUnavailableError(SimulationError, ImportError):
    """The Ray backend was asked for, but Ray is not installed (``pip install ".[ray]"`` from a
    checkout of gongzhu)."""


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailableError(
            'the Ray backend needs Ray: pip install ".[ray]" from a checkout of gongzhu'
            " (Python < 3.13);"
            f" importing it failed: {exc}"
        ) from None
    return ray


class _RayFuture(Future):  # type: ignore[type-arg]
    """A future for one Ray task; cancelling it cancels the task (and kills its worker)."""

    def __init__(self, ray: Any, ref: Any) -> None:
        super().__init__()
        self._ray = ray
        self._ref = ref

    def cancel(self) -> bool:
        if self.done():
            return False
        # It may have finished already, or the cluster be gone: nothing to stop then.
        with contextlib.suppress(Exception):
            self._ray.cancel(self._ref, force=True)
        return super().cancel()


class RayExecutor(Executor):
    """Run ``submit``-ted functions as Ray tasks (see the module doc).

    ``address``: a Ray cluster (``"ray://host:10001"``, ``"auto"``); default the
    ``RAY_ADDRESS`` environment variable, else a local Ray of ``num_cpus`` CPUs
    (default: all). A Ray already initialised in this process is used as it is.
    """

    def __init__(
        self, address: str | None = None, *, num_cpus: int | None = None, **init: Any
    ) -> None:
        if address is not None and not isinstance(address, str):
            raise SimulationError(f"address must be text, got {type(address).__name__}")
        if num_cpus is not None and (
            isinstance(num_cpus, bool) or not isinstance(num_cpus, int) or num_cpus < 1
        ):
            raise SimulationError(f"num_cpus must be an int >= 1, got {num_cpus!r}")
        ray = _import_ray()
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            address = address or os.environ.get("RAY_ADDRESS") or None
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address is None and num_cpus is not None:
                options["num_cpus"] = num_cpus
            options.update(init)
            ray.init(address=address, **options)
            self._started = True
        self._remote: dict[Callable[..., Any], Any] = {}
        self._pending: set[_RayFuture] = set()
        self._closed = False

    def submit(self, fn: Callable[..., _R], /, *args: Any, **kwargs: Any) -> Future[_R]:
        if self._closed:
            raise RuntimeError("cannot schedule new futures after shutdown")
        remote = self._remote.get(fn)
        if remote is None:
            # No retries: a task that fails fails the run (as in a process pool).
            remote = self._remote[fn] = self._ray.remote(max_retries=0)(fn)
        ref = remote.remote(*args, **kwargs)
        future = _RayFuture(self._ray, ref)
        self._pending.add(future)

        def settle(inner: Future[Any]) -> None:
            self._pending.discard(future)
            if future.done():
                return  # cancelled meanwhile
            try:
                future.set_result(inner.result())
            except BaseException as exc:
                if not future.done():
                    future.set_exception(_unwrap(exc))

        ref.future().add_done_callback(settle)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._closed = True
        if cancel_futures:
            for future in list(self._pending):
                future.cancel()
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()
            self._started = False


def _unwrap(exc: BaseException) -> BaseException:
    """A task's own exception rather than Ray's wrapper, when Ray kept it."""
    cause = getattr(exc, "cause", None)
    if isinstance(cause, BaseException):
        return cause
    return exc


def executor_for(backend: str, workers: int = 0) -> RayExecutor | None:
    """The executor for a CLI ``--backend``: ``"local"`` (None: processes here) or ``"ray"``."""
    if backend == "local":
        return None
    if backend == "ray":
        return RayExecutor(num_cpus=workers or None)
    raise SimulationError(f"backend must be 'local' or 'ray', got {backend!r}")
