"""One Ed25519 verification rule for every verifier, in both implementations (spec/protocol.md §4.1).

RFC 8032 lets verifiers differ: OpenSSL (under the `cryptography` package) accepts a signature
whose R is the identity point, libsodium (under PyNaCl and libsodium-wrappers-sumo) refuses it as
a point of small order. A signer can make such a signature over anything with its own key
(S = k*a, so that [S]B - [k]A is the identity), and version 2 as it landed verified envelopes,
handshake records, claims and results with OpenSSL: a transcript that `koikoi verify` upheld
failed in the JavaScript auditor, and an honest JavaScript peer that stopped on such an envelope
wrote evidence that the Python verifier judged to prove nothing. Every verifier now applies
libsodium's rule.
"""

from __future__ import annotations

import hashlib

import pytest

from koikoi_p2p.protocol.errors import RemoteViolation
from koikoi_p2p.protocol.identity import Identity, verify_signature
from koikoi_p2p.protocol.results import SignatureInvalid, check_signature
from koikoi_p2p.protocol.transcript import TranscriptError, decode_transcript, encode_transcript
from mentalpoker.group import L
from tests.protocol.session_util import channel_pair, handshake_pair, identity, run_pair

IDENTITY_R = bytes([1]) + bytes(31)


def identity_r_signature(seed: bytes, message: bytes) -> bytes:
    """A signature by the key of ``seed`` whose R is the identity point: S = k*a mod L."""
    digest = bytearray(hashlib.sha512(seed).digest()[:32])
    digest[0] &= 248
    digest[31] &= 127
    digest[31] |= 64
    a = int.from_bytes(digest, "little")
    public = Identity.from_private_bytes(seed).public_key
    k = int.from_bytes(hashlib.sha512(IDENTITY_R + public + message).digest(), "little") % L
    return IDENTITY_R + (k * a % L).to_bytes(32, "little")


def test_openssl_alone_would_accept_it() -> None:
    """The premise: the `cryptography` package's own verification takes the signature."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    seed = bytes(range(32))
    sig = identity_r_signature(seed, b"anything")
    Ed25519PublicKey.from_public_bytes(Identity.from_private_bytes(seed).public_key).verify(sig, b"anything")


def test_verify_signature_refuses_an_identity_r() -> None:
    seed = bytes(range(32))
    public = Identity.from_private_bytes(seed).public_key
    with pytest.raises(RemoteViolation) as info:
        verify_signature(public, identity_r_signature(seed, b"anything"), b"anything")
    assert info.value.reason == "bad_signature"
    verify_signature(public, Identity.from_private_bytes(seed).sign(b"anything"), b"anything")


def test_a_result_signature_with_an_identity_r_is_refused() -> None:
    seed = bytes(range(32))
    public = Identity.from_private_bytes(seed).public_key
    with pytest.raises(SignatureInvalid):
        check_signature(public, identity_r_signature(seed, b"result"), b"result")


def test_the_channel_refuses_an_envelope_signed_with_an_identity_r() -> None:
    from koikoi_p2p.protocol.channel import seal_frame
    from koikoi_p2p.protocol.envelope import decode_envelope, encode_envelope

    host, guest = channel_pair(seed=b"identity-r")
    raw = encode_envelope(version=2, session_id=host.session_id, seq=0, prev=host.head, sender=0,
                          type="terms", body={})
    seed = identity("host").private_bytes()
    env = decode_envelope(raw, identity_r_signature(seed, raw))
    with pytest.raises(RemoteViolation) as info:
        guest.open(seal_frame(host._send_key, env))
    assert info.value.reason == "bad_signature"


def test_a_transcript_with_such_an_envelope_does_not_verify() -> None:
    from koikoi_p2p.protocol.envelope import decode_envelope, encode_envelope

    result, _, _ = run_pair(*handshake_pair(seed=b"identity-r-file"))
    raw = encode_envelope(version=2, session_id=result.session_id, seq=0, prev=result.handshake_hash,
                          sender=0, type="terms", body={})
    env = decode_envelope(raw, identity_r_signature(identity("host").private_bytes(), raw))
    with pytest.raises(TranscriptError) as info:
        decode_transcript(encode_transcript(result.record, [env], closed=False))
    assert (info.value.reason, info.value.index) == ("bad_signature", 0)
