"""The web table's client messages: strict, bounded JSON reading and typed refusals.

Every text frame a browser sends goes through :func:`parse`: at most
:data:`MAX_MESSAGE_BYTES` bytes of UTF-8, nesting at most :data:`MAX_DEPTH`
deep (checked by a scan *before* :func:`json.loads`, so no hostile frame ever
reaches the parser's recursion), no duplicate keys, no ``NaN``/``Infinity``,
no huge numbers, exactly the fields its ``type`` allows. A refusal is a
:class:`WebError` whose ``code`` is the protocol's error code
(``docs/web_protocol.rst``). Nothing here needs Starlette.

>>> parse('{"type": "resync"}')
Resync()
>>> parse('{"type": "resync", "type": "hello"}')
Traceback (most recent call last):
...
gongzhu.web.messages.WebError: bad-message: duplicate key 'type'
>>> parse("[" * 5000)
Traceback (most recent call last):
...
gongzhu.web.messages.WebError: bad-message: JSON nested deeper than 8 levels
"""

from __future__ import annotations

import asyncio
import json
import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final, NoReturn, TypeVar

import attrs

from gongzhu._base.text import brief as _brief
from gongzhu.actions import Action
from gongzhu.errors import GongzhuError, ProtocolError

__all__ = [
    "CLIENT_TYPES",
    "ERROR_CODES",
    "MAX_DEPTH",
    "MAX_MESSAGE_BYTES",
    "MAX_NAME",
    "MESSAGES",
    "PHRASES",
    "SERVER_MESSAGES",
    "SERVER_TYPES",
    "Act",
    "ClientMessage",
    "ErrorReply",
    "Hello",
    "Hint",
    "HintReply",
    "NewGame",
    "Next",
    "Resync",
    "Said",
    "Say",
    "ServerMessage",
    "Sit",
    "Speed",
    "StartDeal",
    "State",
    "Thinking",
    "Undo",
    "WebError",
    "Welcome",
    "check_name",
    "parse",
    "parse_json",
    "read_body",
]

MAX_MESSAGE_BYTES: Final = 8192
"""The largest client frame read, in bytes of UTF-8 (a bigger one is refused ``too-large``)."""
BODY_TIMEOUT: Final = 10.0
"""Seconds a request body may take to arrive."""


async def read_body(request: Any, limit: int = MAX_MESSAGE_BYTES) -> bytes:
    """An HTTP request's body (a Starlette ``Request``), at most ``limit`` bytes
    (``too-large``) arriving within :data:`BODY_TIMEOUT` seconds (``bad-message``)."""

    async def read() -> bytes:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise WebError("too-large", f"at most {limit} bytes")
        return body

    try:
        return await asyncio.wait_for(read(), BODY_TIMEOUT)
    except asyncio.TimeoutError:
        raise WebError("bad-message", "the body took too long") from None


MAX_DEPTH: Final = 8
"""The deepest nesting of arrays and objects in a client message."""
MAX_NAME: Final = 32
"""The longest player name, in characters."""
MAX_TOKEN: Final = 128
_MAX_INT: Final = 2**53
_MAX_NUMBER_TEXT: Final = 20

ERROR_CODES: Final = (
    "illegal",
    "stale",
    "bad-message",
    "bad-token",
    "seat-taken",
    "not-alone",
    "rate-limited",
    "too-large",
    "not-found",
    "room-full",
    "store-busy",
)
"""Every ``code`` an ``error`` message may carry (the last two are HTTP-side too)."""


class WebError(GongzhuError, ValueError):
    """A web client's message or request was refused.

    ``code`` is one of :data:`ERROR_CODES`; ``detail`` a JSON-safe dict
    (for ``illegal``: :meth:`IllegalActionError.to_dict
    <gongzhu.IllegalActionError.to_dict>`).
    """

    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
        self.code = code
        self.detail = detail or {}
        super().__init__(f"{code}: {message}")

    @property
    def message(self) -> str:
        """The sentence without the code."""
        text = str(self)
        return text[len(self.code) + 2 :]


def _bad(message: str) -> NoReturn:
    raise WebError("bad-message", message)


# -- JSON ---------------------------------------------------------------------------


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            _bad(f"duplicate key {_brief(key)}")
        out[key] = value
    return out


