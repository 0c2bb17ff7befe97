"""``koikoi host``: open a room on a relay and play whoever joins with its code."""

from __future__ import annotations

import argparse
from typing import Any

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.options import (
    add_lang,
    add_parser,
    add_password,
    add_peer,
    add_relay,
    add_terms,
    add_timeout,
    seconds,
)


def register(subparsers: Any) -> None:
    parser = add_parser(
        subparsers,
        "host",
        "open a room and play the friend who joins it",
        "Open a room on a relay, print its code and a line to send to a friend, and play them. "
        "Without a password, compare the short authentication string both screens show.",
        exit_codes.HOST,
    )
    add_relay(parser)
    parser.add_argument("--public", action="store_true",
                        help="list the room in the relay's lobby (default: unlisted, join by its code)")
    add_password(
        parser,
        flag_help="ask for a room password, twice (hidden prompt, or $KOIKOI_PASSWORD when set; default: "
                  "no password, compare the security code instead)",
    )
    add_terms(parser)
    add_lang(parser)
    add_peer(parser)
    add_timeout(parser, 300.0)
    parser.add_argument("--rated", action="store_true",
                        help="propose a rated match: results go to a rating service (the joiner is told)")
    parser.add_argument("--ratings", metavar="URL", default=None,
                        help="the rating service of a rated match (default: the one that answers for the "
                             "relay; none answering, no room is opened)")
    parser.add_argument(
        "--wait", type=seconds, default=600.0, metavar="SECONDS",   # 1 s to a day (QA: 0 opened a room)
        help="how long the room waits for your friend to join (default: 600)"
    )
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.online import host

    return host(args)
