"""``koikoi lobby``: the public rooms waiting on a relay."""

from __future__ import annotations

import argparse
from typing import Any

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.options import add_lang, add_parser, add_relay, seconds


def register(subparsers: Any) -> None:
    parser = add_parser(
        subparsers,
        "lobby",
        "list the public rooms on a relay",
        "List the rooms opened with 'koikoi host --public' that are waiting for a player, each with "
        "the line that joins it.",
        exit_codes.LOBBY,
        exit_codes.LOBBY_WORDS,
    )
    add_relay(parser)
    parser.add_argument("--json", action="store_true", help="print the rooms as a JSON list")
    parser.add_argument("--timeout", type=seconds, default=10.0, metavar="SECONDS",
                        help="give up when the relay has not answered within SECONDS (default: 10)")
    add_lang(parser)
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.lobby import lobby

    return lobby(args)
