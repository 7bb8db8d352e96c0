"""The one check of a number a caller passes as a reward: a finite float.

Shared by the adapters and the batched engine's Gymnasium env, which both take an
``illegal_reward`` from their caller.

>>> finite_number(2, "illegal_reward")
2.0
>>> finite_number(float("nan"), "illegal_reward")
Traceback (most recent call last):
gongzhu.errors.ProtocolError: illegal_reward must be a finite number, got nan
"""

from __future__ import annotations

import math
import numbers

from gongzhu.errors import ProtocolError, brief

__all__ = ["finite_number"]


def finite_number(value: object, name: str) -> float:
    """A Python or NumPy number that is a finite float (an int too large for a float, NaN,
    text and bools are a :class:`~gongzhu.errors.ProtocolError`)."""
    number = None
    if not isinstance(value, bool) and isinstance(value, numbers.Real):
        try:
            number = float(value)
        except (OverflowError, ValueError):  # an int past a float's range
            number = None
    if number is None or not math.isfinite(number):
        raise ProtocolError(f"{name} must be a finite number, got {brief(value)}")
    return number
