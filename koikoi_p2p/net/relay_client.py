"""The peers' websocket client of the relay (spec/relay.md), a Transport once paired.

A background reader task owns the websocket. Frames are numbered per direction; the client keeps
the frames it sent until the relay acknowledges them and counts the frames it received, so when the
connection drops it reconnects with backoff, resumes its seat with the resume token and the count,
resends what the relay did not get, and receives exactly what it missed: the caller of
``send``/``recv`` sees one ordered stream. The relay is not trusted with anything but delivery:
the peers' signed hash chain detects whatever it drops, injects or reorders.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import ssl
import time
from collections import deque
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import (
    ConnectionClosed,
    InvalidHandshake,
    InvalidMessage,
    InvalidStatus,
    InvalidURI,
)

from koikoi_p2p.net import tls
from koikoi_p2p.protocol.transport import TransportClosed

PATH = "/v1"
ACK_EVERY = 32
CONNECT_TIMEOUT = 10.0
REPLY_TIMEOUT = 10.0
BACKOFF_FIRST = 0.05
BACKOFF_MAX = 2.0
SYNC_INTERVAL = 1.0   # a stalled stream asks the relay for its counts this often (spec §5.5)
# A peer_left this long after our seat (re)attached is the other seat's own leave: spec/protocol.md
# §12.1 rule 5 (the other seat pairs again 3 s into our absence, and its leave may land just after
# our resume).
STEADY_S = 2.5
DEFAULT_BUFFER_FRAMES = 256
DEFAULT_BUFFER_BYTES = 1_048_576

# Close codes after which resuming is pointless (spec/relay.md §6), with the reason we report.
# The relay never closes with 1000 itself (a proxy in between might): that is resumable.
TERMINAL_CLOSES: dict[int, str] = {
    1001: "shutdown",
    1009: "frame_too_large",
    4001: "rejected",
    4002: "room_closed",
    4003: "room_expired",
    4005: "policy",
    4006: "replaced",
    4007: "resume_failed",
}
PEER_LEFT_REASONS = {"left": "peer_left", "timeout": "peer_timeout", "resume_failed": "peer_resume_failed"}


class RelayError(Exception):
    """A relay refusal or failure with a machine-readable ``reason`` (e.g. "room_not_found")."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


class RelayClosed(RelayError, TransportClosed):
    """The paired stream ended; ``reason`` says why (peer_left, rejected, resume_failed, ...)."""


def relay_url(url: str) -> str:
    """The protocol URL: a bare ``ws://host:port`` (no path) gets the version path ``/v1``."""
    parts = urlsplit(url)
    if parts.path in ("", "/"):
        return urlunsplit(parts._replace(path=PATH))
    return url


def _room_url(url: str, code: str) -> str:
    """The URL with ``?room=CODE``: the relay ignores it; a load balancer may route on it (spec §13)."""
    return f"{url}{'&' if '?' in url else '?'}room={code}"


def _pack(kind: str, **fields: object) -> bytes:
    fields["type"] = kind
    out: bytes = msgpack.packb(fields, use_bin_type=True)
    return out


def _unpack(data: str | bytes) -> dict[str, Any]:
    """A relay message; anything else is the relay breaking the protocol."""
    if isinstance(data, str):
        raise RelayError("bad_relay_message", "text message from the relay")
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=True)
    except Exception:  # msgpack raises many types; all mean "not msgpack"
        raise RelayError("bad_relay_message", "undecodable message from the relay") from None
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise RelayError("bad_relay_message", "relay messages are maps with a type")
    return value


def refusal(status: int, body: bytes) -> RelayError:
    """The error for an HTTP answer to the websocket handshake (spec/relay.md §7, §7.1, §7.2)."""
    said = body.decode("utf-8", "replace").strip()[:200]
    if status == 503:
        if "right now" in said:
            # spec/relay.md §7.2: the line of new connections is full for a moment.
            return RelayError("handshakes_busy", said)
        if said.startswith("relay unavailable"):
            # spec/relay.md §7: a cluster node cut off from its storage serves no rooms.
            return RelayError("relay_unavailable", "the relay cannot serve rooms for now")
        if said.startswith("shutting down"):
            return RelayError("shutdown", "the relay is shutting down")
        return RelayError("relay_full", "the relay refuses new connections")
    if status == 429:
        # spec/relay.md §7.1: too many connections, or new connections, from this address.
        return RelayError("source_handshakes" if "new connections" in said else "source_connections", said)
    return RelayError("unreachable", f"HTTP {status}")


