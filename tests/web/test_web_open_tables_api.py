"""``GET /api/tables`` through Starlette's test client: which tables are listed, when they leave
the list, what an entry says (and never says), the bound, the rate limit, and two server
processes sharing a Redis store that list the same tables.

The stores' index and the rooms' part are tests/web/test_web_open_tables.py's.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from real_redis import Backend
from starlette.testclient import TestClient
from test_web_server import WS, connect, error_of, is_state, new_room

from gongzhu.web import Limits, create_app
from gongzhu.web.rooms import Room, Settings
from gongzhu.web.store import MemoryStore, StoreError
from gongzhu.web.tables import MAX_TABLES

ENTRY_KEYS = {"room", "url", "host", "rules", "level", "taken", "free", "waiting"}


def _limits(**changes: Any) -> Limits:
    """Fresh answers every time (no reuse), and room for the tests' many new rooms."""
    return Limits(
        tables_fresh=0.0,
        rooms_per_address=100,
        rooms_per_minute=600.0,
        unplayed_per_address=100,
        **changes,
    )


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(bot_delay=0, takeover=60.0, seed=11, limits=_limits())) as c:
        yield c


def tables(client: TestClient) -> list[dict[str, Any]]:
    response = client.get("/api/tables")
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert body["max"] == MAX_TABLES
    found: list[dict[str, Any]] = body["tables"]
    return found


def listed(client: TestClient) -> list[str]:
    return [t["room"] for t in tables(client)]


