"""The table server of ``gongzhu json-table``: one table over TCP, JSON one object per line
(standard library asyncio only).

The client protocol of the docs page *Agents and clients*, for programs in any
language; the messages have JSON Schemas (``table-client``, ``table-server`` in
:mod:`gongzhu.protocol`, with the payloads' ``view``, ``action``, ``error``,
``score`` and ``rules``; ``gongzhu json-table --schema NAME`` prints one):

* client → server: ``{"type": "join", "name": "Ann"}`` first, then actions,
  exactly as :meth:`gongzhu.Action.to_dict` writes them
  (``{"type": "play", "seat": 2, "card": "QS"}``, ``"expose"``, ``"claim"``, ``"respond"``);
* server → client: ``welcome`` (your seat, the rules), then after every accepted
  action each seat's own ``view`` (without the rules, sent once in ``welcome``):
  what the table asks of the seat is the view's ``pending``, and its
  ``history_length`` grows with every action, so a client tells a stale view
  from a fresh one; an ``error`` (:meth:`gongzhu.IllegalActionError.to_dict`)
  to the sender of a refused or malformed message, with the sender's current
  ``view`` (a refusal changes nothing); at the end the ``score``
  (:meth:`gongzhu.DealScore.to_dict`) and ``bye``; ``left`` and ``joined`` when
  a seat's client goes or a newcomer takes its seat.

Each seat only ever receives ``Round.view(seat)``: no other hand, no sealed
exposure, no face-down card goes over the wire. Actions are not echoed to the
other seats (an exposure message names face-down cards); views carry the
public consequences.

What a server facing the network must do, and this one does (issue #22):

* every client has its own bounded outgoing queue, written out by its own task:
  a client that stops reading (its queue fills, or its socket takes nothing for
  ``SEND_TIMEOUT`` seconds) is dropped, and nobody else waits for it;
* a seat whose client leaves (closes, is dropped, sends a line over
  ``MAX_LINE``, stays silent ``IDLE_TIMEOUT`` seconds while awaited) is
  announced to the others (``{"type": "left", "seat": 2, ...}``) and played by
  the rule-of-thumb bot until a newcomer joins and takes it (``"joined"``);
* a connection gets a seat only for a whole ``join`` line, within
  ``JOIN_TIMEOUT`` seconds; at most ``MAX_UNJOINED`` connections may owe one;
* every malformed line (not UTF-8, not JSON, nested too deeply, duplicate keys,
  ``NaN``) gets an error reply and the deal goes on;
* at the end of the deal the last messages go out and every connection is
  closed, without tracebacks.

``examples/server.py`` plays a deal against this server with four bot clients.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from gongzhu import (
    Action,
    Exposure,
    GongzhuError,
    IllegalActionError,
    Phase,
    Play,
    Reason,
    Round,
    RuleOfThumbStrategy,
    RuleSet,
    deal,
)

MAX_LINE = 64 * 1024  # a view is a few kB; a longer line is refused (and its sender dropped)
MAX_QUEUE = 64  # messages waiting for one client; more means it has stopped reading: drop it
SEND_TIMEOUT = 10.0  # seconds one client's socket may refuse our bytes before it is dropped
JOIN_TIMEOUT = 10.0  # seconds from connecting to a complete join line
IDLE_TIMEOUT = 300.0  # seconds a seat the table waits for may stay silent before a bot takes it
MAX_UNJOINED = 32  # connections still owing their join line; more are closed at once


class BadLine(GongzhuError, ValueError):
    """A line that is not one JSON object we read (its sender gets an error reply)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:  # last-wins would let {"seat": 1, "seat": 0} mean two things
            raise BadLine(f"duplicate key {key[:40]!r}")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise BadLine(f"{name} is not JSON")


def parse_line(line: bytes) -> Any:
    """One client line as JSON, or :class:`BadLine` (never another exception)."""
    try:
        return json.loads(line.decode("utf-8"), object_pairs_hook=_unique_keys,
                          parse_constant=_no_constant)  # fmt: skip
    except BadLine:
        raise
    except UnicodeDecodeError:
        raise BadLine("a line is UTF-8 text") from None
    except RecursionError:  # b"[" * 40000 is under MAX_LINE but deeper than the parser goes
        raise BadLine("JSON nested too deeply") from None
    except ValueError as error:  # JSONDecodeError, or an integer of too many digits
        raise BadLine(f"not JSON: {str(error)[:200]}") from None


