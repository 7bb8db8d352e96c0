"""The web table's server (issue #20) through Starlette's test client: HTTP, WebSocket, refusals.

No browser and no network: the app runs in-process. ``WS`` below wraps a test
WebSocket session with a receive that times out (a test never hangs) and keeps
every frame the server sent, for the leak scan (tests/web/test_web_leaks.py).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import anyio
from starlette.testclient import TestClient

from gongzhu import IllegalActionError, Reason, record
from gongzhu.web import Limits, create_app

CREATE = {"threshold": 500, "sign_swap": True, "exposure": True, "level": "normal", "name": "Ann"}


class WS:
    """A test WebSocket session: JSON in and out, receives time out, every frame kept."""

    def __init__(self, session: Any) -> None:
        self.s = session
        self.frames: list[str] = []
        self.last_state: dict[str, Any] | None = None

    def send(self, message: Any) -> None:
        self.s.send_text(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 15.0) -> dict[str, Any]:
        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.s._send_rx.receive()

        message = self.s.portal.call(get)
        if message["type"] == "websocket.close":
            raise ConnectionError(f"closed by the server: {message.get('code')}")
        text = message["text"]
        self.frames.append(text)
        data: dict[str, Any] = json.loads(text)
        if data["type"] == "state":
            self.last_state = data
        return data

    def until(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 30.0
    ) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such message")
            message = self.recv(left)
            if pred(message):
                return message

    def closed(self, timeout: float = 5.0) -> int:
        """Wait until the server closes this connection; its close code."""
        end = time.monotonic() + timeout
        while True:
            try:
                self.recv(max(end - time.monotonic(), 0.01))
            except ConnectionError as exc:
                return int(str(exc).rsplit(" ", 1)[-1])

    def state(self) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "state")

    def hello(self, token: str | None = None, **extra: Any) -> dict[str, Any]:
        self.send({"type": "hello", "token": token, "name": None, **extra})
        welcome = self.until(lambda m: m["type"] == "welcome")
        self.state()
        return welcome


def is_state(m: dict[str, Any]) -> bool:
    return m["type"] == "state"


def error_of(code: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "error" and m["code"] == code


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(bot_delay=0, takeover=60.0, seed=11)) as c:
        yield c


def new_room(client: TestClient, **changes: Any) -> dict[str, Any]:
    response = client.post("/api/rooms", json={**CREATE, **changes})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def connect(client: TestClient, room: str, *, browser: str | None = None) -> Any:
    """A socket to the room, as its own browser: with a fresh ``gongzhu_browser`` cookie
    (``browser``: this one) unless the client holds one (then it goes, as a page's would).
    All test sockets share one address: a socket without the cookie is refused a seat at
    a table where a player from its address sits."""
    if browser is None and any(c.name == "gongzhu_browser" for c in client.cookies.jar):
        return client.websocket_connect(f"/ws/{room}")
    browser = browser or secrets.token_urlsafe(8)
    return client.websocket_connect(f"/ws/{room}", headers={"cookie": f"gongzhu_browser={browser}"})


def respond(ws: WS, seat: int, state: dict[str, Any], *, expose: bool = False) -> bool:
    """Make seat's move in this state if it has one (first legal card; decline or expose all)."""
    view = state["view"]
    if state["exposure_options"]:
        cards = [o["card"] for o in state["exposure_options"]] if expose else []
        ws.send(
            {
                "type": "action",
                "event": state["event"],
                "action": {"type": "expose", "cards": cards},
            }
        )
        return True
    if view["phase"] == "play" and view["to_act"] == seat:
        card = view["legal_plays"][0]
        ws.send(
            {"type": "action", "event": state["event"], "action": {"type": "play", "card": card}}
        )
        return True
    return False


def play_out_deal(
    ws: WS, seat: int, *, expose: bool = False, timeout: float = 60
) -> dict[str, Any]:
    """Play seat's cards until the deal's score sheet arrives; that state."""
    end = time.monotonic() + timeout
    state = ws.last_state
    acted = -1
    while True:
        if state is not None:
            if state["last_score"] is not None:
                return state
            if state["event"] > acted and respond(ws, seat, state, expose=expose):
                acted = state["event"]
        if time.monotonic() > end:
            raise TimeoutError("the deal did not end")
        m = ws.recv()
        state = m if is_state(m) else None


# -- HTTP ------------------------------------------------------------------------------


def test_create_room_answers_201_with_a_seat_a_token_and_the_room_link(client: TestClient) -> None:
    data = new_room(client)
    assert data["seat"] == 0
    assert data["url"] == f"/t/{data['room']}"
    assert len(data["token"]) >= 32
    info = client.get(f"/api/rooms/{data['room']}").json()
    assert info["threshold"] == 500
    assert info["level"] == "normal"
    assert info["rules"]["win_threshold"] == 500
    assert info["rules"]["loss_threshold"] == -500
    assert [s["kind"] for s in info["seats"]] == ["human", "computer", "computer", "computer"]
    assert info["seats"][0]["name"] == "Ann"
    assert info["invite"] == data["url"]
    assert "token" not in json.dumps(info)
    assert data["token"] not in json.dumps(info)


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({**CREATE, "threshold": 700}, 400),
        ({**CREATE, "level": "godlike"}, 400),
        ({**CREATE, "name": "x" * 33}, 400),
        ({**CREATE, "name": "\u202eevil"}, 400),
        ({**CREATE, "sign_swap": "yes"}, 400),
        ({**CREATE, "extra": 1}, 400),
        ({**CREATE, "seed": -1}, 400),
        ([1, 2], 400),
    ],
)
def test_create_room_refuses_bad_settings(client: TestClient, body: Any, status: int) -> None:
    response = client.post("/api/rooms", json=body)
    assert response.status_code == status
    assert response.json()["code"] == "bad-message"


