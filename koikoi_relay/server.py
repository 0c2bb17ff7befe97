"""The relay's connection layer: websockets on asyncio, many rooms (spec/relay.md).

Theory of operation: each websocket connection runs ``_handle``, which reads binary msgpack
messages in order, enforces the per-connection limits (rates, sizes, error counts) and hands each
parsed message to the room backend (``rooms.Rooms``): in this process's memory by default
(``local.LocalRooms``), or in Redis when the process is one node of a cluster
(``cluster.RedisRooms``). A sweeper task expires idle connections and lets the backend expire
idle rooms and seats away for too long. Nothing here looks inside frame data.
"""

from __future__ import annotations

import asyncio
import http
import ipaddress
import logging
import os
import random
import secrets
import socket
import time
import traceback
from collections.abc import Awaitable, Callable
from functools import partial
from ssl import SSLContext
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.frames import DATA_OPCODES, Opcode
from websockets.frames import CloseCode as WsCloseCode
from websockets.frames import Frame as WireFrame
from websockets.http11 import Request, Response
from websockets.protocol import Event, State

from koikoi_relay.codes import Chooser
from koikoi_relay.errors import CloseCode, MessageError
from koikoi_relay.gate import ReadGate
from koikoi_relay.limits import Limits
from koikoi_relay.line import HandshakeLine
from koikoi_relay.local import LocalRooms
from koikoi_relay.logs import log_event, report_suppressed
from koikoi_relay.messages import (
    TOKEN_BYTES,
    Ack,
    Create,
    Frame,
    Join,
    Leave,
    Lobby,
    RejectPeer,
    Resume,
    Sync,
    encode,
    parse_client_message,
    unpack_map,
)
from koikoi_relay.metrics import Metrics
from koikoi_relay.ratelimit import TokenBucket
from koikoi_relay.rooms import SWEEP_SLICE, Rooms
from koikoi_relay.sending import send_message
from koikoi_relay.state import Connection, Inbound, Registry, Source
from koikoi_relay.turns import SetupPace

PATH = "/v1"
FRAME_OVERHEAD = 64     # msgpack bytes around the data of a frame message
TLS_HANDSHAKE_TIMEOUT = 10.0
# spec/relay.md §8.7: what a connection may hold before its handler takes it. websockets stops
# reading a connection while more than one parsed frame waits for the handler (high water 1, low
# 0; stopping at the first frame made every message of a busy connection pause and resume the
# socket, half again the CPU per frame), and each read from the socket brings at most what its
# receive buffer holds (the kernel doubles the value set; accepted sockets inherit it).
MAX_QUEUE = 1
RECEIVE_BUFFER = 32768
# asyncio accepts at most ``backlog`` connections each turn of the event loop (one accept loop per
# turn in which the listening socket is readable). Its default, 100, let a wave of 256 connections
# opened in the same instant by a few addresses be accepted, parsed and started in two or three
# turns of 50 to 75 ms each, before the pace of handshakes (spec/relay.md §7.2) could spread
# anything; eight a turn spreads the wave over many short turns. The kernel's own queue of
# connections waiting to be accepted is set apart, and stays long (LISTEN_BACKLOG).
ACCEPTS_PER_TURN = 8
LISTEN_BACKLOG = 1024
# spec/relay.md §7.3: the first byte of a client's close frame (FIN and opcode 8, RFC 6455 §5.2).
CLOSE_FRAME_START = 0x88
# spec/relay.md §7.2: the body of the 503 of a full line (a client tells it from relay_full by it).
BUSY_ANSWER = "too many new connections right now; try again in a moment\n"
# spec/relay.md §7: the other bodies of a 503 before the upgrade, which a client names apart.
FULL_ANSWER = "relay full\n"
UNAVAILABLE_ANSWER = "relay unavailable\n"     # a cluster node cut off from Redis (§13)
SHUTDOWN_ANSWER = "shutting down\n"


# spec/relay.md §2 item 6: however long the relay holds a connection back, its pong must be in
# within this many ping timeouts of the ping (2 minutes at the defaults).
HELD_PONG_TIMEOUTS = 6
# spec/relay.md §2 item 6: each wait before a ping is ping_interval times a factor drawn afresh
# from [1 - PING_JITTER, 1 + PING_JITTER]. Connections opened in the same seconds (the relay's
# start, a reconnect storm, a bench) were otherwise pinged in the same turn of the event loop
# every ping_interval: 1,223 keepalive steps in one 139 ms turn with 2,000 connections, every
# honest frame waiting behind them (koikoi bench relay --hostile, KOIKOI_RELAY_PAUSES).
PING_JITTER = 0.25
_PING_SPREAD = random.Random()   # noqa: S311 - timing only, nothing secret; one for all connections


def ping_wait(interval: float, latency: float) -> float:
    """The wait before a connection's next ping (§2 item 6): ``interval`` times a factor drawn from
    [1 - PING_JITTER, 1 + PING_JITTER], less the last pong's latency."""
    return max(0.0, interval * (1.0 + PING_JITTER * (2.0 * _PING_SPREAD.random() - 1.0)) - latency)


# A frame message's bytes beside its data: the map, its keys, seq, ack and the data's length (spec §4).
FRAME_OVERHEAD = 64


