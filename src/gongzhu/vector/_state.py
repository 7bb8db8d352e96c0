"""The batched state: :class:`VectorState`, ``size`` deals of one rule set as a record of arrays.

Every deal's position is a row of the record's arrays (or a column, for the
arrays indexed by position first: :attr:`~VectorState.trick`,
:attr:`~VectorState.plays`, :attr:`~VectorState.order`): the hands per seat,
the captured cards per seat, the cards played and the exposures as ``uint64``
bitboards (bit ``c`` is the card of :attr:`~gongzhu.Card.index` ``c``), the
trick in progress as card ids by position. The record is public, as pgx's
``State`` is: the engine's free functions (legal plays, a step, the playout,
scoring, observations, the rule of thumb) take it and read its fields by name.
Unlike pgx's, its arrays are updated in place by a step (a NumPy batch copied
at every card would cost more than the card): read them freely, change them
only through :class:`~gongzhu.vector.VectorDeal`.
"""

from __future__ import annotations

from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from gongzhu._core.config import Config
from gongzhu.round import Round
from gongzhu.rules import RuleSet
from gongzhu.vector._tables import I64, U64, Bools, u64

__all__ = ["MAX_DEALS", "NONE_LED", "VectorState", "new_state", "put", "take"]

MAX_DEALS: Final = 1 << 20
"""The most deals a batch holds (1,048,576): about 370 MB of arrays at 4 players, and
about 1 GB at the peak of a step or a fresh deal (an ``observation()`` of every deal
takes 2.5 KB a deal more). A larger batch is refused before anything is allocated;
run several batches instead."""

NONE_LED: Final = 4
"""``led`` before the trick's first card."""

Int8s = npt.NDArray[np.int8]


@attrs.define(slots=True, eq=False, repr=False)
class VectorState:
    """``size`` deals of one rule set in the card play, as arrays (``(size,)`` unless said).

    The arrays of the position: :attr:`dealt`, :attr:`captured` (``(size,
    players)`` masks), :attr:`played`, :attr:`every` (the cards dealt),
    :attr:`up` / :attr:`down` / :attr:`blind` / :attr:`shown` (the exposures and
    the claims' shown cards), :attr:`to_act`, :attr:`is_over`, :attr:`leader`,
    :attr:`count` (cards in the trick), :attr:`led` (:data:`NONE_LED` before the
    lead), :attr:`best` / :attr:`best_pos` (the trick's winning card so far and
    its position), :attr:`taken` (the trick's cards), :attr:`trick` (``(players,
    size)``: card by position, -1 for none), :attr:`tricks` (completed tricks),
    :attr:`flags` (the core's per-deal flags: suits led, hearts broken),
    :attr:`voids` (bit ``4 * seat + suit``: the seat showed out of the suit),
    :attr:`opening` (the opening card must still be led), :attr:`queen_taker` /
    :attr:`queen_counts` (Q♦ bonus rules), :attr:`plays` (``(52, size)``: the
    cards played on the batch by play number) and :attr:`nplays`.

    The batch's bookkeeping: ``aligned`` (every deal in play, all at trick position
    ``aligned_count`` and play number ``aligned_plays``, so a step writes whole
    rows), ``order`` (a batch from ``random()``: each deal's cards in the order
    dealt, a deal a column), where the deals came from (``rounds``, ``seeds``,
    ``dealer``), and per-rule-set constants read from ``cfg`` (the rule set's
    engine config).
    """

    rules: RuleSet
    cfg: Config
    size: int
    players: int
    dealt: U64
    captured: U64
    every: U64
    played: U64
    taken: U64
    up: U64
    down: U64
    blind: U64
    shown: U64
    leader: I64
    count: I64
    led: I64
    best: I64
    best_pos: I64
    flags: I64
    tricks: I64
    trick: Int8s
    voids: npt.NDArray[np.uint32]
    opening: Bools
    is_over: Bools
    queen_taker: I64
    queen_counts: I64
    plays: Int8s
    nplays: I64
    to_act: I64
    rows: I64
    wrap: I64
    exposable: np.uint64
    opening_card: np.uint64
    team: I64
    paired: bool
    order: Int8s | None = None
    aligned: bool = True
    aligned_count: int = 0
    aligned_plays: int = 0
    rounds: list[Round] | None = None
    seeds: list[int | str] | None = None
    dealer: int = 0

    @property
    def nbytes(self) -> int:
        """The bytes of the record's arrays."""
        return sum(
            v.nbytes for v in (getattr(self, f) for f in _FIELDS) if isinstance(v, np.ndarray)
        )


