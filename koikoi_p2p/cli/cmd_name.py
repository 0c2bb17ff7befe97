"""``koikoi name [NAME]``: show or change this identity's display name."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from koikoi_p2p.cli.i18n import tr
from koikoi_p2p.cli.options import add_lang


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "name",
        help="show or change your display name (shown beside your fingerprint)",
        description="Show or set the display name your identity key signs in every match: up to 32 "
                    "characters, shown to opponents and on leaderboards beside your fingerprint. Names "
                    "are not unique; the fingerprint is the identity. `koikoi name \"\"` clears it.",
    )
    parser.add_argument("name", nargs="?", default=None, metavar="NAME", help="the new name")
    add_lang(parser, remembered=False)
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.display_name import BadName, load_name, save_name, shown
    from koikoi_p2p.cli.identity_store import IdentityFileError, load_or_create_identity
    from koikoi_p2p.cli.paths import folders
    from koikoi_p2p.cli.setup import command_lang

    lang = command_lang(args)
    where = folders().ensure()
    try:
        identity = load_or_create_identity(where.identity_file)
    except IdentityFileError as exc:
        print(f"koikoi name: {exc}", file=sys.stderr)
        return 1
    if identity.created:   # the first command of a fresh install: say so, as a match would
        print(tr(lang, "Made your identity key ({path}).", path=where.identity_file))
    if args.name is None:
        name = load_name(where.name_file)
        print(shown(name, identity.fingerprint) if name
              else tr(lang, "{fp} (no name chosen)", fp=identity.fingerprint))
        return 0
    try:
        name = save_name(where.name_file, args.name)
    except BadName as exc:
        print(f"koikoi name: {exc.describe(lang)}", file=sys.stderr)
        return 2
    print(tr(lang, "your name is now {shown}", shown=shown(name, identity.fingerprint)) if name
          else tr(lang, "no name: you are shown as {fp}", fp=identity.fingerprint))
    return 0
