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

from koikoi_relay.gate import ReadGate
from koikoi_relay.limits import Limits
from koikoi_relay.listing import Listing
from koikoi_relay.messages import Meta
from koikoi_relay.ratelimit import TokenBucket

TOKEN_ID_BYTES = 8


class Source:
    """One address (spec/relay.md §7.1): its open connections and the rates they share."""

    __slots__ = ("bytes_bucket", "connections", "gate", "lobby_bucket")

    def __init__(self, limits: Limits, clock: Callable[[], float]) -> None:
        self.connections = 0
        self.bytes_bucket = TokenBucket(limits.max_bytes_per_second_per_source, limits.burst_seconds, clock)
        self.gate = ReadGate(self.bytes_bucket)   # charged at each read of its connections (§7.1)
        rate = limits.lobby_per_second
        self.lobby_bucket = TokenBucket(rate, limits.lobby_burst / rate if rate else 0, clock)


class Connection:
    """One websocket connection and its per-connection limits."""

    __slots__ = (
        "attached", "bad_joins", "bytes_bucket", "closing", "errors", "gap_reported", "last_active",
        "member", "messages_bucket", "origin", "room", "rooms_created", "seat", "serial", "source",
        "ws",
    )

    def __init__(self, ws: ServerConnection, serial: int, limits: Limits, clock: Callable[[], float],
                 source: str = "", origin: Source | None = None) -> None:
        self.ws = ws
        self.serial = serial
        self.source = source           # the address the connection comes from (spec/relay.md §7.1)
        self.room: Room | None = None
        self.seat: Seat | None = None
        self.member: Any = None        # the cluster backend's seat held by this connection (cluster.Member)
        self.attached = False          # False while a resumed seat's missed frames are replayed
        self.gap_reported = False      # one frame_gap error per gap, not one per later frame
        self.closing = False           # the relay is closing it: later messages are ignored
        self.last_active = clock()
        self.messages_bucket = TokenBucket(limits.max_messages_per_second, limits.burst_seconds, clock)
        self.bytes_bucket = TokenBucket(limits.max_bytes_per_second, limits.burst_seconds, clock)
        self.origin = origin if origin is not None else Source(limits, clock)   # shared by the source
        self.errors = 0
        self.bad_joins = 0
        self.rooms_created = 0

    @property
    def paired(self) -> bool:
        """Whether this connection holds a seat of a room both seats have joined: a match in play,
        whose frames the relay handles first (spec/relay.md §7.3)."""
        seat, room = self.seat, self.room
        if seat is not None and room is not None:
            return room.seats[1 - seat.index] is not None
        member = self.member
        return member is not None and bool(member.paired)

    @property
    def in_room(self) -> bool:
        """Whether this connection holds a seat (in either backend)."""
        return self.room is not None or self.member is not None


class Inbound:
    """What this process holds for its connections beyond the resume buffers (spec/relay.md §8.7):
    ``total``, bytes read from the peers and not yet handled (data frames the websocket library
    has parsed and queued for a connection's handler, and the message the handler holds);
    ``outbound``, the bytes waiting in the connections' write buffers, as last seen; and
    ``connections``, the open connections, each counted as ``connection_bytes``."""

    __slots__ = ("connection_bytes", "connections", "freed", "made", "outbound", "squeeze", "total")

    def __init__(self, connection_bytes: int = 0) -> None:
        self.total = 0
        self.outbound = 0
        self.connections = 0
        self.connection_bytes = connection_bytes
        # Called when this grew (a read, a write, a connection): over the budget, the resume
        # buffers give way (spec/relay.md §8.7; Budget.relieve); a cluster node, whose buffers are
        # in Redis, writes its bytes in flight there once they grew enough (§13.6). None: neither.
        self.squeeze: Callable[[], None] | None = None
        # Connection objects made and freed (koikoi_relay/collector.py: more made than freed than
        # open connections explain is a leak through cycles, which a full pass of the collector frees).
        self.made = 0
        self.freed = 0

    def held(self) -> int:
        """Everything this process counts in the budget but the resume buffers."""
        return self.total + self.outbound + self.connections * self.connection_bytes

    def in_flight(self) -> int:
        """Parts (b) and (d) of §8.7: the bytes passing through, which a cluster node says to the
        others (§13.6); its connections, part (c), count against its own share only."""
        return self.total + self.outbound


