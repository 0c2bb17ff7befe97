"""``koikoi bench relay --hostile``: honest pairs play while attackers do the worst each limit allows.

Each run starts a fresh relay (or a two-node cluster on one ``redis-server``) with its default
limits, then, each in its own process:

- the **honest** load: ROOMS pairs, each from its own address, the host sending a timestamped
  frame every second (with jitter) that the joiner echoes at once; the host measures each round
  trip. Both acknowledge what they receive, as real peers do.
- the **attackers** (hostile runs only), from a few addresses, each address using its per-source
  caps to the full:
  - *maximal buffers*: every room an address may create, its two seats sending 64 KiB frames that
    the other reads and never acknowledges, the address's connections together just within its
    byte rate (beyond, the relay reads them only as the debt is paid and its unanswered pings end
    them), until the global budget is full and on (the relay then gives back the oldest);
  - *lobby flood*: public rooms with the largest `meta`, every connection asking for the lobby at
    the lobby's own rate (and its burst);
  - *reconnect storm*: connections opened, a room created, closed, again, without pause;
  - *waves*: a few addresses each opening all the connections its handshake burst allows in the
    same instant, a public room on each, closing them together a moment later, and again as soon
    as the burst has refilled: many addresses reconnecting in step (spec/relay.md §7.2);
  - *slow requests*: sockets that send an HTTP request head one byte a second.

Every server process (each node, Redis), the honest clients and the attackers run in sessions of
their own: Linux (with autogroup, the default on desktop and many server kernels) shares the CPU
between sessions first and by nice value only within one, so a relay in the bench's own session
shared one session's slice of a busy machine with the honest clients and the attackers, whatever
its nice value. Alone in its session the relay gets a slice as any other service does. The
attackers' process runs at nice +10 (its session too): on the open internet their CPU is not the
relay host's. On a machine of two CPUs or more the servers run on the first half of the CPUs and
the clients (honest and attackers) on the rest, in both kinds of run: a relay host's CPU is not its
clients' (``KOIKOI_BENCH_PLACEMENT=shared``: every process on every CPU). A cluster's two nodes and
its Redis then share one half: on a machine of two CPUs, one CPU, which they saturate at 1,000
rooms without any attacker, and each process's work delays the others' frames (a node's burst
holds Redis off the CPU for milliseconds). ``KOIKOI_BENCH_PLACEMENT=redis-apart`` runs Redis on the
clients' half instead, as a deployment runs it on a host or core of its own. In either placement
Redis is less nice than its nodes by ``REDIS_NICE`` (itself and its session's group), the share of
the CPU deploy/'s drop-in for Debian's redis-server gives it: every frame between the nodes waits
for Redis, and behind a node's burst on a shared CPU it delayed every room (the default placement,
1,000 rooms, 3 interleaved repeats: honest p99 under attack 111 ms at the nodes' priority, 43 ms at
-5; without attackers 12.9 and 14.1 ms; ``redis-apart`` not measured so). With
``KOIKOI_BENCH_RELAY_NICE=N`` the relay (nodes and Redis) and the honest clients, and their
sessions, run at nice N (below 0 needs root), so other work on a shared machine delays them less.

The relay learns each client's address from a header (``--source-header``), as behind a proxy, so
one machine can play many addresses. Runs with and without attackers are interleaved; the report
gives the honest round trip (median and 99th percentile) of each and their ratio, the relay's
peak resident memory (all nodes, plus Redis's ``used_memory`` for a cluster), how much the relay
processes' own grew under attack, and the peak of what the budget counts (``relay_buffered_bytes``
plus ``relay_held_bytes``, spec/relay.md §8.7; in a cluster, of the node that counts the most: its
own held bytes and the other nodes' bytes in flight, ``relay_in_flight_bytes``, not their
connections, §13.6) against ``max_buffered_bytes``.

With ``KOIKOI_RELAY_PAUSES=DIR`` every relay of the bench records where its event loop stopped
(koikoi_relay/pauses.py: collector passes, late ticks and the CPU the relay had meanwhile, slow
callbacks), and each run prints to stderr, as a JSON line, what fell in its window and how many of
its slowest 1% of honest round trips overlap a stall of a relay, and each late tick the kinds of
callback that ran meanwhile (the costliest six, with their counts and seconds). With
``KOIKOI_BENCH_ATTACKS=buffers,lobby,storm,slow,waves`` (any of them) only the attacks named run: what
each costs alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any

from koikoi_p2p.bench.relay import cpu_seconds, raise_nofile_limit, rss_bytes
from koikoi_p2p.bench.report import Measurement

HEADER = "X-Forwarded-For"
# koikoi_relay/pauses.py: set to a directory, every relay of the bench writes there where its event
# loop stopped (collector passes, late ticks), and the report says what fell in each window.
PAUSES_ENV = "KOIKOI_RELAY_PAUSES"
STALL = 0.01    # a collector pass or a late tick at least this long counts as a stall of the relay
INTERVAL = 1.0              # seconds between an honest host's frames
BUFFER_SOURCES = 16         # addresses filling buffers (16 x 32 rooms x 2 MiB: four times the budget)
FILL_TIMEOUT = 60.0         # seconds the attackers get to fill the budget before the window opens
LOBBY_SOURCES = 4           # ... flooding the lobby
STORM_SOURCES = 2           # ... reconnecting without pause
WAVE_SOURCES = 4            # ... reconnecting all their connections in step
WAVE_HOLD = 2.0             # seconds a wave's connections stay open
SLOW_SOCKETS = 128          # sockets sending a request head a byte a second
FAT_META = {f"k{i}": "x" * 64 for i in range(8)}
# Which attackers run (to see what each costs on its own): buffers, lobby, storm, slow, waves; default all.
ATTACKS_ENV = "KOIKOI_BENCH_ATTACKS"
ATTACKS = frozenset({"buffers", "lobby", "storm", "slow", "waves"})


def attacks_wanted() -> frozenset[str]:
    """The attacks ``KOIKOI_BENCH_ATTACKS`` names (comma-separated), or all of them."""
    value = os.environ.get(ATTACKS_ENV, "")
    if not value:
        return ATTACKS
    kinds = frozenset(name.strip() for name in value.split(",") if name.strip())
    unknown = sorted(kinds - ATTACKS)
    if unknown or not kinds:
        raise ValueError(f"{ATTACKS_ENV}: unknown attack {', '.join(unknown) or repr(value)}; "
                         f"known: {', '.join(sorted(ATTACKS))}")
    return kinds


def _limits() -> Any:
    from koikoi_relay.limits import Limits

    return Limits()


def run_queue_wait(pid: int) -> float:
    """Seconds a process's main thread has spent runnable but waiting for a CPU (Linux
    /proc/PID/schedstat): how much the machine's other load delayed it."""
    try:
        with open(f"/proc/{pid}/schedstat", encoding="ascii") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