def error_message(
    seat: int | None, text: str, view: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An ``error`` message for a line that is not an action we read (schema ``error``)."""
    error = {"reason": "INVALID_CHOICE", "message": text[:300], "seat": seat, "card": None,
             "action": "message"}  # fmt: skip
    return _with_view({"type": "error", "error": error}, view)


def _with_view(message: dict[str, Any], view: dict[str, Any] | None) -> dict[str, Any]:
    # A refused action changes nothing: the sender's current view comes with the error, so a
    # client that dropped its last view still knows what it is asked and what is legal.
    if view is not None:
        message["view"] = view
    return message


def awaiting(rnd: Round, seat: int) -> list[str]:
    """What the table waits for from ``seat`` (specification §9.1: every seat decides on
    exposure)."""
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


class Client:
    """One seated connection. Messages go through a bounded queue that one task writes
    out, so a client that stops reading delays nobody: when its queue is full, or its
    socket takes no bytes for ``send_timeout`` seconds, it is dropped."""

    def __init__(self, table: LineTable, seat: int, writer: asyncio.StreamWriter) -> None:
        self.table = table
        self.seat = seat
        self.writer = writer
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(MAX_QUEUE)
        self.pump = asyncio.create_task(self._write_out())
        self.awaited_since: float | None = None  # when the table began to wait for it

    def post(self, message: dict[str, Any]) -> None:
        line = json.dumps(message, ensure_ascii=False).encode() + b"\n"
        try:
            self.queue.put_nowait(line)
        except asyncio.QueueFull:
            self.table.leave(self, "stopped reading")

    def finish(self) -> None:
        """Send what is queued, then close (the end of the deal)."""
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.abort()

    def abort(self) -> None:
        self.pump.cancel()
        self.writer.transport.abort()

    async def _write_out(self) -> None:
        try:
            while (line := await self.queue.get()) is not None:
                self.writer.write(line)
                await asyncio.wait_for(self.writer.drain(), self.table.send_timeout)
            self.writer.close()
        except (TimeoutError, asyncio.TimeoutError, OSError):
            self.table.leave(self, "stopped reading")


class LineTable:
    """One deal for ``rules.players`` clients. Seats are given in the order clients join;
    a seat whose client leaves is announced and played by the library's rule-of-thumb
    bot, until a newcomer joins and takes it."""

    def __init__(self, rules: RuleSet, seed: int | None = None, *,
                 join_timeout: float = JOIN_TIMEOUT, send_timeout: float = SEND_TIMEOUT,
                 idle_timeout: float = IDLE_TIMEOUT) -> None:  # fmt: skip
        self.rules = rules
        self.round = deal(rules=rules, seed=seed)
        self.join_timeout = join_timeout
        self.send_timeout = send_timeout
        self.idle_timeout = idle_timeout
        self.clients: dict[int, Client] = {}
        self.bots: dict[int, RuleOfThumbStrategy] = {}  # seats whose client left
        self.started = False
        self.unjoined = 0
        self.handlers: set[asyncio.Task[None]] = set()
        self.done = asyncio.Event()

    # -- seats --------------------------------------------------------------------------

    def free_seat(self) -> int | None:
        if self.done.is_set():
            return None
        if self.started:  # a newcomer takes over a seat a bot is playing
            return min(self.bots, default=None)
        free = [s for s in range(self.rules.players) if s not in self.clients]
        return free[0] if free else None

    def announce(self, message: dict[str, Any], *, but: int | None = None) -> None:
        for seat, client in list(self.clients.items()):
            if seat != but:
                client.post(message)

    def leave(self, client: Client, why: str) -> None:
        """``client`` is gone (closed, dropped, too slow): tell the others, fill its seat."""
        seat = client.seat
        if self.clients.get(seat) is not client:
            return  # already handled
        del self.clients[seat]
        if why == "stopped reading":
            client.abort()
        else:
            client.finish()  # what is queued (say the "line too long" reply) still goes out
        if self.done.is_set():
            return
        if self.started:
            self.bots[seat] = RuleOfThumbStrategy()
            self.announce({"type": "left", "seat": seat, "reason": why, "replaced_by": "bot"})
            self.advance()
        else:
            self.announce({"type": "left", "seat": seat, "reason": why, "replaced_by": None})

    # -- the deal -----------------------------------------------------------------------

    def view_message(self, seat: int) -> dict[str, Any]:
        """A seat's ``view`` message: what is asked of it is the view's ``pending``."""
        view = self.round.view(seat).to_dict(include_rules=False)  # sent once, in welcome
        return {"type": "view", "view": view}

    def broadcast_views(self) -> None:
        now = asyncio.get_running_loop().time()
        for seat, client in list(self.clients.items()):
            message = self.view_message(seat)
            if not awaiting(self.round, seat):
                client.awaited_since = None
            elif client.awaited_since is None:
                client.awaited_since = now
            client.post(message)
        if self.round.is_over and not self.done.is_set():
            score = self.round.score().to_dict()
            self.done.set()
            for client in list(self.clients.values()):
                client.post({"type": "score", "score": score})
                client.post({"type": "bye"})
                client.finish()

    def advance(self) -> None:
        """Let the bots in left seats act while the table waits for them, then show the views."""
        moved = True
        while moved and not self.round.is_over:
            moved = False
            for seat, bot in list(self.bots.items()):
                todo = awaiting(self.round, seat)
                if not todo:
                    continue
                view = self.round.view(seat)
                if todo[0] == "expose":
                    self.round = self.round.expose(bot.choose_exposure(view), seat=seat)
                elif todo[0] == "respond":
                    self.round = self.round.respond(True, seat=seat)
                else:
                    self.round = self.round.play(bot.choose_play(view, view.legal_plays), seat=seat)
                moved = True
        self.broadcast_views()

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

    # -- connections --------------------------------------------------------------------

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.handlers.add(task)
        try:
            client = await self._join(reader, writer)
            if client is not None:
                await self._play(reader, client)
        except asyncio.CancelledError:
            writer.transport.abort()  # the table is shutting down; not an error to report
        finally:
            self.handlers.discard(task)

    async def _join(self, reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter) -> Client | None:  # fmt: skip
        if self.unjoined >= MAX_UNJOINED or self.done.is_set():
            writer.transport.abort()  # idle connections may not lock the players out
            return None
        self.unjoined += 1
        try:
            line = await asyncio.wait_for(reader.readline(), self.join_timeout)
        except (TimeoutError, asyncio.TimeoutError, ValueError, OSError):
            line = b""  # too slow, too long or reset: no seat
        finally:
            self.unjoined -= 1
        if not line.endswith(b"\n"):  # closed before a whole join line: no seat
            writer.transport.abort()
            return None
        try:
            message = parse_line(line)
            if not isinstance(message, dict) or message.get("type") != "join":
                raise BadLine('the first line is {"type": "join", "name": ...}')
        except BadLine as error:
            writer.write(json.dumps(error_message(None, str(error))).encode() + b"\n")
            writer.close()
            return None
        seat = self.free_seat()
        if seat is None:
            writer.write(json.dumps(error_message(None, "the table is full")).encode() + b"\n")
            writer.close()
            return None
        client = self.clients[seat] = Client(self, seat, writer)
        client.post({"type": "welcome", "seat": seat, "rules": self.rules.to_dict()})
        if self.started:
            del self.bots[seat]
            self.announce({"type": "joined", "seat": seat}, but=seat)
            if awaiting(self.round, seat):
                client.awaited_since = asyncio.get_running_loop().time()
            client.post(self.view_message(seat))
        elif len(self.clients) == self.rules.players:
            self.started = True  # the deal starts: every seat gets its first view
            self.broadcast_views()
        return client

    async def _play(self, reader: asyncio.StreamReader, client: Client) -> None:
        seat = client.seat
        while self.clients.get(seat) is client and not self.done.is_set():
            try:
                line = await asyncio.wait_for(reader.readline(), self.idle_timeout)
            except (TimeoutError, asyncio.TimeoutError):
                # Silent while the table has waited for it that long (not merely silent:
                # a seat that was not awaited had nothing to say). Found by the fuzzer.
                since = client.awaited_since
                now = asyncio.get_running_loop().time()
                if since is not None and now - since >= self.idle_timeout:
                    self.leave(client, "too slow")
                continue
            except (ValueError, asyncio.LimitOverrunError):
                client.post(error_message(seat, "line too long"))
                self.leave(client, "line too long")
                return
            except OSError:
                line = b""
            if not line:
                self.leave(client, "disconnected")
                return
            if self.clients.get(seat) is not client or self.done.is_set():
                return
            if not self.started:
                client.post(error_message(seat, "the deal has not started"))
                continue
            try:
                self.act(seat, parse_line(line))
            except IllegalActionError as error:
                view = self.view_message(seat)["view"]
                client.post(_with_view({"type": "error", "error": error.to_dict()}, view))
                continue
            except GongzhuError as error:  # a bad line or a malformed action
                client.post(error_message(seat, str(error), self.view_message(seat)["view"]))
                continue
            self.advance()

    async def close(self) -> None:
        """After the deal: let the last messages go out, then end every connection."""
        if self.handlers:
            await asyncio.wait(list(self.handlers), timeout=self.send_timeout)
        for task in list(self.handlers):
            task.cancel()
        if self.handlers:
            await asyncio.wait(list(self.handlers))
        for client in list(self.clients.values()):
            if not client.pump.done():
                await asyncio.wait([client.pump], timeout=self.send_timeout)
            client.abort()


async def serve(host: str, port: int, rules: RuleSet, seed: int | None = None) -> LineTable:
    """Serve one table on ``host:port`` until its deal is over; the table, for its score."""
    table = LineTable(rules, seed=seed)
    server = await asyncio.start_server(table.serve, host, port, limit=MAX_LINE)
    bound = server.sockets[0].getsockname()[1]
    print(f"waiting for {table.rules.players} players on {host}:{bound}", flush=True)
    async with server:
        await table.done.wait()
        server.close()
        await table.close()
    print(f"deal over: totals {table.round.score().totals}", flush=True)
    return table
