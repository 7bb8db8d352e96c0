"""The integer arithmetic of scoring one deal (RULES.md §3, every option of §7). Private.

Typed for mypyc: plain ints, tuples and one native class, :class:`ScoreParams`,
built once per rule set from plain values. It imports nothing from the public
``gongzhu`` modules; :func:`gongzhu.scoring.score` validates the input, calls
:func:`score_masks` and builds the public ``DealScore`` from what it returns.

A card is bit ``suit * 13 + rank`` of a mask (clubs, diamonds, hearts, spades;
rank 0 is the 2), as in :mod:`gongzhu.cards`.

A line is ``(hearts, pig, sheep, base, kind, multiplier, bonus, total, flags)``:
``kind`` 0 no 10♣, 1 the lone bonus, 2 the multiplier; ``flags`` has
:data:`ALL_HEARTS`, :data:`GRAND_SLAM`, :data:`LONE` and :data:`FIXED`.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ALL_HEARTS",
    "FIXED",
    "GRAND_SLAM",
    "LONE",
    "PIG_GRAND_SLAM_ONLY",
    "PIG_POSITIVE",
    "PIG_UNCHANGED",
    "ScoreParams",
    "first_bad_mask",
    "heart_sum_table",
    "score_masks",
]

# Card bits, written out (no shifts of constants: mypyc's i64 trap, and no imports).
HEARTS_MASK: Final = 0x1FFF << 26
PIG_BIT: Final = 0x2000000000000  # Q♠: spades (39) + queen (10) = bit 49
SHEEP_BIT: Final = 0x400000  # J♦: diamonds (13) + jack (9) = bit 22
TEN_BIT: Final = 0x100  # 10♣: clubs (0) + ten (8) = bit 8
QUEEN_OF_DIAMONDS_BIT: Final = 0x800000  # Q♦: bit 23

# Flag bits of a line.
ALL_HEARTS: Final = 1
GRAND_SLAM: Final = 2
LONE: Final = 4
FIXED: Final = 8

# pig_with_all_hearts, as ints.
PIG_POSITIVE: Final = 0
PIG_GRAND_SLAM_ONLY: Final = 1
PIG_UNCHANGED: Final = 2

# The low bit of each 13-bit heart pattern, by pattern: a table instead of
# ``x & -x`` and ``bit_length`` so the build stays on plain int operations.
_LOW_BIT_INDEX: Final[tuple[int, ...]] = tuple(
    [0] + [(p & -p).bit_length() - 1 for p in range(1, 8192)]
)


def heart_sum_table(values: tuple[int, ...]) -> tuple[int, ...]:
    """The hearts total for every 13-bit pattern of hearts (bit i = rank i + 2)."""
    sums = [0] * 8192
    low_index = _LOW_BIT_INDEX
    for pattern in range(1, 8192):
        i = low_index[pattern]
        sums[pattern] = sums[pattern & (pattern - 1)] + values[i]
    return tuple(sums)


class ScoreParams:
    """Everything :func:`score_masks` needs from one rule set, as plain values."""

    heart_sums: tuple[int, ...]
    lone_blockers: int
    slam_mask: int
    has_all_hearts_value: bool
    all_hearts_value: int
    pig_sheep_together: bool
    sign_swap: bool
    pig_rule: int
    zero_sum: bool
    pig_value: int
    sheep_value: int
    exposed_sheep_value: int
    transformer_bonus: int
    fixed_slam: bool
    grand_slam_value: int
    queen_bonus: int

    def __init__(
        self,
        heart_sums: tuple[int, ...],
        lone_blockers: int,
        slam_mask: int,
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
        self.heart_sums = heart_sums
        # Cards that stop a captured 10♣ from scoring the lone bonus.
        self.lone_blockers = lone_blockers
        self.slam_mask = slam_mask
        self.has_all_hearts_value = all_hearts_value is not None
        self.all_hearts_value = all_hearts_value if all_hearts_value is not None else 0
        self.pig_sheep_together = pig_sheep_together
        self.sign_swap = sign_swap
        self.pig_rule = pig_rule
        self.zero_sum = zero_sum
        self.pig_value = pig_value
        self.sheep_value = sheep_value
        self.exposed_sheep_value = exposed_sheep_value
        self.transformer_bonus = transformer_bonus
        self.fixed_slam = fixed_slam
        self.grand_slam_value = grand_slam_value
        self.queen_bonus = queen_bonus


def first_bad_mask(masks: tuple[int, ...], deck: int) -> int:
    """The first seat whose mask overlaps an earlier one or leaves ``deck``; -1 if none."""
    seen = 0
    outside = ~deck
    for seat in range(len(masks)):
        mask = masks[seat]
        if mask & seen or mask & outside:
            return seat
        seen |= mask
    return -1


def score_masks(
    masks: tuple[int, ...],
    fa: int,
    fq: int,
    fj: int,
    ft: int,
    p: ScoreParams,
    queen_tricks: tuple[int, ...] | None,
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int, int, int]:
    """Score disjoint capture ``masks`` with exposure factors A♥ ``fa``, Q♠ ``fq``, J♦ ``fj``,
    10♣ ``ft`` (1 when not exposed).

    Returns ``(totals, lines, all_hearts_seat, grand_slam_seat, pig_taker)``,
    a seat being -1 when there is none.
    """
    n = len(masks)
    all_hearts_seat = -1
    pig_taker = -1
    for seat in range(n):
        mask = masks[seat]
        if mask & HEARTS_MASK == HEARTS_MASK:
            all_hearts_seat = seat
        if mask & PIG_BIT:
            pig_taker = seat
    heart_sums = p.heart_sums
    lone_blockers = p.lone_blockers
    totals: list[int] = []
    lines: list[tuple[int, ...]] = []
    if all_hearts_seat < 0 and not (p.queen_bonus and queen_tricks is not None):
        # The usual deal: nobody took all the hearts, so no slam, no sign swap, no
        # turned pig or sheep; only the plain lines (the general loop below agrees).
        pig_value = p.pig_value * fq
        sheep_value = p.sheep_value if fj == 1 else p.exposed_sheep_value * fj // 2
        lone_bonus = p.transformer_bonus * ft
        for seat in range(n):
            mask = masks[seat]
            hearts = heart_sums[(mask >> 26) & 0x1FFF] * fa
            base = hearts
            pig = 0
            sheep = 0
            if mask & PIG_BIT:
                pig = pig_value
                base += pig
            if mask & SHEEP_BIT:
                sheep = sheep_value
                base += sheep
            if mask & TEN_BIT:
                if mask & lone_blockers:
                    total = base * 2 * ft
                    lines.append((hearts, pig, sheep, base, 2, 2 * ft, 0, total, 0))
                else:
                    total = lone_bonus
                    lines.append((hearts, pig, sheep, base, 1, 1, 0, total, LONE))
            else:
                total = base
                lines.append((hearts, pig, sheep, base, 0, 1, 0, total, 0))
            totals.append(total)
        return tuple(totals), tuple(lines), -1, -1, pig_taker

    slam_mask = p.slam_mask
    turned_seat = -1
    if (
        all_hearts_seat >= 0
        and p.has_all_hearts_value
        and (not p.pig_sheep_together or masks[all_hearts_seat] & SHEEP_BIT)
    ):
        turned_seat = all_hearts_seat
    swap = p.sign_swap and turned_seat >= 0
    pig_rule = p.pig_rule
    # 004 bundle: "the sum of the sheep and the pig is always 0", so the sheep
    # turns negative only when the all-hearts taker's pig actually counts +100
    # (not when pig_with_all_hearts keeps it at −100).
    zero_sum = (
        p.zero_sum
        and turned_seat >= 0
        and turned_seat == pig_taker
        and (
            pig_rule == PIG_POSITIVE
            or (pig_rule == PIG_GRAND_SLAM_ONLY and masks[turned_seat] & slam_mask == slam_mask)
        )
    )
    sheep_value = p.sheep_value if fj == 1 else p.exposed_sheep_value * fj // 2
    if swap or zero_sum:
        sheep_value = -abs(sheep_value)
    grand_slam_seat = -1
    for seat in range(n):
        mask = masks[seat]
        flags = 0
        turned = seat == turned_seat
        slam = mask & slam_mask == slam_mask
        if slam:
            grand_slam_seat = seat
            flags |= GRAND_SLAM
        if seat == all_hearts_seat:
            flags |= ALL_HEARTS
        if turned:
            hearts = p.all_hearts_value * fa
        else:
            hearts = heart_sums[(mask >> 26) & 0x1FFF] * fa
        pig = 0
        if mask & PIG_BIT:
            positive = swap or (
                turned and (pig_rule == PIG_POSITIVE or (pig_rule == PIG_GRAND_SLAM_ONLY and slam))
            )
            pig = (-p.pig_value if positive else p.pig_value) * fq
        sheep = sheep_value if mask & SHEEP_BIT else 0
        if slam and swap:
            # 猪羊变色 grand slam (seeds/001): every line of the slam taker is positive.
            hearts = abs(hearts)
            pig = abs(pig)
            sheep = abs(sheep)
        base = hearts + pig + sheep
        kind = 0
        mult = 1
        if mask & TEN_BIT:
            if mask & lone_blockers:
                kind = 2
                mult = 2 * ft
                total = base * mult
            else:
                kind = 1
                flags |= LONE
                total = p.transformer_bonus * ft
        else:
            total = base
        if slam and p.fixed_slam:
            total = p.grand_slam_value
            flags |= FIXED
        bonus = 0
        if p.queen_bonus and queen_tricks is not None and mask & QUEEN_OF_DIAMONDS_BIT:
            bonus = p.queen_bonus * queen_tricks[seat]
            total += bonus
        totals.append(total)
        lines.append((hearts, pig, sheep, base, kind, mult, bonus, total, flags))
    return tuple(totals), tuple(lines), all_hearts_seat, grand_slam_seat, pig_taker
