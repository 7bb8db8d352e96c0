"""``gongzhu json-table``: the installed line-JSON table server and its message schemas."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import fresh_loop
from gongzhu import DECK, Pending, PlayerView, RuleOfThumbStrategy, RuleSet, protocol
from gongzhu.cli import main
from gongzhu.cli.table_server import MAX_LINE, LineTable

jsonschema = pytest.importorskip("jsonschema")
SERVER = jsonschema.Draft202012Validator(protocol.schema("table-server"))
CLIENT = jsonschema.Draft202012Validator(protocol.schema("table-client"))


async def _client(port: int, name: str, *, bad_first: bool) -> list[dict[str, Any]]:
    """A client that reads only the JSON: every message in and out is checked by the schemas."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=MAX_LINE)
    bot, seen, rules, sent_exposure, bad = RuleOfThumbStrategy(), [], None, False, bad_first

    def send(message: dict[str, Any]) -> None:
        CLIENT.validate(message)
        writer.write(json.dumps(message).encode() + b"\n")

    send({"type": "join", "name": name})
    while line := await reader.readline():
        message = json.loads(line)
        SERVER.validate(message)
        seen.append(message)
        if message["type"] == "welcome":
            seat, rules = message["seat"], RuleSet.from_dict(message["rules"])
        elif message["type"] == "bye":
            break
        elif message["type"] == "view":
            view = PlayerView.from_dict(message["view"], rules=rules)
            if bad and view.pending is Pending.PLAY:  # a card it does not hold: refused
                bad = False
                send({"type": "play", "seat": seat, "card": (DECK - view.hand)[0].code})
            if view.pending is Pending.EXPOSE and not sent_exposure:
                sent_exposure = True
                cards = [c.code for c in bot.choose_exposure(view)]
                send({"type": "expose", "seat": seat, "cards": cards})
            elif view.pending is Pending.PLAY:
                card = bot.choose_play(view, view.legal_plays)
                send({"type": "play", "seat": seat, "card": card.code})
        await writer.drain()
    writer.close()
    return seen


async def _deal() -> tuple[LineTable, list[list[dict[str, Any]]]]:
    table = LineTable(RuleSet(), seed=5)
    server = await asyncio.start_server(table.serve, "127.0.0.1", 0, limit=MAX_LINE)
    port = server.sockets[0].getsockname()[1]
    clients = [_client(port, f"p{k}", bad_first=k == 2) for k in range(4)]
    seen = await asyncio.wait_for(asyncio.gather(*clients), 60)
    server.close()
    await table.close()
    await server.wait_closed()
    return table, list(seen)


def test_a_deal_over_the_json_table_speaks_its_schemas() -> None:
    table, seen = fresh_loop.run(_deal())
    totals = table.round.score().totals
    for messages in seen:
        assert messages[0]["type"] == "welcome"
        assert messages[-2:] == [{"type": "score", "score": messages[-2]["score"]}, {"type": "bye"}]
        assert tuple(messages[-2]["score"]["totals"]) == totals
        lengths = [m["view"]["history_length"] for m in messages if m["type"] == "view"]
        assert lengths == sorted(lengths)  # views arrive in the deal's order


def test_an_error_to_a_client_comes_with_its_current_view() -> None:
    _table, seen = fresh_loop.run(_deal())
    errors = [m for m in seen[2] if m["type"] == "error"]
    assert errors, "the misbehaving client was not refused"
    for error in errors:
        view = error["view"]
        assert view["seat"] == 2
        assert view["pending"] == "play"  # what it is asked, with the legal plays
        assert view["legal_plays"]


def test_the_command_prints_the_envelopes_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["json-table", "--schema", "table-server"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == protocol.schema("table-server")
    assert {"welcome", "view", "error", "score", "bye", "left", "joined"} <= {
        variant["properties"]["type"]["const"] for variant in printed["oneOf"]
    }
