"""``koikoi bench relay``: the relay against a minimal websockets forwarder, both measured here.

Each server runs in its own process, and the load in another one, so the numbers are the server's,
not the load generator's: forwarded frames per second with 1, 100 and 1,000 rooms ping-ponging
200-byte frames, and resident memory per idle connection with 5,000 paired connections (RSS read
from /proc). The forwarder below is the floor: it pairs two connections by a name and copies
every message to the other side, nothing more. Ratios are relay / forwarder.

``--cluster 1,2,4`` adds the relay as a cluster of that many nodes on one ``redis-server``
(spec/relay.md §13), in the same interleaved runs: each room's host on one node and its joiner
on the next. Its CPU per frame adds up the nodes and Redis (from /proc), its ratio is against the
single-process relay; the latency of each frame (sent to received, one way, median and 99th
percentile, from the 1-room run) is reported beside the forwarder's.

Also a small command line for its own subprocesses:
``python -m koikoi_p2p.bench.relay forwarder --port 0`` and ``... load --kind relay --port P ...``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from koikoi_p2p.bench.report import Measurement

FRAME_BYTES = 200
PAYLOAD = b"\xa5" * FRAME_BYTES
MAX_MESSAGE = 65536 + 64  # the relay's default websocket message limit, given to the forwarder too
CONNECT_BATCH = 100


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="short run: fewer repeats and connections")
    parser.add_argument("--duration", type=float, default=None, help="seconds measured per throughput run")
    parser.add_argument("--connections", type=int, default=None, help="idle connections for the memory run")
    parser.add_argument("--rooms", default=None, help="room counts, comma-separated (default 1,100,1000; "
                        "with --cluster 1,100)")
    parser.add_argument("--cluster", default=None, metavar="N[,N...]",
                        help="also measure a relay cluster of N nodes on one redis-server, e.g. 1,2,4 "
                             "(with --hostile: a two-node cluster unless 0)")
    parser.add_argument("--hostile", action="store_true",
                        help="honest pairs' round trips and the relay's memory with attackers doing the "
                             "worst each limit allows, against the same run without (default rooms 100,1000)")
    parser.add_argument("--repeats", type=int, default=None, metavar="N",
                        help="with --hostile: interleaved runs with and without attackers, their round trips "
                             "pooled (default 3)")


def raise_nofile_limit() -> None:
    """Thousands of sockets need file descriptors: raise the soft limit to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process, from /proc/PID/stat (Linux)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def rss_bytes(pid: int) -> int:
    """Resident set size of a process, from /proc/PID/status (Linux)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS line")


# -- the minimal forwarder (the floor) ------------------------------------------------------


async def serve_forwarder(port: int) -> None:
    """Pair connections by their first message and copy every later message to the partner."""
    from websockets.asyncio.server import ServerConnection, serve
    from websockets.exceptions import ConnectionClosed

    waiting: dict[str | bytes, ServerConnection] = {}
    partners: dict[ServerConnection, ServerConnection] = {}

    async def handler(ws: ServerConnection) -> None:
        try:
            name = await ws.recv()
            other = waiting.pop(name, None)
            if other is None:
                waiting[name] = ws
            else:
                partners[ws], partners[other] = other, ws
                await other.send(b"paired")
                await ws.send(b"paired")
            async for message in ws:
                peer = partners.get(ws)
                if peer is not None:
                    with contextlib.suppress(ConnectionClosed):
                        await peer.send(message)
        except ConnectionClosed:
            pass
        finally:
            partners.pop(ws, None)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    async with serve(handler, "127.0.0.1", port, compression=None, max_size=MAX_MESSAGE) as server:
        bound = server.sockets[0].getsockname()[1]
        print(f"forwarder listening on ws://127.0.0.1:{bound}/v1", flush=True)
        await stop.wait()


# -- the load generator (its own process) ----------------------------------------------------


class _Pair:
    __slots__ = ("a", "b")

    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b


async def _open_pair(kind: str, urls: list[str], index: int) -> _Pair:
    """Two connections paired in one room; on a cluster the joiner is on the host's next node."""
    import msgpack
    from websockets.asyncio.client import connect

    a = await connect(urls[index % len(urls)], compression=None, max_size=None, open_timeout=60)
    b = await connect(urls[(index + 1) % len(urls)], compression=None, max_size=None, open_timeout=60)
    if kind == "forwarder":
        name = b"room-%d" % index
        await a.send(name)
        await b.send(name)
        assert await a.recv() == b"paired" and await b.recv() == b"paired"
    else:
        await a.send(msgpack.packb({"type": "create"}))
        code = msgpack.unpackb(await a.recv())["code"]
        await b.send(msgpack.packb({"type": "join", "code": code}))
        assert msgpack.unpackb(await b.recv())["type"] == "joined"
        assert msgpack.unpackb(await a.recv())["type"] == "peer_joined"
    return _Pair(a, b)


