"""Command line of the relay, shared by ``python -m koikoi_relay`` and ``koikoi relay``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING

from koikoi_relay.limits import Limits
from koikoi_relay.logs import configure, log_event

if TYPE_CHECKING:
    from koikoi_relay.divert import Diversion


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Host, port, log level and one ``--limit-name`` flag per field of Limits."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="TCP port (default 8765; 0 picks a free one)")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    parser.add_argument("--web", action="store_true",
                        help="also serve the browser app at / (beside the protocol at /v1), with a strict "
                             "Content-Security-Policy; the page connects only to this relay")
    parser.add_argument("--source-header", default=None, metavar="NAME",
                        help="behind a proxy: take a connection's address, for the per-source limits, from "
                             "the last entry of this request header set by the proxy (e.g. X-Forwarded-For); "
                             "only with a proxy that sets it, or clients choose their own address")
    cluster = parser.add_argument_group("cluster (spec/relay.md §13)")
    cluster.add_argument(
        "--redis", metavar="URL", default=os.environ.get("KOIKOI_RELAY_REDIS") or None,
        help="be one node of a relay cluster whose rooms live in this Redis, e.g. redis://127.0.0.1:6379/0 "
             "(default: $KOIKOI_RELAY_REDIS; unset: a single process, rooms in memory)")
    cluster.add_argument("--redis-prefix", default="koikoi:", metavar="TEXT",
                         help="prefix of every Redis key (one prefix per cluster; default koikoi:)")
    cluster.add_argument("--node-id", default=None, metavar="ID",
                         help="this node's name in Redis, letters and digits (default: random)")
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


def limits_from(args: argparse.Namespace) -> Limits:
    values = {field.name: getattr(args, field.name) for field in fields(Limits)}
    for name in ("ping_interval", "ping_timeout"):
        if not values[name]:
            values[name] = None
    return Limits(**values)


async def serve_until_signalled(args: argparse.Namespace, divert: Diversion | None = None) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully (peers told, connections drained).
    ``divert``: the requests another service of this process takes from the port (divert.py)."""
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
    web = web_handler() if getattr(args, "web", False) else None
    server = RelayServer(limits_from(args), rooms=rooms, http=web, divert=divert,
                         source_header=getattr(args, "source_header", None))
    await server.start(args.host, args.port)
    # The first line on stdout says where we listen, so a parent process can read the port.
    print(f"relay listening on ws://{args.host}:{server.port}/v1", flush=True)
    if getattr(args, "web", False):
        print(f"web app at http://{args.host}:{server.port}/", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log_event("signal_received")
    await server.shutdown()


def web_handler() -> Callable[[str], tuple[int, list[tuple[str, str]], bytes] | None]:
    """Serve the built browser app (package koikoi_web: static files, standard library only)."""
    from koikoi_web import CSP_RELAY, file_for

    def handle(path: str) -> tuple[int, list[tuple[str, str]], bytes] | None:
        found = file_for(path)
        if found is None:
            return None
        return 200, found.headers(CSP_RELAY), found.body

    return handle


def run(args: argparse.Namespace, divert: Diversion | None = None) -> int:
    configure(getattr(logging, args.log_level.upper()))
    asyncio.run(serve_until_signalled(args, divert))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m koikoi_relay",
                                     description="The koikoi-p2p websocket relay.")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
