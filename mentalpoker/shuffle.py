"""Verifiable shuffle of ElGamal ciphertexts: Terelius and Wikstrom (2010), in the form of the
CHVote specification's GenShuffleProof / CheckShuffleProof (Haenni et al. 2017), written additively
for ciphertexts (a, b) = (r*G, M + r*pk) (spec/crypto.md §6).

Output i is input psi(i) re-randomised: e'_i = (a_psi(i) + r~_i*G, b_psi(i) + r~_i*pk). The prover
commits to psi with c_j = r_j*G + h_{psi^-1(j)}, proves that the committed matrix is a permutation
(the chain c^_i) and that the outputs are the inputs permuted by it and re-randomised. The proof is
sent in challenge/response form: the verifier recomputes the commitments t and re-derives the
challenge from the whole statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mentalpoker.context import ProofContext
from mentalpoker.elgamal import Ciphertext, rerandomize
from mentalpoker.errors import GroupError, InvalidEncoding, ProofError
from mentalpoker.generators import commitment_base_h, commitment_bases, commitment_bases_sum
from mentalpoker.group import Point, Rng, Scalar, base_mult, point_sum
from mentalpoker.randomness import random_permutation
from mentalpoker.transcript import Transcript

MIN_CARDS = 2
ONE = Scalar.from_int(1)


def shuffle_proof_size(n: int) -> int:
    """c, n permutation commitments, n chain commitments, s_1..s_4, n s^_i and n s'_i: 128n + 160."""
    return 32 + 32 * n + 32 * n + 4 * 32 + 32 * n + 32 * n


@dataclass(frozen=True, slots=True)
class ShuffleWitness:
    """The secret of a shuffle: output i is input permutation[i], re-randomised by randomness[i]."""

    permutation: tuple[int, ...] = field(repr=False)
    randomness: tuple[Scalar, ...] = field(repr=False)


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    challenge: Scalar
    commitments: tuple[Point, ...]  # c_1..c_n: commitment to the permutation
    chain: tuple[Point, ...]  # c^_1..c^_n: commitment chain
    s1: Scalar
    s2: Scalar
    s3: Scalar
    s4: Scalar
    s_hat: tuple[Scalar, ...]
    s_prime: tuple[Scalar, ...]

    def to_bytes(self) -> bytes:
        """Fixed layout: c || c_1..c_n || c^_1..c^_n || s1 || s2 || s3 || s4 || s^_1..n || s'_1..n."""
        return b"".join(
            [
                self.challenge.raw,
                *(p.raw for p in self.commitments),
                *(p.raw for p in self.chain),
                self.s1.raw,
                self.s2.raw,
                self.s3.raw,
                self.s4.raw,
                *(s.raw for s in self.s_hat),
                *(s.raw for s in self.s_prime),
            ]
        )

    @classmethod
    def from_bytes(cls, data: bytes, n: int) -> ShuffleProof:
        """Decode and validate every point and scalar once."""
        if n < MIN_CARDS or len(data) != shuffle_proof_size(n):
            raise InvalidEncoding(
                "invalid_length", f"a shuffle proof for {n} is {shuffle_proof_size(n)} bytes"
            )
        chunks = [data[i : i + 32] for i in range(0, len(data), 32)]
        points = [Point.from_bytes(chunk) for chunk in chunks[1 : 1 + 2 * n]]
        scalars = [Scalar.from_bytes(chunk) for chunk in chunks[1 + 2 * n :]]
        return cls(
            challenge=Scalar.from_bytes(chunks[0]),
            commitments=tuple(points[:n]),
            chain=tuple(points[n:]),
            s1=scalars[0],
            s2=scalars[1],
            s3=scalars[2],
            s4=scalars[3],
            s_hat=tuple(scalars[4 : 4 + n]),
            s_prime=tuple(scalars[4 + n :]),
        )


def shuffle(
    pk: Point, inputs: Sequence[Ciphertext], rng: Rng | None = None
) -> tuple[tuple[Ciphertext, ...], ShuffleWitness]:
    """Permute uniformly and re-randomise every ciphertext."""
    n = len(inputs)
    psi = random_permutation(n, rng)
    rand = tuple(Scalar.random(rng) for _ in range(n))
    outputs = tuple(rerandomize(pk, inputs[psi[i]], rand[i]) for i in range(n))
    return outputs, ShuffleWitness(psi, rand)


def _statement(
    ctx: ProofContext,
    pk: Point,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    commitments: Sequence[Point],
) -> tuple[Transcript, list[Scalar]]:
    """Absorb context and statement (spec/crypto.md §6.2 step 2) and draw the challenges u."""
    t = Transcript("shuffle")
    t.context(ctx)
    t.point("pk", pk)
    t.uint("n", len(inputs))
    t.points("inputs", [p for ct in inputs for p in (ct.a, ct.b)])
    t.points("outputs", [p for ct in outputs for p in (ct.a, ct.b)])
    t.points("commitments", commitments)
    return t, t.challenge_scalars("u", len(inputs))


def _final_challenge(
    t: Transcript, chain: Sequence[Point], ts: Sequence[Point], t_hat: Sequence[Point]
) -> Scalar:
    t.points("chain", chain)
    t.points("t", ts)
    t.points("t_hat", t_hat)
    return t.challenge_scalar("c")


def _check_permutation(permutation: Sequence[int], n: int) -> None:
    if sorted(permutation) != list(range(n)):
        raise InvalidEncoding("invalid_permutation", "the witness is not a permutation")


