"""A stranger that behaves as a live peer at the link level only (spec/protocol.md §12.1-§12.2).

It answers every HELLO with a HELLO, every PING with a PONG, acknowledges every DATA frame and
pings on its own, but never sends a payload that could authenticate: exactly what the keepalive
and rejoin tests need to show that link frames alone keep nothing alive.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from koikoi_p2p.net.reliable import (
    ACK,
    DATA,
    HELLO,
    PING,
    PONG,
    LinkFrame,
    decode_link_frame,
    encode_link_frame,
)


async def impersonate_live_peer(recv: Callable[[], Awaitable[bytes]],
                                send: Callable[[bytes], Awaitable[None]],
                                own_id: bytes, target: Callable[[], bytes], ping_every: float,
                                on_ping: Callable[[], None] | None = None) -> None:
    """Answer and ping as ``own_id`` until cancelled; each ping goes to ``target()`` (the victim's
    current link id: a vouching link may take a fresh one)."""

    async def answer() -> None:
        while True:
            frame = decode_link_frame(await recv())
            if frame is None:
                continue
            if frame.kind == HELLO:
                await send(encode_link_frame(LinkFrame(HELLO, own_id, frame.sender, payload=bytes(16))))
            elif frame.kind == PING:
                await send(encode_link_frame(LinkFrame(PONG, own_id, frame.sender)))
            elif frame.kind == DATA:
                await send(encode_link_frame(LinkFrame(ACK, own_id, frame.sender, frame.count + 1)))

    async def ping() -> None:
        while True:
            await send(encode_link_frame(LinkFrame(PING, own_id, target())))
            if on_ping is not None:
                on_ping()
            await asyncio.sleep(ping_every)

    tasks = [asyncio.create_task(answer()), asyncio.create_task(ping())]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
