"""Taking a card back against the computers (the ``undo`` message, :meth:`Room.plan_undo`).

Only a player alone at the table may take back their last card of the deal in
progress (and the computers' cards after it); the position is rebuilt from the
deal's start and its history without them, the deal counts its take-backs, the
store keeps the rolled-back log (a restart comes back to it), a computer's card
decided meanwhile is dropped, and the deal of the day does not take such a result.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from test_web_server import (
    WS,
    connect,
    is_state,
    new_room,
    play_out_deal,
    respond,
)

from gongzhu import CardSet, Exposure, Play
from gongzhu.errors import IllegalActionError
from gongzhu.table import Table
from gongzhu.web import create_app
from gongzhu.web.messages import WebError
from gongzhu.web.rooms import Room, Settings
from gongzhu.web.store import MemoryStore


def _computers(room: Room) -> None:
    """Let the computers (and the player's nothing-to-expose) act until the player is asked."""
    while not room.round.is_over:
        seat, _ = room.next_computer(time.monotonic(), 60.0)
        if seat is None:
            if room.round.exposure_pending:
                room.apply(Exposure(room.round.exposure_pending[0], CardSet()))
                continue
            return
        room.apply(room.decide(room.round, seat, room.strategy(seat)))


def _my_turn(ws: WS, state: dict[str, Any]) -> dict[str, Any]:
    while not (state["view"]["phase"] == "play" and state["view"]["to_act"] == 0):
        state = ws.state()
    return state


def _after(event: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: is_state(m) and m["event"] > event


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(bot_delay=0, takeover=60.0, seed=11)) as c:
        yield c


# -- the room --------------------------------------------------------------------------


def test_a_card_taken_back_returns_the_position_where_it_was_chosen() -> None:
    store = MemoryStore()
    room, _ = Room.create(store, Settings(threshold=500, exposure=False), "Ann", seed=5)
    _computers(room)
    with pytest.raises(IllegalActionError):  # nothing of hers played yet
        room.plan_undo(0)
    assert not room.may_undo(0)
    for _ in range(2):  # two of her cards, the computers after each
        before_round, before_log = room.round, room.table.log
        room.apply(Play(0, room.round.legal_plays[-1]))
        _computers(room)
    assert room.may_undo(0)
    room.undo(0)
    assert room.round == before_round
    assert room.round.to_act == 0
    assert room.table.log == before_log
    assert room.undos == [1]
    assert room.undos_of(1) == 1
    # The store holds the rolled-back position: a restart comes back to it.
    again = Room.load(store, room.id)
    assert again is not None
    assert again.round == before_round
    assert again.undos == [1]
    assert again.table.log == before_log
    # The same position as the engine rebuilds from the deal's start and its history.
    replayed = Table.start(room.rules, room.seed)
    for action in before_round.history:
        replayed = replayed.apply(action)
    assert replayed.round == again.round


def _played_then_computers(room: Room) -> tuple[Any, int]:
    """The player plays her first legal card: the round before it, and her event counter
    as the state showing that card told her (then the computers play on)."""
    before = room.round
    room.apply(Play(0, room.round.legal_plays[0]))
    seen = room.seen(0)
    _computers(room)
    return before, seen


def test_an_undo_answering_a_state_before_the_computers_cards_takes_them_back_too() -> None:
    room, _ = Room.create(MemoryStore(), Settings(threshold=500, exposure=False), "Ann", seed=5)
    _computers(room)
    before, seen = _played_then_computers(room)
    with pytest.raises(WebError):  # the computers have played since: an old event
        room.check_event(0, seen)
    room.undo(0, seen)
    assert room.round == before
    assert room.round.to_act == 0
    assert room.undos == [1]
    # The same request again: the card it meant is back in her hand, her last card of
    # the deal (if any) is another one, so it is stale, not a second take-back.
    with pytest.raises(WebError) as info:
        room.plan_undo(0, seen)
    assert info.value.code == "stale"
    assert room.round == before


def test_an_undo_after_the_player_played_again_is_stale() -> None:
    room, _ = Room.create(MemoryStore(), Settings(threshold=500, exposure=False), "Ann", seed=5)
    _computers(room)
    _, first = _played_then_computers(room)
    now, second = _played_then_computers(room)
    for event in (first, second - 1):  # before her second card: it was not her last then
        with pytest.raises(WebError) as info:
            room.plan_undo(0, event)
        assert info.value.code == "stale"
    assert room.undos == []
    room.undo(0, second)  # the state that showed her second card: that one comes back
    assert room.round == now


def test_an_undo_answering_a_finished_or_earlier_deal_is_stale() -> None:
    room, _ = Room.create(MemoryStore(), Settings(threshold=500, exposure=False), "Ann", seed=5)
    _computers(room)
    _, seen = _played_then_computers(room)
    while not room.round.is_over:
        room.apply(Play(0, room.round.legal_plays[0]))
        _computers(room)
    with pytest.raises(WebError) as info:
        room.plan_undo(0, seen)
    assert info.value.code == "stale"
    room.next_deal(0)
    _computers(room)
    room.apply(Play(0, room.round.legal_plays[0]))
    _computers(room)
    with pytest.raises(WebError) as info:
        room.plan_undo(0, seen)
    assert info.value.code == "stale"
    with pytest.raises(WebError) as info:  # a number she was never sent
        room.plan_undo(0, room.seen(0) + 1)
    assert info.value.code == "stale"


def test_take_back_is_refused_with_another_player_and_after_the_deal() -> None:
    room, _ = Room.create(MemoryStore(), Settings(threshold=500, exposure=False), "Ann", seed=5)
    _computers(room)
    room.apply(Play(0, room.round.legal_plays[0]))
    _computers(room)
    room.sit(2, "Bob", time.monotonic(), 60.0)
    with pytest.raises(WebError) as info:
        room.plan_undo(0)
    assert info.value.code == "not-alone"
    assert not room.may_undo(0)


# -- the protocol ----------------------------------------------------------------------


def test_undo_over_the_socket_alone_then_refused_after_the_deal(tmp_path: Path) -> None:
    path = tmp_path / "rooms.sqlite3"
    with TestClient(create_app(str(path), bot_delay=0, seed=21)) as client:
        data = new_room(client, exposure=False)
        rid = data["room"]
        with connect(client, rid) as session:
            ws = WS(session)
            ws.hello(data["token"])
            state = _my_turn(ws, ws.last_state or ws.state())
            ws.send({"type": "undo", "event": state["event"]})  # nothing played yet
            refused = ws.until(lambda m: m["type"] == "error")
            assert (refused["code"], refused["reply_to"]) == ("illegal", "undo")
            before = _my_turn(ws, ws.last_state or state)
            card = before["view"]["legal_plays"][0]
            ws.send({"type": "action", "event": before["event"],
                     "action": {"type": "play", "card": card}})  # fmt: skip
            state = ws.until(lambda m: is_state(m) and card not in m["view"]["hand"])
            state = _my_turn(ws, state)  # the computers have played after it
            ws.send({"type": "undo", "event": state["event"]})
            back = ws.until(lambda m: is_state(m) and card in m["view"]["hand"])
            for key in ("hand", "current_trick", "tricks", "to_act", "legal_plays"):
                assert back["view"][key] == before["view"][key], key
            assert back["room"]["undos"] == [1]
            assert back["event"] > state["event"]
            # The same request again answers a position that is gone: stale.
            ws.send({"type": "undo", "event": state["event"]})
            assert ws.until(lambda m: m["type"] == "error")["code"] == "stale"
            end = play_out_deal(ws, 0)
            assert end["room"]["undos"] == [1]
            ws.send({"type": "undo", "event": end["event"]})
            refused = ws.until(lambda m: m["type"] == "error")
            assert (refused["code"], refused["reply_to"]) == ("illegal", "undo")
    # A restart comes back to the rolled-back game, take-back counted.
    with (
        TestClient(create_app(str(path), bot_delay=0, seed=21)) as client,
        connect(client, rid) as session,
    ):
        ws = WS(session)
        ws.hello(data["token"])
        assert ws.last_state is not None
        assert ws.last_state["room"]["undos"] == [1]
        assert ws.last_state["last_score"] is not None


def test_an_undo_sent_before_the_computers_played_on_is_taken_as_asked(
    client: TestClient,
) -> None:
    data = new_room(client, exposure=False)
    with connect(client, data["room"]) as session:
        ws = WS(session)
        ws.hello(data["token"])
        before = _my_turn(ws, ws.last_state or ws.state())
        card = before["view"]["legal_plays"][0]
        ws.send({"type": "action", "event": before["event"],
                 "action": {"type": "play", "card": card}})  # fmt: skip
        played = ws.until(lambda m: is_state(m) and card not in m["view"]["hand"])
        now = _my_turn(ws, played)
        assert now["event"] > played["event"]  # the computers played after the click's state
        ws.send({"type": "undo", "event": played["event"]})
        back = ws.until(lambda m: is_state(m) and card in m["view"]["hand"])
        for key in ("hand", "current_trick", "tricks", "to_act", "legal_plays"):
            assert back["view"][key] == before["view"][key], key
        assert back["room"]["undos"] == [1]
        # The card it meant is back in the hand: the same request again is stale.
        ws.send({"type": "undo", "event": played["event"]})
        refused = ws.until(lambda m: m["type"] == "error")
        assert (refused["code"], refused["reply_to"]) == ("stale", "undo")


def test_an_undo_from_before_the_players_next_card_is_stale(client: TestClient) -> None:
    data = new_room(client, exposure=False)
    with connect(client, data["room"]) as session:
        ws = WS(session)
        ws.hello(data["token"])
        state = _my_turn(ws, ws.last_state or ws.state())
        seen = []
        for _ in range(2):
            card = state["view"]["legal_plays"][0]
            ws.send({"type": "action", "event": state["event"],
                     "action": {"type": "play", "card": card}})  # fmt: skip
            played = ws.until(lambda m, c=card: is_state(m) and c not in m["view"]["hand"])
            seen.append(played["event"])
            state = _my_turn(ws, played)
        ws.send({"type": "undo", "event": seen[0]})
        refused = ws.until(lambda m: m["type"] == "error")
        assert (refused["code"], refused["reply_to"]) == ("stale", "undo")
        ws.send({"type": "resync"})
        assert ws.state()["room"]["undos"] == [0]


def test_undo_is_refused_when_another_human_plays(client: TestClient) -> None:
    data = new_room(client, exposure=False)
    rid = data["room"]
    with connect(client, rid) as s0, connect(client, rid) as s2:
        me, friend = WS(s0), WS(s2)
        me.hello(data["token"])
        friend.send({"type": "sit", "seat": 2, "name": "Bob"})
        friend.until(lambda m: m["type"] == "welcome")
        state = me.until(lambda m: is_state(m) and m["room"]["seats"][2]["kind"] == "human")
        # Whoever is to act (the friend may be: it does not play here), the request is
        # refused because another human is at the table; a `stale` answer (the computers
        # moved on meanwhile) is asked again with the fresh event.
        for _ in range(5):
            me.send({"type": "undo", "event": state["event"]})
            refused = me.until(lambda m: m["type"] == "error" and m.get("reply_to") == "undo")
            if refused["code"] != "stale":
                break
            state = me.last_state if me.last_state is not None else me.state()
        assert refused["code"] == "not-alone"


class Gated(concurrent.futures.ThreadPoolExecutor):
    """The computers' workers, held at a gate: a decision starts, then waits for it."""

    def __init__(self) -> None:
        super().__init__(2)
        self.gate = threading.Event()
        self.gate.set()
        self.started = threading.Event()

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        def held() -> Any:
            self.started.set()
            assert self.gate.wait(30)
            return fn(*args, **kwargs)

        return super().submit(held)


def test_a_computers_card_decided_while_a_card_is_taken_back_is_dropped() -> None:
    app = create_app(bot_delay=0, seed=33)
    gated = Gated()
    with TestClient(app) as client:
        app.state.server.driver._executor = gated
        data = new_room(client, exposure=False)
        rid = data["room"]
        with connect(client, rid) as session:
            ws = WS(session)
            ws.hello(data["token"])
            before = _my_turn(ws, ws.last_state or ws.state())
            gated.gate.clear()
            gated.started.clear()
            card = before["view"]["legal_plays"][0]
            ws.send({"type": "action", "event": before["event"],
                     "action": {"type": "play", "card": card}})  # fmt: skip
            played = ws.until(lambda m: is_state(m) and card not in m["view"]["hand"])
            assert gated.started.wait(10)  # West is deciding, held at the gate
            ws.send({"type": "undo", "event": played["event"]})
            back = ws.until(lambda m: is_state(m) and card in m["view"]["hand"])
            gated.gate.set()  # West's card for the old position comes back now
            time.sleep(0.5)
            ws.send({"type": "resync"})
            now = ws.state()
            for key in ("hand", "current_trick", "tricks", "to_act"):
                assert now["view"][key] == before["view"][key] == back["view"][key], key
            # Nothing else was written: the stored log is the rolled-back one.
            server = app.state.server
            stored = server.store.load(rid)
            assert stored is not None
            meta, log = stored
            assert meta["undos"] == [1]
            room = Room(server.store, rid, meta, log)
            assert room.round.to_act == 0
            assert card in {c.code for c in room.round.hands[0]}
            cards = [c.code for t in room.round.tricks for c in t.cards]
            cards += [c.code for c in room.round.current_trick.cards]
            assert len(cards) == len(set(cards))  # no card played twice
            # Then play goes on as usual.
            respond(ws, 0, now)
            nxt = ws.until(_after(now["event"]))
            assert len(nxt["view"]["hand"]) == len(now["view"]["hand"]) - 1


def test_the_deal_of_the_day_takes_no_result_with_a_card_taken_back() -> None:
    app = create_app(bot_delay=0)
    with TestClient(app) as client:
        client.cookies.set("gongzhu_browser", "browser-a")
        made = client.post("/api/daily", json={"name": "Ann"}).json()
        room = app.state.server.rooms.hubs[made["room"]].room
        seat = made["seat"]
        assert room.humans() == [seat]
        _computers(room)
        room.apply(Play(seat, room.round.legal_plays[0]))
        room.undo(seat)
        while not room.round.is_over:
            _computers(room)
            if room.round.to_act == seat:
                room.apply(Play(seat, room.round.legal_plays[0]))
        board = client.get(f"/api/daily?room={room.id}").json()
        assert board["rows"] == []
        assert board["takebacks"] == 1
