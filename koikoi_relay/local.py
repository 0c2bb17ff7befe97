"""The in-process room backend: every room, seat and resume buffer in this process's memory.

This is the single-process relay (the default). A ``frame`` is numbered in its direction, buffered
in the recipient seat's outbox and written to the recipient's connection if it has one. A dropped
connection leaves its seat away for the resume grace; a ``resume`` with the seat's token
re-attaches a new connection and replays the unacknowledged frames before any new one.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING

import msgpack

from koikoi_relay.codes import allocate_code, normalize_code
from koikoi_relay.errors import CloseCode
from koikoi_relay.logs import log_event
from koikoi_relay.messages import Create, Frame, Join, Lobby, Resume, Sync, encode, encode_frame
from koikoi_relay.probes import Sweep
from koikoi_relay.rooms import SWEEP_SLICE, Rooms
from koikoi_relay.sending import send_message, send_now, writable
from koikoi_relay.state import Budget, Connection, Registry, Room, Seat

if TYPE_CHECKING:
    from koikoi_relay.server import RelayServer

ACK_EVERY = 32          # standalone acks when this many frames went unacknowledged (spec §5.4)
LOBBY_REPLY_S = 1.0     # a lobby reply is encoded again after this long (ages), or when its list changes


class LocalRooms(Rooms):
    """Rooms in a ``Registry`` in memory (spec/relay.md §5-§8)."""

    def __init__(self) -> None:
        self.registry = Registry()
        self._lobby_built: dict[str | None, float] = {}

    def attach(self, relay: RelayServer) -> None:
        super().attach(relay)
        self.registry.budget = Budget(relay.limits, relay.inbound)
        relay.inbound.squeeze = self.registry.budget.relieve

    def buffered_bytes(self) -> int:
        return self.registry.budget.total

    def room_counts(self) -> tuple[int, int]:
        rooms = self.registry.rooms.values()
        paired = sum(1 for room in rooms if room.paired)
        return len(self.registry.rooms) - paired, paired

    # -- frames ------------------------------------------------------------------------------

    async def frame(self, conn: Connection, msg: Frame) -> None:
        relay = self.relay
        seat, room = conn.seat, conn.room
        if seat is None or room is None:
            await relay.error(conn, "not_in_room", "create or join a room first")
            return
        if len(msg.data) > relay.limits.max_frame_bytes:
            limit = relay.limits.max_frame_bytes
            await relay.error(conn, "frame_too_large", f"frame data is limited to {limit} bytes")
            return
        other = room.other(seat)
        if other is None:
            await relay.error(conn, "no_peer", "no peer in the room yet")
            return
        if msg.ack is not None:
            seat.acknowledge(msg.ack)
        # spec/relay.md §5.2: seq below the next expected is a resent duplicate; above it, a gap.
        if msg.seq < seat.in_count:
            return
        if msg.seq > seat.in_count:
            if not conn.gap_reported:
                conn.gap_reported = True
                await relay.error(conn, "frame_gap", f"expected seq {seat.in_count}")
            return
        encoded, ack = self._forward(conn, seat, other, msg)
        target = other.conn
        if target is not None and target.attached:
            await send_message(target.ws, encoded)   # closed: buffered, a resume replays it
        if ack is not None:
            await relay.send(conn, ack)

    def frame_now(self, conn: Connection, msg: Frame) -> bool:
        """Forward ``msg`` at once, in the read callback that parsed it, when nothing can make it
        wait or refuse: the next frame in order, to a peer that is attached and whose connection
        (and this one's, when an ack is due) takes a write without waiting (``send_now``). False:
        nothing was done or counted; the handler takes the frame as any other. Each relay hop of a
        frame then costs one turn of the event loop instead of two, and no coroutine."""
        seat, room = conn.seat, conn.room
        if (seat is None or room is None or msg.seq != seat.in_count
                or len(msg.data) > self.relay.limits.max_frame_bytes or not self.peer_writable(conn)):
            return False
        other = room.other(seat)
        assert other is not None and other.conn is not None   # peer_writable
        target = other.conn
        if seat.in_count + 1 - seat.acked_to_client >= ACK_EVERY and not writable(conn.ws):
            return False
        if msg.ack is not None:
            seat.acknowledge(msg.ack)
        encoded, ack = self._forward(conn, seat, other, msg)
        self.relay.metrics.frames_at_once_total += 1
        relay = self.relay
        # Writable, checked above, and nothing ran since; were a write refused all the same, the
        # message goes out the long way rather than be lost.
        if not send_now(target.ws, encoded):
            relay.spawn(relay.send(target, encoded))
        if ack is not None and not send_now(conn.ws, ack):
            relay.spawn(relay.send(conn, ack))
        return True

    def peer_writable(self, conn: Connection) -> bool:
        """The connection is in a room whose other seat is attached and takes a write at once:
        looked at before a message is even parsed (RelayServer.handle_now)."""
        seat, room = conn.seat, conn.room
        if seat is None or room is None:
            return False
        other = room.other(seat)
        target = other.conn if other is not None else None
        return target is not None and target.attached and writable(target.ws)

    def _forward(self, conn: Connection, seat: Seat, other: Seat, msg: Frame) -> tuple[bytes, bytes | None]:
        """Count the frame in and buffer it for the peer (spec/relay.md §5.2, §8); what to send the
        peer, and this seat's standalone ack when one is due (§5.4)."""
        relay = self.relay
        conn.gap_reported = False
        seat.in_count += 1
        relay.metrics.frames_forwarded_total += 1
        relay.metrics.bytes_forwarded_total += len(msg.data)
        encoded = encode_frame(msg.seq, other.in_count, msg.data)
        other.push(encoded, relay.limits)
        target = other.conn
        if target is not None and target.attached:
            other.acked_to_client = other.in_count
        ack = None
        if seat.in_count - seat.acked_to_client >= ACK_EVERY:
            seat.acked_to_client = seat.in_count
            ack = encode("ack", seq=seat.in_count)
        return encoded, ack

    async def ack(self, conn: Connection, seq: int) -> None:
        if conn.seat is not None:
            conn.seat.acknowledge(seq)

    async def sync(self, conn: Connection, msg: Sync) -> None:
        """Re-send what the client has not received and tell it our counts (spec §5.5)."""
        relay = self.relay
        seat, room = conn.seat, conn.room
        if seat is None or room is None:
            await relay.error(conn, "not_in_room", "create or join a room first")
            return
        received = min(msg.received, seat.out_count)
        seat.acknowledge(received)
        if received < seat.first_buffered():
            log_event("sync_gap", room=room.serial, seat=seat.index)
            self._close_room(room, "resume_failed", CloseCode.ROOM_CLOSED, conn)
            self._detach(conn)
            await relay.fail(conn, "resume_gap", CloseCode.RESUME_FAILED, "missed frames not buffered")
            return
        if conn.attached:
            for _, data in list(seat.outbox):
                await relay.send(conn, data)
        seat.acked_to_client = seat.in_count
        await relay.send(conn, encode("sync", accepted=seat.in_count, sent=seat.out_count))

    # -- rooms -------------------------------------------------------------------------------

    async def create(self, conn: Connection, msg: Create) -> None:
        relay = self.relay
        if conn.in_room:
            await relay.error(conn, "already_in_room", "one room per connection at a time")
            return
        if conn.rooms_created >= relay.limits.max_rooms_per_connection:
            await relay.error(conn, "too_many_rooms", "room creation limit of this connection reached")
            return
        lim = relay.limits
        if len(self.registry.rooms) >= lim.max_rooms:
            await relay.error(conn, "relay_full", "room limit reached")
            return
        # spec/relay.md §7.1: rooms per source, and the budget of buffered bytes (§8.7).
        if lim.max_rooms_per_source and self.registry.rooms_of(conn.source) >= lim.max_rooms_per_source:
            await relay.error(conn, "source_rooms", "too many live rooms from this address")
            return
        if not self.registry.budget.room_for_a_room(lim.buffer_bytes):
            await relay.error(conn, "relay_busy", "the relay's buffer budget is spent; try again later")
            return
        code = allocate_code(self.registry.rooms, relay.choose)
        if code is None:
            await relay.error(conn, "relay_full", "no free room code")
            return
        now = relay.clock()
        room = Room(code, relay.next_serial(), msg.public, msg.meta, now, msg.listing, conn.source)
        seat = Seat(0, relay.new_token(), self.registry.budget)
        self.registry.add_room(room)
        self.registry.add_seat(room, seat)
        self._attach(conn, room, seat)
        self.registry.listed(room)
        conn.rooms_created += 1
        relay.metrics.rooms_created_total += 1
        log_event("room_created", conn=conn.serial, room=room.serial, public=msg.public)
        await relay.send(conn, encode(
            "created", code=code, token=seat.token, seat=0, limits=relay.limits.public()))

    async def join(self, conn: Connection, msg: Join) -> None:
        relay = self.relay
        if conn.in_room:
            await relay.error(conn, "already_in_room", "one room per connection at a time")
            return
        code = normalize_code(msg.code)
        room = self.registry.rooms.get(code) if code is not None else None
        if room is None:
            await relay.bad_join(conn)
            return
        if room.paired:
            await relay.error(conn, "room_full", "the room already has two peers")
            return
        seat = Seat(1, relay.new_token(), self.registry.budget)
        self.registry.add_seat(room, seat)
        self.registry.unlisted(room)
        self._attach(conn, room, seat)
        room.last_active = relay.clock()
        host = room.seats[0]
        log_event("room_joined", conn=conn.serial, room=room.serial)
        await relay.send(conn, encode(
            "joined", code=room.code, token=seat.token, seat=1, meta=room.meta,
            peer=self._presence(host), limits=relay.limits.public(),
        ))
        await self._notify(host, encode("peer_joined"))

    async def lobby(self, conn: Connection, msg: Lobby) -> None:
        """The listed rooms from the index, newest first, the reply encoded once and kept until the
        list changes or it is LOBBY_REPLY_S old (spec/relay.md §5): a request costs no more with
        ten thousand rooms than with ten."""
        relay = self.relay
        now = relay.clock()
        tag = msg.rejoin
        reply = self.registry.lobby_replies.get(tag)
        if reply is None or now - self._lobby_built.get(tag, now) >= LOBBY_REPLY_S:
            reply = lobby_reply(self.registry.lobby.get(tag, {}), now, relay.limits.lobby_max,
                                relay.limits.lobby_max_bytes)
            if len(self.registry.lobby_replies) >= 1024:   # tags nobody lists again: forget them
                self.registry.lobby_replies.clear()
                self._lobby_built.clear()
            self.registry.lobby_replies[tag] = reply
            self._lobby_built[tag] = now
        await relay.send(conn, reply)

    async def reject(self, conn: Connection) -> None:
        relay = self.relay
        seat, room = conn.seat, conn.room
        if seat is None or room is None or seat.index != 0:
            await relay.error(conn, "not_host", "only the host of a room can reject its peer")
            return
        joiner = room.seats[1]
        if joiner is None:
            await relay.error(conn, "no_peer", "no peer to reject")
            return
        self.registry.remove_seat(room, joiner)
        seat.reset_stream()
        self.registry.listed(room)
        room.last_active = relay.clock()
        log_event("peer_rejected", room=room.serial)
        gone = joiner.conn
        if gone is not None:
            self._detach(gone)
            relay.close_later(gone, encode("rejected"), CloseCode.REJECTED, "rejected by host")
        await relay.send(conn, encode("reopened"))

    async def leave(self, conn: Connection) -> None:
        """Close the room (the peer is told); the connection stays open for the lobby or a new room."""
        room = conn.room
        if room is None:
            await self.relay.error(conn, "not_in_room", "not in a room")
            return
        log_event("room_left", conn=conn.serial, room=room.serial)
        self._close_room(room, "left", CloseCode.ROOM_CLOSED, conn)
        self._detach(conn)
        await self.relay.send(conn, encode("left"))

    async def resume(self, conn: Connection, msg: Resume) -> None:
        relay = self.relay
        if conn.in_room:
            await relay.error(conn, "already_in_room", "one room per connection at a time")
            return
        entry = self.registry.find_token(msg.token, secrets.compare_digest)
        if entry is None:
            await relay.fail(conn, "resume_unknown", CloseCode.RESUME_FAILED, "no seat has this token")
            return
        room, seat = entry
        # spec/relay.md §8: a resume can start anywhere in the buffered, unacknowledged frames.
        if msg.received > seat.out_count:
            await relay.fail(conn, "bad_resume", CloseCode.RESUME_FAILED, "claims more frames than sent")
            return
        if msg.received < seat.first_buffered():
            log_event("resume_gap", room=room.serial, seat=seat.index)
            self._close_room(room, "resume_failed", CloseCode.ROOM_CLOSED, None)
            await relay.fail(conn, "resume_gap", CloseCode.RESUME_FAILED, "missed frames beyond the buffer")
            return
        seat.acknowledge(msg.received)
        old = seat.conn
        if old is not None:
            self._detach(old)
            relay.close_later(old, None, CloseCode.REPLACED, "replaced by a resumed connection")
        self._attach(conn, room, seat, attached=False)
        seat.away_since = None
        if seat.index == 0 and not room.paired:
            self.registry.listed(room)   # the host is back: its open room is listed again
        relay.metrics.resumes_total += 1
        log_event("resumed", conn=conn.serial, room=room.serial, seat=seat.index)
        seat.acked_to_client = seat.in_count
        await relay.send(conn, encode(
            "resumed", code=room.code, seat=seat.index, accepted=seat.in_count,
            peer=self._presence(room.other(seat)), meta=room.meta, limits=relay.limits.public(),
        ))
        # Replay until caught up; frames arriving meanwhile are buffered, never sent directly, so
        # the order holds. The final check and ``attached = True`` run without an await between.
        next_seq = msg.received
        while seat.conn is conn:
            if seat.first_buffered() > next_seq:
                self._close_room(room, "resume_failed", CloseCode.ROOM_CLOSED, None)
                await relay.fail(conn, "resume_gap", CloseCode.RESUME_FAILED, "missed frames not buffered")
                return
            pending = [(seq, data) for seq, data in seat.outbox if seq >= next_seq]
            if not pending:
                conn.attached = True
                break
            for seq, data in pending:
                if not await send_message(conn.ws, data):
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

    def disconnected(self, conn: Connection) -> None:
        seat, room = conn.seat, conn.room
        self._detach(conn)
        if seat is None or room is None or self.registry.rooms.get(room.code) is not room:
            return
        seat.away_since = self.relay.clock()
        if seat.index == 0:
            self.registry.unlisted(room)   # a lobby lists a room only while its host is connected
        log_event("seat_away", room=room.serial, seat=seat.index)
        other = room.other(seat)
        if other is not None and other.conn is not None:
            self.relay.spawn(self._notify(other, encode("peer_away")))

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
            self.relay.close_later(member, notice, code, reason)

    async def sweep(self, now: float) -> None:
        lim = self.relay.limits
        probes = Sweep()
        rooms = self.registry.rooms
        for index, room in enumerate(list(rooms.values())):
            # SWEEP_SLICE rooms at a time, the event loop free in between: in one go, a few
            # thousand rooms stopped it for 9 to 13 ms every second (the honest p99 round trip).
            if index and not index % SWEEP_SLICE:
                await asyncio.sleep(0)
            if rooms.get(room.code) is not room:
                continue   # closed meanwhile
            if now - room.last_active > lim.room_idle_timeout:
                self.relay.metrics.errors["room_expired"] += 1
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
                # The mark is the seat's acknowledgements, not its oldest buffered frame: frames the
                # budget evicted (§8.7) are no progress. (With the budget full of buffers that are
                # never acknowledged, every eviction started their back-off afresh: 128 probes a
                # second, 5 to 8 ms of the event loop each, measured under the hostile bench.)
                first = seat.client_acked if seat.outbox else -1
                conn = seat.conn
                if probes.due(seat, first, conn is not None and conn.attached) and conn is not None:
                    probe = encode("sync", accepted=seat.in_count, sent=seat.out_count)
                    self.relay.spawn(self.relay.send(conn, probe))

    async def _notify(self, seat: Seat | None, data: bytes) -> None:
        if seat is not None and seat.conn is not None and seat.conn.attached:
            await self.relay.send(seat.conn, data)


def lobby_reply(rooms: dict[str, Room], now: float, most: int, max_bytes: int) -> bytes:
    """The encoded ``rooms`` reply for the indexed rooms (oldest first in ``rooms``): newest first,
    at most ``most`` rooms and about ``max_bytes`` bytes (spec/relay.md §5, §7)."""
    listed: list[dict[str, object]] = []
    size = 16
    for room in reversed(rooms.values()):
        if len(listed) >= most:
            break
        entry: dict[str, object] = {"code": room.code, "meta": room.meta, "age": int(now - room.created),
                                    "listing": room.listing}
        size += len(msgpack.packb(entry, use_bin_type=True))
        if size > max_bytes:
            break
        listed.append(entry)
    return encode("rooms", rooms=listed)