def test_create_room_refuses_duplicate_keys_oversize_and_other_content_types(
    client: TestClient,
) -> None:
    headers = {"content-type": "application/json"}
    dup = '{"name": "Ann", "name": "Bob"}'
    assert client.post("/api/rooms", content=dup, headers=headers).status_code == 400
    big = json.dumps({**CREATE, "name": "x" * 9000})
    assert client.post("/api/rooms", content=big, headers=headers).status_code == 413
    deep = "[" * 10000 + "]" * 10000
    assert client.post("/api/rooms", content=deep, headers=headers).status_code in (400, 413)
    form = client.post("/api/rooms", data={"name": "Ann"})
    assert form.status_code == 415


def test_pages_cards_and_unknown_rooms(client: TestClient) -> None:
    data = new_room(client)
    for path in ("/", data["url"]):
        page = client.get(path)
        assert page.status_code == 200
        assert "html" in page.headers["content-type"]
        assert "default-src 'self'" in page.headers["content-security-policy"]
    qs = client.get("/cards/QS.svg")
    assert qs.status_code == 200
    assert qs.headers["content-type"].startswith("image/svg+xml")
    assert qs.text.startswith("<svg")
    assert "max-age" in qs.headers["cache-control"]
    assert client.get("/cards/back.svg").text.startswith("<svg")
    assert client.get("/cards/1X.svg").status_code == 404
    assert client.get("/api/rooms/nosuchroom").status_code == 404
    assert client.get("/api/rooms/..%2F..%2Fetc").status_code == 404
    assert client.get("/api/rooms/nosuchroom/record").status_code == 404


# -- WebSocket: a whole deal -------------------------------------------------------------


