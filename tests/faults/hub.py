"""A fake relay for the fault tests: reconnectable endpoints, seeded drops, duplicates, reordering.

Each side gets a fresh endpoint from ``connect(side)``; frames from one side go to the other
side's current endpoint if there is one, else they are lost (a relay that lost its buffer).
"""

from __future__ import annotations

import asyncio
import random

from koikoi_p2p.protocol.transport import TransportClosed

_CLOSED = object()


class HubEnd:
    def __init__(self, hub: Hub, side: int) -> None:
        self.hub = hub
        self.side = side
        self.inbox: asyncio.Queue[object] = asyncio.Queue()
        self.closed = False

    async def send(self, frame: bytes) -> None:
        if self.closed:
            raise TransportClosed("closed")
        self.hub.route(self.side, frame)

    async def recv(self) -> bytes:
        if self.closed:
            raise TransportClosed("closed")
        item = await self.inbox.get()
        if item is _CLOSED:
            self.closed = True
            raise TransportClosed("cut")
        assert isinstance(item, bytes)
        return item

    async def close(self) -> None:
        self.cut()

    def cut(self) -> None:
        if not self.closed:
            self.closed = True
            self.inbox.put_nowait(_CLOSED)


class Hub:
    def __init__(self, seed: int = 0, *, drop: float = 0.0, duplicate: float = 0.0,
                 reorder: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.drop, self.duplicate, self.reorder = drop, duplicate, reorder
        self.ends: list[HubEnd | None] = [None, None]
        self.held: list[tuple[int, bytes]] = []
        self.down = False
        self.connects = [0, 0]
        self.frames = 0

    async def connect(self, side: int) -> HubEnd:
        if self.down:
            raise OSError("relay down")
        old = self.ends[side]
        if old is not None:
            old.cut()
        end = HubEnd(self, side)
        self.ends[side] = end
        self.connects[side] += 1
        return end

    def connector(self, side: int):  # type: ignore[no-untyped-def]
        async def connect() -> HubEnd:
            return await self.connect(side)
        return connect

    def _deliver(self, side: int, frame: bytes) -> None:
        end = self.ends[1 - side]
        if end is not None and not end.closed:
            end.inbox.put_nowait(frame)

    def route(self, side: int, frame: bytes) -> None:
        self.frames += 1
        rng = self.rng
        if self.drop and rng.random() < self.drop:
            return
        copies = 2 if self.duplicate and rng.random() < self.duplicate else 1
        if self.reorder and not self.held and rng.random() < self.reorder:
            self.held = [(side, frame)] * copies
            return
        for _ in range(copies):
            self._deliver(side, frame)
        held, self.held = self.held, []
        for held_side, held_frame in held:
            self._deliver(held_side, held_frame)

    def cut(self) -> None:
        """Cut both connections (the relay restarts or the network fails)."""
        for end in self.ends:
            if end is not None:
                end.cut()
        self.held = []
