"""Issue 11 hole 5: a stranger in the lobby cannot end a match while the two seats pair again.

The relay restarts mid-match, so both seats meet again in a rejoin room. A stranger races the
real joiner into that room, learns the host's link id from its HELLO and sends one DATA frame of
garbage. Before the fix the rejoin room was listed in the public lobby, the host's link adopted
the stranger and the garbage failed the match ("aead_failure"). Now the lobby never lists a
rejoin room, and even a stranger that knows the tag only delays the pair: its frame is dropped
and counted, the link pairs with the real joiner again, and the match completes with the
transcript it would have had.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from koikoi_p2p.bench.soak import RelayProcess
from koikoi_p2p.net.relay_client import RelayClient, list_rooms
from koikoi_p2p.net.reliable import (
    DATA,
    HELLO,
    LinkFrame,
    decode_link_frame,
    encode_link_frame,
)
from koikoi_p2p.net.rendezvous import META_KEY, RelayRendezvous
from koikoi_p2p.net.resumable import DriverOptions, create_state, run_peer
from koikoi_p2p.net.state_store import StateStore
from koikoi_p2p.protocol.channel import FRAME_ENVELOPE
from tests.adversarial.link_impostor import impersonate_live_peer
from tests.faults.resume_util import FAST_LINK, setup, transcript_raws

LINK = {**FAST_LINK, "dead_after_s": 2.0, "give_up_s": None}


class LateJoiner:
    """The real joiner's connector, slowed down so the stranger gets to the room first."""

    def __init__(self, inner: RelayRendezvous, delay: float) -> None:
        self.inner = inner
        self.delay = delay

    def bind(self, session_id: bytes) -> None:
        bind = getattr(self.inner, "bind", None)
        if bind is not None:
            bind(session_id)

    async def __call__(self) -> Any:
        if self.inner._first is None:
            await asyncio.sleep(self.delay)
        return await self.inner()