def test_a_whole_deal_against_the_computers_then_the_next_and_the_record(
    client: TestClient,
) -> None:
    data = new_room(client)
    with connect(client, data["room"]) as session:
        ws = WS(session)
        welcome = ws.hello(data["token"])
        assert welcome["seat"] == 0
        assert welcome["token"] is None
        first = ws.last_state
        assert first is not None
        assert first["deal_no"] == 1
        assert first["view"]["seat"] == 0
        assert len(first["view"]["hand"]) == 13
        assert client.get(f"/api/rooms/{data['room']}/record").status_code == 404  # none finished
        end = play_out_deal(ws, 0)
        sheet = end["last_score"]
        assert end["view"]["phase"] == "complete"
        assert len(end["view"]["tricks"]) == 13
        assert end["room"]["totals"] == sheet["totals"]
        assert end["room"]["deals_played"] == 1
        events = [json.loads(f)["event"] for f in ws.frames]
        assert events == sorted(events)  # numbered per room, never backwards
        ws.send({"type": "next", "event": end["event"]})
        nxt = ws.until(lambda m: is_state(m) and m["deal_no"] == 2)
        assert nxt["last_score"] is None
        assert len(nxt["view"]["hand"]) == 13
    response = client.get(f"/api/rooms/{data['room']}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    rec = record.loads(response.text)
    assert len(rec.rounds) == 1
    assert rec.match is not None
    assert list(rec.match.totals) == sheet["totals"]
    assert rec.names is not None
    assert rec.names[0] == "Ann"


def test_the_same_seed_and_the_same_moves_replay_the_same_game(client: TestClient) -> None:
    texts = []
    for _ in range(2):
        data = new_room(client, seed=424242, level="normal")
        with connect(client, data["room"]) as session:
            ws = WS(session)
            ws.hello(data["token"])
            play_out_deal(ws, 0, expose=True)
        text = client.get(f"/api/rooms/{data['room']}/record").json()
        texts.append(text["deals"])
    assert texts[0] == texts[1]


def test_resync_sends_a_fresh_state(client: TestClient) -> None:
    data = new_room(client)
    with connect(client, data["room"]) as session:
        ws = WS(session)
        ws.hello(data["token"])
        ws.send({"type": "resync"})
        again = ws.state()
        assert again["view"]["seat"] == 0
        assert again["event"] >= 1


def test_hint_gives_an_expected_score_for_every_legal_card(client: TestClient) -> None:
    data = new_room(client, exposure=False)
    with connect(client, data["room"]) as session:
        ws = WS(session)
        ws.hello(data["token"])
        state = ws.last_state
        assert state is not None
        while not (state["view"]["phase"] == "play" and state["view"]["to_act"] == 0):
            state = ws.state()
        if state["view"]["to_act"] == 0 and len(state["view"]["legal_plays"]) == 1:
            card = state["view"]["legal_plays"][0]  # 2C must open: play it, hint the next
            ws.send({"type": "action", "event": state["event"],
                     "action": {"type": "play", "card": card}})  # fmt: skip
            state = ws.until(lambda m: is_state(m) and m["view"]["to_act"] == 0)
        ws.send({"type": "hint", "event": state["event"]})
        hint = ws.until(lambda m: m["type"] == "hint")
        assert sorted(c["card"] for c in hint["cards"]) == sorted(state["view"]["legal_plays"])
        assert all(isinstance(c["expected"], float) and c["stderr"] >= 0 for c in hint["cards"])
        # A seat that is not to act gets no hint: refused as illegal (not your turn).
        from gongzhu.web.rooms import Room

        room = client.app.state.server.rooms.hubs[data["room"]]
        with pytest.raises(IllegalActionError) as info:
            room.room.hint_view(1)
        assert info.value.reason is Reason.NOT_YOUR_TURN
        assert isinstance(room.room, Room)


# -- refusals ----------------------------------------------------------------------------


def test_an_illegal_card_is_refused_with_its_reason(client: TestClient) -> None:
    data = new_room(client, exposure=False)
    with connect(client, data["room"]) as session:
        ws = WS(session)
        ws.hello(data["token"])
        state = ws.last_state
        assert state is not None
        while not (state["view"]["phase"] == "play" and state["view"]["to_act"] == 0):
            state = ws.state()
        view = state["view"]
        illegal = [c for c in view["hand"] if c not in view["legal_plays"]]
        card = illegal[0] if illegal else None
        if card is not None:  # a seat that may play anything has no illegal card in hand
            ws.send({"type": "action", "event": state["event"],
                     "action": {"type": "play", "card": card}})  # fmt: skip
            error = ws.until(lambda m: m["type"] == "error")
            assert error["code"] == "illegal"
            assert error["reply_to"] == "action"
            assert error["detail"]["reason"] in ("MUST_LEAD_OPENING_CARD", "MUST_FOLLOW_SUIT")
            assert error["detail"]["card"] == card
            assert error["detail"]["seat"] == 0
        # A card not in the hand: refused for that reason, whoever holds it.
        other = next(c for c in ("2C", "3C", "4C", "5C") if c not in view["hand"])
        ws.send({"type": "action", "event": state["event"],
                 "action": {"type": "play", "card": other}})  # fmt: skip
        error = ws.until(lambda m: m["type"] == "error")
        assert error["code"] == "illegal"
        assert error["detail"]["reason"] == "NOT_IN_HAND"


def test_an_action_answering_an_old_event_is_refused_as_stale(client: TestClient) -> None:
    data = new_room(client, exposure=False)
    with connect(client, data["room"]) as session:
        ws = WS(session)
        ws.hello(data["token"])
        state = ws.last_state
        assert state is not None
        while not (state["view"]["phase"] == "play" and state["view"]["to_act"] == 0):
            state = ws.state()
        ws.send({"type": "action", "event": 0,
                 "action": {"type": "play", "card": state["view"]["legal_plays"][0]}})  # fmt: skip
        error = ws.until(lambda m: m["type"] == "error")
        assert error["code"] == "stale"
        ws.send({"type": "action", "event": state["event"] + 1000,
                 "action": {"type": "play", "card": state["view"]["legal_plays"][0]}})  # fmt: skip
        assert ws.until(lambda m: m["type"] == "error")["code"] == "stale"
        ws.send({"type": "resync"})
        assert ws.state()["view"]["to_act"] == 0  # nothing moved


def test_a_bad_token_gets_bad_token_then_a_spectators_welcome(client: TestClient) -> None:
    data = new_room(client)
    with connect(client, data["room"]) as session:
        ws = WS(session)
        ws.send({"type": "hello", "token": "A" * 32, "name": None})
        assert ws.until(lambda m: m["type"] == "error")["code"] == "bad-token"
        welcome = ws.until(lambda m: m["type"] == "welcome")
        assert welcome["seat"] is None
        assert welcome["token"] is None
        assert ws.state()["view"]["hand"] == []
        ws.send({"type": "action", "event": 1, "action": {"type": "play", "card": "2C"}})
        assert ws.until(lambda m: m["type"] == "error")["code"] == "bad-message"


def test_a_friend_sits_and_a_taken_seat_is_refused(client: TestClient) -> None:
    data = new_room(client, exposure=False)
    with connect(client, data["room"]) as s0, connect(client, data["room"]) as s2:
        host, friend = WS(s0), WS(s2)
        host.hello(data["token"])
        friend.hello(None)
        friend.send({"type": "sit", "seat": 0, "name": "Mallory"})
        assert friend.until(lambda m: m["type"] == "error")["code"] == "seat-taken"
        friend.send({"type": "sit", "seat": 2, "name": "Bob"})
        welcome = friend.until(lambda m: m["type"] == "welcome")
        assert welcome["seat"] == 2
        assert len(welcome["token"]) >= 32
        seats = welcome["room"]["seats"]
        assert seats[2] == {
            "name": "Bob",
            "kind": "human",
            "connected": True,
            "autoplay": False,
            "takeover_in": None,
        }
        mine = friend.state()
        assert mine["view"]["seat"] == 2
        assert len(mine["view"]["hand"]) >= 12
        host_sees = host.until(lambda m: is_state(m) and m["room"]["seats"][2]["name"] == "Bob")
        assert host_sees["view"]["seat"] == 0
        friend.send({"type": "sit", "seat": 3, "name": "Bob"})
        assert friend.until(lambda m: m["type"] == "error")["code"] == "bad-message"
        # Skipping the deal needs the player alone. The computers may still be playing
        # (each card a new event), so a stale event is sent again with the newest one.
        code = "stale"
        for _ in range(60):
            drain(host)
            assert host.last_state is not None
            host.send({"type": "next", "event": host.last_state["event"]})
            code = host.until(lambda m: m["type"] == "error")["code"]
            if code != "stale":
                break
        assert code == "not-alone"
        # Both humans play the deal to its end.
        acted = {0: -1, 2: -1}
        deadline = time.monotonic() + 60
        while not all(w.last_state and w.last_state["last_score"] for w in (host, friend)):
            assert time.monotonic() < deadline
            for seat, ws in ((0, host), (2, friend)):
                drain(ws)
                st = ws.last_state
                assert st is not None
                if st["event"] > acted[seat] and respond(ws, seat, st):
                    acted[seat] = st["event"]
        assert host.last_state is not None
        assert host.last_state["room"]["deals_played"] == 1


def drain(ws: WS) -> None:
    """Read whatever the server has sent so far."""
    while True:
        try:
            ws.recv(timeout=0.05)
        except TimeoutError:
            return


def test_skipping_a_deal_alone_plays_it_out_and_a_whole_game_ends(client: TestClient) -> None:
    # The easy computers: a whole game of skipped deals stays quick in the pure build.
    data = new_room(client, threshold=500, level="easy")
    with connect(client, data["room"]) as session:
        ws = WS(session)
        ws.hello(data["token"])
        deals = 0
        while True:
            state = ws.last_state
            assert state is not None
            if state["game_over"] is not None:
                break
            ws.send({"type": "next", "event": state["event"]})
            # A skip plays the deal out; a next after the sheet deals the next one.
            was = state

            def moved(m: dict[str, Any], was: dict[str, Any] = was) -> bool:
                return (
                    is_state(m)
                    and m["event"] > was["event"]
                    and (m["last_score"] is not None or m["deal_no"] != was["deal_no"])
                )

            state = ws.until(moved, timeout=120)
            deals += 1
            assert deals <= 62
        over = state["game_over"]
        assert over["losers"]
        assert over["end_reason"] in ("loss threshold", "win threshold", "deal cap")
        totals = state["room"]["totals"]
        assert min(totals[s] for s in over["losers"]) == min(totals)
        ws.send({"type": "next", "event": state["event"]})
        assert ws.until(lambda m: m["type"] == "error")["code"] == "illegal"
        ws.send({"type": "new_game", "event": state["event"]})
        fresh = ws.until(lambda m: is_state(m) and m["game_over"] is None)
        assert fresh["deal_no"] == 1
        assert fresh["room"]["totals"] == [0, 0, 0, 0]
        assert fresh["room"]["game_no"] == 2


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "bad-message"),
        ("[]", "bad-message"),
        ('{"type": "dance"}', "bad-message"),
        ('{"type": "resync", "extra": 1}', "bad-message"),
        ('{"type": "next"}', "bad-message"),
        ('{"type": "next", "event": -1}', "bad-message"),
        ('{"type": "next", "event": true}', "bad-message"),
        ('{"type": "next", "event": 1e400}', "bad-message"),
        ('{"type": "next", "event": NaN}', "bad-message"),
        ('{"type": "resync", "type": "resync"}', "bad-message"),
        ("[" * 40000, "too-large"),
        ("[" * 4000 + "]" * 4000, "bad-message"),
        ('{"a":' * 9 + "1" + "}" * 9, "bad-message"),
        ('{"type": "sit", "seat": 1, "seat": 0, "name": "x"}', "bad-message"),
        (json.dumps({"type": "sit", "seat": 1, "name": "x" * 9000}), "too-large"),
        ('{"type": "action", "event": 1, "action": {"type": "play", "card": "QX"}}', "bad-message"),
        ('{"type": "action", "event": 1, "action": [1]}', "bad-message"),
    ],
)
def test_malformed_frames_get_an_error_reply_and_the_connection_goes_on(
    client: TestClient, frame: str, code: str
) -> None:
    data = new_room(client)
    with connect(client, data["room"]) as session:
        ws = WS(session)
        ws.hello(data["token"])
        ws.send(frame)
        error = ws.until(lambda m: m["type"] == "error")
        assert error["code"] == code, error
        ws.send({"type": "resync"})
        assert ws.state()["view"]["seat"] == 0