class MeteredConnection(ServerConnection):
    """A websockets connection that counts the bytes it has read from its socket and the relay has
    not finished handling (``Inbound``, part of the budget of spec/relay.md §8.7): a frame not yet
    parsed whole, the parsed data frames waiting for the handler, the message the handler holds.
    Every byte read once the connection is open is counted; a frame's header, and a control frame
    whole, leave the count when websockets has parsed them, a data frame's payload when the handler
    is done with its message."""

    meter: Inbound = Inbound()   # replaced by each server's own (RelayServer.start)
    # spec/relay.md §7.1: whether to go on with a connection just accepted, from its peer's
    # address alone (RelayServer.admits); replaced by each server's own.
    admits: Callable[[Any], bool] = staticmethod(lambda peer: True)
    # spec/relay.md §7.3: the pace of reads of connections not in a match; each server's own.
    pace: SetupPace = SetupPace(0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.meter.made += 1   # and freed in __del__ (koikoi_relay/collector.py)
        self.socket_transport: asyncio.BaseTransport | None = None   # under TLS (_break_cycles)
        self.inbound = 0
        self.outbound = 0   # the write buffer as last seen (§8.7 (b))
        self.counted = False
        self.metering = True
        self.dropped = False
        # Reading is paused while websockets' queue of received messages is full or while the
        # address is in byte debt (koikoi_relay/gate.py, spec/relay.md §7.1): either holds it.
        self.gate: ReadGate | None = None
        self.queue_full = False
        self.debt_held = False
        # Set by the relay's handler: it waits for the next message and none is queued (``idle``),
        # and what may handle a message at once (RelayServer.handle_now); see process_event.
        self.idle = False
        self.fast: Callable[[bytes], bool] | None = None
        # spec/relay.md §7.3: the relay's state of this connection once its handler runs (whether
        # it is in a match), and the bytes read and put off until its turn (turns.SetupPace).
        self.relay_conn: Connection | None = None
        self.stash: bytearray | None = None
        self.stashed = 0   # of which counted in the budget (§8.7: read, not yet handled)
        self.setup_held = False

    def __del__(self) -> None:
        self.meter.freed += 1

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # With the relay's own TLS, ``transport`` is asyncio's TLS layer; the socket's transport
        # beneath it keeps the same cycle as a plain one, and the TLS layer lets go of it first.
        self.socket_transport = getattr(getattr(transport, "_ssl_protocol", None), "_transport", None)
        if not self.admits(transport.get_extra_info("peername")):
            # Dropped at the accept: no request read, no handler task, nothing answered (§7.1).
            self.dropped = True
            transport.close()
            _forget_read_callback(transport)
            self._forget_socket_transport()
            return
        super().connection_made(transport)
        # websockets' flow control goes through _reading too, or its resume would undo a hold.
        self.recv_messages.pause = self._queue_is_full
        self.recv_messages.resume = self._queue_has_room
        self.counted = True
        meter = self.meter
        meter.connections += 1   # §8.7 (c): from the TCP accept on, handshake or not
        if meter.squeeze is not None:
            meter.squeeze()

    async def keepalive(self) -> None:
        """websockets' keepalive (spec/relay.md §2 item 6), except that the pong's clock starts again
        whenever the relay is found not reading the connection (looked at every quarter of
        ``ping_timeout``): paused for its address's byte debt (§7.1) or behind its own message still
        being handled. The pong then waits unread in TCP behind the data the relay held back;
        closing the connection for it (1011) would blame the peer for the relay's choice. However
        long it is held, a pong not in within ``HELD_PONG_TIMEOUTS`` timeouts of its ping closes the
        connection, so a dead peer is always found. Each wait before a ping is jittered
        (``PING_JITTER``), so connections opened together are not pinged together."""
        assert self.ping_interval is not None
        latency = 0.0
        try:
            while True:
                await asyncio.sleep(ping_wait(self.ping_interval, latency))
                pong = asyncio.ensure_future(await self.ping())   # a future: waited on, never cancelled
                timeout = self.ping_timeout
                if timeout is None:
                    continue
                loop = asyncio.get_running_loop()
                deadline = loop.time() + timeout
                cap = loop.time() + HELD_PONG_TIMEOUTS * timeout
                while not pong.done():
                    transport = self.transport
                    if transport is not None and not transport.is_closing() and not transport.is_reading():
                        deadline = min(cap, loop.time() + timeout)   # held by the relay: the clock restarts
                    left = deadline - loop.time()
                    if left <= 0:
                        async with self.send_context():
                            self.protocol.fail(WsCloseCode.INTERNAL_ERROR, "keepalive ping timeout")
                        return   # send_context waits for connection_lost, which cancels this task
                    await asyncio.wait((pong,), timeout=min(left, timeout / 4))
                latency = pong.result()
        except ConnectionClosed:
            return
        except Exception:   # as websockets' own keepalive: said, not lost with the task
            self.logger.error("keepalive ping failed", exc_info=True)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.stash is not None:   # put off and never handled: the connection is gone (§7.3)
            self.stash = None
            self.pace.forget(self)
            self._count_stash(0)
        self.relay_conn = None
        if self.dropped:
            self.protocol.parser.close()
            return
        if self.counted:
            self.counted = False
            self.meter.connections -= 1
        self._set_outbound(0)
        keepalive = self.keepalive_task   # super() cancels it and forgets it
        super().connection_lost(exc)
        self._break_cycles(keepalive)

    def _break_cycles(self, keepalive: asyncio.Task[None] | None) -> None:
        """Leave a closed connection to reference counting. websockets' parser is a generator whose
        frame holds the protocol, and it ends keeping the exception that stopped it (EOFError at a
        close), whose traceback holds its frames and their callers' (the transport, the socket);
        a request head that ended early or did not parse leaves the same in ``handshake_exc`` (its
        cause's traceback holds the suspended request parser, which holds the protocol); asyncio's
        socket transport (CPython 3.11) keeps its own bound read method; the keepalive task,
        cancelled here, keeps its CancelledError (and after a ping timeout the TimeoutError before
        it), whose tracebacks hold its frames and so the connection. Cycles of 30 to 100 objects per
        closed connection, freed only by the collector's full pass, which stopped the relay for half
        a second under a storm of connections (about 100,000 objects at once). The exceptions stay,
        for the close's ``__cause__``, without their tracebacks; the transport reads no more."""
        protocol = self.protocol
        _forget_tracebacks(protocol.parser_exc)
        # A handshake that failed in process_request keeps that exception with a traceback
        # through handshake() itself, which may still be suspended here (sending its 500):
        # clearing that frame would close the running coroutine, so only the reference goes.
        _forget_tracebacks(protocol.handshake_exc, clear_top=False)
        protocol.parser.close()
        # Its flow control calls back into this connection (connection_made): a cycle too.
        self.recv_messages.pause = self.recv_messages.resume = _no_flow_control
        _forget_read_callback(self.transport)
        self._forget_socket_transport()
        if keepalive is not None:
            if keepalive.done():
                _forget_task_exception(keepalive)
            else:
                keepalive.add_done_callback(_forget_task_exception)

    def _forget_socket_transport(self) -> None:
        """Under TLS: the socket transport's own cycle broken too (it reads no more either)."""
        if self.socket_transport is not None:
            _forget_read_callback(self.socket_transport)
            self.socket_transport = None

    def _set_outbound(self, size: int) -> None:
        meter = self.meter
        meter.outbound += size - self.outbound
        grew = size > self.outbound
        self.outbound = size
        if grew and meter.squeeze is not None:
            meter.squeeze()

    def send_data(self) -> None:
        super().send_data()
        if self.counted:   # the hot path: one look at the buffer after each write
            size = self.transport.get_write_buffer_size()
            if size != self.outbound:
                self._set_outbound(size)

    def writable(self) -> bool:
        """A write would go out at once: websockets' ``send`` would neither wait (the write buffer
        is not paused) nor refuse (the connection is open)."""
        return self.protocol.state is State.OPEN and not self.paused and not self.transport.is_closing()

    async def until_writable(self) -> None:
        """Wait while the write buffer is past its high-water mark (websockets' own drain)."""
        if self.paused and self.protocol.state is State.OPEN:
            await self.drain()

    def send_now(self, data: bytes) -> bool:
        """Write ``data`` as one binary message at once if ``writable``; False: the caller awaits
        ``send``, which waits for the buffer to drain or raises ConnectionClosed. The relay never
        sends a fragmented message, so none can be half-way. Every frame forwarded goes through
        here: the coroutine and async context manager of ``send`` cost as much as the write."""
        if not self.writable():
            return False
        self.protocol.send_binary(data)
        self.send_data()
        return True

    def refresh_outbound(self) -> None:
        """Count what waits in the write buffer now (it only shrinks between two sends; the
        sweeper looks again every second)."""
        self._set_outbound(self.transport.get_write_buffer_size() if self.counted else 0)

    def _release(self, size: int) -> None:
        size = min(size, self.inbound)
        self.inbound -= size
        self.meter.total -= size

    def _queue_is_full(self) -> None:
        self.queue_full = True
        self._reading()

    def _queue_has_room(self) -> None:
        self.queue_full = False
        self._reading()

    def hold_reading(self, held: bool) -> None:
        """The address's byte debt (koikoi_relay/gate.py) holds this connection's reading, or not."""
        self.debt_held = held
        self._reading()

    def _reading(self) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        if self.queue_full or self.debt_held or self.setup_held:
            transport.pause_reading()   # also cancels a read already queued in this turn of the loop
        else:
            transport.resume_reading()

    def hold_setup(self) -> None:
        """Its reads wait for their turn (spec/relay.md §7.3): read no more meanwhile."""
        self.setup_held = True
        self._reading()

    def release_setup(self, data: bytes) -> None:
        """Its turn (§7.3): what was put off is handled now, and the connection read again."""
        self.setup_held = False
        self._count_stash(0)   # counted again as it is taken, as any read
        try:
            self._take(data)
        except Exception as exc:   # as asyncio does for a read: this connection ends, not the turn
            self.transport.abort()
            self.logger.error("reading a connection failed: %s", type(exc).__name__)
            return
        self._reading()

    def in_match(self) -> bool:
        """Whether this connection holds a seat of a room both seats have joined (§7.3)."""
        conn = self.relay_conn
        return conn is not None and conn.paired

    def eof_received(self) -> None:
        # Under TLS the end of the stream can come while a read waits for its turn (the TLS layer
        # saw it before reading stopped): what was kept goes first, as it came first (§7.3).
        if self.stash is not None:
            stash, self.stash = bytes(self.stash), None
            self.pace.forget(self)
            self.release_setup(stash)
        super().eof_received()

    def data_received(self, data: bytes) -> None:
        # spec/relay.md §7.3: a match's frames as they come (a read that starts with a close frame
        # aside: leaving costs as much as any setting up); anything else a few connections a turn.
        if ((self.stash is not None or data[0] == CLOSE_FRAME_START or not self.in_match())
                and not self.pace.admit(self, data)):
            self._count_stash(len(self.stash) if self.stash is not None else 0)
            return
        self._take(data)

    def _count_stash(self, size: int) -> None:
        """The bytes put off count in the budget as any bytes read and not yet handled (§8.7)."""
        meter = self.meter
        meter.total += size - self.stashed
        grew = size > self.stashed
        self.stashed = size
        if grew and meter.squeeze is not None:
            meter.squeeze()

    def _take(self, data: bytes) -> None:
        if self.metering and self.state is not State.CONNECTING:
            self.inbound += len(data)
            meter = self.meter
            meter.total += len(data)
            if meter.squeeze is not None:
                meter.squeeze()
            if self.gate is not None:
                self.gate.charge(len(data))   # §7.1: may hold every connection of the address
        super().data_received(data)

    def process_event(self, event: Event) -> None:
        if self.metering and isinstance(event, WireFrame):
            size = len(event.data)
            # A client's frame: 2 bytes, the extended length, the 4-byte mask (RFC 6455 §5.2).
            header = 6 + (0 if size < 126 else 2 if size < 65536 else 8)
            self._release(header if event.opcode in DATA_OPCODES else header + size)
            # A whole binary message while the handler waits for its next one, with none queued:
            # the relay may handle it here, in order (nothing is ahead of it), without the
            # handler's turn of the event loop (RelayServer.handle_now).
            if event.opcode in DATA_OPCODES:
                fast = self.fast
                if fast is not None and self.idle and event.opcode is Opcode.BINARY and event.fin:
                    data = event.data if type(event.data) is bytes else bytes(event.data)
                    if fast(data):
                        self._release(size)   # as ``handled`` does when the handler is done
                        return
                # Queued for the handler: whatever comes after it must wait its turn behind it.
                self.idle = False
        super().process_event(event)

    def handled(self, message: str | bytes) -> None:
        """The handler is done with ``message``: its bytes are no longer held."""
        self._release(len(message) if isinstance(message, bytes) else len(message.encode()))

    def stop_metering(self) -> None:
        """The handler has ended: whatever it did not take is released, later bytes not counted."""
        self.metering = False
        self.idle, self.fast = False, None
        self._release(self.inbound)


def _forget_tracebacks(exc: BaseException | None, clear_top: bool = True) -> None:
    """Drop the tracebacks of ``exc`` and of the exceptions it was raised from or during, and the
    locals of the frames they passed through: a traceback holds those frames, and they hold whoever
    raised it (a cycle when that object keeps the exception) and, in an ``__aexit__``, the
    traceback itself. Only for exceptions that are done with: their frames have returned (or
    belong to a generator nobody will resume, which clearing closes). With ``clear_top`` false,
    the frames of ``exc``'s own traceback are left as they are (one may still be running) and only
    the exceptions it came from have theirs cleared."""
    seen: set[int] = set()
    top = exc
    pending = [exc]
    while pending:
        exc = pending.pop()
        if exc is None or id(exc) in seen:
            continue
        seen.add(id(exc))
        if clear_top or exc is not top:
            traceback.clear_frames(exc.__traceback__)
        exc.__traceback__ = None
        pending += (exc.__cause__, exc.__context__)


def _no_flow_control() -> None:
    """What a closed connection's queue calls when it fills or drains: nothing is read any more."""


def _forget_task_exception(task: asyncio.Future[Any]) -> None:
    """A finished task keeps how it ended (a cancelled one its CancelledError, until asked):
    taken, and its tracebacks dropped (MeteredConnection._break_cycles)."""
    try:
        task.result()
    except BaseException as exc:   # CancelledError too: whatever ended it, only its tracebacks go
        _forget_tracebacks(exc)


def _forget_read_callback(transport: asyncio.BaseTransport) -> None:
    """A closed asyncio socket transport (CPython 3.11) still holds its own bound read method: a
    cycle, with the socket in it (MeteredConnection._break_cycles)."""
    state = getattr(transport, "__dict__", {})
    if "_read_ready_cb" in state:
        state["_read_ready_cb"] = None


# An extra HTTP handler for the GETs the relay does not serve itself (``koikoi relay --web`` passes
# one that serves the browser app): websockets' parsed request -> (status, headers, body), or None
# for 404. The relay reads no request itself: websockets parses every one (GET only, no body).
HttpReply = tuple[int, list[tuple[str, str]], bytes]
HttpHandler = Callable[[Request], HttpReply | None]


class RelayServer:
    """A relay instance. ``await start()``, then ``await shutdown()`` (also on SIGTERM in __main__)."""

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        rooms: Rooms | None = None,
        clock: Callable[[], float] = time.monotonic,
        choose: Chooser = secrets.choice,
        token_bytes: Callable[[int], bytes] = secrets.token_bytes,
        http: HttpHandler | None = None,
        ssl: SSLContext | None = None,
        source_header: str | None = None,
    ) -> None:
        self.limits = limits or Limits()
        # spec/relay.md §7.1: behind a proxy, the header in which it names the client's address.
        self.source_header = source_header
        self._sources: dict[str, Source] = {}
        # spec/relay.md §7.1: new connections per source; a bucket stays until it has refilled.
        self._handshakes: dict[str, TokenBucket] = {}
        self.http = http
        # wss:// and https:// on the same port (koikoi_relay/tls.py); None: plain ws:// and http://.
        self.ssl = ssl
        self.metrics = Metrics()
        # Bytes read and not yet handled, write buffers and connections, every connection (§8.7).
        self.inbound = Inbound(self.limits.connection_bytes)
        self.rooms: Rooms = rooms if rooms is not None else LocalRooms()
        self.rooms.attach(self)
        self.clock = clock
        # spec/relay.md §7.2: new connections of all sources together, in line.
        lim = self.limits
        self._line = HandshakeLine(lim.handshakes_per_second, lim.handshakes_at_once, lim.handshake_burst,
                                   max(int(lim.handshakes_per_second * lim.handshake_max_wait), 1), clock)
        # spec/relay.md §7.3: reads of connections not in a match, a few a turn of the event loop.
        self.pace = SetupPace(lim.setup_reads_per_turn)
        self.choose = choose
        self._token_bytes = token_bytes
        self._conns: set[Connection] = set()
        self._serials = 0
        self._server: Server | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        self.closed = asyncio.Event()

    @property
    def registry(self) -> Registry:
        """The rooms in memory (the in-process backend only; tests look at it)."""
        assert isinstance(self.rooms, LocalRooms), "only the in-process backend has a registry"
        return self.rooms.registry

    @property
    def connections(self) -> set[Connection]:
        return self._conns

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 8765) -> None:
        lim = self.limits
        await self.rooms.start()
        metered = type("RelayConnection", (MeteredConnection,),
                       {"meter": self.inbound, "admits": staticmethod(self.admits), "pace": self.pace})
        self._server = await serve(
            self._handle,
            host,
            port,
            compression=None,  # DESIGN.md §6: deflate costs about three times the memory
            process_request=self._process_request,
            max_size=max(lim.max_frame_bytes + FRAME_OVERHEAD, lim.max_control_bytes),
            ping_interval=lim.ping_interval,
            ping_timeout=lim.ping_timeout,
            close_timeout=lim.close_timeout,
            server_header=None,
            ssl=self.ssl,
            # A TLS handshake that has not finished by then is dropped (asyncio's default is 60 s).
            ssl_handshake_timeout=TLS_HANDSHAKE_TIMEOUT if self.ssl is not None else None,
            max_queue=MAX_QUEUE,
            create_connection=metered,
            backlog=ACCEPTS_PER_TURN,
        )
        for listener in self._server.sockets:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
            # The kernel's queue, on a duplicate of the socket (asyncio's wrapper has no listen()).
            with socket.socket(fileno=os.dup(listener.fileno())) as same:
                same.listen(LISTEN_BACKLOG)
        self._sweeper = asyncio.create_task(self._sweep_forever())
        log_event("relay_started", host=host, port=self.port)

    @property
    def port(self) -> int:
        assert self._server is not None, "start() first"
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def shutdown(self) -> None:
        """Tell every peer, stop accepting, close every connection with 1001 and wait for them."""
        if self._closing:
            await self.closed.wait()
            return
        self._closing = True
        log_event("relay_stopping", connections=len(self._conns))
        self._line.close()   # handshakes waiting in line are answered 503 now (spec §7.2)
        self.pace.close()
        notice = encode("shutdown", message="the relay is shutting down")
        sends = []
        for conn in list(self._conns):
            if self.rooms.seats_survive_shutdown and conn.in_room:
                # spec §13.7: a cluster node's seats live on in Redis; 1012 lets them resume elsewhere.
                sends.append(asyncio.ensure_future(conn.ws.close(1012, "relay node restarting")))
            else:
                sends.append(asyncio.ensure_future(self.send(conn, notice)))
        if sends:
            # A peer that stopped reading must not hold the shutdown up (its send would block).
            _, stuck = await asyncio.wait(sends, timeout=self.limits.close_timeout)
            for task in stuck:
                task.cancel()
        if self._server is not None:
            self._server.close(True, CloseCode.GOING_AWAY, "relay shutting down")
            await self._server.wait_closed()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in list(self._tasks):
            task.cancel()
        await self.rooms.stop()
        report_suppressed(force=True)
        log_event("relay_stopped")
        self.closed.set()

    async def __aenter__(self) -> RelayServer:
        if self._server is None:
            await self.start("127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.shutdown()

    # -- HTTP side: health, metrics, routing -------------------------------------------------

    async def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            if self._closing:
                return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, SHUTDOWN_ANSWER)
            healthy, line = self.rooms.health()
            status = http.HTTPStatus.OK if healthy else http.HTTPStatus.SERVICE_UNAVAILABLE
            return connection.respond(status, line + "\n")
        if path == "/metrics":
            response = connection.respond(http.HTTPStatus.OK, self.metrics_text())
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
            return response
        if path != PATH:
            reply = self.http(request) if self.http is not None else None
            if reply is not None:
                code, headers, body = reply
                return Response(code, http.HTTPStatus(code).phrase, Headers(headers), body)
            return connection.respond(http.HTTPStatus.NOT_FOUND, f"unknown path; the protocol is at {PATH}\n")
        source = self.source_of(connection, request)
        refused = self._refusal(connection, source)
        if refused is not None:
            return refused
        if not self._handshake_allowed(source):
            # Refused before any state is made for it: a storm of connections costs a parsed head each.
            self.metrics.errors["source_handshakes"] += 1
            return connection.respond(http.HTTPStatus.TOO_MANY_REQUESTS,
                                      "too many new connections from this address; wait a moment\n")
        # spec/relay.md §7.2: handshakes of all sources wait in one line for the relay's pace, served
        # source by source, so that many addresses reconnecting in step cannot stop the event loop
        # for everyone, nor a few of them keep everyone else out.
        transport = connection.transport
        if not await self._line.enter(source, lambda: not transport.is_closing()):
            if self.stopping():
                return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, SHUTDOWN_ANSWER)
            self.metrics.errors["handshakes_busy"] += 1
            response = connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, BUSY_ANSWER)
            response.headers["Retry-After"] = "1"
            return response
        return self._refusal(connection, source)   # what may have changed while it waited

    def _refusal(self, connection: ServerConnection, source: str) -> Response | None:
        """The answer to a websocket handshake the relay cannot take now (spec §7, §7.1), or None."""
        if self.stopping():
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, SHUTDOWN_ANSWER)
        if len(self._conns) >= self.limits.max_connections:
            self.metrics.errors["relay_full"] += 1
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, FULL_ANSWER)
        cap = self.limits.max_connections_per_source
        origin = self._sources.get(source)
        if cap and origin is not None and origin.connections >= cap:
            self.metrics.errors["source_connections"] += 1
            return connection.respond(http.HTTPStatus.TOO_MANY_REQUESTS,
                                      "too many connections from this address\n")
        if not self.rooms.health()[0]:
            # A cluster node cut off from Redis cannot serve rooms: a balancer sends the peer elsewhere.
            self.metrics.errors["unavailable"] += 1
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, UNAVAILABLE_ANSWER)
        return None

    def stopping(self) -> bool:
        """Whether shutdown() has begun."""
        return self._closing

    def admits(self, peer: Any) -> bool:
        """Whether a connection just accepted from ``peer`` (its socket address) may send its
        request (spec/relay.md §7.1). Without ``source_header`` the address is the source: one whose
        handshakes are spent for now is dropped at the accept, before its request is read (each
        refused connection of a storm cost a parsed request, a task and an answer). Behind a proxy
        the source is in the request: always True."""
        if self.source_header is not None or not peer:
            return True
        source = self._source_of_text(str(peer[0]))
        bucket = self._handshakes.get(source)
        if bucket is not None and not bucket.ready(1):
            self.metrics.errors["source_handshakes"] += 1
            return False
        return True

    def _handshake_allowed(self, source: str) -> bool:
        """One more websocket handshake from ``source`` within its rate (spec/relay.md §7.1)."""
        lim = self.limits
        rate = lim.handshakes_per_second_per_source
        if not rate:
            return True
        bucket = self._handshakes.get(source)
        if bucket is None:
            burst = max(lim.handshake_burst, 1) / rate
            bucket = self._handshakes[source] = TokenBucket(rate, burst, self.clock)
        return bucket.take(1)

    def metrics_text(self) -> str:
        rooms_open, rooms_paired = self.rooms.room_counts()
        text = self.metrics.render(len(self._conns), rooms_open, rooms_paired, self.rooms.buffered_bytes(),
                                   self.inbound.total, self.inbound.held(), self.inbound.in_flight())
        pace = self.pace
        text += ("# HELP relay_setup_reads_deferred_total Reads of connections not in a match put off to a "
                 "later turn of the event loop.\n# TYPE relay_setup_reads_deferred_total counter\n"
                 f"relay_setup_reads_deferred_total {pace.deferred}\n"
                 "# HELP relay_setup_reads_waiting Connections whose read waits for its turn.\n"
                 f"# TYPE relay_setup_reads_waiting gauge\nrelay_setup_reads_waiting {pace.waiting}\n")
        return text + "".join(line + "\n" for line in self.rooms.metrics_lines())

    def source_of(self, ws: ServerConnection, request: Request | None = None) -> str:
        """The address a connection comes from, as the per-source limits count it (spec §7.1): the
        peer's IP address, an IPv6 one by its /64; behind a proxy, the last address of the header
        that proxy sets (``source_header``), else the proxy's own."""
        text = ""
        request = request or ws.request
        if self.source_header is not None and request is not None:
            text = request.headers.get(self.source_header, "").rsplit(",", 1)[-1].strip()
        if not text:
            address = ws.remote_address
            text = str(address[0]) if address else ""
        return self._source_of_text(text)

    @staticmethod
    def _source_of_text(text: str) -> str:
        try:
            ip = ipaddress.ip_address(text)
        except ValueError:
            return text[:64]
        if isinstance(ip, ipaddress.IPv6Address):
            if ip.ipv4_mapped is not None:
                return str(ip.ipv4_mapped)
            return str(ipaddress.ip_network(f"{ip}/64", strict=False).network_address) + "/64"
        return str(ip)

    # -- one connection ----------------------------------------------------------------------

    async def _handle(self, ws: ServerConnection) -> None:
        if self._closing or len(self._conns) >= self.limits.max_connections:
            # A race past _process_request: same answer, as a close code (spec §7).
            self.metrics.errors["relay_full"] += 1
            try:
                await ws.send(encode("error", reason="relay_full", message="too many connections"))
                await ws.close(CloseCode.TRY_AGAIN_LATER, "relay full")
            except ConnectionClosed:
                pass
            return
        source = self.source_of(ws)
        cap = self.limits.max_connections_per_source
        origin = self._sources.get(source)
        if cap and origin is not None and origin.connections >= cap:
            self.metrics.errors["source_connections"] += 1
            try:
                await ws.send(encode("error", reason="source_connections",
                                     message="too many connections from this address"))
                await ws.close(CloseCode.TRY_AGAIN_LATER, "too many connections from this address")
            except ConnectionClosed:
                pass
            return
        if origin is None:
            origin = self._sources[source] = Source(self.limits, self.clock)
        origin.connections += 1
        conn = Connection(ws, self.next_serial(), self.limits, self.clock, source, origin)
        self._conns.add(conn)
        self.metrics.connections_total += 1
        log_event("connected", conn=conn.serial)
        metered = ws if isinstance(ws, MeteredConnection) else None
        if metered is not None:
            metered.gate = origin.gate
            origin.gate.join(metered)
        if metered is not None:
            metered.fast = partial(self.handle_now, conn)
            metered.relay_conn = conn
        try:
            while True:
                # Between here and recv's return nothing else runs unless recv has to wait, and then
                # none is queued: a message read meanwhile may be handled at once (process_event).
                if metered is not None:
                    metered.idle = True
                try:
                    message = await ws.recv()
                finally:
                    if metered is not None:
                        metered.idle = False
                try:
                    await self._on_message(conn, message)
                finally:
                    if metered is not None:
                        metered.handled(message)
        except ConnectionClosed:
            pass
        except Exception as exc:  # the relay never crashes: this connection ends, the others go on
            self.metrics.errors["internal"] += 1
            # Type and place only: an exception's text could quote frame data (spec §10).
            tb = exc.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            where = f"{tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}" if tb else "?"
            log_event("internal_error", logging.ERROR, conn=conn.serial, exc=type(exc).__name__, at=where)
            await ws.close(1011, "internal error")
        finally:
            if metered is not None:
                metered.stop_metering()
                metered.relay_conn = None
                origin.gate.leave(metered)
                metered.gate = None
            origin.connections -= 1
            if not origin.connections and self._sources.get(source) is origin:
                del self._sources[source]
            self._conns.discard(conn)
            self.rooms.disconnected(conn)
            close_code = ws.close_code if ws.close_code is not None else 1006
            log_event("disconnected", conn=conn.serial, code=close_code)

    def handle_now(self, conn: Connection, message: bytes) -> bool:
        """Handle ``message`` in the read callback that parsed it, if it is a frame the rooms can
        forward without waiting (LocalRooms.frame_now) and within the connection's rates (spec
        §7): what ``_on_message`` would do, in the same order, minus a turn of the event loop.
        False: nothing was done, taken or counted; the handler gets the message as usual (an
        error reply, a control message, a peer that is slow or away, a backend that waits)."""
        frame_now = getattr(self.rooms, "frame_now", None)
        peer_writable = getattr(self.rooms, "peer_writable", None)
        # The cheap looks first: a message that goes the long way is parsed there, once more.
        if (frame_now is None or peer_writable is None or conn.closing
                or len(message) > self.limits.max_frame_bytes + FRAME_OVERHEAD
                or not peer_writable(conn) or not conn.messages_bucket.ready(1)
                or not conn.bytes_bucket.ready(len(message))):
            return False
        try:
            value = unpack_map(message)
            if value["type"] != "frame":
                return False
            msg = parse_client_message(value, self.limits.max_meta_entries)
        except MessageError:
            return False
        try:
            now = self.clock()
            if not frame_now(conn, msg):
                return False
            conn.last_active = now
            if conn.room is not None:
                conn.room.last_active = now
            conn.messages_bucket.take(1)
            conn.bytes_bucket.take(len(message))
        except Exception as exc:   # as the handler does: this connection ends, the others go on
            self.metrics.errors["internal"] += 1
            log_event("internal_error", logging.ERROR, conn=conn.serial, exc=type(exc).__name__,
                      at="handle_now")
            self.close_later(conn, None, WsCloseCode.INTERNAL_ERROR, "internal error")
        return True

    async def _on_message(self, conn: Connection, message: str | bytes) -> None:
        if conn.closing:
            return
        now = conn.last_active = self.clock()
        if conn.room is not None:
            conn.room.last_active = now
        elif conn.member is not None:
            conn.member.last_active = now
        # spec/relay.md §7: messages and bytes per second per connection.
        if not conn.messages_bucket.take(1) or not conn.bytes_bucket.take(len(message)):
            await self.fail(conn, "rate_limited", CloseCode.RATE_LIMITED, "message or byte rate exceeded")
            return
        # spec/relay.md §7.1: the address's shared byte rate was charged as the bytes were read
        # (koikoi_relay/gate.py); a message read is handled at once.
        if isinstance(message, str):
            await self.error(conn, "text_not_allowed", "messages are binary msgpack maps")
            return
        try:
            value = unpack_map(message)
            if value["type"] != "frame" and len(message) > self.limits.max_control_bytes:
                raise MessageError("control_too_large", "control message too large")
            msg = parse_client_message(value, self.limits.max_meta_entries)
        except MessageError as exc:
            await self.error(conn, exc.reason, exc.message)
            return
        rooms = self.rooms
        if type(msg) is Frame:
            await rooms.frame(conn, msg)
        elif type(msg) is Ack:
            await rooms.ack(conn, msg.seq)
        elif type(msg) is Sync:
            await rooms.sync(conn, msg)
        elif type(msg) is Create:
            await rooms.create(conn, msg)
        elif type(msg) is Join:
            await rooms.join(conn, msg)
        elif type(msg) is Lobby:
            # spec/relay.md §7.1: the public lobby has its own, smaller rate. A lobby for one rejoin
            # tag reads only that tag's short list; pairing again polls it (net/rendezvous.py).
            if msg.rejoin is None and not conn.origin.lobby_bucket.take(1):
                # Not counted against max_errors (spec §6): the source's rate is shared by its
                # connections, so one client behind a busy address would lose its connection for
                # another's polling; and closing costs the relay more than refusing (a flood's
                # connections, closed and reconnected in step, stalled it for 40 to 90 ms).
                await self.error(conn, "lobby_rate_limited", "too many lobby requests; ask less often",
                                 counts=False)
                return
            await rooms.lobby(conn, msg)
        elif type(msg) is Resume:
            await rooms.resume(conn, msg)
        elif type(msg) is RejectPeer:
            await rooms.reject(conn)
        elif type(msg) is Leave:
            await rooms.leave(conn)

    async def bad_join(self, conn: Connection) -> None:
        """A join of an unknown code: an error, and the connection closed after too many (spec §7)."""
        conn.bad_joins += 1
        if conn.bad_joins >= self.limits.max_bad_joins:
            await self.fail(conn, "too_many_bad_joins", CloseCode.POLICY, "too many unknown codes")
        else:
            await self.error(conn, "room_not_found", "no room has this code")

    def new_token(self) -> bytes:
        token = self._token_bytes(TOKEN_BYTES)
        if len(token) != TOKEN_BYTES:
            raise ValueError("token source returned the wrong length")
        return token

    def next_serial(self) -> int:
        """Serial numbers name connections and rooms in the logs (never the room code, spec §10)."""
        self._serials += 1
        return self._serials

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_interval)
            try:
                await self._sweep()
            except Exception:
                self.metrics.errors["internal"] += 1
                logging.getLogger("koikoi_relay").exception("sweeper error")

    async def _sweep(self) -> None:
        """Expire idle connections, then let the backend expire rooms and seats (spec §7). The
        connections are looked at SWEEP_SLICE at a time, the event loop free in between: in one
        go, a few thousand of them stopped it for 7 to 18 ms every second."""
        now = self.clock()
        lim = self.limits
        for source in [source for source, bucket in self._handshakes.items() if bucket.full()]:
            del self._handshakes[source]
        for index, conn in enumerate(list(self._conns)):
            if index and not index % SWEEP_SLICE:
                await asyncio.sleep(0)
            if conn not in self._conns:
                continue   # gone meanwhile
            if isinstance(conn.ws, MeteredConnection):
                conn.ws.refresh_outbound()
            if not conn.in_room and now - conn.last_active > lim.idle_timeout:
                self._conns.discard(conn)
                self.metrics.errors["idle_timeout"] += 1
                self.close_later(conn, encode(
                    "error", reason="idle_timeout", message="idle connection"), CloseCode.IDLE, "idle")
        await self.rooms.sweep(now)
        report_suppressed()   # spec §10: lines left out are reported even when the flood has stopped

    # -- sending -----------------------------------------------------------------------------

    def spawn(self, coro: Awaitable[None]) -> asyncio.Future[None]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def send(self, conn: Connection, data: bytes) -> None:
        await send_message(conn.ws, data)

    async def error(self, conn: Connection, reason: str, message: str, counts: bool = True) -> None:
        """An error reply; after too many that ``count``, the connection is closed (spec §6)."""
        self.metrics.errors[reason] += 1
        log_event("error_reply", conn=conn.serial, reason=reason)
        if counts:
            conn.errors += 1
        if counts and conn.errors >= self.limits.max_errors:
            await self.fail(conn, "too_many_errors", CloseCode.POLICY, "too many errors")
            return
        await self.send(conn, encode("error", reason=reason, message=message))

    async def fail(self, conn: Connection, reason: str, code: int, message: str) -> None:
        """An error reply followed by closing the connection with ``code``."""
        self.metrics.errors[reason] += 1
        log_event("closing", conn=conn.serial, reason=reason, code=code)
        self.close_later(conn, encode("error", reason=reason, message=message), code, reason)

    def close_later(self, conn: Connection, notice: bytes | None, code: int, reason: str,
                    after: asyncio.Future[None] | None = None) -> None:
        """Close in a task; meanwhile the handler discards what the client still sends.

        Awaiting the closing handshake inside the handler would deadlock on a client with a
        backlog: its close frame sits behind messages nobody reads any more. ``after``: frames
        still on their way to this client (a task writing them), which go before the notice,
        for at most ``close_timeout``.
        """
        if conn.closing:
            return
        conn.closing = True
        conn.attached = False  # frames for its seat are only buffered now, for a resume
        self.spawn(self._close_with(conn, notice, code, reason, after))

    async def _close_with(self, conn: Connection, notice: bytes | None, code: int, reason: str,
                          after: asyncio.Future[None] | None = None) -> None:
        if after is not None and not after.done():
            await asyncio.wait([after], timeout=self.limits.close_timeout)
            after.cancel()   # a reader that slow loses the rest: nothing goes after the notice
        try:
            if notice is not None:
                await conn.ws.send(notice)
            await conn.ws.close(code, reason)
        except ConnectionClosed:
            pass
