"""Rooms and their stores (gongzhu.web.rooms, gongzhu.web.store): rebuilt by replay, nothing lost.

No Starlette needed for most of these: rooms and stores are plain Python.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from real_redis import Backend

from gongzhu import Phase, RuleSet, play_match
from gongzhu.ai.registry import make_strategy
from gongzhu.web.messages import WebError
from gongzhu.web.rooms import Room, Settings, StoreError, hash_token
from gongzhu.web.store import MemoryStore, RedisStore, SQLiteStore, open_store


def _play(room: Room, moves: int) -> None:
    """Let a computer decide for whoever the room waits for, ``moves`` times."""
    for _ in range(moves):
        seats = room.waiting_seats()
        if not seats:
            return
        seat = seats[0]
        room.apply(Room.decide(room.round, seat, room.strategy(seat)))


def _stores(tmp_path: Path, redis: Backend) -> list[Any]:
    """Every kind of store (the Redis one of the backend: fakeredis, then a real server)."""
    return [
        MemoryStore(),
        SQLiteStore(tmp_path / "a.sqlite3"),
        SQLiteStore(":memory:"),
        redis.store(),
    ]


def test_every_store_gives_back_a_room_equal_to_the_one_played(
    tmp_path: Path, redis_backend: Backend
) -> None:
    for store in _stores(tmp_path, redis_backend):
        room, token = Room.create(store, Settings(threshold=500), "Ann", seed=31)
        _play(room, 30)
        again = Room.load(store, room.id)
        assert again is not None, type(store).__name__
        assert again.round == room.round
        assert again.round.history == room.round.history
        assert (again.event, again.position, again.deal_no) == (room.event, room.position, 1)
        assert again.resume(token) == 0
        assert Room.load(store, "nosuchroom") is None
        store.close()


def test_a_conflicting_write_is_refused_not_interleaved(
    tmp_path: Path, redis_backend: Backend
) -> None:
    for store in _stores(tmp_path, redis_backend):
        room, _ = Room.create(store, Settings(), "Ann", seed=2)
        other = Room.load(store, room.id)  # a second server holding the same room
        assert other is not None
        _play(room, 1)
        with pytest.raises(StoreError):
            _play(other, 1)
        assert Room.load(store, room.id).round == room.round  # type: ignore[union-attr]


def test_the_sqlite_file_survives_the_process(tmp_path: Path) -> None:
    path = tmp_path / "rooms.sqlite3"
    store = SQLiteStore(path)
    room, _token = Room.create(store, Settings(level="easy"), "Ann", seed=8)
    _play(room, 12)
    store.close()
    code = (
        "import sys; from gongzhu.web.store import SQLiteStore; from gongzhu.web.rooms import Room;"
        f"r = Room.load(SQLiteStore(sys.argv[1]), {room.id!r});"
        "print(len(r.round.history), r.event)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True,
        env={"PYTHONPATH": str(Path(__import__("gongzhu").__file__).parents[1]),
             "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert out.stdout.split() == [str(len(room.round.history)), str(room.event)]


def test_tokens_are_stored_hashed_and_compared_whole(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "t.sqlite3")
    room, token = Room.create(store, Settings(), "Ann", seed=1)
    meta, _log = store.load(room.id)  # type: ignore[misc]
    text = json.dumps(meta)
    assert token not in text
    assert hash_token(token) in text
    assert room.resume(token[:-1]) is None
    assert room.resume(token + "x") is None
    assert room.resume(None) is None
    assert room.resume(token) == 0


def test_a_room_seed_deals_what_play_match_deals() -> None:
    # A room seed replays the same cards: deal k of game 1 is play_match's deal k.
    room, _ = Room.create(MemoryStore(), Settings(exposure=False), "Ann", seed=1234)
    rules = Settings(exposure=False).rules()
    _, rounds = play_match([make_strategy("easy")] * 4, rules=rules, seed=1234, max_deals=1)
    assert room.round.dealt == rounds[0].dealt


def test_every_level_decides_the_same_way_for_the_same_seed() -> None:
    for level in ("easy", "normal", "hard"):
        a, _ = Room.create(MemoryStore(), Settings(level=level, exposure=False), "A", seed=5)
        b, _ = Room.create(MemoryStore(), Settings(level=level, exposure=False), "B", seed=5)
        seat = a.waiting_seats()[0]
        assert Room.decide(a.round, seat, a.strategy(seat)) == Room.decide(
            b.round, seat, b.strategy(seat)
        ), level


def test_settings_make_the_online_rules_of_source_001() -> None:
    online = RuleSet.preset("online")
    rules = Settings(threshold=1000, sign_swap=False, exposure=True).rules()
    assert online.diff(rules) == {"sign_swap": (True, False)}
    quick = Settings(threshold=500).rules()
    assert quick == RuleSet.preset("online-quick")
    for bad in ({"threshold": 300}, {"level": "x"}, {"sign_swap": 1}, {"threshold": True}):
        with pytest.raises(WebError):
            Settings(**bad)


def test_a_corrupt_store_is_a_store_error_not_a_crash() -> None:
    store = MemoryStore()
    room, _ = Room.create(store, Settings(), "Ann", seed=3)
    _play(room, 4)
    meta, log = store.load(room.id)  # type: ignore[misc]
    for bad_log in ([{"a": {"type": "play", "seat": 9, "card": "2C"}}], [{"x": 1}], ["text"]):
        with pytest.raises(StoreError):
            Room(store, room.id, meta, bad_log)
    with pytest.raises(StoreError):
        Room(store, room.id, {**meta, "settings": {"threshold": 3}}, log)


def test_the_log_of_a_game_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    room, _ = Room.create(MemoryStore(), Settings(), "Ann", seed=3)
    monkeypatch.setattr("gongzhu.web.rooms.MAX_LOG", room.log_length)
    with pytest.raises(WebError) as info:
        room.act(0, {"type": "expose", "cards": []})
    assert info.value.code == "room-full"


def test_skipping_needs_the_player_alone_and_a_game_restarts_with_a_fresh_log() -> None:
    store = MemoryStore()
    room, _ = Room.create(store, Settings(threshold=500), "Ann", seed=3)
    assert room.next_deal(0) is True  # alone: skip
    now = time.monotonic()
    while room.waiting_seats():
        seat = room.waiting_seats()[0]
        assert room.acts_for(seat, now, 60.0)
        room.apply(Room.decide(room.round, seat, room.strategy(seat)))
    assert room.round.phase is Phase.COMPLETE
    room.sit(2, "Bob", now, 60.0)
    room.connected[2] = 1
    room.next_deal(0)  # after the sheet: the next deal
    with pytest.raises(WebError) as info:
        room.next_deal(0)
    assert info.value.code == "not-alone"


def test_open_store_reads_the_store_option(tmp_path: Path) -> None:
    assert isinstance(open_store(":memory:"), SQLiteStore)
    assert isinstance(open_store(tmp_path / "x.sqlite3"), SQLiteStore)
    store = MemoryStore()
    assert open_store(store) is store
    pytest.importorskip("redis")
    assert isinstance(open_store("redis://127.0.0.1:1/0"), RedisStore)  # connects lazily


def test_purge_drops_only_old_rooms(tmp_path: Path, redis_backend: Backend) -> None:
    for store in _stores(tmp_path, redis_backend):
        Room.create(store, Settings(), "Ann", seed=1)
        assert store.count() == 1
        assert store.purge(time.time() - 3600) == 0
        assert store.purge(time.time() + 1) == 1
        assert store.count() == 0


def test_import_gongzhu_does_not_import_the_web_table() -> None:
    code = "import sys, gongzhu, gongzhu.cli; print(sorted(m for m in sys.modules if 'web' in m or m in ('starlette', 'uvicorn')))"  # noqa: E501
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(Path(__import__("gongzhu").__file__).parents[1]),
                              "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert out.stdout.strip() == "[]"


def test_gongzhu_serve_without_the_web_extra_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['starlette'] = None; sys.modules['uvicorn'] = None;"
        "from gongzhu.cli import main; sys.exit(main(['serve']))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": str(Path(__import__("gongzhu").__file__).parents[1]),
                              "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert out.returncode == 2
    assert 'pip install ".[web]" from a checkout of gongzhu' in out.stderr
    assert "Traceback" not in out.stderr


def test_a_player_may_hand_their_seat_to_the_computer_and_take_it_back() -> None:
    store = MemoryStore()
    room, _ = Room.create(store, Settings(exposure=False), "Ann", seed=3)
    now = time.monotonic()
    room.connected[0] = 1
    assert not room.autoplay(0, now, 60.0)
    change = room.plan_autoplay(0, True)
    assert change is not None
    assert not room.autoplay(0, now, 60.0)  # planned, not kept: nothing changed yet
    room.keep(change)
    assert room.autoplay(0, now, 60.0)
    assert room.plan_autoplay(0, True) is None
    again = Room.load(store, room.id)
    assert again is not None
    assert again.auto[0]  # stored: it lasts across restarts
    room.keep(room.plan_autoplay(0, False))  # type: ignore[arg-type]
    assert not room.autoplay(0, now, 60.0)
    with pytest.raises(WebError):
        room.plan_autoplay(1, True)  # a computer's seat is not a player's to hand over


def test_an_away_players_seat_can_be_given_back_to_the_computer() -> None:
    room, token = Room.create(MemoryStore(), Settings(), "Ann", seed=3)
    now = time.monotonic()
    friend = room.sit(2, "Bob", now, 60.0)
    room.connected[0] = 1
    room.connected[2] = 1
    with pytest.raises(WebError):
        room.plan_release(0, 2, now, 60.0)  # Bob is here
    room.connected[2] = 0
    room.gone_since[2] = now - 60.0  # gone past the countdown
    room.keep(room.plan_release(0, 2, now, 60.0))
    assert room.kinds[2] == "computer"
    assert room.resume(friend) is None  # the token stops working
    assert room.resume(token) == 0
    assert room.seat_free(2, now, 60.0)
