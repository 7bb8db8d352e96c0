"""Seeds for :func:`gongzhu.deal`: ints of ≤ 80 digits and valid text deal; others: DealError.

A seed is hashed by ``random.Random`` from its UTF-8 bytes, so text with a lone
surrogate (which JSON escapes such as ``"\\ud800"`` can spell) has no seed value;
``deal`` refuses it like any other unusable seed (docs/api_design.rst, "Errors": only
GongzhuError subclasses reach users).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gongzhu import DealError, deal


@pytest.mark.parametrize("seed", ["\ud800", "a\udfffb", "\udc00" * 3])
def test_a_text_seed_with_a_lone_surrogate_is_a_deal_error(seed: str) -> None:
    with pytest.raises(DealError, match="lone surrogate"):
        deal(seed=seed)


@pytest.mark.parametrize("seed", [1.5, b"abc", True, [1]])
def test_a_seed_that_is_neither_int_nor_text_is_a_deal_error(seed: Any) -> None:
    with pytest.raises(DealError, match="seed must be an int or text"):
        deal(seed=seed)


@given(st.one_of(st.integers(), st.text()))
def test_every_int_or_text_seed_deals_the_same_hands_twice(seed: int | str) -> None:
    try:
        first = deal(seed=seed)
    except DealError:
        # Refused: ints of more than 80 digits, text beyond 1000 characters (#11: every
        # accepted seed can be recorded) and text that is not valid Unicode.
        if isinstance(seed, int):
            assert abs(seed) >= 10**80
        elif len(seed) <= 1000:
            with pytest.raises(UnicodeEncodeError):
                seed.encode("utf-8")
        return
    assert first.hands == deal(seed=seed).hands
    assert sum(len(h) for h in first.hands) == 52
