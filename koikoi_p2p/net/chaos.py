"""A chaos proxy: a websocket man-in-the-middle that misbehaves on purpose, for tests and benchmarks.

It sits between the clients and the relay and, driven by a seeded ``random.Random``, drops,
delays, duplicates and reorders websocket messages and cuts connections. It plays the part of a
bad network or a faulty relay, so the reconnect, retransmission and resume code is exercised by
the real websocket stack. It serves and reaches loopback addresses only: a tool that corrupts
traffic must never be pointed at someone else's machine.

Faults apply to binary messages (the peers' opaque frames) by default; the relay's text control
messages pass intact unless ``binary_only`` is off. Cuts apply to every connection.

Run it by hand with ``python -m koikoi_p2p.net.chaos --upstream ws://127.0.0.1:PORT``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import random
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from types import TracebackType
from urllib.parse import urlsplit

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

Message = str | bytes

# How long a message held back for reordering waits for a successor before it is sent anyway:
# reordering must not turn into a silent drop.
REORDER_HOLD_S = 0.05
MAX_MESSAGE = 1 << 20


class ChaosError(Exception):
    """A misuse of the chaos proxy, with a machine-readable ``reason``."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


@dataclass(frozen=True, slots=True)
class ChaosConfig:
    """Fault rates, each the probability of one fault for one message (cut: per message too)."""

    drop: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    delay: float = 0.0
    max_delay_s: float = 0.05
    cut: float = 0.0
    binary_only: bool = True
    # "relay_frames": fault only the relay protocol's {"type": "frame"} messages (the peers'
    # opaque frames), so room set-up and resume control messages pass intact.
    scope: str = "binary"
    # A fixed one-way delay added to every message in both directions, order kept (a long, clean
    # network path: ``koikoi bench latency``). Independent of the fault rates and of the scope.
    latency_s: float = 0.0

    def __post_init__(self) -> None:
        if self.scope not in SCOPES:
            raise ChaosError("bad_scope", f"scope must be one of {sorted(SCOPES)}, not {self.scope!r}")
        for name in ("drop", "duplicate", "reorder", "delay", "cut"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool) or not 0.0 <= value <= 1.0:
                raise ChaosError("bad_rate", f"{name} must be a probability in [0, 1], not {value!r}")
        if not isinstance(self.max_delay_s, int | float) or not 0.0 <= self.max_delay_s <= 60.0:
            raise ChaosError("bad_delay", f"max_delay_s must be in [0, 60], not {self.max_delay_s!r}")
        if not isinstance(self.latency_s, int | float) or not 0.0 <= self.latency_s <= 10.0:
            raise ChaosError("bad_delay", f"latency_s must be in [0, 10], not {self.latency_s!r}")

    @property
    def quiet(self) -> bool:
        """True when no fault can happen."""
        return not (self.drop or self.duplicate or self.reorder or self.delay or self.cut)


@dataclass(slots=True)
class ChaosStats:
    """What the proxy did, counted over its lifetime."""

    connections: int = 0
    forwarded: int = 0
    dropped: int = 0
    duplicated: int = 0
    reordered: int = 0
    delayed: int = 0
    cuts: int = 0
    upstream_failures: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


SCOPES = frozenset({"binary", "all", "relay_frames"})


def _faultable(message: Message, config: ChaosConfig) -> bool:
    """Whether faults may hit this message under the configured scope."""
    if isinstance(message, str):
        return config.scope == "all" or not config.binary_only
    if config.scope == "relay_frames":
        # The relay protocol sends each message as one msgpack map; peer data travels only in
        # maps whose type is "frame". Anything else (or undecodable) is control: pass it intact.
        try:
            value = msgpack.unpackb(message, raw=False, strict_map_key=False)
        except Exception:  # msgpack raises many types; all mean "not a frame"
            return False
        return isinstance(value, dict) and value.get("type") == "frame"
    return True


def check_loopback(host: str) -> str:
    """Return ``host`` as a loopback IP literal, or raise ChaosError("not_loopback").

    Names other than ``localhost`` are refused rather than resolved: resolution could point
    anywhere, and the proxy must only ever touch this machine.
    """
    text = host.strip("[]")
    if text == "localhost":
        return "127.0.0.1"
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        raise ChaosError("not_loopback", f"{host!r} is not a loopback address literal") from None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if not address.is_loopback:
        raise ChaosError("not_loopback", f"{host!r} is outside 127.0.0.0/8 and ::1")
    return str(address)


