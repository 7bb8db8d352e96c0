"""Deal codes, game numbers, reviews over HTTP and the deal of the day, without a browser."""

from __future__ import annotations

import datetime
import itertools
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient

from gongzhu.table import Table
from gongzhu.web.app import create_app
from gongzhu.web.deal_codes import (
    CODE_LENGTH,
    DealCode,
    code_of,
    daily,
    decode,
    encode,
)
from gongzhu.web.messages import WebError
from gongzhu.web.rooms import MAX_NUMBER, Room, Settings
from gongzhu.web.settings import ALL_HEARTS, EXPOSABLE, LEVELS
from gongzhu.web.store import MemoryStore


def play_out(room: Room, *, deals: int = 1) -> None:
    """Let the computers play every seat for ``deals`` deals (or to the game's end)."""
    kinds = list(room.kinds)
    room.kinds[:] = ["computer"] * 4
    for k in range(deals):
        while room.waiting_seats():
            seat = room.waiting_seats()[0]
            room.apply(Room.decide(room.round, seat, room.strategy(seat)))
        if room.is_over or k == deals - 1:
            break
        room.next_deal(0)
    room.kinds[:] = kinds


# -- codes ------------------------------------------------------------------------------------


def test_a_code_reads_back_whatever_the_settings() -> None:
    for level, swap, exposure, hearts, exposable in itertools.product(
        LEVELS, (True, False), (True, False), ALL_HEARTS, EXPOSABLE
    ):
        settings = Settings(
            level=level, sign_swap=swap, exposure=exposure, all_hearts=hearts, exposable=exposable
        )
        for seed, leader, seat in ((0, None, 0), (2**48 - 1, 3, 3), (12345, 1, 2)):
            code = DealCode(seed, leader, seat % 4, seat, settings)
            text = encode(code)
            assert len(text) == CODE_LENGTH <= 16
            assert decode(text) == code
            assert decode(text.lower().replace("0", "o")) == code


def test_a_mistyped_code_is_refused() -> None:
    text = encode(daily(datetime.date(2026, 12, 5)))
    for k in range(len(text)):
        wrong = text[:k] + ("2" if text[k] != "2" else "3") + text[k + 1 :]
        with pytest.raises(WebError):
            decode(wrong)
    for bad in ("", "U" * CODE_LENGTH, text + "0", None, 12):
        with pytest.raises(WebError):
            decode(bad)


def test_a_code_deals_the_same_cards_to_the_same_seat_and_reveals_no_other_deal() -> None:
    store = MemoryStore()
    room, _ = Room.create(store, Settings(level="easy"), "Ann", seed=424242)
    play_out(room, deals=2)  # deal 2 is led by the pig's taker, not the 2♣ holder
    for k, rnd in enumerate(room.rounds, 1):
        code = decode(code_of(rnd, 1, room.settings))
        assert code.seat == 1
        assert code.settings == room.settings
        assert "424242" not in code_of(rnd, 1, room.settings)
        shared, _ = Room.create(
            store, code.room_settings(), "Bob", first=code.first, seat=code.seat
        )
        assert shared.round.dealt == rnd.dealt, f"deal {k}"
        assert shared.round.to_act == rnd.tricks[0].leader or shared.round.phase.name != "PLAY"
        assert shared.kinds[1] == "human"
        assert shared.names[1] == "Bob"
        # The same computers: replayed with the same cards, the deal goes as it went.
        play_out(shared)
        assert shared.rounds[0].history == rnd.history  # (a game of one deal: other rules)
        assert shared.rounds[0].score().totals == rnd.score().totals
        assert shared.is_over  # a game of that one deal
        assert shared.info(0.0, 60.0)["seed"] is None  # its code names it, not a number


def test_the_deal_of_the_day_is_the_same_all_day_and_new_the_next() -> None:
    day = datetime.date(2026, 12, 5)
    assert daily(day) == daily(day)
    assert daily(day).seed != daily(day + datetime.timedelta(days=1)).seed


# -- game numbers -----------------------------------------------------------------------------


