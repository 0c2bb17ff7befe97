"""The HAProxy configuration of spec/relay.md §13.8, run as written in front of two relay nodes.

The balancer hashes ``?room=CODE``, so a room's joiner and every resume go to one node; when that
node is killed, the balancer's health check and redispatch send the peers to the other node,
where they resume from Redis with nothing lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from koikoi_p2p.bench.cluster import RedisProcess, free_port, start_node, stop
from koikoi_p2p.net.relay_client import RelayClient
from tests.conftest import need_program
from tests.e2e.test_relay_limits import _http_get
from tests.e2e.test_relay_support import Raw, run

ROOT = Path(__file__).resolve().parents[2]


def documented_config() -> str:
    """The indented HAProxy block of spec/relay.md §13.8."""
    text = (ROOT / "spec" / "relay.md").read_text()
    section = text[text.index("### 13.8"):]
    config = []
    for line in section[section.index("    global"):].split("\n"):
        if line and not line.startswith("    "):
            break
        config.append(line[4:])
    return "\n".join(config).strip() + "\n"


def test_the_documented_config_is_the_one_described() -> None:
    config = documented_config()
    assert "balance url_param room" in config and "hash-type consistent" in config
    assert "option httpchk GET /healthz" in config
    assert config.count("server node") == 2


@pytest.fixture
def balanced(redis_process: RedisProcess,
             tmp_path: Path) -> Iterator[tuple[int, list[subprocess.Popen[str]], list[int]]]:
    haproxy = need_program("haproxy", "haproxy")
    nodes = [start_node(redis_process.url) for _ in range(2)]
    front = free_port()
    config = (documented_config().replace("127.0.0.1:8765", f"127.0.0.1:{front}")
              .replace("127.0.0.1:8801", f"127.0.0.1:{nodes[0][1]}")
              .replace("127.0.0.1:8802", f"127.0.0.1:{nodes[1][1]}"))
    path = tmp_path / "haproxy.cfg"
    path.write_text(config)
    check = subprocess.run([haproxy, "-c", "-f", str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    balancer = subprocess.Popen([haproxy, "-db", "-f", str(path)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, text=True)
    try:
        yield front, [proc for proc, _ in nodes], [port for _, port in nodes]
    finally:
        balancer.send_signal(signal.SIGTERM)
        try:
            balancer.wait(timeout=10)
        except subprocess.TimeoutExpired:
            balancer.kill()
            balancer.wait()
        for proc, _ in nodes:
            stop(proc)


async def _connections_total(port: int) -> int:
    _, metrics = await _http_get(port, "/metrics")
    return int(next(line for line in metrics.splitlines()
                    if line.startswith("relay_connections_total")).split()[1])


def test_haproxy_routes_by_room_and_fails_over(
    balanced: tuple[int, list[subprocess.Popen[str]], list[int]],
) -> None:
    front, procs, ports = balanced
    address = f"ws://127.0.0.1:{front}/v1"

    async def body() -> None:
        for _ in range(100):   # the balancer starting and its first health checks
            with contextlib.suppress(OSError):
                status, _ = await _http_get(front, "/healthz")
                if status == 200:
                    break
            await asyncio.sleep(0.1)
        host = await RelayClient.create(address)
        guest = await RelayClient.join(address, host.code)
        await host.wait_for_peer(5)
        for i in range(10):
            await host.send(b"h%d" % i)
            await guest.send(b"g%d" % i)
        assert [await guest.recv() for _ in range(10)] == [b"h%d" % i for i in range(10)]
        assert [await host.recv() for _ in range(10)] == [b"g%d" % i for i in range(10)]
        # Every connection naming the room goes to the same node (consistent hash of the code).
        before = [await _connections_total(port) for port in ports]
        for _ in range(4):
            third = await Raw.connect(f"{address}?room={host.code}")
            await third.send("join", code=host.code)
            assert (await third.expect("error"))["reason"] == "room_full"
            await third.close()
        after = [await _connections_total(port) for port in ports]
        grew = [b - a for a, b in zip(before, after, strict=True)]
        assert sorted(grew) == [0, 4], grew
        target = grew.index(4)
        # Kill the room's node: the peers on it resume through the balancer on the other node.
        procs[target].send_signal(signal.SIGKILL)
        procs[target].wait()
        for i in range(10, 20):
            await host.send(b"h%d" % i)
            await guest.send(b"g%d" % i)
        to_guest = [await asyncio.wait_for(guest.recv(), 30) for _ in range(10)]
        to_host = [await asyncio.wait_for(host.recv(), 30) for _ in range(10)]
        assert to_guest == [b"h%d" % i for i in range(10, 20)]
        assert to_host == [b"g%d" % i for i in range(10, 20)]
        assert guest.reconnects >= 1
        await host.close()
        await guest.close()

    run(body)
