"""A line-JSON table and four bot clients: ``gongzhu json-table`` played over real sockets.

The server is the installed ``gongzhu json-table`` command's
(:mod:`gongzhu.cli.table_server`: its docstring gives the protocol, its schemas
are ``table-client`` and ``table-server``); this file adds a client of it that
plays with the library's rule-of-thumb bot from the views it receives, reading
only the JSON (what a client in any language would do): what it is asked is the
view's ``pending``, and a view no newer than the last it acted on
(``history_length``) is stale.

Run ``python examples/server.py`` for the self-test: a server on 127.0.0.1 (an
ephemeral port), four bot clients that play one deal over real sockets (one of
them first sends an illegal play and a malformed message, to show the errors),
and a check that every client saw the same final score (a port check that connects
and closes first takes no seat). ``python examples/server.py --serve PORT``
serves one table until its deal is over, as ``gongzhu json-table --port PORT``.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from gongzhu import Pending, Play, PlayerView, RuleOfThumbStrategy, RuleSet
from gongzhu.cli.table_server import (  # the server, and what the tests reach through here
    IDLE_TIMEOUT,
    JOIN_TIMEOUT,
    MAX_LINE,
    MAX_QUEUE,
    MAX_UNJOINED,
    SEND_TIMEOUT,
    BadLine,
    Client,
    awaiting,
    error_message,
    parse_line,
    serve,
)
from gongzhu.cli.table_server import LineTable as Table

__all__ = [
    "IDLE_TIMEOUT",
    "JOIN_TIMEOUT",
    "MAX_LINE",
    "MAX_QUEUE",
    "MAX_UNJOINED",
    "SEND_TIMEOUT",
    "BadLine",
    "Client",
    "Table",
    "awaiting",
    "bot_client",
    "error_message",
    "parse_line",
    "self_test",
]


async def bot_client(port: int, name: str, *, misbehave: bool = False) -> dict[str, Any]:
    """A client that plays with the library's rule-of-thumb bot from the views it receives."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=MAX_LINE)
    strategy = RuleOfThumbStrategy()

    def send(message: dict[str, Any]) -> None:
        writer.write(json.dumps(message).encode() + b"\n")

    send({"type": "join", "name": name})
    errors: list[str] = []
    notices: list[dict[str, Any]] = []
    misbehaved = exposed = False
    seat = -1
    rules: RuleSet | None = None
    acted_at = -1  # the history length of the view this client last acted on
    score: dict[str, Any] = {}
    while True:
        line = await reader.readline()
        if not line:
            break
        message = json.loads(line)
        kind = message["type"]
        if kind == "welcome":
            seat = message["seat"]
            rules = RuleSet.from_dict(message["rules"])  # the views leave the rules out
        elif kind == "error":
            errors.append(message["error"]["reason"])
        elif kind in ("left", "joined"):  # another seat's client left (a bot plays it) or came
            notices.append(message)
        elif kind == "score":
            score = message["score"]
        elif kind == "bye":
            break
        elif kind == "view":
            view = PlayerView.from_dict(message["view"], rules=rules)  # checked: untrusted
            assert all(c in view.hand for c in view.legal_plays)
            if misbehave and not misbehaved:
                misbehaved = True
                other = (seat + 1) % view.rules.players
                send({"type": "play", "seat": other, "card": view.hand[0].code})
                send({"type": "play", "seat": seat, "card": "XX"})
            # A view no newer than the one acted on is stale; so is a view that still asks
            # for this seat's exposure after it was sent: the other seats' decisions may
            # be shown before ours is taken (its view's exposure_decided then lists it).
            pending = view.pending
            if pending is None or view.history_length <= acted_at:
                continue
            if pending is Pending.EXPOSE:
                if not exposed and seat not in view.exposure_decided:
                    exposed = True
                    acted_at = view.history_length
                    cards = strategy.choose_exposure(view)
                    send({"type": "expose", "seat": seat, "cards": [c.code for c in cards]})
                continue
            acted_at = view.history_length
            if pending is Pending.RESPOND:
                send({"type": "respond", "seat": seat, "accept": True})
            else:
                card = strategy.choose_play(view, view.legal_plays)
                send(Play(seat, card).to_dict())
        await writer.drain()
    writer.close()
    return {"seat": seat, "score": score, "errors": errors, "notices": notices}


async def self_test(seed: int = 7) -> int:
    table = Table(RuleSet(), seed=seed)  # the installed server's table, on an ephemeral port
    server = await asyncio.start_server(table.serve, "127.0.0.1", 0, limit=MAX_LINE)
    port = server.sockets[0].getsockname()[1]
    # A port check (connect, close) before the players: it must not take a seat.
    _probe, probe = await asyncio.open_connection("127.0.0.1", port)
    probe.close()
    await asyncio.sleep(0.05)
    names = ["Ann", "Bob", "Cid", "Dee"]
    clients = [bot_client(port, n, misbehave=(k == 1)) for k, n in enumerate(names)]
    results = await asyncio.wait_for(asyncio.gather(*clients), timeout=60)
    server.close()
    await table.close()
    await server.wait_closed()
    totals = {tuple(r["score"]["totals"]) for r in results}
    assert totals == {table.round.score().totals}, totals
    assert sorted(r["seat"] for r in results) == [0, 1, 2, 3]
    refused = results[1]["errors"]
    assert refused[:2] == ["NOT_YOUR_TURN", "INVALID_CHOICE"], refused
    print(f"played deal {seed} over 127.0.0.1:{port}: totals {table.round.score().totals}")
    print(f"the misbehaving client was told: {', '.join(refused)}")
    return 0


async def serve_forever(port: int) -> None:
    """``--serve PORT``: what ``gongzhu json-table --port PORT`` does."""
    await serve("127.0.0.1", port, RuleSet())


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        asyncio.run(serve_forever(int(sys.argv[2])))
    else:
        sys.exit(asyncio.run(self_test()))