def _parse_int(text: str) -> int:
    if len(text) > _MAX_NUMBER_TEXT:
        _bad("a number is too long")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > _MAX_NUMBER_TEXT:
        _bad("a number is too long")
    return float(text)


def _parse_constant(name: str) -> NoReturn:
    _bad(f"{name} is not JSON")


def _depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` outside strings (a linear scan, no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:  # stop early: the rest need not be read
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_json(text: str | bytes, limit: int = MAX_MESSAGE_BYTES) -> Any:
    """The JSON value of ``text`` read strictly (see the module), or a :class:`WebError`."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > limit:
            raise WebError("too-large", f"at most {limit} bytes")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            _bad("not UTF-8")
    if not isinstance(text, str):
        _bad("a message is JSON text")
    # A character takes at least one byte: only a long text needs encoding to be measured.
    if len(text) > limit or (
        len(text) * 4 > limit and len(text.encode("utf-8", "surrogatepass")) > limit
    ):
        raise WebError("too-large", f"at most {limit} bytes")
    if _depth(text) > MAX_DEPTH:
        _bad(f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except WebError:
        raise
    except json.JSONDecodeError as exc:
        _bad(f"not JSON: {exc.msg} (column {exc.colno})")
    except (ValueError, RecursionError):  # belt and braces: the scan already bounds depth
        _bad("not valid JSON")


# -- typed messages ---------------------------------------------------------------------
#
# One frozen class per client message type (as lila-ws's ``ClientOut``), each registered
# with its JSON fields; ``tests/web/test_web_schema.py`` checks the registry against the
# ``web-client`` schema. Adding a type: a class with ``read`` (the fields already checked
# to be exactly the allowed ones), decorated with ``@message(type, required, optional)``,
# and a handler in :mod:`gongzhu.web.handlers`.

_LANG: Final = re.compile(r"[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,2}")
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{1,128}")
_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
"""type: (required fields besides "type", optional fields)."""
MESSAGES: dict[str, type[ClientMessage]] = {}
"""Each client message type's class."""

_M = TypeVar("_M", bound="type[ClientMessage]")


def message(
    kind: str, required: tuple[str, ...] = (), optional: tuple[str, ...] = ()
) -> Callable[[_M], _M]:
    """Register a client message class under ``kind`` with its JSON fields."""

    def register(cls: _M) -> _M:
        cls.type = kind
        _FIELDS[kind] = (required, optional)
        MESSAGES[kind] = cls
        return cls

    return register


class ClientMessage:
    """A client message, parsed and checked (:func:`parse`); ``type`` is its JSON type."""

    type: ClassVar[str] = ""

    @classmethod
    def read(cls, data: dict[str, Any]) -> ClientMessage:
        """The message from its JSON object (only its own fields, present as required)."""
        return cls()

    def to_dict(self) -> dict[str, Any]:
        """The message's JSON object (as the client would send it, checked values)."""
        out: dict[str, Any] = {"type": self.type}
        for name, value in attrs.asdict(self, recurse=False).items():  # type: ignore[arg-type]
            if value is not None or name in ("token", "name"):
                out[name] = value
        return out


@message("hello", optional=("token", "name", "lang"))
@attrs.frozen
class Hello(ClientMessage):
    """The first message: a seat's token (or none: watch), a name, the page's language."""

    token: str | None = None
    name: str | None = None
    lang: str | None = None

    @classmethod
    def read(cls, data: dict[str, Any]) -> Hello:
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or not _TOKEN.fullmatch(token)):
            _bad("token must be null or the token text the server gave")
        name = data.get("name")
        lang = data.get("lang")
        if lang is not None and (not isinstance(lang, str) or not _LANG.fullmatch(lang)):
            _bad("lang must be a language tag like 'en' or 'zh-CN'")
        return cls(token, None if name is None else check_name(name), lang)


@message("sit", required=("seat", "name"))
@attrs.frozen
class Sit(ClientMessage):
    """Take a free seat under a name."""

    seat: int
    name: str

    @classmethod
    def read(cls, data: dict[str, Any]) -> Sit:
        return cls(_int(data["seat"], "seat", 3), check_name(data["name"]))


@message("action", required=("event", "action"))
@attrs.frozen
class Act(ClientMessage):
    """A deal's action, answering ``event``: the library's :class:`~gongzhu.Action`, read
    here from its dict form. The client may leave the seat out (``seat_named`` False:
    the action is then read as seat 0's, and :meth:`by` gives it the sender's seat)."""

    event: int
    action: Action
    seat_named: bool = True

    @classmethod
    def read(cls, data: dict[str, Any]) -> Act:
        event = _int(data["event"], "event")
        given = data["action"]
        if not isinstance(given, dict):
            _bad("action must be an object (the library's action form)")
        named = "seat" in given
        if named and (type(given["seat"]) is not int or not 0 <= given["seat"] <= 3):
            _bad(f"action: seat must be an integer 0-3, got {_brief(given['seat'])}")
        try:
            action = Action.from_dict(given if named else {**given, "seat": 0})
        except ProtocolError as exc:
            _bad(f"action: {exc}")
        return cls(event, action, named)

    def by(self, seat: int) -> Action:
        """The action as seat ``seat``'s (the connection's); another seat's is refused."""
        if not self.seat_named:
            return Action.from_dict({**self.action.to_dict(), "seat": seat})
        if self.action.seat != seat:
            raise WebError("bad-message", f"an action is made by your own seat ({seat})")
        return self.action

    def to_dict(self) -> dict[str, Any]:
        action = self.action.to_dict()
        if not self.seat_named:
            del action["seat"]
        return {"type": self.type, "event": self.event, "action": action}


@attrs.frozen
class _Evented(ClientMessage):
    event: int

    @classmethod
    def read(cls, data: dict[str, Any]) -> ClientMessage:
        return cls(_int(data["event"], "event"))


@message("next", required=("event",))
@attrs.frozen
class Next(_Evented):
    """Deal the next deal (after one), or skip this one (a player alone)."""


@message("hint", required=("event",))
@attrs.frozen
class Hint(_Evented):
    """Ask the search bot's view of the seat's legal cards."""


@message("new_game", required=("event",))
@attrs.frozen
class NewGame(_Evented):
    """After game over: a new game with the same settings."""


@message("undo", required=("event",))
@attrs.frozen
class Undo(_Evented):
    """Take back my last card of this deal and the computers' cards after it (a player
    alone at the table)."""


@message("start", required=("event",))
@attrs.frozen
class StartDeal(_Evented):
    """The host starts the first deal of a table that waited for friends."""


PHRASES: Final = ("hello", "gg", "nice", "oops", "thanks", "hurry", "thumbs", "laugh", "pig")
"""The quick messages a player may send the table: fixed phrases and emotes (the page words
them in each reader's language; nothing free-typed)."""


@message("say", required=("phrase",))
@attrs.frozen
class Say(ClientMessage):
    """A quick message to the table: one of :data:`PHRASES`."""

    phrase: str

    @classmethod
    def read(cls, data: dict[str, Any]) -> Say:
        phrase = data["phrase"]
        if phrase not in PHRASES:
            _bad(f"phrase must be one of {', '.join(PHRASES)}")
        return cls(phrase)


@message("speed", required=("pace",))
@attrs.frozen
class Speed(ClientMessage):
    """The table's speed: the computers' pause before each card (slow, normal, fast)."""

    pace: str

    @classmethod
    def read(cls, data: dict[str, Any]) -> Speed:
        pace = data["pace"]
        if pace not in ("slow", "normal", "fast"):
            _bad("pace must be slow, normal or fast")
        return cls(pace)


@message("release", required=("event", "seat"))
@attrs.frozen
class Release(ClientMessage):
    """Give an away player's seat back to the computer now (answering ``event``)."""

    event: int
    seat: int

    @classmethod
    def read(cls, data: dict[str, Any]) -> Release:
        return cls(_int(data["event"], "event"), _int(data["seat"], "seat", 3))


@message("resync")
@attrs.frozen
class Resync(ClientMessage):
    """Send me the state again."""


CLIENT_TYPES: Final = tuple(_FIELDS)


def _int(value: Any, name: str, hi: int = _MAX_INT) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= hi:
        _bad(f"{name} must be an integer 0-{hi}, got {_brief(value)}")
    return value


def check_name(value: Any, field: str = "name") -> str:
    """A player name: text of 1-32 characters after trimming, no control or invisible ones."""
    if not isinstance(value, str):
        _bad(f"{field} must be text, got {_brief(value)}")
    name = unicodedata.normalize("NFC", value.strip())
    if not name or len(name) > MAX_NAME:
        _bad(f"{field} must have 1-{MAX_NAME} characters")
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            _bad(f"{field} may not hold control or invisible characters")
    return name


def parse(text: str | bytes) -> ClientMessage:
    """A client message, checked: its :class:`ClientMessage` class (:data:`MESSAGES`).

    ``hello``'s ``token``/``name`` may be ``null``; names are trimmed and
    normalised (NFC). An ``action``'s inner object is read by
    :meth:`Action.from_dict <gongzhu.Action.from_dict>` (the seat may be left out).

    >>> parse('{"type": "sit", "seat": 2, "name": " Ann "}')
    Sit(seat=2, name='Ann')
    >>> parse('{"type": "sit", "seat": 2}')
    Traceback (most recent call last):
    ...
    gongzhu.web.messages.WebError: bad-message: sit: missing field 'seat' or 'name'
    """
    data = parse_json(text)
    if not isinstance(data, dict):
        _bad("a message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        _bad(f"type must be one of {', '.join(_FIELDS)}, got {_brief(kind)}")
    required, optional = _FIELDS[kind]
    for key in data:
        if key != "type" and key not in required and key not in optional:
            _bad(f"{kind}: unknown field {_brief(key)}")
    if any(key not in data for key in required):
        _bad(f"{kind}: missing field {' or '.join(repr(k) for k in required)}")
    return MESSAGES[kind].read(data)


# -- server messages ----------------------------------------------------------------------
#
# One frozen class per message the server sends (as lila-ws's ``ClientIn``), registered
# under its JSON type; ``tests/web/test_web_schema.py`` checks the registry against the
# ``web-server`` schema. Every one carries ``event``: the recipient's own event counter
# (:meth:`Room.seen <gongzhu.web.rooms.Room.seen>`), which moves only with what that
# recipient may see.

SERVER_MESSAGES: dict[str, type[ServerMessage]] = {}
"""Each server message type's class."""

_S = TypeVar("_S", bound="type[ServerMessage]")


def server_message(kind: str) -> Callable[[_S], _S]:
    """Register a server message class under ``kind``."""

    def register(cls: _S) -> _S:
        cls.type = kind
        SERVER_MESSAGES[kind] = cls
        return cls

    return register


class ServerMessage:
    """A message to a client; ``type`` is its JSON type, its fields the JSON fields."""

    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON object: ``type`` then the fields in their order."""
        fields = attrs.asdict(self, recurse=False)  # type: ignore[arg-type]
        return {"type": self.type, **fields}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, allow_nan=False)


@server_message("welcome")
@attrs.frozen
class Welcome(ServerMessage):
    """The answer to ``hello`` or ``sit``: the seat (None: a watcher), a new seat's token
    (only to its taker), the room with its rule set (sent once per connection)."""

    event: int
    seat: int | None
    token: str | None
    room: Mapping[str, Any]


@server_message("state")
@attrs.frozen
class State(ServerMessage):
    """What one seat (or a watcher) sees of the room now."""

    event: int
    room: Mapping[str, Any]
    view: Mapping[str, Any]
    deal_no: int
    exposure_options: list[dict[str, Any]]
    last_score: Mapping[str, Any] | None
    game_over: Mapping[str, Any] | None
    deal_code: str | None = None
    """The finished deal's code (:mod:`gongzhu.web.deal_codes`), else ``None``."""
    daily: str | None = None
    """The day whose deal this room plays (the deal of the day), else ``None``."""
    shared: bool = False
    """The room plays a shared deal (a deal code, the deal of the day) as a game of its own."""


@server_message("error")
@attrs.frozen
class ErrorReply(ServerMessage):
    """A refusal: the protocol's ``code``, a sentence, the refused message's type."""

    event: int
    code: str
    message: str
    reply_to: str
    detail: Mapping[str, Any]


@server_message("hint")
@attrs.frozen
class HintReply(ServerMessage):
    """The search bot's expected deal score for each legal card (best first)."""

    event: int
    cards: list[dict[str, Any]]


@server_message("thinking")
@attrs.frozen
class Thinking(ServerMessage):
    """A computer is deciding for ``seat`` (cards only: exposure decisions stay silent)."""

    event: int
    seat: int | None


@server_message("said")
@attrs.frozen
class Said(ServerMessage):
    """A seated player's quick message (:data:`PHRASES`) to everyone at the table."""

    event: int
    seat: int
    phrase: str


SERVER_TYPES: Final = tuple(SERVER_MESSAGES)
