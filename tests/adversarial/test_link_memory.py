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
from pathlib import Path
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
from koikoi_p2p.net.resumable import DriverOptions, run_peer
from koikoi_p2p.protocol.events import TimeUp
from tests.faults.hub import Hub, HubEnd
from tests.faults.resume_util import FAST_LINK, new_stores, transcript_raws

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


# --- the crash-safe driver: a person reading the terms or deciding --------------------------------

def _opts(**kw: Any) -> DriverOptions:
    return DriverOptions(resend_after_s=kw.pop("resend_after_s", 0.3), linger_s=1.0,
                         link={**FAST_LINK, **kw.pop("link", {})}, **kw)


def test_a_flood_while_the_person_reads_the_terms_is_drained_and_the_answer_has_a_deadline(
        tmp_path: Path) -> None:
    """The opponent's relay (or anyone on the path) floods the joiner, under the host's link id,
    while its person reads the terms and never answers. The driver keeps taking the frames (none
    authenticates: each is judged, dropped and acknowledged), so the link holds next to nothing;
    and the answer has the deadline of `accept` (spec/game.md §2.5, §7.1): the joiner stops as
    its own time runs out (`timed_out`, TimeUp for `accept`), and the host claims abandonment."""
    folders = new_stores(tmp_path, turn_deadline=4)
    hub = Hub(45)
    links: list[ReliableLink] = []
    asked = asyncio.Event()
    events: list[Any] = []
    peak = [0]
    emptied: list[float] = []               # when the link held nothing again

    async def never(_: Any) -> bool:
        asked.set()
        await asyncio.Event().wait()        # a person who keeps reading
        return True

    async def flood() -> None:
        await asked.wait()
        link = links[0]
        while not (link._vouched and link._live):  # the real host proved itself first
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)            # the person has been reading for a while
        assert link.peer_id is not None
        end = hub.ends[1]
        assert end is not None
        first = link._expected
        for i in range(150):                # 9 MB of frames the host never sent
            end.inbox.put_nowait(_data(link.peer_id, link.link_id, first + i, FRAME))
            peak[0] = max(peak[0], link.buffered_bytes)
            await asyncio.sleep(0.004)
        while True:
            peak[0] = max(peak[0], link.buffered_bytes)
            if link.buffered_bytes == 0 and not emptied:
                emptied.append(asyncio.get_running_loop().time())
            await asyncio.sleep(0.002)

    async def both() -> list[Any]:
        watcher = asyncio.create_task(flood())
        try:
            return list(await asyncio.gather(
                run_peer(folders[0], hub.connector(0), options=_opts()),
                run_peer(folders[1], hub.connector(1), options=_opts(watch=links.append), ask_terms=never,
                         on_event=lambda event, _: events.append(event))))
        finally:
            watcher.cancel()
            await asyncio.gather(watcher, return_exceptions=True)

    host, guest = asyncio.run(asyncio.wait_for(both(), 40))
    link = links[0]
    assert guest.status == "timed_out" and guest.absent == 1, guest
    assert "accept" in guest.reason
    assert any(isinstance(event, TimeUp) and event.expected == "accept" for event in events)
    assert host.status == "abandoned" and host.absent == 1, host
    # The host's keys, sent with its terms, were taken while the person read: both accounts name
    # the same message.
    assert guest.messages == host.messages, (guest, host)
    # The flood was taken and judged while the person read (what came faster than that was
    # refused: not kept, not acknowledged); the link never held more than its bounds and was
    # empty again before the person's time ran out.
    assert link.stats.rejected >= 100, link.stats
    assert guest.dropped == link.stats.rejected
    assert peak[0] <= QUEUE_BYTES + EARLY_BYTES, peak[0]
    assert emptied


def test_an_honest_match_completes_under_tight_bounds_with_a_slow_person(tmp_path: Path) -> None:
    """Bounds far below a deck message: every second frame that arrives while one waits is
    refused and re-sent later. A person who takes a while on every decision (the driver drains
    meanwhile) and both seats still finish, with the same transcript."""
    folders = new_stores(tmp_path)
    hub = Hub(46, drop=0.05, reorder=0.1)
    links: list[ReliableLink] = []
    tight = {"queue_bytes": 1, "early_bytes": 0}

    async def slow(event: Any) -> Any:
        await asyncio.sleep(0.08)
        return event.options[0]

    async def both() -> list[Any]:
        return list(await asyncio.gather(
            run_peer(folders[0], hub.connector(0), options=_opts(link=tight, watch=links.append), ask=slow),
            run_peer(folders[1], hub.connector(1), options=_opts(link=tight, watch=links.append))))

    host, guest = asyncio.run(asyncio.wait_for(both(), 120))
    assert host.status == guest.status == "completed", (host, guest)
    assert transcript_raws(host.file) == transcript_raws(guest.file)
    assert sum(link.stats.refused for link in links) > 0, [link.stats for link in links]
