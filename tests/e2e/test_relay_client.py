"""RelayClient end to end: a Transport over a real relay, resuming across forced disconnects."""

from __future__ import annotations

import asyncio

import pytest

from koikoi_p2p.net.relay_client import RelayClient, RelayClosed, RelayError, list_rooms, relay_url
from koikoi_p2p.protocol.transport import TransportClosed
from tests.e2e.test_relay_support import relay, run, url


async def _paired(address: str, **create: object) -> tuple[RelayClient, RelayClient]:
    host = await RelayClient.create(address, **create)  # type: ignore[arg-type]
    guest = await RelayClient.join(address, host.code)
    await host.wait_for_peer(5)
    return host, guest


async def _kill(client: RelayClient) -> None:
    """Cut the TCP connection under the client, as a network failure would. A client still resuming
    from the last cut has no connection to cut (its sends only queue meanwhile, so a loaded machine
    can get there): wait until it has one, so every cut is a real one."""
    for _ in range(1000):
        ws = client._ws
        if ws is not None:
            ws.transport.abort()
            return
        await asyncio.sleep(0.01)
    pytest.fail("the client did not resume within 10 s")


def test_frames_flow_both_ways_in_order() -> None:
    async def body() -> None:
        async with relay() as server:
            host, guest = await _paired(url(server), meta={"rules": "nintendo"})
            assert guest.meta == {"rules": "nintendo"} and guest.seat == 1 and host.seat == 0
            assert len(host.resume_token) == 24
            for i in range(300):
                await host.send(i.to_bytes(2, "big") * 100)
            for i in range(300):
                assert await guest.recv() == i.to_bytes(2, "big") * 100
            await guest.send(b"reply")
            assert await host.recv() == b"reply"
            await host.close()
            await guest.close()

    run(body)


def test_lobby_and_refusals() -> None:
    async def body() -> None:
        async with relay() as server:
            address = url(server)
            host = await RelayClient.create(address, public=True, meta={"password": False})
            rooms = await list_rooms(address)
            assert [(r["code"], r["meta"]) for r in rooms] == [(host.code, {"password": False})]
            guest = await RelayClient.join(address, host.code)
            with pytest.raises(RelayError) as full:
                await RelayClient.join(address, host.code)
            assert full.value.reason == "room_full"
            with pytest.raises(RelayError) as unknown:
                await RelayClient.join(address, "ZZZZZZ" if host.code != "ZZZZZZ" else "YYYYYY")
            assert unknown.value.reason == "room_not_found"
            assert await list_rooms(address) == []
            await guest.close()
            await host.close()
        with pytest.raises(RelayError) as down:
            await list_rooms(address)
        assert down.value.reason == "unreachable"

    run(body)


def test_resume_after_forced_disconnects_loses_and_repeats_nothing() -> None:
    async def body() -> None:
        async with relay() as server:
            host, guest = await _paired(url(server))
            total = 400

            received = {b"h": 0, b"g": 0}

            async def paced(prefix: bytes, i: int) -> None:
                # A drop is survived while fewer than buffer_frames (256) frames wait for the seat
                # away, in the relay and in the sender (spec/relay.md §8.1): a game never comes
                # near, but this sender could while a loaded machine resumes the other seat.
                while i - received[prefix] >= 128:
                    await asyncio.sleep(0.005)

            async def host_sends() -> None:
                for i in range(total):
                    await paced(b"h", i)
                    await host.send(b"h%d" % i)
                    if i in (50, 180):
                        await _kill(host)
                    if i % 20 == 0:
                        await asyncio.sleep(0.005)

            async def guest_sends() -> None:
                for i in range(total):
                    await paced(b"g", i)
                    await guest.send(b"g%d" % i)
                    if i == 120:
                        await _kill(guest)
                    if i % 25 == 0:
                        await asyncio.sleep(0.005)

            async def receive(client: RelayClient, prefix: bytes, kill_at: int | None) -> list[bytes]:
                got = []
                for i in range(total):
                    got.append(await client.recv())
                    received[prefix] += 1
                    if i == kill_at:
                        await _kill(client)
                return got

            results = await asyncio.gather(
                host_sends(), guest_sends(), receive(guest, b"h", 300), receive(host, b"g", 260)
            )
            assert results[2] == [b"h%d" % i for i in range(total)]
            assert results[3] == [b"g%d" % i for i in range(total)]
            assert host.reconnects >= 2 and guest.reconnects >= 2
            assert server.metrics.resumes_total >= 4
            await host.close()
            await guest.close()

    run(body)


