"""Follow-ups of issues 26-28 on the web table: a watcher is asked nothing, only the
host gives a seat back to the computer, a 500 carries the security headers."""

from __future__ import annotations

import time

import pytest

from gongzhu import PlayerView, deal
from gongzhu.rules import RuleSet
from gongzhu.web.messages import WebError
from gongzhu.web.rooms import Room, Settings, public_view
from gongzhu.web.store import MemoryStore


def test_a_watchers_view_asks_nothing_while_a_seat_is_asked_something() -> None:
    rnd = deal(rules=RuleSet.preset("online"), seed=5)
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
    assert room.state(0, now, 60.0).view["pending"] == "expose"
    assert room.state(None, now, 60.0).view["pending"] is None


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


def test_the_rule_set_is_sent_once_per_connection_in_the_welcome() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient
    from test_web_server import WS, connect, new_room

    from gongzhu.web import create_app

    with TestClient(create_app(bot_delay=0, takeover=60.0, seed=11)) as client:
        data = new_room(client, threshold=500)
        with connect(client, data["room"]) as s0, connect(client, data["room"]) as s1:
            host, watcher = WS(s0), WS(s1)
            for ws, token in ((host, data["token"]), (watcher, None)):
                ws.send({"type": "hello", "token": token, "name": None})
                welcome = ws.until(lambda m: m["type"] == "welcome")
                state = ws.state()
                rules = RuleSet.from_dict(welcome["room"]["rules"])
                assert rules.win_threshold == 500
                assert welcome["room"]["rules_text"]
                assert "rules" not in state["room"]
                assert "rules_text" not in state["room"]
                assert "rules" not in state["view"]
                if token is None:
                    assert state["view"]["pending"] is None  # a watcher is asked nothing
                else:
                    view = PlayerView.from_dict(state["view"], rules=rules)
                    assert view.rules == rules
                    assert [c.code for c in view.hand] == state["view"]["hand"]
                    assert state["view"]["pending"] == "expose"
        # The room's page (GET) still names its rules.
        assert client.get(f"/api/rooms/{data['room']}").json()["rules"]["win_threshold"] == 500


def test_a_500_carries_the_security_headers_of_every_other_response() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.testclient import TestClient

    from gongzhu.web import create_app
    from gongzhu.web.guard import SECURITY_HEADERS

    async def boom(request: Request) -> Response:
        raise RuntimeError("a bug deep inside")

    app = create_app(bot_delay=0, seed=11)
    app.add_route("/boom", boom)
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/boom")
        assert response.status_code == 500
        assert "a bug deep inside" not in response.text  # no traceback to the client
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, name
        # The same headers as an ordinary page.
        page = client.get("/")
        for name in SECURITY_HEADERS:
            assert page.headers[name] == response.headers[name]
