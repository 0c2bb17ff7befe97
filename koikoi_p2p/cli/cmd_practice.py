"""``koikoi practice``: a whole match against the computer, on this machine, every proof checked."""

from __future__ import annotations

import argparse
from typing import Any

from koikoi_p2p.cli import exit_codes
from koikoi_p2p.cli.options import LEVEL_HELP, add_lang, add_parser, add_terms
from koikoi_p2p.cli.settings import FIRST_LEVEL, LEVELS


def register(subparsers: Any) -> None:
    parser = add_parser(
        subparsers,
        "practice",
        "play a match against the computer (no network)",
        "Play a whole match against the computer on this machine. The computer is a real peer of "
        "the protocol over an in-memory connection: it shuffles, proves and signs like a person "
        "would, and every proof it sends is checked.",
        exit_codes.PRACTICE,
    )
    add_terms(parser)
    parser.add_argument(
        "--level", choices=LEVELS, default=None,
        help=f"the computer's strength: {LEVEL_HELP} (remembered; default: {FIRST_LEVEL} for a first "
             "match, then the last one)"
    )
    parser.add_argument(
        "--think", type=_seconds, default=None, metavar="SECONDS",
        help="master and expert only: the longest it may think about one move (default 1 second; its 1000 "
             "playouts a move usually take well under that)")
    add_lang(parser)
    parser.add_argument("--seed", type=int, default=None, help=argparse.SUPPRESS)
    parser.set_defaults(handler=_handle)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0.05 <= value <= 60:
        raise argparse.ArgumentTypeError("expected between 0.05 and 60 seconds")
    return value


def _handle(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.practice import practice

    return practice(args)
