"""Hypothesis properties of the mentalpoker core: strategies for keys, decks and shuffles."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mentalpoker.context import ProofContext
from mentalpoker.deck import DeckParty
from mentalpoker.dleq import decode_shares, encode_shares, prove_shares, verify_shares
from mentalpoker.elgamal import KeyPair, card_of, combine, decryption_share, joint_key, start_deck
from mentalpoker.errors import MentalPokerError
from mentalpoker.group import L, Point, Scalar, base_mult
from mentalpoker.keyproof import KeyProof, prove_key, verify_key
from mentalpoker.randomness import random_permutation, uniform_below
from mentalpoker.shuffle import ShuffleProof, prove_shuffle, shuffle, verify_shuffle
from tests.mp_support import seed_of, seeded

seeds = st.binary(min_size=1, max_size=16)
contexts = st.builds(
    ProofContext,
    version=st.integers(0, 2**64 - 1),
    session_id=st.binary(min_size=16, max_size=64),
    round=st.integers(0, 2**64 - 1),
    step=st.text(min_size=1, max_size=20),
    prover=st.integers(0, 1),
)
scalars = st.integers(1, L - 1).map(Scalar.from_int)


@settings(max_examples=20)
@given(contexts, seeds)
def test_key_proofs_verify_and_round_trip(ctx: ProofContext, seed: bytes) -> None:
    keys = KeyPair.generate(seeded(seed))
    proof = prove_key(ctx, keys, seeded(seed + b"w"))
    verify_key(ctx, keys.public, KeyProof.from_bytes(proof.to_bytes()))


@settings(max_examples=15)
@given(contexts, seeds, st.integers(1, 5))
def test_share_proofs_verify_and_decrypt(ctx: ProofContext, seed: bytes, k: int) -> None:
    rng = seeded(seed)
    keys, other = KeyPair.generate(rng), KeyPair.generate(rng)
    pk = joint_key([keys.public, other.public])
    deck = start_deck(pk, 8)
    positions = list(range(8 - k, 8))
    bases = [deck[p].a for p in positions]
    shares, proof = prove_shares(ctx, keys, positions, bases, rng)
    got, got_proof = decode_shares(encode_shares(shares, proof), k)
    verify_shares(ctx, keys.public, positions, bases, got, got_proof)
    for p, d in zip(positions, got, strict=True):
        assert card_of(combine(deck[p], [d, decryption_share(other.secret, deck[p])]), 8) == p


@settings(max_examples=12)
@given(st.integers(2, 6), seeds, contexts)
def test_shuffles_verify_and_preserve_the_multiset(n: int, seed: bytes, ctx: ProofContext) -> None:
    rng = seeded(seed)
    keys = KeyPair.generate(rng)
    inputs = start_deck(keys.public, n)
    outputs, witness = shuffle(keys.public, inputs, rng)
    proof = prove_shuffle(ctx, keys.public, inputs, outputs, witness, rng)
    decoded = ShuffleProof.from_bytes(proof.to_bytes(), n)
    assert decoded == proof
    verify_shuffle(ctx, keys.public, inputs, outputs, decoded)
    cards = [card_of(combine(ct, [decryption_share(keys.secret, ct)]), n) for ct in outputs]
    assert cards == list(witness.permutation)


@settings(max_examples=40)
@given(scalars, scalars)
def test_joint_key_decryption_is_order_free(x: Scalar, y: Scalar) -> None:
    if (int(x) + int(y)) % L == 0:
        return
    pk = joint_key([base_mult(x), base_mult(y)])
    ct = start_deck(pk, 3)[2]
    dx, dy = ct.a.mul(x), ct.a.mul(y)
    assert combine(ct, [dx, dy]) == combine(ct, [dy, dx])
    assert card_of(combine(ct, [dx, dy]), 3) == 2


@given(st.binary(max_size=300))
def test_decoders_parse_or_raise_the_package_error(data: bytes) -> None:
    for decode in (
        lambda: Point.from_bytes(data),
        lambda: Scalar.from_bytes(data),
        lambda: KeyProof.from_bytes(data),
        lambda: decode_shares(data, max(1, (len(data) - 64) // 32)),
        lambda: ShuffleProof.from_bytes(data, 2),
    ):
        try:
            decode()
        except MentalPokerError:
            pass


@settings(max_examples=10)
@given(st.binary(max_size=600), st.integers(0, 3))
def test_deck_party_parses_or_raises_the_package_error(data: bytes, stage: int) -> None:
    kw = {"n": 2, "version": 1, "session_id": b"p" * 16, "round": 0, "first_shuffler": 0}
    a = DeckParty(me=0, seed=seed_of(b"a"), **kw)  # type: ignore[arg-type]
    b = DeckParty(me=1, seed=seed_of(b"b"), **kw)  # type: ignore[arg-type]
    calls = [
        lambda: b.receive_key(data),
        lambda: b.receive_shuffle(data),
        lambda: b.receive_shares([0], data),
        lambda: b.receive_disclosed_key(data),
    ]
    if stage >= 1:
        b.receive_key(a.key_message(b""))
        a.receive_key(b.key_message(b""))
    if stage >= 2:
        b.receive_shuffle(a.shuffle_message(b""))
        a.receive_shuffle(b.shuffle_message(b""))
    try:
        calls[stage]()
    except MentalPokerError:
        pass


@given(st.integers(1, 2**32), seeds)
def test_uniform_below_stays_in_range(bound: int, seed: bytes) -> None:
    assert 0 <= uniform_below(bound, seeded(seed)) < bound


@given(st.integers(0, 60), seeds)
def test_permutations_are_permutations(n: int, seed: bytes) -> None:
    assert sorted(random_permutation(n, seeded(seed))) == list(range(n))


def test_permutations_are_uniform_enough() -> None:
    """All 24 permutations of 4 appear about equally often (chi-square far below its 0.1% tail)."""
    rng = seeded(b"uniform")
    counts = Counter(random_permutation(4, rng) for _ in range(4800))
    assert len(counts) == 24
    expected = 4800 / 24
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 49.7  # 23 degrees of freedom, p = 0.001


def _scripted(*draws: int) -> tuple[Callable[[int], bytes], list[int]]:
    """A source that returns these 32-bit values in order and records how many were taken."""
    taken: list[int] = []

    def draw(n: int) -> bytes:
        assert n == 4
        taken.append(draws[len(taken)])
        return taken[-1].to_bytes(4, "big")

    return draw, taken


@pytest.mark.parametrize("bound", [3, 5, 7, 48, 2**31 + 1])
def test_uniform_below_rejects_the_biased_tail(bound: int) -> None:
    """spec/crypto.md §2.4: v >= 2^32 - (2^32 mod m) is drawn again, so every residue is equally
    likely; a plain v mod m would favour the small residues."""
    limit = 2**32 - 2**32 % bound
    draw, taken = _scripted(limit, 2**32 - 1, limit - 1)
    assert uniform_below(bound, draw) == (limit - 1) % bound
    assert taken == [limit, 2**32 - 1, limit - 1]


def test_permutation_draws_follow_fisher_yates() -> None:
    """Durstenfeld's order (i = n-1 down to 1, j = uniform(i + 1)): 3 draws for n = 4."""
    draw, taken = _scripted(1, 0, 1)
    # i=3: j=1 -> [0,3,2,1]; i=2: j=0 -> [2,3,0,1]; i=1: j=1 -> unchanged.
    assert random_permutation(4, draw) == (2, 3, 0, 1)
    assert len(taken) == 3
