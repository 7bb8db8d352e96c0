"""Per-rule-set int tables for the hot paths (scoring, legal plays). Private.

A :class:`Tables` is built once per :class:`~gongzhu.RuleSet` and cached on it
(``RuleSet._tables``). It takes plain values, not the rule set, so that this
module sits below ``rules`` and imports nothing from it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from gongzhu._core.scoring import ScoreParams, heart_sum_table
from gongzhu.cards import ACE_OF_HEARTS, PIG, SHEEP, TRANSFORMER

HEARTS: Final = 0x1FFF << 26
SUIT_MASKS: Final = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)
PIG_BIT: Final = PIG.mask
SHEEP_BIT: Final = SHEEP.mask
TEN_BIT: Final = TRANSFORMER.mask
ACE_BIT: Final = ACE_OF_HEARTS.mask
QUEEN_OF_DIAMONDS_BIT: Final = 1 << (13 + 10)
POINT_CARDS: Final = HEARTS | PIG_BIT | SHEEP_BIT | TEN_BIT


@lru_cache(maxsize=16)
def heart_sums(values: tuple[int, ...]) -> tuple[int, ...]:
    """The hearts total for every 13-bit pattern of hearts (bit i = rank i + 2)."""
    return heart_sum_table(values)


class Tables:
    """Masks and tables derived from one rule set; ``score`` feeds the scoring kernel."""

    __slots__ = (
        "deck",
        "exposable",
        "face_up",
        "grand_slam",
        "heart_sums",
        "lone_blockers",
        "nonzero_hearts",
        "score",
    )

    def __init__(
        self,
        *,
        deck: int,
        exposable: int,
        face_up: int,
        heart_values: tuple[int, ...],
        zero_hearts_are_point_cards: bool,
        grand_slam_has_transformer: bool,
        all_hearts_value: int | None,
        pig_sheep_together: bool,
        sign_swap: bool,
        pig_rule: int,
        zero_sum: bool,
        pig_value: int,
        sheep_value: int,
        exposed_sheep_value: int,
        transformer_bonus: int,
        fixed_slam: bool,
        grand_slam_value: int,
        queen_bonus: int,
    ) -> None:
        self.deck: int = deck
        self.exposable: int = exposable
        # The factor of a face-up exposure (RULES.md §4).
        self.face_up: int = face_up
        self.heart_sums: tuple[int, ...] = heart_sums(heart_values)
        nonzero = 0
        for i, value in enumerate(heart_values):
            if value:
                nonzero |= 1 << (26 + i)
        self.nonzero_hearts: int = nonzero
        hearts = HEARTS if zero_hearts_are_point_cards else nonzero
        # Cards that stop a captured 10♣ from scoring the lone bonus.
        self.lone_blockers: int = hearts | PIG_BIT | SHEEP_BIT
        slam = HEARTS | PIG_BIT | SHEEP_BIT
        if grand_slam_has_transformer:
            slam |= TEN_BIT
        self.grand_slam: int = slam
        self.score: ScoreParams = ScoreParams(
            self.heart_sums,
            self.lone_blockers,
            slam,
            all_hearts_value,
            pig_sheep_together,
            sign_swap,
            pig_rule,
            zero_sum,
            pig_value,
            sheep_value,
            exposed_sheep_value,
            transformer_bonus,
            fixed_slam,
            grand_slam_value,
            queen_bonus,
        )