def test_binary_frames_and_messages_before_hello_are_refused(client: TestClient) -> None:
    data = new_room(client)
    with connect(client, data["room"]) as session:
        ws = WS(session)
        ws.send({"type": "resync"})
        assert ws.until(lambda m: m["type"] == "error")["code"] == "bad-message"
        session.send_bytes(b'{"type": "hello"}')
        assert ws.until(lambda m: m["type"] == "error")["code"] == "bad-message"
        ws.hello(data["token"])
        ws.send({"type": "hello", "token": None, "name": None})
        assert ws.until(lambda m: m["type"] == "error")["code"] == "bad-message"


def test_an_action_for_another_seat_is_refused_without_asking_the_engine(
    client: TestClient,
) -> None:
    data = new_room(client, exposure=False)
    with connect(client, data["room"]) as session:
        ws = WS(session)
        ws.hello(data["token"])
        state = ws.last_state
        assert state is not None
        while not (state["view"]["phase"] == "play" and state["view"]["to_act"] == 0):
            state = ws.state()
        # Probing another seat's hand ("card not in hand" vs "not your turn") tells nothing.
        for card in ("QS", "JD", "2C"):
            ws.send({"type": "action", "event": state["event"],
                     "action": {"type": "play", "seat": 1, "card": card}})  # fmt: skip
            error = ws.until(lambda m: m["type"] == "error")
            assert error["code"] == "bad-message"
            assert error["detail"] == {}


