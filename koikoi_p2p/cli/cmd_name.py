"""``koikoi name [NAME]``: show or change this identity's display name."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "name",
        help="show or change your display name (shown beside your fingerprint)",
        description="Show or set the display name your identity key signs in every match: up to 32 "
                    "characters, shown to opponents and on leaderboards beside your fingerprint. Names "
                    "are not unique; the fingerprint is the identity. `koikoi name \"\"` clears it.",
    )
    parser.add_argument("name", nargs="?", default=None, metavar="NAME", help="the new name")
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.display_name import BadName, load_name, save_name, shown
    from koikoi_p2p.cli.identity_store import IdentityFileError, load_or_create_identity
    from koikoi_p2p.cli.paths import folders

    where = folders().ensure()
    try:
        identity = load_or_create_identity(where.identity_file)
    except IdentityFileError as exc:
        print(f"koikoi name: {exc}", file=sys.stderr)
        return 1
    if args.name is None:
        name = load_name(where.name_file)
        print(shown(name, identity.fingerprint) if name else f"{identity.fingerprint} (no name chosen)")
        return 0
    try:
        name = save_name(where.name_file, args.name)
    except BadName as exc:
        print(f"koikoi name: {exc}", file=sys.stderr)
        return 2
    print(f"your name is now {shown(name, identity.fingerprint)}" if name
          else f"no name: you are shown as {identity.fingerprint}")
    return 0