def prove_shuffle(
    ctx: ProofContext,
    pk: Point,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    witness: ShuffleWitness,
    rng: Rng | None = None,
) -> ShuffleProof:
    """GenShuffleProof. Does not check the witness against the outputs: a wrong one fails to verify."""
    n = len(inputs)
    if n < MIN_CARDS or len(outputs) != n or len(witness.randomness) != n:
        raise InvalidEncoding("invalid_length", "a shuffle needs n >= 2 inputs, outputs and randomness")
    psi = witness.permutation
    _check_permutation(psi, n)
    h = commitment_base_h()
    hs = commitment_bases(n)
    # Permutation commitment: c_psi(i) = r_psi(i)*G + h_i.
    r: list[Scalar] = [ONE] * n
    commitments: list[Point] = [h] * n
    for i in range(n):
        j = psi[i]
        r[j] = Scalar.random(rng)
        commitments[j] = base_mult(r[j]) + hs[i]
    t, u = _statement(ctx, pk, inputs, outputs, commitments)
    u_prime = [u[psi[i]] for i in range(n)]
    # Commitment chain: c^_0 = h, c^_i = r^_i*G + u'_i*c^_(i-1).
    r_hat = [Scalar.random(rng) for _ in range(n)]
    chain: list[Point] = []
    previous = h
    for i in range(n):
        previous = base_mult(r_hat[i]) + previous.mul(u_prime[i])
        chain.append(previous)
    w1, w2, w3, w4 = (Scalar.random(rng) for _ in range(4))
    w_hat = [Scalar.random(rng) for _ in range(n)]
    w_prime = [Scalar.random(rng) for _ in range(n)]
    t1 = base_mult(w1)
    t2 = base_mult(w2)
    t3 = base_mult(w3) + point_sum(hs[i].mul(w_prime[i]) for i in range(n))
    t4a = point_sum(outputs[i].a.mul(w_prime[i]) for i in range(n)) - base_mult(w4)
    t4b = point_sum(outputs[i].b.mul(w_prime[i]) for i in range(n)) - pk.mul(w4)
    links = [h, *chain[:-1]]
    t_hat = [base_mult(w_hat[i]) + links[i].mul(w_prime[i]) for i in range(n)]
    c = _final_challenge(t, chain, (t1, t2, t3, t4a, t4b), t_hat)
    # Responses.
    r_bar = _sum(r)
    v = [ONE] * n
    for i in range(n - 1, 0, -1):
        v[i - 1] = u_prime[i] * v[i]
    r_hat_total = _sum([r_hat[i] * v[i] for i in range(n)])
    r_tilde = _sum([r[j] * u[j] for j in range(n)])
    r_prime = _sum([witness.randomness[i] * u_prime[i] for i in range(n)])
    return ShuffleProof(
        challenge=c,
        commitments=tuple(commitments),
        chain=tuple(chain),
        s1=w1 + c * r_bar,
        s2=w2 + c * r_hat_total,
        s3=w3 + c * r_tilde,
        s4=w4 + c * r_prime,
        s_hat=tuple(w_hat[i] + c * r_hat[i] for i in range(n)),
        s_prime=tuple(w_prime[i] + c * u_prime[i] for i in range(n)),
    )


def verify_shuffle(
    ctx: ProofContext,
    pk: Point,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    proof: ShuffleProof,
) -> None:
    """CheckShuffleProof: recompute every t from the responses, re-derive c; raises ProofError.

    Every point must already be validated (decoding does it once).
    """
    n = len(inputs)
    if (
        n < MIN_CARDS
        or len(outputs) != n
        or len(proof.commitments) != n
        or len(proof.chain) != n
        or len(proof.s_hat) != n
        or len(proof.s_prime) != n
    ):
        raise ProofError("bad_shuffle_proof", "the statement and proof lengths disagree")
    t, u = _statement(ctx, pk, inputs, outputs, proof.commitments)
    c = proof.challenge
    h = commitment_base_h()
    hs = commitment_bases(n)
    sp = proof.s_prime
    try:
        c_bar = point_sum(proof.commitments) - commitment_bases_sum(n)
        u_product = u[0]
        for j in range(1, n):
            u_product = u_product * u[j]
        c_hat = proof.chain[-1] - h.mul(u_product)
        c_tilde = point_sum(proof.commitments[j].mul(u[j]) for j in range(n))
        a_tilde = point_sum(inputs[j].a.mul(u[j]) for j in range(n))
        b_tilde = point_sum(inputs[j].b.mul(u[j]) for j in range(n))
        t1 = base_mult(proof.s1) - c_bar.mul(c)
        t2 = base_mult(proof.s2) - c_hat.mul(c)
        t3 = base_mult(proof.s3) + point_sum(hs[i].mul(sp[i]) for i in range(n)) - c_tilde.mul(c)
        t4a = point_sum(outputs[i].a.mul(sp[i]) for i in range(n)) - base_mult(proof.s4) - a_tilde.mul(c)
        t4b = point_sum(outputs[i].b.mul(sp[i]) for i in range(n)) - pk.mul(proof.s4) - b_tilde.mul(c)
        links = [h, *proof.chain[:-1]]
        t_hat = [base_mult(proof.s_hat[i]) + links[i].mul(sp[i]) - proof.chain[i].mul(c) for i in range(n)]
    except GroupError as exc:
        raise ProofError("bad_shuffle_proof", "degenerate value in the shuffle proof") from exc
    if _final_challenge(t, proof.chain, (t1, t2, t3, t4a, t4b), t_hat) != c:
        raise ProofError("bad_shuffle_proof", "the shuffle proof does not verify")


def _sum(values: Sequence[Scalar]) -> Scalar:
    total = values[0]
    for value in values[1:]:
        total = total + value
    return total
