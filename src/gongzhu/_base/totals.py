"""Running match totals given to a score sheet (``running_before``), checked in one place.

The sheets of :mod:`gongzhu.scoring` and the pictures of :mod:`gongzhu.svg` both take
the totals before a deal; both check them here.

>>> running_totals(None, 3)
(0, 0, 0)
>>> running_totals([-100, 40], 2)
(-100, 40)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import Final

from gongzhu._base.text import brief
from gongzhu.errors import DealError

__all__ = ["RUNNING_LIMIT", "running_total", "running_totals"]

RUNNING_LIMIT: Final = 10**15
"""A running total beyond this is no real match (and ``str()`` of a 4300-digit int raises)."""


def running_total(value: object) -> int:
    """One running total: an int of at most 15 digits, or a :class:`~gongzhu.DealError`."""
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or not -RUNNING_LIMIT <= int(value) <= RUNNING_LIMIT
    ):
        raise DealError(f"a running total must be an int of at most 15 digits, got {brief(value)}")
    return int(value)


def running_totals(value: object, seats: int) -> tuple[int, ...]:
    """``running_before`` of a sheet checked: ``None`` (zeros) or one bounded int per seat."""
    if value is None:
        return (0,) * seats
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise DealError(f"running_before must be a sequence of {seats} totals, got {brief(value)}")
    # Read at most one more than needed: a len() may lie (or be huge).
    totals = tuple(running_total(v) for v in islice(value, seats + 1))
    if len(totals) != seats:
        raise DealError(f"running_before needs {seats} totals, got another number")
    return totals