_FIELDS: Final = tuple(f.name for f in attrs.fields(VectorState))
_BY_COLUMN: Final = frozenset(("trick", "plays", "order"))  # the batch is their second axis
_SHARED: Final = frozenset(("rows", "wrap", "team"))  # not by deal


def new_state(rules: RuleSet, size: int) -> VectorState:
    """``size`` empty deals of ``rules`` (every array allocated; no cards dealt yet)."""
    cfg = rules.engine
    n = cfg.n
    z64 = np.zeros(size, np.uint64)
    return VectorState(
        rules=rules, cfg=cfg, size=size, players=n,
        dealt=np.zeros((size, n), np.uint64), captured=np.zeros((size, n), np.uint64),
        every=z64, played=z64.copy(), taken=z64.copy(), up=z64.copy(), down=z64.copy(),
        blind=z64.copy(), shown=z64.copy(),
        leader=np.zeros(size, np.int64), count=np.zeros(size, np.int64),
        led=np.full(size, NONE_LED, np.int64), best=np.full(size, -1, np.int64),
        best_pos=np.zeros(size, np.int64), flags=np.zeros(size, np.int64),
        tricks=np.zeros(size, np.int64),
        # The trick's cards by position (row k: the k-th card) and the plays made on the
        # batch (row k: play k): rows, so that a step of an aligned batch writes one row.
        trick=np.full((n, size), -1, np.int8), voids=np.zeros(size, np.uint32),
        opening=np.zeros(size, np.bool_), is_over=np.zeros(size, np.bool_),
        queen_taker=np.full(size, -1, np.int64), queen_counts=np.zeros((size, n), np.int64),
        plays=np.full((52, size), -1, np.int8), nplays=np.zeros(size, np.int64),
        to_act=np.zeros(size, np.int64), rows=np.arange(size, dtype=np.int64),
        wrap=np.arange(2 * n, dtype=np.int64) % n,  # wrap[a + b]: (a + b) % n
        exposable=u64(cfg.exposable), opening_card=u64(cfg.opening_card),
        team=np.array(cfg.team_of, dtype=np.int64), paired=cfg.nteams < n,
    )  # fmt: skip


def take(state: VectorState, rows: I64) -> VectorState:
    """The deals ``rows`` (all in play, at a trick's start) as an aligned state of their own."""
    parts: dict[str, Any] = {}
    for name in _FIELDS:
        value = getattr(state, name)
        if isinstance(value, np.ndarray) and name not in _SHARED:
            parts[name] = value[:, rows] if name in _BY_COLUMN else value[rows]
    return attrs.evolve(
        state, **parts, size=len(rows), rows=np.arange(len(rows), dtype=np.int64),
        aligned=True, aligned_count=0, aligned_plays=int(state.nplays[rows[0]]),
    )  # fmt: skip


def put(state: VectorState, rows: I64, sub: VectorState) -> None:
    """Write the deals of ``sub`` (made by :func:`take`) back to ``rows``."""
    state.aligned = False
    for name in _FIELDS:
        value = getattr(sub, name)
        if isinstance(value, np.ndarray) and name not in _SHARED:
            if name in _BY_COLUMN:
                getattr(state, name)[:, rows] = value
            else:
                getattr(state, name)[rows] = value
