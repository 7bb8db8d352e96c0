"""A small table server for the gongzhu client protocol (standard library asyncio only).

Clients connect over TCP and speak JSON, one object per line (the message flow
of the docs page "Agents and clients"):

* client → server: ``{"type": "join", "name": "Ann"}`` first, then actions,
  exactly as :meth:`gongzhu.Action.to_dict` writes them
  (``{"type": "play", "seat": 2, "card": "QS"}``, ``"expose"``, ``"claim"``, ``"respond"``);
* server → client: ``welcome`` (your seat, the rules), then after every accepted
  action each seat's own ``view`` with what the server awaits from it, an
  ``error`` (:meth:`gongzhu.IllegalActionError.to_dict`) to the sender of a
  refused or malformed message, and at the end the ``score``
  (:meth:`gongzhu.DealScore.to_dict`) and ``bye``.

Each seat only ever receives ``Round.view(seat)``: no other hand, no sealed
exposure, no face-down card goes over the wire. Actions are not echoed to the
other seats (an exposure message names face-down cards); views carry the
public consequences.

Run ``python examples/server.py`` for the self-test: a server on 127.0.0.1 (an
ephemeral port), four bot clients that play one deal over real sockets (one of
them first sends an illegal play and a malformed message, to show the errors),
and a check that every client saw the same final score. ``python
examples/server.py --serve PORT`` serves one table until its deal is over.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from gongzhu import (
    Action,
    Exposure,
    GongzhuError,
    IllegalActionError,
    Phase,
    Play,
    PlayerView,
    Reason,
    Round,
    RuleOfThumbStrategy,
    RuleSet,
    deal,
)

MAX_LINE = 64 * 1024  # a view is a few kB; a longer line is refused


def awaiting(rnd: Round, seat: int) -> list[str]:
    """What the table waits for from ``seat`` (RULES.md §9.1: every seat decides on exposure)."""
    if rnd.phase is Phase.COMPLETE:
        return []
    undecided = (
        rnd.rules.exposable
        and rnd.phase is Phase.EXPOSURE
        and (len(rnd.exposure_decided) < rnd.players)
    )
    if undecided:
        return ["expose"] if seat not in rnd.exposure_decided else []
    pending = rnd.claim_pending
    if pending is not None:
        claimer, accepted = pending
        return ["respond"] if seat != claimer and seat not in accepted else []
    if rnd.to_act == seat:
        return ["play", "claim"] if rnd.rules.claims else ["play"]
    return []


class Table:
    """One deal for ``rules.players`` clients; seats are given in the order clients join."""

    def __init__(self, rules: RuleSet, seed: int | None = None) -> None:
        self.rules = rules
        self.round = deal(rules, seed=seed)
        self.writers: dict[int, asyncio.StreamWriter] = {}
        self.full = asyncio.Event()
        self.done = asyncio.Event()

    async def send(self, seat: int, message: dict[str, Any]) -> None:
        writer = self.writers.get(seat)
        if writer is None or writer.is_closing():
            return
        writer.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")
        await writer.drain()

    async def broadcast_views(self) -> None:
        for seat in list(self.writers):
            view = self.round.view(seat).to_dict()
            await self.send(seat, {"type": "view", "view": view,
                                   "awaiting": awaiting(self.round, seat)})  # fmt: skip
        if self.round.is_complete:
            score = self.round.score().to_dict()
            for seat in list(self.writers):
                await self.send(seat, {"type": "score", "score": score})
                await self.send(seat, {"type": "bye"})
            self.done.set()

    def act(self, seat: int, message: Any) -> None:
        """Apply one client message for ``seat``, or raise the error to send back."""
        action = Action.from_dict(message)  # ProtocolError for a malformed message
        if action.seat != seat:
            raise IllegalActionError(Reason.NOT_YOUR_TURN, action.seat,
                                     detail=f"this connection plays seat {seat}")  # fmt: skip
        if isinstance(action, Play) and "expose" in {
            a for s in range(self.rules.players) for a in awaiting(self.round, s)
        }:
            raise IllegalActionError(Reason.WRONG_PHASE, seat, action.card,
                                     "every seat decides on exposure first")  # fmt: skip
        if isinstance(action, Exposure) and seat in self.round.exposure_decided:
            raise IllegalActionError(Reason.WRONG_PHASE, seat, action="expose",
                                     detail="a seat decides on exposure once")  # fmt: skip
        self.round = self.round.apply(action)

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readline()  # the join message (its name is not used here)
        except (ValueError, asyncio.LimitOverrunError):
            writer.close()
            return
        if len(self.writers) >= self.rules.players:
            writer.close()
            return
        seat = len(self.writers)
        self.writers[seat] = writer
        try:
            await self.send(seat, {"type": "welcome", "seat": seat, "rules": self.rules.to_dict()})
            if len(self.writers) == self.rules.players and not self.full.is_set():
                self.full.set()  # the deal starts: every seat gets its first view
                await self.broadcast_views()
            while not self.done.is_set():
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    await self.send(seat, {"type": "error", "error": {"reason": "INVALID_CHOICE",
                                    "message": "line too long", "seat": seat, "card": None,
                                    "action": "message"}})  # fmt: skip
                    break
                if not line:
                    break
                if not self.full.is_set():
                    continue
                try:
                    self.act(seat, json.loads(line))
                except IllegalActionError as error:
                    await self.send(seat, {"type": "error", "error": error.to_dict()})
                    continue
                except (GongzhuError, ValueError) as error:  # bad JSON or a malformed action
                    await self.send(seat, {"type": "error", "error": {"reason": "INVALID_CHOICE",
                                    "message": str(error)[:300], "seat": seat, "card": None,
                                    "action": "message"}})  # fmt: skip
                    continue
                await self.broadcast_views()
        finally:
            writer.close()


async def bot_client(port: int, name: str, *, misbehave: bool = False) -> dict[str, Any]:
    """A client that plays with the library's rule-of-thumb bot from the views it receives."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=MAX_LINE)
    strategy = RuleOfThumbStrategy()

    def send(message: dict[str, Any]) -> None:
        writer.write(json.dumps(message).encode() + b"\n")

    send({"type": "join", "name": name})
    errors: list[str] = []
    misbehaved = decided = False
    seat = -1
    score: dict[str, Any] = {}
    while True:
        line = await reader.readline()
        if not line:
            break
        message = json.loads(line)
        kind = message["type"]
        if kind == "welcome":
            seat = message["seat"]
        elif kind == "error":
            errors.append(message["error"]["reason"])
        elif kind == "score":
            score = message["score"]
        elif kind == "bye":
            break
        elif kind == "view":
            view = PlayerView.from_dict(message["view"])  # checked, like any untrusted input
            assert all(c in view.hand for c in view.legal_plays)
            todo = message["awaiting"]
            if misbehave and not misbehaved:
                misbehaved = True
                other = (seat + 1) % view.rules.players
                send({"type": "play", "seat": other, "card": view.hand[0].code})
                send({"type": "play", "seat": seat, "card": "XX"})
            if "expose" in todo and not decided:  # several views may arrive while others decide
                decided = True
                cards = strategy.choose_exposure(view)
                send({"type": "expose", "seat": seat, "cards": [c.code for c in cards]})
            elif "respond" in todo:
                send({"type": "respond", "seat": seat, "accept": True})
            elif "play" in todo:
                card = strategy.choose_play(view, view.legal_plays)
                send(Play(seat, card).to_dict())
        await writer.drain()
    writer.close()
    return {"seat": seat, "score": score, "errors": errors}


async def self_test(seed: int = 7) -> int:
    table = Table(RuleSet(), seed=seed)
    server = await asyncio.start_server(table.serve, "127.0.0.1", 0, limit=MAX_LINE)
    port = server.sockets[0].getsockname()[1]
    names = ["Ann", "Bob", "Cid", "Dee"]
    clients = [bot_client(port, n, misbehave=(k == 1)) for k, n in enumerate(names)]
    results = await asyncio.wait_for(asyncio.gather(*clients), timeout=60)
    server.close()
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
    table = Table(RuleSet())
    server = await asyncio.start_server(table.serve, "127.0.0.1", port, limit=MAX_LINE)
    print(f"waiting for {table.rules.players} players on 127.0.0.1:{port}")
    async with server:
        await table.done.wait()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        asyncio.run(serve_forever(int(sys.argv[2])))
    else:
        sys.exit(asyncio.run(self_test()))
