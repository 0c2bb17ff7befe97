"""The signed envelope: one message of the session's hash chain (spec/protocol.md §6).

An envelope is the canonical msgpack array

    [version, session_id16, seq, prev, sender, type, body]

signed with the sender's Ed25519 identity key over exactly those bytes. Its ``digest`` is the
next envelope's ``prev``. An array rather than a map because the seven fields are fixed and the
key names would add 14 bytes to every message (spec/protocol.md §6.1).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from koikoi_p2p.protocol import codec
from koikoi_p2p.protocol.errors import LocalMisuse, RemoteViolation
from koikoi_p2p.protocol.identity import SIGNATURE_SIZE, Identity, verify_signature
from koikoi_p2p.protocol.primitives import sha256

VERSION = 2
SESSION_ID_SIZE = 16
HASH_SIZE = 32
MAX_SEQ = (1 << 32) - 1
DIGEST_LABEL = b"koikoi-p2p/2 envelope"
_TYPE_RE = re.compile(r"[a-z][a-z0-9_.-]{0,31}")


def wire_session_id(session_id: bytes) -> bytes:
    """The 16-byte session id carried in envelopes: the first 16 bytes of the 32-byte one."""
    if len(session_id) == SESSION_ID_SIZE:
        return session_id
    if len(session_id) != 32:
        raise LocalMisuse("bad_session_id", "a session id is 32 bytes")
    return session_id[:SESSION_ID_SIZE]


def envelope_digest(raw: bytes) -> bytes:
    """The chain link: SHA-256("koikoi-p2p/2 envelope" || raw)."""
    return sha256(DIGEST_LABEL, raw)


@dataclass(frozen=True, slots=True)
class SignedEnvelope:
    """A decoded envelope with the exact bytes that were signed and the signature."""

    version: int
    session_id: bytes
    seq: int
    prev: bytes
    sender: int
    type: str
    body: dict[str, object]
    raw: bytes
    signature: bytes

    def digest(self) -> bytes:
        return envelope_digest(self.raw)


def _check_fields(version: object, session_id: object, seq: object, prev: object, sender: object,
                  type: object, body: object) -> str | None:
    """The first field outside its range, or None."""
    if not isinstance(version, int) or isinstance(version, bool) or not 0 <= version <= 255:
        return "version"
    if not isinstance(session_id, bytes) or len(session_id) != SESSION_ID_SIZE:
        return "session_id"
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= MAX_SEQ:
        return "seq"
    if not isinstance(prev, bytes) or len(prev) != HASH_SIZE:
        return "prev"
    if sender not in (0, 1) or isinstance(sender, bool):
        return "sender"
    if not isinstance(type, str) or not _TYPE_RE.fullmatch(type):
        return "type"
    if not isinstance(body, Mapping):
        return "body"
    return None


def encode_envelope(*, version: int, session_id: bytes, seq: int, prev: bytes, sender: int,
                    type: str, body: Mapping[str, object]) -> bytes:
    """The canonical bytes to sign; ``LocalMisuse`` for a field out of range."""
    session_id = wire_session_id(session_id) if isinstance(session_id, bytes) else session_id
    bad = _check_fields(version, session_id, seq, prev, sender, type, body)
    if bad is not None:
        raise LocalMisuse("bad_envelope", f"field {bad} out of range")
    return codec.encode([version, session_id, seq, prev, sender, type, body])


def sign_envelope(identity: Identity, *, version: int, session_id: bytes, seq: int, prev: bytes,
                  sender: int, type: str, body: Mapping[str, object]) -> SignedEnvelope:
    raw = encode_envelope(version=version, session_id=session_id, seq=seq, prev=prev, sender=sender,
                          type=type, body=body)
    return decode_envelope(raw, identity.sign(raw))


def decode_envelope(raw: bytes, signature: bytes) -> SignedEnvelope:
    """Parse strictly (canonical bytes, seven fields in range); does not check the signature.

    Raises ``RemoteViolation("bad_envelope")``.
    """
    if not isinstance(signature, bytes) or len(signature) != SIGNATURE_SIZE:
        raise RemoteViolation("bad_envelope", "an envelope signature is 64 bytes")
    value = codec.decode(raw, reason="bad_envelope")
    if not isinstance(value, list) or len(value) != 7:
        raise RemoteViolation("bad_envelope", "an envelope is an array of seven fields")
    version, session_id, seq, prev, sender, type_, body = value
    bad = _check_fields(version, session_id, seq, prev, sender, type_, body)
    if bad is not None:
        raise RemoteViolation("bad_envelope", f"field {bad} out of range")
    return SignedEnvelope(
        version=cast(int, version), session_id=cast(bytes, session_id), seq=cast(int, seq),
        prev=cast(bytes, prev), sender=cast(int, sender), type=cast(str, type_),
        body=cast(dict[str, object], body), raw=bytes(raw), signature=signature,
    )


def verify_envelope(env: SignedEnvelope, public_key: bytes) -> None:
    """Check the signature over the exact received bytes; ``RemoteViolation("bad_signature")``."""
    verify_signature(public_key, env.signature, env.raw)
