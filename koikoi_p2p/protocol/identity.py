"""Long-term identity keys (Ed25519), their fingerprints, and trust-on-first-use memory.

spec/protocol.md §5.1. The identity signs the handshake hash and every envelope; players compare
fingerprints, and ``KnownPeers`` remembers the key seen for a name so a change is noticed.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from koikoi_p2p.protocol.errors import LocalMisuse, RemoteViolation
from koikoi_p2p.protocol.primitives import ed25519_verify, sha256

Rng = Callable[[int], bytes]
PUBLIC_KEY_SIZE = 32
SIGNATURE_SIZE = 64
# The fingerprint names a key, not a protocol version: it keeps its label so that people who
# compared fingerprints before version 2 still see the same ones (spec/protocol.md §5.1).
FINGERPRINT_LABEL = b"koikoi-p2p/1 fingerprint"
MAX_NAME_CHARS = 32
MAX_NAME_BYTES = 4 * MAX_NAME_CHARS


def name_problem(name: object) -> str | None:
    """Why ``name`` is not a valid display name (spec/protocol.md §5.1), or None.

    A display name is a string in NFC, of 0 to 32 code points, with no code point of Unicode
    category C* (controls, format characters, surrogates, private use, unassigned) or of the
    line and paragraph separators (Zl, Zp), and no space separator (Zs) at either end. ""
    means that no name was chosen."""
    if not isinstance(name, str):
        return "a display name is a string"
    if unicodedata.normalize("NFC", name) != name:
        return "a display name is in Unicode normal form NFC"
    if len(name) > MAX_NAME_CHARS:
        return f"a display name has at most {MAX_NAME_CHARS} characters"
    if any(unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp") for ch in name):
        return "a display name has no control, format or line-separator characters"
    if name and (unicodedata.category(name[0]) == "Zs" or unicodedata.category(name[-1]) == "Zs"):
        return "a display name does not start or end with a space"
    return None


def normalise_name(name: str) -> str:
    """A display name chosen locally: NFC-normalised, then checked (``LocalMisuse("bad_name")``)."""
    if not isinstance(name, str):
        raise LocalMisuse("bad_name", "a display name is a string")
    name = unicodedata.normalize("NFC", name)
    problem = name_problem(name)
    if problem is not None:
        raise LocalMisuse("bad_name", problem)
    return name


def check_name(name: object) -> str:
    """A received display name; ``RemoteViolation("bad_name")`` unless it is valid as sent."""
    problem = name_problem(name)
    if problem is not None:
        raise RemoteViolation("bad_name", problem)
    assert isinstance(name, str)
    return name


class Identity:
    """A long-term Ed25519 key pair. The private half never leaves this object except through
    ``private_bytes()`` (for the owner's key file and the crash-safe channel state)."""

    __slots__ = ("_key", "public_key")

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.public_key: bytes = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    @classmethod
    def generate(cls, rng: Rng | None = None) -> Identity:
        """A fresh key; ``rng`` (n -> n random bytes) makes it reproducible in tests."""
        seed = (rng or secrets.token_bytes)(32)
        return cls.from_private_bytes(seed)

    @classmethod
    def from_private_bytes(cls, data: bytes) -> Identity:
        """The key from its 32-byte RFC 8032 seed."""
        if not isinstance(data, (bytes, bytearray)) or len(data) != 32:
            raise LocalMisuse("bad_identity", "an Ed25519 private key is 32 bytes")
        return cls(Ed25519PrivateKey.from_private_bytes(bytes(data)))

    def private_bytes(self) -> bytes:
        return self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data)

    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def __repr__(self) -> str:  # never show the private key
        return f"Identity({self.fingerprint()})"

    @classmethod
    def load_or_create(cls, path: str | os.PathLike[str], rng: Rng | None = None) -> Identity:
        """Read the key file at ``path`` (hex of the 32-byte seed), or create it readable by the
        owner only (mode 0600, folder 0700). Raises ``LocalMisuse("bad_identity_file")``."""
        file = Path(path)
        if file.exists():
            try:
                text = file.read_text(encoding="ascii").strip()
                return cls.from_private_bytes(bytes.fromhex(text))
            except (OSError, ValueError, UnicodeDecodeError, LocalMisuse) as exc:
                raise LocalMisuse("bad_identity_file", f"{file}: {type(exc).__name__}") from None
        identity = cls.generate(rng)
        identity.save(file)
        return identity

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the key file atomically with mode 0600 (never readable by others, even briefly)."""
        file = Path(path)
        file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = file.with_name(file.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(self.private_bytes().hex() + "\n")
        os.chmod(tmp, 0o600)
        os.replace(tmp, file)


def check_public_key(public_key: bytes) -> Ed25519PublicKey:
    """Parse a received identity key; ``RemoteViolation("bad_key")`` if it is no Ed25519 key."""
    if not isinstance(public_key, bytes) or len(public_key) != PUBLIC_KEY_SIZE:
        raise RemoteViolation("bad_key", "an Ed25519 public key is 32 bytes")
    try:
        return Ed25519PublicKey.from_public_bytes(public_key)
    except ValueError:
        raise RemoteViolation("bad_key", "not an Ed25519 public key") from None


def check_identity_key(public_key: bytes) -> Ed25519PublicKey:
    """Accept a received identity key only if signatures under it bind its holder.

    Beyond parsing, the key must be a canonical point of the prime-order subgroup, as every key
    made from a secret is (A = a*B). A key of small order (the identity point, for example)
    verifies a made-up signature over any message, so anyone could sign for it: its holder could
    deny everything it signed and a relay or an opponent could forge it (spec/protocol.md §5.1).
    Checked once, when the key enters (handshake, handshake record, co-signed result), with
    libsodium's point validation (``mentalpoker.group``). ``RemoteViolation("bad_key")``."""
    from mentalpoker.errors import MentalPokerError
    from mentalpoker.group import Point

    key = check_public_key(public_key)
    try:
        Point.from_bytes(public_key)
    except MentalPokerError:
        raise RemoteViolation("bad_key", "an identity key of small order or outside the prime-order "
                              "subgroup cannot bind signatures") from None
    return key