def test_a_flood_is_rate_limited_and_then_disconnected_without_harming_the_room(
    client: TestClient,
) -> None:
    data = new_room(client)
    with connect(client, data["room"]) as s0, connect(client, data["room"]) as s1:
        good, flood = WS(s0), WS(s1)
        good.hello(data["token"])
        flood.hello(None)
        for _ in range(200):
            try:
                flood.send({"type": "resync"})
            except Exception:  # the server has closed it
                break
        codes = []

        def read_until_closed() -> None:
            while True:
                m = flood.recv(timeout=5)
                if m["type"] == "error":
                    codes.append(m["code"])

        with pytest.raises(ConnectionError):
            read_until_closed()
        assert "rate-limited" in codes
        good.send({"type": "resync"})
        assert good.state()["view"]["seat"] == 0


def test_unknown_rooms_are_closed_at_once(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), connect(client, "nosuchroom") as session:
        session.receive_json()


# -- takeover, restart --------------------------------------------------------------------


def test_a_computer_takes_over_a_gone_seat_and_gives_it_back() -> None:
    with TestClient(create_app(bot_delay=0, takeover=0.3, seed=5)) as client:
        data = new_room(client, exposure=False)
        with connect(client, data["room"]) as s_watch:
            watch = WS(s_watch)
            watch.hello(None)
            with connect(client, data["room"]) as s0:
                WS(s0).hello(data["token"])
                watch.until(lambda m: is_state(m) and m["room"]["seats"][0]["connected"])
            # Gone: announced at once, then played by a computer after the takeover time.
            gone = watch.until(lambda m: is_state(m) and not m["room"]["seats"][0]["connected"])
            assert gone["room"]["seats"][0]["autoplay"] is False
            later = watch.until(
                lambda m: is_state(m) and any(0 in t["seats"] for t in m["view"]["tricks"])
            )
            assert later["room"]["seats"][0]["autoplay"] is True
            # Back: the seat is the human's again.
            with connect(client, data["room"]) as s0:
                me = WS(s0)
                me.hello(data["token"])
                back = me.last_state
                assert back is not None
                assert back["room"]["seats"][0]["autoplay"] is False
                state = back
                while not (state["view"]["phase"] == "play" and state["view"]["to_act"] == 0):
                    if state["last_score"] is not None:
                        break
                    state = me.state()
                else:
                    time.sleep(0.6)  # past the takeover time: a computer must not move for us
                    me.send({"type": "resync"})
                    assert me.state()["view"]["to_act"] == 0


