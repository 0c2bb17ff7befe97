"""Rooms, seats and connections: what the relay remembers (spec/relay.md §5, §8).

A room has two seats: 0 (the host who created it) and 1 (the joiner). A seat outlives its websocket
connection for the resume grace period. Frames are numbered per direction from 0; the frames sent
to a seat stay in its bounded ``outbox`` until the seat acknowledges them, so a resumed seat gets
exactly the frames it missed, in order, none twice.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import ServerConnection

from koikoi_relay.limits import Limits
from koikoi_relay.listing import Listing
from koikoi_relay.messages import Meta
from koikoi_relay.ratelimit import TokenBucket

TOKEN_ID_BYTES = 8


class Connection:
    """One websocket connection and its per-connection limits."""

    __slots__ = (
        "attached", "bad_joins", "bytes_bucket", "closing", "errors", "gap_reported", "last_active",
        "member", "messages_bucket", "room", "rooms_created", "seat", "serial", "ws",
    )

    def __init__(self, ws: ServerConnection, serial: int, limits: Limits, clock: Callable[[], float]) -> None:
        self.ws = ws
        self.serial = serial
        self.room: Room | None = None
        self.seat: Seat | None = None
        self.member: Any = None        # the cluster backend's seat held by this connection (cluster.Member)
        self.attached = False          # False while a resumed seat's missed frames are replayed
        self.gap_reported = False      # one frame_gap error per gap, not one per later frame
        self.closing = False           # the relay is closing it: later messages are ignored
        self.last_active = clock()
        self.messages_bucket = TokenBucket(limits.max_messages_per_second, limits.burst_seconds, clock)
        self.bytes_bucket = TokenBucket(limits.max_bytes_per_second, limits.burst_seconds, clock)
        self.errors = 0
        self.bad_joins = 0
        self.rooms_created = 0

    @property
    def in_room(self) -> bool:
        """Whether this connection holds a seat (in either backend)."""
        return self.room is not None or self.member is not None


class Seat:
    """One side of a room: its resume token, its counters and the frames it has not acknowledged."""

    __slots__ = (
        "acked_to_client", "away_since", "conn", "in_count", "index", "out_count", "outbox",
        "outbox_bytes", "probe_mark", "token",
    )

    def __init__(self, index: int, token: bytes) -> None:
        self.index = index
        self.token = token
        self.conn: Connection | None = None
        self.away_since: float | None = None
        self.in_count = 0          # frames accepted from this seat = next seq it must send
        self.acked_to_client = 0   # the last ack the relay sent this seat for its own frames
        self.out_count = 0         # frames forwarded to this seat = next seq it will receive
        self.outbox: deque[tuple[int, bytes]] = deque()   # (seq, encoded frame) not yet acked
        self.outbox_bytes = 0
        self.probe_mark = -1       # first buffered seq at the last sweep: no progress means probe

    def reset_stream(self) -> None:
        """Forget both directions (the host's stream restarts when its joiner is rejected)."""
        self.in_count = self.acked_to_client = self.out_count = self.outbox_bytes = 0
        self.outbox.clear()

    def push(self, encoded: bytes, limits: Limits) -> int:
        """Buffer the next frame for this seat, evicting the oldest beyond the bound; its seq."""
        seq = self.out_count
        self.out_count += 1
        self.outbox.append((seq, encoded))
        self.outbox_bytes += len(encoded)
        # spec/relay.md §8: at most buffer_frames frames and buffer_bytes bytes per direction.
        while self.outbox and (
            len(self.outbox) > limits.buffer_frames or self.outbox_bytes > limits.buffer_bytes
        ):
            _, dropped = self.outbox.popleft()
            self.outbox_bytes -= len(dropped)
        return seq

    def acknowledge(self, received: int) -> None:
        """The seat has every frame below ``received``: drop them from the buffer."""
        outbox = self.outbox
        while outbox and outbox[0][0] < received:
            _, dropped = outbox.popleft()
            self.outbox_bytes -= len(dropped)

    def first_buffered(self) -> int:
        """The lowest seq a resume can still start from."""
        return self.outbox[0][0] if self.outbox else self.out_count


class Room:
    """A room code with its two seats and its lobby entry."""

    __slots__ = ("code", "created", "last_active", "listing", "meta", "public", "seats", "serial")

    def __init__(self, code: str, serial: int, public: bool, meta: Meta, now: float,
                 listing: Listing | None = None) -> None:
        self.code = code
        self.serial = serial
        self.public = public
        self.meta = meta
        self.listing = listing
        self.created = now
        self.last_active = now
        self.seats: list[Seat | None] = [None, None]

    @property
    def paired(self) -> bool:
        return self.seats[1] is not None

    def other(self, seat: Seat) -> Seat | None:
        return self.seats[1 - seat.index]


class Registry:
    """Live rooms by code and seats by resume-token id."""

    def __init__(self) -> None:
        self.rooms: dict[str, Room] = {}
        self.tokens: dict[bytes, tuple[Room, Seat]] = {}

    def add_seat(self, room: Room, seat: Seat) -> None:
        room.seats[seat.index] = seat
        self.tokens[seat.token[:TOKEN_ID_BYTES]] = (room, seat)

    def remove_seat(self, room: Room, seat: Seat) -> None:
        room.seats[seat.index] = None
        self.tokens.pop(seat.token[:TOKEN_ID_BYTES], None)

    def remove_room(self, room: Room) -> None:
        self.rooms.pop(room.code, None)
        for seat in room.seats:
            if seat is not None:
                self.tokens.pop(seat.token[:TOKEN_ID_BYTES], None)

    def find_token(self, token: bytes, compare: Callable[[bytes, bytes], bool]) -> tuple[Room, Seat] | None:
        """The seat of a resume token: looked up by its id half, the rest compared in constant time."""
        entry = self.tokens.get(token[:TOKEN_ID_BYTES])
        if entry is None or not compare(entry[1].token, token):
            return None
        return entry