async def _hold(client: RelayClient, stranger_id: bytes, host_id: bytes, stop: asyncio.Event,
                seen: dict[str, int]) -> None:
    """Behave as a live peer at the link level (HELLO, PONG, ACK, PINGs of its own) without ever
    sending a payload, until the host drops the connection."""

    def pinged() -> None:
        seen["pings"] += 1

    impostor = asyncio.create_task(
        impersonate_live_peer(client.recv, client.send, stranger_id, lambda: host_id, 0.2, pinged))
    stopped = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait([impostor, stopped], return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (impostor, stopped):
            task.cancel()
        await asyncio.gather(impostor, stopped, return_exceptions=True)


async def _stranger(url: str, host: RelayRendezvous, knows_tag: bool, stop: asyncio.Event,
                    seen: dict[str, int], holds: bool = False) -> None:
    """Watch the lobby; join the first rejoin room; send a HELLO and one DATA frame of garbage
    (or, ``holds``, answer the keepalive under the real joiner's id, which the host's HELLO
    names, for as long as the host keeps the connection)."""
    stranger_id = os.urandom(8)
    while not stop.is_set():
        try:
            rooms = await list_rooms(url, rejoin=host.tag) if knows_tag else await list_rooms(url)
        except Exception:
            await asyncio.sleep(0.01)
            continue
        for room in rooms:
            meta = room.get("meta")
            if isinstance(meta, dict) and META_KEY in meta:
                seen["listed"] += 1
                try:
                    client = await RelayClient.join(url, str(room["code"]))
                except Exception:
                    continue
                try:
                    frame = decode_link_frame(await asyncio.wait_for(client.recv(), 5))
                    assert frame is not None and frame.kind == HELLO
                    if holds:
                        seen["sent"] += 1
                        await _hold(client, frame.to if frame.to != bytes(8) else stranger_id, frame.sender,
                                    stop, seen)
                        return
                    garbage = bytes([FRAME_ENVELOPE]) + (7).to_bytes(4, "big") + os.urandom(200)
                    hello = LinkFrame(HELLO, stranger_id, frame.sender, payload=bytes(16))
                    await client.send(encode_link_frame(hello))
                    data = LinkFrame(DATA, stranger_id, frame.sender, 0, garbage)
                    await client.send(encode_link_frame(data))
                    seen["sent"] += 1
                    await asyncio.sleep(0.5)
                finally:
                    await client.close()
                return
        await asyncio.sleep(0.01)


async def _match(tmp: Path, *, restart: bool, stranger: bool,
                 knows_tag: bool, holds: bool = False) -> tuple[list[Any], dict[str, int]]:
    relay = RelayProcess()
    await relay.start()
    seen = {"listed": 0, "sent": 0, "pings": 0}
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    try:
        folders = [tmp / "host", tmp / "join"]
        for seat in (0, 1):
            create_state(StateStore(folders[seat]),
                         setup(seat, relay_url=relay.url, rendezvous="R", rounds=1, profile="wikipedia"))
        first_host = await RelayClient.create(relay.url)
        first_join = await RelayClient.join(relay.url, first_host.code)
        await first_host.wait_for_peer(timeout=10)
        host = RelayRendezvous(relay.url, 0, "R", first=first_host, pair_timeout_s=20)
        joiner = LateJoiner(RelayRendezvous(relay.url, 1, "R", first=first_join, pair_timeout_s=20,
                                            poll_s=0.1), 1.0)
        done = [False]

        def progress(phase: str, core: Any) -> None:
            if restart and phase == "playing" and not done[0]:
                done[0] = True
                if stranger:
                    tasks.append(asyncio.get_running_loop().create_task(
                        _stranger(relay.url, host, knows_tag, stop, seen, holds)))
                tasks.append(asyncio.get_running_loop().create_task(relay.restart()))

        opts = DriverOptions(resend_after_s=0.5, linger_s=2.0, link=LINK, forget_secrets=False)
        out = await asyncio.wait_for(asyncio.gather(
            run_peer(StateStore(folders[0]), host, options=opts, progress=progress),
            run_peer(StateStore(folders[1]), joiner, options=opts)), 120)
        await host.close()
        await joiner.inner.close()
        return list(out), seen
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await relay.kill()


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    tmp = tmp_path_factory.mktemp("ref")
    out, _ = asyncio.run(_match(tmp, restart=False, stranger=False, knows_tag=False))
    assert [o.status for o in out] == ["completed", "completed"]
    return transcript_raws(out[0].file)


@pytest.mark.slow
def test_the_lobby_never_lists_a_rejoin_room(tmp_path: Path, reference: list[bytes]) -> None:
    out, seen = asyncio.run(_match(tmp_path, restart=True, stranger=True, knows_tag=False))
    assert seen["listed"] == 0 and seen["sent"] == 0
    assert [o.status for o in out] == ["completed", "completed"], out
    assert transcript_raws(out[0].file) == reference


@pytest.mark.slow
def test_a_stranger_that_knows_the_tag_only_delays_the_pair(tmp_path: Path, reference: list[bytes]) -> None:
    out, seen = asyncio.run(_match(tmp_path, restart=True, stranger=True, knows_tag=True))
    assert seen["sent"] == 1, seen
    assert [o.status for o in out] == ["completed", "completed"], out
    assert out[0].dropped == 1 and out[1].dropped == 0
    assert transcript_raws(out[0].file) == reference
    assert transcript_raws(out[1].file) == reference


@pytest.mark.slow
def test_a_stranger_that_answers_the_keepalive_cannot_hold_the_rejoin_room(tmp_path: Path,
                                                                          reference: list[bytes]) -> None:
    """The stranger joins the rejoin room first and plays a live peer at the link level, under the
    real joiner's link id, without a single payload. Before the fix its frames kept the host's
    keepalive satisfied: the host never opened the room again, the joiner found it full, and the
    match could only end at the deadline. Now the host counts only a connection on which a payload
    authenticated, drops this one after the keepalive bound, opens the room again, and the match
    completes with the transcript it would have had."""
    out, seen = asyncio.run(_match(tmp_path, restart=True, stranger=True, knows_tag=True, holds=True))
    assert seen["sent"] == 1 and seen["pings"] >= 3, seen
    assert [o.status for o in out] == ["completed", "completed"], out
    assert out[0].dropped == 0 and out[1].dropped == 0
    assert transcript_raws(out[0].file) == reference
    assert transcript_raws(out[1].file) == reference