def test_a_seat_whose_player_is_gone_goes_only_to_its_tokens_holder() -> None:
    # Issue 27 item 6: past the takeover time a computer plays the seat, but nobody else
    # may take it (the squatter of the red-team report); its player comes back to it.
    with TestClient(create_app(bot_delay=0, takeover=0.2, seed=5)) as client:
        data = new_room(client)
        with connect(client, data["room"]) as s0:
            WS(s0).hello(data["token"])
        time.sleep(0.3)
        with connect(client, data["room"]) as s1:
            ws = WS(s1)
            ws.hello(None)
            ws.send({"type": "sit", "seat": 0, "name": "Newcomer"})
            assert ws.until(lambda m: m["type"] == "error")["code"] == "seat-taken"
        with connect(client, data["room"]) as s2:
            ws = WS(s2)
            assert ws.hello(data["token"])["seat"] == 0


def test_a_restarted_server_continues_from_the_sqlite_store(tmp_path: Path) -> None:
    path = tmp_path / "rooms.sqlite3"
    with TestClient(create_app(str(path), bot_delay=0, seed=9)) as client:
        data = new_room(client, exposure=False)
        with connect(client, data["room"]) as session:
            ws = WS(session)
            ws.hello(data["token"])
            state = ws.last_state
            assert state is not None
            for _ in range(3):  # three of seat 0's cards, then the server goes away
                while not (state["view"]["phase"] == "play" and state["view"]["to_act"] == 0):
                    state = ws.state()
                respond(ws, 0, state)
                done = state["event"]
                state = ws.until(lambda m, done=done: is_state(m) and m["event"] > done)
            before = state
            while before["view"]["to_act"] != 0:
                before = ws.state()
    with TestClient(create_app(str(path), bot_delay=0, seed=9)) as client:
        with connect(client, data["room"]) as session:
            ws = WS(session)
            ws.hello(data["token"])
            after = ws.last_state
            assert after is not None
            for key in ("hand", "current_trick", "tricks", "captured_points", "to_act"):
                assert after["view"][key] == before["view"][key], key
            assert after["event"] >= before["event"]
            end = play_out_deal(ws, 0)
            assert end["room"]["deals_played"] == 1
        rec = record.loads(client.get(f"/api/rooms/{data['room']}/record").text)
        assert rec.rounds[0].is_over


