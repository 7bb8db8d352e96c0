"""Frozen means frozen: a helper that makes re-running ``__init__`` on a built object fail.

``attrs.frozen`` blocks ``obj.x = …`` but its generated ``__init__`` writes
with ``object.__setattr__``, so ``obj.__init__(…)`` would rebuild an object in
place, under everyone holding it (#11 item 9). attrs calls
``__attrs_pre_init__`` first thing in ``__init__``; the hook made here refuses
when the object already has its first field. Use it as::

    @attrs.frozen
    class Thing:
        __attrs_pre_init__ = _init_once("first_field")
        first_field: int
"""

from __future__ import annotations

from collections.abc import Callable

__all__: list[str] = []


def _init_once(first_field: str) -> Callable[[object], None]:
    """An ``__attrs_pre_init__`` refusing a second ``__init__`` (``first_field`` is set by then)."""

    def __attrs_pre_init__(self: object) -> None:
        try:
            object.__getattribute__(self, first_field)
        except AttributeError:  # a slot not yet set: this is the first __init__
            return
        # AttributeError, as for any other write to a frozen object.
        raise AttributeError(f"{type(self).__name__} is immutable: it cannot be initialised again")

    return __attrs_pre_init__
