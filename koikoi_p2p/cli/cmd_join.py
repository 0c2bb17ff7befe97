"""``koikoi join CODE``: join a friend's room by its code and play."""

from __future__ import annotations

import argparse
from typing import Any

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.options import add_lang, add_parser, add_password, add_peer, add_relay


def register(subparsers: Any) -> None:
    parser = add_parser(
        subparsers,
        "join",
        "join a friend's room by its code",
        "Join the room with this code and play its host. The host proposes the rules, the match "
        "length and the time each player gets for a decision; they are shown before you accept them.",
        exit_codes.JOIN,
    )
    parser.add_argument("code", metavar="CODE", help="the six-character room code")
    add_relay(parser)
    add_password(
        parser,
        flag_help="the room has a password: ask for it (hidden prompt, or $KOIKOI_PASSWORD when set)",
    )
    parser.add_argument("--accept", action="store_true",
                        help="accept the host's proposed terms without asking (for scripts; default: ask)")
    add_lang(parser)
    add_peer(parser)
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.online import join

    return join(args)
