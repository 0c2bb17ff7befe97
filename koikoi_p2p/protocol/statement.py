"""Canonical bytes for what the game hashes and signs outside envelopes (spec/game.md §2).

Match terms are hashed, results are signed by both players on their own (so that a rankings
server can check them without the transcript). Both need one byte string per value: a domain
label, a zero byte, then the value in the session layer's canonical msgpack.
"""

from __future__ import annotations

from cryptography.hazmat.primitives import hashes

from koikoi_p2p.protocol import codec

TERMS_DOMAIN = b"koikoi-p2p/game/v2/terms"
ROUND_RESULT_DOMAIN = b"koikoi-p2p/game/v2/round-result"
MATCH_RESULT_DOMAIN = b"koikoi-p2p/game/v2/match-result"


def pack(value: object) -> bytes:
    """Canonical msgpack of plain data (the session layer's codec, spec/protocol.md §3)."""
    return codec.encode(value)


def unpack(data: bytes) -> object:
    """Decode one canonical value; ``RemoteViolation("non_canonical")`` otherwise."""
    return codec.decode(data)


def sha256(*parts: bytes) -> bytes:
    """SHA-256 through the `cryptography` package."""
    h = hashes.Hash(hashes.SHA256())
    for part in parts:
        h.update(part)
    return h.finalize()


def statement(domain: bytes, value: object) -> bytes:
    """The exact bytes that are hashed or signed: ``domain || 0x00 || pack(value)``."""
    return domain + b"\x00" + pack(value)