# -- the servers ---------------------------------------------------------------------------------------


def budget_count(nodes: list[tuple[int, int]]) -> int:
    """Of each node's (``relay_held_bytes``, ``relay_in_flight_bytes``), what the budget of the
    node that counts the most counts beside the resume buffers (spec/relay.md §13.6): its own held
    bytes and the other nodes' bytes in flight, not their connections. (It took the others' held
    bytes less ``connection_bytes`` for each of their ``relay_connections``: those count websocket
    connections only, the budget every accepted socket, so a node's sockets still in their
    handshake, the slow attackers' among them, counted as its bytes in flight.)"""
    flying = sum(in_flight for _, in_flight in nodes)
    return max(held + flying - in_flight for held, in_flight in nodes)


class Servers:
    """A relay with default limits (or two nodes on a fresh redis-server), addresses from a header."""

    def __init__(self, cluster: bool) -> None:
        from koikoi_p2p.bench.cluster import RedisProcess, start_node
        from koikoi_p2p.bench.relay import _start_server

        flags = ("--log-level", "error", "--source-header", HEADER)
        self.procs: list[subprocess.Popen[str]] = []
        self.ports: list[int] = []
        self.redis: Any = None
        if cluster:
            self.redis = RedisProcess()
            self.redis.start(own_session=True)
            for _ in range(2):
                proc, port = start_node(self.redis.url, 0, *flags, own_session=True)
                self.procs.append(proc)
                self.ports.append(port)
        else:
            proc, port = _start_server("relay", flags, own_session=True)
            self.procs.append(proc)
            self.ports.append(port)

    def cpu(self) -> float:
        """User and system CPU seconds of every server process (nodes and Redis)."""
        pids = [proc.pid for proc in self.procs] + ([self.redis.pid] if self.redis is not None else [])
        return sum(sum(cpu_seconds(pid)) for pid in pids)

    def redis_memory(self) -> int:
        """Redis's ``used_memory`` (0 without a cluster)."""
        if self.redis is None:
            return 0
        import redis

        with contextlib.closing(redis.Redis.from_url(self.redis.url)) as client:
            info: Any = client.info("memory")
            return int(info["used_memory"])

    def rss(self) -> int:
        return sum(rss_bytes(proc.pid) for proc in self.procs) + self.redis_memory()

    def _gauges(self, port: int, *names: str) -> list[int]:
        """The gauges of one ``/metrics`` reply (one instant: two replies would add up two moments);
        -1 each when the relay did not answer in time."""
        url = f"http://127.0.0.1:{port}/metrics"
        found = dict.fromkeys(names, 0)
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                for line in answer.read().decode().splitlines():
                    name, _, value = line.partition(" ")
                    if name in found:
                        found[name] = int(float(value.split()[0]))
        except OSError:
            return [-1] * len(names)
        return [found[name] for name in names]

    def buffered(self) -> int:
        """``relay_buffered_bytes`` of the first node (a cluster's is the whole cluster's); -1 when
        the relay did not answer in time (counted in the report)."""
        return self._gauges(self.ports[0], "relay_buffered_bytes")[0]

    def held(self) -> tuple[int, int, int]:
        """(``relay_buffered_bytes`` of the first node, what the budget of the node that counts the
        most counts beside it, and ``relay_connections`` of every node together), the first node's
        from the same reply; -1 each when a relay did not answer in time (counted in the report).

        A node counts its own ``relay_held_bytes`` (bytes read and not yet handled, write buffers
        and its connections' own cost, §8.7 (b) to (d)) and the other nodes' (b) and (d) alone,
        ``relay_in_flight_bytes``, not their connections (§13.6). One relay: its held bytes."""
        names = ("relay_held_bytes", "relay_in_flight_bytes", "relay_connections")
        buffered, *first = self._gauges(self.ports[0], "relay_buffered_bytes", *names)
        rows = [first] + [self._gauges(port, *names) for port in self.ports[1:]]
        if min(min(row) for row in rows) < 0:
            return buffered, -1, -1
        if self.redis is not None:
            # A node's gauge is the cluster's total as read at its last sweep (up to a second old):
            # beside the held bytes of now, Redis's own count of now.
            import redis

            with contextlib.closing(redis.Redis.from_url(self.redis.url)) as client:
                buffered = int(client.get("koikoi:buf") or 0)
        held = [(row[0], row[1]) for row in rows]
        return buffered, budget_count(held), sum(row[2] for row in rows)

    def relay_rss(self) -> int:
        """Resident memory of the relay processes alone (no Redis)."""
        return sum(rss_bytes(proc.pid) for proc in self.procs)

    def stop(self) -> None:
        from koikoi_p2p.bench.cluster import stop

        for proc in self.procs:
            stop(proc)
        if self.redis is not None:
            self.redis.kill()


