"""Command-line options shared by the play commands, so they read and behave alike."""

from __future__ import annotations

import argparse
import os
import textwrap
from pathlib import Path
from typing import Any

from koikoi_p2p.cli.exit_codes import epilog
from koikoi_p2p.cli.settings import LANGUAGES

DEFAULT_RELAY = "ws://127.0.0.1:8765/v1"
PRESET_NAMES = ("nintendo", "koikoi-online", "teaching-card", "wikipedia", "board-game", "classic-variant")
# The computer's levels, weakest first: koikoi_p2p.ai.levels.LEVELS, kept here so building the
# parser imports no player (a test keeps the two equal).
LEVELS = ("easy", "medium", "strong", "master")
LEVEL_HELP = "easy (random), medium (greedy), strong, master (searches, up to a second a move)"


class PasswordUnavailable(Exception):
    """--password was given but no password could be read (no terminal, no file, no variable)."""


def default_relay() -> str:
    return os.environ.get("KOIKOI_RELAY", DEFAULT_RELAY)


def relay_url(given: str | None) -> str:
    """The relay URL to use: a bare ``ws://host:port`` gets the protocol path ``/v1``."""
    url = given or default_relay()
    _scheme, sep, rest = url.partition("://")
    if sep and "/" not in rest:
        return url + "/v1"
    if sep and rest.endswith("/") and rest.count("/") == 1:
        return url + "v1"
    return url


def add_parser(subparsers: Any, name: str, help_text: str, description: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name,
        help=help_text,
        description=textwrap.fill(description, 78),
        epilog=epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def add_relay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--relay",
        metavar="URL",
        default=None,
        help=f"relay websocket URL (default: $KOIKOI_RELAY or {DEFAULT_RELAY})",
    )


def add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help="card names in English or Japanese (remembered)"
    )


def add_terms(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules", metavar="PRESET", default="nintendo", help=f"rule preset: {', '.join(PRESET_NAMES)}"
    )
    parser.add_argument(
        "--rounds", type=_positive, default=None, metavar="N", help="match length (default: the preset's)"
    )


def add_password(parser: argparse.ArgumentParser, *, flag_help: str) -> None:
    parser.add_argument("--password", action="store_true", help=flag_help)
    parser.add_argument(
        "--password-file",
        metavar="FILE",
        type=Path,
        default=None,
        help="read the password from the first line of FILE (implies --password)",
    )


def add_peer(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--peer",
        metavar="NAME",
        default=None,
        help="remember the opponent's key under NAME (trust on first use) and warn if it ever changes",
    )


def add_timeout(parser: argparse.ArgumentParser, default: float) -> None:
    parser.add_argument(
        "--timeout",
        type=float,
        default=default,
        metavar="SECONDS",
        help=f"seconds each player gets for a decision (proposed in the match terms; default {default:g})",
    )


def read_password(args: argparse.Namespace) -> str | None:
    """The room password: --password-file, else $KOIKOI_PASSWORD, else a hidden prompt.

    None when neither --password nor --password-file was given (then the SAS is compared).
    """
    path: Path | None = getattr(args, "password_file", None)
    if path is not None:
        try:
            text = path.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise PasswordUnavailable(f"cannot read the password file {path}: {exc.strerror}") from exc
        if not text or not text[0]:
            raise PasswordUnavailable(f"the password file {path} is empty")
        return text[0]
    if not getattr(args, "password", False):
        return None
    env = os.environ.get("KOIKOI_PASSWORD")
    if env:
        return env
    import getpass
    import sys

    if not sys.stdin.isatty():
        raise PasswordUnavailable("no terminal to ask for the password: use --password-file or "
                                  "KOIKOI_PASSWORD")
    try:
        value = getpass.getpass("room password: ")
    except (EOFError, OSError) as exc:
        raise PasswordUnavailable("no terminal to ask for the password; use --password-file") from exc
    if not value:
        raise PasswordUnavailable("the password is empty")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value