async def _open_pairs(kind: str, ports: list[int], rooms: int) -> list[_Pair]:
    urls = [f"ws://127.0.0.1:{port}/v1" for port in ports]
    pairs: list[_Pair] = []
    for start in range(0, rooms, CONNECT_BATCH):
        batch = range(start, min(rooms, start + CONNECT_BATCH))
        pairs.extend(await asyncio.gather(*(_open_pair(kind, urls, i) for i in batch)))
    return pairs


def _stamped() -> bytes:
    """The payload, its first 8 bytes the sending time (both ends of a room are in this process)."""
    return time.perf_counter_ns().to_bytes(8, "big") + PAYLOAD[8:]


async def _bounce(ws: Any, first: bool, counter: list[int], latencies: list[float] | None = None) -> None:
    """Receive a frame, answer with one: each room keeps exactly one frame in flight.

    The load is the same for both servers: relay-protocol frames, decoded and built by the
    clients; the forwarder copies them blindly, the relay parses, numbers and buffers them.
    """
    import msgpack
    from websockets.exceptions import ConnectionClosed

    pack = msgpack.packb
    unpack = msgpack.unpackb
    seq = received = 0
    try:
        if first:
            await ws.send(pack({"type": "frame", "seq": 0, "ack": 0, "data": _stamped()}))
            seq = 1
        async for message in ws:
            value = unpack(message)
            if value["type"] != "frame":
                continue  # a standalone ack of the relay
            if latencies is not None and len(latencies) < 200_000:
                sent = int.from_bytes(value["data"][:8], "big")
                latencies.append((time.perf_counter_ns() - sent) / 1e9)
            received += 1
            counter[0] += 1
            await ws.send(pack({"type": "frame", "seq": seq, "ack": received, "data": _stamped()}))
            seq += 1
    except ConnectionClosed:
        pass


