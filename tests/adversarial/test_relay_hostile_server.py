"""A relay that breaks its own protocol makes the client fail with a typed error, never hang."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

import msgpack
import pytest
from websockets.asyncio.server import ServerConnection, serve

from koikoi_p2p.net.relay_client import RelayClient, RelayClosed, RelayError
from tests.e2e.test_relay_support import run

JOINED = msgpack.packb({"type": "joined", "code": "ABC234", "token": bytes(24), "seat": 1, "meta": {},
                        "peer": "present", "limits": {"max_frame_bytes": 1000, "resume_grace": 1}})


@contextlib.asynccontextmanager
async def fake_relay(after_join: Callable[[ServerConnection], object]) -> AsyncIterator[str]:
    async def handler(ws: ServerConnection) -> None:
        await ws.recv()
        await ws.send(JOINED)
        result = after_join(ws)
        if asyncio.iscoroutine(result):
            await result
        with contextlib.suppress(Exception):
            await ws.wait_closed()

    async with serve(handler, "127.0.0.1", 0, compression=None) as server:
        yield f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1"


@pytest.mark.parametrize("bad", [
    "text from the relay",
    b"\xc1",
    msgpack.packb([1, 2]),
    msgpack.packb({"type": "frame", "seq": "0", "data": b"x"}),
    msgpack.packb({"type": "frame", "seq": 0, "data": "not bytes"}),
    msgpack.packb({"type": "sync", "accepted": 99, "sent": 0}),
])
def test_protocol_violations_end_the_stream(bad: bytes | str) -> None:
    async def body() -> None:
        async def misbehave(ws: ServerConnection) -> None:
            await ws.send(bad)

        async with fake_relay(misbehave) as url:
            client = await RelayClient.join(url, "ABC234")
            with pytest.raises(RelayClosed) as closed:
                await asyncio.wait_for(client.recv(), 5)
            assert closed.value.reason == "bad_relay_message"
            await client.close()

    run(body)


@pytest.mark.parametrize("reply", [
    {"type": "created", "code": "X"},
    {"type": "joined"},
    {"type": "joined", "code": "ABC234", "seat": 1, "token": bytes(23)},
    {"type": "joined", "code": "ABC234", "seat": 7, "token": bytes(24)},
    {"type": "joined", "code": 5, "seat": 1, "token": bytes(24)},
    {"type": "joined", "code": "ABC234", "seat": 1, "token": bytes(24), "limits": {"resume_grace": "x"}},
    {"type": "joined", "code": "ABC234", "seat": 1, "token": bytes(24), "meta": [1]},
])
def test_join_refused_by_a_wrong_reply(reply: dict[str, object]) -> None:
    async def body() -> None:
        async def handler(ws: ServerConnection) -> None:
            await ws.recv()
            await ws.send(msgpack.packb(reply))
            with contextlib.suppress(Exception):
                await ws.wait_closed()

        async with serve(handler, "127.0.0.1", 0, compression=None) as server:
            url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1"
            with pytest.raises(RelayError) as refused:
                await RelayClient.join(url, "ABC234")
            assert refused.value.reason == "bad_relay_message"

    run(body)


def test_a_relay_that_vanishes_ends_the_stream_after_the_grace() -> None:
    async def body() -> None:
        async def vanish(ws: ServerConnection) -> None:
            ws.transport.abort()

        async with fake_relay(vanish) as url:
            client = await RelayClient.join(url, "ABC234")
            # Reconnects reach the fake relay, whose answer to resume is "joined": refused.
            with pytest.raises(RelayClosed) as closed:
                await asyncio.wait_for(client.recv(), 10)
            assert closed.value.reason in {"resume_failed", "bad_relay_message"}

    run(body)