def verify_signature(public_key: bytes, signature: bytes, data: bytes) -> None:
    """Raise ``RemoteViolation("bad_signature")`` unless ``signature`` is valid over ``data``."""
    check_public_key(public_key)
    if not isinstance(signature, bytes) or len(signature) != SIGNATURE_SIZE:
        raise RemoteViolation("bad_signature", "an Ed25519 signature is 64 bytes")
    if not ed25519_verify(public_key, signature, data):   # libsodium's rule (§4.1)
        raise RemoteViolation("bad_signature", "the signature does not verify")


def fingerprint(public_key: bytes) -> str:
    """Human form of a key: 80 bits of SHA-256("koikoi-p2p/1 fingerprint" || key) in base32,
    four groups of four lowercase characters, e.g. ``"mfrg-gzdf-mztw-q2lk"``."""
    if len(public_key) != PUBLIC_KEY_SIZE:
        raise LocalMisuse("bad_key", "a public key is 32 bytes")
    text = base64.b32encode(sha256(FINGERPRINT_LABEL, public_key)[:10]).decode("ascii").lower()
    return "-".join(text[i:i + 4] for i in range(0, 16, 4))


PeerStatus = Literal["new", "known", "changed"]


class KnownPeers:
    """Trust on first use: the identity key last accepted for each peer name (or room).

    ``check`` only looks; ``remember`` records. Callers remember a "new" key after a successful
    handshake, and a "changed" key only after the user has been warned loudly and accepted it.
    The file is JSON ``{"version": 1, "peers": {name: hex key}}``, replaced atomically.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._peers: dict[str, str] = {}
        if self.path.exists():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                peers = data["peers"]
                if data.get("version") != 1 or not isinstance(peers, dict):
                    raise ValueError("unknown layout")
                for name, key in peers.items():
                    if not isinstance(name, str) or not isinstance(key, str) or len(bytes.fromhex(key)) != 32:
                        raise ValueError("bad entry")
                self._peers = dict(peers)
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise LocalMisuse("bad_known_peers_file", f"{self.path}: {exc}") from None

    def check(self, name: str, public_key: bytes) -> PeerStatus:
        known = self._peers.get(name)
        if known is None:
            return "new"
        return "known" if known == public_key.hex() else "changed"

    def lookup(self, name: str) -> bytes | None:
        known = self._peers.get(name)
        return None if known is None else bytes.fromhex(known)

    def remember(self, name: str, public_key: bytes) -> None:
        if len(public_key) != PUBLIC_KEY_SIZE:
            raise LocalMisuse("bad_key", "a public key is 32 bytes")
        self._peers[name] = public_key.hex()
        self._write()

    def forget(self, name: str) -> None:
        if self._peers.pop(name, None) is not None:
            self._write()

    def _write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"version": 1, "peers": self._peers}, handle, sort_keys=True, indent=1)
            handle.write("\n")
        os.replace(tmp, self.path)
