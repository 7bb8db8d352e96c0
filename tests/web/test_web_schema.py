"""The web table's message schemas (gongzhu.protocol ``web-client``/``web-server``) hold.

Every frame the server sends in a game (welcome, state to seats and a
spectator, errors, a hint) validates against ``web-server``; the client
messages the server accepts validate against ``web-client``; the counter-
examples are refused by the schema and by the server's reader alike.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
jsonschema = pytest.importorskip("jsonschema")

from starlette.testclient import TestClient  # noqa: E402
from test_web_server import WS, connect, new_room, play_out_deal, respond  # noqa: E402

from gongzhu import protocol  # noqa: E402
from gongzhu.web import create_app  # noqa: E402
from gongzhu.web.messages import WebError, parse  # noqa: E402

SERVER = jsonschema.Draft202012Validator(protocol.schema("web-server"))
CLIENT = jsonschema.Draft202012Validator(protocol.schema("web-client"))
REFUSAL = jsonschema.Draft202012Validator(protocol.schema("error"))


def valid(validator: Any, data: Any) -> None:
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.path))
    assert not errors, f"{errors[0].message} at {list(errors[0].path)}: {json.dumps(data)[:300]}"


GOOD_CLIENT = [
    {"type": "hello", "token": None, "name": None},
    {"type": "hello", "token": "abc_DEF-123", "name": "Ann", "lang": "zh-CN"},
    {"type": "sit", "seat": 3, "name": "Bob"},
    {"type": "action", "event": 7, "action": {"type": "play", "card": "QS"}},
    {"type": "action", "event": 7, "action": {"type": "play", "seat": 0, "card": "QS"}},
    {"type": "action", "event": 7, "action": {"type": "expose", "cards": ["QS", "AH"]}},
    {"type": "action", "event": 7, "action": {"type": "expose", "cards": []}},
    {"type": "next", "event": 0},
    {"type": "hint", "event": 12},
    {"type": "resync"},
    {"type": "new_game", "event": 99},
    {"type": "undo", "event": 5},
]

BAD_CLIENT = [
    {},
    {"type": "dance"},
    {"type": "hello", "token": 5, "name": None},
    {"type": "hello", "token": "has space", "name": None},
    {"type": "hello", "token": None, "name": "x" * 33},
    {"type": "hello", "token": None, "name": None, "extra": 1},
    {"type": "sit", "seat": 4, "name": "Bob"},
    {"type": "sit", "seat": 1},
    {"type": "sit", "seat": True, "name": "Bob"},
    {"type": "action", "action": {"type": "play", "card": "QS"}},
    {"type": "action", "event": -1, "action": {"type": "play", "card": "QS"}},
    {"type": "action", "event": 2**53 + 1, "action": {"type": "play", "card": "QS"}},
    {"type": "action", "event": 1, "action": "QS"},
    {"type": "next"},
    {"type": "next", "event": "1"},
    {"type": "resync", "event": 1},
    {"type": "new_game", "event": 1.5},
    {"type": "undo"},
]


@pytest.mark.parametrize("message", GOOD_CLIENT)
def test_client_messages_the_server_reads_fit_the_schema(message: dict[str, Any]) -> None:
    valid(CLIENT, message)
    parsed = parse(json.dumps(message))
    assert parsed.type == message["type"]
    valid(CLIENT, parsed.to_dict())  # the typed message reads back as the schema's


def test_every_typed_client_message_is_the_schemas_and_the_schema_has_no_other() -> None:
    from gongzhu.web.messages import _FIELDS, MESSAGES

    schema = protocol.schema("web-client")
    kinds = {}
    for branch in schema["oneOf"]:
        props = branch["properties"]
        kinds[props["type"]["const"]] = (
            {k for k in branch.get("required", []) if k != "type"},
            set(props) - {"type"},
        )
    assert set(kinds) == set(MESSAGES) == set(_FIELDS)
    for kind, (required, optional) in _FIELDS.items():
        assert set(required) == kinds[kind][0], kind
        assert set(required) | set(optional) == kinds[kind][1], kind


@pytest.mark.parametrize("message", BAD_CLIENT)
def test_the_client_schemas_counter_examples_are_refused_by_schema_and_server(
    message: dict[str, Any],
) -> None:
    assert not CLIENT.is_valid(message)
    with pytest.raises(WebError) as info:
        parse(json.dumps(message))
    assert info.value.code == "bad-message"


def test_every_frame_of_a_game_fits_the_server_schema() -> None:
    with TestClient(create_app(bot_delay=0, seed=77)) as client:
        data = new_room(client, exposure=True)
        rid = data["room"]
        with connect(client, rid) as s_spec, connect(client, rid) as s0:
            spectator, me = WS(s_spec), WS(s0)
            spectator.send({"type": "hello", "token": "Z" * 20, "name": None})  # bad-token
            spectator.until(lambda m: m["type"] == "welcome")
            me.hello(data["token"])
            me.send({"type": "resync", "x": 1})  # bad-message
            me.send("[" * 9000)  # too-large
            me.send({"type": "resync"})
            state = me.state()
            me.send({"type": "action", "event": 0, "action": {"type": "play", "card": "2C"}})
            while not (state["view"]["phase"] == "play" and state["view"]["to_act"] == 0):
                if state["exposure_options"]:
                    respond(me, 0, state, expose=True)
                state = me.state()
            me.send({"type": "hint", "event": state["event"]})
            me.until(lambda m: m["type"] == "hint")
            wrong = next(c for c in ("2H", "3H", "4H", "2S") if c not in state["view"]["hand"])
            me.send({"type": "action", "event": state["event"],
                     "action": {"type": "play", "card": wrong}})  # fmt: skip
            illegal = me.until(lambda m: m["type"] == "error" and m["code"] == "illegal")
            valid(REFUSAL, illegal["detail"])
            end = play_out_deal(me, 0, expose=True)
            assert end["last_score"] is not None
            spectator.send({"type": "resync"})
            spectator.state()
    kinds = set()
    codes = set()
    for ws in (me, spectator):
        for text in ws.frames:
            frame = json.loads(text)
            valid(SERVER, frame)
            kinds.add(frame["type"])
            if frame["type"] == "error":
                codes.add(frame["code"])
    assert kinds == {"welcome", "state", "error", "hint", "thinking"}
    assert {"bad-token", "bad-message", "too-large", "stale", "illegal"} <= codes


def _state() -> dict[str, Any]:
    with TestClient(create_app(bot_delay=0, seed=78)) as client:
        data = new_room(client)
        with connect(client, data["room"]) as s0:
            ws = WS(s0)
            ws.hello(data["token"])
            assert ws.last_state is not None
            return ws.last_state


def test_the_server_schemas_counter_examples_are_refused() -> None:
    state = _state()
    valid(SERVER, state)
    spectator_with_a_hand = json.loads(json.dumps(state))
    spectator_with_a_hand["view"]["seat"] = None  # a view of no seat may not hold cards
    bad = [
        {k: v for k, v in state.items() if k != "event"},
        {**state, "type": "status"},
        {**state, "extra": 1},
        {**state, "event": -1},
        {**state, "deal_no": 0},
        spectator_with_a_hand,
        {"type": "error", "event": 1, "code": "oops", "message": "", "reply_to": "", "detail": {}},
        {
            "type": "hint",
            "event": 1,
            "cards": [{"card": "QS", "expected": 1.0, "stderr": -1.0, "samples": 3}],
        },
        {"type": "welcome", "event": 1, "seat": 4, "token": None, "room": state["room"]},
    ]
    for message in bad:
        assert not SERVER.is_valid(message), json.dumps(message)[:200]


def test_every_typed_server_message_is_the_schemas_and_the_schema_has_no_other() -> None:
    import attrs

    from gongzhu.web.messages import SERVER_MESSAGES

    schema = protocol.schema("web-server")
    kinds = {}
    for branch in schema["oneOf"]:
        props = branch["properties"]
        kinds[props["type"]["const"]] = (set(branch["required"]) - {"type"}, set(props) - {"type"})
    assert set(kinds) == set(SERVER_MESSAGES)
    for kind, cls in SERVER_MESSAGES.items():
        fields = {f.name for f in attrs.fields(cls)}  # type: ignore[arg-type]
        assert fields == kinds[kind][0] == kinds[kind][1], kind