async def _throughput(kind: str, ports: list[int], rooms: int, duration: float) -> dict[str, float]:
    pairs = await _open_pairs(kind, ports, rooms)
    counter = [0]
    latencies: list[float] = []
    tasks = []
    for pair in pairs:
        tasks.append(asyncio.create_task(_bounce(pair.a, True, counter, latencies)))
        tasks.append(asyncio.create_task(_bounce(pair.b, False, counter, latencies)))
    await asyncio.sleep(min(1.0, duration / 2))  # warm-up
    start_count, start = counter[0], time.perf_counter()
    latencies.clear()
    print(json.dumps({"window": "start"}), flush=True)  # the parent samples the server's CPU now
    await asyncio.sleep(duration)
    frames, seconds = counter[0] - start_count, time.perf_counter() - start
    window = sorted(latencies)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(ws.close() for p in pairs for ws in (p.a, p.b)), return_exceptions=True)
    median = window[len(window) // 2] if window else 0.0
    p99 = window[min(len(window) - 1, int(len(window) * 0.99))] if window else 0.0
    return {"frames": frames, "seconds": seconds, "latency_median": median, "latency_p99": p99}


async def _hold_idle(kind: str, port: int, connections: int) -> None:
    pairs = await _open_pairs(kind, [port], connections // 2)
    print(json.dumps({"ready": len(pairs) * 2}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    await asyncio.gather(*(ws.close() for p in pairs for ws in (p.a, p.b)), return_exceptions=True)


# -- orchestration ----------------------------------------------------------------------------


# Rates off and room counts high: the benchmark measures forwarding, not refusals.
RELAY_FLAGS = (
    "--log-level", "warning", "--max-messages-per-second", "0", "--max-bytes-per-second", "0",
    "--max-connections", "100000", "--max-rooms", "100000", "--max-rooms-per-connection", "100000",
    # Every client is on 127.0.0.1: the per-source limits would count them all as one.
    "--max-connections-per-source", "0", "--max-rooms-per-source", "0",
    "--max-bytes-per-second-per-source", "0", "--handshakes-per-second-per-source", "0",
)


def _start_server(kind: str, flags: Sequence[str] = RELAY_FLAGS,
                  own_session: bool = False) -> tuple[subprocess.Popen[str], int]:
    if kind == "relay":
        command = [sys.executable, "-m", "koikoi_relay", "--port", "0", *flags]
    else:
        command = [sys.executable, "-m", "koikoi_p2p.bench.relay", "forwarder", "--port", "0"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,  # noqa: S603
                            start_new_session=own_session)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "listening on ws://" not in line:
        proc.kill()
        raise RuntimeError(f"{kind} did not start: {line!r}")
    return proc, int(line.rsplit(":", 1)[1].split("/")[0])


class _Servers:
    """What one measurement runs against: the forwarder, the relay, or a cluster (nodes + Redis)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.procs: list[subprocess.Popen[str]] = []
        self.ports: list[int] = []
        self.pids: list[int] = []
        self.redis: Any = None
        if kind.startswith("cluster"):
            from koikoi_p2p.bench.cluster import RedisProcess, start_node

            self.redis = RedisProcess()
            self.redis.start()
            self.pids.append(self.redis.pid)
            for _ in range(int(kind.removeprefix("cluster"))):
                proc, port = start_node(self.redis.url, 0, *RELAY_FLAGS)
                self.procs.append(proc)
                self.ports.append(port)
        else:
            proc, port = _start_server(kind)
            self.procs.append(proc)
            self.ports.append(port)
        self.pids.extend(proc.pid for proc in self.procs)

    def cpu(self) -> tuple[float, float]:
        user = system = 0.0
        for pid in self.pids:
            u, s = cpu_seconds(pid)
            user, system = user + u, system + s
        return user, system

    def stop(self) -> None:
        for proc in self.procs:
            _stop(proc)
        if self.redis is not None:
            self.redis.kill()


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _load_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "koikoi_p2p.bench.relay", "load", *args]


def _measure_throughput(kind: str, rooms: int, duration: float) -> dict[str, float]:
    """Frames per second seen by the load, the servers' user and system CPU microseconds per frame
    (every process of a cluster added up), and the one-way latency of a frame (median, p99)."""
    servers = _Servers(kind)
    load: subprocess.Popen[str] | None = None
    try:
        ports = ",".join(str(port) for port in servers.ports)
        load_kind = "forwarder" if kind == "forwarder" else "relay"
        args = ("--kind", load_kind, "--port", ports, "--rooms", str(rooms), "--duration", str(duration))
        load = subprocess.Popen(_load_command(*args), stdout=subprocess.PIPE, text=True)  # noqa: S603
        assert load.stdout is not None
        json.loads(load.stdout.readline())
        user_start, sys_start = servers.cpu()
        result = json.loads(load.stdout.readline())
        user_end, sys_end = servers.cpu()
        load.wait(timeout=60)
    finally:
        if load is not None and load.poll() is None:
            load.kill()
        servers.stop()
    frames, seconds = float(result["frames"]), float(result["seconds"])
    return {"rate": frames / seconds, "user": (user_end - user_start) / frames * 1e6,
            "system": (sys_end - sys_start) / frames * 1e6,
            "latency_median": float(result["latency_median"]), "latency_p99": float(result["latency_p99"])}


def _measure_memory(kind: str, connections: int) -> float:
    server, port = _start_server(kind)
    load: subprocess.Popen[str] | None = None
    try:
        time.sleep(0.3)
        before = rss_bytes(server.pid)
        load = subprocess.Popen(  # noqa: S603
            _load_command("--kind", kind, "--port", str(port), "--idle", str(connections)),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        assert load.stdout is not None and load.stdin is not None
        ready = json.loads(load.stdout.readline())["ready"]
        time.sleep(1.0)  # let the server settle
        after = rss_bytes(server.pid)
        load.stdin.write("done\n")
        load.stdin.flush()
        load.wait(timeout=60)
    finally:
        if load is not None and load.poll() is None:
            load.kill()
        _stop(server)
    return (after - before) / int(ready)


def _ratio(value: float, floor: float) -> float:
    return value / floor if floor else float("inf")


def run(args: argparse.Namespace) -> list[Measurement]:
    if getattr(args, "hostile", False):
        from koikoi_p2p.bench import hostile

        return hostile.run(args)
    raise_nofile_limit()  # inherited by the server and load processes
    quick = bool(getattr(args, "quick", False))
    duration = args.duration if getattr(args, "duration", None) else (1.0 if quick else 3.0)
    connections = args.connections if getattr(args, "connections", None) else (1000 if quick else 5000)
    repeats = 1 if quick else 3
    clusters = [int(n) for n in str(getattr(args, "cluster", None) or "").split(",") if n.strip()]
    if clusters:
        from koikoi_p2p.bench.cluster import REDIS_PACKAGE, redis_server_binary

        if redis_server_binary() is None:
            raise SystemExit(
                f"koikoi bench relay --cluster needs redis-server (Debian package {REDIS_PACKAGE})")
    default_rooms = "1,100" if clusters else "1,100,1000"
    room_counts = [int(n) for n in str(getattr(args, "rooms", None) or default_rooms).split(",")]
    kinds = ["forwarder", "relay", *(f"cluster{n}" for n in clusters)]
    results: list[Measurement] = []
    for rooms in room_counts:
        runs: dict[str, list[dict[str, float]]] = {kind: [] for kind in kinds}
        for _ in range(repeats):
            for kind in kinds:  # interleaved, so drift hits all alike
                runs[kind].append(_measure_throughput(kind, rooms, duration))

        def med(kind: str, key: str, runs: dict[str, list[dict[str, float]]] = runs) -> float:
            if key == "cpu":
                return statistics.median(r["user"] + r["system"] for r in runs[kind])
            return statistics.median(r[key] for r in runs[kind])

        relay_rate, floor_rate = med("relay", "rate"), med("forwarder", "rate")
        results.append(Measurement(
            name=f"relay_frames_per_s_{rooms}_rooms", median_s=relay_rate, floor_s=floor_rate,
            ratio=relay_rate / floor_rate, unit="frames/s",
            note=f"median of {repeats}x{duration:g}s; 200-byte ping-pong; target ratio >= 0.8",
        ))
        relay_cost, floor_cost = med("relay", "cpu"), med("forwarder", "cpu")
        results.append(Measurement(
            name=f"relay_cpu_us_per_frame_{rooms}_rooms", median_s=relay_cost, floor_s=floor_cost,
            ratio=_ratio(relay_cost, floor_cost), unit="us/frame",
            note="server CPU (user+sys) per forwarded frame; steadier than frames/s on a shared machine",
        ))
        relay_user, floor_user = med("relay", "user"), med("forwarder", "user")
        results.append(Measurement(
            name=f"relay_user_cpu_us_per_frame_{rooms}_rooms", median_s=relay_user, floor_s=floor_user,
            ratio=_ratio(relay_user, floor_user), unit="us/frame",
            note="server user-space CPU per frame: the Python work alone, without the kernel's share",
        ))
        if not clusters:
            continue
        floor_latency, floor_p99 = med("forwarder", "latency_median"), med("forwarder", "latency_p99")
        for kind in kinds[1:]:
            latency, p99 = med(kind, "latency_median"), med(kind, "latency_p99")
            results.append(Measurement(
                name=f"{kind}_latency_s_{rooms}_rooms", median_s=latency, floor_s=floor_latency,
                ratio=_ratio(latency, floor_latency), unit="s",
                note=f"one-way per frame, median vs the forwarder's; added {latency - floor_latency:.6f} s; "
                     f"p99 {p99:.6f} s (forwarder {floor_p99:.6f} s)",
            ))
        for n in clusters:
            kind = f"cluster{n}"
            rate, cost = med(kind, "rate"), med(kind, "cpu")
            results.append(Measurement(
                name=f"{kind}_frames_per_s_{rooms}_rooms", median_s=rate, floor_s=relay_rate,
                ratio=_ratio(rate, relay_rate), unit="frames/s",
                note=f"{n} node(s) on one Redis vs the single-process relay; forwarder {floor_rate:.0f}/s",
            ))
            results.append(Measurement(
                name=f"{kind}_cpu_us_per_frame_{rooms}_rooms", median_s=cost, floor_s=relay_cost,
                ratio=_ratio(cost, relay_cost), unit="us/frame",
                note="nodes + redis-server CPU (user+sys) per frame vs the single relay; target ratio <= 2",
            ))
    memory = {kind: _measure_memory(kind, connections) for kind in ("forwarder", "relay")}
    results.append(Measurement(
        name=f"relay_rss_per_idle_conn_{connections}", median_s=memory["relay"], floor_s=memory["forwarder"],
        ratio=memory["relay"] / memory["forwarder"] if memory["forwarder"] > 0 else float("inf"),
        unit="bytes/conn",
        note=f"{connections} paired idle connections, RSS from /proc; target ratio <= 1.3",
    ))
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m koikoi_p2p.bench.relay")
    sub = parser.add_subparsers(dest="role", required=True)
    forwarder = sub.add_parser("forwarder", help="run the minimal forwarder")
    forwarder.add_argument("--port", type=int, default=0)
    load = sub.add_parser("load", help="generate load against a relay or a forwarder")
    load.add_argument("--kind", choices=["relay", "forwarder"], required=True)
    load.add_argument("--port", required=True, help="the server's port (a cluster's: comma-separated)")
    load.add_argument("--rooms", type=int, default=1)
    load.add_argument("--duration", type=float, default=2.0)
    load.add_argument("--idle", type=int, default=0, help="hold this many idle connections until stdin says")
    args = parser.parse_args(argv)
    raise_nofile_limit()
    if args.role == "forwarder":
        asyncio.run(serve_forwarder(args.port))
    elif args.idle:
        asyncio.run(_hold_idle(args.kind, int(args.port), args.idle))
    else:
        ports = [int(port) for port in args.port.split(",")]
        result = asyncio.run(_throughput(args.kind, ports, args.rooms, args.duration))
        print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
