"""``koikoi relay [--host 127.0.0.1] [--port 8765]``: run the untrusted websocket relay."""

from __future__ import annotations

import argparse
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
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from koikoi_relay.main import run

    return run(args)
