"""Where rooms live: the interface between the connection layer and a room backend.

The relay's connection layer (``server.RelayServer``) owns websockets, parsing, per-connection
limits, error counting and closing. Everything about rooms, seats, frame numbers and the resume
buffer sits behind ``Rooms``, which has two implementations:

- ``local.LocalRooms``: the single process, every room in memory (the default; nothing to install);
- ``cluster.RedisRooms``: one node of a cluster whose rooms, seats, tokens, lobby and frame streams
  live in Redis (spec/relay.md §13), so the peers of a room may sit on different processes.

Both give the peers the same protocol (spec/relay.md §4-§8); a backend answers each client message
through the server's ``send``/``error``/``fail``/``close_later`` helpers.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from koikoi_relay.messages import Create, Frame, Join, Lobby, Resume, Sync

if TYPE_CHECKING:
    from koikoi_relay.server import RelayServer
    from koikoi_relay.state import Connection

# What the sweeper looks at (connections, rooms, seats) before it lets the event loop run again.
SWEEP_SLICE = 256


class Rooms(ABC):
    """A room backend. ``attach`` is called once by the server before it starts serving."""

    relay: RelayServer
    seats_survive_shutdown = False   # True: on SIGTERM seats are closed as resumable (1012), not 1001

    def attach(self, relay: RelayServer) -> None:
        self.relay = relay

    async def start(self) -> None:  # noqa: B027 - optional hook, nothing to do by default
        """Connect to whatever the backend needs (nothing for the in-process one)."""

    async def stop(self) -> None:  # noqa: B027 - optional hook, nothing to do by default
        """Release it; the server has closed every connection already."""

    def health(self) -> tuple[bool, str]:
        """Whether the backend can serve rooms, and one line for ``/healthz``."""
        return True, "ok"

    def metrics_lines(self) -> list[str]:
        """Extra Prometheus lines for ``/metrics``."""
        return []

    def buffered_bytes(self) -> int:
        """Bytes held in resume buffers (for the gauge and the hostile-load bench)."""
        return 0

    @abstractmethod
    def room_counts(self) -> tuple[int, int]:
        """Open and paired rooms (for the gauges)."""

    @abstractmethod
    async def create(self, conn: Connection, msg: Create) -> None: ...

    @abstractmethod
    async def join(self, conn: Connection, msg: Join) -> None: ...

    @abstractmethod
    async def lobby(self, conn: Connection, msg: Lobby) -> None: ...

    @abstractmethod
    async def resume(self, conn: Connection, msg: Resume) -> None: ...

    @abstractmethod
    async def frame(self, conn: Connection, msg: Frame) -> None: ...

    @abstractmethod
    async def ack(self, conn: Connection, seq: int) -> None: ...

    @abstractmethod
    async def sync(self, conn: Connection, msg: Sync) -> None: ...

    @abstractmethod
    async def reject(self, conn: Connection) -> None: ...

    @abstractmethod
    async def leave(self, conn: Connection) -> None: ...

    @abstractmethod
    def disconnected(self, conn: Connection) -> None:
        """The connection is gone: its seat (if any) is away now (spec/relay.md §8)."""

    @abstractmethod
    async def sweep(self, now: float) -> None:
        """Expire idle rooms and seats away beyond the grace; probe stalled streams (spec §7). A
        long sweep lets the event loop run between slices (SWEEP_SLICE)."""
