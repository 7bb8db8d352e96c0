"""Batches and Rounds: :meth:`VectorDeal.from_rounds` reads each Round's core state, and
:func:`origin` gives back a deal's start as a :class:`~gongzhu.Round` (for
:meth:`VectorDeal.round`).

Both work on the batch's public record of arrays, a :class:`~gongzhu.vector.VectorState`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gongzhu._core import play as _p
from gongzhu._core.rules import queen_counts
from gongzhu._core.state import COMPLETE, PLAYING, played, trick_cards
from gongzhu.cards import Card
from gongzhu.errors import IllegalActionError, ProtocolError, Reason
from gongzhu.round import Round
from gongzhu.vector._state import VectorState, new_state

__all__ = ["from_rounds", "origin"]


def from_rounds(rounds: Sequence[Round]) -> VectorState:
    """:meth:`VectorDeal.from_rounds`: the state of the positions of ``rounds``."""
    rounds = list(rounds)
    if not rounds:
        raise ProtocolError("from_rounds needs at least one Round")
    for i, rnd in enumerate(rounds):
        if not isinstance(rnd, Round):
            raise ProtocolError(f"round {i} is a {type(rnd).__name__}, not a Round")
    rules = rounds[0].rules
    state = new_state(rules, len(rounds))
    n = state.players
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
        state.dealt[i] = t.hands
        state.captured[i] = s.capt
        state.every[i] = t.every
        state.played[i] = played(s)
        state.up[i], state.down[i], state.blind[i] = t.up, t.down, t.blind
        state.shown[i] = t.shown
        state.opening[i] = t.opening
        state.leader[i] = s.leader
        state.flags[i] = s.flags
        state.tricks[i] = len(s.tricks)
        state.is_over[i] = s.done == COMPLETE
        cards = trick_cards(s)
        state.count[i] = len(cards)
        if cards:
            led = cards[0] // 13
            state.led[i] = led
            state.trick[: len(cards), i] = cards
            best = max(c for c in cards if c // 13 == led)
            state.best[i] = best
            state.best_pos[i] = cards.index(best)
            state.taken[i] = sum(1 << c for c in cards)
        for _lead, _winner, tcards in s.tricks:
            _note_voids(state, i, _lead, tcards)
        if cards:
            _note_voids(state, i, s.leader, cards)
        if state.cfg.queen_bonus:
            state.queen_counts[i] = queen_counts(n, s.tricks)
            for _lead, winner, tcards in s.tricks:
                if 23 in tcards:
                    state.queen_taker[i] = winner
        state.to_act[i] = (s.leader + len(cards)) % n
    state.rounds = rounds
    state.aligned = not state.is_over.any() and bool((state.count == state.count[0]).all())
    state.aligned_count = int(state.count[0])
    return state


def _note_voids(state: VectorState, i: int, leader: int, cards: Sequence[int]) -> None:
    led = cards[0] // 13
    for k, c in enumerate(cards):
        if c // 13 != led:
            state.voids[i] |= np.uint32(1 << (4 * ((leader + k) % state.players) + led))


def origin(state: VectorState, i: int) -> Round:
    """Deal ``i``'s start: its Round, or the Round its seed or its hands deal."""
    if state.rounds is not None:
        given: Round = state.rounds[i]
        return given
    if state.seeds is not None:
        from gongzhu.dealing import deal

        rnd = deal(rules=state.rules, seed=state.seeds[i], dealer=state.dealer)
    else:
        n = state.players
        hands = [
            [Card.from_index(c) for c in range(52) if int(state.dealt[i, s]) >> c & 1]
            for s in range(n)
        ]
        rnd = Round.from_hands(hands, rules=state.rules, dealer=state.dealer)
    return rnd.pass_exposure() if rnd.phase.name == "EXPOSURE" else rnd