def test_a_finished_games_number_has_15_digits_and_replays_it() -> None:
    store = MemoryStore()
    room, _ = Room.create(store, Settings(threshold=500, exposure=False, level="easy"), "Ann")
    for _ in range(2):  # the game, then "new game, same settings"
        play_out(room, deals=40)
        assert room.is_over
        shown = room.info(0.0, 60.0)["seed"]
        assert shown is not None
        assert shown.isdigit()
        assert len(shown) <= 15
        again = Table.replay(room.rules, int(shown), 1, room.table.log)
        assert again.match.totals == room.match.totals
        assert [r.dealt for r in again.rounds] == [r.dealt for r in room.rounds]
        game = room.game
        room.new_game(0)
        assert room.game == game + 1
        assert room.info(0.0, 60.0)["seed"] is None
        reloaded = Room.load(store, room.id)
        assert reloaded is not None
        assert reloaded.round == room.round
        assert reloaded.game == room.game


def test_the_start_screen_refuses_a_number_longer_than_15_digits() -> None:
    app = create_app(bot_delay=0)
    with TestClient(app) as client:
        made = client.post("/api/rooms", json={"name": "Ann", "seed": MAX_NUMBER - 1})
        assert made.status_code == 201
        refused = client.post("/api/rooms", json={"name": "Ann", "seed": MAX_NUMBER})
        assert refused.status_code == 400


# -- over HTTP --------------------------------------------------------------------------------


def _finished_room(client: TestClient, app: Any, seed: int = 77) -> Room:
    made = client.post("/api/rooms", json={"name": "Ann", "seed": seed, "level": "easy"}).json()
    room: Room = app.state.server.rooms.hubs[made["room"]].room
    play_out(room)
    return room


def test_the_review_endpoint_reviews_a_finished_deal_once() -> None:
    app = create_app(bot_delay=0)
    with TestClient(app) as client:
        made = client.post("/api/rooms", json={"name": "Ann", "level": "easy"}).json()
        early = client.get(f"/api/rooms/{made['room']}/review?deal=1&seat=0")
        assert early.status_code == 404  # nothing finished: no hidden card is shown
        room = _finished_room(client, app)
        got = client.get(f"/api/rooms/{room.id}/review?deal=1&seat=0")
        assert got.status_code == 200
        data = got.json()
        assert [t["number"] for t in data["tricks"]] == list(range(1, 14))
        assert len(data["code"]) <= 16
        assert data["deal"] == 1
        assert data == client.get(f"/api/rooms/{room.id}/review?deal=1&seat=0").json()
        for bad in ("deal=2&seat=0", "deal=1&seat=4", "deal=x"):
            assert client.get(f"/api/rooms/{room.id}/review?{bad}").status_code == 400
        record = client.get(f"/api/rooms/{room.id}/record").json()
        posted = client.post("/api/review", json={"record": record, "deal": 1, "seat": 0})
        assert posted.status_code == 200
        assert posted.json()["tricks"] == data["tricks"]
        assert client.post("/api/review", json={"record": {"format": "x"}}).status_code == 400
        # A terminal game's save (gongzhu play --human --save) holds the same deal.
        save = {"format": "gongzhu-save", "version": 2, "table": room.table.to_dict()}
        from_save = client.post("/api/review", json={"record": save, "deal": 1, "seat": 0})
        assert from_save.status_code == 200
        assert from_save.json()["tricks"] == data["tricks"]


def test_the_days_board_keeps_one_result_per_browser_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    store = str(tmp_path / "rooms.sqlite3")
    rows: list[dict[str, Any]] = []
    app = create_app(store, bot_delay=0)
    with TestClient(app) as client:
        client.cookies.set("gongzhu_browser", "browser-a")
        for _ in range(2):  # played twice the same day: counted once
            made = client.post("/api/daily", json={"name": "Ann"}).json()
            room = app.state.server.rooms.hubs[made["room"]].room
            assert room.daily is not None
            play_out(room)
            rows = client.get(f"/api/daily?room={room.id}").json()["rows"]
            assert len(rows) == 1
            assert rows[0]["me"] is True
            assert rows[0]["name"] == "Ann"
        client.cookies.set("gongzhu_browser", "browser-b")
        made = client.post("/api/daily", json={"name": "Bo"}).json()
        play_out(app.state.server.rooms.hubs[made["room"]].room)
        rows = client.get(f"/api/daily?room={made['room']}").json()["rows"]
        assert len(rows) == 2
        assert [r["me"] for r in rows].count(True) == 1
    app = create_app(store, bot_delay=0)
    with TestClient(app) as client:
        kept = client.get("/api/daily").json()["rows"]
        assert sorted(r["name"] for r in kept) == ["Ann", "Bo"]
        assert all(r["me"] is False for r in kept)  # no cookie: nobody's row
