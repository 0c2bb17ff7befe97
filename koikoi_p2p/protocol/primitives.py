"""The primitives of the session (spec/protocol.md §4.1): SHA-256, HMAC-SHA256, HKDF-SHA256 and
ChaCha20-Poly1305 with a 12-byte nonce from ``cryptography``; Ed25519 verification from libsodium
(PyNaCl), the rule the JavaScript implementation applies too; and, for the identity file
(spec/identity.md §3), Argon2id and XChaCha20-Poly1305 from libsodium. Kept in one place so the
spec's definitions map to exactly one function each.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import constant_time, hashes, hmac
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF, HKDFExpand
from nacl import bindings
from nacl.exceptions import CryptoError
from nacl.signing import VerifyKey

AEAD_TAG = 16
KEY_SIZE = 32


def sha256(*parts: bytes) -> bytes:
    """SHA-256 of the concatenation of ``parts``."""
    digest = hashes.Hash(hashes.SHA256())
    for part in parts:
        digest.update(part)
    return digest.finalize()


def hmac_sha256(key: bytes, data: bytes) -> bytes:
    mac = hmac.HMAC(key, hashes.SHA256())
    mac.update(data)
    return mac.finalize()


def equal(a: bytes, b: bytes) -> bool:
    """Constant-time comparison for secrets (MACs)."""
    return constant_time.bytes_eq(a, b)


def hkdf_sha256(ikm: bytes, *, salt: bytes, info: bytes, length: int = KEY_SIZE) -> bytes:
    """RFC 5869 HKDF with SHA-256 (extract with ``salt``, expand with ``info``)."""
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def hkdf_expand_sha256(prk: bytes, info: bytes, length: int = KEY_SIZE) -> bytes:
    """RFC 5869 HKDF-Expand with SHA-256: a subkey of a key that is already uniform."""
    return HKDFExpand(algorithm=hashes.SHA256(), length=length, info=info).derive(prk)


def seal(key: bytes, nonce: bytes, plaintext: bytes, aad: bytes) -> bytes:
    """ChaCha20-Poly1305 encryption: ciphertext || 16-byte tag."""
    return ChaCha20Poly1305(key).encrypt(nonce, plaintext, aad)


def open_sealed(key: bytes, nonce: bytes, ciphertext: bytes, aad: bytes) -> bytes | None:
    """ChaCha20-Poly1305 decryption, or None when the tag does not verify."""
    try:
        return ChaCha20Poly1305(key).decrypt(nonce, ciphertext, aad)
    except InvalidTag:
        return None


def ed25519_verify(public_key: bytes, signature: bytes, data: bytes) -> bool:
    """Whether ``signature`` is a valid Ed25519 signature of ``data`` under ``public_key``, by
    libsodium's rule (``crypto_sign_verify_detached``, spec/protocol.md §4.1): S below L, A
    canonical and not of small order, R not of small order, and [S]B - [k]A encoding to R exactly.

    RFC 8032 leaves verifiers some freedom, and OpenSSL (under ``cryptography``) also takes an R
    that is the identity point, which any signer can produce for any message with its own key;
    the same bytes must verify alike everywhere, or a transcript one implementation upholds
    fails in the other (tests/adversarial/test_signature_rule.py)."""
    if len(public_key) != 32 or len(signature) != 64:
        return False
    try:
        VerifyKey(public_key).verify(data, signature)
    except (CryptoError, ValueError, TypeError):
        return False
    return True


def argon2id(password: bytes, salt: bytes, *, opslimit: int, memlimit: int, length: int = KEY_SIZE) -> bytes:
    """Argon2id v1.3 (RFC 9106) with parallelism 1, as libsodium's ``crypto_pwhash`` computes it;
    ``memlimit`` in bytes. The caller bounds the parameters (spec/identity.md §4)."""
    return bytes(bindings.crypto_pwhash_alg(length, password, salt, opslimit, memlimit,
                                            bindings.crypto_pwhash_ALG_ARGON2ID13))


def xchacha_seal(key: bytes, nonce: bytes, plaintext: bytes, aad: bytes) -> bytes:
    """XChaCha20-Poly1305 (IETF) encryption with a 24-byte nonce: ciphertext || 16-byte tag."""
    return bytes(bindings.crypto_aead_xchacha20poly1305_ietf_encrypt(plaintext, aad, nonce, key))


def xchacha_open(key: bytes, nonce: bytes, sealed: bytes, aad: bytes) -> bytes | None:
    """XChaCha20-Poly1305 (IETF) decryption, or None when the tag does not verify."""
    try:
        return bytes(bindings.crypto_aead_xchacha20poly1305_ietf_decrypt(sealed, aad, nonce, key))
    except CryptoError:
        return None
