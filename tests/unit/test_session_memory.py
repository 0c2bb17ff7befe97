"""The in-memory transport pair and its man-in-the-middle hook."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from koikoi_p2p.net.memory import memory_pair
from koikoi_p2p.protocol.transport import Transport, TransportClosed


def test_frames_arrive_in_order_both_ways() -> None:
    async def main() -> None:
        a, b = memory_pair()
        assert isinstance(a, Transport) and isinstance(b, Transport)
        for i in range(5):
            await a.send(bytes([i]))
        await b.send(b"back")
        assert [await b.recv() for _ in range(5)] == [bytes([i]) for i in range(5)]
        assert await a.recv() == b"back"
        assert a.frames_sent == 5 and a.bytes_sent == 5

    asyncio.run(main())


def test_close_ends_both_sides() -> None:
    async def main() -> None:
        a, b = memory_pair()
        await a.send(b"last")
        await a.close()
        assert await b.recv() == b"last"         # what was sent before the close still arrives
        with pytest.raises(TransportClosed):
            await b.recv()
        with pytest.raises(TransportClosed):
            await a.recv()
        with pytest.raises(TransportClosed):
            await a.send(b"more")

    asyncio.run(main())


def test_tamper_sees_direction_and_controls_delivery() -> None:
    seen: list[tuple[int, bytes]] = []

    def tamper(direction: int, frame: bytes) -> Sequence[bytes]:
        seen.append((direction, frame))
        if frame == b"drop":
            return []
        if frame == b"twice":
            return [frame, frame]
        return [frame.upper()]

    async def main() -> None:
        a, b = memory_pair(tamper=tamper)
        for frame in (b"drop", b"twice", b"alter"):
            await a.send(frame)
        await b.send(b"x")
        assert [await b.recv() for _ in range(3)] == [b"twice", b"twice", b"ALTER"]
        assert await a.recv() == b"X"
        b.inject(b"injected")                  # reaches b's peer, a
        assert await a.recv() == b"injected"

    asyncio.run(main())
    assert seen == [(0, b"drop"), (0, b"twice"), (0, b"alter"), (1, b"x")]
