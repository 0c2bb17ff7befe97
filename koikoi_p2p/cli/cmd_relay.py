"""``koikoi relay [--host 127.0.0.1] [--port 8765] [--ratings DB_URL]``: run the untrusted
websocket relay, and with ``--ratings`` the rating service on the same port, in one process."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    from koikoi_relay.main import add_arguments  # light: argparse and dataclasses only

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
        help="also serve the rating service on this port (/ratings...), storing in DB_URL: "
        "sqlite:///PATH or postgresql://USER@HOST:PORT/DB ('default': ratings.sqlite3 in the data folder)",
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from koikoi_relay.main import run

    if args.ratings is None:
        return run(args)
    # The composition happens here, where everything may be imported: the relay hands the
    # requests for /ratings... to the rating service's HTTP app (koikoi_relay/divert.py), and
    # itself imports nothing of the rating service.
    from koikoi_p2p.cli.cmd_ratings import default_db, open_service
    from koikoi_p2p.ratings.errors import StoreError

    db = default_db() if args.ratings == "default" else args.ratings
    try:
        app = open_service(db)
    except StoreError as exc:
        print(f"koikoi relay: {exc}", file=sys.stderr)
        return 1
    # stderr: the first line on stdout stays the relay's "listening on" line.
    print(f"ratings on the relay's port at /ratings ({app.service.store.description})", file=sys.stderr)
    from koikoi_p2p.ratings.app import MAX_BODY, claims
    from koikoi_relay.divert import Diversion

    try:
        return run(args, Diversion(app.handle_raw, claims, MAX_BODY))
    finally:
        app.service.close()
