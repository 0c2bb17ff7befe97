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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

from mentalpoker.context import ProofContext
from mentalpoker.elgamal import CIPHERTEXT_BYTES, Ciphertext, decode_deck, rerandomize
from mentalpoker.errors import GroupError, InvalidEncoding, MentalPokerError, ProofError
from mentalpoker.generators import commitment_base_h, commitment_bases, commitment_bases_sum
from mentalpoker.group import IDENTITY, Point, Rng, Scalar, base_mult, point_sum, sum_of_products
from mentalpoker.parallel import chunks, run_all
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
    def from_bytes(cls, data: bytes, n: int, *, deferred: bool = False) -> ShuffleProof:
        """Decode and validate every point and scalar once (``deferred``: points are left to the
        verifier's multiplications, see ``Point.deferred``)."""
        if n < MIN_CARDS or len(data) != shuffle_proof_size(n):
            raise InvalidEncoding(
                "invalid_length", f"a shuffle proof for {n} is {shuffle_proof_size(n)} bytes"
            )
        chunks = [data[i : i + 32] for i in range(0, len(data), 32)]
        decode = Point.deferred if deferred else Point.from_bytes
        points = [decode(chunk) for chunk in chunks[1 : 1 + 2 * n]]
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
    _check_lengths(inputs, outputs, proof)
    try:
        challenge = _recompute(ctx, pk, inputs, outputs, proof)
    except GroupError as exc:
        raise ProofError("bad_shuffle_proof", "degenerate value in the shuffle proof") from exc
    if challenge != proof.challenge:
        raise ProofError("bad_shuffle_proof", "the shuffle proof does not verify")


def verify_shuffle_message(
    ctx: ProofContext,
    pk: Point,
    inputs: Sequence[Ciphertext],
    data: bytes,
    *,
    input_logs: Sequence[Scalar] | None = None,
    joint_secret: Scalar | None = None,
) -> tuple[Ciphertext, ...]:
    """Decode and verify a shuffle message (outputs || proof) in one pass; returns the outputs.

    The same checks as ``decode_deck`` + ``ShuffleProof.from_bytes`` + ``verify_shuffle``, done
    once each (spec/crypto.md §2.2, §6.3): every received point goes into at least one libsodium
    multiplication of the verification, which validates it (``Point.deferred``), instead of a
    separate validation first. ``input_logs`` (the discrete logs of the inputs' first components,
    known for the public starting deck, §4.3) gives ``a~ = (sum u_j rho_j)*G`` in one fixed-base
    multiplication; ``joint_secret`` (an auditor that knows both round secrets) gives
    ``s_4*pk = (s_4 x)*G``: the same group elements as the general formulas. On any failure the
    message is decoded and verified again the eager way, so every error has the reason and the
    order of checks it always had.
    """
    n = len(inputs)
    split = n * CIPHERTEXT_BYTES
    if n < MIN_CARDS or len(data) != split + shuffle_proof_size(n):
        size = split + shuffle_proof_size(n)
        raise InvalidEncoding("invalid_length", f"a shuffle message for {n} is {size} bytes")
    try:
        outputs = tuple(Ciphertext(Point.deferred(data[i : i + 32]), Point.deferred(data[i + 32 : i + 64]))
                        for i in range(0, split, CIPHERTEXT_BYTES))
        proof = ShuffleProof.from_bytes(data[split:], n, deferred=True)
        if _recompute(ctx, pk, inputs, outputs, proof, input_logs, joint_secret) == proof.challenge:
            return outputs
    except MentalPokerError:
        pass
    outputs = decode_deck(data[:split], n)
    verify_shuffle(ctx, pk, inputs, outputs, ShuffleProof.from_bytes(data[split:], n))
    return outputs   # not reached for a failing proof; kept for a proof the fast path mis-judged


def _check_lengths(inputs: Sequence[Ciphertext], outputs: Sequence[Ciphertext], proof: ShuffleProof) -> None:
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


