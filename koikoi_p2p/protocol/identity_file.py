"""The portable identity file (spec/identity.md): an identity's key and display name sealed under
a passphrase, to carry one identity to every device and keep it when a device is lost.

Pure: the file's bytes in, the identity out (and back), the salt and nonce injected for tests.
"""

from __future__ import annotations

import secrets
import struct
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from koikoi_p2p.protocol.identity import Identity, name_problem
from koikoi_p2p.protocol.primitives import argon2id, xchacha_open, xchacha_seal

MAGIC = b"koikoiID"
VERSION = 1
KDF_ARGON2ID13 = 1
HEADER = struct.Struct(">8sBBII16s24s")  # magic, version, kdf, opslimit, memlimit_kib, salt, nonce
TAG = 16
SEED = 32
MAX_NAME_BYTES = 128
SMALLEST = HEADER.size + SEED + 1 + TAG
LARGEST = SMALLEST + MAX_NAME_BYTES
OPSLIMIT_RANGE = (1, 16)
MEMLIMIT_KIB_RANGE = (8, 1 << 20)
# What writers use (spec/identity.md §3 step 3): about a second, within a browser's memory.
DEFAULT_OPSLIMIT = 3
DEFAULT_MEMLIMIT_KIB = 64 * 1024
MIN_PASSPHRASE = 8


class IdentityFileError(Exception):
    """A file that does not give an identity; ``reason`` is one of spec/identity.md §4's words."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message


@dataclass(frozen=True, slots=True)
class PortableIdentity:
    """What the file carries: the key and the display name ("" for none)."""

    identity: Identity
    name: str

    @property
    def fingerprint(self) -> str:
        return self.identity.fingerprint()


def within_bounds(opslimit: int, memlimit_kib: int) -> bool:
    """The Argon2id parameters every reader accepts (spec/identity.md §2), so that no file can make
    a reader spend more than that."""
    return (OPSLIMIT_RANGE[0] <= opslimit <= OPSLIMIT_RANGE[1]
            and MEMLIMIT_KIB_RANGE[0] <= memlimit_kib <= MEMLIMIT_KIB_RANGE[1])


def passphrase_bytes(passphrase: str) -> bytes:
    """NFC, then UTF-8 (spec/identity.md §3 step 1): the same passphrase gives the same bytes."""
    return unicodedata.normalize("NFC", passphrase).encode("utf-8")


def seal_identity(identity: Identity, name: str, passphrase: str, *,
                  opslimit: int = DEFAULT_OPSLIMIT, memlimit_kib: int = DEFAULT_MEMLIMIT_KIB,
                  random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> bytes:
    """The file's bytes (spec/identity.md §3). ``ValueError`` for a short passphrase, a bad name or
    parameters outside the bounds every reader accepts."""
    if len(unicodedata.normalize("NFC", passphrase)) < MIN_PASSPHRASE:
        raise ValueError(f"a passphrase has at least {MIN_PASSPHRASE} characters")
    problem = name_problem(name)
    if problem is not None:
        raise ValueError(problem)
    if not within_bounds(opslimit, memlimit_kib):
        raise ValueError("Argon2id parameters outside spec/identity.md §2")
    salt, nonce = random_bytes(16), random_bytes(24)
    header = HEADER.pack(MAGIC, VERSION, KDF_ARGON2ID13, opslimit, memlimit_kib, salt, nonce)
    encoded = name.encode("utf-8")
    plaintext = identity.private_bytes() + bytes([len(encoded)]) + encoded
    key = argon2id(passphrase_bytes(passphrase), salt, opslimit=opslimit, memlimit=memlimit_kib * 1024)
    return header + xchacha_seal(key, nonce, plaintext, header)


def open_identity(data: bytes, passphrase: str) -> PortableIdentity:
    """The identity in a file (spec/identity.md §4), or ``IdentityFileError`` with the reason of the
    first check that fails; the KDF runs only on a file whose parameters are within bounds."""
    if len(data) < len(MAGIC) or data[:len(MAGIC)] != MAGIC:
        raise IdentityFileError("not_identity_file", "this is not a koikoi identity file")
    if len(data) < len(MAGIC) + 2:
        raise IdentityFileError("damaged_identity_file", "the file is cut short")
    if data[8] != VERSION or data[9] != KDF_ARGON2ID13:
        raise IdentityFileError("unsupported_version", "an identity file of a version this client "
                                                       "does not read")
    if not SMALLEST <= len(data) <= LARGEST:
        raise IdentityFileError("damaged_identity_file", f"the file has {len(data)} bytes: it is cut short "
                                                         "or has bytes added")
    _, _, _, opslimit, memlimit_kib, salt, nonce = HEADER.unpack_from(data)
    if not within_bounds(opslimit, memlimit_kib):
        raise IdentityFileError("damaged_identity_file", "the key-derivation parameters are out of bounds")
    header = data[:HEADER.size]
    key = argon2id(passphrase_bytes(passphrase), salt, opslimit=opslimit, memlimit=memlimit_kib * 1024)
    plaintext = xchacha_open(key, nonce, data[HEADER.size:], header)
    if plaintext is None:
        raise IdentityFileError("wrong_passphrase", "the passphrase is wrong, or the file was altered")
    if len(plaintext) < SEED + 1 or len(plaintext) != SEED + 1 + plaintext[SEED]:
        raise IdentityFileError("bad_identity_file", "the sealed identity has the wrong layout")
    try:
        name = plaintext[SEED + 1:].decode("utf-8")
    except UnicodeDecodeError:
        raise IdentityFileError("bad_identity_file", "the display name is not UTF-8") from None
    problem = name_problem(name)
    if problem is not None:
        raise IdentityFileError("bad_identity_file", problem)
    return PortableIdentity(Identity.from_private_bytes(plaintext[:SEED]), name)
