"""A mutable board of one deal's card play, for people who write their own search.

:class:`~gongzhu.Round` is immutable: every play builds a new round, which is
what a table, a record or an undo list wants. A search wants the opposite:
one position it changes in place and takes back, thousands of times a
second. ``Board(round)`` gives that position as a :class:`Board`, in the
style python-chess's ``Board.push``/``pop`` and OpenSpiel's
``apply_action``/``undo_action`` made familiar:

>>> from gongzhu import Board, deal
>>> r = deal(seed=7).pass_exposure()
>>> b = Board(r)
>>> ids = b.legal_actions()
>>> ids == r.legal_actions()
True
>>> b.push(5)                               # seat 2 leads 7♣ (card index 5)
>>> b.push(b.legal_actions()[-1])           # seat 3 follows with its highest club, J♣
>>> b.plays, b.to_round() == r.apply(5).apply(9)
((5, 9), True)
>>> b.pop(), b.pop(), b.to_round() == r     # taken back, last first
(9, 5, True)
>>> totals = b.copy().rollout(seed=5)      # a random playout of a copy: the deal's totals
>>> totals == r.rollout(seed=5).score().totals
True

Actions are the protocol's ids (a play's id is its card's index, 0–51;
:mod:`gongzhu.protocol`). The board holds the card play only: it starts once
every seat has decided on exposure and no claim is pending, and it knows no
claims. The rules of play are the engine core's (:mod:`gongzhu._core`), the
same the :class:`~gongzhu.Round` obeys; a board and a round agree on every
legal set, every play and every total (the core's differential law checks
it). Turn a board back into a round with :meth:`Board.to_round` (the
history included) to validate, record, score or show it.

A board is not thread-safe and not picklable; :meth:`~Board.to_round` is the
form to keep.
"""

from __future__ import annotations

import random
from typing import Final

from gongzhu._base.seeds import check_seed
from gongzhu._core import board as _board
from gongzhu._core import policy as _policy
from gongzhu._core.play import exposure_open as _exposure_open
from gongzhu._core.play import mask_ids as _mask_ids
from gongzhu._core.rollout import seed_state as _seed_state
from gongzhu._core.state import CLAIMING, State
from gongzhu.errors import IllegalActionError, Reason, _brief
from gongzhu.round import Round

__all__ = ["Board"]

_NONE: Final = [None] * 8  # one random policy slot per seat (the core reads n of them)


def _refuse_seed(detail: str) -> IllegalActionError:
    return IllegalActionError(Reason.INVALID_CHOICE, None, detail=detail, action="rollout")


class Board:
    """One deal's card play as a mutable position: ``Board(round)``, from a round whose
    exposure decisions are all made and where no claim is pending.

    :meth:`legal_actions` lists the legal ids of the seat to act,
    :meth:`push` plays one and :meth:`pop` takes the last push back;
    :meth:`copy` branches (the copy's undo stack starts empty);
    :meth:`rollout` plays the rest at random; :meth:`totals` scores a
    finished deal; :meth:`to_round` is the :class:`~gongzhu.Round` reached.
    """

    __slots__ = ("_b", "_origin")
    _b: _board.Board
    _origin: State

    def __init__(self, round_: Round) -> None:
        if not isinstance(round_, Round):
            raise IllegalActionError(
                Reason.INVALID_CHOICE,
                None,
                detail=f"a Board is made from a Round, got {type(round_).__name__}",
                action="board",
            )
        s = round_._core
        if _exposure_open(s):
            raise IllegalActionError(
                Reason.EXPOSURE_PENDING,
                None,
                detail="a board starts once every seat has decided on exposure",
                action="board",
            )
        if s.done == CLAIMING:
            raise IllegalActionError(
                Reason.WRONG_PHASE, None, detail="a claim is pending", action="board"
            )
        object.__setattr__(self, "_origin", s)
        object.__setattr__(self, "_b", _board.of_state(s))

    @classmethod
    def _of(cls, origin: State, core: _board.Board) -> Board:
        board = object.__new__(cls)
        object.__setattr__(board, "_origin", origin)
        object.__setattr__(board, "_b", core)
        return board

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Board changes only through push/pop/rollout: cannot set {name!r}")

    # -- the position ------------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat to play next (``None`` once the deal is over)."""
        b = self._b
        return None if b.done else b.to_act()

    @property
    def is_over(self) -> bool:
        """True once the deal is over (every card played, or ended early by a rule)."""
        return self._b.done

    @property
    def legal_mask(self) -> int:
        """The legal plays of the seat to act as a 52-bit mask (bit ``i``: card index ``i``)."""
        return self._b.legal()

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to act, ascending (empty once the deal is over)."""
        return _mask_ids(self._b.legal())

    @property
    def plays(self) -> tuple[int, ...]:
        """The ids played on this board (and the boards it was copied from), in order."""
        return tuple(self._b.plays)

    # -- changing it -------------------------------------------------------------------------

    def push(self, action: int) -> None:
        """The seat to act plays the card with index ``action`` (refused unless it is legal)."""
        b = self._b
        if action.__class__ is not int or not 0 <= action < 52 or not b.legal() >> action & 1:
            raise IllegalActionError(
                Reason.INVALID_CHOICE,
                None if b.done else b.to_act(),
                detail=f"{_brief(action)} is not a legal play now; legal: {self.legal_actions()}",
                action="push",
            )
        b.push(action)

    def pop(self) -> int:
        """Take back the last :meth:`push`; returns its id (after a :meth:`rollout`, nothing
        before it can be taken back)."""
        b = self._b
        if not b.undo:
            raise IllegalActionError(
                Reason.INVALID_CHOICE, None, detail="nothing was pushed", action="pop"
            )
        return b.pop()

    def copy(self) -> Board:
        """An independent board in the same position (its undo stack starts empty)."""
        return Board._of(self._origin, self._b.copy())

    def rollout(self, seed: int | None = None) -> tuple[int, ...]:
        """Play the rest of the deal at random on this board (in place); its :meth:`totals`.

        With ``seed`` (an int) the plays are the same every time, in every
        build, and the same as :meth:`Round.rollout(seed=...) <gongzhu.Round.rollout>`
        from the same position. The plays cannot be popped: :meth:`copy` first
        to keep the position (``b.copy().rollout(seed=k)``).
        """
        if seed is None:
            seed = random.getrandbits(64)
        else:
            check_seed(seed, error=_refuse_seed, text=False)
        b = self._b
        b.undo.clear()  # the plays below are not pushes: nothing before them can be popped
        _policy.rollout(b, _NONE, _seed_state(seed))  # type: ignore[arg-type]
        return b.totals()

    # -- the result --------------------------------------------------------------------------

    def totals(self) -> tuple[int, ...]:
        """Each seat's deal score, in seat order (the deal must be over)."""
        b = self._b
        if not b.done:
            raise IllegalActionError(
                Reason.WRONG_PHASE, None, detail="the deal is not over", action="totals"
            )
        return b.totals()

    def to_round(self) -> Round:
        """The :class:`~gongzhu.Round` this board's plays reach (history included)."""
        return Round._from_core(_board.to_state(self._origin, self._b))

    def __repr__(self) -> str:
        state = "over" if self._b.done else f"seat {self._b.to_act()} to act"
        return f"<Board {state}, {len(self._b.plays)} plays since its round>"
