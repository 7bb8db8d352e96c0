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


def test_only_the_host_gives_an_away_seat_back_to_the_computer() -> None:
    room, _ = Room.create(MemoryStore(), Settings(), "Ann", seed=3)
    now = time.monotonic()
    room.sit(1, "Bob", now, 60.0)
    carl = room.sit(2, "Carl", now, 60.0)
    room.connected[1] = 1
    room.gone_since[2] = now - 120.0  # Carl is away, long past the takeover
    with pytest.raises(WebError, match="only the host"):
        room.plan_release(1, 2, now, 60.0)  # Bob is present, but not the host
    assert room.kinds[2] == "human"
    assert room.resume(carl) == 2
    room.keep(room.plan_release(0, 2, now, 60.0))  # Ann created the room
    assert room.kinds[2] == "computer"
    assert room.resume(carl) is None
