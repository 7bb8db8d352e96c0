"""``run(coro)``: :func:`asyncio.run` on a thread of its own.

The browser tests keep one sync Playwright for the session (tests/web/test_web_browser.py),
and a sync Playwright leaves its event loop marked as running on the main thread; an
``asyncio.run`` there afterwards, in the same xdist worker, fails with "cannot be called
from a running event loop". A coroutine a test runs goes through here instead.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T], timeout: float = 300.0) -> T:
    result: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coro))
        except BaseException as exc:  # handed to the caller's thread
            errors.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"the coroutine ran past {timeout} s")
    if errors:
        raise errors[0]
    return result[0]