def _check_upstream(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss"):
        raise ChaosError("bad_upstream", f"upstream must be a ws:// or wss:// URL, not {url!r}")
    if parts.hostname is None:
        raise ChaosError("bad_upstream", f"upstream has no host: {url!r}")
    check_loopback(parts.hostname)
    return url.rstrip("/")


class _Pair:
    """One client connection and its upstream twin, with the faults for both directions."""

    def __init__(self, proxy: ChaosProxy, rng: random.Random) -> None:
        self.proxy = proxy
        self.rng = rng
        self.client: ServerConnection | None = None
        self.upstream: ClientConnection | None = None
        self.cut_done = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()

    def cut(self) -> None:
        """Abort both TCP connections at once, as a network failure would (no close handshake)."""
        if self.cut_done.is_set():
            return
        self.cut_done.set()
        self.proxy.stats.cuts += 1
        for conn in (self.client, self.upstream):
            if conn is not None and conn.transport is not None:
                conn.transport.abort()

    async def pump(self, source: ServerConnection | ClientConnection,
                   sink: ServerConnection | ClientConnection) -> None:
        held: list[Message] = []
        release: asyncio.Task[None] | None = None

        async def forward(message: Message) -> None:
            with contextlib.suppress(ConnectionClosed):
                await sink.send(message)
                self.proxy.stats.forwarded += 1

        # With a fixed latency every message waits in one queue until its time: order is kept.
        line: asyncio.Queue[tuple[float, Message]] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        async def carry() -> None:
            while True:
                due, message = await line.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                await forward(message)

        carrier: asyncio.Task[None] | None = None

        async def send(message: Message) -> None:
            nonlocal carrier
            latency = self.proxy.config.latency_s
            if not latency and line.empty():
                await forward(message)
                return
            if carrier is None:
                carrier = asyncio.create_task(carry())
                self.tasks.add(carrier)
                carrier.add_done_callback(self.tasks.discard)
            line.put_nowait((loop.time() + latency, message))

        async def delayed(message: Message, delay_s: float) -> None:
            await asyncio.sleep(delay_s)
            await send(message)

        async def release_later() -> None:
            await asyncio.sleep(REORDER_HOLD_S)
            while held:
                await send(held.pop(0))

        try:
            async for message in source:
                config = self.proxy.config
                faulty = _faultable(message, config)
                rng = self.rng
                if config.cut and rng.random() < config.cut:
                    self.cut()
                    return
                if not faulty:
                    await send(message)
                    continue
                if config.drop and rng.random() < config.drop:
                    self.proxy.stats.dropped += 1
                    continue
                copies = 1
                if config.duplicate and rng.random() < config.duplicate:
                    self.proxy.stats.duplicated += 1
                    copies = 2
                if config.reorder and not held and rng.random() < config.reorder:
                    # Hold this one back; it goes out right after the next message (or soon).
                    self.proxy.stats.reordered += 1
                    held.extend([message] * copies)
                    release = asyncio.create_task(release_later())
                    self.tasks.add(release)
                    release.add_done_callback(self.tasks.discard)
                    continue
                if config.delay and rng.random() < config.delay:
                    self.proxy.stats.delayed += 1
                    for _ in range(copies):
                        task = asyncio.create_task(delayed(message, rng.uniform(0.0, config.max_delay_s)))
                        self.tasks.add(task)
                        task.add_done_callback(self.tasks.discard)
                else:
                    for _ in range(copies):
                        await send(message)
                if held:
                    if release is not None:
                        release.cancel()
                    while held:
                        await send(held.pop(0))
        except ConnectionClosed:
            pass
        finally:
            if release is not None:
                release.cancel()
            if carrier is not None:
                carrier.cancel()
            # One side closed: close the other too, as a transparent hop would.
            self.cut_done.set()
            with contextlib.suppress(Exception):
                await sink.close()


class ChaosProxy:
    """The proxy server. ``async with ChaosProxy(upstream, config, seed=1) as proxy: proxy.url``.

    ``upstream`` may be a list: each new connection goes to the first one that accepts it (relay
    cluster nodes in order of preference, so a peer whose node died reaches another one).
    """

    def __init__(
        self,
        upstream: str | Sequence[str],
        config: ChaosConfig | None = None,
        *,
        seed: int = 0,
        host: str = "127.0.0.1",
        port: int = 0,
        max_size: int = MAX_MESSAGE,
    ) -> None:
        upstreams = [upstream] if isinstance(upstream, str) else list(upstream)
        if not upstreams:
            raise ChaosError("bad_upstream", "no upstream")
        self.upstreams = [_check_upstream(url) for url in upstreams]
        self.upstream = self.upstreams[0]
        self.host = check_loopback(host)
        if not isinstance(port, int) or not 0 <= port <= 65535:
            raise ChaosError("bad_port", f"port must be 0..65535, not {port!r}")
        self.port = port
        self.config = config if config is not None else ChaosConfig()
        self.seed = seed
        self.max_size = max_size
        self.stats = ChaosStats()
        self._server: Server | None = None
        self._pairs: set[_Pair] = set()
        self._count = 0

    @property
    def url(self) -> str:
        """The ws:// URL clients should use instead of the relay's."""
        if self._server is None:
            raise ChaosError("not_started", "start the proxy first")
        sockname = next(iter(self._server.sockets)).getsockname()
        host = f"[{sockname[0]}]" if ":" in sockname[0] else sockname[0]
        return f"ws://{host}:{sockname[1]}"

    def set_config(self, config: ChaosConfig) -> None:
        """Change the fault rates for every message from now on (e.g. calm down at the end)."""
        self.config = config

    def calm(self) -> None:
        """Stop all faults from now on."""
        self.config = replace(self.config, drop=0.0, duplicate=0.0, reorder=0.0, delay=0.0, cut=0.0)

    def cut_all(self) -> int:
        """Cut every open connection now; returns how many pairs were cut."""
        pairs = [pair for pair in self._pairs if not pair.cut_done.is_set()]
        for pair in pairs:
            pair.cut()
        return len(pairs)

    async def start(self) -> None:
        if self._server is not None:
            raise ChaosError("already_started", "the proxy is running")
        self._server = await serve(
            self._handle, self.host, self.port, compression=None, max_size=self.max_size,
            ping_interval=None,
        )

    async def close(self) -> None:
        if self._server is None:
            return
        self._server.close()
        self.cut_all()
        for pair in list(self._pairs):
            for task in list(pair.tasks):
                task.cancel()
        await self._server.wait_closed()
        self._server = None

    async def __aenter__(self) -> ChaosProxy:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def _handle(self, client: ServerConnection) -> None:
        self._count += 1
        self.stats.connections += 1
        # Faults only, never secrets: a seeded, reproducible generator is what we want here.
        pair = _Pair(self, random.Random(f"{self.seed}:{self._count}"))  # noqa: S311
        pair.client = client
        path = client.request.path if client.request is not None else "/"
        upstream: ClientConnection | None = None
        for base in self.upstreams:
            try:
                upstream = await connect(
                    base + path, compression=None, max_size=self.max_size, proxy=None,
                    ping_interval=None, open_timeout=5,
                )
                break
            except (OSError, InvalidHandshake, InvalidURI, TimeoutError):
                self.stats.upstream_failures += 1
        if upstream is None:
            await client.close(code=1011, reason="upstream unreachable")
            return
        pair.upstream = upstream
        self._pairs.add(pair)
        try:
            down = asyncio.create_task(pair.pump(upstream, client))
            up = asyncio.create_task(pair.pump(client, upstream))
            await asyncio.wait({down, up}, return_when=asyncio.FIRST_COMPLETED)
            await pair.cut_done.wait()
            for conn in (client, upstream):
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(conn.close(), 1.0)
            for task in (down, up, *pair.tasks):
                task.cancel()
            await asyncio.gather(down, up, return_exceptions=True)
        finally:
            self._pairs.discard(pair)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m koikoi_p2p.net.chaos",
        description="A loopback-only websocket proxy that drops, delays, duplicates, reorders and cuts.",
    )
    parser.add_argument("--upstream", required=True, help="the relay's ws:// URL (loopback only)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    for name in ("drop", "duplicate", "reorder", "delay", "cut"):
        parser.add_argument(f"--{name}", type=float, default=0.0, help=f"{name} probability per message")
    parser.add_argument("--max-delay", type=float, default=0.05, help="seconds")
    parser.add_argument("--latency", type=float, default=0.0,
                        help="fixed one-way delay added to every message, in seconds (order kept)")
    parser.add_argument("--all-messages", action="store_true", help="fault text messages too")
    parser.add_argument("--scope", choices=sorted(SCOPES), default="binary",
                        help="which messages faults may hit (relay_frames: only the relay's peer frames)")
    return parser.parse_args(argv)


async def _serve_forever(args: argparse.Namespace) -> None:
    config = ChaosConfig(
        drop=args.drop, duplicate=args.duplicate, reorder=args.reorder, delay=args.delay,
        max_delay_s=args.max_delay, cut=args.cut, binary_only=not args.all_messages, scope=args.scope,
        latency_s=args.latency,
    )
    async with ChaosProxy(args.upstream, config, seed=args.seed, host=args.host, port=args.port) as proxy:
        print(proxy.url, flush=True)
        await asyncio.Event().wait()


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    try:
        asyncio.run(_serve_forever(args))
    except ChaosError as exc:
        print(f"chaos: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


__all__ = ["ChaosConfig", "ChaosError", "ChaosProxy", "ChaosStats", "check_loopback", "main"]

if __name__ == "__main__":
    sys.exit(main())
