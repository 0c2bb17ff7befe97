"""A small HTTP/1.1 server for the rating service, on asyncio streams (spec/ratings.md §7).

One request per connection (``Connection: close``), bodies only by ``Content-Length`` (no chunked
uploads: every client here knows its body's size), a head of at most 16 KiB, and deadlines on
reading, so a slow or hostile client holds nothing for long. The same ``handle_raw`` serves the
relay's port when ``koikoi relay --ratings`` hands it the requests that are not the relay's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from urllib.parse import parse_qs, unquote, urlsplit

MAX_HEAD = 16 * 1024
READ_TIMEOUT = 30.0
MAX_CONNECTIONS = 256

RawHandler = Callable[[bytes], Awaitable[bytes]]


class HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True, slots=True)
class Request:
    method: str
    path: str  # percent-decoded, without the query
    query: Mapping[str, list[str]]
    headers: Mapping[str, str]  # lower-case names
    body: bytes = b""


@dataclass(frozen=True, slots=True)
class Response:
    status: int
    body: bytes = b""
    content_type: str = "text/plain; charset=utf-8"
    headers: Mapping[str, str] = field(default_factory=dict)

    def render(self, method: str = "GET") -> bytes:
        phrase = HTTPStatus(self.status).phrase
        lines = [
            f"HTTP/1.1 {self.status} {phrase}",
            f"Content-Type: {self.content_type}",
            f"Content-Length: {len(self.body)}",
            "Connection: close",
            "X-Content-Type-Options: nosniff",
        ]
        lines += [f"{name}: {value}" for name, value in self.headers.items()]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        return head if method == "HEAD" else head + self.body


def head_length(buffer: bytes) -> int | None:
    """The length of the request head (through the blank line), None while incomplete."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        if len(buffer) > MAX_HEAD:
            raise HttpError(431, "request head too large")
        return None
    if end + 4 > MAX_HEAD:
        raise HttpError(431, "request head too large")
    return end + 4


def body_length(head: bytes, max_body: int) -> int:
    """The Content-Length of a head; no body at all for a request without one."""
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        lowered = name.strip().lower()
        if lowered == b"transfer-encoding":
            raise HttpError(411, "send the body with a Content-Length")
        if lowered == b"content-length":
            text = value.strip()
            if not text.isdigit():
                raise HttpError(400, "bad Content-Length")
            length = int(text)
    if length > max_body:
        raise HttpError(413, f"the body is over {max_body} bytes")
    return length


def parse_request(raw: bytes) -> Request:
    """One complete request (head and body) into a ``Request``; ``HttpError`` when malformed."""
    size = head_length(raw)
    if size is None:
        raise HttpError(400, "incomplete request")
    head, body = raw[: size - 4], raw[size:]
    try:
        lines = head.decode("latin-1").split("\r\n")
        method, target, version = lines[0].split(" ")
    except ValueError:
        raise HttpError(400, "bad request line") from None
    if version not in ("HTTP/1.1", "HTTP/1.0") or not method.isalpha():
        raise HttpError(400, "bad request line")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if not sep or not name or name != name.strip():
            raise HttpError(400, "bad header line")
        headers[name.lower()] = value.strip()
    parts = urlsplit(target)
    return Request(
        method=method.upper(),
        path=unquote(parts.path),
        query=parse_qs(parts.query),
        headers=headers,
        body=body,
    )


async def read_request(reader: asyncio.StreamReader, max_body: int) -> bytes:
    """Read exactly one request from a stream, within the limits."""
    buffer = b""
    while (size := head_length(buffer)) is None:
        chunk = await reader.read(4096)
        if not chunk:
            raise HttpError(400, "connection closed before the request was complete")
        buffer += chunk
    need = size + body_length(buffer[:size], max_body) - len(buffer)
    if need > 0:
        buffer += await reader.readexactly(need)
    return buffer


async def serve_http(handler: RawHandler, host: str, port: int, *, max_body: int,
                     max_connections: int = MAX_CONNECTIONS) -> asyncio.Server:
    """Listen on ``host:port``; each connection's one request goes to ``handler``; past
    ``max_connections`` open at once, a new one is answered 503 at once."""

    open_connections = 0

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal open_connections
        open_connections += 1
        try:
            if open_connections > max_connections:
                # Read what came (briefly) first: closing on unread data resets the connection,
                # and the client would never see the answer.
                with contextlib.suppress(TimeoutError, ConnectionError):
                    await asyncio.wait_for(reader.read(MAX_HEAD), 1.0)
                writer.write(Response(503, b"too many connections\n").render())
                await writer.drain()
                return
            try:
                raw = await asyncio.wait_for(read_request(reader, max_body), READ_TIMEOUT)
            except HttpError as exc:
                writer.write(Response(exc.status, (exc.message + "\n").encode()).render())
            except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
                return
            else:
                writer.write(await handler(raw))
            with contextlib.suppress(ConnectionError):
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            open_connections -= 1
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    return await asyncio.start_server(connection, host, port)
