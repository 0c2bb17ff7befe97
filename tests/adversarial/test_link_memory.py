"""A peer's link memory is bounded in bytes (spec/protocol.md §12.1 rule 3).

Before the bounds a stranger in the room (or the opponent, or the relay) could make a seat hold
4096 early DATA frames of up to a relay frame each per pairing, and the delivery queue grew
without limit while nobody read it (a person reading the terms or deciding). Now early frames
and the delivery queue are each bounded in bytes, and a frame that fits neither is not kept and
not acknowledged: the flood costs the bounds, and an honest sender re-sends what was refused, so
a slow reader loses nothing. What the link holds is read through ``buffered_bytes``, not RSS.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Coroutine
from typing import Any

from koikoi_p2p.net.reliable import (
    ACK,
    DATA,
    EARLY_BYTES,
    QUEUE_BYTES,
    LinkFrame,
    ReliableLink,
    decode_link_frame,
    encode_link_frame,
)
from tests.faults.hub import Hub, HubEnd

FAST = {"retransmit_s": 0.02, "max_retransmit_s": 0.1, "reconnect_min_s": 0.005, "reconnect_max_s": 0.05}
FRAME = 60_000          # about a relay frame (the relay's max_frame_bytes is 65,536)


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 60))


async def _victim(hub: Hub) -> tuple[ReliableLink, HubEnd]:
    """A seat's link (side 0) and the raw end of whoever sits on side 1 (a stranger here)."""
    link = ReliableLink(hub.connector(0), **FAST)  # type: ignore[arg-type]
    end = await hub.connect(1)
    await link.start()
    while link.link_id is None or hub.ends[0] is None:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)               # the link's HELLO has gone out
    return link, end


def _data(sender: bytes, to: bytes, n: int, size: int) -> bytes:
    return encode_link_frame(LinkFrame(DATA, sender, to, n, os.urandom(8) + bytes(size - 8)))


async def _acks(end: HubEnd) -> list[int]:
    """Every ACK the victim sent so far (its ``next`` values)."""
    got: list[int] = []
    while not end.inbox.empty():
        item = end.inbox.get_nowait()
        frame = decode_link_frame(item) if isinstance(item, bytes) else None
        if frame is not None and frame.kind == ACK:
            got.append(frame.count)
    return got


def test_a_stranger_cannot_fill_the_early_frames() -> None:
    async def body() -> None:
        hub = Hub(41)
        link, end = await _victim(hub)
        stranger = os.urandom(8)
        # 4096 early frames of a relay frame each: 240 MB held before the bound, per pairing.
        # Only the first ones are sent in full size here (enough to pass any bound many times).
        for n in range(1, 401):
            await end.send(_data(stranger, link.link_id, n, FRAME))
            if n % 50 == 0:
                await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        assert link.early_bytes <= EARLY_BYTES, link.early_bytes
        assert link.buffered_bytes <= EARLY_BYTES
        assert link.stats.refused > 0
        # Nothing was delivered, so nothing was acknowledged.
        assert set(await _acks(end)) <= {0}
        await link.close()

    run(body())


def test_nobody_reading_does_not_grow_the_delivery_queue() -> None:
    async def body() -> None:
        hub = Hub(42)
        link, end = await _victim(hub)
        sender = os.urandom(8)
        # In order this time: before the bound every frame went to the delivery queue, which had
        # no limit while the caller did not read (a person deciding).
        for n in range(400):
            await end.send(_data(sender, link.link_id, n, FRAME))
            if n % 50 == 0:
                await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        assert link.queued_bytes <= QUEUE_BYTES, link.queued_bytes
        assert link.early_bytes <= EARLY_BYTES, link.early_bytes
        assert link.buffered_bytes <= QUEUE_BYTES + EARLY_BYTES
        held = link.backlog
        assert 0 < held < 400
        # The ACKs cover exactly what was delivered: the sender must re-send the rest.
        acks = await _acks(end)
        assert max(acks) == held, (max(acks), held)
        # Reading makes room, and what waited early moves on in order.
        for _ in range(held):
            await link.recv()
        assert link.queued_bytes > 0 or link.early_bytes == 0
        await link.close()

    run(body())


def test_a_slow_reader_loses_nothing_under_tight_bounds() -> None:
    async def body() -> None:
        hub = Hub(43, drop=0.05, reorder=0.1)
        bounds = {"early_bytes": 3 * 20_000, "queue_bytes": 2 * 20_000}
        a = ReliableLink(hub.connector(0), **FAST, **bounds)  # type: ignore[arg-type]
        b = ReliableLink(hub.connector(1), **FAST, **bounds)  # type: ignore[arg-type]
        await a.start()
        await b.start()
        sent = [bytes([i % 256]) * 20_000 for i in range(120)]
        for frame in sent:
            await a.send(frame)             # all at once: far more than b will hold
        got: list[bytes] = []
        peak = 0
        while len(got) < len(sent):
            peak = max(peak, b.buffered_bytes)
            got.append(await b.recv())
            await asyncio.sleep(0.005)      # a slow reader
            peak = max(peak, b.buffered_bytes)
        assert got == sent                  # every frame once, in order
        assert peak <= bounds["early_bytes"] + bounds["queue_bytes"], peak
        assert b.stats.refused > 0          # back-pressure did happen
        while a.unacknowledged:
            await asyncio.sleep(0.01)       # and the sender saw everything acknowledged
        await a.close()
        await b.close()

    run(body())


def test_a_frame_larger_than_the_queue_bound_still_goes_through() -> None:
    async def body() -> None:
        hub = Hub(44)
        a = ReliableLink(hub.connector(0), **FAST)  # type: ignore[arg-type]
        b = ReliableLink(hub.connector(1), **FAST, queue_bytes=1000, early_bytes=0)  # type: ignore[arg-type]
        await a.start()
        await b.start()
        for i in range(3):
            await a.send(bytes([i]) * 5000)
        assert [await b.recv() for _ in range(3)] == [bytes([i]) * 5000 for i in range(3)]
        await a.close()
        await b.close()

    run(body())
