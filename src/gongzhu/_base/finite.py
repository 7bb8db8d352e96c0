"""The one check of a finite number a caller gives (an environment's reward, say).

A Python or NumPy real number whose float is finite; bools, text, NaN, infinities and
ints past a float's range (``float(10**400)`` raises) are refused with the caller's own
error class, built from one message, as :mod:`gongzhu._base.seeds` refuses a seed.

>>> finite_float(-1000, error=ValueError, what="illegal_reward")
-1000.0
>>> finite_float(10**400, error=ValueError, what="illegal_reward")
Traceback (most recent call last):
ValueError: illegal_reward must be a finite number, got <int of 1329 bits>
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable

from gongzhu._base.text import brief

__all__ = ["finite_float"]


def finite_float(value: object, *, error: Callable[[str], BaseException], what: str) -> float:
    """``value`` as a finite float, or ``error(message)`` raised (see the module)."""
    number = None
    if not isinstance(value, bool) and isinstance(value, numbers.Real):
        try:
            number = float(value)
        except (OverflowError, ValueError):  # an int past a float's range
            number = None
    if number is None or not math.isfinite(number):
        raise error(f"{what} must be a finite number, got {brief(value)}")
    return number
