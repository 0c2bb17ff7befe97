"""``koikoi lobby``: the public rooms waiting on a relay."""

from __future__ import annotations

import argparse
from typing import Any

from koikoi_p2p.cli.options import add_parser, add_relay


def register(subparsers: Any) -> None:
    parser = add_parser(
        subparsers,
        "lobby",
        "list the public rooms on a relay",
        "List the rooms opened with 'koikoi host --public' that are waiting for a player.",
    )
    add_relay(parser)
    parser.add_argument("--json", action="store_true", help="print the rooms as a JSON list")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="give up after")
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.online import lobby

    return lobby(args)
