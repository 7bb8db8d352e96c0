"""The per-seat observation of the Gymnasium adapter, for a whole batch at once.

Every function takes the batch's public record of arrays, a
:class:`~gongzhu.vector.VectorState`.

:func:`observation` writes, row by row, exactly what
:meth:`PlayerView.observation() <gongzhu.PlayerView.observation>` gives for the
same deal and seat (the layout of :mod:`gongzhu._codec.encoding`, documented in
``docs/agents.rst``; its sizes and orders are read from there). It reads only
what the seat may know: its own hand and face-down cards, the cards played, the
face-up exposures, the captured point cards, the claims' shown cards.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from gongzhu._base.text import brief
from gongzhu._codec.encoding import EXPOSABLE_ORDER, observation_size
from gongzhu._codec.encoding import OBSERVED_PHASES as _PHASES
from gongzhu._codec.encoding import SCORE_SCALE as _SCORE_SCALE
from gongzhu._core.bits import HEARTS, POINT_CARDS
from gongzhu._core.scoring import score_masks
from gongzhu.errors import ActionTypeError, IllegalActionError, Reason
from gongzhu.phase import Phase
from gongzhu.vector._score import factors, scores
from gongzhu.vector._state import VectorState
from gongzhu.vector._tables import BITS, I64, U64, ZERO, popcount, unpack

__all__ = ["observation", "running_totals", "seats_of"]

_EXPOSABLE: npt.NDArray[np.uint64] = np.array([c.mask for c in EXPOSABLE_ORDER], np.uint64)
_POINT_IDS = np.flatnonzero((np.uint64(POINT_CARDS) & BITS[:52]) != ZERO)
_PLAY = _PHASES.index(Phase.PLAY)
_COMPLETE = _PHASES.index(Phase.COMPLETE)


def _bits4(masks: U64) -> npt.NDArray[np.bool_]:
    """``(..., 4)``: which of 10♣, J♦, A♥, Q♠ (the exposure subset order) each mask holds."""
    out: npt.NDArray[np.bool_] = (masks[..., None] & _EXPOSABLE) != ZERO
    return out


def running_totals(state: VectorState, seat: I64) -> tuple[I64, npt.NDArray[np.bool_]]:
    """Each row's :meth:`PlayerView.running_totals <gongzhu.PlayerView.running_totals>` for
    ``seat[row]``, and whether the seat can know them (else the totals are zeros)."""
    cfg = state.cfg
    rows = state.rows
    dealt = state.dealt
    down = state.down
    own_down = down & dealt[rows, seat]
    others_down = ((down[:, None] & dealt) != ZERO) & (np.arange(state.players) != seat[:, None])
    known = ~others_down.any(axis=1)
    if cfg.blind:
        known &= (state.up == ZERO) & (own_down == ZERO)
    if cfg.queen_bonus:
        # As the view: a deal over with Q♦ in no trick (still in a hand when the points ran
        # out) has no taker to count its bonus for.
        known &= ~(state.is_over & (state.queen_taker < 0))
    fa, fq, fj, ft = factors(state.cfg, state.up, own_down, ZERO * down)
    qd = state.queen_counts if cfg.queen_bonus else None
    totals, hard = scores(state.cfg, state.captured, fa, fq, fj, ft, qd)
    for i in np.flatnonzero(hard & known):
        queen = tuple(int(x) for x in state.queen_counts[i]) if cfg.queen_bonus else None
        masks = tuple(int(x) for x in state.captured[i])
        f = int(fa[i]), int(fq[i]), int(fj[i]), int(ft[i])
        totals[i] = score_masks(masks, *f, cfg, queen, False)[0]
    out: I64 = np.where(known[:, None], totals, 0)
    return out, known


def seats_of(state: VectorState, seat: object) -> I64:
    """``(size,)`` seats: the seat to act for ``None``, one seat (an int, NumPy's too) for
    every deal, or one a deal; anything else is the core's refusal of a view of no seat
    (an :class:`~gongzhu.errors.ActionTypeError` when it is no int, nor ints)."""
    p, size = state.players, state.size
    if seat is None:
        out: I64 = state.to_act.copy()
        return out
    if isinstance(seat, (list, tuple)):
        seat = np.asarray(seat)
    ints = False
    if isinstance(seat, (int, np.integer)) and not isinstance(seat, (bool, np.bool_)):
        ints = True
        if 0 <= seat < p:
            return np.full(size, int(seat), np.int64)
    elif isinstance(seat, np.ndarray) and seat.dtype.kind in "iu":
        ints = True
        if seat.shape == (size,) and ((seat >= 0) & (seat < p)).all():
            return seat.astype(np.int64)
    raise (IllegalActionError if ints else ActionTypeError)(
        Reason.NO_SUCH_SEAT, None, detail=f"seat {brief(seat)} of {p}", action="view"
    )


def observation(state: VectorState, seat: Any = None) -> npt.NDArray[np.float32]:
    """``(n, observation_size(players))`` float32: row ``i`` is the observation of
    ``seat[i]`` (default: the seat to act) in deal ``i``."""
    p = state.players
    size = state.size
    rows = state.rows
    me = seats_of(state, seat)
    out = np.zeros((size, observation_size(p)), np.float32)
    # Relative seats: column r of a per-seat block is seat (me + r) % p.
    order = (me[:, None] + np.arange(p)[None, :]) % p  # (n, p): the seat of each column
    dealt = np.take_along_axis(state.dealt, order, axis=1)  # by relative seat
    played = state.played
    hand = state.dealt[rows, me] & ~played
    out[:, :52] = unpack(hand)
    at = 52
    out[:, at : at + p * 52] = unpack(dealt & played[:, None]).reshape(size, p * 52)
    at += p * 52
    trick = state.trick.T.astype(np.int64)  # (n, p) card by position, -1 for none
    count = state.count
    for k in range(p):
        on = (k < count) & (trick[:, k] >= 0)
        out[rows[on], at + k * 52 + trick[on, k]] = 1.0
    at += p * 52
    out[rows, at + (state.leader - me) % p] = 1.0
    at += p
    up = state.up
    out[:, at : at + p * 4] = _bits4(dealt & up[:, None]).reshape(size, p * 4)
    at += p * 4
    down = state.down
    out[:, at : at + 4] = _bits4(down & dealt[:, 0])
    at += 4
    out[:, at : at + p] = popcount(dealt & down[:, None]) / 4.0
    at += p
    capt = np.take_along_axis(state.captured, order, axis=1)
    points = unpack(capt)[:, :, _POINT_IDS]  # (n, p, 16)
    out[:, at : at + p * 16] = points.reshape(size, p * 16)
    at += p * 16
    out[:, at : at + 52] = unpack(state.shown & ~played)
    at += 52
    voids = state.voids.astype(np.int64)
    for r in range(p):
        s = order[:, r]
        for suit in range(4):
            out[:, at + r * 4 + suit] = (voids >> (4 * s + suit)) & 1
    at += p * 4
    out[:, at] = state.tricks / (52 // p)
    at += 1
    totals, known = running_totals(state, me)
    rel = np.take_along_axis(totals, order, axis=1)
    out[:, at : at + p] = rel / _SCORE_SCALE
    out[:, at + p] = known
    at += p + 1
    done = state.is_over
    out[rows, at + np.where(done, _COMPLETE, _PLAY)] = 1.0
    at += 4
    act = rows[~done]
    out[act, at + (state.to_act[act] - me[act]) % p] = 1.0
    at += p
    out[:, at] = (played & np.uint64(HEARTS)) != ZERO
    return out