def test_frames_sent_while_the_peer_is_away_arrive_after_it_returns() -> None:
    async def body() -> None:
        async with relay() as server:
            host, guest = await _paired(url(server))
            await _kill(guest)
            for i in range(20):
                await host.send(bytes([i]))
            assert [await guest.recv() for _ in range(20)] == [bytes([i]) for i in range(20)]
            await host.close()
            await guest.close()

    run(body)


def test_peer_leaving_ends_the_stream_after_pending_frames() -> None:
    async def body() -> None:
        async with relay() as server:
            host, guest = await _paired(url(server))
            await host.send(b"last words")
            await host.close()
            assert await guest.recv() == b"last words"
            with pytest.raises(TransportClosed) as closed:
                await guest.recv()
            assert isinstance(closed.value, RelayClosed) and closed.value.reason == "peer_left"
            with pytest.raises(RelayClosed):
                await guest.send(b"anyone?")
            with pytest.raises(RelayClosed):
                await host.recv()

    run(body)


def test_reject_peer_reopens_the_room_for_a_new_joiner() -> None:
    async def body() -> None:
        async with relay() as server:
            address = url(server)
            host, bad = await _paired(address)
            await bad.send(b"bad handshake")
            assert await host.recv() == b"bad handshake"
            await host.reject_peer()
            with pytest.raises(RelayClosed) as rejected:
                await bad.recv()
            assert rejected.value.reason == "rejected"
            good = await RelayClient.join(address, host.code)
            await host.wait_for_peer(5)
            await good.send(b"good handshake")
            assert await host.recv() == b"good handshake"
            await host.send(b"welcome")
            assert await good.recv() == b"welcome"
            with pytest.raises(RelayError) as not_host:
                await good.reject_peer()
            assert not_host.value.reason == "not_host"
            await host.close()
            await good.close()

    run(body)


def test_local_checks_and_shutdown() -> None:
    async def body() -> None:
        async with relay(max_frame_bytes=1000) as server:
            host = await RelayClient.create(url(server))
            with pytest.raises(RelayError) as early:
                await host.send(b"x")
            assert early.value.reason == "no_peer"
            guest = await RelayClient.join(url(server), host.code)
            with pytest.raises(RelayError) as big:
                await guest.send(b"x" * 1001)
            assert big.value.reason == "frame_too_large"
            await server.shutdown()
            with pytest.raises(RelayClosed) as down:
                await guest.recv()
            assert down.value.reason == "shutdown"

    run(body)


def test_a_bare_relay_address_gets_the_version_path() -> None:
    assert relay_url("ws://127.0.0.1:8765") == "ws://127.0.0.1:8765/v1"
    assert relay_url("wss://relay.example/") == "wss://relay.example/v1"
    assert relay_url("ws://127.0.0.1:8765/v1") == "ws://127.0.0.1:8765/v1"

    async def body() -> None:
        async with relay() as server:
            host = await RelayClient.create(f"ws://127.0.0.1:{server.port}")
            guest = await RelayClient.join(f"ws://127.0.0.1:{server.port}/", host.code)
            await host.wait_for_peer(5)
            await guest.send(b"ok")
            assert await host.recv() == b"ok"
            await host.close()
            await guest.close()

    run(body)