# -- the honest load (its own process) ----------------------------------------------------------------


async def _connect(port: int, source: str, keepalive: bool = True) -> Any:
    from websockets.asyncio.client import connect

    return await connect(f"ws://127.0.0.1:{port}/v1", compression=None, max_size=None, open_timeout=120,
                         additional_headers={HEADER: source}, ping_interval=20.0 if keepalive else None)


async def _honest_pair(ports: list[int], index: int) -> tuple[Any, Any]:
    import msgpack

    source = f"10.1.{index // 250}.{index % 250 + 1}"
    # No client-side pings: the relay pings every connection (spec/relay.md §2 item 6) and the
    # clients answer; 2,000 client keepalives opened together fired in the same turn every 20 s,
    # a burst of the instrument's own that the round trips then measured.
    host = await _connect(ports[index % len(ports)], source, keepalive=False)
    guest = await _connect(ports[(index + 1) % len(ports)], source, keepalive=False)
    await host.send(msgpack.packb({"type": "create"}))
    code = msgpack.unpackb(await host.recv())["code"]
    await guest.send(msgpack.packb({"type": "join", "code": code}))
    assert msgpack.unpackb(await guest.recv())["type"] == "joined"
    assert msgpack.unpackb(await host.recv())["type"] == "peer_joined"
    return host, guest


async def _honest_host(ws: Any, rtts: list[tuple[float, float]], measuring: asyncio.Event) -> None:
    import msgpack

    seq = received = 0
    await asyncio.sleep(random.random() * INTERVAL)  # noqa: S311 - spreading the load, not a secret

    async def read() -> None:
        nonlocal received
        async for message in ws:
            value = msgpack.unpackb(message)
            if value["type"] == "frame":
                received += 1
                if measuring.is_set():
                    rtt = (time.perf_counter_ns() - int.from_bytes(value["data"][:8], "big")) / 1e9
                    rtts.append((rtt, time.time()))   # and when it came back (wall clock)

    reader = asyncio.create_task(read())
    try:
        while not reader.done():
            stamp = time.perf_counter_ns().to_bytes(8, "big") + b"\x5a" * 192
            await ws.send(msgpack.packb({"type": "frame", "seq": seq, "ack": received, "data": stamp}))
            seq += 1
            await asyncio.sleep(INTERVAL * (0.8 + 0.4 * random.random()))  # noqa: S311
    finally:
        reader.cancel()


async def _honest_guest(ws: Any) -> None:
    import msgpack

    seq = received = 0
    async for message in ws:
        value = msgpack.unpackb(message)
        if value["type"] == "frame":
            received += 1
            echo = {"type": "frame", "seq": seq, "ack": received, "data": value["data"]}
            await ws.send(msgpack.packb(echo))
            seq += 1


async def honest(ports: list[int], rooms: int, duration: float) -> dict[str, Any]:
    pairs: list[tuple[Any, Any]] = []
    for start in range(0, rooms, 50):
        batch = range(start, min(rooms, start + 50))
        pairs.extend(await asyncio.gather(*(_honest_pair(ports, i) for i in batch)))
    rtts: list[tuple[float, float]] = []
    measuring = asyncio.Event()
    tasks = [asyncio.create_task(_honest_host(host, rtts, measuring)) for host, _ in pairs]
    tasks += [asyncio.create_task(_honest_guest(guest)) for _, guest in pairs]
    # The 2,000 connections' objects live as long as the run: frozen, the collector no longer walks
    # them (a full pass over them took 128 ms of this process under attack, measured as the relay's).
    # The young generation is collected less often, as the relay does (koikoi_relay/collector.py).
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    print(json.dumps({"ready": len(pairs)}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)   # the parent says go
    measuring.set()
    opened = time.time()
    lags: list[float] = []
    watcher = asyncio.create_task(_loop_lag(lags))
    await asyncio.sleep(duration)
    measuring.clear()
    closed = time.time()
    watcher.cancel()
    lags.sort()
    broken = sum(1 for task in tasks if task.done())
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(ws.close() for pair in pairs for ws in pair), return_exceptions=True)
    window = sorted(rtt for rtt, _ in rtts)
    lag = {"lag_p50": _quantile(lags, 0.5), "lag_p99": _quantile(lags, 0.99)}
    p99 = _quantile(window, 0.99)
    result: dict[str, Any] = {"count": len(window), "p50": _quantile(window, 0.5), "p99": p99,
                              "broken": broken, "window": [opened, closed], **lag,
                              # every round trip (microseconds), so the repeats pool into one p99
                              "rtts_us": [round(rtt * 1e6) for rtt in window]}
    if os.environ.get(PAUSES_ENV):
        # The slowest 1% (from the p99 up), each as (round trip, wall clock when it came back),
        # to set beside the relay's own record of its pauses (koikoi_relay/pauses.py).
        result["slow"] = [(rtt, at) for rtt, at in rtts if rtt >= p99]
    return result


def pooled(runs: list[dict[str, Any]], q: float) -> float:
    """The ``q`` quantile (seconds) of the round trips of all ``runs`` together."""
    return _quantile(sorted(float(us) for run in runs for us in run["rtts_us"]), q) / 1e6


def _quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


