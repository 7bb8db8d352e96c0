"""The integer arithmetic of scoring one deal (specification §3, every option of §7). Private.

Typed for mypyc: plain ints, tuples and the rule set's
:class:`~gongzhu._core.config.Config`, built once per rule set from plain values.
It imports nothing from the public ``gongzhu`` modules;
:func:`gongzhu.scoring.score` validates the input, calls :func:`score_masks`
and builds the public ``DealScore`` from what it returns.

A card is bit ``suit * 13 + rank`` of a mask (clubs, diamonds, hearts, spades;
rank 0 is the 2), as in :mod:`gongzhu.cards`.

A line is ``(hearts, pig, sheep, base, kind, multiplier, bonus, total, flags)``:
``kind`` 0 no 10♣, 1 the lone bonus, 2 the multiplier; ``flags`` has
:data:`ALL_HEARTS`, :data:`GRAND_SLAM`, :data:`LONE` and :data:`FIXED`.
"""

from __future__ import annotations

from typing import Final

from gongzhu._core.bits import (
    HEARTS as HEARTS_MASK,
)
from gongzhu._core.bits import (
    PIG_BIT,
    QUEEN_OF_DIAMONDS_BIT,
    SHEEP_BIT,
    TEN_BIT,
    heart_sum_table,
)
from gongzhu._core.config import PIG_GRAND_SLAM_ONLY, PIG_POSITIVE, PIG_UNCHANGED, Config

__all__ = [
    "ALL_HEARTS",
    "FIXED",
    "GRAND_SLAM",
    "LONE",
    "PIG_GRAND_SLAM_ONLY",
    "PIG_POSITIVE",
    "PIG_UNCHANGED",
    "first_bad_mask",
    "heart_sum_table",
    "score_masks",
]


# Flag bits of a line.
ALL_HEARTS: Final = 1
GRAND_SLAM: Final = 2
LONE: Final = 4
FIXED: Final = 8


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
    p: Config,
    queen_tricks: tuple[int, ...] | None,
    with_lines: bool = True,
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int, int, int]:
    """Score disjoint capture ``masks`` with exposure factors A♥ ``fa``, Q♠ ``fq``, J♦ ``fj``,
    10♣ ``ft`` (1 when not exposed).

    Returns ``(totals, lines, all_hearts_seat, grand_slam_seat, pig_taker)``,
    a seat being -1 when there is none. Without ``with_lines`` the lines are
    ``()`` (a rollout wants the totals only: no line tuples built and freed).
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
    if all_hearts_seat < 0 and not (p.queen_bonus and queen_tricks is not None):
        # The usual deal: nobody took all the hearts, so no slam, no sign swap, no
        # turned pig or sheep; only the plain lines (the general scorer agrees).
        return _score_plain(masks, fa, fq, fj, ft, p, pig_taker, with_lines)
    return _score_general(
        masks, fa, fq, fj, ft, p, queen_tricks, with_lines, all_hearts_seat, pig_taker
    )


def _score_plain(
    masks: tuple[int, ...],
    fa: int,
    fq: int,
    fj: int,
    ft: int,
    p: Config,
    pig_taker: int,
    with_lines: bool,
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int, int, int]:
    """:func:`score_masks` of a deal in which nobody took all the hearts."""
    n = len(masks)
    heart_sums = p.heart_sums
    lone_blockers = p.lone_blockers
    totals: list[int] = []
    lines: list[tuple[int, ...]] = []
    pig_value = p.pig_value * fq
    sheep_value = p.sheep_worth(fj)
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
                if with_lines:
                    lines.append((hearts, pig, sheep, base, 2, 2 * ft, 0, total, 0))
            else:
                total = lone_bonus
                if with_lines:
                    lines.append((hearts, pig, sheep, base, 1, 1, 0, total, LONE))
        else:
            total = base
            if with_lines:
                lines.append((hearts, pig, sheep, base, 0, 1, 0, total, 0))
        totals.append(total)
    return tuple(totals), tuple(lines), -1, -1, pig_taker


def _score_general(
    masks: tuple[int, ...],
    fa: int,
    fq: int,
    fj: int,
    ft: int,
    p: Config,
    queen_tricks: tuple[int, ...] | None,
    with_lines: bool,
    all_hearts_seat: int,
    pig_taker: int,
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int, int, int]:
    """:func:`score_masks` of any deal: all hearts, grand slams, sign swap, the Q♦ bonus."""
    n = len(masks)
    heart_sums = p.heart_sums
    lone_blockers = p.lone_blockers
    totals: list[int] = []
    lines: list[tuple[int, ...]] = []
    slam_mask = p.slam_mask
    pig_rule = p.pig_rule
    turned_seat, swap, sheep_value = _turned(masks, fj, p, all_hearts_seat, pig_taker)
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
        if with_lines:
            lines.append((hearts, pig, sheep, base, kind, mult, bonus, total, flags))
    return tuple(totals), tuple(lines), all_hearts_seat, grand_slam_seat, pig_taker


def _turned(
    masks: tuple[int, ...], fj: int, p: Config, all_hearts_seat: int, pig_taker: int
) -> tuple[int, bool, int]:
    """``(turned_seat, swap, sheep_value)``: who scores all hearts as a value (-1: nobody),
    whether the signs swap (猪羊变色) and what the sheep is worth in this deal."""
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
    sheep_value = p.sheep_worth(fj)
    if swap or zero_sum:
        sheep_value = -abs(sheep_value)
    return turned_seat, swap, sheep_value
