"""Command-line options shared by the play commands, so they read and behave alike."""

from __future__ import annotations

import argparse
import os
import textwrap
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from koikoi_p2p.cli.exit_codes import epilog
from koikoi_p2p.cli.settings import LANGUAGES
from koikoi_p2p.cli.settings import LEVELS as SETTINGS_LEVELS

DEFAULT_RELAY = "ws://127.0.0.1:8765/v1"
# The rule presets, as koikoi_p2p.rules.profile.PRESETS names them (a test keeps the two equal).
PRESET_NAMES = ("nintendo", "koikoi-online", "teaching-card", "wikipedia", "board-game", "classic-variant",
                "koikoi-japan")
# The computer's levels, weakest first: koikoi_p2p.ai.levels.LEVELS, kept in settings so building
# the parser imports no player (a test keeps the two equal).
LEVELS = SETTINGS_LEVELS
LEVEL_HELP = ("easy (random), medium (greedy), strong, master (searches, up to a second a move), "
              "expert (the master's search with a learned evaluation)")


class PasswordUnavailable(Exception):
    """--password was given but no password could be read (no terminal, no file, no variable).

    ``usage`` is true when the command line cannot work as given (an unreadable or empty
    --password-file, --password with no terminal to type it on: exit 2); a typed password that was
    empty or mistyped the second time is what a person typed, not the command line (exit 1)."""

    def __init__(self, message: str, *, usage: bool = False) -> None:
        super().__init__(message)
        self.usage = usage


def default_relay() -> str:
    return os.environ.get("KOIKOI_RELAY", DEFAULT_RELAY)


class BadRelayUrl(ValueError):
    """The relay address is not a ws:// or wss:// URL (a usage error, exit 2)."""


def check_relay_url(url: str) -> None:
    """Refuse an address that cannot be a relay before anything connects (exit 2, not 3)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise BadRelayUrl(url) from None
    if parts.scheme not in ("ws", "wss") or not parts.hostname or (port is not None and not 0 < port < 65536):
        raise BadRelayUrl(url)


def relay_url(given: str | None) -> str:
    """The relay URL to use: a bare ``ws://host:port`` gets the protocol path ``/v1``."""
    url = given or default_relay()
    _scheme, sep, rest = url.partition("://")
    if sep and "/" not in rest:
        return url + "/v1"
    if sep and rest.endswith("/") and rest.count("/") == 1:
        return url + "v1"
    return url


def add_parser(subparsers: Any, name: str, help_text: str, description: str,
               codes: Iterable[int] | None = None,
               words: Mapping[int, str] | None = None) -> argparse.ArgumentParser:
    """A play command's parser; its help ends with the exit codes it can return (``codes``)."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name,
        help=help_text,
        description=textwrap.fill(description, 78),
        epilog=epilog(codes, words),
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
    add_cafile(parser)


CAFILE_HELP = ("trust only the CA certificates in this PEM file for wss:// and https:// (default: "
               "$SSL_CERT_FILE, else the system's trust store)")


def add_cafile(parser: argparse.ArgumentParser, default: object = None, metavar: str = "FILE") -> None:
    """--cafile on every command that connects to a relay or a rating service (net/tls.py); a
    subcommand passes ``argparse.SUPPRESS`` so its command's --cafile, given before it, stays."""
    parser.add_argument("--cafile", metavar=metavar, default=default, help=CAFILE_HELP)


def add_lang(parser: argparse.ArgumentParser, *, remembered: bool = True) -> None:
    text = "the language of the screens: en or ja (remembered; default: the last one, first en)"
    if not remembered:
        text = "the language of the output: en or ja (default: the one the last match used, first en)"
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=text)


def add_terms(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules", metavar="PRESET", default="nintendo",
        help=f"rule preset: {', '.join(PRESET_NAMES)} (default: nintendo)"
    )
    parser.add_argument(
        "--rounds", type=rounds_count, default=None, metavar="N", help="match length (default: the preset's)"
    )
    parser.add_argument(
        "--switch", action="append", default=[], metavar="NAME=VALUE",
        help="change one switch of the preset (repeatable; VALUE as JSON or a word, e.g. "
             "exhaustion=oya_ken, max_calls_per_round=1; koikoi rules PRESET lists them)"
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


# The shortest time for a decision a host may propose (koikoi host --timeout): the joiner's question
# on the terms has the same deadline (spec/game.md §7.1), and the browser's form takes no less.
LEAST_DECISION_TIME = 10


def add_timeout(parser: argparse.ArgumentParser, default: float) -> None:
    parser.add_argument(
        "--timeout",
        type=_decision_seconds,
        default=default,
        metavar="SECONDS",
        help=f"seconds each player gets for a decision, {LEAST_DECISION_TIME} to 86400 (proposed in the "
             f"match terms; default: {default:g})",
    )


def read_password(args: argparse.Namespace, *, twice: bool = False, lang: str | None = None) -> str | None:
    """The room password: --password-file, else $KOIKOI_PASSWORD, else a hidden prompt (asked
    ``twice`` when the host chooses it).

    None when neither --password nor --password-file was given (then the SAS is compared).
    """
    from koikoi_p2p.cli.i18n import tr

    lang = lang or getattr(args, "lang", None) or "en"
    path: Path | None = getattr(args, "password_file", None)
    if path is not None:
        try:
            text = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise PasswordUnavailable(tr(lang, "cannot read the password file {file}: {problem}", file=path,
                                         problem=getattr(exc, "strerror", None) or exc), usage=True) from exc
        if not text or not text[0]:
            raise PasswordUnavailable(tr(lang, "the password file {file} is empty", file=path), usage=True)
        return text[0]
    if not getattr(args, "password", False):
        return None
    env = os.environ.get("KOIKOI_PASSWORD")
    if env:
        return env
    import getpass
    import sys

    if not sys.stdin.isatty():
        raise PasswordUnavailable(tr(lang, "no terminal to ask for the password: use --password-file or "
                                           "KOIKOI_PASSWORD"), usage=True)
    try:
        value = getpass.getpass(tr(lang, "Room password: "))
        if not value:
            raise PasswordUnavailable(tr(lang, "the password is empty"))
        if twice:
            # The host chooses the password: asked twice, so a typo cannot lock the friend out.
            again = getpass.getpass(tr(lang, "The same password again: "))
            if again != value:
                raise PasswordUnavailable(tr(lang, "the two passwords differ: nothing was started"))
    except (EOFError, OSError) as exc:
        raise PasswordUnavailable(
            tr(lang, "no terminal to ask for the password; use --password-file"), usage=True) from exc
    return value


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def rounds_count(text: str) -> int:
    """An argparse type: a match length, 1 to the largest the rules take (spec/rules.md switches)."""
    from koikoi_p2p.rules.profile import MAX_SWITCH_INTEGER

    value = positive_int(text)
    if value > MAX_SWITCH_INTEGER:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_SWITCH_INTEGER}")
    return value


def seconds(text: str) -> float:
    """An argparse type: a number of seconds, 1 to a day."""
    return _seconds(text)


def _decision_seconds(text: str) -> float:
    """The host's --timeout: any time up to a day passes here, so that one that is too short (under
    LEAST_DECISION_TIME, cli/online.py) is refused in the screens' language; a number that is no
    time at all is refused with the range the help gives."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 86_400:
        raise argparse.ArgumentTypeError(f"must be between {LEAST_DECISION_TIME} and 86400 seconds")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 1 <= value <= 86_400:
        raise argparse.ArgumentTypeError("must be between 1 and 86400 seconds")
    return value