class Budget:
    """The bytes the relay holds for its peers, against ``max_buffered_bytes`` (spec/relay.md
    §8.7): every seat's resume buffer (``total``) plus the bytes read and not yet handled
    (``inbound``). Seats holding more than ``buffer_bytes / 8`` are the first to give frames back
    when the sum goes over the budget, longest held first; if that is not enough, the seats that
    have gone longest without an acknowledgement give all of theirs back; bytes read are never
    given back, so they squeeze the resume buffers."""

    __slots__ = ("big", "big_mark", "holding", "inbound", "limit", "total")

    def __init__(self, limits: Limits, inbound: Inbound | None = None) -> None:
        self.limit = limits.max_buffered_bytes
        self.big_mark = limits.buffer_bytes // 8
        self.total = 0
        self.inbound = inbound if inbound is not None else Inbound()
        self.big: dict[Seat, None] = {}    # an ordered set: seats above big_mark, oldest first
        # An ordered set: seats holding frames, the one that has gone longest without an
        # acknowledgement that freed a frame (or since its buffer filled from empty) first. A peer
        # that acknowledges (spec/relay.md §5.4) goes to the back each time; one that never does
        # stays at the front.
        self.holding: dict[Seat, None] = {}

    def held(self) -> int:
        """Everything the budget counts: resume buffers, bytes read but not yet handled, write
        buffers and the connections themselves."""
        return self.total + self.inbound.held()

    def over(self) -> bool:
        return self.limit > 0 and self.held() > self.limit

    def room_for_a_room(self, buffer_bytes: int) -> bool:
        """Whether a new room fits: what is held is not within two full buffers of the budget."""
        return self.limit <= 0 or self.held() + 2 * buffer_bytes <= self.limit

    def relieve(self) -> None:
        """Over the budget: shrink the big buffers to ``big_mark``, the one that grew past it first
        going first (bytes read, write buffers and connections took the sum over, §8.7); then, if
        every big buffer is at the mark and the sum is still over, empty the buffers that have gone
        longest without an acknowledgement (otherwise the sum stayed over until frames were
        acknowledged: test_over_the_budget_with_every_buffer_at_its_mark_...)."""
        while self.big and self.over():   # no big buffer (the common case): nothing to add up
            seat = next(iter(self.big))
            del self.big[seat]
            seat.shrink(self.big_mark)
        while self.holding and self.over():
            next(iter(self.holding)).shrink(0)   # leaves ``holding`` once empty (evict_oldest)


class Seat:
    """One side of a room: its resume token, its counters and the frames it has not acknowledged."""

    __slots__ = (
        "acked_to_client", "away_since", "budget", "client_acked", "conn", "in_count", "index", "out_count",
        "outbox",
        "outbox_bytes", "probe_gap", "probe_mark", "probe_wait", "token",
    )

    def __init__(self, index: int, token: bytes, budget: Budget | None = None) -> None:
        self.index = index
        self.token = token
        self.budget = budget
        self.conn: Connection | None = None
        self.away_since: float | None = None
        self.in_count = 0          # frames accepted from this seat = next seq it must send
        self.acked_to_client = 0   # the last ack the relay sent this seat for its own frames
        self.client_acked = 0      # the highest count of frames this seat has acknowledged
        self.out_count = 0         # frames forwarded to this seat = next seq it will receive
        self.outbox: deque[tuple[int, bytes]] = deque()   # (seq, encoded frame) not yet acked
        self.outbox_bytes = 0
        self.probe_mark = -1       # first buffered seq at the last sweep: no progress means probe
        self.probe_gap = 1         # ... and the back-off of those probes (koikoi_relay/probes.py)
        self.probe_wait = 0

    def reset_stream(self) -> None:
        """Forget both directions (the host's stream restarts when its joiner is rejected)."""
        self.release()
        self.in_count = self.acked_to_client = self.out_count = self.client_acked = 0

    def release(self) -> None:
        """Give every buffered byte back to the budget (the room closed or the stream restarted)."""
        if self.budget is not None:
            self.budget.total -= self.outbox_bytes
            self.budget.big.pop(self, None)
            self.budget.holding.pop(self, None)
        self.outbox_bytes = 0
        self.outbox.clear()

    def evict_oldest(self) -> None:
        _, dropped = self.outbox.popleft()
        self.outbox_bytes -= len(dropped)
        budget = self.budget
        if budget is not None:
            budget.total -= len(dropped)
            if not self.outbox:
                budget.holding.pop(self, None)

    def shrink(self, size: int) -> None:
        """Evict the oldest frames until at most ``size`` bytes stay buffered."""
        while self.outbox and self.outbox_bytes > size:
            self.evict_oldest()

    def push(self, encoded: bytes, limits: Limits) -> int:
        """Buffer the next frame for this seat, evicting the oldest beyond the bound; its seq."""
        seq = self.out_count
        self.out_count += 1
        budget = self.budget
        if budget is not None:
            budget.total += len(encoded)
            if not self.outbox:
                budget.holding[self] = None   # at the back: its buffer was empty until now
        self.outbox.append((seq, encoded))
        self.outbox_bytes += len(encoded)
        # spec/relay.md §8: at most buffer_frames frames and buffer_bytes bytes per direction.
        while self.outbox and (
            len(self.outbox) > limits.buffer_frames or self.outbox_bytes > limits.buffer_bytes
        ):
            self.evict_oldest()
        if budget is not None:
            if self.outbox_bytes > budget.big_mark:
                budget.big.setdefault(self, None)
            # spec/relay.md §8.7: all buffers together stay within max_buffered_bytes.
            if budget.over():
                budget.relieve()   # this seat is in ``holding`` too: it can give its frames back
        return seq

    def acknowledge(self, received: int) -> None:
        """The seat has every frame below ``received``: drop them from the buffer."""
        if received > self.client_acked:
            self.client_acked = received
        outbox = self.outbox
        freed = bool(outbox) and outbox[0][0] < received
        while outbox and outbox[0][0] < received:
            self.evict_oldest()
        budget = self.budget
        if budget is not None:
            if freed and outbox:   # an acknowledgement that freed a frame: to the back of the line
                budget.holding.pop(self, None)
                budget.holding[self] = None
            if self.outbox_bytes <= budget.big_mark:
                budget.big.pop(self, None)

    def first_buffered(self) -> int:
        """The lowest seq a resume can still start from."""
        return self.outbox[0][0] if self.outbox else self.out_count


