"""The checks made on every request to the web table: security headers, ``Host``, ``Origin``.

Every HTTP response carries the same security headers (:data:`SECURITY_HEADERS`:
pages, cards, the API, static files, 404s); a ``Host`` outside the configured
names is refused (DNS rebinding); a WebSocket or a room creation whose
``Origin`` is neither the server's own nor one of the app's ``origins`` is
refused (cross-site WebSocket hijacking).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from typing import Final
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SECURITY_HEADERS", "Guard", "host_allowed", "origin_ok", "server_error"]

SECURITY_HEADERS: Final = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a room's link is its invitation: do not pass it on
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline';"
        " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
}
"""Sent with every response: pages, cards, the API, static files, errors."""


async def server_error(request: Request, exc: Exception) -> Response:
    """The 500 of an unexpected exception, with :data:`SECURITY_HEADERS`.

    Starlette's error middleware sits outside every other middleware (so
    outside :class:`Guard`) and sends this response itself: the headers have to
    be on it already. The exception is still raised on to the server's log."""
    return PlainTextResponse("Internal Server Error", 500, headers=SECURITY_HEADERS)


def origin_ok(conn: HTTPConnection) -> bool:
    """No ``Origin`` (not a browser), the server's own (scheme and ``Host``), or one of
    the app's ``origins``."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    allowed: frozenset[str] = conn.app.state.origins
    if origin.rstrip("/").lower() in allowed:
        return True
    parts = urlsplit(origin)
    host = conn.headers.get("host", "")
    scheme = {"ws": "http", "wss": "https"}.get(conn.url.scheme, conn.url.scheme)
    return bool(host) and parts.netloc.lower() == host.lower() and parts.scheme == scheme


def host_allowed(host_header: str, hosts: frozenset[str]) -> bool:
    """A ``Host`` header the app answers: a name in ``hosts`` (``*`` any;
    ``*.example.org`` its subdomains), ``localhost``, or an IP address (a DNS rebinding
    attack needs a name of the attacker's)."""
    if "*" in hosts:
        return True
    host = host_header.strip().lower()
    if host.startswith("["):  # [::1]:8000
        host = host[1 : host.find("]")] if "]" in host else host
    elif host.count(":") == 1:
        host = host.rsplit(":", 1)[0]
    if not host:
        return False
    if host in hosts or host == "localhost" or host.endswith(".localhost"):
        return True
    if any(h.startswith("*.") and host.endswith(h[1:]) for h in hosts):
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class Guard:
    """ASGI middleware: refuses a foreign ``Host`` (400) and puts
    :data:`SECURITY_HEADERS` on every HTTP response (static files and errors too)."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str] | None) -> None:
        self.app = app
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)
        self.headers = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if self.hosts is not None:
            host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
            if not host_allowed(host, self.hosts):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 4400})
                    return
                response = JSONResponse(
                    {"code": "bad-message", "message": "unknown host name"}, 400
                )
                await response(scope, receive, self._with_headers(send))
                return
        if scope["type"] == "http":
            send = self._with_headers(send)
        await self.app(scope, receive, send)

    def _with_headers(self, send: Send) -> Send:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        return sending
