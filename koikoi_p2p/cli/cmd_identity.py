"""``koikoi identity show|export FILE|import FILE``: one identity on every device (spec/identity.md).

The identity (the key and the display name) is exported sealed under a passphrase, and imported on
another device or in the browser. Importing over an identity asks first (at a terminal) and keeps
the replaced one beside it, so nothing is lost by a mistake.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from koikoi_p2p.cli.i18n import tr
from koikoi_p2p.cli.options import add_lang

PASSPHRASE_VARIABLE = "KOIKOI_PASSPHRASE"  # noqa: S105 - the variable's name, not a secret


class PassphraseUnavailable(Exception):
    """No passphrase could be read (no terminal, no file, no variable), or the two typed differ.

    ``typed``: the person's typing was the problem (the two differ), not the command line: exit 1
    as for the room password, not 2 (terminal QA)."""

    def __init__(self, message: str, *, typed: bool = False) -> None:
        super().__init__(message)
        self.typed = typed


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "identity",
        help="show, export or import your identity (your key and display name)",
        description="Your identity is a key, kept on this device. Export it to a file sealed under a "
                    "passphrase, and import that file on another device or in the browser: the same "
                    "fingerprint, name and rating everywhere, and a lost device loses nothing.",
    )
    add_lang(parser, remembered=False)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="print your fingerprint and display name",
                              description="Print this device's identity: its fingerprint and display name.")
    add_lang(show, remembered=False)
    show.set_defaults(handler=_show)
    for name, verb in (("export", _export), ("import", _import)):
        sub = actions.add_parser(
            name,
            help=("write your identity to FILE, sealed under a passphrase" if name == "export"
                  else "replace this device's identity with the one in FILE"),
            description=("Write the identity key and display name to FILE, sealed under a passphrase of "
                         "at least 8 characters (asked twice at a terminal)." if name == "export" else
                         "Read an identity file made by koikoi identity export or the browser. The "
                         "identity it replaces is kept beside it as a backup."),
        )
        sub.add_argument("file", metavar="FILE", type=Path, help="the identity file")
        sub.add_argument("--passphrase-file", metavar="PFILE", type=Path, default=None,
                         help="read the passphrase from the first line of PFILE (or set "
                              "$KOIKOI_PASSPHRASE)")
        if name == "import":
            sub.add_argument("--replace", action="store_true",
                             help="replace an existing identity without asking (it is still backed up)")
        else:
            sub.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
        add_lang(sub, remembered=False)
        sub.set_defaults(handler=verb)


def _show(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.display_name import load_name
    from koikoi_p2p.cli.identity_store import IdentityFileError, load_or_create_identity
    from koikoi_p2p.cli.paths import folders
    from koikoi_p2p.cli.setup import command_lang

    lang = command_lang(args)
    where = folders().ensure()
    try:
        loaded = load_or_create_identity(where.identity_file)
    except IdentityFileError as exc:
        print(f"koikoi identity: {exc}", file=sys.stderr)
        return 1
    if loaded.created:   # the first command of a fresh install: say so, as a match would
        print(tr(lang, "Made your identity key ({path}).", path=where.identity_file))
    name = load_name(where.name_file)
    print(tr(lang, "Fingerprint: {fp}", fp=loaded.fingerprint))
    print(tr(lang, "Name: {name}", name=name) if name
          else tr(lang, "Name: (none)"))
    print(tr(lang, "Key file: {path}", path=where.identity_file))
    return 0


def read_passphrase(args: argparse.Namespace, lang: str, *, twice: bool) -> str:
    """--passphrase-file, else $KOIKOI_PASSPHRASE, else a hidden prompt (asked ``twice`` to export)."""
    path: Path | None = args.passphrase_file
    if path is not None:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise PassphraseUnavailable(tr(lang, "cannot read the passphrase file {file}: {problem}",
                                           file=path, problem=getattr(exc, "strerror", None) or exc)) from exc
        if not lines or not lines[0]:
            raise PassphraseUnavailable(tr(lang, "the passphrase file {file} is empty", file=path))
        return lines[0]
    value = os.environ.get(PASSPHRASE_VARIABLE)
    if value:
        return value
    if not sys.stdin.isatty():
        raise PassphraseUnavailable(tr(lang, "no terminal to ask for the passphrase: use --passphrase-file "
                                             "or KOIKOI_PASSPHRASE"))
    import getpass

    try:
        value = getpass.getpass(tr(lang, "Passphrase: "))
        if twice and getpass.getpass(tr(lang, "The same passphrase again: ")) != value:
            raise PassphraseUnavailable(tr(lang, "the two passphrases differ: nothing was written"),
                                        typed=True)
    except (EOFError, OSError) as exc:
        raise PassphraseUnavailable(tr(lang, "no terminal to ask for the passphrase; use "
                                             "--passphrase-file")) from exc
    return value


def _export(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.display_name import load_name
    from koikoi_p2p.cli.identity_store import IdentityFileError, load_or_create_identity
    from koikoi_p2p.cli.paths import folders
    from koikoi_p2p.cli.setup import command_lang
    from koikoi_p2p.protocol.identity_file import MIN_PASSPHRASE, seal_identity

    lang = command_lang(args)
    where = folders().ensure()
    target: Path = args.file
    if target.exists() and not args.force:
        print("koikoi identity: " + tr(lang, "{file} exists: choose another name, or add --force",
                                       file=target), file=sys.stderr)
        return 2
    try:
        loaded = load_or_create_identity(where.identity_file)
        if loaded.created:
            print(tr(lang, "Made your identity key ({path}).", path=where.identity_file))
        passphrase = read_passphrase(args, lang, twice=True)
    except (IdentityFileError, PassphraseUnavailable) as exc:
        print(f"koikoi identity: {exc}", file=sys.stderr)
        return 1 if isinstance(exc, PassphraseUnavailable) and exc.typed else 2
    if len(passphrase) < MIN_PASSPHRASE:
        print("koikoi identity: " + tr(lang, "a passphrase has at least {n} characters: nothing was written",
                                       n=MIN_PASSPHRASE), file=sys.stderr)
        return 2
    data = seal_identity(loaded.identity, load_name(where.name_file), passphrase)
    try:
        _write_private(target, data)
    except OSError as exc:
        print("koikoi identity: " + tr(lang, "cannot write {file}: {problem}", file=target,
                                       problem=exc.strerror), file=sys.stderr)
        return 2
    print(tr(lang, "Wrote your identity ({fp}) to {file}. Keep the file and the passphrase apart: together "
                   "they are you.", fp=loaded.fingerprint, file=target.resolve()))
    return 0


def _import(args: argparse.Namespace) -> int:
    from koikoi_p2p.cli.display_name import save_name
    from koikoi_p2p.cli.paths import folders
    from koikoi_p2p.cli.setup import command_lang
    from koikoi_p2p.protocol.errors import LocalMisuse
    from koikoi_p2p.protocol.identity import Identity
    from koikoi_p2p.protocol.identity_file import IdentityFileError, open_identity

    lang = command_lang(args)
    where = folders().ensure()
    try:
        data = args.file.read_bytes()
    except OSError as exc:
        print("koikoi identity: " + tr(lang, "cannot read {file}: {problem}", file=args.file,
                                       problem=exc.strerror), file=sys.stderr)
        return 2
    try:
        passphrase = read_passphrase(args, lang, twice=False)
        carried = open_identity(data, passphrase)
    except PassphraseUnavailable as exc:
        print(f"koikoi identity: {exc}", file=sys.stderr)
        return 1 if exc.typed else 2
    except IdentityFileError as exc:
        print("koikoi identity: " + tr(lang, IMPORT_PROBLEMS[exc.reason], file=args.file)
              + f" ({exc.reason})", file=sys.stderr)
        return 1
    current: Identity | None = None
    if where.identity_file.exists():
        try:
            current = Identity.load_or_create(where.identity_file)
        except LocalMisuse:  # an unusable key file is replaced (and still backed up)
            current = None
    if current is not None and current.public_key == carried.identity.public_key:
        save_name(where.name_file, carried.name)
        print(tr(lang, "This device already has that identity ({fp}); its name is now the file's.",
                 fp=carried.fingerprint))
        return 0
    if where.identity_file.exists():
        if not args.replace and not _confirm(lang, where.identity_file, current):
            print(tr(lang, "Nothing changed."))
            return 1
        backup = where.identity_file.with_name(
            f"{where.identity_file.name}.backup-{time.strftime('%Y%m%dT%H%M%S')}")
        _write_private(backup, where.identity_file.read_bytes())
        if where.name_file.exists():
            _write_private(backup.with_name(backup.name + ".name"), where.name_file.read_bytes())
        print(tr(lang, "Kept the identity it replaces in {file}.", file=backup))
    carried.identity.save(where.identity_file)
    save_name(where.name_file, carried.name)
    print(tr(lang, "This device now plays as {fp}{name}.", fp=carried.fingerprint,
             name=f" ({carried.name})" if carried.name else ""))
    return 0


IMPORT_PROBLEMS = {
    "not_identity_file": "{file} is not a koikoi identity file",
    "unsupported_version": "{file} is an identity file of a newer version than this client reads",
    "damaged_identity_file": "{file} is damaged (cut short, or bytes were changed)",
    "wrong_passphrase": "the passphrase does not open {file} (or the file was altered)",
    "bad_identity_file": "{file} opens but holds no valid identity",
}


def _confirm(lang: str, path: Path, current: object) -> bool:
    """Ask before replacing this device's identity (at a terminal; a script says --replace)."""
    fp = current.fingerprint() if hasattr(current, "fingerprint") else "?"
    if not sys.stdin.isatty():
        print("koikoi identity: " + tr(lang, "this device already has an identity ({fp}): add --replace to "
                                             "replace it (it is kept as a backup)", fp=fp), file=sys.stderr)
        return False
    print(tr(lang, "This device already has an identity ({fp}); replace it? It is kept as a backup. [y/N] ",
             fp=fp), end="", flush=True)
    answer = sys.stdin.readline().strip().casefold()
    return answer in ("y", "yes", "はい")


def _write_private(path: Path, data: bytes) -> None:
    """Atomically, readable by the owner only (0600), like the key file itself."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.replace(tmp, path)
