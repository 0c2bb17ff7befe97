"""Every limit the relay enforces, in one value, so tests and operators can set them (spec/relay.md §7)."""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Limits:
    """Relay limits. Times are seconds; rates are per connection per second (0 = unlimited). 0 is
    also "none" for the per-source caps, the setup reads' pace, the budgets (max_buffered_bytes,
    max_redis_bytes) and the pings; the command line refuses 0 for the others that must be
    positive (koikoi_relay.main.POSITIVE, spec/relay.md §7)."""

    max_frame_bytes: int = 65536          # peer data per frame
    max_control_bytes: int = 4096         # any message that is not a frame
    max_meta_entries: int = 8
    max_messages_per_second: float = 200.0
    max_bytes_per_second: float = 1_048_576.0
    burst_seconds: float = 2.0            # token buckets hold this many seconds of rate
    max_rooms_per_connection: int = 8     # rooms one connection may create in its lifetime
    max_connections: int = 4096           # fits a 2 GiB host with the buffer budget below
    max_rooms: int = 10_000
    max_connections_per_source: int = 64  # open connections from one address (IPv6: one /64)
    max_rooms_per_source: int = 32       # live rooms created from one address
    max_bytes_per_second_per_source: float = 262_144.0  # all its connections together: beyond, they wait
    handshakes_per_second_per_source: float = 4.0  # new websocket connections of one address (0 = no rate)
    handshake_burst: int = 64             # ... of which this many may come at once (the connection cap)
    handshakes_per_second: float = 200.0  # new websocket connections of all sources, paced (0 = no pace)
    handshakes_at_once: int = 8           # ... of which this many may go at once; the rest wait in line
    handshake_max_wait: float = 4.0       # ... at most this long: beyond, HTTP 503 (handshakes_busy)
    setup_reads_per_turn: int = 4         # reads of connections not in a match per turn of the loop (0 = all)
    max_buffered_bytes: int = 268_435_456  # resume buffers of all rooms together (256 MiB)
    connection_bytes: int = 49_152        # what each open connection counts in that budget (§8.7)
    max_redis_bytes: int = 536_870_912    # a cluster's Redis used_memory: beyond, no new rooms (§13.6)
    max_errors: int = 16                  # error replies before the connection is closed
    max_bad_joins: int = 8                # joins of unknown codes before the connection is closed
    buffer_frames: int = 256              # unacknowledged frames kept per direction for resume
    buffer_bytes: int = 1_048_576         # ... and their total size
    resume_grace: float = 60.0            # how long a dropped seat stays resumable
    idle_timeout: float = 60.0            # a connection in no room, with no message
    room_idle_timeout: float = 1800.0     # a room with no frame and no control message
    ping_interval: float | None = 20.0
    ping_timeout: float | None = 20.0
    close_timeout: float = 5.0
    sweep_interval: float = 1.0           # how often expiry is checked
    lobby_max: int = 200                  # rooms listed per lobby reply
    lobby_max_bytes: int = 32_768         # ... and the size of that reply
    lobby_per_second: float = 1.0         # lobby requests per source, all its connections (0 = no own rate)
    lobby_burst: int = 5                  # ... of which this many may come at once

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if value is not None and value < 0:
                raise ValueError(f"limit {field.name} must not be negative")

    def public(self) -> dict[str, int | float]:
        """The limits a client needs to know, sent in created/joined/resumed."""
        return {
            "max_frame_bytes": self.max_frame_bytes,
            "buffer_frames": self.buffer_frames,
            "buffer_bytes": self.buffer_bytes,
            "resume_grace": self.resume_grace,
        }
