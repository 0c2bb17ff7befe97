"""The user's long-term identity key: made on first run, kept private in the config folder.

The file format and its safe writing belong to the protocol's Identity (one writer of key
files); this module adds what the command line needs: whether the key was just made, and the
fingerprint to show.
"""

from __future__ import annotations

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
    """Read the key at ``path``, or make one and save it readable by the user only (0600)."""
    from koikoi_p2p.protocol.errors import LocalMisuse
    from koikoi_p2p.protocol.identity import Identity

    created = not path.exists()
    try:
        identity = Identity.load_or_create(path)
    except LocalMisuse as exc:
        raise IdentityFileError(
            f"the identity key in {path} cannot be used ({exc.message}); move it away to make a new one"
        ) from exc
    return LoadedIdentity(identity, identity.fingerprint(), created)
