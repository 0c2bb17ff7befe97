"""Decryption shares with a Chaum-Pedersen (1992) proof of equal discrete logs (spec/crypto.md §7).

One proof covers a batch of shares d_j = x*a_j made with the same secret x (pk = x*G): the prover
shows log_G pk = log_{a_1} d_1 = ... = log_{a_k} d_k with a single commitment scalar w, sent as
(challenge, response), so a batch of k shares costs 32k + 64 bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mentalpoker.context import ProofContext
from mentalpoker.elgamal import KeyPair
from mentalpoker.errors import GroupError, InvalidEncoding, MentalPokerError, ProofError
from mentalpoker.group import Point, Rng, Scalar, base_mult
from mentalpoker.parallel import run_all
from mentalpoker.transcript import Transcript

DLEQ_PROOF_BYTES = 64


@dataclass(frozen=True, slots=True)
class SharesProof:
    challenge: Scalar
    response: Scalar

    def to_bytes(self) -> bytes:
        return self.challenge.raw + self.response.raw

    @classmethod
    def from_bytes(cls, data: bytes) -> SharesProof:
        if len(data) != DLEQ_PROOF_BYTES:
            raise InvalidEncoding("invalid_length", "a share proof is 64 bytes")
        return cls(Scalar.from_bytes(data[:32]), Scalar.from_bytes(data[32:]))


def _positions_bytes(positions: Sequence[int]) -> bytes:
    if any(not 0 <= p < 1 << 16 for p in positions):
        raise InvalidEncoding("invalid_position", "positions are 16-bit")
    return b"".join(p.to_bytes(2, "big") for p in positions)


def _statement(
    ctx: ProofContext,
    pk: Point,
    positions: Sequence[int],
    bases: Sequence[Point],
    shares: Sequence[Point],
) -> Transcript:
    t = Transcript("dleq")
    t.context(ctx)
    t.point("pk", pk)
    t.bytes_("positions", _positions_bytes(positions))
    t.points("a", bases)
    t.points("d", shares)
    return t


def _challenge(
    ctx: ProofContext,
    pk: Point,
    positions: Sequence[int],
    bases: Sequence[Point],
    shares: Sequence[Point],
    commitments: Sequence[Point],
) -> Scalar:
    t = _statement(ctx, pk, positions, bases, shares)
    t.points("T", commitments)
    return t.challenge_scalar("c")


def prove_shares(
    ctx: ProofContext,
    keys: KeyPair,
    positions: Sequence[int],
    bases: Sequence[Point],
    rng: Rng | None = None,
    shares: Sequence[Point] | None = None,
) -> tuple[tuple[Point, ...], SharesProof]:
    """d_j = x*a_j; w hedged (spec/crypto.md §3.4); T_0 = w*G, T_j = w*a_j;
    c = H(context, pk, positions, a, d, T); s = w + c*x.

    ``shares``: the prover's own d_j = x*a_j when it already computed them (a party decrypting
    its own cards did); they are not multiplied again."""
    if len(positions) != len(bases) or not bases:
        raise InvalidEncoding("invalid_length", "one base per position, at least one")
    if shares is None:
        shares = tuple(a.mul(keys.secret) for a in bases)
    elif len(shares) != len(bases):
        raise InvalidEncoding("invalid_length", "one share per base")
    shares = tuple(shares)
    t = _statement(ctx, keys.public, positions, bases, shares)
    w = t.hedged_nonce("w", keys.secret, rng)
    t.points("T", [base_mult(w), *(a.mul(w) for a in bases)])
    c = t.challenge_scalar("c")
    return shares, SharesProof(c, w + c * keys.secret)


def verify_shares(
    ctx: ProofContext,
    pk: Point,
    positions: Sequence[int],
    bases: Sequence[Point],
    shares: Sequence[Point],
    proof: SharesProof,
) -> None:
    """Recompute T_0 = s*G - c*pk, T_j = s*a_j - c*d_j and the challenge; raises ProofError."""
    if len(positions) != len(bases) or len(bases) != len(shares) or not bases:
        raise ProofError("bad_share_proof", "the statement has mismatched lengths")
    c, s = proof.challenge, proof.response
    try:
        # s*a_j and c*d_j on the pool (mentalpoker.parallel), then T_j = s*a_j - c*d_j.
        first, s_a, c_d = run_all([lambda: [base_mult(s) - pk.mul(c)],
                                   lambda: [a.mul(s) for a in bases],
                                   lambda: [d.mul(c) for d in shares]])
        commitments = [*first, *(x - y for x, y in zip(s_a, c_d, strict=True))]
    except GroupError as exc:
        raise ProofError("bad_share_proof", "degenerate share proof") from exc
    if _challenge(ctx, pk, positions, bases, shares, commitments) != c:
        raise ProofError("bad_share_proof", "the decryption shares do not verify")


def verify_share_message(
    ctx: ProofContext,
    pk: Point,
    positions: Sequence[int],
    bases: Sequence[Point],
    data: bytes,
    *,
    secret: Scalar | None = None,
) -> tuple[tuple[Point, ...], bool]:
    """Decode and verify a share message in one pass; returns the shares and whether they were
    checked against ``secret`` (d_j = x*a_j), which the end-of-round audit then needs not repeat.

    The same checks as ``decode_shares`` + ``verify_shares``, each done once (spec/crypto.md §7,
    §8.5): each share goes into a multiplication that validates it (``Point.deferred``). An
    auditor that knows the prover's round secret x (disclosed at the end of the round) first
    checks d_j = x*a_j, which makes d_j a valid point; then T_0 = (s - c x)*G and
    T_j = (s - c x)*a_j are the very points s*G - c*pk and s*a_j - c*d_j, in one fixed-base and one
    variable-base multiplication each instead of two each. On any failure the message is decoded
    and verified the eager way, so errors keep their reasons."""
    count = len(positions)
    try:
        if count < 1 or len(data) != 32 * count + DLEQ_PROOF_BYTES or len(bases) != count:
            raise InvalidEncoding("invalid_length", "fallback")
        proof = SharesProof.from_bytes(data[32 * count :])
        c, s = proof.challenge, proof.response
        if secret is not None and not c.is_zero and not s.is_zero:
            k = s - c * secret
            # x*a_j and (s - c x)*a_j on the pool (mentalpoker.parallel); the second is only
            # used once every share equals the first.
            found, k_a = run_all([lambda: tuple(a.mul(secret) for a in bases),
                                  lambda: [a.mul(k) for a in bases]])
            expected = tuple(found)
            if all(e.raw == data[32 * i : 32 * i + 32] for i, e in enumerate(expected)):
                commitments = [base_mult(k), *k_a]
                if _challenge(ctx, pk, positions, bases, expected, commitments) == c:
                    return expected, True
        elif secret is None:
            shares = tuple(Point.deferred(data[i : i + 32]) for i in range(0, 32 * count, 32))
            verify_shares(ctx, pk, positions, bases, shares, proof)
            return shares, False
    except MentalPokerError:
        pass
    shares, proof = decode_shares(data, count)
    verify_shares(ctx, pk, positions, bases, shares, proof)
    return shares, False


def encode_shares(shares: Sequence[Point], proof: SharesProof) -> bytes:
    """Fixed layout: d_1 || ... || d_k || c || s."""
    return b"".join(d.raw for d in shares) + proof.to_bytes()


def decode_shares(data: bytes, count: int) -> tuple[tuple[Point, ...], SharesProof]:
    if count < 1 or len(data) != 32 * count + DLEQ_PROOF_BYTES:
        raise InvalidEncoding("invalid_length", f"{count} shares take {32 * count + 64} bytes")
    shares = tuple(Point.from_bytes(data[i : i + 32]) for i in range(0, 32 * count, 32))
    return shares, SharesProof.from_bytes(data[32 * count :])
