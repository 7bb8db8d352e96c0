"""The core's random generator, in one place: seeding, the step, and the random card. Private.

:func:`seed_state` turns any int into the state of a 32-bit xorshift generator
(Marsaglia 2003, shifts 13/17/5) through splitmix64; :func:`next_random` steps
it; :func:`random_card` is the random play for a draw: card number ``x % k`` (in
index order) of the ``k`` cards of a mask (:func:`~gongzhu._core.bits.nth_card`
by the select tables). All are plain int arithmetic with masks, so the
interpreted and the compiled builds draw the same numbers bit for bit, on every
platform.

Two hot loops repeat the step inline, on purpose (a call per card costs more
than the step): the all-random loop of :func:`gongzhu._core.policy.rollout` and
:func:`gongzhu._core.rollout._rollout_random` (which also selects its card
inline). They must stay equal to :func:`next_random` and :func:`random_card`;
``tests/round/test_round_rollout.py`` and the golden tests check the draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from gongzhu._core.bits import POP13, SEL6, SEL7, nth_card

if TYPE_CHECKING:  # annotations only (never evaluated): the pure build needs no mypy_extensions
    from mypy_extensions import i64

__all__ = ["M32", "next_random", "nth_card", "random_card", "seed_state"]

M32: Final = 0xFFFFFFFF
COMPILED: Final = not __file__.endswith(".py")  # this module is the mypyc-compiled one


M64: Final = 0xFFFFFFFFFFFFFFFF


def _mul32(a: i64, c: i64) -> i64:
    """``a * c mod 2**32`` for 32-bit ``a`` and ``c``, no intermediate above 2**49."""
    return ((a & 0xFFFF) * c + (((a >> 16) * c & 0xFFFF) << 16)) & M32


def _mul64(ah: i64, al: i64, ch: i64, cl: i64) -> tuple[i64, i64]:
    """``(ah:al) * (ch:cl) mod 2**64`` on 32-bit halves ``(high, low)``, no intermediate
    above 2**49: native i64 arithmetic in the compiled build (no int of 128 bits built
    per step), the same numbers interpreted."""
    p0: i64 = (al & 0xFFFF) * cl  # < 2**48
    p1: i64 = (al >> 16) * cl  # < 2**48
    t: i64 = p0 + ((p1 & 0xFFFF) << 16)
    lo: i64 = t & M32
    carry: i64 = (t >> 32) + (p1 >> 16)
    hi: i64 = (carry + _mul32(ah, cl) + _mul32(al, ch)) & M32
    return hi, lo


def _splitmix64(xh: i64, xl: i64) -> tuple[i64, i64]:
    """splitmix64 (Steele, Lea and Flood 2014) of the 64-bit ``(high, low)`` halves."""
    lo: i64 = xl + 0x7F4A7C15
    hi: i64 = (xh + 0x9E3779B9 + (lo >> 32)) & M32
    lo &= M32
    # z ^= z >> 30; z *= 0xBF58476D1CE4E5B9
    lo ^= ((hi << 2) | (lo >> 30)) & M32
    hi ^= hi >> 30
    hi, lo = _mul64(hi, lo, 0xBF58476D, 0x1CE4E5B9)
    # z ^= z >> 27; z *= 0x94D049BB133111EB
    lo ^= ((hi << 5) | (lo >> 27)) & M32
    hi ^= hi >> 27
    hi, lo = _mul64(hi, lo, 0x94D049BB, 0x133111EB)
    # z ^ (z >> 31)
    lo ^= ((hi << 1) | (lo >> 31)) & M32
    hi ^= hi >> 31
    return hi, lo


def seed_state(seed: int) -> int:
    """The generator state for an int ``seed`` (any size or sign; ``k`` and ``-k`` differ).

    splitmix64 over the seed's 64-bit words, low word first (the state starts at 0,
    or ``0x5EED`` for a negative seed), then the low 32 bits. Two ways to the same
    numbers: on 32-bit halves in native i64 arithmetic where this module is compiled
    (:func:`_seed_state_halves`: no 128-bit int built per step), with Python's own
    ints where it is interpreted (:func:`_seed_state_ints`: four times faster there);
    ``tests/round/test_round_rollout.py`` checks that the two agree, in both builds.
    """
    if COMPILED:
        return _seed_state_halves(seed)
    return _seed_state_ints(seed)


def _seed_state_halves(seed: int) -> int:
    xh: i64 = 0
    xl: i64 = 0 if seed >= 0 else 0x5EED
    v = seed if seed >= 0 else -seed
    while True:
        w = v & M64
        xh ^= w >> 32
        xl ^= w & M32
        xh, xl = _splitmix64(xh, xl)
        v >>= 64
        if not v:
            break
    return xl if xl else 0x2545F491


def _splitmix64_int(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def _seed_state_ints(seed: int) -> int:
    x = 0 if seed >= 0 else 0x5EED
    v = seed if seed >= 0 else -seed
    x = _splitmix64_int(x ^ (v & M64))
    v >>= 64
    while v:
        x = _splitmix64_int(x ^ (v & M64))
        v >>= 64
    x &= M32
    return x if x else 0x2545F491


def next_random(x: int) -> int:
    """The next state (and draw) of the 32-bit xorshift generator; never 0 from non-zero."""
    x ^= (x << 13) & M32
    x ^= x >> 17
    x ^= (x << 5) & M32
    return x


def random_card(mask: int, x: int) -> int:
    """The random play for draw ``x`` among the non-empty ``mask``: card number
    ``x % k`` of its ``k`` cards, in index order (:func:`~gongzhu._core.bits.nth_card`,
    by the select tables; native i64 locals in the compiled build)."""
    m: i64 = mask
    p0: i64 = m & 0x1FFF
    p1: i64 = m >> 13 & 0x1FFF
    p2: i64 = m >> 26 & 0x1FFF
    p3: i64 = m >> 39 & 0x1FFF
    c0: i64 = POP13[p0]
    c1: i64 = POP13[p1]
    c2: i64 = POP13[p2]
    draw: i64 = x
    k: i64 = draw % (c0 + c1 + c2 + POP13[p3])
    part: i64 = p3
    base: i64 = 39
    if k < c0:
        part = p0
        base = 0
    elif k < c0 + c1:
        k -= c0
        part = p1
        base = 13
    elif k < c0 + c1 + c2:
        k -= c0 + c1
        part = p2
        base = 26
    else:
        k -= c0 + c1 + c2
    lo: i64 = part & 0x7F
    c0 = POP13[lo]
    if k < c0:
        return base + SEL7[k << 7 | lo]
    return base + SEL6[(k - c0) << 6 | part >> 7]
