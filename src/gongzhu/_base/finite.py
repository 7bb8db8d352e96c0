"""The one check of a finite number a caller gives (an environment's reward, say).

A Python or NumPy real number whose float is finite; bools, text, NaN, infinities and
ints past a float's range (``float(10**400)`` raises) are refused with the caller's own
error class, built from one message, as :mod:`gongzhu._base.seeds` refuses a seed.

>>> finite_float(-1000, error=ValueError, what="illegal_reward")
-1000.0
>>> finite_float(10**400, error=ValueError, what="illegal_reward")
Traceback (most recent call last):
ValueError: illegal_reward must be a finite number, got <int of 1329 bits>
>>> finite_float("x", error=ValueError, type_error=TypeError, what="illegal_reward")
Traceback (most recent call last):
TypeError: illegal_reward must be a finite number, got 'x'
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable

from gongzhu._base.text import brief

__all__ = ["finite_float"]


def finite_float(
    value: object,
    *,
    error: Callable[[str], BaseException],
    type_error: Callable[[str], BaseException] | None = None,
    what: str,
) -> float:
    """``value`` as a finite float, or ``error(message)`` raised (see the module).

    ``type_error`` (default: ``error``) builds the error for a value that is no real
    number at all (text, a bool, None: the caller's
    :class:`~gongzhu.errors.ArgumentTypeError`), as :func:`~gongzhu._base.seeds.check_seed`
    takes it.
    """
    message = f"{what} must be a finite number, got {brief(value)}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise (type_error or error)(message)
    try:
        number = float(value)
    except (OverflowError, ValueError):  # an int past a float's range
        raise error(message) from None
    if not math.isfinite(number):
        raise error(message)
    return number
