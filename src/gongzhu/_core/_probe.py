"""Build-pipeline probe (temporary): proves that the mypyc build compiles ``_core``.

Removed once the engine core lands in this package.
"""

from __future__ import annotations

from typing import Final

_POP8: Final[tuple[int, ...]] = tuple(bin(i).count("1") for i in range(256))


def popcount(mask: int) -> int:
    """The number of set bits of a non-negative int (a table: mypyc has no fast bit_count)."""
    n = 0
    while mask:
        n += _POP8[mask & 255]
        mask >>= 8
    return n
