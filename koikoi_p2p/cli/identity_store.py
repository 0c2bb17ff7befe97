"""The user's long-term identity key: made on first run, kept private in the config folder."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from koikoi_p2p.protocol.identity import Identity


class IdentityFileError(Exception):
    """The identity file exists but cannot be used (unreadable or not a key)."""

    reason = "bad_identity_file"


@dataclass(frozen=True, slots=True)
class LoadedIdentity:
    identity: Identity
    fingerprint: str
    created: bool


def load_or_create_identity(path: Path) -> LoadedIdentity:
    """Read the key at ``path``, or make one and save it readable by the user only."""
    from koikoi_p2p.protocol.identity import Identity, fingerprint

    created = False
    if path.exists():
        try:
            raw = bytes.fromhex(path.read_text(encoding="ascii").strip())
            identity = Identity.from_private_bytes(raw)
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            raise IdentityFileError(f"the identity key in {path} cannot be read: {exc}") from exc
        except Exception as exc:  # the protocol's own error for a malformed key
            raise IdentityFileError(f"the identity key in {path} is not a valid key: {exc}") from exc
    else:
        identity = Identity.generate()
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(identity.private_bytes().hex() + "\n")
        os.replace(tmp, path)
        created = True
    return LoadedIdentity(identity, fingerprint(identity.public_key), created)
