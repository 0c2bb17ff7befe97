"""Entry point of the ``koikoi`` command.

Each subcommand lives in its own module exposing ``register(subparsers)``; the module adds a
parser whose ``handler`` default takes the parsed arguments and returns an exit code. Listing
the modules here (rather than discovering them) keeps start-up fast and the command set explicit.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from koikoi_p2p import __version__
from koikoi_p2p.cli.settings import LANGUAGES

COMMAND_MODULES: tuple[str, ...] = (
    "koikoi_p2p.cli.cmd_bench",
    "koikoi_p2p.cli.cmd_train",
    "koikoi_p2p.cli.cmd_score",
    "koikoi_p2p.cli.cmd_cards",
    "koikoi_p2p.cli.cmd_rules",
    "koikoi_p2p.cli.cmd_practice",
    "koikoi_p2p.cli.cmd_host",
    "koikoi_p2p.cli.cmd_join",
    "koikoi_p2p.cli.cmd_lobby",
    "koikoi_p2p.cli.cmd_relay",
    "koikoi_p2p.cli.cmd_ratings",
    "koikoi_p2p.cli.cmd_name",
    "koikoi_p2p.cli.cmd_identity",
    "koikoi_p2p.cli.cmd_resume",
    "koikoi_p2p.cli.cmd_selfplay",
    "koikoi_p2p.cli.cmd_verify",
    "koikoi_p2p.cli.cmd_web",
)


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """Every command's parser; with ``lang`` "ja" their --help is in Japanese (cli/help_text.py)."""
    from koikoi_p2p.cli.help_text import parser_class

    parser = parser_class(lang)(
        prog="koikoi",
        description="Play Koi-Koi peer to peer with no one to trust: not the opponent, not the relay.",
    )
    parser.add_argument("--version", action="version", version=f"koikoi {__version__}")
    # Also before the command (`koikoi --lang ja --help`); a command's own --lang wins (main()).
    parser.add_argument("--lang", dest="main_lang", choices=LANGUAGES, default=None,
                        help="the language of the screens and of --help: en or ja (default: the remembered "
                             "one, first en)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(subparsers)
    return parser


def _subparser(parser: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser:
    """The parser of ``command`` (its usage is the one to show for its bad arguments)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            sub: argparse.ArgumentParser = action.choices[command]
            return sub
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from koikoi_p2p.cli.help_text import lang_of

    parser = build_parser(lang_of(argv))
    args, extra = parser.parse_known_args(argv)
    if extra:
        # "koikoi host --bogus" shows host's usage, not the top-level one (exit 2).
        _subparser(parser, getattr(args, "command", None)).error(
            f"unrecognized arguments: {' '.join(extra)}")
    if getattr(args, "lang", None) is None and args.main_lang is not None:
        args.lang = args.main_lang
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    if hasattr(args, "cafile"):
        # The commands that connect: the CA file (--cafile, else $SSL_CERT_FILE) must be usable
        # before anything connects, and every connection verifies with it (net/tls.py).
        from koikoi_p2p.net import tls

        try:
            tls.use_cafile(args.cafile)
            tls.client_context()
        except tls.BadCafile as exc:
            print(f"koikoi: {exc}", file=sys.stderr)
            return 2
    try:
        code = handler(args)
    except KeyboardInterrupt:
        from koikoi_p2p.cli.i18n import tr

        # In the screens' language (QA: a Japanese host's Ctrl-C said "interrupted").
        # On a fresh line: the terminal's "^C" is left where the cursor was (QA: "Name: ^Cinterrupted").
        fresh = "\n" if sys.stderr.isatty() else ""
        print(fresh + tr(getattr(args, "lang", None) or lang_of(argv), "interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`koikoi rules | head`): stop quietly, no traceback.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
