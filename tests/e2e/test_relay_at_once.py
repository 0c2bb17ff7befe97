"""spec/relay.md §5.2: the in-process relay writes a frame to its peer in the turn of its event
loop that read it when nothing can make it wait, and otherwise the long way, in order behind
whatever the connection's handler holds."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import msgpack

from tests.e2e.test_relay_support import pair, relay, run

WIDE = {"max_bytes_per_second": 1e9, "max_bytes_per_second_per_source": 1e9, "max_messages_per_second": 1e5,
        "buffer_bytes": 64 << 20, "buffer_frames": 4096}


def test_frames_go_at_once_in_order_among_messages_that_take_the_long_way() -> None:
    async def body() -> None:
        async with relay() as server:
            host, guest, _ = await pair(server)
            # First in bursts: the frames read behind a message the handler holds wait for it.
            for i in range(40):
                await host.send("frame", seq=i, data=i.to_bytes(4, "big"))
                if i % 7 == 3:
                    await host.send("ack", seq=0)     # a control message: the handler's
                if i % 11 == 5:
                    await host.send("frame", seq=i - 1, data=b"resent")   # a duplicate: dropped
            for i in range(40):
                got = await guest.expect("frame")
                assert got["seq"] == i and got["data"] == i.to_bytes(4, "big")
            # Then one at a time, as players send: each is read while the handler waits, and goes at once.
            before = server.metrics.frames_at_once_total
            for i in range(40, 80):
                await host.send("frame", seq=i, data=i.to_bytes(4, "big"))
                if i % 7 == 3:
                    await host.send("ack", seq=0)
                got = await guest.expect("frame")
                assert got["seq"] == i and got["data"] == i.to_bytes(4, "big")
            # Nothing but the 80 frames reached the guest.
            await guest.send("lobby")
            assert (await guest.recv())["type"] == "rooms"
            assert server.metrics.frames_forwarded_total == 80
            assert server.metrics.frames_at_once_total - before >= 35, server.metrics.frames_at_once_total

    run(body)


def test_a_peer_slow_to_read_sends_frames_the_long_way_and_none_overtakes() -> None:
    """The guest stops reading: its connection's write buffer passes its high-water mark, the
    host's frames wait in the handler (and behind it in TCP), and when the guest reads again every
    frame arrives once, in order, those sent at once and those sent the long way alike."""
    count, size = 240, 60_000

    async def body() -> None:
        async with relay(**WIDE) as server:
            host, guest, _ = await pair(server)
            metrics = server.metrics

            async def send_all() -> None:
                for i in range(count):
                    await host.send("frame", seq=i, data=i.to_bytes(4, "big") * (size // 4))

            sender = asyncio.create_task(send_all())
            # The guest reads nothing until frames have had to take the long way.
            for _ in range(400):
                if metrics.frames_forwarded_total > metrics.frames_at_once_total or sender.done():
                    break
                await asyncio.sleep(0.025)
            assert metrics.frames_forwarded_total > metrics.frames_at_once_total > 0, (
                metrics.frames_forwarded_total, metrics.frames_at_once_total)
            for i in range(count):
                got = await guest.expect("frame", timeout=60)
                assert got["seq"] == i and got["data"] == i.to_bytes(4, "big") * (size // 4), i
            await sender
            assert metrics.frames_forwarded_total == count
            # Once the guest reads again, frames go at once again.
            before = metrics.frames_at_once_total
            await host.send("frame", seq=count, data=b"after")
            assert (await guest.expect("frame"))["data"] == b"after"
            assert metrics.frames_at_once_total == before + 1

    run(body)


def test_a_frame_read_behind_a_message_the_handler_holds_waits_for_it() -> None:
    """Two messages in one TCP segment: "leave", then a frame. The leave goes to the handler; the
    frame read behind it must not be forwarded first (the room is gone by its turn: not_in_room)."""
    async def body() -> None:
        async with relay() as server:
            host, guest, _ = await pair(server)
            await host.send("frame", seq=0, data=b"first")
            assert (await guest.expect("frame"))["data"] == b"first"
            ws = host.ws   # both messages written to the socket at once
            ws.protocol.send_binary(msgpack.packb({"type": "leave"}))
            ws.protocol.send_binary(msgpack.packb({"type": "frame", "seq": 1, "data": b"late"}))
            ws.send_data()
            assert (await host.expect("left"))["type"] == "left"
            assert (await host.expect("error"))["reason"] == "not_in_room"
            got = await guest.recv()
            assert got["type"] == "peer_left", got
            assert server.metrics.frames_forwarded_total == 1

    run(body)


def test_a_peer_that_does_not_read_holds_at_most_one_frame_beyond_the_high_water_mark() -> None:
    """A frame sent at once may take the peer's write buffer past its high-water mark; the next
    one then waits for it to drain before it is written (spec/relay.md §8.7 (b): a stalled peer
    costs the relay what websockets' flow control allows, no more)."""
    size = 60_000

    async def body() -> None:
        async with relay(**WIDE) as server:
            host, guest, _ = await pair(server)
            guest.ws.transport.pause_reading()

            async def send_all() -> None:
                for i in range(400):
                    await host.send("frame", seq=i, data=b"q" * size)

            sender = asyncio.create_task(send_all())
            await asyncio.sleep(2.0)
            target = next(c for c in server.connections if c.seat is not None and c.seat.index == 1)
            _, high = target.ws.transport.get_write_buffer_limits()
            held = target.ws.transport.get_write_buffer_size()
            sender.cancel()
            assert target.ws.paused and held <= high + size + 64, (held, high)

    run(body)


def test_an_error_while_forwarding_at_once_ends_that_connection_only() -> None:
    """A bug met in the read callback must not escape into websockets' data_received: the relay
    counts it as internal, closes that connection with 1011, and serves the others."""
    async def body() -> None:
        async with relay() as server:
            host, _guest, _ = await pair(server)
            other_host, other_guest, _ = await pair(server)
            rooms = server.rooms
            original = rooms._forward   # type: ignore[attr-defined]

            def broken(conn: Any, *args: Any) -> Any:
                # Only on the way at once (the long way has its own handler's guard).
                at_once = sys._getframe(1).f_code.co_name == "frame_now"
                if at_once and conn.ws.remote_address[1] == host.ws.local_address[1]:
                    raise RuntimeError("bug")
                return original(conn, *args)

            rooms._forward = broken   # type: ignore[attr-defined]
            await host.send("frame", seq=0, data=b"x")
            assert await host.closed() == 1011
            assert server.metrics.errors["internal"] == 1
            await other_host.send("frame", seq=0, data=b"still served")
            assert (await other_guest.expect("frame"))["data"] == b"still served"

    run(body)