def test_the_room_count_is_bounded() -> None:
    app = create_app(bot_delay=0, limits=Limits(max_rooms=2))
    with TestClient(app) as client:
        new_room(client)
        new_room(client)
        full = client.post("/api/rooms", json=CREATE)
        assert full.status_code == 503
        assert full.json()["code"] == "room-full"


def test_create_app_refuses_bad_arguments() -> None:
    from gongzhu import GongzhuError

    with pytest.raises(GongzhuError):
        create_app(bot_delay=-1)
    with pytest.raises(GongzhuError):
        create_app(takeover=float("nan"))
    with pytest.raises(TypeError):
        Limits(nonsense=1)


def test_two_servers_sharing_a_store_refuse_a_stale_write_and_reload() -> None:
    # Two servers on one store that does not announce writes (a shared MemoryStore here;
    # an SQLite file refuses a second server, test_web_attack27): the one that is behind
    # has its write (the seat's "connected") refused, rebuilds the room from the store and
    # writes again, so the client is welcomed to the fresh room.
    from gongzhu.web.store import MemoryStore

    shared = MemoryStore()
    with (
        TestClient(create_app(shared, bot_delay=0, seed=12)) as a,
        TestClient(create_app(shared, bot_delay=0, seed=12)) as b,
    ):
        data = new_room(a, exposure=False)
        assert b.get(f"/api/rooms/{data['room']}").status_code == 200  # b loads it now
        with connect(a, data["room"]) as sa:
            ws = WS(sa)
            ws.hello(data["token"])
            end = play_out_deal(ws, 0)  # a moves on; b's copy is behind
        with connect(b, data["room"]) as sb:
            late = WS(sb)
            assert late.hello(data["token"])["seat"] == 0
            assert not any(json.loads(f)["type"] == "error" for f in late.frames)
            fresh = late.last_state
            assert fresh is not None
            assert fresh["view"]["seat"] == 0
            assert fresh["last_score"] == end["last_score"]
            assert fresh["room"]["deals_played"] == 1


def test_a_refusal_is_worded_in_the_language_hello_named(client: TestClient) -> None:
    data = new_room(client, exposure=False)
    with connect(client, data["room"]) as session:
        ws = WS(session)
        ws.hello(data["token"], lang="zh-CN")
        state = ws.last_state
        assert state is not None
        while not (state["view"]["phase"] == "play" and state["view"]["to_act"] == 0):
            state = ws.state()
        other = next(c for c in ("2C", "3C", "4C", "5C") if c not in state["view"]["hand"])
        ws.send({"type": "action", "event": state["event"],
                 "action": {"type": "play", "card": other}})  # fmt: skip
        error = ws.until(lambda m: m["type"] == "error")
        assert error["code"] == "illegal"
        # Chinese, in a player's words (gongzhu.web.words): no "座位0".
        assert error["message"] == "你手里没有这张牌。"
        assert error["detail"]["reason"] == "NOT_IN_HAND"
        assert "may not" in error["detail"]["message"]  # the detail stays the English dict


def test_the_start_screens_choices_are_answered_with_their_rule_set(client: TestClient) -> None:
    # GET /api/rules: the rules a new room with these fields would play (the start screen's
    # summary line words them as the table's chips); no room is made.
    from gongzhu.web.settings import Settings

    got = client.get("/api/rules").json()["rules"]
    assert got == Settings().rules().to_dict()
    got = client.get(
        "/api/rules?threshold=500&sign_swap=false&exposure=true&all_hearts=400"
        "&exposable=pig-transformer&level=hard"
    ).json()["rules"]
    assert (got["win_threshold"], got["loss_threshold"], got["sign_swap"]) == (500, -500, False)
    assert (got["all_hearts_value"], got["exposable"]) == (400, "TC QS")
    eight = client.get("/api/rules?deals=8&exposure=false").json()["rules"]
    assert (eight["win_threshold"], eight["max_deals"], eight["exposable"]) == (None, 8, "")
    for bad in ("threshold=700", "deals=99", "sign_swap=1", "threshold=5e2", "level=god", "x=1"):
        response = client.get(f"/api/rules?{bad}")
        assert response.status_code == 400, bad
        assert response.json()["code"] == "bad-message"
