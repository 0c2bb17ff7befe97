"""Every relay limit is enforced with its error reason or close code (spec/relay.md §6, §7)."""

from __future__ import annotations

import asyncio
import contextlib

import msgpack
import pytest
from websockets.exceptions import InvalidStatus

from koikoi_relay.errors import CloseCode
from tests.e2e.test_relay_support import Raw, pair, relay, run


async def _http_get(port: int, path: str) -> tuple[int, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    head, _, body = data.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body


def test_frame_size() -> None:
    async def body() -> None:
        async with relay(max_frame_bytes=100) as server:
            host, guest, _ = await pair(server)
            await host.send("frame", seq=0, data=b"x" * 101)
            assert (await host.expect("error"))["reason"] == "frame_too_large"
            await host.send("frame", seq=0, data=b"x" * 100)
            assert (await guest.expect("frame"))["data"] == b"x" * 100
            # Beyond the websocket message limit the connection itself is closed (1009).
            await host.send("frame", seq=1, data=b"x" * 5000)  # above max(frame + 64, control)
            assert await host.closed() == 1009

    run(body)


def test_control_message_size() -> None:
    async def body() -> None:
        async with relay(max_control_bytes=256) as server:
            client = await Raw.connect(server)
            await client.send("lobby", padding=b"p" * 300)
            assert (await client.expect("error"))["reason"] == "control_too_large"

    run(body)


def test_message_rate() -> None:
    async def body() -> None:
        # The lobby's own rate (tested below) is off here: this is the rate of every message.
        async with relay(max_messages_per_second=10, burst_seconds=1, lobby_per_second=0) as server:
            client = await Raw.connect(server)
            for _ in range(60):  # sent back to back: far above 10 per second even on a slow machine
                await client.send("lobby")
            kinds: list[str] = []
            while not kinds or kinds[-1] == "rooms":
                reply = await client.recv()
                kinds.append(reply["type"] if reply["type"] != "error" else reply["reason"])
            assert kinds[-1] == "rate_limited"
            assert 10 <= len(kinds) - 1 < 60  # the burst passed, then the limit struck
            assert await client.closed() == CloseCode.RATE_LIMITED

    run(body)


def test_byte_rate() -> None:
    async def body() -> None:
        async with relay(max_bytes_per_second=1000, burst_seconds=1) as server:
            host, guest, _ = await pair(server)
            for seq in range(20):
                await host.send("frame", seq=seq, data=b"y" * 400)
            assert (await guest.expect("frame"))["seq"] == 0
            assert (await host.expect("error"))["reason"] == "rate_limited"
            assert await host.closed() == CloseCode.RATE_LIMITED
            forwarded = [m for m in [await guest.recv() for _ in range(2)]]
            kinds = [m["type"] for m in forwarded]
            assert "peer_away" in kinds or kinds == ["frame", "peer_away"][: len(kinds)]
            assert server.metrics.frames_forwarded_total < 20

    run(body)


def test_rooms_per_connection_and_total_rooms() -> None:
    async def body() -> None:
        async with relay(max_rooms_per_connection=2, max_rooms=3) as server:
            client = await Raw.connect(server)
            for _ in range(2):
                await client.send("create")
                await client.expect("created")
                await client.send("create")
                assert (await client.expect("error"))["reason"] == "already_in_room"
                await client.send("leave")
                await client.expect("left")
            await client.send("create")
            assert (await client.expect("error"))["reason"] == "too_many_rooms"
            holders = [await Raw.connect(server) for _ in range(4)]
            for holder in holders[:3]:
                await holder.send("create")
                await holder.expect("created")
            await holders[3].send("create")
            assert (await holders[3].expect("error"))["reason"] == "relay_full"

    run(body)


def test_total_connections() -> None:
    async def body() -> None:
        async with relay(max_connections=2) as server:
            first, second = await Raw.connect(server), await Raw.connect(server)
            with pytest.raises(InvalidStatus) as refused:
                await Raw.connect(server)
            assert refused.value.response.status_code == 503
            await first.close()
            await asyncio.sleep(0.05)
            third = await Raw.connect(server)
            await third.send("lobby")
            await third.expect("rooms")
            del second

    run(body)


def test_idle_connection_and_idle_room_expire() -> None:
    async def body() -> None:
        async with relay(idle_timeout=0.3, room_idle_timeout=0.6, sweep_interval=0.05) as server:
            idle = await Raw.connect(server)
            host, guest, code = await pair(server)
            assert (await idle.expect("error"))["reason"] == "idle_timeout"
            assert await idle.closed() == CloseCode.IDLE
            assert (await host.expect("error", timeout=3))["reason"] == "room_expired"
            assert (await guest.expect("error", timeout=3))["reason"] == "room_expired"
            assert await host.closed() == CloseCode.IDLE
            assert code not in server.registry.rooms

    run(body)


def test_resume_grace_expiry_closes_the_room() -> None:
    async def body() -> None:
        async with relay(resume_grace=0.3, sweep_interval=0.05) as server:
            host = await Raw.connect(server)
            await host.send("create")
            await host.expect("created")
            guest = await Raw.connect(server)
            await guest.send("join", code=server.registry.rooms.copy().popitem()[0])
            token = (await guest.expect("joined"))["token"]
            await host.expect("peer_joined")
            guest.ws.transport.abort()
            await host.expect("peer_away")
            assert (await host.expect("peer_left", timeout=3))["reason"] == "timeout"
            assert await host.closed() == CloseCode.ROOM_CLOSED
            late = await Raw.connect(server)
            await late.send("resume", token=token, received=0)
            assert (await late.expect("error"))["reason"] == "resume_unknown"
            assert await late.closed() == CloseCode.RESUME_FAILED

    run(body)


def test_resume_beyond_the_buffer_is_an_explicit_error() -> None:
    async def body() -> None:
        async with relay(buffer_frames=4) as server:
            host, guest, _ = await pair(server)
            token = guest.token
            await guest.close()
            await host.expect("peer_away")
            for seq in range(10):
                await host.send("frame", seq=seq, data=b"z")
            back = await Raw.connect(server)
            await back.send("resume", token=token, received=11)
            assert (await back.expect("error"))["reason"] == "bad_resume"
            again = await Raw.connect(server)
            await again.send("resume", token=token, received=0)
            assert (await again.expect("error"))["reason"] == "resume_gap"
            assert await again.closed() == CloseCode.RESUME_FAILED
            assert (await host.expect("peer_left"))["reason"] == "resume_failed"

    run(body)


def test_resume_within_the_buffer_delivers_exactly_the_missed_frames() -> None:
    async def body() -> None:
        async with relay(buffer_frames=8) as server:
            host, guest, _ = await pair(server)
            token = guest.token
            for seq in range(3):
                await host.send("frame", seq=seq, data=bytes([seq]))
            for seq in range(3):
                assert (await guest.expect("frame"))["seq"] == seq
            await guest.send("ack", seq=2)  # the guest only admits to two of them
            guest.ws.transport.abort()
            await host.expect("peer_away")
            for seq in range(3, 7):
                await host.send("frame", seq=seq, data=bytes([seq]))
            back = await Raw.connect(server)
            await back.send("resume", token=token, received=3)
            resumed = await back.expect("resumed")
            assert resumed["accepted"] == 0 and resumed["peer"] == "present"
            assert [(await back.expect("frame"))["seq"] for _ in range(4)] == [3, 4, 5, 6]
            await host.expect("peer_back")
            await host.send("frame", seq=7, data=b"\x07")
            assert (await back.expect("frame"))["seq"] == 7
            # A duplicate of an accepted frame is dropped silently; a gap is refused.
            await back.send("frame", seq=0, data=b"a")
            await back.send("frame", seq=0, data=b"a")
            await back.send("frame", seq=5, data=b"gap")
            assert (await back.expect("error"))["reason"] == "frame_gap"
            assert (await host.expect("frame"))["data"] == b"a"
            with pytest.raises(TimeoutError):
                await host.recv(timeout=0.2)

    run(body)


def test_resume_replaces_a_stale_connection() -> None:
    async def body() -> None:
        async with relay() as server:
            host = await Raw.connect(server)
            await host.send("create")
            token = (await host.expect("created"))["token"]
            twin = await Raw.connect(server)
            await twin.send("resume", token=token, received=0)
            assert (await twin.expect("resumed"))["seat"] == 0
            assert await host.closed() == CloseCode.REPLACED

    run(body)


def test_ping_timeout_drops_a_silent_peer() -> None:
    async def body() -> None:
        async with relay(ping_interval=0.3, ping_timeout=0.3) as server:
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(
                b"GET /v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 101")
            for _ in range(20):
                if "relay_connections 1\n" in server.metrics_text():
                    break
                await asyncio.sleep(0.01)
            assert "relay_connections 1\n" in server.metrics_text()
            # Never answer the relay's pings: it must give up on us.
            data = await asyncio.wait_for(reader.read(), 5)
            assert data  # pings, then EOF
            writer.close()
            for _ in range(50):
                if "relay_connections 0\n" in server.metrics_text():
                    break
                await asyncio.sleep(0.02)
            assert "relay_connections 0\n" in server.metrics_text()

    run(body)


def test_too_many_errors_and_bad_joins_close_the_connection() -> None:
    async def body() -> None:
        async with relay(max_errors=3, max_bad_joins=2) as server:
            noisy = await Raw.connect(server)
            for _ in range(3):
                await noisy.send_raw(b"\xc1")
            assert (await noisy.expect("error"))["reason"] == "malformed"
            assert (await noisy.expect("error"))["reason"] == "malformed"
            assert (await noisy.expect("error"))["reason"] == "too_many_errors"
            assert await noisy.closed() == CloseCode.POLICY
            guesser = await Raw.connect(server)
            await guesser.send("join", code="222222")
            assert (await guesser.expect("error"))["reason"] == "room_not_found"
            await guesser.send("join", code="333333")
            assert (await guesser.expect("error"))["reason"] == "too_many_bad_joins"
            assert await guesser.closed() == CloseCode.POLICY

    run(body)


def test_malformed_input_is_answered_and_other_rooms_notice_nothing() -> None:
    garbage: list[bytes | str] = [
        b"", b"\xc1", b"\x93\x01\x02\x03", msgpack.packb({"no": "type"}), msgpack.packb({"type": 7}),
        msgpack.packb({"type": "teleport"}), msgpack.packb({"type": "frame", "seq": -1, "data": b""}),
        msgpack.packb({"type": "frame", "seq": 0, "data": "text"}), msgpack.packb({"type": "join"}),
        msgpack.packb({"type": "create", "meta": {"k": 1.5}}),
        msgpack.packb({"type": "resume", "token": b"x"}),
        msgpack.packb({"type": "ack", "seq": 1}), msgpack.packb({"type": "reject_peer"}),
        msgpack.packb({"type": "leave"}), "text is not allowed", b"\xdd\xff\xff\xff\xff",
        msgpack.packb({"type": "frame", "seq": 0, "data": b"not in a room"}),
    ]

    async def body() -> None:
        async with relay(max_errors=100) as server:
            host, guest, _ = await pair(server)
            attacker = await Raw.connect(server)
            reasons = []
            for i, item in enumerate(garbage):
                await attacker.send_raw(item)
                await host.send("frame", seq=i, data=b"calm %d" % i)
                if item != msgpack.packb({"type": "ack", "seq": 1}):
                    reasons.append((await attacker.expect("error"))["reason"])
            for i in range(len(garbage)):
                assert (await guest.expect("frame"))["data"] == b"calm %d" % i
            assert set(reasons) <= {
                "malformed", "unknown_type", "bad_meta", "text_not_allowed", "not_in_room", "not_host",
            }
            await attacker.send("lobby")
            await attacker.expect("rooms")
            status, text = await _http_get(server.port, "/metrics")
            assert status == 200 and 'relay_errors_total{reason="malformed"}' in text

    run(body)


def test_health_metrics_and_unknown_paths() -> None:
    async def body() -> None:
        async with relay() as server:
            host, guest, _ = await pair(server)
            await host.send("frame", seq=0, data=b"12345")
            await guest.expect("frame")
            assert await _http_get(server.port, "/healthz") == (200, "ok\n")
            status, text = await _http_get(server.port, "/metrics")
            assert status == 200
            lines = set(text.splitlines())
            assert {"relay_connections 2", 'relay_rooms{state="paired"} 1', "relay_frames_forwarded_total 1",
                    "relay_bytes_forwarded_total 5"} <= lines
            status, _ = await _http_get(server.port, "/v2")
            assert status == 404
            with contextlib.suppress(Exception):
                await host.close()

    run(body)


def test_an_internal_error_ends_one_connection_only(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from koikoi_relay.local import LocalRooms

    async def broken_lobby(self: LocalRooms, conn: object, msg: object) -> None:
        raise RuntimeError("SECRET-IN-EXCEPTION")

    monkeypatch.setattr(LocalRooms, "lobby", broken_lobby)

    async def body() -> None:
        async with relay() as server:
            host, guest, _ = await pair(server)
            victim = await Raw.connect(server)
            await victim.send("lobby")
            assert await victim.closed() == 1011
            await host.send("frame", seq=0, data=b"still fine")
            assert (await guest.expect("frame"))["data"] == b"still fine"
            assert 'relay_errors_total{reason="internal"} 1' in server.metrics_text()

    with caplog.at_level("INFO", logger="koikoi_relay"):
        run(body)
    assert "event=internal_error" in caplog.text and "RuntimeError" in caplog.text
    assert "SECRET-IN-EXCEPTION" not in caplog.text

