"""Scoring a batch: the exposure factors and each seat's total, the core's scoring
kernel (:mod:`gongzhu._core.scoring`) restated on arrays, with the kernel itself for the
rare deals its plain lines do not cover.

:func:`totals` takes the batch's public record of arrays, a
:class:`~gongzhu.vector.VectorState`.
"""

from __future__ import annotations

import numpy as np

from gongzhu._core.bits import ACE_BIT, PIG_BIT, QUEEN_OF_DIAMONDS_BIT, SHEEP_BIT, TEN_BIT
from gongzhu._core.config import Config
from gongzhu._core.scoring import score_masks
from gongzhu.vector._state import VectorState
from gongzhu.vector._tables import I64, U64, ZERO, Bools, heart_tables, u64

__all__ = ["factors", "scores", "totals"]


def factors(cfg: Config, up: U64, down: U64, blind: U64) -> tuple[I64, I64, I64, I64]:
    """The scoring factors of A♥, Q♠, J♦ and 10♣ for each row's exposures (the core's
    :func:`~gongzhu._core.rules.card_factor`, on arrays)."""
    if not (up.any() or down.any()):
        ones = np.ones(up.shape, np.int64)
        return ones, ones, ones, ones
    out = []
    for bit in (ACE_BIT, PIG_BIT, SHEEP_BIT, TEN_BIT):
        b = u64(bit)
        f = np.where((up & b) != ZERO, cfg.face_up_factor, np.where((down & b) != ZERO, 2, 1))
        out.append(np.where(((blind & b) != ZERO) & (f > 1), f * 2, f).astype(np.int64))
    return out[0], out[1], out[2], out[3]


def scores(
    cfg: Config, capt: U64, fa: I64, fq: I64, fj: I64, ft: I64, qd: I64 | None
) -> tuple[I64, Bools]:
    """Each seat's total by the scoring kernel's plain lines, and the rows it cannot
    score that way (a seat holding every heart: the kernel scores those)."""
    sums = heart_tables(cfg.heart_values, cfg.heart_sums)[1]
    fa2, fq2, fj2, ft2 = fa[:, None], fq[:, None], fj[:, None], ft[:, None]
    held = ((capt >> u64(26)) & u64(0x1FFF)).astype(np.intp)  # each seat's hearts
    hearts = sums[held] * fa2
    base = hearts + np.where((capt & u64(PIG_BIT)) != ZERO, cfg.pig_value * fq2, 0)
    sheep = np.where(fj2 == 1, cfg.sheep_value, cfg.exposed_sheep_value * fj2 // 2)
    base = base + np.where((capt & u64(SHEEP_BIT)) != ZERO, sheep, 0)
    blockers = (capt & u64(cfg.lone_blockers)) != ZERO
    ten = np.where(blockers, base * 2 * ft2, cfg.transformer_bonus * ft2)
    total = np.where((capt & u64(TEN_BIT)) != ZERO, ten, base)
    if cfg.queen_bonus and qd is not None:
        has_q = (capt & u64(QUEEN_OF_DIAMONDS_BIT)) != ZERO
        total = total + np.where(has_q, cfg.queen_bonus * qd, 0)
    hard = held.max(axis=1) == 0x1FFF
    return total.astype(np.int64), hard


def totals(state: VectorState) -> I64:
    """``(n, players)`` each seat's score of each finished deal (``score(...).totals``;
    zeros for a deal still in play)."""
    cfg = state.cfg
    fa, fq, fj, ft = factors(cfg, state.up, state.down, state.blind)
    qd = state.queen_counts if cfg.queen_bonus else None
    total, hard = scores(cfg, state.captured, fa, fq, fj, ft, qd)
    rows = np.flatnonzero(hard)
    if rows.size:  # the kernel itself, for the deals its plain lines do not cover
        capt = state.captured[rows].tolist()
        fs = np.stack([fa[rows], fq[rows], fj[rows], ft[rows]], axis=1).tolist()
        queens = state.queen_counts[rows].tolist() if cfg.queen_bonus else None
        for j, i in enumerate(rows.tolist()):
            queen = tuple(queens[j]) if queens is not None else None
            fa_, fq_, fj_, ft_ = fs[j]
            total[i] = score_masks(tuple(capt[j]), fa_, fq_, fj_, ft_, cfg, queen, False)[0]
    out: I64 = np.where(state.is_over[:, None], total, 0)
    return out
