"""How ``gongzhu serve`` runs the app under uvicorn: timeouts, caps and proxies.

uvicorn bounds idle keep-alive connections (``timeout_keep_alive``) and the
size of an unfinished request (``h11_max_incomplete_event_size``), and
answers 503 past ``limit_concurrency``, but it has no deadline for a
request's headers: ``timeout_keep_alive`` is reset by every byte received, so
a client that sends one header line a second (slowloris) holds its socket for
ever (uvicorn issue #157 asks for ``--timeout-request-start``; it does not
exist yet). :func:`header_deadline_protocol` adds that deadline to uvicorn's
h11 protocol: a connection whose request headers are not complete
``header_timeout`` seconds after it opened (or after its previous response)
is closed. With the concurrency cap kept below the process's file limit
(:func:`file_limit`), half-open requests can no longer exhaust the server.

Forwarded headers (``X-Forwarded-For``) are believed only from the addresses
given with ``--forwarded-allow-ips``: by default none, so every per-address
limit sees the real peer.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

__all__ = ["HEADER_TIMEOUT", "config", "file_limit", "header_deadline_protocol"]

HEADER_TIMEOUT: Final = 10.0
"""Seconds a connection has to send a request's headers (``--header-timeout``)."""
KEEP_ALIVE: Final = 5.0
"""Seconds an idle keep-alive connection is kept (``--keep-alive``)."""
MAX_INCOMPLETE: Final = 16 * 1024
"""Bytes of an unfinished request (line and headers) before it is refused."""


def header_deadline_protocol(header_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with a deadline on each request's headers (see the module)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeaderDeadline(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _armed_for: Any = None

        def _arm(self) -> None:
            self._disarm()
            self._armed_for = self.cycle  # a new request replaces the cycle
            self._deadline = self.loop.call_later(header_timeout, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return  # closed, or upgraded to a WebSocket
            if self.cycle is not self._armed_for:
                return  # a request's headers arrived meanwhile
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and (
                self.cycle is None or self.cycle.response_complete
            ):
                self.logger.info("gongzhu: closing a connection whose request never came")
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeaderDeadline


def file_limit() -> int | None:
    """The process's soft limit on open files, raised to its hard limit if it can be;
    ``None`` where there is no such limit."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return None if soft == resource.RLIM_INFINITY else int(soft)


def caps(limit_concurrency: int, connections: int) -> tuple[int, int]:
    """(HTTP concurrency cap, WebSocket cap) kept below the file limit: each connection
    holds a file, and the store, the log and Python need some too."""
    limit = file_limit()
    if limit is None:
        return limit_concurrency, connections
    room = max(limit - 64, 16)
    http = min(limit_concurrency, room)
    return http, min(connections, max(http - 16, 1))


def config(
    app: Any,
    *,
    host: str,
    port: int,
    header_timeout: float = HEADER_TIMEOUT,
    keep_alive: float = KEEP_ALIVE,
    limit_concurrency: int = 1024,
    forwarded_allow_ips: str | None = None,
    log_level: str = "warning",
) -> Any:
    """The ``uvicorn.Config`` ``gongzhu serve`` runs ``app`` with."""
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=header_deadline_protocol(header_timeout),
        timeout_keep_alive=max(1, round(keep_alive)),
        h11_max_incomplete_event_size=MAX_INCOMPLETE,
        limit_concurrency=limit_concurrency,
        proxy_headers=bool(forwarded_allow_ips),
        forwarded_allow_ips=forwarded_allow_ips or "",
        server_header=False,
        # Frames past 64 KiB are cut by the protocol layer; the app refuses those past 8 KiB.
        ws_max_size=65536,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        timeout_graceful_shutdown=3,
    )