async def _loop_lag(lags: list[float]) -> None:
    """How late this process's event loop wakes from a 10 ms sleep: the part of a round trip that
    is the honest clients' own delay (a busy machine, their own work), not the relay's."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - start - 0.01)


# -- the attackers (their own process) ----------------------------------------------------------------


async def _quiet(coro: Callable[[], Awaitable[None]]) -> None:
    """An attacker task: refusals and closes are what it expects; it tries again after a moment."""
    while True:
        try:
            await coro()
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            await asyncio.sleep(0.5)


async def _drain(ws: Any) -> None:
    with contextlib.suppress(Exception):
        async for _ in ws:
            pass


async def _buffer_room(ports: list[int], source: str, ready: list[int], connections: int) -> None:
    """Two seats each sending 64 KiB frames the other reads and never acknowledges; ``connections``:
    how many the address has, sharing its byte rate."""
    import msgpack

    lim = _limits()
    # No keepalive pings of their own: the relay reads a connection of an address past its byte
    # rate only as the debt is paid (tens of seconds with 64 of them sending), so a ping would
    # time out and the client close, and the buffers would empty into a storm of reconnections.
    host = await _connect(ports[0], source, keepalive=False)
    try:
        guest = await _connect(ports[-1], source, keepalive=False)
    except BaseException:
        # Refused (the address's handshake rate): the host's connection goes too, or it would sit
        # idle on the address's connection cap until the relay's idle timeout.
        await host.close()
        raise
    await host.send(msgpack.packb({"type": "create"}))
    reply = msgpack.unpackb(await host.recv())
    if reply["type"] != "created":
        await host.close()
        await guest.close()
        raise RuntimeError(reply.get("reason", "refused"))
    await guest.send(msgpack.packb({"type": "join", "code": reply["code"]}))
    await guest.recv()
    await host.recv()
    readers = [asyncio.create_task(_drain(ws)) for ws in (host, guest)]
    data = b"\xee" * lim.max_frame_bytes
    # Just under the connection's byte rate, and the address's connections together just under
    # its shared rate (spec/relay.md §7.1): beyond it the relay stops reading them until the debt
    # is paid, its own pings go unanswered meanwhile and it closes them, and the attack would turn
    # into a storm of reconnections (the storm attack's part) with its buffers emptied.
    per_connection = lim.max_frame_bytes / lim.max_bytes_per_second if lim.max_bytes_per_second else 0
    per_source = (lim.max_frame_bytes * connections / lim.max_bytes_per_second_per_source
                  if lim.max_bytes_per_second_per_source else 0)
    pace = max(per_connection, per_source) * 1.1
    ready[0] += 1
    seq = 0
    try:
        while all(not reader.done() for reader in readers):
            for ws in (host, guest):
                await ws.send(msgpack.packb({"type": "frame", "seq": seq, "data": data}))
            seq += 1
            await asyncio.sleep(pace)
    finally:
        for reader in readers:
            reader.cancel()
        await host.close()
        await guest.close()


async def _lobby_flood(port: int, source: str, create: bool) -> None:
    import msgpack

    lim = _limits()
    ws = await _connect(port, source)
    reader = asyncio.create_task(_drain(ws))
    try:
        if create:
            await ws.send(msgpack.packb({"type": "create", "public": True, "meta": FAT_META}))
        for _ in range(lim.lobby_burst):
            await ws.send(msgpack.packb({"type": "lobby"}))
        while not reader.done():
            await asyncio.sleep(1.0 / lim.lobby_per_second if lim.lobby_per_second else 0.005)
            await ws.send(msgpack.packb({"type": "lobby"}))
    finally:
        reader.cancel()
        await ws.close()


async def _storm(port: int, source: str, counter: list[int]) -> None:
    import msgpack

    while True:
        ws = await _connect(port, source)
        await ws.send(msgpack.packb({"type": "create", "public": True, "meta": FAT_META}))
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.recv(), 5)
        ws.transport.abort()   # dropped, as a client that vanishes: the room waits out the grace
        counter[0] += 1


async def _wave(ports: list[int], source: str, counter: list[int]) -> None:
    """One address's whole handshake burst at once, each with a public room, closed together after
    WAVE_HOLD seconds, again when the burst has refilled. All the wave tasks share the loop's clock
    and start together, so the addresses' waves land in the same instant."""
    import msgpack

    lim = _limits()
    size = min(lim.handshake_burst or 64, lim.max_connections_per_source or 64)
    period = size / lim.handshakes_per_second_per_source if lim.handshakes_per_second_per_source else 5.0
    loop = asyncio.get_running_loop()
    start = loop.time()
    while True:
        opened = await asyncio.gather(*(_connect(ports[c % len(ports)], source, keepalive=False)
                                        for c in range(size)), return_exceptions=True)
        sockets = [ws for ws in opened if not isinstance(ws, BaseException)]
        counter[0] += len(sockets)
        await asyncio.gather(*(ws.send(msgpack.packb({"type": "create", "public": True, "meta": FAT_META}))
                               for ws in sockets), return_exceptions=True)
        await asyncio.sleep(WAVE_HOLD)
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        start += period * (1 + (loop.time() - start) // period)   # the next whole period
        await asyncio.sleep(max(start - loop.time(), 0.0))


async def _slow(port: int, counter: list[int]) -> None:
    head = f"GET /v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n{HEADER}: 10.99.0.1\r\n".encode()
    while True:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        counter[0] += 1
        try:
            for byte in head:
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.sleep(1.0)
        except OSError:
            pass
        finally:
            writer.close()


async def attack(ports: list[int], small: bool = False) -> None:
    """Every attack at once; ``small``: one address each, for a smoke test of this code."""
    lim = _limits()
    buffer_sources, lobby_sources, storm_sources, slow_sockets = (
        (1, 1, 1, 2) if small else (BUFFER_SOURCES, LOBBY_SOURCES, STORM_SOURCES, SLOW_SOCKETS))
    kinds = attacks_wanted()
    buffer_sources = buffer_sources if "buffers" in kinds else 0
    lobby_sources = lobby_sources if "lobby" in kinds else 0
    storm_sources = storm_sources if "storm" in kinds else 0
    wave_sources = (1 if small else WAVE_SOURCES) if "waves" in kinds else 0
    slow_sockets = slow_sockets if "slow" in kinds else 0
    tasks: list[asyncio.Task[None]] = []
    ready = [0]
    rooms = lim.max_rooms_per_source or 32
    per_source = min(rooms, (lim.max_connections_per_source or 64) // 2)
    for s in range(buffer_sources):
        # Both seats of a room come from the address: its rooms and its connections, both caps full.
        for _ in range(per_source):
            room = partial(_buffer_room, ports, f"10.66.0.{s + 1}", ready, 2 * per_source)
            tasks.append(asyncio.create_task(_quiet(room)))
    for s in range(lobby_sources):
        for c in range(lim.max_connections_per_source or 64):
            port = ports[c % len(ports)]
            flood = partial(_lobby_flood, port, f"10.67.0.{s + 1}", c < rooms)
            tasks.append(asyncio.create_task(_quiet(flood)))
    storms = [0]
    for s in range(storm_sources):
        for c in range(16):
            port = ports[c % len(ports)]
            tasks.append(asyncio.create_task(_quiet(partial(_storm, port, f"10.68.0.{s + 1}", storms))))
    waves = [0]
    for s in range(wave_sources):
        tasks.append(asyncio.create_task(_quiet(partial(_wave, ports, f"10.69.0.{s + 1}", waves))))
    slow = [0]
    for c in range(slow_sockets):
        tasks.append(asyncio.create_task(_quiet(partial(_slow, ports[c % len(ports)], slow))))
    wanted = buffer_sources * min(rooms, (lim.max_connections_per_source or 64) // 2)
    deadline = time.monotonic() + 120
    while ready[0] < wanted and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    print(json.dumps({"ready": ready[0], "wanted": wanted}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    print(json.dumps({"storm_connections": storms[0], "slow_sockets": slow[0], "wave_connections": waves[0]}),
          flush=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


# -- orchestration ----------------------------------------------------------------------------------------


ATTACKER_NICE = 10   # the attackers' process runs this much nicer than the relay and the honest peers
# On a shared machine: the nice value of the relay (nodes, Redis) and of the honest clients, e.g. -5
# (below 0 needs root), so other work on the machine delays them less; the attackers stay at +10.
PRIORITY_ENV = "KOIKOI_BENCH_RELAY_NICE"
# A cluster's Redis runs this much less nice than its nodes (itself and its session's group): every
# frame between the nodes waits for Redis, so on a CPU the nodes and Redis share, Redis goes first,
# with the share against its two nodes that deploy/redis-server.service.d/koikoi.conf gives it in
# systemd (CPUWeight=; tests/deploy: the two agree). Below 0 needs CAP_SYS_NICE (root); refused, the
# report says Redis ran at its nodes' priority.
REDIS_NICE = -5


# Where the processes run. By default, on a machine of two CPUs or more, the servers (relay nodes and
# Redis) get the first half of the CPUs and the clients (honest and attackers) the rest, in the runs
# with and without attackers alike: a relay host's CPU is its own, its clients' CPU is theirs, and
# on one small machine the attackers' work would otherwise be charged to the relay. "shared" puts
# every process on every CPU (the measurement of earlier versions).
PLACEMENT_ENV = "KOIKOI_BENCH_PLACEMENT"


PLACEMENTS = ("split", "redis-apart", "shared")


def placement() -> tuple[set[int], set[int], set[int]] | None:
    """(the relay nodes' CPUs, the clients' CPUs, Redis's CPUs), or None when every process shares
    every CPU."""
    value = os.environ.get(PLACEMENT_ENV, "split")
    if value not in PLACEMENTS:
        raise ValueError(f"{PLACEMENT_ENV}: unknown placement {value!r}; known: {', '.join(PLACEMENTS)}")
    if value == "shared" or not hasattr(os, "sched_getaffinity"):
        return None
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return None
    half = len(cpus) // 2
    servers, clients = set(cpus[:half]), set(cpus[half:])
    return servers, clients, clients if value == "redis-apart" else servers


def _pin(pid: int, cpus: set[int] | None) -> None:
    """Every thread of ``pid`` onto ``cpus`` (Redis starts its threads before we see it)."""
    if cpus is None:
        return
    try:
        threads = [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        threads = [pid]
    for tid in threads:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(tid, cpus)


def _prioritise(pid: int, less_nice: int = 0) -> bool:
    """``pid`` and its session's group at the nice value ``KOIKOI_BENCH_RELAY_NICE`` asks (0 without),
    less ``less_nice``; False when the system refused it (below 0 needs root)."""
    value = os.environ.get(PRIORITY_ENV)
    try:
        nice = max(-20, int(value or 0) + less_nice)
    except ValueError:
        return False
    if not value and not less_nice:
        return True
    try:
        os.setpriority(os.PRIO_PROCESS, pid, nice)
    except OSError:
        return False
    return _group_nice(pid, nice)


def _group_nice(pid: int, value: int) -> bool:
    """The nice value of the scheduling group of ``pid``'s session (Linux autogroup): False when the
    system has the group and refused (without CAP_SYS_ADMIN, two changes within 100 ms are)."""
    path = f"/proc/{pid}/autogroup"
    try:
        with open(path, "w", encoding="ascii") as group:
            group.write(str(value))
    except OSError:
        return not os.path.exists(path)
    return True


def _role(*args: str, nice: int = 0, cpus: set[int] | None = None) -> subprocess.Popen[str]:
    """A bench process (on ``cpus`` when given). The attackers' is niced: on the open internet their
    CPU is their own, not the relay host's; on this (small, shared) machine it would otherwise delay
    the relay and the honest clients' clocks as much as anything the relay does (its cost is
    reported beside)."""

    def prepare() -> None:
        if nice:
            os.nice(nice)
        if cpus is not None:
            os.sched_setaffinity(0, cpus)

    proc = subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "koikoi_p2p.bench.hostile", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=prepare if nice or cpus is not None else None)
    if nice:
        _group_nice(proc.pid, nice)
    return proc


def _line(proc: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
    assert proc.stdout is not None
    import selectors

    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout):
            raise RuntimeError("a bench process did not answer in time")
    line = proc.stdout.readline()
    if not line:
        raise RuntimeError("a bench process ended early")
    value: dict[str, Any] = json.loads(line)
    return value


def _say(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.write("go\n")
    proc.stdin.flush()


def measure(cluster: bool, rooms: int, hostile: bool, duration: float, small: bool = False) -> dict[str, Any]:
    """One run: honest round trips with or without attackers, and the servers' peaks and CPU.
    ``small``: a token attack and no wait for the budget to fill (the smoke test of this code)."""
    servers = Servers(cluster)
    place = placement()
    server_cpus, client_cpus, redis_cpus = place if place is not None else (None, None, None)
    for node in servers.procs:
        _prioritise(node.pid)
        _pin(node.pid, server_cpus)
    redis_first = False
    if servers.redis is not None:
        redis_first = _prioritise(servers.redis.pid, REDIS_NICE)
        _pin(servers.redis.pid, redis_cpus)
    empty_rss = servers.relay_rss()   # the relay processes before any connection
    ports = ",".join(str(port) for port in servers.ports)
    honest_proc = attacker = None
    try:
        honest_proc = _role("honest", "--ports", ports, "--rooms", str(rooms), "--duration", str(duration),
                            cpus=client_cpus)
        _prioritise(honest_proc.pid)
        _line(honest_proc, 300)
        attack_ready: dict[str, Any] = {}
        filled = 0   # the peak of relay_buffered_bytes while the attackers fill the budget
        if hostile:
            attacker = _role("attack", "--ports", ports, *(["--small"] if small else []), nice=ATTACKER_NICE,
                             cpus=client_cpus)
            attack_ready = _line(attacker, 180)
            # The window opens once the attackers hold (nearly) the whole budget, or after FILL_TIMEOUT.
            start = time.monotonic()
            budget = _limits().max_buffered_bytes
            while not small and filled < 0.9 * budget and time.monotonic() - start < FILL_TIMEOUT:
                filled = max(filled, servers.buffered())
                time.sleep(1.0)
            attack_ready["fill_s"] = round(time.monotonic() - start, 1)
        rss, relay_rss, buffered, inbound, held, unanswered = 0, 0, filled, 0, filled, 0
        connections = 0   # the peak of relay_connections (every node)
        redis_memory = 0
        cpu_start = servers.cpu()
        load_procs = [proc for proc in (honest_proc, attacker) if proc is not None]
        load_start = [sum(cpu_seconds(proc.pid)) for proc in load_procs]
        waits = [proc.pid for proc in servers.procs] + [proc.pid for proc in load_procs]
        wait_start = [run_queue_wait(pid) for pid in waits]
        _say(honest_proc)
        end = time.monotonic() + duration
        while time.monotonic() < end:
            now_buffered, now_inbound, now_connections = servers.held()
            connections = max(connections, now_connections)
            unanswered += now_buffered < 0 or now_inbound < 0
            rss, relay_rss = max(rss, servers.rss()), max(relay_rss, servers.relay_rss())
            redis_memory = max(redis_memory, servers.redis_memory())
            buffered, inbound = max(buffered, now_buffered), max(inbound, now_inbound)
            held = max(held, now_buffered + now_inbound)
            time.sleep(0.5)
        cpu = (servers.cpu() - cpu_start) / duration
        load_cpu = [(sum(cpu_seconds(proc.pid)) - start) / duration
                    for proc, start in zip(load_procs, load_start, strict=True)]
        waited = [(run_queue_wait(pid) - start) / duration
                  for pid, start in zip(waits, wait_start, strict=True)]
        result = _line(honest_proc, 120)
        if attacker is not None:
            _say(attacker)
            attack_ready.update(_line(attacker, 60))
    finally:
        for proc in (honest_proc, attacker):
            if proc is not None:
                with contextlib.suppress(Exception):
                    proc.wait(timeout=30)
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        servers.stop()
    if os.environ.get(PAUSES_ENV):
        result["pauses"] = relay_pauses(os.environ[PAUSES_ENV], [proc.pid for proc in servers.procs],
                                        result.pop("window"), result.pop("slow", []))
        print(json.dumps({"rooms": rooms, "cluster": cluster, "hostile": hostile, "p50": result["p50"],
                          "p99": result["p99"], "load": os.getloadavg(), **result["pauses"]}),
              file=sys.stderr, flush=True)
    result.update(rss=rss, relay_rss=relay_rss, buffered=buffered, inbound=inbound, held=held,
                  connections=connections, empty_rss=empty_rss, redis_memory=redis_memory,
                  unanswered=unanswered, cpu=cpu, attack=attack_ready,
                  honest_cpu=load_cpu[0], attacker_cpu=load_cpu[1] if len(load_cpu) > 1 else 0.0,
                  relay_wait=max(waited[:len(servers.procs)]), honest_wait=waited[len(servers.procs)],
                  redis_first=redis_first)
    return result


def relay_pauses(directory: str, pids: list[int], window: list[float],
                 slow: list[tuple[float, float]]) -> dict[str, Any]:
    """What the relays (``pids``) recorded of their own pauses (koikoi_relay/pauses.py) inside the
    measured ``window`` (wall clock): collector passes by generation (count, seconds, longest),
    late ticks of their event loop, the objects the collector tracked, and how many of the
    slowest honest round trips (``slow``: round trip, when it came back) overlap a stall of a
    relay (a pass or a late tick of at least STALL seconds)."""
    start, end = window
    passes: dict[str, list[float]] = {"0": [], "1": [], "2": []}
    lags: list[float] = []
    busy = 0.0   # the CPU time of the relays' threads during their late ticks of STALL or more
    callbacks: dict[str, list[float]] = {}
    callback_cpu = 0.0
    stalls: list[tuple[float, float]] = []
    objects: list[int] = []
    for pid in pids:
        try:
            with open(os.path.join(directory, f"relay-{pid}.jsonl"), encoding="utf-8") as lines:
                records = [json.loads(line) for line in lines]
        except (OSError, ValueError):
            continue
        for record in records:
            at = record.get("t", 0.0)
            if "objects" in record and start <= at <= end:
                objects = [sum(pair) for pair in zip(objects or [0, 0, 0], record["objects"], strict=True)]
            if not start <= at <= end + 1.0:
                continue
            if "gc" in record:
                passes[str(record["gc"])].append(record["s"])
                if record["s"] >= STALL:
                    stalls.append((at - record["s"], at))
            elif "lag" in record:
                lags.append(record["lag"])
                if record["lag"] >= STALL:
                    stalls.append((at - record["lag"] - 0.01, at))
                    busy += record.get("cpu", 0.0)
            elif "callback" in record:
                callbacks.setdefault(record["callback"], []).append(record["s"])
                callback_cpu += record.get("cpu", 0.0)
    met = sum(1 for rtt, at in slow if any(s < at and e > at - rtt for s, e in stalls))
    return {
        "gc": {g: {"n": len(t), "s": round(sum(t), 3), "max_ms": round(max(t, default=0) * 1e3, 1)}
               for g, t in passes.items()},
        "lag_over_10ms": sum(1 for lag in lags if lag >= STALL),
        "lag_over_50ms": sum(1 for lag in lags if lag >= 0.05),
        "lag_max_ms": round(max(lags, default=0.0) * 1e3, 1),
        "lag_s": round(sum(lags), 3),
        "stall_cpu_s": round(busy, 3),
        "callback_cpu_s": round(callback_cpu, 3),
        "callbacks": {name: {"n": len(t), "s": round(sum(t), 3), "max_ms": round(max(t) * 1e3, 1)}
                      for name, t in sorted(callbacks.items(), key=lambda item: -sum(item[1]))[:6]},
        "objects": objects,
        "stalls": len(stalls), "stall_s": round(sum(e - s for s, e in stalls), 3),
        "slow": len(slow), "slow_in_stall": met,
    }


def _per_connection(over_empty: float, held: float, connections: float, nodes: int) -> str:
    """What each connection would have to count in the budget (``connection_bytes``, §8.7 (c)) for
    the budget to cover the relay's memory beyond an empty one: the memory the budget does not
    count, shared out over the connections open at the peak, plus what each counts already."""
    if connections <= 0:
        return ""
    if nodes != 1:   # a node's resume buffers are in Redis: its held bytes are not its own alone
        return f"; connections at the peak {connections:.0f}"
    counted = _limits().connection_bytes
    uncounted = over_empty - held
    return (f"; connections at the peak {connections:.0f}: the memory beyond the budget's count is "
            f"{uncounted / connections / 1024:+.1f} KiB a connection, so each would count "
            f"{(counted + uncounted / connections) / 1024:.1f} KiB (connection_bytes: {counted / 1024:.1f})")


def redis_said(runs: dict[bool, list[dict[str, Any]]]) -> str:
    """How a cluster's Redis was prioritised in the runs (REDIS_NICE needs root)."""
    every = [r for group in runs.values() for r in group]
    if all(r.get("redis_first") for r in every):
        return f"; Redis at nice {REDIS_NICE} beside its nodes, as deploy/ runs it"
    refused = sum(not r.get("redis_first") for r in every)
    return (f"; Redis at its nodes' priority in {refused} of {len(every)} runs "
            f"(nice {REDIS_NICE} was refused: not root), not as deploy/ runs it")


def run(args: argparse.Namespace) -> list[Measurement]:
    raise_nofile_limit()
    quick = bool(getattr(args, "quick", False))
    duration = args.duration if getattr(args, "duration", None) else (5.0 if quick else 15.0)
    room_counts = [int(n) for n in str(getattr(args, "rooms", None) or "100,1000").split(",")]
    clusters = [False] + ([True] if str(getattr(args, "cluster", None) or "2") != "0" else [])
    if True in clusters:
        from koikoi_p2p.bench.cluster import redis_server_binary

        if redis_server_binary() is None:
            clusters = [False]
    repeats = int(getattr(args, "repeats", None) or (1 if quick else 3))
    budget = _limits().max_buffered_bytes
    kinds = attacks_wanted()   # an unknown name stops here, before any server starts
    only = "" if kinds == ATTACKS else f"; attacks: {', '.join(sorted(kinds))} only ({ATTACKS_ENV})"
    place = placement()
    cpus_said = (f"; CPUs: servers {sorted(place[0])}, clients {sorted(place[1])}"
                 + (f", a cluster's Redis {sorted(place[2])}" if place[2] != place[0] else "")
                 + f" ({PLACEMENT_ENV})" if place is not None else "; every process on every CPU")
    results: list[Measurement] = []
    for rooms in room_counts:
        for cluster in clusters:
            runs: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
            for _ in range(repeats):
                for hostile in (False, True):   # interleaved: drift on the machine hits both alike
                    runs[hostile].append(measure(cluster, rooms, hostile, duration))
            name = f"{'cluster2' if cluster else 'relay'}_{rooms}_rooms"

            def med(hostile: bool, key: str, runs: dict[bool, list[dict[str, Any]]] = runs) -> float:
                return float(statistics.median(float(r[key]) for r in runs[hostile]))

            attack = runs[True][-1]["attack"]
            for key, q in (("p50", 0.5), ("p99", 0.99)):
                # The quantile of every round trip of every repeat (pooled), not a median of each
                # repeat's: a 15 s window's p99 rests on its slowest 150 round trips, and where a
                # burst falls in the window moves it; the repeats' own figures are said beside it.
                calm, under = pooled(runs[False], q), pooled(runs[True], q)
                pairs = zip(runs[True], runs[False], strict=True)
                each = ", ".join(f"{float(u[key]) / float(c[key]):.2f}" if c[key] else "inf"
                                 for u, c in pairs)
                results.append(Measurement(
                    name=f"hostile_{name}_rtt_{key}", median_s=under, floor_s=calm,
                    ratio=under / calm if calm else float("inf"), unit="s",
                    note=f"honest round trip with attackers vs without, {key} of the {repeats} interleaved "
                         f"{duration:g} s windows pooled; each repeat's own ratio: {each}"
                         + ("; must hold: ratio <= 2" if key == "p99" else "")
                         + f"; broken honest rooms {max(r['broken'] for r in runs[True])}"
                         + f"; the relay waited for a CPU {med(True, 'relay_wait'):.2f} s/s "
                           f"({med(False, 'relay_wait'):.2f} without), the honest clients' own loop lag p99 "
                           f"{med(True, 'lag_p99') * 1e3:.1f} ms ({med(False, 'lag_p99') * 1e3:.1f} ms), "
                           f"the attackers' process (nice +{ATTACKER_NICE}) used "
                           f"{med(True, 'attacker_cpu'):.2f} CPU s/s" + only + cpus_said
                         + (redis_said(runs) if cluster else ""),
                ))
            results.append(Measurement(
                name=f"hostile_{name}_server_cpu", median_s=med(True, "cpu"), floor_s=med(False, "cpu"),
                ratio=med(True, "cpu") / max(1e-9, med(False, "cpu")), unit="cpu s/s",
                note="CPU seconds per second of the servers (nodes + Redis) in the window, with attackers vs "
                     "without: the attack's cost, independent of how busy the machine is",
            ))
            results.append(Measurement(
                name=f"hostile_{name}_rss_bytes", median_s=med(True, "rss"), floor_s=med(False, "rss"),
                ratio=med(True, "rss") / max(1.0, med(False, "rss")), unit="bytes",
                note="peak resident memory with attackers vs without (all nodes + Redis used_memory)",
            ))
            grown = med(True, "relay_rss") - med(False, "relay_rss")
            results.append(Measurement(
                name=f"hostile_{name}_relay_rss_growth_bytes", median_s=grown, floor_s=float(budget),
                ratio=grown / budget, unit="bytes",
                note=f"the relay processes' peak resident memory with attackers less without "
                     f"({med(True, 'relay_rss') / 2**20:.0f} MiB vs "
                     f"{med(False, 'relay_rss') / 2**20:.0f} MiB; "
                     f"Redis not included) vs max_buffered_bytes",
            ))
            nodes = 2 if cluster else 1
            over_empty = med(True, "relay_rss") - med(True, "empty_rss")
            results.append(Measurement(
                name=f"hostile_{name}_relay_rss_over_empty_bytes", median_s=over_empty,
                floor_s=float(budget * nodes), ratio=over_empty / (budget * nodes), unit="bytes",
                note="the relay processes' peak resident memory under attack less theirs before any "
                     "connection, vs max_buffered_bytes"
                     + (" per node (a node holds its own parts (b)-(d) of §8.7; the resume buffers are "
                        "in Redis)" if cluster else "")
                     + "; must hold: ratio <= 1"
                     + _per_connection(over_empty, med(True, "held"), med(True, "connections"), nodes),
            ))
            if cluster:
                redis_budget = _limits().max_redis_bytes
                results.append(Measurement(
                    name=f"hostile_{name}_redis_used_memory_bytes", median_s=med(True, "redis_memory"),
                    floor_s=float(redis_budget), ratio=med(True, "redis_memory") / redis_budget, unit="bytes",
                    note=f"Redis used_memory, peak under attack vs max_redis_bytes (§13.6); without "
                         f"attackers {med(False, 'redis_memory') / 2**20:.0f} MiB",
                ))
            results.append(Measurement(
                name=f"hostile_{name}_held_bytes", median_s=med(True, "held"), floor_s=float(budget),
                ratio=med(True, "held") / budget, unit="bytes",
                note=f"peak relay_buffered_bytes + relay_held_bytes (everything the budget counts, §8.7; "
                     f"in a cluster, what the node that counts the most counts, §13.6) "
                     f"under attack vs max_buffered_bytes; of which resume buffers peaked at "
                     f"{med(True, 'buffered') / 2**20:.1f} MiB and the rest (bytes read, write buffers, "
                     f"connections) at "
                     f"{med(True, 'inbound') / 2**20:.1f} MiB; buffer rooms {attack.get('ready')}/"
                     f"{attack.get('wanted')} filled the budget in {attack.get('fill_s')}s; "
                     f"storm connections {attack.get('storm_connections')}, wave connections "
                     f"{attack.get('wave_connections')}, "
                     f"slow sockets {attack.get('slow_sockets')}; /metrics "
                     f"unanswered {max(r['unanswered'] for r in runs[True])}x",
            ))
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m koikoi_p2p.bench.hostile")
    sub = parser.add_subparsers(dest="role", required=True)
    honest_parser = sub.add_parser("honest")
    honest_parser.add_argument("--ports", required=True)
    honest_parser.add_argument("--rooms", type=int, default=100)
    honest_parser.add_argument("--duration", type=float, default=10.0)
    attack_parser = sub.add_parser("attack")
    attack_parser.add_argument("--ports", required=True)
    attack_parser.add_argument("--small", action="store_true")
    args = parser.parse_args(argv)
    raise_nofile_limit()
    ports = [int(port) for port in args.ports.split(",")]
    if args.role == "honest":
        print(json.dumps(asyncio.run(honest(ports, args.rooms, args.duration))), flush=True)
    else:
        asyncio.run(attack(ports, args.small))
    return 0


if __name__ == "__main__":
    sys.exit(main())
