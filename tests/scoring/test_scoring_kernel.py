"""The typed scoring kernel ``gongzhu._core.scoring`` (compiled with mypyc; issue #10)."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from gongzhu import PIG, SHEEP, TRANSFORMER, Card, RuleSet, score
from gongzhu._core import scoring as kernel
from gongzhu.cards import Suit


def test_the_kernel_imports_nothing_from_the_public_modules() -> None:
    # So mypyc compiles it alone (docs/architecture.rst: _core imports nothing from gongzhu).
    # The source next to the module: in the compiled build, kernel is an extension module.
    tree = ast.parse(Path(kernel.__file__).with_name("scoring.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.module in ("__future__", "typing") or (node.module or "").startswith(
                "gongzhu._core."
            ), node.module
        assert not isinstance(node, ast.Import)


def test_the_kernels_card_bits_are_the_cards_masks() -> None:
    assert PIG.mask == kernel.PIG_BIT
    assert SHEEP.mask == kernel.SHEEP_BIT
    assert TRANSFORMER.mask == kernel.TEN_BIT
    assert Card("QD").mask == kernel.QUEEN_OF_DIAMONDS_BIT
    hearts = [c for c in RuleSet().deck if c.suit is Suit.HEARTS]
    assert len(hearts) == 13
    assert sum(c.mask for c in hearts) == kernel.HEARTS_MASK


@given(st.lists(st.integers(-60, 60), min_size=13, max_size=13), st.integers(0, 8191))
def test_heart_sums_are_the_sums_of_the_hearts_taken(values: list[int], pattern: int) -> None:
    table = kernel.heart_sum_table(tuple(values))
    assert table[pattern] == sum(v for i, v in enumerate(values) if pattern >> i & 1)


@given(st.lists(st.integers(0, 2**52 - 1), min_size=1, max_size=5))
def test_first_bad_mask_finds_overlaps_and_cards_outside_the_deck(masks: list[int]) -> None:
    deck = RuleSet(players=5).deck.mask
    bad = kernel.first_bad_mask(tuple(masks), deck)
    seen = 0
    expected = -1
    for seat, mask in enumerate(masks):
        if mask & seen or mask & ~deck:
            expected = seat
            break
        seen |= mask
    assert bad == expected


def test_score_is_the_kernel_plus_the_public_objects() -> None:
    # seeds/000 §07: 4 × (−200 − 10) with 10♣ and Q♠ exposed.
    rules = RuleSet()
    masks = tuple(p.mask for p in (score("10C QS 7H").captures[0],))
    totals, lines, all_hearts, slam, pig = kernel.score_masks(masks, 1, 2, 1, 2, rules.engine, None)
    assert totals == (-840,) == score("10C QS 7H", exposed="QS TC").totals
    assert lines[0] == (-10, -200, 0, -210, 2, 4, 0, -840, 0)
    assert (all_hearts, slam, pig) == (-1, -1, 0)
