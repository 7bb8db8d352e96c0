"""The old positional spelling of a parameter that became keyword-only, for one minor version.

Issue 28 made ``rules`` keyword-only in every public signature (``deal(rules=...)``,
``score(captures, rules=...)``). :func:`keyword_only` keeps a call that still passes it
by position working until the next minor version, with a :class:`DeprecationWarning`
naming the new spelling; the decorated function's signature (and so mypy, an editor
and the reference) shows only the new one.

>>> @keyword_only("rules")
... def score(captures, *, rules="default"):
...     return captures, rules
>>> score("QS", rules="online")
('QS', 'online')
>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     score("QS", "online")
('QS', 'online')
>>> print(caught[0].message)
score(): rules by position is deprecated (removed in 0.3): use score(..., rules=...)
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["keyword_only"]

F = TypeVar("F", bound=Callable[..., Any])

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def keyword_only(*old: str, removed: str = "0.3") -> Callable[[F], F]:
    """Let ``old``, keyword-only parameters that used to follow the positional ones (in
    their old order), still be passed by position, with a DeprecationWarning."""

    def decorate(func: F) -> F:
        params = inspect.signature(func).parameters.values()
        positional = sum(1 for p in params if p.kind in _POSITIONAL)
        named = {p.name for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}
        if not set(old) <= named:
            raise TypeError(f"{func.__qualname__}: {sorted(set(old) - named)} not keyword-only")
        name = func.__qualname__
        most = positional + len(old)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if len(args) > positional:
                if len(args) > most:
                    raise TypeError(
                        f"{name}() takes at most {most} positional arguments ({len(args)} given)"
                    )
                moved = old[: len(args) - positional]
                for key, value in zip(moved, args[positional:], strict=False):
                    if key in kwargs:
                        raise TypeError(f"{name}() got multiple values for argument {key!r}")
                    kwargs[key] = value
                spelled = ", ".join(f"{key}=..." for key in moved)
                warnings.warn(
                    f"{name}(): {', '.join(moved)} by position is deprecated"
                    f" (removed in {removed}): use {name}(..., {spelled})",
                    DeprecationWarning,
                    stacklevel=2,
                )
                args = args[:positional]
            return func(*args, **kwargs)

        return cast(F, wrapper)

    return decorate
