"""One vocabulary for positions: what :class:`~gongzhu.Round` and :class:`~gongzhu.Board`
both answer, written once as a :class:`typing.Protocol`.

A name means the same on each (and on :class:`~gongzhu.vector.VectorDeal`, their batched
twin, whose answers are arrays): code written against :class:`Position` (a driver, a
search, an adapter) reads either.

=================  ==========================================================
``to_act``         the seat to play the next card; ``None`` once the deal is
                   over (a :class:`~gongzhu.Round` also says ``None`` while a
                   claim is pending, and names the deciding seats in
                   ``exposure_pending`` / ``claim_pending``)
``is_over``        True once the deal is over (every card played, or ended
                   early by a rule): :meth:`totals` works
``legal_actions``  the legal action ids (:mod:`gongzhu.protocol`; a card's id
                   is its index 0–51) of the seat that decides next, ascending;
                   empty once the deal is over (a board holds the card play
                   only: a round under ``claims=True`` may also list ``CLAIM``)
``totals()``       each seat's deal score, in seat order (the deal must be
                   over: :class:`~gongzhu.DealNotOverError` before)
=================  ==========================================================

The transitions differ by design, as the objects do: ``Round.apply(id)`` returns the
next, immutable round; ``Board.push(id)`` changes the board in place and
``Board.pop()`` takes it back; ``VectorDeal.step(ids)`` moves a whole batch (with
``legal_mask()``, its legal ids as a boolean array).

>>> from gongzhu import Board, Position, deal
>>> r = deal(seed=7).pass_exposure()
>>> b = Board(r)
>>> isinstance(r, Position), isinstance(b, Position)
(True, True)
>>> r.to_act == b.to_act and r.legal_actions() == b.legal_actions()
True
>>> r.rollout(seed=5).totals() == b.rollout(seed=5) == b.totals()
True
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

__all__ = ["Position"]


@runtime_checkable
class Position(Protocol):
    """A position of one deal, as every engine of this package names it (see the module)."""

    @property
    def to_act(self) -> int | None:
        """The seat to play the next card (``None`` once the deal is over)."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the deal is over."""
        ...

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat that decides next, ascending."""
        ...

    def totals(self) -> tuple[int, ...]:
        """Each seat's deal score, in seat order (the deal must be over)."""
        ...
