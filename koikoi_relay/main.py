"""Command line of the relay, shared by ``python -m koikoi_relay`` and ``koikoi relay``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import logging
import math
import os
import re
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import fields
from typing import TYPE_CHECKING

from koikoi_relay.limits import Limits
from koikoi_relay.logs import configure, log_event

if TYPE_CHECKING:
    from ssl import SSLContext

    from websockets.http11 import Request

    from koikoi_relay.collector import Collector
    from koikoi_relay.server import HttpHandler, RelayServer
    from koikoi_relay.tls import ServerTLS

# Another service run in this process beside the relay, on its own port (``koikoi relay
# --ratings``): entered before the relay starts, it yields that port and is left after the relay
# stopped. The relay knows nothing of it but the port and the paths it redirects there (§9). With
# --tls-cert it is given the relay's own server context (None otherwise): the same certificate on
# both ports, and SIGHUP's reload of that context renews both.
Companion = Callable[["SSLContext | None"], AbstractAsyncContextManager[int]]
RATINGS_PATHS = re.compile(r"/ratings(\.html|/.*)?")
# What a client asks to find the rating service (spec/ratings.md §7.6), and a relay's answer when it has none.
SERVICE_PATH = "/ratings/service"
NO_SERVICE = b'{"ok": true, "service": null}'
_HOST = re.compile(r"(\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9.-]{1,253})(:[0-9]{1,5})?")
# A server that cannot listen: its port taken, an address this host lacks or may not bind.
_LISTEN_ERRNOS = frozenset({errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES})

# What the relay's command line tells an operator, as English templates: ``koikoi relay`` shows
# them through its gettext catalogue (koikoi_p2p/cli/i18n.tables lists MESSAGES), ``python -m
# koikoi_relay`` as they are.
NODE_ID_IN_USE = ("the node id {node} is in use by a live node of this Redis (spec/relay.md §13.5): "
                  "give each node its own --node-id")
NOT_FINITE = "--{flag} must be a finite number, not {value}"
NEGATIVE = "--{flag} must not be negative, not {value}"
ZERO = "--{flag} must be above 0, not {value}"
FRAME_MINIMUM = ("--max-frame-bytes must be at least {minimum}, the largest frame a match sends (a shuffle, "
                 "spec/relay.md §7), not {value}")
BUDGET_MINIMUM = ("--max-buffered-bytes must be 0 (no budget) or at least {minimum}: a room's two buffers "
                  "and its two connections, not {value}")
BURST_MINIMUM = ("--max-bytes-per-second × --burst-seconds must be at least {minimum} bytes, the largest "
                 "websocket message (--max-frame-bytes + 64), not {value}")
BAD_REDIS_URL = "--redis must be a redis://HOST:PORT/DB, rediss://... or unix://... URL, not {value!r}"
BAD_NODE_ID = "--node-id must be 1 to 64 letters, digits, dots, hyphens and underscores, not {value!r}"
NODE_ID_ALONE = "--node-id names a node of a cluster: it needs --redis (or $KOIKOI_RELAY_REDIS)"
BAD_HEADER = "--source-header must be an HTTP header name, not {value!r}"
COMPANION_PORT = ("the rating service beside the relay cannot listen: {problem} (choose its port with "
                  "--ratings-port)")
MESSAGES: tuple[str, ...] = (NODE_ID_IN_USE, NOT_FINITE, NEGATIVE, ZERO, FRAME_MINIMUM, BUDGET_MINIMUM,
                             BURST_MINIMUM, BAD_REDIS_URL, BAD_NODE_ID, NODE_ID_ALONE, BAD_HEADER,
                             COMPANION_PORT)
# (template, **values) -> the text shown.
Say = Callable[..., str]


def english(template: str, /, **values: object) -> str:
    return template.format(**values) if values else template


class StartProblem(Exception):
    """The relay cannot start for a reason the operator fixes: one of MESSAGES with its values."""

    def __init__(self, template: str, /, **values: object) -> None:
        super().__init__(english(template, **values))
        self.template, self.values = template, values


# spec/relay.md §7: the largest frame a match sends is a shuffle message (spec/game.md §3.1, its
# deck 9376 bytes) in its envelope: 152 + 5 (seq above 2^16) overhead, 8 for the type "shuffle",
# and its body map of 1 + 5 + 5 ("deal" up to 2^20) + 5 + 3 + 9376 ("deck") bytes (protocol.md §13).
MATCH_FRAME_BYTES = 157 + 8 + 1 + 5 + 5 + 5 + 3 + 9376
# Limits for which 0 is no "none" (limits.py: it is for the rates, the per-source caps, the pace
# of setup reads, the budgets and the pings) but a relay that refuses what every match needs (§7).
POSITIVE = frozenset({
    "max_control_bytes", "max_meta_entries", "max_rooms_per_connection", "max_connections", "max_rooms",
    "buffer_frames", "buffer_bytes", "idle_timeout", "room_idle_timeout", "sweep_interval", "lobby_max",
    "lobby_max_bytes",
})
# ... and those that are so while one of the rates they serve is on.
POSITIVE_WITH_RATE: dict[str, tuple[str, ...]] = {
    "burst_seconds": ("max_messages_per_second", "max_bytes_per_second"),
    "handshake_burst": ("handshakes_per_second_per_source",),
    "handshakes_at_once": ("handshakes_per_second",),
    "lobby_burst": ("lobby_per_second",),
}
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free one) to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


def listen_problem(exc: BaseException) -> str | None:
    """What an operator reads when a server could not start listening (the address and the cause),
    or None for any other error, which stays an error of the program."""
    if isinstance(exc, socket.gaierror):
        return f"the address to listen on does not resolve ({exc.strerror})"
    if isinstance(exc, OSError) and exc.errno in _LISTEN_ERRNOS:
        # asyncio's own text names the address: "error while attempting to bind on address
        # ('127.0.0.1', 8765): address already in use".
        return str(exc.strerror or exc)
    return None


def run_listening(program: str, serve: Callable[[], int | None],
                  words: Callable[[str], str] = lambda problem: f"cannot listen: {problem}") -> int:
    """Run a server (``serve`` returns its exit code, None for 0); one that could not start
    listening prints one line naming the address and the cause (``listen_problem``) and gives 1.
    The relay, ``koikoi web`` and ``koikoi ratings serve`` start this way."""
    try:
        return serve() or 0
    except OSError as exc:
        problem = listen_problem(exc)
        if problem is None:
            raise
        print(f"{program}: {words(problem)}", file=sys.stderr)
        return 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Host, port, log level and one ``--limit-name`` flag per field of Limits."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=port_number, default=8765,
                        help="TCP port (default 8765; 0 picks a free one)")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    parser.add_argument("--web", action="store_true",
                        help="also serve the browser app at / (beside the protocol at /v1), with a strict "
                             "Content-Security-Policy; the page connects only to this relay")
    parser.add_argument("--source-header", default=None, metavar="NAME",
                        help="behind a proxy: take a connection's address, for the per-source limits, from "
                             "the last entry of this request header set by the proxy (e.g. X-Forwarded-For); "
                             "only with a proxy that sets it, or clients choose their own address")
    secure = parser.add_argument_group("TLS (spec/relay.md §14)")
    secure.add_argument("--tls-cert", metavar="FILE", default=None,
                        help="serve wss:// and https:// with this PEM certificate chain (needs --tls-key; "
                             "SIGHUP reads both files again for new connections)")
    secure.add_argument("--tls-key", metavar="FILE", default=None, help="the PEM private key of --tls-cert")
    cluster = parser.add_argument_group("cluster (spec/relay.md §13)")
    cluster.add_argument(
        "--redis", metavar="URL", default=os.environ.get("KOIKOI_RELAY_REDIS") or None,
        help="be one node of a relay cluster whose rooms live in this Redis, e.g. redis://127.0.0.1:6379/0 "
             "(default: $KOIKOI_RELAY_REDIS; unset: a single process, rooms in memory)")
    cluster.add_argument("--redis-prefix", default="koikoi:", metavar="TEXT",
                         help="prefix of every Redis key (one prefix per cluster; default koikoi:)")
    cluster.add_argument("--node-id", default=None, metavar="ID",
                         help="this node's name in Redis, its own in the cluster: letters, digits, dots, "
                              "hyphens and underscores (default: random)")
    defaults = Limits()
    group = parser.add_argument_group("limits")
    for field in fields(Limits):
        default = getattr(defaults, field.name)
        kind = int if isinstance(default, int) and not isinstance(default, bool) else float
        note = "; 0 disables" if field.name.startswith("ping") else ""
        group.add_argument(
            "--" + field.name.replace("_", "-"), type=kind, default=default, metavar="N",
            help=f"(default {default}{note})",
        )


def flag_problem(args: argparse.Namespace) -> StartProblem | None:
    """The first relay flag that makes no sense or leaves the relay unusable (spec/relay.md §7,
    §13.1), as a message to show; None when every flag is fine."""
    return _limits_problem(args) or _cluster_problem(args) or _header_problem(args)


def _limits_problem(args: argparse.Namespace) -> StartProblem | None:
    for field in fields(Limits):
        value = getattr(args, field.name)
        flag = field.name.replace("_", "-")
        if not math.isfinite(value):
            return StartProblem(NOT_FINITE, flag=flag, value=value)
        if value < 0:
            return StartProblem(NEGATIVE, flag=flag, value=value)
        if value == 0 and _positive(args, field.name):
            return StartProblem(ZERO, flag=flag, value=value)
    return _frame_problem(args)


def _positive(args: argparse.Namespace, name: str) -> bool:
    rates = POSITIVE_WITH_RATE.get(name, ())
    return name in POSITIVE or any(getattr(args, rate) for rate in rates)


def _frame_problem(args: argparse.Namespace) -> StartProblem | None:
    """What a match needs of the frame size, the budget and the byte burst (spec/relay.md §7)."""
    if args.max_frame_bytes < MATCH_FRAME_BYTES:
        return StartProblem(FRAME_MINIMUM, minimum=MATCH_FRAME_BYTES, value=args.max_frame_bytes)
    budget = 2 * args.buffer_bytes + 2 * args.connection_bytes
    if 0 < args.max_buffered_bytes < budget:
        return StartProblem(BUDGET_MINIMUM, minimum=budget, value=args.max_buffered_bytes)
    burst = args.max_bytes_per_second * args.burst_seconds
    if args.max_bytes_per_second and burst < args.max_frame_bytes + 64:
        return StartProblem(BURST_MINIMUM, minimum=args.max_frame_bytes + 64, value=f"{burst:g}")
    return None


def _cluster_problem(args: argparse.Namespace) -> StartProblem | None:
    from koikoi_relay.cluster_scripts import NODE_ID

    redis, node = getattr(args, "redis", None), getattr(args, "node_id", None)
    if redis and not _redis_url_ok(redis):
        return StartProblem(BAD_REDIS_URL, value=redis)
    if node is not None and not NODE_ID.fullmatch(node):
        return StartProblem(BAD_NODE_ID, value=node)
    if node is not None and not redis:
        return StartProblem(NODE_ID_ALONE)
    return None


def _redis_url_ok(url: str) -> bool:
    """A URL redis-py takes (redis://, rediss:// or unix://) with a port that is a number."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        _ = parts.port   # raises ValueError for a port that is no number
    except ValueError:
        return False
    return parts.scheme in ("redis", "rediss", "unix")


def _header_problem(args: argparse.Namespace) -> StartProblem | None:
    header = getattr(args, "source_header", None)
    if header is not None and not _HEADER_NAME.fullmatch(header):
        return StartProblem(BAD_HEADER, value=header)
    return None


def limits_from(args: argparse.Namespace) -> Limits:
    values = {field.name: getattr(args, field.name) for field in fields(Limits)}
    for name in ("ping_interval", "ping_timeout"):
        if not values[name]:
            values[name] = None
    return Limits(**values)


async def serve_until_signalled(args: argparse.Namespace, companion: Companion | None = None) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully (peers told, connections drained).
    ``companion``: another service of this process on its own port (spec/relay.md §9)."""
    secure = server_tls(args)
    async with contextlib.AsyncExitStack() as stack:
        service_port = None if companion is None else await stack.enter_async_context(
            companion(None if secure is None else secure.context))
        await _serve_relay(args, service_port, secure)


async def _serve_relay(args: argparse.Namespace, service_port: int | None, secure: ServerTLS | None) -> None:
    from koikoi_relay.server import RelayServer  # websockets is loaded only when a relay really runs

    rooms = None
    if args.redis:
        try:
            from koikoi_relay.cluster import RedisRooms
        except ImportError:
            raise SystemExit(
                "koikoi relay --redis needs the redis package: pip install 'koikoi-p2p[cluster]'") from None
        rooms = RedisRooms(args.redis, prefix=args.redis_prefix, node_id=args.node_id)
        log_event("cluster_node", node=rooms.node)
    web = getattr(args, "web", False)
    http = web_handler(web, service_port, secure is not None) if web or service_port is not None else None
    server = RelayServer(limits_from(args), rooms=rooms, http=http,
                         ssl=None if secure is None else secure.context,
                         source_header=getattr(args, "source_header", None))
    await _start(server, args)
    # The first line on stdout says where we listen, so a parent process can read the port.
    ws, scheme = ("wss", "https") if secure is not None else ("ws", "http")
    collector = start_collector(server)
    from koikoi_relay import pauses

    recorder = pauses.from_environment()   # debugging only: $KOIKOI_RELAY_PAUSES (off by default)
    if recorder is not None:
        recorder.start()
    trim = memory_trimmer()
    trimmer = None if trim is None else asyncio.create_task(trim_forever(trim))
    print(f"relay listening on {ws}://{args.host}:{server.port}/v1", flush=True)
    if service_port is not None:
        # The rating service beside the relay, on its own port: https:// with the relay's certificate.
        print(f"ratings listening on {scheme}://{args.host}:{service_port}/ratings", flush=True)
    if web:
        print(f"web app at {scheme}://{args.host}:{server.port}/", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if secure is not None:
        loop.add_signal_handler(signal.SIGHUP, reload_tls, secure)
    await stop.wait()
    log_event("signal_received")
    if recorder is not None:
        recorder.stop()
    collector.stop()
    if trimmer is not None:
        trimmer.cancel()
    await server.shutdown()


async def _start(server: RelayServer, args: argparse.Namespace) -> None:
    if not args.redis:
        await server.start(args.host, args.port)
        return
    from koikoi_relay.cluster import NodeIdInUse

    try:
        await server.start(args.host, args.port)
    except NodeIdInUse as exc:
        raise StartProblem(NODE_ID_IN_USE, node=exc.node) from None


def server_tls(args: argparse.Namespace) -> ServerTLS | None:
    """The server context of --tls-cert/--tls-key, or None for plain ws:// and http://."""
    cert, key = getattr(args, "tls_cert", None), getattr(args, "tls_key", None)
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise SystemExit("koikoi relay: --tls-cert and --tls-key go together")
    from koikoi_relay.tls import ServerTLS, TLSFilesError

    try:
        return ServerTLS(cert, key)
    except TLSFilesError as exc:
        raise SystemExit(f"koikoi relay: {exc}") from None


def reload_tls(secure: ServerTLS) -> None:
    """SIGHUP: new connections get the certificate now in the files; a bad pair keeps the old one."""
    from koikoi_relay.tls import TLSFilesError

    try:
        secure.reload()
    except TLSFilesError as exc:
        log_event("tls_reload_failed", logging.ERROR, problem=str(exc))
        return
    log_event("tls_reloaded", reloads=secure.reloads)


def request_host(request: Request) -> str | None:
    """The host name the client asked for (its Host header without the port), None if malformed."""
    match = _HOST.fullmatch(request.headers.get("Host", ""))
    return match.group(1) if match else None


def web_handler(web: bool, service_port: int | None = None, secure: bool = False) -> HttpHandler:
    """The relay's extra GETs: the built browser app (package koikoi_web: static files, standard
    library only) when ``web``; and with a rating service on ``service_port``, a redirect there
    for its paths (307, same host as asked, https:// when ``secure``, spec/relay.md §9), which the
    app's page may reach; without one, the answer that none is here to ``GET /ratings/service``."""
    from koikoi_web import csp_relay, file_for

    def handle(request: Request) -> tuple[int, list[tuple[str, str]], bytes] | None:
        path = request.path.split("?", 1)[0]
        host = request_host(request)
        scheme = "https" if secure else "http"
        service = None if service_port is None or host is None else f"{scheme}://{host}:{service_port}"
        if service_port is not None and RATINGS_PATHS.fullmatch(path):
            if service is None:
                return 400, [("Content-Type", "text/plain; charset=utf-8")], b"bad Host header\n"
            return 307, [("Location", service + request.path), ("Cache-Control", "no-store"),
                         ("Content-Type", "text/plain; charset=utf-8")], b"the rating service is at " + \
                service.encode() + b"\n"
        if service_port is None and path == SERVICE_PATH:
            # No service beside this relay: say so (spec/relay.md §9), rather than a 404 that the
            # app's page, which asks before it shows a leaderboard, would log as a failed load.
            return 200, [("Content-Type", "application/json"), ("Cache-Control", "no-store")], NO_SERVICE
        found = file_for(path) if web else None
        if found is None:
            return None
        return 200, found.headers(csp_relay(*([service] if service else []))), found.body

    return handle


# spec/relay.md §8.7: what the relay frees goes back to the system. glibc's malloc keeps freed
# blocks in its heap (a flood of 64 KiB frames, then its end, would leave the process that large);
# once a second the relay asks it to return its free pages (malloc_trim: a millisecond or two, more
# only when much was freed). Giving large blocks their own mappings instead (mallopt
# M_MMAP_THRESHOLD) did the same at the price of a mapping, its page faults and an unmapping for
# every frame, read and copy: a 64 KiB copy took 25 times as long, encoding a frame 35 times.
TRIM_INTERVAL = 1.0


def memory_trimmer() -> Callable[[], object] | None:
    """glibc's ``malloc_trim(0)``, or None elsewhere (musl, other systems)."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if not sys.platform.startswith("linux") or name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None   # not glibc
    trim.argtypes = [ctypes.c_size_t]
    return lambda: trim(0)


async def trim_forever(trim: Callable[[], object], interval: float = TRIM_INTERVAL) -> None:
    while True:
        await asyncio.sleep(interval)
        trim()


def start_collector(server: RelayServer) -> Collector:
    """The cyclic collector driven for this relay (koikoi_relay/collector.py): young passes twenty
    times a second, each followed by a freeze; full ones when connection objects leak."""
    from koikoi_relay import collector

    driven = collector.Collector(lambda: server.inbound.made - server.inbound.freed,
                                 lambda: server.inbound.connections, young_interval=collector.YOUNG_INTERVAL)
    driven.start()
    return driven


def run(args: argparse.Namespace, companion: Companion | None = None, say: Say = english) -> int:
    """Serve until signalled; a StartProblem is one line on stderr (in ``say``'s words) and exit 1,
    or 2 for a bad flag, as argparse's own refusals."""
    if (getattr(args, "tls_cert", None) is None) != (getattr(args, "tls_key", None) is None):
        print("relay: --tls-cert and --tls-key go together", file=sys.stderr)
        return 2                                 # a usage error
    problem = flag_problem(args)
    if problem is not None:
        print("relay: " + say(problem.template, **problem.values), file=sys.stderr)
        return 2
    configure(getattr(logging, args.log_level.upper()))
    try:
        return run_listening("relay", lambda: asyncio.run(serve_until_signalled(args, companion)))
    except StartProblem as exc:
        print("relay: " + say(exc.template, **exc.values), file=sys.stderr)
        return 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m koikoi_relay",
                                     description="The koikoi-p2p websocket relay.")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
