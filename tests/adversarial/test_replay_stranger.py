"""A stranger that replays a genuine frame of the host to the joiner (spec/protocol.md §12.2 item 4).

The stranger once sat in a room with the host and holds one of its frames; it now holds the
joiner in a room of its own and replays that frame under a link id of its own. The frame still
authenticates (a repeat of a frame the joiner took), so before the fix the joiner's link counted
the stranger's pairing as vouched and its connection as live: it took the stranger's ACKs
(forgetting frames the host never got) and retired the host's id, so the two seats never met
again. Once the session exists only a proof for this connection's challenge, under a key of the
session, counts: the replay is delivered (the channel above ignores the duplicate) and proves
nothing, and the joiner pairs with the host again when it meets it.
"""

from __future__ import annotations

import asyncio
import os

from koikoi_p2p.net.reliable import (
    ACK,
    DATA,
    HELLO,
    LinkFrame,
    ReliableLink,
    decode_link_frame,
    encode_link_frame,
)
from koikoi_p2p.protocol.transport import TransportClosed

FAST = {"retransmit_s": 0.02, "max_retransmit_s": 0.1, "reconnect_min_s": 0.005, "reconnect_max_s": 0.05,
        "give_up_s": None, "vouching": True}
KEY = bytes(range(32))


class End:
    """One end of an in-memory pipe (a relay room with two seats)."""

    def __init__(self, inbox: asyncio.Queue[bytes | None], outbox: asyncio.Queue[bytes | None]) -> None:
        self.inbox, self.outbox, self.closed = inbox, outbox, False

    async def send(self, frame: bytes) -> None:
        if self.closed:
            raise TransportClosed("closed")
        self.outbox.put_nowait(frame)

    async def recv(self) -> bytes:
        item = await self.inbox.get()
        if item is None or self.closed:
            self.inbox.put_nowait(None)
            raise TransportClosed("closed")
        return item

    async def close(self) -> None:
        self.closed = True
        self.inbox.put_nowait(None)
        self.outbox.put_nowait(None)


def pipe() -> tuple[End, End]:
    a: asyncio.Queue[bytes | None] = asyncio.Queue()
    b: asyncio.Queue[bytes | None] = asyncio.Queue()
    return End(a, b), End(b, a)


async def until(check: object, timeout: float = 5.0) -> None:
    async def wait() -> None:
        while not check():  # type: ignore[operator]
            await asyncio.sleep(0.01)
    await asyncio.wait_for(wait(), timeout)


def test_a_replayed_genuine_frame_does_not_make_a_stranger_the_peer() -> None:
    async def body() -> None:
        rooms: dict[str, asyncio.Queue[End]] = {"host": asyncio.Queue(), "joiner": asyncio.Queue()}

        async def connect_host() -> End:
            return await rooms["host"].get()

        async def connect_joiner() -> End:
            return await rooms["joiner"].get()

        def room() -> None:
            h, j = pipe()
            rooms["host"].put_nowait(h)
            rooms["joiner"].put_nowait(j)

        room()
        host = ReliableLink(connect_host, **FAST)  # type: ignore[arg-type]
        joiner = ReliableLink(connect_joiner, **FAST)  # type: ignore[arg-type]
        await host.start()
        await joiner.start()
        genuine = b"the host's first handshake frame"
        await host.send(genuine)
        assert await asyncio.wait_for(joiner.recv(), 5) == genuine
        joiner.vouch()                       # the handshake took it
        # The session exists on both sides.
        host.set_liveness_key(KEY)
        joiner.set_liveness_key(KEY)
        await until(lambda: joiner.peer_id == host.link_id and joiner._live)
        host_id = host.link_id

        # The joiner lands in a room of the stranger's (the relay dropped it; the host waits).
        stranger, into_joiner = pipe()
        rooms["joiner"].put_nowait(into_joiner)
        assert joiner._transport is not None
        await joiner._transport.close()
        hello = decode_link_frame(await asyncio.wait_for(stranger.recv(), 5))
        while hello is None or hello.kind != HELLO:
            hello = decode_link_frame(await asyncio.wait_for(stranger.recv(), 5))
        stranger_id = os.urandom(8)
        await stranger.send(encode_link_frame(LinkFrame(DATA, stranger_id, hello.sender, 0, genuine)))
        assert await asyncio.wait_for(joiner.recv(), 5) == genuine
        joiner.vouch()                       # the driver's judgement: it authenticates (a repeat)
        await joiner.send(b"meant for the host")
        await stranger.send(encode_link_frame(LinkFrame(ACK, stranger_id, joiner.link_id, 1)))
        await asyncio.sleep(0.2)
        assert joiner.unacknowledged == 1, "the stranger acknowledged a frame it never passed on"
        # One comparison: `assert not joiner._live` would hold it False for mypy in the lambda below.
        assert (joiner._vouched, joiner._live) == (False, False)

        # The joiner meets the host again: they pair again and the frame gets through.
        room()
        await stranger.close()               # (the host's connection fell with the joiner's)
        assert await asyncio.wait_for(host.recv(), 5) == b"meant for the host"
        await until(lambda: joiner.peer_id == host.link_id and joiner._live and joiner._vouched)
        assert host_id in (host.link_id, *host._retired)
        assert joiner.stats.bad_proofs == 0
        await host.close()
        await joiner.close()

    asyncio.run(asyncio.wait_for(body(), 30))
