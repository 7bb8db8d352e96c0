"""Follow-ups of issues 26-28 on the web table: a watcher is asked nothing, only the
host gives a seat back to the computer, a 500 carries the security headers."""

from __future__ import annotations

import time

import pytest

from gongzhu import deal
from gongzhu.rules import RuleSet
from gongzhu.web.messages import WebError
from gongzhu.web.rooms import Room, Settings, public_view
from gongzhu.web.store import MemoryStore


def test_a_watchers_view_asks_nothing_while_a_seat_is_asked_something() -> None:
    rnd = deal(RuleSet.preset("online"), seed=5)
    # Exposure: every seat owes a decision, the watcher none.
    assert rnd.view(0).to_dict()["pending"] == "expose"
    assert public_view(rnd)["pending"] is None
    rnd = rnd.pass_exposure()
    for _ in range(9):  # a few plays, whoever is to act
        seat = rnd.to_act
        assert seat is not None
        assert rnd.view(seat).to_dict()["pending"] == "play"
        assert public_view(rnd)["pending"] is None
        rnd = rnd.play(next(iter(rnd.view(seat).legal_plays)), seat=seat)


def test_a_rooms_state_for_a_watcher_asks_nothing() -> None:
    room, _ = Room.create(MemoryStore(), Settings(), "Ann", seed=7)
    now = time.monotonic()
    assert room.state(0, now, 60.0)["view"]["pending"] == "expose"
    assert room.state(None, now, 60.0)["view"]["pending"] is None
