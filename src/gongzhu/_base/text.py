"""Quoting outside data in a message: :func:`brief`, short and never raising.

Every error message that repeats a caller's input quotes it through here, so that a
hostile value still gets its typed error instead of a failure while the message is built.

>>> brief("QS")
"'QS'"
>>> brief(2**100)
'<int of 101 bits>'
>>> len(brief("x" * 10_000))
60
"""

from __future__ import annotations

from typing import Final

__all__ = ["BRIEF_LIMIT", "brief"]

BRIEF_LIMIT: Final = 60
"""The most characters :func:`brief` returns."""


def brief(value: object) -> str:
    """``repr(value)`` for an error message: short, and never raising.

    Messages quote outside data, which may be hostile: an int past CPython's
    4300-digit ``str()`` limit would raise ``ValueError`` while the message is
    built, and a megabyte of text would be echoed back whole.
    """
    try:
        if isinstance(value, int) and value.bit_length() > 64:
            text = f"<int of {value.bit_length()} bits>"
        else:
            text = repr(value)
    except Exception:  # a hostile __repr__, deep nesting, huge ints inside containers
        text = f"<{type(value).__name__}>"
    return text if len(text) <= BRIEF_LIMIT else text[: BRIEF_LIMIT - 1] + "…"
