"""The chaos proxy: loopback only, and each fault does what it says on a real websocket stack."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from koikoi_p2p.net.chaos import ChaosConfig, ChaosError, ChaosProxy, check_loopback, main


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 20))


class Upstream:
    """A loopback server that records what reaches it and can push messages to its client."""

    def __init__(self) -> None:
        self.received: list[str | bytes] = []
        self.paths: list[str] = []
        self.conns: list[ServerConnection] = []
        self.arrived = asyncio.Event()

    async def handler(self, conn: ServerConnection) -> None:
        self.conns.append(conn)
        self.paths.append(conn.request.path if conn.request else "")
        self.arrived.set()
        with contextlib.suppress(ConnectionClosed):
            async for message in conn:
                self.received.append(message)


@contextlib.asynccontextmanager
async def chain(config: ChaosConfig, seed: int = 7) -> AsyncIterator[tuple[Upstream, ChaosProxy]]:
    upstream = Upstream()
    async with serve(upstream.handler, "127.0.0.1", 0, compression=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        async with ChaosProxy(f"ws://127.0.0.1:{port}", config, seed=seed) as proxy:
            yield upstream, proxy


async def client(proxy: ChaosProxy, path: str = "/") -> ClientConnection:
    return await connect(proxy.url + path, compression=None, proxy=None)


async def settle(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError("condition not reached")
        await asyncio.sleep(0.01)


# --- loopback only -------------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["10.0.0.1", "192.168.1.2", "8.8.8.8", "0.0.0.0", "::", "example.com",
                                  "::ffff:8.8.8.8", "2001:db8::1", ""])
def test_refuses_non_loopback_hosts(host: str) -> None:
    with pytest.raises(ChaosError) as info:
        check_loopback(host)
    assert info.value.reason == "not_loopback"


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"])
def test_accepts_loopback_hosts(host: str) -> None:
    assert check_loopback(host)


def test_refuses_remote_upstream_and_bind() -> None:
    with pytest.raises(ChaosError) as info:
        ChaosProxy("ws://203.0.113.5:8080")
    assert info.value.reason == "not_loopback"
    with pytest.raises(ChaosError) as info:
        ChaosProxy("ws://relay.example.org/")
    assert info.value.reason == "not_loopback"
    with pytest.raises(ChaosError) as info:
        ChaosProxy("ws://127.0.0.1:1", host="0.0.0.0")
    assert info.value.reason == "not_loopback"
    with pytest.raises(ChaosError) as info:
        ChaosProxy("http://127.0.0.1:1")
    assert info.value.reason == "bad_upstream"


@pytest.mark.parametrize("field", ["drop", "duplicate", "reorder", "delay", "cut"])
@pytest.mark.parametrize("value", [-0.1, 1.5, float("nan")])
def test_rates_are_validated(field: str, value: float) -> None:
    with pytest.raises(ChaosError) as info:
        ChaosConfig(**{field: value})  # type: ignore[arg-type]
    assert info.value.reason == "bad_rate"


def test_cli_refuses_remote_upstream(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--upstream", "ws://198.51.100.7:9"]) == 2
    assert "not_loopback" in capsys.readouterr().err


# --- faults --------------------------------------------------------------------------------------

def test_quiet_proxy_is_transparent_both_ways() -> None:
    async def body() -> None:
        async with chain(ChaosConfig()) as (upstream, proxy):
            ws = await client(proxy, "/room/ABC?x=1")
            for i in range(20):
                await ws.send(bytes([i]) * 3)
            await ws.send("control")
            await settle(lambda: len(upstream.received) == 21)
            assert upstream.received == [bytes([i]) * 3 for i in range(20)] + ["control"]
            assert upstream.paths == ["/room/ABC?x=1"]
            for i in range(5):
                await upstream.conns[0].send(f"down{i}".encode())
            got = [await ws.recv() for _ in range(5)]
            assert got == [f"down{i}".encode() for i in range(5)]
            await ws.close()
            assert proxy.stats.dropped == 0 and proxy.stats.forwarded == 26

    run(body())


def test_drop_all_binary_but_keep_control_text() -> None:
    async def body() -> None:
        async with chain(ChaosConfig(drop=1.0)) as (upstream, proxy):
            ws = await client(proxy)
            for i in range(10):
                await ws.send(bytes([i]))
            await ws.send("hello")
            await settle(lambda: upstream.received == ["hello"])
            assert proxy.stats.dropped == 10
            await ws.close()

    run(body())


def test_drop_everything_when_text_is_faulted_too() -> None:
    async def body() -> None:
        async with chain(ChaosConfig(drop=1.0, binary_only=False)) as (upstream, proxy):
            ws = await client(proxy)
            await ws.send("hello")
            await ws.send(b"\x01")
            await settle(lambda: proxy.stats.dropped == 2)
            await asyncio.sleep(0.05)
            assert upstream.received == []
            await ws.close()

    run(body())


def test_duplicate_sends_every_message_twice_in_place() -> None:
    async def body() -> None:
        async with chain(ChaosConfig(duplicate=1.0)) as (upstream, proxy):
            ws = await client(proxy)
            for i in range(5):
                await ws.send(bytes([i]))
            await settle(lambda: len(upstream.received) == 10)
            assert upstream.received == [bytes([i // 2]) for i in range(10)]
            await ws.close()

    run(body())


def test_reorder_and_delay_permute_but_lose_nothing() -> None:
    async def body() -> None:
        config = ChaosConfig(reorder=0.3, delay=0.3, max_delay_s=0.02)
        async with chain(config) as (upstream, proxy):
            ws = await client(proxy)
            sent = [i.to_bytes(2, "big") for i in range(60)]
            for message in sent:
                await ws.send(message)
            await settle(lambda: len(upstream.received) == 60)
            assert sorted(m for m in upstream.received if isinstance(m, bytes)) == sent
            assert upstream.received != sent
            assert proxy.stats.reordered > 0 and proxy.stats.delayed > 0
            await ws.close()

    run(body())


def test_a_held_back_message_is_released_even_without_a_successor() -> None:
    async def body() -> None:
        async with chain(ChaosConfig(reorder=1.0)) as (upstream, proxy):
            ws = await client(proxy)
            await ws.send(b"only")
            await settle(lambda: upstream.received == [b"only"])
            await ws.close()

    run(body())


def test_same_seed_same_drops() -> None:
    async def pattern(seed: int) -> list[str | bytes]:
        async with chain(ChaosConfig(drop=0.5), seed=seed) as (upstream, proxy):
            ws = await client(proxy)
            for i in range(40):
                await ws.send(bytes([i]))
            await ws.send("end")
            await settle(lambda: upstream.received[-1:] == ["end"])
            await ws.close()
            return list(upstream.received)

    async def body() -> None:
        first, again, other = await pattern(3), await pattern(3), await pattern(4)
        assert first == again
        assert first != other
        assert 2 < len(first) < 40

    run(body())


def test_cut_all_aborts_both_sides() -> None:
    async def body() -> None:
        async with chain(ChaosConfig()) as (upstream, proxy):
            ws = await client(proxy)
            await ws.send(b"x")
            await settle(lambda: len(upstream.received) == 1)
            assert proxy.cut_all() == 1
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            await settle(lambda: upstream.conns[0].state.name == "CLOSED")
            assert proxy.stats.cuts == 1
            # A new connection through the same proxy works: a cut is not the end of the proxy.
            again = await client(proxy)
            await again.send(b"y")
            await settle(lambda: upstream.received == [b"x", b"y"])
            await again.close()

    run(body())


def test_cut_rate_cuts_on_a_message() -> None:
    async def body() -> None:
        async with chain(ChaosConfig(cut=1.0)) as (upstream, proxy):
            ws = await client(proxy)
            await ws.send(b"doomed")
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            assert upstream.received == []
            assert proxy.stats.cuts == 1

    run(body())


def test_calm_stops_faults() -> None:
    async def body() -> None:
        async with chain(ChaosConfig(drop=1.0)) as (upstream, proxy):
            ws = await client(proxy)
            await ws.send(b"lost")
            await settle(lambda: proxy.stats.dropped == 1)
            proxy.calm()
            await ws.send(b"kept")
            await settle(lambda: upstream.received == [b"kept"])
            await ws.close()

    run(body())


def test_unreachable_upstream_closes_the_client() -> None:
    async def body() -> None:
        # A port that was just free: nothing listens there.
        async with serve(lambda c: c.close(), "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
        async with ChaosProxy(f"ws://127.0.0.1:{port}") as proxy:
            ws = await client(proxy)
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            assert proxy.stats.upstream_failures == 1

    run(body())


def test_relay_frames_scope_spares_control_messages() -> None:
    import msgpack

    async def body() -> None:
        async with chain(ChaosConfig(drop=1.0, scope="relay_frames")) as (upstream, proxy):
            ws = await client(proxy)
            control = msgpack.packb({"type": "create", "public": False})
            frame = msgpack.packb({"seq": 0, "data": b"\xa4type\xa5join", "type": "frame"})
            await ws.send(frame)
            await ws.send(control)
            await ws.send(b"\xc1 not msgpack")
            await settle(lambda: len(upstream.received) == 2)
            assert upstream.received == [control, b"\xc1 not msgpack"]
            assert proxy.stats.dropped == 1
            await ws.close()

    run(body())


def test_bad_scope() -> None:
    with pytest.raises(ChaosError) as info:
        ChaosConfig(scope="everything")
    assert info.value.reason == "bad_scope"
