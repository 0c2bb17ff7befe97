"""Sharing the relay's port with another HTTP service of the same process (spec/relay.md §9).

A ``Diversion`` names the paths another service claims (``claims(path)``); every request for
them (any method, with a body) is read whole and handed to its handler, which returns the whole
response; the relay never looks inside it. Everything else (the websocket at ``/v1``,
``/healthz``, ``/metrics``, the web app) stays the relay's. The decision is made on the request
line, before websockets parses anything, because websockets' handshake parser refuses request
bodies. This module knows HTTP only as far as framing a request (head, then ``Content-Length``
bytes); it imports nothing of the service.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.server import ServerConnection

RawHandler = Callable[[bytes], Awaitable[bytes]]   # one whole HTTP/1.1 request in, one response out


@dataclass(frozen=True, slots=True)
class Diversion:
    """The requests another service of this process takes from the relay's port."""

    handler: RawHandler
    claims: Callable[[str], bool]                     # the path (no query) is the service's
    max_body: int = 8 * 1024 * 1024

MAX_REQUEST_LINE = 8 * 1024
MAX_HEAD = 16 * 1024


def _plain(status: str, text: str) -> bytes:
    body = (text + "\n").encode()
    return (f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
            "Connection: close\r\n\r\n").encode() + body


def _request_size(buffer: bytes, max_body: int) -> int | bytes | None:
    """The whole request's length once complete; None while incomplete; an error response."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        if len(buffer) > MAX_HEAD:
            return _plain("431 Request Header Fields Too Large", "request head too large")
        return None
    length = 0
    for line in buffer[:end].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        lowered = name.strip().lower()
        if lowered == b"transfer-encoding":
            return _plain("411 Length Required", "send the body with a Content-Length")
        if lowered == b"content-length":
            if not value.strip().isdigit():
                return _plain("400 Bad Request", "bad Content-Length")
            length = int(value.strip())
    if length > max_body:
        return _plain("413 Content Too Large", f"the body is over {max_body} bytes")
    total = end + 4 + length
    return total if len(buffer) >= total else None


def diverting_connection(divert: Diversion) -> type[ServerConnection]:
    """A websockets connection class (``serve(create_connection=...)``) that hands the requests
    ``divert`` claims to its handler."""
    handler, max_body = divert.handler, divert.max_body

    class DivertingConnection(ServerConnection):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._mode = "undecided"          # then "relay" (websockets has it) or "http" or "answered"
            self._pending = b""
            self._task: asyncio.Task[None] | None = None

        def data_received(self, data: bytes) -> None:
            if self._mode == "relay":
                super().data_received(data)
                return
            if self._mode == "answered":
                return
            self._pending += data
            if self._mode == "undecided":
                line_end = self._pending.find(b"\r\n")
                if line_end < 0 and len(self._pending) <= MAX_REQUEST_LINE:
                    return
                parts = self._pending[:max(line_end, 0)].split(b" ")
                theirs = len(parts) == 3 and divert.claims(parts[1].split(b"?", 1)[0].decode("latin-1"))
                if not theirs:                    # the relay's, or malformed: websockets answers
                    self._mode, pending, self._pending = "relay", self._pending, b""
                    super().data_received(pending)
                    return
                self._mode = "http"
            size = _request_size(self._pending, max_body)
            if size is None:
                return
            self._mode = "answered"
            if isinstance(size, bytes):
                self._finish(size)
                return
            self._task = self.loop.create_task(self._serve(self._pending[:size]))

        def eof_received(self) -> bool | None:  # type: ignore[override]
            # asyncio closes a transport whose protocol returns a false value here; a client that
            # half-closed after its request must still read our answer.
            if self._mode in ("http", "answered"):
                return True
            super().eof_received()
            return None

        async def _serve(self, raw: bytes) -> None:
            try:
                response = await handler(raw)
            except Exception:
                self.logger.exception("diverted HTTP request failed")
                response = _plain("500 Internal Server Error", "internal error")
            self._finish(response)

        def _finish(self, response: bytes) -> None:
            with contextlib.suppress(Exception):
                self.transport.write(response)
                self.transport.close()            # websockets' handshake then ends: no request came

    return DivertingConnection