def eventually(check: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll ``check`` until it holds (a room written in the background: a player left)."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise TimeoutError("the condition was not reached")
        time.sleep(0.02)


def test_an_open_table_is_listed_while_its_host_waits_and_leaves_the_list_when_dealt(
    client: TestClient,
) -> None:
    made = new_room(client, wait=True, open=True, threshold=500, sign_swap=False)
    private = new_room(client, wait=True, name="Bob")
    alone = new_room(client, name="Cy")
    assert listed(client) == []  # nobody is at the tables yet
    with (
        connect(client, made["room"]) as raw_ann,
        connect(client, private["room"]) as raw_bob,
        connect(client, alone["room"]) as raw_cy,
    ):
        ann = WS(raw_ann)
        assert ann.hello(made["token"])["room"]["open"] is True
        assert WS(raw_bob).hello(private["token"])["room"]["open"] is False
        WS(raw_cy).hello(alone["token"])
        (entry,) = tables(client)  # the open table alone: a private one is never listed
        rules = client.get("/api/rules?threshold=500&sign_swap=false").json()["rules"]
        assert set(entry) == ENTRY_KEYS
        assert entry["room"] == made["room"]
        assert entry["url"] == made["url"] == f"/t/{made['room']}"
        assert (entry["host"], entry["taken"], entry["free"]) == ("Ann", 1, 3)
        assert (entry["rules"], entry["level"]) == (rules, "normal")
        assert 0 <= entry["waiting"] < 60
        # The host deals: the table leaves the list.
        assert ann.last_state is not None
        ann.send({"type": "start", "event": ann.last_state["event"]})
        ann.until(lambda m: is_state(m) and not m["room"]["lobby"])
        assert listed(client) == []


def test_a_table_leaves_the_list_when_it_fills_up_or_its_host_leaves(client: TestClient) -> None:
    made = new_room(client, wait=True, open=True)
    room = made["room"]
    with ExitStack() as stack:
        WS(stack.enter_context(connect(client, room))).hello(made["token"])
        assert listed(client) == [room]
        for seat, name in ((1, "Di"), (2, "Ed"), (3, "Flo")):
            friend = WS(stack.enter_context(connect(client, room)))
            friend.send({"type": "sit", "seat": seat, "name": name})
            friend.until(lambda m: m["type"] == "welcome")
            if seat < 3:
                assert tables(client)[0]["taken"] == seat + 1
        assert listed(client) == []  # every seat is a player's: full
    # Another open table whose host goes: off the list until the host is back.
    again = new_room(client, wait=True, open=True)
    with connect(client, again["room"]) as raw:
        WS(raw).hello(again["token"])
        assert listed(client) == [again["room"]]
    eventually(lambda: listed(client) == [])
    with connect(client, again["room"]) as raw:
        WS(raw).hello(again["token"])
        assert listed(client) == [again["room"]]


def test_open_needs_a_table_that_waits_and_a_boolean(client: TestClient) -> None:
    for body in ({"open": True}, {"open": "yes", "wait": True}, {"open": 1, "wait": True}):
        response = client.post("/api/rooms", json={"name": "Ann", **body})
        assert response.status_code == 400, body
        assert response.json()["code"] == "bad-message"
    made = new_room(client, wait=True, open=False)
    assert client.get(f"/api/rooms/{made['room']}").json()["open"] is False


def _open_rooms(store: MemoryStore, n: int) -> list[Room]:
    """``n`` open tables whose hosts are at them, straight into the store."""
    rooms = []
    for k in range(n):
        room, _ = Room.create(store, Settings(), f"Host {k}", lobby=True, open_table=True)
        room.connected[0] = 1
        room.touch()
        rooms.append(room)
    return rooms


def test_the_list_is_bounded_newest_first_and_holds_nothing_hidden() -> None:
    store = MemoryStore()
    rooms = _open_rooms(store, MAX_TABLES + 10)
    assert len({r.created for r in rooms}) == len(rooms)  # made one after another
    with TestClient(create_app(store, bot_delay=0, limits=_limits())) as client:
        response = client.get("/api/tables")
    found = response.json()["tables"]
    newest = sorted(rooms, key=lambda r: -r.created)[:MAX_TABLES]
    assert [t["room"] for t in found] == [r.id for r in newest]
    assert [t["host"] for t in found[:2]] == [newest[0].names[0], newest[1].names[0]]
    assert all(set(t) == ENTRY_KEYS for t in found)
    # Nothing a seat or the room keeps secret: its number, tokens (and their hashes), the
    # browsers' and addresses' marks, the log.
    text = response.text
    for room in rooms:
        meta = room.meta()
        secrets = [str(meta["seed"]), *meta["tokens"], *meta["browsers"], *meta["addresses"]]
        for secret in filter(None, secrets):
            assert secret not in text
    for key in ("seed", "token", "tokens", "browsers", "addresses", "hand", "log", "created"):
        assert f'"{key}"' not in text


def test_the_list_is_rate_limited_per_address() -> None:
    limits = _limits(tables_burst=3, tables_per_minute=1.0)
    with TestClient(create_app(bot_delay=0, limits=limits)) as client:
        for _ in range(3):
            assert client.get("/api/tables").status_code == 200
        refused = client.get("/api/tables")
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate-limited"
    assert int(refused.headers["retry-after"]) > 0


class _BrokenList(MemoryStore):
    def listed(self, limit: int) -> list[tuple[str, dict[str, Any]]]:
        raise StoreError("the store is away")


def test_a_store_that_cannot_list_is_store_busy_not_a_crash() -> None:
    with TestClient(create_app(_BrokenList(), bot_delay=0, limits=_limits())) as client:
        response = client.get("/api/tables")
    assert response.status_code == 503
    assert response.json()["code"] == "store-busy"
    assert "away" not in response.text  # the store's details are for the log


def test_two_servers_sharing_redis_list_the_same_tables(redis_backend: Backend) -> None:
    pytest.importorskip("redis")
    apps = [
        create_app(redis_backend.store(), bot_delay=0, seed=5, limits=_limits(heartbeat=0.5))
        for _ in range(2)
    ]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        made = new_room(one, wait=True, open=True)
        with connect(one, made["room"]) as raw_ann:
            ann = WS(raw_ann)
            ann.hello(made["token"])
            assert listed(two) == listed(one) == [made["room"]]
            # A friend sits through the other server: both count the seat taken.
            with connect(two, made["room"]) as raw_di:
                di = WS(raw_di)
                di.send({"type": "sit", "seat": 1, "name": "Di"})
                di.until(lambda m: m["type"] == "welcome")
                assert [t["taken"] for t in tables(one)] == [2]
                assert [t["taken"] for t in tables(two)] == [2]
                # The host deals on the first: off both lists.
                seated = ann.until(lambda m: is_state(m) and m["room"]["seats"][1]["name"] == "Di")
                ann.send({"type": "start", "event": seated["event"]})
                di.until(lambda m: is_state(m) and not m["room"]["lobby"])
                assert listed(one) == listed(two) == []


def test_the_start_message_of_a_guest_does_not_unlist(client: TestClient) -> None:
    made = new_room(client, wait=True, open=True)
    with connect(client, made["room"]) as raw_ann, connect(client, made["room"]) as raw_di:
        ann, di = WS(raw_ann), WS(raw_di)
        ann.hello(made["token"])
        di.send({"type": "sit", "seat": 2, "name": "Di"})
        di.until(lambda m: m["type"] == "welcome")
        di.send({"type": "start", "event": di.state()["event"]})
        assert di.until(error_of("bad-message"))
        assert listed(client) == [made["room"]]
        assert json.dumps(tables(client)).count(made["room"]) == 2  # its id and its link
