"""Helpers for the relay tests: an in-process relay on port 0 and a raw protocol client.

No tests here; the module is named like the relay tests so it sits with them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from koikoi_relay.limits import Limits
from koikoi_relay.server import RelayServer

TIMEOUT = 5.0


def run(coro_fn: Callable[[], Awaitable[None]]) -> None:
    """Run one async test body with an overall timeout."""

    async def body() -> None:
        await asyncio.wait_for(coro_fn(), 60)

    asyncio.run(body())


@contextlib.asynccontextmanager
async def relay(**limits: Any) -> AsyncIterator[RelayServer]:
    server = RelayServer(Limits(**limits))
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.shutdown()


def url(server: RelayServer) -> str:
    return f"ws://127.0.0.1:{server.port}/v1"


class Raw:
    """A bare relay-protocol client: msgpack maps in, msgpack maps out."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.token = b""  # the resume token the relay gave this client, once paired by pair()

    @classmethod
    async def connect(cls, target: str | RelayServer) -> Raw:
        address = target if isinstance(target, str) else url(target)
        return cls(await connect(address, compression=None, max_size=None))

    async def send(self, kind: str, **fields: Any) -> None:
        fields["type"] = kind
        await self.ws.send(msgpack.packb(fields, use_bin_type=True))

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        data = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(data, bytes), "the relay only sends binary messages"
        value = msgpack.unpackb(data, raw=False)
        assert isinstance(value, dict)
        return value

    async def expect(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        value = await self.recv(timeout)
        assert value["type"] == kind, value
        return value

    async def closed(self, timeout: float = TIMEOUT) -> int | None:
        """Wait for the relay to close us; the close code. Other messages are skipped."""
        async def drain() -> None:
            with contextlib.suppress(ConnectionClosed):
                while True:
                    await self.ws.recv()

        await asyncio.wait_for(drain(), timeout)
        return self.ws.close_code

    async def close(self) -> None:
        await self.ws.close()


@contextlib.asynccontextmanager
async def cluster(redis_url: str, nodes: int = 2, **limits: Any) -> AsyncIterator[list[RelayServer]]:
    """``nodes`` relay servers in this process, each one node on the same Redis (own key prefix)."""
    import secrets

    from koikoi_relay.cluster import RedisRooms

    prefix = f"t{secrets.token_hex(4)}:"
    servers = [RelayServer(Limits(**limits), rooms=RedisRooms(redis_url, prefix=prefix))
               for _ in range(nodes)]
    try:
        for server in servers:
            await server.start("127.0.0.1", 0)
        yield servers
    finally:
        for server in servers:
            await server.shutdown()


async def pair(server: RelayServer, joiner_server: RelayServer | None = None,
               **create: Any) -> tuple[Raw, Raw, str]:
    """A host and a joiner in one fresh room (the joiner on another node if given); the
    peer_joined notice is consumed."""
    host = await Raw.connect(server)
    await host.send("create", **create)
    code = (await host.expect("created"))["code"]
    guest = await Raw.connect(joiner_server or server)
    await guest.send("join", code=code)
    guest.token = (await guest.expect("joined"))["token"]
    await host.expect("peer_joined")
    return host, guest, code
