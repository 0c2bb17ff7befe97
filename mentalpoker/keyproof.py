"""Schnorr (1991) proof of knowledge of a round secret key, bound to its context (spec/crypto.md §5).

Without it a party could announce pk_B = X - pk_A after seeing pk_A and control the joint key
alone (a rogue key). The proof is sent as (challenge, response): 64 bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from mentalpoker.context import ProofContext
from mentalpoker.elgamal import KeyPair
from mentalpoker.errors import GroupError, InvalidEncoding, ProofError
from mentalpoker.group import Point, Rng, Scalar, base_mult
from mentalpoker.transcript import Transcript

KEY_PROOF_BYTES = 64


@dataclass(frozen=True, slots=True)
class KeyProof:
    challenge: Scalar
    response: Scalar

    def to_bytes(self) -> bytes:
        return self.challenge.raw + self.response.raw

    @classmethod
    def from_bytes(cls, data: bytes) -> KeyProof:
        if len(data) != KEY_PROOF_BYTES:
            raise InvalidEncoding("invalid_length", "a key proof is 64 bytes")
        return cls(Scalar.from_bytes(data[:32]), Scalar.from_bytes(data[32:]))


def _statement(ctx: ProofContext, pk: Point) -> Transcript:
    t = Transcript("key")
    t.context(ctx)
    t.point("pk", pk)
    return t


def _challenge(t: Transcript, commitment: Point) -> Scalar:
    t.point("T", commitment)
    return t.challenge_scalar("c")


def prove_key(ctx: ProofContext, keys: KeyPair, rng: Rng | None = None) -> KeyProof:
    """w hedged (spec/crypto.md §3.4); T = w*G; c = H(context, pk, T); s = w + c*x."""
    t = _statement(ctx, keys.public)
    w = t.hedged_nonce("w", keys.secret, rng)
    c = _challenge(t, base_mult(w))
    return KeyProof(c, w + c * keys.secret)


def verify_key(ctx: ProofContext, pk: Point, proof: KeyProof) -> None:
    """Recompute T = s*G - c*pk and check c = H(context, pk, T); raises ProofError."""
    try:
        commitment = base_mult(proof.response) - pk.mul(proof.challenge)
    except GroupError as exc:
        raise ProofError("bad_key_proof", "degenerate key proof") from exc
    if _challenge(_statement(ctx, pk), commitment) != proof.challenge:
        raise ProofError("bad_key_proof", "the key proof does not verify")
