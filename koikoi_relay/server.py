"""The relay server: websockets on asyncio, one process, many rooms (spec/relay.md).

Theory of operation: each websocket connection runs ``_handle``, which reads binary msgpack
messages in order. Control messages change the ``Registry``; a ``frame`` is numbered in its
direction, buffered in the recipient seat's outbox and written to the recipient's connection if it
has one. A dropped connection leaves its seat "away" for the resume grace period; a ``resume`` with
the seat's token re-attaches a new connection and replays the unacknowledged frames before any new
one. A sweeper task expires idle connections, idle rooms and seats away for too long. Nothing here
looks inside frame data.
"""

from __future__ import annotations

import asyncio
import http
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from koikoi_relay.codes import Chooser, allocate_code, normalize_code
from koikoi_relay.divert import HttpHandler, diverting_connection
from koikoi_relay.errors import CloseCode, MessageError
from koikoi_relay.limits import Limits
from koikoi_relay.logs import log_event
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
    encode_frame,
    parse_client_message,
    unpack_map,
)
from koikoi_relay.metrics import Metrics
from koikoi_relay.state import Connection, Registry, Room, Seat

PATH = "/v1"
ACK_EVERY = 32          # standalone acks when this many frames went unacknowledged (spec §5.4)
FRAME_OVERHEAD = 64     # msgpack bytes around the data of a frame message


