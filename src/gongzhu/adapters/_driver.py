"""What every adapter shares: who acts next, the legal action ids, stepping by id, text.

Every seat makes its exposure decision (an exposure id; 52 declines) before the
first lead when the rules play exposure (specification §9.1), in play order from the
leader; then the seat to act plays (or claims), and while a claim is pending
the other seats answer it in seat order after the claimer.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

from gongzhu._base.text import brief
from gongzhu._codec import encoding as _encoding
from gongzhu.ai.driver import Strategy, awaiting, decide
from gongzhu.errors import IllegalActionError, ProtocolTypeError, Reason
from gongzhu.phase import Phase
from gongzhu.protocol import action_id
from gongzhu.round import Round
from gongzhu.scoring import score


def exposure_pending(rnd: Round, seat: int) -> bool:
    """True while ``seat`` still has its exposure decision to make."""
    return rnd.phase is Phase.EXPOSURE and seat not in rnd.exposure_decided


def actor(rnd: Round) -> int | None:
    """The seat that acts next (``None`` once the deal is complete): the first the turn
    driver awaits (:func:`gongzhu.ai.driver.awaiting`)."""
    seats = awaiting(rnd)
    return seats[0] if seats else rnd.to_act


def legal_ids(rnd: Round, seat: int) -> list[int]:
    """``seat``'s legal action ids now, ascending (empty when it is not its turn)."""
    if seat != actor(rnd):
        return []
    return rnd.legal_actions(seat)  # the integer lane: every mixed exposure id included


def action_int(action: object) -> int:
    """An action id from an agent: a Python or NumPy integer, nothing else (#22 item 10).

    ``int()`` would truncate ``6.99`` to 6, read ``"32"`` as 32 and ``True`` as 1;
    those (and NaN, None, arrays) are a :class:`~gongzhu.errors.ProtocolTypeError` (a
    :class:`~gongzhu.errors.ProtocolError` and a ``TypeError``).
    """
    # numbers.Integral: Python and NumPy integers (np.bool_ is not one; bool is excluded).
    if isinstance(action, bool) or not isinstance(action, numbers.Integral):
        raise ProtocolTypeError(f"an action is an integer id, got {brief(action)}")
    return int(action)


def seed_int(seed: object) -> int | None:
    """A reset seed: None, or a Python or NumPy integer (NumPy ones as Python ints)."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise ProtocolTypeError(f"a seed is an integer or None, got {brief(seed)}")
    return int(seed)


def step(rnd: Round, seat: int, action_id: int) -> Round:
    """The round after ``seat`` takes action ``action_id`` (refused unless it is legal)."""
    # Out of range is refused here, before any message formats a 5,000-digit int (fuzz find).
    in_range = type(action_id) is int and 0 <= action_id < _encoding.NUM_ACTIONS
    if not in_range or seat != actor(rnd):
        raise IllegalActionError(
            Reason.INVALID_CHOICE,
            seat,
            detail=f"action {brief(action_id)} is not legal now; legal: {legal_ids(rnd, seat)}",
            action="act",
        )
    return rnd.apply(action_id, seat)  # the engine checks it


def bot_action(rnd: Round, seat: int, strategy: Strategy) -> int:
    """The action id a library strategy picks for ``seat`` (:func:`gongzhu.ai.driver.decide`)."""
    return action_id(decide(rnd, seat, strategy))


def running_totals(rnd: Round) -> tuple[int, ...]:
    """The deal score of the cards captured so far (the final score once complete)."""
    if rnd.is_over:
        return rnd.score().totals
    return score(rnd.captured, rnd.exposure_factors, rules=rnd.rules).totals


def render(rnd: Round, names: Sequence[str] | None = None) -> str:
    """The whole table as text (every hand: for a human watching agents, not for a player)."""
    n = rnd.players
    names = names or [f"seat {s}" for s in range(n)]
    lines = [f"{rnd!r}"]
    for s in range(n):
        mark = " ▶" if s == actor(rnd) else ""
        exposed = f"  exposed {rnd.exposures[s]}" if rnd.exposures[s] else ""
        took = len(rnd.captured[s])
        lines.append(f"{names[s]}{mark}: {rnd.hands[s] or '-'}{exposed}  (took {took} cards)")
    if rnd.current_trick.cards:
        lines.append(f"on the table: {rnd.current_trick}")
    if rnd.is_over:
        lines.append(f"totals: {rnd.score().totals}")
    return "\n".join(lines)
