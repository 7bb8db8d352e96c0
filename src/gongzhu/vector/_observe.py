"""The per-seat observation of the Gymnasium adapter, for a whole batch at once.

``batch`` is a :class:`~gongzhu.vector.VectorDeal` (typed ``Any``: the engine imports
this module, so this one cannot import the engine back).

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

from gongzhu._codec.encoding import EXPOSABLE_ORDER, observation_size
from gongzhu._codec.encoding import OBSERVED_PHASES as _PHASES
from gongzhu._codec.encoding import SCORE_SCALE as _SCORE_SCALE
from gongzhu._core.bits import HEARTS, POINT_CARDS
from gongzhu._core.scoring import score_masks
from gongzhu.phase import Phase
from gongzhu.vector._score import scores
from gongzhu.vector._tables import BITS, I64, U64, ZERO, popcount, unpack

__all__ = ["observation"]

_EXPOSABLE: npt.NDArray[np.uint64] = np.array([c.mask for c in EXPOSABLE_ORDER], np.uint64)
_POINT_IDS = np.flatnonzero((np.uint64(POINT_CARDS) & BITS[:52]) != ZERO)
_PLAY = _PHASES.index(Phase.PLAY)
_COMPLETE = _PHASES.index(Phase.COMPLETE)


def _bits4(masks: U64) -> npt.NDArray[np.bool_]:
    """``(..., 4)``: which of 10♣, J♦, A♥, Q♠ (the exposure subset order) each mask holds."""
    out: npt.NDArray[np.bool_] = (masks[..., None] & _EXPOSABLE) != ZERO
    return out


def running_totals(batch: Any, seat: I64) -> tuple[I64, npt.NDArray[np.bool_]]:
    """Each row's :meth:`PlayerView.running_totals <gongzhu.PlayerView.running_totals>` for
    ``seat[row]``, and whether the seat can know them (else the totals are zeros)."""
    cfg = batch.cfg
    rows = batch._rows
    dealt = batch._dealt
    down = batch._down
    own_down = down & dealt[rows, seat]
    others_down = ((down[:, None] & dealt) != ZERO) & (np.arange(batch.players) != seat[:, None])
    known = ~others_down.any(axis=1)
    if cfg.blind:
        known &= (batch._up == ZERO) & (own_down == ZERO)
    if cfg.queen_bonus:
        # As the view: a deal over with Q♦ in no trick (still in a hand when the points ran
        # out) has no taker to count its bonus for.
        known &= ~(batch._done & (batch._qd_taker < 0))
    fa, fq, fj, ft = batch.factors(batch._up, own_down, ZERO * down)
    qd = batch._qd_counts if cfg.queen_bonus else None
    totals, hard = scores(batch.cfg, batch._capt, fa, fq, fj, ft, qd)
    for i in np.flatnonzero(hard & known):
        queen = tuple(int(x) for x in batch._qd_counts[i]) if cfg.queen_bonus else None
        masks = tuple(int(x) for x in batch._capt[i])
        f = int(fa[i]), int(fq[i]), int(fj[i]), int(ft[i])
        totals[i] = score_masks(masks, *f, cfg, queen, False)[0]
    out: I64 = np.where(known[:, None], totals, 0)
    return out, known


def observation(batch: Any, seat: Any = None) -> npt.NDArray[np.float32]:
    """``(n, observation_size(players))`` float32: row ``i`` is the observation of
    ``seat[i]`` (default: the seat to act) in deal ``i``."""
    p = batch.players
    size = len(batch)
    rows = batch._rows
    me: I64 = (
        batch._to_act.copy()
        if seat is None
        else np.broadcast_to(np.asarray(seat, dtype=np.int64), (size,)).copy()
    )
    if ((me < 0) | (me >= p)).any():
        from gongzhu.errors import ProtocolError

        raise ProtocolError(f"seats must be 0-{p - 1}")
    out = np.zeros((size, observation_size(p)), np.float32)
    # Relative seats: column r of a per-seat block is seat (me + r) % p.
    order = (me[:, None] + np.arange(p)[None, :]) % p  # (n, p): the seat of each column
    dealt = np.take_along_axis(batch._dealt, order, axis=1)  # by relative seat
    played = batch._played
    hand = batch._dealt[rows, me] & ~played
    out[:, :52] = unpack(hand)
    at = 52
    out[:, at : at + p * 52] = unpack(dealt & played[:, None]).reshape(size, p * 52)
    at += p * 52
    trick = batch._trick.T.astype(np.int64)  # (n, p) card by position, -1 for none
    count = batch._count
    for k in range(p):
        on = (k < count) & (trick[:, k] >= 0)
        out[rows[on], at + k * 52 + trick[on, k]] = 1.0
    at += p * 52
    out[rows, at + (batch._leader - me) % p] = 1.0
    at += p
    up = batch._up
    out[:, at : at + p * 4] = _bits4(dealt & up[:, None]).reshape(size, p * 4)
    at += p * 4
    down = batch._down
    out[:, at : at + 4] = _bits4(down & dealt[:, 0])
    at += 4
    out[:, at : at + p] = popcount(dealt & down[:, None]) / 4.0
    at += p
    capt = np.take_along_axis(batch._capt, order, axis=1)
    points = unpack(capt)[:, :, _POINT_IDS]  # (n, p, 16)
    out[:, at : at + p * 16] = points.reshape(size, p * 16)
    at += p * 16
    out[:, at : at + 52] = unpack(batch._shown & ~played)
    at += 52
    voids = batch._voids.astype(np.int64)
    for r in range(p):
        s = order[:, r]
        for suit in range(4):
            out[:, at + r * 4 + suit] = (voids >> (4 * s + suit)) & 1
    at += p * 4
    out[:, at] = batch._ntricks / (52 // p)
    at += 1
    totals, known = running_totals(batch, me)
    rel = np.take_along_axis(totals, order, axis=1)
    out[:, at : at + p] = rel / _SCORE_SCALE
    out[:, at + p] = known
    at += p + 1
    done = batch._done
    out[rows, at + np.where(done, _COMPLETE, _PLAY)] = 1.0
    at += 4
    act = rows[~done]
    out[act, at + (batch._to_act[act] - me[act]) % p] = 1.0
    at += p
    out[:, at] = (played & np.uint64(HEARTS)) != ZERO
    return out
