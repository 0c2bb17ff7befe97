"""Two connected in-memory transports, with an optional man in the middle for tests.

``memory_pair(tamper=f)`` routes every frame through ``f(direction, frame)``, which returns the
frames to deliver instead (``[]`` drops, two copies duplicate, other bytes alter or inject, and a
closure that holds frames back reorders or replays). ``direction`` is 0 for frames from the first
transport to the second and 1 for the way back. This is how the adversarial suite plays a
malicious relay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import cast

from koikoi_p2p.protocol.transport import TransportClosed

Tamper = Callable[[int, bytes], Sequence[bytes]]
_CLOSED = object()


class MemoryTransport:
    """One end of an in-memory connection (implements ``protocol.transport.Transport``)."""

    def __init__(self, direction: int, inbox: asyncio.Queue[object], tamper: Tamper | None) -> None:
        self.direction = direction
        self._inbox = inbox
        self._outbox: asyncio.Queue[object] | None = None
        self._tamper = tamper
        self._closed = False
        self.frames_sent = 0
        self.bytes_sent = 0

    def _connect(self, outbox: asyncio.Queue[object]) -> None:
        self._outbox = outbox

    async def send(self, frame: bytes) -> None:
        if self._closed or self._outbox is None:
            raise TransportClosed("the transport is closed")
        if not isinstance(frame, (bytes, bytearray)):
            raise TypeError("a frame is bytes")
        frame = bytes(frame)
        self.frames_sent += 1
        self.bytes_sent += len(frame)
        delivered = [frame] if self._tamper is None else list(self._tamper(self.direction, frame))
        for item in delivered:
            self._outbox.put_nowait(bytes(item))

    def inject(self, frame: bytes) -> None:
        """Deliver ``frame`` to the peer of this end as if this end had sent it (tests only)."""
        if self._outbox is not None:
            self._outbox.put_nowait(bytes(frame))

    async def recv(self) -> bytes:
        if self._closed:
            raise TransportClosed("the transport is closed")
        item = await self._inbox.get()
        if item is _CLOSED:
            self._closed = True
            raise TransportClosed("the peer closed the connection")
        return cast(bytes, item)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._outbox is not None:
                self._outbox.put_nowait(_CLOSED)
            self._inbox.put_nowait(_CLOSED)


def memory_pair(*, tamper: Tamper | None = None) -> tuple[MemoryTransport, MemoryTransport]:
    """Two connected transports; frames sent on one arrive in order on the other."""
    a_inbox: asyncio.Queue[object] = asyncio.Queue()
    b_inbox: asyncio.Queue[object] = asyncio.Queue()
    a = MemoryTransport(0, a_inbox, tamper)
    b = MemoryTransport(1, b_inbox, tamper)
    a._connect(b_inbox)
    b._connect(a_inbox)
    return a, b
