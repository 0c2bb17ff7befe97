"""The reliable link delivers every frame once, in order, through drops, cuts and restarts."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koikoi_p2p.net.reliable import (
    ACK,
    DATA,
    HELLO,
    LinkClosed,
    LinkFrame,
    ReliableLink,
    decode_link_frame,
    encode_link_frame,
)
from tests.faults.hub import Hub

FAST = {"retransmit_s": 0.02, "max_retransmit_s": 0.1, "reconnect_min_s": 0.005, "reconnect_max_s": 0.05}


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 30))


async def pair(hub: Hub, **kw: Any) -> tuple[ReliableLink, ReliableLink]:
    a = ReliableLink(hub.connector(0), **{**FAST, **kw})
    b = ReliableLink(hub.connector(1), **{**FAST, **kw})
    await a.start()
    await b.start()
    return a, b


async def exchange(a: ReliableLink, b: ReliableLink, n: int, hub: Hub | None = None,
                   cut_every: int = 0) -> None:
    """Send n frames each way at once; both sides must receive exactly them, in order."""
    sent_a = [b"a%d" % i for i in range(n)]
    sent_b = [b"b%d" % i for i in range(n)]

    async def produce(link: ReliableLink, frames: list[bytes]) -> None:
        for i, frame in enumerate(frames):
            await link.send(frame)
            if hub is not None and cut_every and i % cut_every == cut_every - 1:
                hub.cut()
            await asyncio.sleep(0)

    async def consume(link: ReliableLink) -> list[bytes]:
        return [await link.recv() for _ in range(n)]

    _, _, got_b, got_a = await asyncio.gather(produce(a, sent_a), produce(b, sent_b), consume(b), consume(a))
    assert got_b == sent_a
    assert got_a == sent_b
    # Nothing more arrives afterwards: no frame is repeated later either.
    await asyncio.sleep(0.1)
    assert a._inbox.empty() and b._inbox.empty()


def test_lossless() -> None:
    async def body() -> None:
        hub = Hub()
        a, b = await pair(hub)
        await exchange(a, b, 200)
        assert a.stats.retransmitted == 0
        await a.close()
        await b.close()

    run(body())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_drops_duplicates_reordering(seed: int) -> None:
    async def body() -> None:
        hub = Hub(seed, drop=0.2, duplicate=0.2, reorder=0.2)
        a, b = await pair(hub)
        await exchange(a, b, 150)
        assert a.stats.retransmitted + b.stats.retransmitted > 0
        assert a.stats.duplicates + b.stats.duplicates > 0
        await a.close()
        await b.close()

    run(body())


def test_cuts_reconnect_and_resend() -> None:
    async def body() -> None:
        hub = Hub(5, drop=0.05)
        a, b = await pair(hub)
        await exchange(a, b, 120, hub=hub, cut_every=17)
        assert a.stats.reconnects >= 3 and b.stats.reconnects >= 3
        await a.close()
        await b.close()

    run(body())


def test_relay_down_for_a_while() -> None:
    async def body() -> None:
        hub = Hub(6)
        a, b = await pair(hub)
        await exchange(a, b, 5)
        hub.down = True
        hub.cut()
        for i in range(5):
            await a.send(b"while down %d" % i)
        await asyncio.sleep(0.2)
        hub.down = False
        got = [await asyncio.wait_for(b.recv(), 5) for _ in range(5)]
        assert got == [b"while down %d" % i for i in range(5)]
        await a.close()
        await b.close()

    run(body())


def test_peer_restart_resets_the_pairing_and_ignores_the_old_incarnation() -> None:
    async def body() -> None:
        hub = Hub(7)
        resets: list[int] = []
        a = ReliableLink(hub.connector(0), **FAST)  # type: ignore[arg-type]
        b = ReliableLink(hub.connector(1), on_reset=lambda: resets.append(1), **FAST)  # type: ignore[arg-type]
        await a.start()
        await b.start()
        await exchange(a, b, 10)
        old_id = a.link_id
        # "kill -9" a: its tasks stop, nothing is closed politely.
        for task in a._tasks:
            task.cancel()
        await b.send(b"lost with the crash?")
        a2 = ReliableLink(hub.connector(0), **FAST)  # type: ignore[arg-type]
        await a2.start()
        await asyncio.sleep(0.2)
        assert resets == [1]
        assert b.peer_id == a2.link_id and b.stats.resets == 1
        # b's driver re-sends from its own records on reset; the link cleared its old queue.
        assert b.unacknowledged == 0
        await b.send(b"after restart")
        assert await asyncio.wait_for(a2.recv(), 5) == b"after restart"
        # A stale frame from the old incarnation is ignored.
        stale = encode_link_frame(LinkFrame(DATA, old_id, b.link_id, 10, b"ghost"))
        b._handle(stale)
        assert b.stats.stale >= 1 and b._inbox.empty()
        await a2.send(b"hi from a2")
        assert await asyncio.wait_for(b.recv(), 5) == b"hi from a2"
        await a2.close()
        await b.close()

    run(body())


def test_gives_up_after_the_bound() -> None:
    async def body() -> None:
        hub = Hub()
        a, b = await pair(hub, give_up_s=0.2)
        await exchange(a, b, 3)
        hub.down = True
        hub.cut()
        with pytest.raises(LinkClosed) as info:
            await asyncio.wait_for(a.recv(), 5)
        assert info.value.reason == "unreachable"
        with pytest.raises(LinkClosed):
            await a.send(b"x")
        await a.close()
        await b.close()

    run(body())


def test_close_wakes_a_receiver() -> None:
    async def body() -> None:
        hub = Hub()
        a, b = await pair(hub)
        waiter = asyncio.create_task(a.recv())
        await asyncio.sleep(0.01)
        await a.close()
        with pytest.raises(LinkClosed) as info:
            await waiter
        assert info.value.reason == "closed"
        await b.close()

    run(body())


def test_garbage_from_the_relay_is_ignored() -> None:
    async def body() -> None:
        hub = Hub()
        a, b = await pair(hub)
        await exchange(a, b, 3)
        unaddressed = b"\x02" + a.link_id + bytes(8) + b"\x00\x00\x00\x01x"
        for junk in (b"", b"\x02", b"\x09" + bytes(16), unaddressed):
            b._handle(junk)
        assert b.stats.malformed == 4
        await exchange(a, b, 3)
        await a.close()
        await b.close()

    run(body())


@given(st.binary(max_size=64))
def test_link_frame_decoder_never_raises(raw: bytes) -> None:
    frame = decode_link_frame(raw)
    if frame is not None:
        assert encode_link_frame(frame) == raw


ids = st.binary(min_size=8, max_size=8).filter(lambda b: b != bytes(8))


@given(st.sampled_from([HELLO, DATA, ACK]), ids, ids, st.integers(0, 2**32 - 1), st.binary(max_size=50))
def test_link_frame_round_trip(kind: int, sender: bytes, to: bytes, count: int, payload: bytes) -> None:
    body = payload if kind == DATA else (payload + bytes(16))[:16] if kind == HELLO else b""
    frame = LinkFrame(kind, sender, to, 0 if kind == HELLO else count, body)
    assert decode_link_frame(encode_link_frame(frame)) == frame


def test_a_silent_peer_makes_the_link_pair_again() -> None:
    """A peer that crashed without closing anything (the relay keeps its seat) is noticed."""

    async def body() -> None:
        hub = Hub(10)
        a, b = await pair(hub, dead_after_s=0.3)
        await exchange(a, b, 3)
        for task in b._tasks:  # b freezes: no close, no frame, nothing
            task.cancel()
        await asyncio.sleep(0.8)
        assert a.stats.dead >= 1 and hub.connects[0] >= 2
        b2 = ReliableLink(hub.connector(1), dead_after_s=0.3, **FAST)  # type: ignore[arg-type]
        await b2.start()
        await a.send(b"still there?")
        assert await asyncio.wait_for(b2.recv(), 5) == b"still there?"
        await a.close()
        await b2.close()

    run(body())


def test_keepalive_keeps_a_quiet_link_up() -> None:
    async def body() -> None:
        hub = Hub(11)
        a, b = await pair(hub, dead_after_s=0.3)
        await exchange(a, b, 2)
        await asyncio.sleep(1.0)  # nothing to say for a while: pings keep both sides alive
        assert a.stats.dead == 0 and b.stats.dead == 0
        assert hub.connects == [1, 1]
        await a.close()
        await b.close()

    run(body())


def test_confirm_mode_acknowledges_only_what_was_kept() -> None:
    async def body() -> None:
        hub = Hub(12)
        a = ReliableLink(hub.connector(0), **FAST)  # type: ignore[arg-type]
        b = ReliableLink(hub.connector(1), confirm=True, **FAST)  # type: ignore[arg-type]
        await a.start()
        await b.start()
        await a.send(b"keep me")
        assert await asyncio.wait_for(b.recv(), 5) == b"keep me"
        await asyncio.sleep(0.2)
        assert a.unacknowledged == 1            # arrived, not yet kept: a keeps re-sending
        assert a.stats.retransmitted >= 1
        b.confirm()
        await asyncio.sleep(0.1)
        assert a.unacknowledged == 0
        assert b._inbox.empty()                 # the re-sent copies were duplicates, not delivered
        await a.close()
        await b.close()

    run(body())


def test_confirm_counts_each_frame_under_the_pairing_it_was_taken_in() -> None:
    """A frame taken from a peer's earlier incarnation and confirmed late (with the first frame of
    the restarted peer, as the driver confirms after its next save) must not count towards the new
    pairing: the ACK would cover a frame still unread in the inbox (spec/protocol.md §12.1 rule 3)."""

    async def body() -> None:
        hub = Hub(14)
        a = ReliableLink(hub.connector(0), **FAST)  # type: ignore[arg-type]
        b = ReliableLink(hub.connector(1), confirm=True, on_reset=lambda: None, **FAST)  # type: ignore[arg-type]
        await a.start()
        await b.start()
        await a.send(b"from the old incarnation")
        assert await asyncio.wait_for(b.recv(), 5) == b"from the old incarnation"  # taken, not confirmed
        for task in a._tasks:                   # kill -9
            task.cancel()
        a2 = ReliableLink(hub.connector(0), **FAST)  # type: ignore[arg-type]
        await a2.start()
        await a2.send(b"x1")
        await a2.send(b"x2")
        assert await asyncio.wait_for(b.recv(), 5) == b"x1"
        for _ in range(60):                     # x2 arrived too (it waits in the inbox, unread)
            if b._queued_bytes:
                break
            await asyncio.sleep(0.05)
        b.confirm()                             # the old frame: another pairing, no ACK
        b.confirm()                             # x1
        await asyncio.sleep(0.2)
        assert a2.unacknowledged == 1           # x2 is not acknowledged: it was never kept
        assert await asyncio.wait_for(b.recv(), 5) == b"x2"
        b.confirm()
        await asyncio.sleep(0.2)
        assert a2.unacknowledged == 0
        await a2.close()
        await b.close()

    run(body())


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), drop=st.floats(0, 0.3), duplicate=st.floats(0, 0.3),
       reorder=st.floats(0, 0.3), n=st.integers(1, 25), cut_every=st.sampled_from([0, 5, 11]))
def test_property_every_frame_once_in_order(seed: int, drop: float, duplicate: float, reorder: float, n: int,
                                            cut_every: int) -> None:
    async def body() -> None:
        hub = Hub(seed, drop=drop, duplicate=duplicate, reorder=reorder)
        a, b = await pair(hub)
        await exchange(a, b, n, hub=hub, cut_every=cut_every)
        await a.close()
        await b.close()

    run(body())


def test_our_own_stall_is_not_the_peers_silence() -> None:
    """A process that could not run for longer than the keepalive bound (a long computation on a
    loaded machine) must not take the peer for dead: its frames may wait unread."""

    async def body() -> None:
        hub = Hub(13)
        a, b = await pair(hub, dead_after_s=0.3)
        await exchange(a, b, 2)
        time.sleep(0.8)          # the whole event loop is blocked: neither side hears anything
        await asyncio.sleep(0.2)
        assert a.stats.dead == 0 and b.stats.dead == 0, (a.stats, b.stats)
        assert hub.connects == [1, 1]
        await a.close()
        await b.close()

    run(body())


def test_a_seat_the_relay_shows_away_makes_the_link_pair_again() -> None:
    """spec/protocol.md §12.1 rule 5: a relay client's transport that shows the other seat away for
    ``away_after_s`` (its process died with its resume token, as a killed `koikoi` or a reloaded
    page) makes the link pair again without waiting for the keepalive bound; a seat that comes
    back in time keeps the connection."""

    async def body() -> None:
        hub = Hub(12)
        a, b = await pair(hub, away_after_s=0.3)
        await exchange(a, b, 2)
        transport: Any = a._transport
        transport.peer = "away"                      # what a relay client says after peer_away
        await asyncio.sleep(0.15)
        transport.peer = "present"                   # peer_back in time
        await asyncio.sleep(0.5)
        assert hub.connects[0] == 1 and a.stats.dead == 0
        transport.peer = "away"
        for _ in range(100):                         # our own stalls under load do not count
            await asyncio.sleep(0.05)
            if hub.connects[0] >= 2:
                break
        assert hub.connects[0] >= 2 and a.stats.dead >= 1
        await a.send(b"after pairing again")
        assert await asyncio.wait_for(b.recv(), 5) == b"after pairing again"
        await a.close()
        await b.close()

    run(body())
