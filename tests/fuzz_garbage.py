"""Hostile values shared by the ``test_fuzz_*`` modules (not a test module itself).

The brief of the reliability issue: every entry point that takes outside data
must either accept it or raise a :class:`~gongzhu.GongzhuError` subclass —
never another exception, never a hang, never time or memory out of proportion
to the input. These strategies are the "outside data".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final, TypeVar

from hypothesis import strategies as st

from gongzhu import DECK, Card, CardSet, Rank, Suit
from gongzhu.errors import GongzhuError

T = TypeVar("T")

# Ints whose decimal form exceeds CPython's 4300-digit str() limit: an error
# message that repr()s one of them raises ValueError instead of the library's error.
HUGE: Final = 10**5000

#: Text made of the pieces of the card notation plus near misses, so the fuzzer
#: reaches the parser's interesting branches far more often than random Unicode.
NOTATION_PIECES: Final = (
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K", "A",
    "t", "j", "q", "k", "a", "1", "0", "11", "01",
    "C", "D", "H", "S", "c", "d", "h", "s", "♣", "♦", "♥", "♠", "♧", "♢", "♡", "♤",
    "X", "Z", "♔", "\u017f", "\u0131", "ß", "ﬀ", "Ｑ", "１", "\u212a",
    " ", ",", ", ", "\t", "\n", "\x00", "\u3000", "\u00a0", "\u200b", "\r\n",
)  # fmt: skip

notation_text = st.lists(st.sampled_from(NOTATION_PIECES), max_size=12).map("".join)
any_text = st.one_of(
    notation_text,
    st.text(max_size=30),
    st.text(st.characters(codec="utf-8"), max_size=30),
    st.text(st.characters(categories=["Cc", "Cf", "Zs", "Zl", "Zp"]), max_size=10),
)

# Hypothesis repr()s sampled values, so the huge ones are built by a map.
huge_ints = st.sampled_from([5000, -5000, 4400]).map(lambda e: 10 ** abs(e) * (1 if e > 0 else -1))
big_ints = st.one_of(st.sampled_from([2**52, 2**63, -(2**63), 2**64 + 1, 10**30]), huge_ints)
any_int = st.one_of(st.integers(), big_ints, st.integers(-3, 60))

scalars = st.one_of(
    st.none(),
    st.booleans(),
    any_int,
    st.floats(allow_nan=True, allow_infinity=True),
    st.complex_numbers(),
    st.binary(max_size=8),
    any_text,
    st.sampled_from(
        [
            object(),
            Suit.HEARTS,
            Rank.QUEEN,
            Card("QS"),
            CardSet(),
            DECK,
            range(10**12),
            ...,
            NotImplemented,
            type,
            int,
            str,
        ]
    ),
)

#: Anything: scalars, and lists/tuples/dicts/sets of anything, nested.
garbage = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=5).map(tuple),
        st.dictionaries(st.one_of(any_text, any_int, st.none()), inner, max_size=4),
        st.frozensets(st.one_of(any_int, any_text), max_size=4),
    ),
    max_leaves=12,
)

#: Things a seat argument could be given: mostly plausible, sometimes hostile.
seats = st.one_of(
    st.integers(-2, 6),
    st.sampled_from([True, False, None, 1.0, 0.0, "0", "1", b"1", 2**64]),
    huge_ints,
    garbage,
)


def outcome(action: Callable[[], T], *errors: type[GongzhuError]) -> T | GongzhuError:
    """Run ``action``; return its result or the library error it raised.

    Any exception that is not one of ``errors`` (default: any GongzhuError)
    propagates, so Hypothesis reports it and shrinks the input. The error's
    message must be short: it is shown to users and must not echo megabytes.
    """
    allowed = errors or (GongzhuError,)
    try:
        return action()
    except allowed as exc:
        error = exc
    text = str(error)
    assert len(text) < 600, f"{type(error).__name__} message of {len(text)} chars"
    return error


def timed(action: Callable[[], Any], limit: float = 1.0) -> Any:
    """Run ``action`` (errors as in :func:`outcome`); assert it took under ``limit`` seconds."""
    start = time.perf_counter()
    result = outcome(action)
    elapsed = time.perf_counter() - start
    assert elapsed < limit, f"took {elapsed:.2f}s"
    return result
