"""Batches and Rounds: :meth:`VectorDeal.from_rounds` reads each Round's core state, and
:func:`origin` gives back a deal's start as a :class:`~gongzhu.Round` (for
:meth:`VectorDeal.round`).

``batch`` is a :class:`~gongzhu.vector.VectorDeal` (typed ``Any``: the engine imports
this module, so this one cannot import the engine back).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gongzhu._core import play as _p
from gongzhu._core.rules import queen_counts
from gongzhu._core.state import COMPLETE, PLAYING, played, trick_cards
from gongzhu.errors import IllegalActionError, ProtocolError, Reason
from gongzhu.round import Round

__all__ = ["from_rounds", "origin"]


def from_rounds(cls: Any, rounds: Sequence[Round]) -> Any:
    """:meth:`VectorDeal.from_rounds`: a batch of the positions of ``rounds``."""
    rounds = list(rounds)
    if not rounds:
        raise ProtocolError("from_rounds needs at least one Round")
    for i, rnd in enumerate(rounds):
        if not isinstance(rnd, Round):
            raise ProtocolError(f"round {i} is a {type(rnd).__name__}, not a Round")
    rules = rounds[0].rules
    batch = cls(rules, len(rounds))
    n = batch.players
    for i, rnd in enumerate(rounds):
        if rnd.rules != rules:
            raise ProtocolError(f"round {i} has other rules than round 0 (one rule set)")
        s = rnd.engine_state
        if s.done != COMPLETE and not s.trick and not s.tricks and _p.exposure_open(s):
            raise IllegalActionError(
                Reason.EXPOSURE_PENDING, None, detail=f"round {i}", action="batch"
            )
        if s.done not in (PLAYING, COMPLETE):
            raise IllegalActionError(
                Reason.WRONG_PHASE, None, detail=f"round {i}: a claim is pending",
                action="batch",
            )  # fmt: skip
        t = s.table
        batch._dealt[i] = t.hands
        batch._capt[i] = s.capt
        batch._every[i] = t.every
        batch._played[i] = played(s)
        batch._up[i], batch._down[i], batch._blind[i] = t.up, t.down, t.blind
        batch._shown[i] = t.shown
        batch._opening[i] = t.opening
        batch._leader[i] = s.leader
        batch._flags[i] = s.flags
        batch._ntricks[i] = len(s.tricks)
        batch._done[i] = s.done == COMPLETE
        cards = trick_cards(s)
        batch._count[i] = len(cards)
        if cards:
            led = cards[0] // 13
            batch._led[i] = led
            batch._trick[: len(cards), i] = cards
            best = max(c for c in cards if c // 13 == led)
            batch._best[i] = best
            batch._bestpos[i] = cards.index(best)
            batch._taken[i] = sum(1 << c for c in cards)
        for _lead, _winner, tcards in s.tricks:
            _note_voids(batch, i, _lead, tcards)
        if cards:
            _note_voids(batch, i, s.leader, cards)
        if batch._cfg.queen_bonus:
            batch._qd_counts[i] = queen_counts(n, s.tricks)
            for _lead, winner, tcards in s.tricks:
                if 23 in tcards:
                    batch._qd_taker[i] = winner
        batch._to_act[i] = (s.leader + len(cards)) % n
    batch._rounds = rounds
    batch._aligned = not batch._done.any() and bool((batch._count == batch._count[0]).all())
    batch._k = int(batch._count[0])
    return batch


def _note_voids(batch: Any, i: int, leader: int, cards: Sequence[int]) -> None:
    led = cards[0] // 13
    for k, c in enumerate(cards):
        if c // 13 != led:
            batch._voids[i] |= np.uint32(1 << (4 * ((leader + k) % batch.players) + led))


def origin(batch: Any, i: int) -> Round:
    """Deal ``i``'s start: its Round, or the Round its seed or its hands deal."""
    if batch._rounds is not None:
        given: Round = batch._rounds[i]
        return given
    if batch._seeds is not None:
        from gongzhu.dealing import deal

        rnd = deal(rules=batch.rules, seed=batch._seeds[i], dealer=batch._dealer)
    else:
        n = batch.players
        dealt = tuple(
            tuple(c for c in range(52) if int(batch._dealt[i, s]) >> c & 1) for s in range(n)
        )
        rnd = Round._start(batch.rules, batch._cfg, dealt, None, batch._dealer, None)
    return rnd.pass_exposure() if rnd.phase.name == "EXPOSURE" else rnd