async def _open(url: str) -> ClientConnection:
    url = relay_url(url)
    # wss://: the certificate is verified (system store, or --cafile / SSL_CERT_FILE: net/tls.py).
    secure = tls.client_context() if urlsplit(url).scheme == "wss" else None
    try:
        return await asyncio.wait_for(
            connect(url, compression=None, max_size=None, open_timeout=CONNECT_TIMEOUT, ssl=secure),
            CONNECT_TIMEOUT,
        )
    except InvalidStatus as exc:
        raise refusal(exc.response.status_code, bytes(exc.response.body or b"")) from None
    except InvalidURI as exc:
        raise RelayError("bad_url", str(exc)) from None
    except (OSError, InvalidHandshake, TimeoutError) as exc:
        problem = tls.certificate_problem(exc)
        if problem is not None:
            host = urlsplit(url).hostname
            message = f"the certificate of {host} is not trusted: {problem}"
            raise RelayError("bad_certificate", message) from None
        mismatch = await scheme_mismatch(url, exc)
        if mismatch is not None:
            raise mismatch from None
        if dropped_unanswered(exc):
            raise RelayError("dropped", "the relay closed the connection before answering") from None
        raise RelayError("unreachable", f"{type(exc).__name__}: {exc}") from None


# What OpenSSL says when a server answers a TLS handshake in plain HTTP (its "HTTP/1.1 400" read as
# a TLS record).
_PLAIN_ANSWER = ("WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "HTTP_REQUEST", "PACKET_LENGTH_TOO_LONG")
PROBE_TIMEOUT = 3.0


async def scheme_mismatch(url: str, exc: BaseException) -> RelayError | None:
    """A failed handshake explained by the wrong scheme: wss:// to a relay that speaks plain
    ws://, or ws:// to one that speaks TLS. The error says so, or it is None. Only a failure that
    looks like one (a TLS record error, an unanswered close: a TLS server closes a plain request
    unanswered, its alert being no HTTP line) is probed, with one more connection that sends no
    relay message: a TLS handshake, or a plain ``GET /healthz`` (spec/relay.md §9)."""
    parts = urlsplit(url)
    host, secure = parts.hostname or "", parts.scheme == "wss"
    port = parts.port or (443 if secure else 80)
    if secure and (_plain_answer(exc) or (dropped_unanswered(exc) and await _speaks_plain(host, port))):
        return RelayError("speaks_ws", "the relay speaks plain ws://, not wss://")
    if not secure and dropped_unanswered(exc) and await _speaks_tls(host, port):
        return RelayError("speaks_wss", "the relay speaks wss:// (TLS), not plain ws://")
    return None


def _plain_answer(exc: BaseException) -> bool:
    return isinstance(exc, ssl.SSLError) and str(exc.reason) in _PLAIN_ANSWER


async def _speaks_tls(host: str, port: int) -> bool:
    """Whether a TLS handshake succeeds there (the certificate unchecked: nothing is sent on it)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return await _probe(host, port, context, None)


async def _speaks_plain(host: str, port: int) -> bool:
    """Whether a plain HTTP request there is answered in HTTP."""
    request = b"GET /healthz HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % host.encode("idna")
    return await _probe(host, port, None, request)


async def _probe(host: str, port: int, context: ssl.SSLContext | None, request: bytes | None) -> bool:
    try:
        async with asyncio.timeout(PROBE_TIMEOUT):
            reader, writer = await asyncio.open_connection(host, port, ssl=context)
            try:
                if request is None:
                    return True
                writer.write(request)
                return (await reader.readline()).startswith(b"HTTP/1.")
            finally:
                writer.close()
                with contextlib.suppress(OSError, ssl.SSLError):
                    await writer.wait_closed()
    except (OSError, UnicodeError, TimeoutError):
        return False


def dropped_unanswered(exc: BaseException) -> bool:
    """Whether a failed opening handshake reached something that took the connection and closed
    it before answering the request (not a refused or timed-out connection). A relay does that to
    an address whose new connections are spent (spec/relay.md §7.1): the likely cause."""
    if isinstance(exc, InvalidMessage):
        return isinstance(exc.__cause__, EOFError | ConnectionResetError)
    return isinstance(exc, ConnectionResetError)


async def _request(ws: ClientConnection, message: bytes, expected: str) -> dict[str, Any]:
    """Send one control message and read its reply; an error reply becomes a RelayError."""
    try:
        await ws.send(message)
        reply = _unpack(await asyncio.wait_for(ws.recv(), REPLY_TIMEOUT))
    except (ConnectionClosed, TimeoutError) as exc:
        raise RelayError("unreachable", f"no reply from the relay ({type(exc).__name__})") from None
    if reply["type"] == "error":
        raise RelayError(str(reply.get("reason", "error")), str(reply.get("message", "")))
    if reply["type"] != expected:
        raise RelayError("bad_relay_message", f"expected {expected}, got {reply['type']}")
    return reply


async def list_rooms(url: str, rejoin: str | None = None) -> list[dict[str, Any]]:
    """The public lobby: open public rooms as ``{"code", "meta", "age"}``, newest first; with
    ``rejoin``, only the rejoin rooms carrying that tag (which the lobby never lists to all)."""
    ws = await _open(url)
    try:
        request = _pack("lobby") if rejoin is None else _pack("lobby", rejoin=rejoin)
        reply = await _request(ws, request, "rooms")
    finally:
        await ws.close()
    rooms = reply.get("rooms")
    if not isinstance(rooms, list):
        raise RelayError("bad_relay_message", "lobby reply without rooms")
    return [room for room in rooms if isinstance(room, dict)]


class RelayClient:
    """One seat in a relay room. Build it with ``create`` (host, seat 0) or ``join`` (seat 1)."""

    def __init__(self, url: str, ws: ClientConnection, reply: dict[str, Any], peer: str) -> None:
        code, seat, token = reply.get("code"), reply.get("seat"), reply.get("token")
        meta, limits = reply.get("meta") or {}, reply.get("limits") or {}
        if not (isinstance(code, str) and seat in (0, 1) and isinstance(token, bytes) and len(token) == 24
                and isinstance(meta, dict) and isinstance(limits, dict)):
            raise RelayError("bad_relay_message", "malformed room reply from the relay")
        try:
            self.max_frame_bytes: int = int(limits.get("max_frame_bytes", 65536))
            self.grace: float = float(limits.get("resume_grace", 60.0))
            self._buffer_frames = int(limits.get("buffer_frames", DEFAULT_BUFFER_FRAMES))
            self._buffer_bytes = int(limits.get("buffer_bytes", DEFAULT_BUFFER_BYTES))
        except (TypeError, ValueError):
            raise RelayError("bad_relay_message", "malformed limits from the relay") from None
        self.url = url
        self.code: str = code
        self.seat: int = int(seat)
        self.resume_token: bytes = token
        self.meta: dict[str, Any] = dict(meta)
        self._ws: ClientConnection | None = ws
        self._peer = peer                        # "none" | "present" | "away"
        self._peer_changed = asyncio.Event()
        self._in_next = 0                        # next seq expected from the peer
        self._ack_sent = 0                       # the last count we acknowledged to the relay
        self._out_next = 0                       # next seq we send
        self._unacked: deque[tuple[int, bytes]] = deque()
        self._unacked_bytes = 0
        self._lost_below = 0                     # frames below this were evicted unacknowledged
        self._queue: asyncio.Queue[bytes | RelayClosed] = asyncio.Queue()
        self._lock = asyncio.Lock()
        self._failure: RelayClosed | None = None
        self._closing = False
        self._resumed_at: float | None = None    # when this client last took its seat back (§8)
        self._failed_at: float | None = None
        self._awaiting_reopen = False            # frames of a rejected joiner may still arrive
        self._last_error = ""
        self._sync_sent_at = -1.0
        self._acked_mark = -1                    # our oldest unacked seq at the last stall check
        self.reconnects = 0
        self.syncs = 0
        self._jitter = secrets.SystemRandom()  # backoff jitter
        self._reader = asyncio.create_task(self._read_forever())
        self._watchdog = asyncio.create_task(self._watch_stalls())

    # -- construction ------------------------------------------------------------------------

    @classmethod
    async def create(
        cls, url: str, *, public: bool = False, meta: dict[str, Any] | None = None,
        listing: dict[str, Any] | None = None,
    ) -> RelayClient:
        """Open a room as its host; ``code`` is what the other player types (or finds in the lobby).
        ``listing`` is what the lobby shows of it (spec/relay.md §4.2)."""
        ws = await _open(url)
        fields: dict[str, Any] = {"public": public, "meta": meta or {}}
        if listing is not None:
            fields["listing"] = listing
        try:
            reply = await _request(ws, _pack("create", **fields), "created")
            return cls(url, ws, reply, "none")
        except BaseException:
            await ws.close()
            raise

    @classmethod
    async def join(cls, url: str, code: str) -> RelayClient:
        """Take the second seat of the room with this code."""
        ws = await _open(_room_url(url, code))
        try:
            reply = await _request(ws, _pack("join", code=code), "joined")
            return cls(url, ws, reply, str(reply.get("peer", "present")))
        except BaseException:
            await ws.close()
            raise

    # -- the Transport -----------------------------------------------------------------------

    @property
    def peer(self) -> str:
        """The other seat: "none" (nobody joined yet), "present" or "away" (reconnecting)."""
        return self._peer

    async def wait_for_peer(self, timeout: float | None = None) -> None:
        """Wait until the room has a second seat (host side); TimeoutError after ``timeout``."""
        async def wait() -> None:
            while self._peer == "none":
                self._check_open()
                self._peer_changed.clear()
                await self._peer_changed.wait()
            self._check_open()

        await asyncio.wait_for(wait(), timeout)

    async def send(self, frame: bytes) -> None:
        """Queue one frame for the peer, in order; delivered across reconnects."""
        self._check_open()
        if len(frame) > self.max_frame_bytes:
            raise RelayError("frame_too_large", f"frames are limited to {self.max_frame_bytes} bytes")
        if self._peer == "none":
            raise RelayError("no_peer", "nobody to send to yet: wait_for_peer() first")
        data = bytes(frame)
        async with self._lock:
            seq = self._out_next
            self._out_next += 1
            self._unacked.append((seq, data))
            self._unacked_bytes += len(data)
            while len(self._unacked) > self._buffer_frames or self._unacked_bytes > self._buffer_bytes:
                old_seq, old = self._unacked.popleft()
                self._unacked_bytes -= len(old)
                self._lost_below = old_seq + 1
            ws = self._ws
            if ws is not None:
                self._ack_sent = self._in_next
                with contextlib.suppress(ConnectionClosed):
                    await ws.send(_pack("frame", seq=seq, ack=self._in_next, data=data))

    async def recv(self) -> bytes:
        """The next frame from the peer; RelayClosed (a TransportClosed) once the stream ended."""
        item = await self._queue.get()
        if isinstance(item, RelayClosed):
            self._queue.put_nowait(item)  # every later call fails the same way
            raise item
        return item

    async def close(self) -> None:
        """Leave the room (the relay closes it and tells the peer) and stop."""
        if self._closing:
            return
        self._closing = True
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await ws.send(_pack("leave"))
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 5)
        for task in (self._reader, self._watchdog):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._fail("closed", "closed by this side")

    async def reject_peer(self) -> None:
        """Host only: drop the joiner (its handshake failed) and reopen the room for another."""
        self._check_open()
        if self.seat != 0:
            raise RelayError("not_host", "only the host can reject its peer")
        async with self._lock:
            ws = self._ws
            if ws is None:
                raise RelayError("unreachable", "not connected to the relay right now")
            self._reset_stream()
            self._awaiting_reopen = True
            with contextlib.suppress(ConnectionClosed):
                await ws.send(_pack("reject_peer"))

    @property
    def closed_reason(self) -> str | None:
        return None if self._failure is None else self._failure.reason

    # -- internals ---------------------------------------------------------------------------

    def _stopped(self) -> bool:
        return self._closing or self._failure is not None

    @property
    def resuming(self) -> bool:
        """The connection to the relay dropped and the client is trying to resume it."""
        return self._ws is None and self._failure is None

    def _check_open(self) -> None:
        if self._failure is not None:
            raise self._failure

    @property
    def left_while_steady(self) -> bool:
        """The other seat left (``peer_left``, reason ``left``), and not within STEADY_S of our own
        resume: a deliberate leave. Just after our resume it may be the other seat giving up on
        our absence to pair again (spec/protocol.md §12.1 rule 5), not leaving the match."""
        if self.closed_reason != "peer_left" or self._failed_at is None:
            return False
        return self._resumed_at is None or self._failed_at - self._resumed_at >= STEADY_S

    def _fail(self, reason: str, message: str = "") -> None:
        if self._failure is None:
            self._failed_at = time.monotonic()
            self._failure = RelayClosed(reason, message)
            self._queue.put_nowait(self._failure)
            self._peer_changed.set()

    def _reset_stream(self) -> None:
        """A new peer means a new stream: both directions restart at seq 0 (spec §5.3)."""
        self._in_next = self._out_next = self._ack_sent = self._unacked_bytes = self._lost_below = 0
        self._unacked.clear()
        while not self._queue.empty():
            self._queue.get_nowait()
        self._peer = "none"

    def _trim(self, acked: int) -> None:
        while self._unacked and self._unacked[0][0] < acked:
            _, old = self._unacked.popleft()
            self._unacked_bytes -= len(old)

    async def _read_forever(self) -> None:
        try:
            while not self._stopped():
                ws = self._ws
                assert ws is not None
                try:
                    async for message in ws:
                        await self._on_message(ws, _unpack(message))
                except ConnectionClosed:
                    pass
                if self._stopped():
                    return
                code = ws.close_code if ws.close_code is not None else 1006
                if code in TERMINAL_CLOSES:
                    self._fail(self._last_error or TERMINAL_CLOSES[code], f"closed by the relay ({code})")
                    return
                self._ws = None
                await self._reconnect()
        except RelayError as exc:
            self._fail(exc.reason, exc.message)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug here must end the stream loudly, not hang recv()
            self._fail("internal", f"{type(exc).__name__}: {exc}")

    async def _on_message(self, ws: ClientConnection, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "frame":
            seq, data, ack = msg.get("seq"), msg.get("data"), msg.get("ack")
            if type(seq) is not int or not isinstance(data, bytes):
                raise RelayError("bad_relay_message", "malformed frame from the relay")
            if self._awaiting_reopen:
                return  # from the joiner we rejected: its stream is over
            if type(ack) is int:
                self._trim(ack)
            if seq < self._in_next:
                return  # a duplicate (replayed after a resume): already delivered
            if seq > self._in_next:
                # A frame is missing: ask the relay to re-send from what we have (it buffers them).
                await self._request_sync(ws)
                return
            self._in_next += 1
            self._queue.put_nowait(data)
            if self._in_next - self._ack_sent >= ACK_EVERY:
                self._ack_sent = self._in_next
                with contextlib.suppress(ConnectionClosed):
                    await ws.send(_pack("ack", seq=self._in_next))
        elif kind == "ack":
            if type(msg.get("seq")) is int:
                self._trim(msg["seq"])
        elif kind == "sync":
            await self._on_sync(ws, msg)
        elif kind == "peer_joined":
            self._set_peer("present")
        elif kind == "peer_away":
            self._set_peer("away")
        elif kind == "peer_back":
            self._set_peer("present")
        elif kind == "peer_left":
            reason = str(msg.get("reason", "left"))
            self._fail(PEER_LEFT_REASONS.get(reason, "peer_left"), f"the peer is gone ({reason})")
        elif kind == "rejected":
            self._fail("rejected", "the host rejected this seat")
        elif kind == "reopened":
            self._awaiting_reopen = False
            self._reset_stream()
            self._set_peer("none")
        elif kind == "error":
            reason = str(msg.get("reason", "error"))
            self._last_error = reason
            if reason == "frame_gap":
                # The relay missed one of our frames: its sync reply says which to resend.
                await self._request_sync(ws)
        elif kind == "shutdown":
            self._last_error = "shutdown"

    async def _request_sync(self, ws: ClientConnection) -> None:
        """Ask for the relay's counts and a re-send of what we miss; at most once per round trip."""
        now = asyncio.get_running_loop().time()
        if now - self._sync_sent_at < SYNC_INTERVAL / 2:
            return
        self._sync_sent_at = now
        self.syncs += 1
        self._ack_sent = self._in_next
        with contextlib.suppress(ConnectionClosed):
            await ws.send(_pack("sync", received=self._in_next))

    async def _on_sync(self, ws: ClientConnection, msg: dict[str, Any]) -> None:
        """The relay's counts: resend the frames it lacks, ask for the frames we lack."""
        accepted, sent = msg.get("accepted"), msg.get("sent")
        if type(accepted) is not int or type(sent) is not int or accepted > self._out_next:
            raise RelayError("bad_relay_message", "malformed sync from the relay")
        self._sync_sent_at = -1.0
        async with self._lock:
            self._trim(accepted)
            if accepted < self._lost_below:
                raise RelayError("resume_failed", "frames the relay missed are no longer buffered here")
            with contextlib.suppress(ConnectionClosed):
                for seq, data in list(self._unacked):
                    await ws.send(_pack("frame", seq=seq, ack=self._in_next, data=data))
        if sent > self._in_next:
            await self._request_sync(ws)
        elif self._in_next > self._ack_sent:
            self._ack_sent = self._in_next
            with contextlib.suppress(ConnectionClosed):
                await ws.send(_pack("ack", seq=self._in_next))

    async def _watch_stalls(self) -> None:
        """Our frames unacknowledged for a whole interval may be lost at the tail: sync."""
        while not self._stopped():
            await asyncio.sleep(SYNC_INTERVAL)
            first = self._unacked[0][0] if self._unacked else -1
            ws = self._ws
            if first >= 0 and first == self._acked_mark and ws is not None:
                with contextlib.suppress(Exception):
                    await self._request_sync(ws)
            self._acked_mark = first

    def _set_peer(self, state: str) -> None:
        self._peer = state
        self._peer_changed.set()

    async def _reconnect(self) -> None:
        """Reconnect with backoff and resume the seat within the grace period (spec §8)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.grace
        delay = BACKOFF_FIRST
        while True:
            if loop.time() > deadline:
                raise RelayError("resume_failed", "could not reach the relay within the grace period")
            try:
                ws = await _open(_room_url(self.url, self.code))
            except RelayError as exc:
                pause = delay * (0.5 + self._jitter.random())
                if exc.reason == "handshakes_busy":
                    pause = max(pause, 1.0 + self._jitter.random())   # spec/relay.md §7.2 item 4
                await asyncio.sleep(pause)
                delay = min(delay * 2, BACKOFF_MAX)
                continue
            try:
                resume = _pack("resume", token=self.resume_token, received=self._in_next)
                reply = await _request(ws, resume, "resumed")
            except RelayError as exc:
                await ws.close()
                if exc.reason == "unreachable":
                    await asyncio.sleep(delay * (0.5 + self._jitter.random()))
                    delay = min(delay * 2, BACKOFF_MAX)
                    continue
                if exc.reason == "rate_limited":
                    await asyncio.sleep(1.0)
                    continue
                raise RelayError("resume_failed", f"the relay refused to resume ({exc.reason})") from None
            break
        accepted = reply.get("accepted")
        if type(accepted) is not int or accepted > self._out_next:
            await ws.close()
            raise RelayError("bad_relay_message", "resume reply with an impossible count")
        async with self._lock:
            self._trim(accepted)
            if accepted < self._lost_below:
                await ws.close()
                raise RelayError("resume_failed", "frames the relay missed are no longer buffered here")
            self.reconnects += 1
            self._resumed_at = time.monotonic()
            self._last_error = ""
            self._peer = str(reply.get("peer", self._peer))
            self._peer_changed.set()
            self._ack_sent = self._in_next
            try:
                for seq, data in list(self._unacked):
                    await ws.send(_pack("frame", seq=seq, ack=self._in_next, data=data))
            except ConnectionClosed:
                pass  # the reader sees the closed socket and resumes again
            self._ws = ws
