"""Who gets into a room and onto a seat: watchers cannot lock newcomers out, an away
friend's seat and hand are not handed over early, one browser (or one address without
the browser cookie) holds one seat, two tabs of a seat race safely, and a restart in the
middle of a deal loses nobody's seat.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from test_web_server import WS, connect, drain, error_of, is_state, new_room, respond

from gongzhu.web import Limits, create_app
from gongzhu.web.messages import WebError
from gongzhu.web.rooms import Room, Settings
from gongzhu.web.store import MemoryStore


def _watchers(client: TestClient, room: str, n: int, stack: contextlib.ExitStack) -> list[WS]:
    out = [WS(stack.enter_context(connect(client, room))) for _ in range(n)]
    for w in out:
        w.hello(None)
    return out


# -- watchers ------------------------------------------------------------------------------


def test_a_newcomer_gets_past_a_room_full_of_watchers_and_takes_a_free_seat() -> None:
    limits = Limits(room_watchers=3, address_watchers=10, client_connections=100)
    with TestClient(create_app(bot_delay=0, seed=4, limits=limits)) as client:
        data = new_room(client)
        with contextlib.ExitStack() as stack:
            _watchers(client, data["room"], 3, stack)
            friend = WS(stack.enter_context(connect(client, data["room"])))
            assert friend.hello(None)["seat"] is None  # let in: a seat is free
            friend.send({"type": "sit", "seat": 1, "name": "Bob"})
            assert friend.until(lambda m: m["type"] == "welcome")["seat"] == 1
            # Or a sit instead of the hello: no watcher's slot is needed at all.
            other = WS(stack.enter_context(connect(client, data["room"])))
            other.send({"type": "sit", "seat": 2, "name": "Cid"})
            assert other.until(lambda m: m["type"] == "welcome")["seat"] == 2


def test_a_newcomer_past_the_watchers_cap_who_does_not_sit_is_closed() -> None:
    limits = Limits(room_watchers=2, address_watchers=10, seat_wait=0.3, client_connections=100)
    with TestClient(create_app(bot_delay=0, seed=4, limits=limits)) as client:
        data = new_room(client)
        with contextlib.ExitStack() as stack:
            _watchers(client, data["room"], 2, stack)
            idler = WS(stack.enter_context(connect(client, data["room"])))
            idler.hello(None)
            assert idler.until(error_of("room-full"))["message"] == "no seat was taken in time"
            assert idler.closed() == 1013


def test_a_watcher_silent_long_makes_room_for_a_newcomer() -> None:
    limits = Limits(room_watchers=2, address_watchers=10, watcher_idle=0.2, client_connections=100)
    with TestClient(create_app(bot_delay=0, seed=4, limits=limits)) as client:
        data = new_room(client)
        with contextlib.ExitStack() as stack:
            quiet, talker = _watchers(client, data["room"], 2, stack)
            time.sleep(0.3)
            talker.send({"type": "resync"})  # this one is not silent
            talker.state()
            newcomer = WS(stack.enter_context(connect(client, data["room"])))
            assert newcomer.hello(None)["seat"] is None
            assert quiet.until(error_of("room-full"))
            assert quiet.closed() == 1013
            talker.send({"type": "resync"})
            assert talker.state()["view"]["seat"] is None  # still watching


def test_a_full_room_with_no_free_seat_and_no_silent_watcher_refuses_a_watcher() -> None:
    limits = Limits(room_watchers=1, address_watchers=10, client_connections=100)
    with TestClient(create_app(bot_delay=0, seed=4, limits=limits)) as client:
        data = new_room(client)
        with contextlib.ExitStack() as stack:
            for seat in (1, 2, 3):
                ws = WS(stack.enter_context(connect(client, data["room"])))
                ws.send({"type": "sit", "seat": seat, "name": f"P{seat}"})
                ws.until(lambda m: m["type"] == "welcome")
            _watchers(client, data["room"], 1, stack)
            extra = WS(stack.enter_context(connect(client, data["room"])))
            extra.send({"type": "hello", "token": None, "name": None})
            assert extra.until(error_of("room-full"))
            assert extra.closed() == 1013


# -- an away friend's seat -----------------------------------------------------------------


def test_an_away_friends_seat_is_given_back_only_after_the_countdown() -> None:
    room, _ = Room.create(MemoryStore(), Settings(), "Ann", seed=3)
    now = time.monotonic()
    room.sit(1, "Bob", now, 60.0)
    room.connected[0] = 1
    room.gone_since[1] = now - 0.5  # a Wi-Fi blip half a second ago
    with pytest.raises(WebError, match="may come back") as info:
        room.plan_release(0, 1, now, 60.0)
    assert info.value.code == "seat-taken"
    assert room.kinds[1] == "human"
    room.gone_since[1] = now - 61.0
    room.keep(room.plan_release(0, 1, now, 60.0))
    assert room.kinds[1] == "computer"


def test_a_seat_given_back_mid_deal_is_not_handed_to_a_newcomer_until_the_deal_ends() -> None:
    room, _ = Room.create(MemoryStore(), Settings(), "Ann", seed=3)
    now = time.monotonic()
    room.sit(1, "Bob", now, 60.0)
    room.gone_since[1] = now - 61.0
    room.keep(room.plan_release(0, 1, now, 60.0))
    with pytest.raises(WebError, match="until this deal ends"):
        room.plan_sit(1, "Eve", now, 60.0, browser="eve")
    assert Room.load(room.store, room.id).closed[1] == [room.game, room.deal_no]  # kept
    while not room.round.is_over:  # the computers play the deal out
        seat = room.waiting_seats()[0]
        room.apply(Room.decide(room.round, seat, room.strategy(seat)))
    room.keep(room.plan_sit(1, "Eve", now, 60.0, browser="eve"))  # the deal is over
    assert room.kinds[1] == "human"


def _release(host: WS, seat: int) -> dict[str, Any]:
    """Send ``release`` answering the newest state (again while the computers move on);
    the refusal, or the next state."""
    for _ in range(20):
        drain(host)
        host.send({"type": "resync"})
        state = host.state()
        host.send({"type": "release", "event": state["event"], "seat": seat})
        answer = host.until(lambda m: m["type"] == "error" or is_state(m))
        if answer["type"] != "error" or answer["code"] != "stale":
            return answer
    raise AssertionError("the table never stood still")


def test_the_host_cannot_read_an_away_friends_hand_through_release_and_sit() -> None:
    with TestClient(create_app(bot_delay=0, takeover=0.5, seed=4)) as client:
        data = new_room(client, exposure=False)
        rid = data["room"]
        with connect(client, rid) as s0:
            host = WS(s0)
            host.hello(data["token"])
            with connect(client, rid) as s1:
                friend = WS(s1)
                friend.hello(None)
                friend.send({"type": "sit", "seat": 1, "name": "Bob"})
                friend.until(lambda m: m["type"] == "welcome")
                friend.state()
            host.until(
                lambda m: (
                    is_state(m)
                    and m["room"]["seats"][1]["kind"] == "human"
                    and not m["room"]["seats"][1]["connected"]
                )
            )
            assert _release(host, 1)["code"] == "seat-taken"  # the countdown runs
            time.sleep(0.6)
            assert _release(host, 1)["type"] == "state"  # accepted
            drain(host)
            host.send({"type": "resync"})
            assert host.state()["room"]["seats"][1]["kind"] == "computer"
            with connect(client, rid) as s_new:
                newcomer = WS(s_new)
                newcomer.hello(None)
                newcomer.send({"type": "sit", "seat": 1, "name": "Eve"})
                error = newcomer.until(lambda m: m["type"] in ("error", "welcome"))
                assert error["type"] == "error"
                assert error["code"] == "seat-taken"
                newcomer.send({"type": "resync"})
                view = newcomer.state()["view"]
                assert view["seat"] is None
                assert view["hand"] == []  # the friend's cards stay hidden


def test_a_socket_without_the_browser_cookie_gets_no_seat_beside_a_player_from_its_address() -> (
    None
):
    room, _ = Room.create(MemoryStore(), Settings(), "Ann", seed=3, address="10.0.0.1")
    now = time.monotonic()
    with pytest.raises(WebError, match="from your address") as info:
        room.plan_sit(1, "Ann again", now, 60.0, browser=None, address="10.0.0.1")
    assert info.value.detail == {"seat": 0}
    room.keep(room.plan_sit(1, "Bob", now, 60.0, browser=None, address="10.0.0.2"))
    # A browser of its own (its cookie) on the same network is a friend on the same Wi-Fi.
    room.keep(room.plan_sit(2, "Cid", now, 60.0, browser="cid", address="10.0.0.1"))
    assert room.kinds == ["human", "human", "human", "computer"]


def test_a_second_socket_of_the_host_without_the_cookie_is_refused_a_seat() -> None:
    with TestClient(create_app(bot_delay=0, seed=4)) as client:
        data = new_room(client)  # the host's address is the test client's
        with client.websocket_connect(f"/ws/{data['room']}") as s:  # no cookie
            script = WS(s)
            script.hello(None)
            script.send({"type": "sit", "seat": 1, "name": "Sock puppet"})
            assert script.until(error_of("seat-taken"))["detail"] == {"seat": 0}


# -- races and restarts --------------------------------------------------------------------


def test_two_tabs_of_one_seat_playing_at_once_play_one_card() -> None:
    with TestClient(create_app(bot_delay=0, seed=9)) as client:
        data = new_room(client, exposure=False)
        rid = data["room"]
        with connect(client, rid) as s_a, connect(client, rid) as s_b:
            a, b = WS(s_a), WS(s_b)
            a.hello(data["token"])
            b.hello(data["token"])
            state = a.until(lambda m: is_state(m) and m["view"]["to_act"] == 0)
            before = len(client.app.state.server.rooms.hubs[rid].room.table.log)  # type: ignore[attr-defined]
            legal = state["view"]["legal_plays"]
            for ws, card in ((a, legal[0]), (b, legal[-1])):
                ws.send({"type": "action", "event": state["event"],
                         "action": {"type": "play", "card": card}})  # fmt: skip
            refused = [
                ws.until(
                    lambda m: m["type"] == "error" or (is_state(m) and m["event"] > state["event"])
                )
                for ws in (a, b)
            ]
            room = client.app.state.server.rooms.hubs[rid].room  # type: ignore[attr-defined]
            mine = [e for e in room.table.log[before:] if e.get("a", {}).get("seat") == 0]
            assert len(mine) == 1  # one card of seat 0 in this trick
            errors = [m for m in refused if m["type"] == "error"]
            assert len(errors) <= 1
            assert all(m["code"] in ("stale", "illegal") for m in errors)


def test_two_tabs_of_one_browser_racing_for_two_seats_get_one() -> None:
    with TestClient(create_app(bot_delay=0, seed=9)) as client:
        data = new_room(client)
        rid = data["room"]
        with connect(client, rid, browser="b1") as s_a, connect(client, rid, browser="b1") as s_b:
            a, b = WS(s_a), WS(s_b)
            a.hello(None)
            b.hello(None)
            a.send({"type": "sit", "seat": 1, "name": "Tab A"})
            b.send({"type": "sit", "seat": 2, "name": "Tab B"})
            answers = [ws.until(lambda m: m["type"] in ("welcome", "error")) for ws in (a, b)]
            assert sorted(m["type"] for m in answers) == ["error", "welcome"]
            assert next(m for m in answers if m["type"] == "error")["code"] == "seat-taken"


def _play_out(players: list[tuple[int, WS]], timeout: float = 60.0) -> dict[str, Any]:
    """Both seats play their cards until the deal's score sheet; the first seat's last state."""
    acted = {seat: -1 for seat, _ in players}
    deadline = time.monotonic() + timeout
    while True:
        for seat, ws in players:
            drain(ws)
            st = ws.last_state
            if st and st["last_score"] is not None and seat == players[0][0]:
                return st
            if st and st["event"] > acted[seat] and respond(ws, seat, st):
                acted[seat] = st["event"]
        assert time.monotonic() < deadline, "the deal did not end"


def test_a_restart_in_the_middle_of_a_deal_keeps_every_friends_seat_hand_and_counter(
    tmp_path: Path,
) -> None:
    store = str(tmp_path / "rooms.sqlite3")
    with TestClient(create_app(store, bot_delay=0, takeover=60.0, seed=12)) as client:
        data = new_room(client, exposure=False)
        rid = data["room"]
        with connect(client, rid) as s0, connect(client, rid) as s1:
            host, friend = WS(s0), WS(s1)
            host.hello(data["token"])
            friend.hello(None)
            friend.send({"type": "sit", "seat": 1, "name": "Bob"})
            token = friend.until(lambda m: m["type"] == "welcome")["token"]
            before = friend.until(lambda m: is_state(m) and m["view"]["phase"] == "play")
            time.sleep(0.2)  # the computers play up to a friend's turn
    with (
        TestClient(create_app(store, bot_delay=0, takeover=60.0, seed=12)) as client,
        connect(client, rid) as s0,
        connect(client, rid) as s1,
    ):
        host, friend = WS(s0), WS(s1)
        assert host.hello(data["token"])["seat"] == 0
        assert friend.hello(token)["seat"] == 1
        after = friend.last_state
        assert after is not None
        assert after["event"] >= before["event"]  # the counter goes on, never back
        seats = after["room"]["seats"]
        assert [s["kind"] for s in seats[:2]] == ["human", "human"]
        assert not seats[0]["autoplay"]
        assert not seats[1]["autoplay"]
        assert after["view"]["hand"] == before["view"]["hand"]  # the same cards
        end = _play_out([(0, host), (1, friend)])  # requests answer the kept counters
        assert end["last_score"] is not None
