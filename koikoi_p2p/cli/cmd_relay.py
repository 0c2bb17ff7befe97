"""``koikoi relay [--host 127.0.0.1] [--port 8765] [--ratings DB_URL [--ratings-port P]]``: run
the untrusted websocket relay, and with ``--ratings`` the rating service beside it in the same
process, on a port of its own (spec/ratings.md §9)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    from koikoi_relay.main import add_arguments, port_number  # light: argparse and dataclasses only

    parser = subparsers.add_parser(
        "relay",
        help="run the websocket relay that pairs peers in rooms and forwards their opaque frames",
        description="Run the relay (also `python -m koikoi_relay`). It never sees cards, keys or moves. "
        "Stop it with SIGTERM or Ctrl-C: peers are told and connections drained.",
    )
    add_arguments(parser)
    parser.add_argument(
        "--ratings",
        metavar="DB_URL",
        default=None,
        help="also run the rating service in this process, on --ratings-port, storing in DB_URL: "
        "sqlite:///PATH or postgresql://USER@HOST:PORT/DB ('default': ratings.sqlite3 in the data folder); "
        "the relay's port redirects GET /ratings... there",
    )
    parser.add_argument(
        "--ratings-port", type=port_number, default=None, metavar="P",
        help="the rating service's port (default 8766, or a free one when --port is 0)",
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    import functools

    from koikoi_p2p.cli.i18n import tr
    from koikoi_p2p.cli.setup import command_lang
    from koikoi_relay.main import run as run_relay

    # The relay's messages to the operator in the command's language (koikoi_relay.main.MESSAGES).
    run = functools.partial(run_relay, say=functools.partial(tr, command_lang(args)))
    if (args.tls_cert is None) != (args.tls_key is None):   # a usage error: 2, as koikoi ratings serve
        print("koikoi relay: " + tr(command_lang(args), "--tls-cert and --tls-key go together"),
              file=sys.stderr)
        return 2
    from koikoi_relay.main import flag_problem

    # Before anything is opened (the rating service's database with --ratings): a bad flag is 2.
    problem = flag_problem(args)
    if problem is not None:
        print("relay: " + tr(command_lang(args), problem.template, **problem.values), file=sys.stderr)
        return 2
    if args.ratings is None:
        return run(args)
    # The composition happens here, where everything may be imported: the rating service runs
    # on its own port in this process (aiohttp), and the relay only learns that port.
    import contextlib
    import ssl
    from collections.abc import AsyncIterator

    from koikoi_p2p.cli.cmd_ratings import DEFAULT_PORT, default_db, open_service
    from koikoi_p2p.ratings.errors import StoreError

    db = default_db() if args.ratings == "default" else args.ratings
    try:
        service = open_service(db)
    except StoreError as exc:
        print(f"koikoi relay: {exc}", file=sys.stderr)
        return 1
    port = args.ratings_port if args.ratings_port is not None else (0 if args.port == 0 else DEFAULT_PORT)
    print(f"ratings beside the relay ({service.store.description})", file=sys.stderr)

    @contextlib.asynccontextmanager
    async def ratings(context: ssl.SSLContext | None) -> AsyncIterator[int]:
        from koikoi_p2p.ratings.app import RatingsServer

        # With --tls-cert: https:// with the relay's own context (its SIGHUP reload renews both).
        server = RatingsServer(service)
        try:
            await server.start(args.host, port, context)
        except OSError as exc:
            from koikoi_relay.main import COMPANION_PORT, StartProblem, listen_problem

            # Its port, not the relay's (terminal QA: 8766 taken read as the relay's own failure).
            problem = listen_problem(exc)
            if problem is None:
                raise
            raise StartProblem(COMPANION_PORT, problem=problem) from exc
        try:
            yield server.port
        finally:
            await server.close()

    try:
        return run(args, ratings)
    finally:
        service.close()
