"""The data parts of a room: :class:`Change`, its next stored state computed but not
kept yet (:mod:`gongzhu.web.rooms` plans, writes, then commits it), and
:class:`TableFacts`, the facts of its game read from its :class:`~gongzhu.table.Table`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from gongzhu.round import Round
from gongzhu.table import Table
from gongzhu.web.settings import SEATS

__all__ = ["Change", "TableFacts"]


@attrs.frozen
class Change:
    """A room's next stored state, computed but not kept yet: :meth:`Room.write` stores it,
    :meth:`Room.commit` keeps it (only after the write succeeded)."""

    table: Table
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    tokens: tuple[str | None, ...]
    seed: int | str
    event: int
    position: int
    start: int
    """Where ``entries`` go in the stored log (its length now, or 0 after ``reset``)."""
    entries: tuple[Mapping[str, Any], ...] = ()
    reset: bool = False
    skipping: bool = False
    token: str | None = None
    """A new seat's token (:meth:`Room.plan_sit`), given to its player only."""
    browsers: tuple[str | None, ...] = (None,) * SEATS
    """Per seat, the hash of the browser id that took it (one browser, one seat)."""
    auto: tuple[bool, ...] = (False,) * SEATS
    """Per seat, its player asked the computer to play for them (托管)."""
    addresses: tuple[str | None, ...] = (None,) * SEATS
    """Per seat, the hash of the address its player took it from (one browser, one seat)."""
    closed: tuple[tuple[int, int] | None, ...] = (None,) * SEATS
    """Per seat, the (game, deal) until whose end it stays the computer's (given back
    in the middle of a deal: its hand was a player's)."""
    seen: tuple[int, ...] = ()
    """Each recipient's event counter (the seats, then the watchers)."""
    moved: tuple[int, ...] = ()
    """Each recipient's counter at the last move of the table."""
    lobby: bool = False
    """The table waits for friends: no card is played until the host starts the deal."""
    pace: str = "normal"
    """The table's speed (:data:`gongzhu.web.settings.PACES`): the computers' pause."""
    undos: tuple[int, ...] = ()
    """Per deal of this game (deal 1 first), how many cards its player took back."""
    rewrite: bool = False
    """The stored log is replaced by ``entries`` (``start`` 0): a card taken back
    (:meth:`Room.plan_undo <gongzhu.web.rooms.Room.plan_undo>`), the game goes on."""


class TableFacts:
    """The game of a room, read from its table (a base of :class:`~gongzhu.web.rooms.Room`)."""

    table: Table

    @property
    def round(self) -> Round:
        return self.table.round

    @property
    def match(self) -> Any:
        return self.table.match

    @property
    def rounds(self) -> tuple[Round, ...]:
        return self.table.rounds

    @property
    def deal_no(self) -> int:
        return self.table.deal_no

    @property
    def log_length(self) -> int:
        return len(self.table.log)

    @property
    def last_score(self) -> Any:
        """The finished deal's :class:`~gongzhu.DealScore` until the next deal, else ``None``."""
        return self.table.last_score

    @property
    def is_over(self) -> bool:
        return self.table.is_over