class RelayServer:
    """A relay instance. ``await start()``, then ``await shutdown()`` (also on SIGTERM in __main__)."""

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        choose: Chooser = secrets.choice,
        token_bytes: Callable[[int], bytes] = secrets.token_bytes,
        http_handler: HttpHandler | None = None,
        http_max_body: int = 8 * 1024 * 1024,
    ) -> None:
        self.limits = limits or Limits()
        # Requests on our port that are not ours go whole to this handler (divert.py).
        self._http_handler = http_handler
        self._http_max_body = http_max_body
        self.metrics = Metrics()
        self.registry = Registry()
        self._clock = clock
        self._choose = choose
        self._token_bytes = token_bytes
        self._conns: set[Connection] = set()
        self._serials = 0
        self._server: Server | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        self.closed = asyncio.Event()

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 8765) -> None:
        lim = self.limits
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
            create_connection=None if self._http_handler is None else diverting_connection(
                self._http_handler, (PATH, "/healthz", "/metrics"), self._http_max_body),
        )
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
        notice = encode("shutdown", message="the relay is shutting down")
        sends = [asyncio.ensure_future(self._send(conn, notice)) for conn in list(self._conns)]
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
        log_event("relay_stopped")
        self.closed.set()

    async def __aenter__(self) -> RelayServer:
        if self._server is None:
            await self.start("127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.shutdown()

    # -- HTTP side: health, metrics, routing -------------------------------------------------

    def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            if self._closing:
                return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "shutting down\n")
            return connection.respond(http.HTTPStatus.OK, "ok\n")
        if path == "/metrics":
            response = connection.respond(http.HTTPStatus.OK, self.metrics_text())
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
            return response
        if path != PATH:
            return connection.respond(http.HTTPStatus.NOT_FOUND, f"unknown path; the protocol is at {PATH}\n")
        if self._closing or len(self._conns) >= self.limits.max_connections:
            self.metrics.errors["relay_full"] += 1
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "relay full\n")
        return None

    def metrics_text(self) -> str:
        rooms = self.registry.rooms.values()
        paired = sum(1 for room in rooms if room.paired)
        return self.metrics.render(len(self._conns), len(self.registry.rooms) - paired, paired)

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
        self._serials += 1
        conn = Connection(ws, self._serials, self.limits, self._clock)
        self._conns.add(conn)
        self.metrics.connections_total += 1
        log_event("connected", conn=conn.serial)
        try:
            async for message in ws:
                await self._on_message(conn, message)
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
            self._conns.discard(conn)
            self._on_disconnect(conn)
            close_code = ws.close_code if ws.close_code is not None else 1006
            log_event("disconnected", conn=conn.serial, code=close_code)

    async def _on_message(self, conn: Connection, message: str | bytes) -> None:
        if conn.closing:
            return
        conn.last_active = self._clock()
        if conn.room is not None:
            conn.room.last_active = conn.last_active
        # spec/relay.md §7: messages and bytes per second per connection.
        if not conn.messages_bucket.take(1) or not conn.bytes_bucket.take(len(message)):
            await self._fail(conn, "rate_limited", CloseCode.RATE_LIMITED, "message or byte rate exceeded")
            return
        if isinstance(message, str):
            await self._error(conn, "text_not_allowed", "messages are binary msgpack maps")
            return
        try:
            value = unpack_map(message)
            if value["type"] != "frame" and len(message) > self.limits.max_control_bytes:
                raise MessageError("control_too_large", "control message too large")
            msg = parse_client_message(value, self.limits.max_meta_entries)
        except MessageError as exc:
            await self._error(conn, exc.reason, exc.message)
            return
        if type(msg) is Frame:
            await self._on_frame(conn, msg)
        elif type(msg) is Ack:
            if conn.seat is not None:
                conn.seat.acknowledge(msg.seq)
        elif type(msg) is Sync:
            await self._on_sync(conn, msg)
        elif type(msg) is Create:
            await self._on_create(conn, msg)
        elif type(msg) is Join:
            await self._on_join(conn, msg)
        elif type(msg) is Lobby:
            await self._on_lobby(conn)
        elif type(msg) is Resume:
            await self._on_resume(conn, msg)
        elif type(msg) is RejectPeer:
            await self._on_reject(conn)
        elif type(msg) is Leave:
            await self._on_leave(conn)

    # -- frames ------------------------------------------------------------------------------

    async def _on_frame(self, conn: Connection, msg: Frame) -> None:
        seat, room = conn.seat, conn.room
        if seat is None or room is None:
            await self._error(conn, "not_in_room", "create or join a room first")
            return
        if len(msg.data) > self.limits.max_frame_bytes:
            limit = self.limits.max_frame_bytes
            await self._error(conn, "frame_too_large", f"frame data is limited to {limit} bytes")
            return
        other = room.other(seat)
        if other is None:
            await self._error(conn, "no_peer", "no peer in the room yet")
            return
        if msg.ack is not None:
            seat.acknowledge(msg.ack)
        # spec/relay.md §5.2: seq below the next expected is a resent duplicate; above it, a gap.
        if msg.seq < seat.in_count:
            return
        if msg.seq > seat.in_count:
            if not conn.gap_reported:
                conn.gap_reported = True
                await self._error(conn, "frame_gap", f"expected seq {seat.in_count}")
            return
        conn.gap_reported = False
        seat.in_count += 1
        self.metrics.frames_forwarded_total += 1
        self.metrics.bytes_forwarded_total += len(msg.data)
        encoded = encode_frame(msg.seq, other.in_count, msg.data)
        other.push(encoded, self.limits)
        target = other.conn
        if target is not None and target.attached:
            other.acked_to_client = other.in_count
            try:
                await target.ws.send(encoded)
            except ConnectionClosed:
                pass  # buffered: a resume replays it
        if seat.in_count - seat.acked_to_client >= ACK_EVERY:
            seat.acked_to_client = seat.in_count
            await self._send(conn, encode("ack", seq=seat.in_count))

    async def _on_sync(self, conn: Connection, msg: Sync) -> None:
        """Re-send what the client has not received and tell it our counts (spec §5.5)."""
        seat, room = conn.seat, conn.room
        if seat is None or room is None:
            await self._error(conn, "not_in_room", "create or join a room first")
            return
        received = min(msg.received, seat.out_count)
        seat.acknowledge(received)
        if received < seat.first_buffered():
            log_event("sync_gap", room=room.serial, seat=seat.index)
            self._close_room(room, "resume_failed", CloseCode.ROOM_CLOSED, conn)
            self._detach(conn)
            await self._fail(conn, "resume_gap", CloseCode.RESUME_FAILED, "missed frames not buffered")
            return
        if conn.attached:
            for _, data in list(seat.outbox):
                await self._send(conn, data)
        seat.acked_to_client = seat.in_count
        await self._send(conn, encode("sync", accepted=seat.in_count, sent=seat.out_count))

    # -- rooms -------------------------------------------------------------------------------

    def _new_token(self) -> bytes:
        token = self._token_bytes(TOKEN_BYTES)
        if len(token) != TOKEN_BYTES:
            raise ValueError("token source returned the wrong length")
        return token

    async def _on_create(self, conn: Connection, msg: Create) -> None:
        if conn.room is not None:
            await self._error(conn, "already_in_room", "one room per connection at a time")
            return
        if conn.rooms_created >= self.limits.max_rooms_per_connection:
            await self._error(conn, "too_many_rooms", "room creation limit of this connection reached")
            return
        if len(self.registry.rooms) >= self.limits.max_rooms:
            await self._error(conn, "relay_full", "room limit reached")
            return
        code = allocate_code(self.registry.rooms, self._choose)
        if code is None:
            await self._error(conn, "relay_full", "no free room code")
            return
        now = self._clock()
        self._serials += 1
        room = Room(code, self._serials, msg.public, msg.meta, now)
        seat = Seat(0, self._new_token())
        self.registry.rooms[code] = room
        self.registry.add_seat(room, seat)
        self._attach(conn, room, seat)
        conn.rooms_created += 1
        self.metrics.rooms_created_total += 1
        log_event("room_created", conn=conn.serial, room=room.serial, public=msg.public)
        await self._send(conn, encode(
            "created", code=code, token=seat.token, seat=0, limits=self.limits.public()))

    async def _on_join(self, conn: Connection, msg: Join) -> None:
        if conn.room is not None:
            await self._error(conn, "already_in_room", "one room per connection at a time")
            return
        code = normalize_code(msg.code)
        room = self.registry.rooms.get(code) if code is not None else None
        if room is None:
            conn.bad_joins += 1
            if conn.bad_joins >= self.limits.max_bad_joins:
                await self._fail(conn, "too_many_bad_joins", CloseCode.POLICY, "too many unknown codes")
            else:
                await self._error(conn, "room_not_found", "no room has this code")
            return
        if room.paired:
            await self._error(conn, "room_full", "the room already has two peers")
            return
        seat = Seat(1, self._new_token())
        self.registry.add_seat(room, seat)
        self._attach(conn, room, seat)
        room.last_active = self._clock()
        host = room.seats[0]
        log_event("room_joined", conn=conn.serial, room=room.serial)
        await self._send(conn, encode(
            "joined", code=room.code, token=seat.token, seat=1, meta=room.meta,
            peer=self._presence(host), limits=self.limits.public(),
        ))
        await self._notify(host, encode("peer_joined"))

    async def _on_lobby(self, conn: Connection) -> None:
        now = self._clock()
        listed = [
            {"code": room.code, "meta": room.meta, "age": int(now - room.created)}
            for room in reversed(self.registry.rooms.values())
            if room.public and not room.paired and self._presence(room.seats[0]) == "present"
        ][: self.limits.lobby_max]
        await self._send(conn, encode("rooms", rooms=listed))

    async def _on_reject(self, conn: Connection) -> None:
        seat, room = conn.seat, conn.room
        if seat is None or room is None or seat.index != 0:
            await self._error(conn, "not_host", "only the host of a room can reject its peer")
            return
        joiner = room.seats[1]
        if joiner is None:
            await self._error(conn, "no_peer", "no peer to reject")
            return
        self.registry.remove_seat(room, joiner)
        seat.reset_stream()
        room.last_active = self._clock()
        log_event("peer_rejected", room=room.serial)
        gone = joiner.conn
        if gone is not None:
            self._detach(gone)
            self._close_later(gone, encode("rejected"), CloseCode.REJECTED, "rejected by host")
        await self._send(conn, encode("reopened"))

    async def _on_leave(self, conn: Connection) -> None:
        """Close the room (the peer is told); the connection stays open for the lobby or a new room."""
        room = conn.room
        if room is None:
            await self._error(conn, "not_in_room", "not in a room")
            return
        log_event("room_left", conn=conn.serial, room=room.serial)
        self._close_room(room, "left", CloseCode.ROOM_CLOSED, conn)
        self._detach(conn)
        await self._send(conn, encode("left"))

    async def _on_resume(self, conn: Connection, msg: Resume) -> None:
        if conn.room is not None:
            await self._error(conn, "already_in_room", "one room per connection at a time")
            return
        entry = self.registry.find_token(msg.token, secrets.compare_digest)
        if entry is None:
            await self._fail(conn, "resume_unknown", CloseCode.RESUME_FAILED, "no seat has this token")
            return
        room, seat = entry
        # spec/relay.md §8: a resume can start anywhere in the buffered, unacknowledged frames.
        if msg.received > seat.out_count:
            await self._fail(conn, "bad_resume", CloseCode.RESUME_FAILED, "claims more frames than sent")
            return
        if msg.received < seat.first_buffered():
            log_event("resume_gap", room=room.serial, seat=seat.index)
            self._close_room(room, "resume_failed", CloseCode.ROOM_CLOSED, None)
            await self._fail(conn, "resume_gap", CloseCode.RESUME_FAILED, "missed frames beyond the buffer")
            return
        seat.acknowledge(msg.received)
        old = seat.conn
        if old is not None:
            self._detach(old)
            self._close_later(old, None, CloseCode.REPLACED, "replaced by a resumed connection")
        self._attach(conn, room, seat, attached=False)
        seat.away_since = None
        self.metrics.resumes_total += 1
        log_event("resumed", conn=conn.serial, room=room.serial, seat=seat.index)
        seat.acked_to_client = seat.in_count
        await self._send(conn, encode(
            "resumed", code=room.code, seat=seat.index, accepted=seat.in_count,
            peer=self._presence(room.other(seat)), meta=room.meta, limits=self.limits.public(),
        ))
        # Replay until caught up; frames arriving meanwhile are buffered, never sent directly, so
        # the order holds. The final check and ``attached = True`` run without an await between.
        next_seq = msg.received
        while seat.conn is conn:
            if seat.first_buffered() > next_seq:
                self._close_room(room, "resume_failed", CloseCode.ROOM_CLOSED, None)
                await self._fail(conn, "resume_gap", CloseCode.RESUME_FAILED, "missed frames not buffered")
                return
            pending = [(seq, data) for seq, data in seat.outbox if seq >= next_seq]
            if not pending:
                conn.attached = True
                break
            for seq, data in pending:
                try:
                    await conn.ws.send(data)
                except ConnectionClosed:
                    return
                next_seq = seq + 1
        if conn.attached:
            await self._notify(room.other(seat), encode("peer_back"))

    # -- bookkeeping -------------------------------------------------------------------------

    @staticmethod
    def _presence(seat: Seat | None) -> str:
        if seat is None:
            return "none"
        return "present" if seat.conn is not None else "away"

    @staticmethod
    def _attach(conn: Connection, room: Room, seat: Seat, attached: bool = True) -> None:
        conn.room, conn.seat, conn.attached = room, seat, attached
        seat.conn = conn

    @staticmethod
    def _detach(conn: Connection) -> None:
        if conn.seat is not None and conn.seat.conn is conn:
            conn.seat.conn = None
        conn.room = conn.seat = None
        conn.attached = False

    def _on_disconnect(self, conn: Connection) -> None:
        seat, room = conn.seat, conn.room
        self._detach(conn)
        if seat is None or room is None or self.registry.rooms.get(room.code) is not room:
            return
        seat.away_since = self._clock()
        log_event("seat_away", room=room.serial, seat=seat.index)
        other = room.other(seat)
        if other is not None and other.conn is not None:
            self._spawn(self._notify(other, encode("peer_away")))

    def _close_room(self, room: Room, reason: str, code: int, leaver: Connection | None) -> None:
        """Remove the room; every member but ``leaver`` is told why and disconnected."""
        if self.registry.rooms.get(room.code) is not room:
            return
        self.registry.remove_room(room)
        log_event("room_closed", room=room.serial, reason=reason)
        notice = encode("peer_left", reason=reason) if code == CloseCode.ROOM_CLOSED else encode(
            "error", reason=reason, message="room closed")
        for seat in room.seats:
            if seat is None or seat.conn is None or seat.conn is leaver:
                continue
            member = seat.conn
            self._detach(member)
            self._close_later(member, notice, code, reason)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_interval)
            try:
                self._sweep()
            except Exception:
                self.metrics.errors["internal"] += 1
                logging.getLogger("koikoi_relay").exception("sweeper error")

    def _sweep(self) -> None:
        """Expire idle connections, idle rooms and seats away beyond the grace (spec §7)."""
        now = self._clock()
        lim = self.limits
        for conn in list(self._conns):
            if conn.room is None and now - conn.last_active > lim.idle_timeout:
                self._conns.discard(conn)
                self.metrics.errors["idle_timeout"] += 1
                self._close_later(conn, encode(
                    "error", reason="idle_timeout", message="idle connection"), CloseCode.IDLE, "idle")
        for room in list(self.registry.rooms.values()):
            if now - room.last_active > lim.room_idle_timeout:
                self.metrics.errors["room_expired"] += 1
                self._close_room(room, "room_expired", CloseCode.IDLE, None)
                continue
            for seat in room.seats:
                if seat is None:
                    continue
                away = seat.away_since
                if seat.conn is None and away is not None and now - away > lim.resume_grace:
                    self._close_room(room, "timeout", CloseCode.ROOM_CLOSED, None)
                    break
                # spec §5.5: frames unacknowledged for a whole sweep may have been lost at the tail.
                first = seat.first_buffered() if seat.outbox else -1
                if first >= 0 and first == seat.probe_mark and seat.conn is not None and seat.conn.attached:
                    probe = encode("sync", accepted=seat.in_count, sent=seat.out_count)
                    self._spawn(self._send(seat.conn, probe))
                seat.probe_mark = first

    # -- sending -----------------------------------------------------------------------------

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, conn: Connection, data: bytes) -> None:
        try:
            await conn.ws.send(data)
        except ConnectionClosed:
            pass

    async def _notify(self, seat: Seat | None, data: bytes) -> None:
        if seat is not None and seat.conn is not None and seat.conn.attached:
            await self._send(seat.conn, data)

    async def _error(self, conn: Connection, reason: str, message: str) -> None:
        """An error reply; after too many, the connection is closed (spec §6)."""
        self.metrics.errors[reason] += 1
        conn.errors += 1
        log_event("error_reply", conn=conn.serial, reason=reason)
        if conn.errors >= self.limits.max_errors:
            await self._fail(conn, "too_many_errors", CloseCode.POLICY, "too many errors")
            return
        await self._send(conn, encode("error", reason=reason, message=message))

    async def _fail(self, conn: Connection, reason: str, code: int, message: str) -> None:
        """An error reply followed by closing the connection with ``code``."""
        self.metrics.errors[reason] += 1
        log_event("closing", conn=conn.serial, reason=reason, code=code)
        self._close_later(conn, encode("error", reason=reason, message=message), code, reason)

    def _close_later(self, conn: Connection, notice: bytes | None, code: int, reason: str) -> None:
        """Close in a task; meanwhile the handler discards what the client still sends.

        Awaiting the closing handshake inside the handler would deadlock on a client with a
        backlog: its close frame sits behind messages nobody reads any more.
        """
        if conn.closing:
            return
        conn.closing = True
        conn.attached = False  # frames for its seat are only buffered now, for a resume
        self._spawn(self._close_with(conn, notice, code, reason))

    async def _close_with(self, conn: Connection, notice: bytes | None, code: int, reason: str) -> None:
        try:
            if notice is not None:
                await conn.ws.send(notice)
            await conn.ws.close(code, reason)
        except ConnectionClosed:
            pass
