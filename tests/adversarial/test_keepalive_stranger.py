"""A stranger in the room cannot keep a vouching link alive (spec/protocol.md §12.1 rule 5, §12.2).

The link's keepalive is how a survivor notices that the other seat is gone and opens the rejoin
room again. Link frames carry no proof, so before this fix any frame refreshed it: a stranger
that took the seat (or joined the rejoin room first) and answered HELLOs and PINGs, under an id
of its own or under the real peer's id (our HELLO names it), held the connection open forever,
and the real peer could not get in until the match's deadline. Now only a connection on which the
caller vouched for a payload counts, ACKs from any other are ignored, and a quiet real peer proves
itself on each new connection with a repeat the caller vouches for (``on_connect``).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Coroutine
from typing import Any

import pytest

from koikoi_p2p.net.reliable import (
    ReliableLink,
)
from tests.adversarial.link_impostor import impersonate_live_peer
from tests.faults.hub import Hub, HubEnd

FAST = {"retransmit_s": 0.02, "max_retransmit_s": 0.1, "reconnect_min_s": 0.005, "reconnect_max_s": 0.05}
DEAD = 0.3


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 30))


class Peer:
    """A link with a driver that vouches for every payload (all of them are authentic here) and,
    on every new connection, repeats its last payload as the crash-safe driver does."""

    def __init__(self, hub: Hub, side: int, *, give_up_s: float | None = None) -> None:
        self.got: list[bytes] = []
        self.last = b"hello from %d" % side
        self.link = ReliableLink(hub.connector(side), vouching=True, dead_after_s=DEAD, give_up_s=give_up_s,
                                 on_connect=self.prove, **FAST)  # type: ignore[arg-type]
        self.task: asyncio.Task[None] | None = None

    def prove(self) -> None:
        self.link.send_nowait(self.last)

    async def start(self) -> None:
        await self.link.start()
        self.task = asyncio.create_task(self._consume())

    async def _consume(self) -> None:
        while True:
            payload = await self.link.recv()
            self.link.vouch()
            if payload not in self.got:
                self.got.append(payload)

    async def send(self, payload: bytes) -> None:
        self.last = payload
        await self.link.send(payload)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        await self.link.close()


async def _pair(hub: Hub, **kw: Any) -> tuple[Peer, Peer]:
    a, b = Peer(hub, 0, **kw), Peer(hub, 1, **kw)
    await a.start()
    await b.start()
    await a.send(b"a0")
    await b.send(b"b0")
    for peer, want in ((a, b"b0"), (b, b"a0")):
        while want not in peer.got:
            await asyncio.sleep(0.01)
    return a, b


def _cut(hub: Hub, side: int) -> None:
    end = hub.ends[side]
    if end is not None:
        end.cut()


async def _stranger(end: HubEnd, own_id: bytes, victim: ReliableLink) -> None:
    """Answer every HELLO, PING and DATA as a live peer would, and ping on its own, never sending
    a payload that could authenticate."""
    await impersonate_live_peer(end.recv, end.send, own_id, lambda: victim.link_id, DEAD / 6)


@pytest.mark.parametrize("forged", [False, True], ids=["own_id", "the_peers_id"])
def test_a_stranger_answering_the_keepalive_does_not_hold_the_connection(forged: bool) -> None:
    async def body() -> None:
        hub = Hub(21)
        a, b = await _pair(hub)
        peer_id = b.link.link_id
        await b.close()                              # the real peer goes away...
        end = await hub.connect(1)                   # ... and a stranger takes the seat
        stranger = asyncio.create_task(_stranger(end, peer_id if forged else os.urandom(8), a.link))
        _cut(hub, 0)                                 # a connects again: to the stranger
        await asyncio.sleep(0.05)
        await a.send(b"a1")                          # the stranger "acknowledges" it at once
        await asyncio.sleep(DEAD * 4)
        # Its frames keep nothing alive: a drops the connection as if the seat were silent (and
        # would open the rejoin room again), and keeps what the stranger claimed to have.
        assert a.link.stats.dead >= 2, a.link.stats
        assert any(payload == b"a1" for _, payload in a.link._unacked)
        assert a.link.stats.unproven >= 1
        stranger.cancel()
        await asyncio.gather(stranger, return_exceptions=True)
        await a.close()

    run(body())


def test_a_quiet_real_peer_stays_connected_across_reconnections() -> None:
    async def body() -> None:
        hub = Hub(22)
        a, b = await _pair(hub)
        for _ in range(3):
            _cut(hub, 0)                             # a relay restart: both connect again
            _cut(hub, 1)
            await asyncio.sleep(DEAD * 2)
        # Nothing new to say, yet each side proved itself on each new connection with a repeat.
        assert a.link.stats.dead == 0 and b.link.stats.dead == 0, (a.link.stats, b.link.stats)
        await a.send(b"a1")
        while b"a1" not in b.got:
            await asyncio.sleep(0.01)
        await a.close()
        await b.close()

    run(body())


def test_a_stranger_does_not_defer_giving_up() -> None:
    async def body() -> None:
        hub = Hub(23)
        a, b = await _pair(hub, give_up_s=1.0)
        await b.close()
        end = await hub.connect(1)
        stranger = asyncio.create_task(_stranger(end, os.urandom(8), a.link))
        _cut(hub, 0)
        # Every connection succeeds (the stranger is always there), but none is live: the link
        # gives up on the bound counted from the last live frame.
        with pytest.raises(Exception, match="unreachable"):
            await asyncio.wait_for(a.link.recv(), 5)
        stranger.cancel()
        await asyncio.gather(stranger, return_exceptions=True)
        await a.close()

    run(body())
