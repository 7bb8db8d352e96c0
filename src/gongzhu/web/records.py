"""The published game records (``GET /api/rooms/<id>/record``): built once per finished
deal, off the event loop, and rate-limited per address.

A record is rebuilt by replaying the game (tens of milliseconds for ten deals,
more for a long game): :class:`Records` builds it in a worker thread, keeps the
text of each room's latest record (until a deal finishes, a new game starts or
a name changes), and gives each address (:func:`~gongzhu.web.hub.client_key`)
:attr:`Limits.records_per_minute <gongzhu.web.Limits.records_per_minute>`
requests a minute after a burst, like every other request that costs work.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Final

from gongzhu.web.hub import Budgets
from gongzhu.web.limits import Limits
from gongzhu.web.messages import WebError
from gongzhu.web.rooms import Room

__all__ = ["Records"]

_KEPT: Final = 256
"""Records kept (the rooms asked for most recently)."""


class Records:
    """The records of the rooms of one server (see the module)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._texts: OrderedDict[str, tuple[tuple[object, ...], str]] = OrderedDict()
        self._budgets = Budgets(limits.records_per_minute, limits.records_burst)

    async def text(self, room: Room, address: str) -> str:
        """The room's record (JSON text) for a request from ``address``; ``WebError``
        ``rate-limited`` past the address's budget, ``not-found`` before a deal is over."""
        if not self._budgets.take(address):
            raise WebError("rate-limited", "too many record requests; wait a minute")
        # What the record depends on: the finished deals of this game, and the names.
        key = (room.game, len(room.table.rounds), tuple(room.names))
        kept = self._texts.get(room.id)
        if kept is not None and kept[0] == key:
            self._texts.move_to_end(room.id)
            return kept[1]
        text = await asyncio.to_thread(room.record_text)  # the table is immutable: safe
        self._texts[room.id] = (key, text)
        self._texts.move_to_end(room.id)
        while len(self._texts) > _KEPT:
            self._texts.popitem(last=False)
        return text