def _recompute(
    ctx: ProofContext,
    pk: Point,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    proof: ShuffleProof,
    input_logs: Sequence[Scalar] | None = None,
    joint_secret: Scalar | None = None,
) -> Scalar:
    """The challenge the verifier derives (spec/crypto.md §6.3 steps 2 to 5). Raises GroupError
    on a degenerate operation (a zero c or u_j among them) and on libsodium's refusal of an
    invalid point."""
    _check_lengths(inputs, outputs, proof)
    n = len(inputs)
    t, u = _statement(ctx, pk, inputs, outputs, proof.commitments)
    c = proof.challenge
    if c.is_zero or any(x.is_zero for x in u):
        # The general formulas would multiply by zero, which libsodium refuses (spec/crypto.md
        # §2.6); folding c into the scalars must not hide that.
        raise GroupError("degenerate", "a zero challenge")
    h = commitment_base_h()
    hs = commitment_bases(n)
    sp = proof.s_prime
    a_in = [ct.a for ct in inputs]
    b_in = [ct.b for ct in inputs]
    a_out = [ct.a for ct in outputs]
    b_out = [ct.b for ct in outputs]
    # c*c~, c*a~ and c*b~ with c folded into the scalars: c*sum(u_j*X_j) = sum((c u_j)*X_j).
    cu = [c * x for x in u]
    links = [h, *proof.chain[:-1]]

    def small() -> tuple[Point, Point, Point, Point]:
        c_bar = point_sum(proof.commitments) - commitment_bases_sum(n)
        u_product = u[0]
        for j in range(1, n):
            u_product = u_product * u[j]
        c_hat = proof.chain[-1] - h.mul(u_product)
        t1 = base_mult(proof.s1) - c_bar.mul(c)
        t2 = base_mult(proof.s2) - c_hat.mul(c)
        s4_pk = base_mult(joint_secret * proof.s4) if joint_secret is not None else pk.mul(proof.s4)
        c_a_tilde = (base_mult(_sum([cu[j] * input_logs[j] for j in range(n)]))
                     if input_logs is not None else IDENTITY)
        return t1, t2, s4_pk, c_a_tilde

    def t_hat_part(indices: range) -> list[Point]:
        return [base_mult(proof.s_hat[i]) + links[i].mul(sp[i]) - proof.chain[i].mul(c) for i in indices]

    # The independent sums of products, each about n multiplications (spec/crypto.md §6.3 step
    # 4), computed on the pool (mentalpoker.parallel): the same points as in sequence.
    tasks: list[Callable[[], object]] = [
        small,
        lambda: sum_of_products(proof.commitments, cu),
        lambda: sum_of_products(b_in, cu),
        lambda: sum_of_products(hs, sp),
        lambda: sum_of_products(a_out, sp),
        lambda: sum_of_products(b_out, sp),
        *(lambda r=r: t_hat_part(r) for r in chunks(n, 2)),
    ]
    if input_logs is None:
        tasks.append(lambda: sum_of_products(a_in, cu))
    done = run_all(tasks)
    t1, t2, s4_pk, c_a_tilde = cast("tuple[Point, Point, Point, Point]", done[0])
    c_c_tilde, c_b_tilde, hs_sp, a_sp, b_sp = cast("list[Point]", done[1:6])
    t_hat = [p for part in cast("list[list[Point]]", done[6:8]) for p in part]
    if input_logs is None:
        c_a_tilde = cast(Point, done[8])
    t3 = base_mult(proof.s3) + hs_sp - c_c_tilde
    t4a = a_sp - base_mult(proof.s4) - c_a_tilde
    t4b = b_sp - s4_pk - c_b_tilde
    return _final_challenge(t, proof.chain, (t1, t2, t3, t4a, t4b), t_hat)


def _sum(values: Sequence[Scalar]) -> Scalar:
    total = values[0]
    for value in values[1:]:
        total = total + value
    return total