class Room:
    """A room code with its two seats and its lobby entry."""

    __slots__ = ("code", "created", "last_active", "listing", "meta", "public", "seats", "serial", "source",
                 "tag")

    def __init__(self, code: str, serial: int, public: bool, meta: Meta, now: float,
                 listing: Listing | None = None, source: str = "") -> None:
        self.code = code
        self.source = source
        tag = meta.get("rejoin")
        # The lobby lists a rejoin room only to a request naming its tag (spec/relay.md §5).
        self.tag: str | None = None if "rejoin" not in meta else tag if isinstance(tag, str) else ""
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
    """Live rooms by code, seats by resume-token id, the lobby's index and the rooms per source.

    The lobby index holds, per rejoin tag (None: the public lobby), the rooms a lobby lists:
    public, without a joiner, host connected; newest last, so a reply walks only what it lists
    (spec/relay.md §5). Each tag's encoded reply is kept until that tag's list changes."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.rooms: dict[str, Room] = {}
        self.tokens: dict[bytes, tuple[Room, Seat]] = {}
        self.budget = Budget(limits or Limits())
        self.lobby: dict[str | None, dict[str, Room]] = {}
        self.lobby_replies: dict[str | None, bytes] = {}
        self.per_source: dict[str, int] = {}

    def add_room(self, room: Room) -> None:
        self.rooms[room.code] = room
        self.per_source[room.source] = self.per_source.get(room.source, 0) + 1

    def rooms_of(self, source: str) -> int:
        return self.per_source.get(source, 0)

    def listed(self, room: Room) -> None:
        """The room is open to a joiner and its host is connected: the lobby shows it (newest first)."""
        if room.public:
            entries = self.lobby.setdefault(room.tag, {})
            entries.pop(room.code, None)
            entries[room.code] = room
            self.lobby_replies.pop(room.tag, None)

    def unlisted(self, room: Room) -> None:
        entries = self.lobby.get(room.tag)
        if entries is not None and entries.pop(room.code, None) is not None:
            self.lobby_replies.pop(room.tag, None)
            if not entries:
                del self.lobby[room.tag]

    def add_seat(self, room: Room, seat: Seat) -> None:
        room.seats[seat.index] = seat
        self.tokens[seat.token[:TOKEN_ID_BYTES]] = (room, seat)

    def remove_seat(self, room: Room, seat: Seat) -> None:
        room.seats[seat.index] = None
        seat.release()
        self.tokens.pop(seat.token[:TOKEN_ID_BYTES], None)

    def remove_room(self, room: Room) -> None:
        if self.rooms.pop(room.code, None) is room:
            left = self.per_source.get(room.source, 1) - 1
            if left:
                self.per_source[room.source] = left
            else:
                self.per_source.pop(room.source, None)
        self.unlisted(room)
        for seat in room.seats:
            if seat is not None:
                seat.release()
                self.tokens.pop(seat.token[:TOKEN_ID_BYTES], None)

    def find_token(self, token: bytes, compare: Callable[[bytes, bytes], bool]) -> tuple[Room, Seat] | None:
        """The seat of a resume token: looked up by its id half, the rest compared in constant time."""
        entry = self.tokens.get(token[:TOKEN_ID_BYTES])
        if entry is None or not compare(entry[1].token, token):
            return None
        return entry
