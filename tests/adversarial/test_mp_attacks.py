"""A cheating peer against the deck: forged, altered, moved and malformed messages must all fail.

The small shuffle message (the slowest of the "every bit" tests) has one bit of every byte flipped,
the bit's position moving from byte to byte; every bit of it with
``KOIKOI_FULL_CAMPAIGN=1 .venv/bin/python -m pytest -q tests/adversarial/test_mp_attacks.py``
(tests/campaign.py)."""

from __future__ import annotations

import random

import pytest

from mentalpoker.context import ProofContext
from mentalpoker.deck import DeckObserver, DeckParty
from mentalpoker.dleq import decode_shares, prove_shares, verify_shares
from mentalpoker.elgamal import (
    Ciphertext,
    KeyPair,
    card_of,
    combine,
    decryption_share,
    encode_deck,
    encrypt,
    joint_key,
    rerandomize,
    start_deck,
)
from mentalpoker.errors import DeckError, InvalidEncoding, MentalPokerError, ProofError
from mentalpoker.generators import card_point
from mentalpoker.group import Point, Scalar, base_mult
from mentalpoker.keyproof import KeyProof, prove_key, verify_key
from mentalpoker.shuffle import ShuffleProof, ShuffleWitness, prove_shuffle, shuffle, verify_shuffle
from tests.campaign import bits_to_flip
from tests.mp_support import seed_of, seeded
from tests.unit.test_mp_group import SMALL_ORDER_HEX, non_canonical_encodings, off_subgroup_point

SESSION = b"attack-session-0123456789"
CTX = ProofContext(version=1, session_id=SESSION, round=2, step="shuffle", prover=0)


def bad_points() -> list[bytes]:
    """Every kind of point an attacker may send: small order, non-canonical, off-subgroup, off-curve."""
    out = [bytes.fromhex(h) for h in SMALL_ORDER_HEX]
    out += non_canonical_encodings()[::5]
    out += [off_subgroup_point(b"attack")]
    out += [(2).to_bytes(32, "little")]  # y = 2 is not on the curve
    return out


def flip(data: bytes, bit: int) -> bytes:
    out = bytearray(data)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def parties(n: int, first: int = 0, session: bytes = SESSION, round_: int = 2) -> tuple[DeckParty, DeckParty]:
    kw = {"n": n, "version": 1, "session_id": session, "round": round_, "first_shuffler": first}
    return (
        DeckParty(me=0, seed=seed_of(b"a" + session), **kw),  # type: ignore[arg-type]
        DeckParty(me=1, seed=seed_of(b"b" + session), **kw),  # type: ignore[arg-type]
    )


def keyed(n: int) -> tuple[DeckParty, DeckParty]:
    a, b = parties(n)
    ka, kb = a.key_message(b""), b.key_message(b"")
    a.receive_key(kb)
    b.receive_key(ka)
    return a, b


def shuffled(n: int) -> tuple[DeckParty, DeckParty]:
    a, b = keyed(n)
    b.receive_shuffle(a.shuffle_message(b""))
    a.receive_shuffle(b.shuffle_message(b""))
    return a, b


# ------------------------------------------------------------------ every bit of every field
def test_every_bit_of_a_key_message_matters() -> None:
    a, b = parties(4)
    msg = a.key_message(b"")
    for bit in range(len(msg) * 8):
        with pytest.raises((InvalidEncoding, ProofError)):
            b.receive_key(flip(msg, bit))
    b.receive_key(msg)


def test_every_bit_of_a_small_shuffle_message_matters() -> None:
    """n = 2: all 5 fields of the outputs and all 9 fields of the proof, every byte (every bit with
    KOIKOI_FULL_CAMPAIGN=1)."""
    a, b = keyed(2)
    msg = a.shuffle_message(b"")
    for bit in bits_to_flip(len(msg)):
        with pytest.raises((InvalidEncoding, ProofError)):
            b.receive_shuffle(flip(msg, bit))
    b.receive_shuffle(msg)


def test_sampled_bits_of_a_48_card_shuffle_message_matter() -> None:
    a, b = keyed(48)
    msg = a.shuffle_message(b"")
    rnd = random.Random(48)
    # One bit inside each 32-byte field for a spread of fields across outputs and every proof part.
    fields = len(msg) // 32
    chosen = [*sorted(rnd.sample(range(fields), 24)), 0, fields - 1, 96, 96 + 48, 96 + 96, 96 + 97]
    for field in chosen:
        bit = field * 256 + rnd.randrange(256)
        with pytest.raises((InvalidEncoding, ProofError)):
            b.receive_shuffle(flip(msg, bit))
    b.receive_shuffle(msg)


def test_every_bit_of_the_shuffle_statement_matters() -> None:
    """Flip the inputs, the joint key and the outputs given to the verifier (n = 3)."""
    keys = KeyPair.generate(seeded(b"k"))
    pk = keys.public
    inputs = start_deck(pk, 3)
    outputs, witness = shuffle(pk, inputs, seeded(b"s"))
    proof = prove_shuffle(CTX, pk, inputs, outputs, witness, seeded(b"p"))
    verify_shuffle(CTX, pk, inputs, outputs, proof)

    def variants(deck: tuple[Ciphertext, ...]) -> list[tuple[Ciphertext, ...]]:
        found = []
        raw = encode_deck(deck)
        for bit in range(len(raw) * 8):
            data = flip(raw, bit)
            try:
                found.append(
                    tuple(
                        Ciphertext(
                            Point.from_bytes(data[i : i + 32]), Point.from_bytes(data[i + 32 : i + 64])
                        )
                        for i in range(0, len(data), 64)
                    )
                )
            except InvalidEncoding:
                pass  # cannot even be stated
        return found

    changed_inputs = variants(inputs)
    changed_outputs = variants(outputs)
    assert changed_inputs and changed_outputs
    for deck in changed_inputs:
        with pytest.raises(ProofError):
            verify_shuffle(CTX, pk, deck, outputs, proof)
    for deck in changed_outputs:
        with pytest.raises(ProofError):
            verify_shuffle(CTX, pk, inputs, deck, proof)
    for bit in range(256):
        try:
            other = Point.from_bytes(flip(pk.raw, bit))
        except InvalidEncoding:
            continue
        with pytest.raises(ProofError):
            verify_shuffle(CTX, other, inputs, outputs, proof)


def test_every_bit_of_a_share_message_and_its_statement_matters() -> None:
    a, b = shuffled(4)
    msg = b.share_message([0, 3], b"")
    for bit in range(len(msg) * 8):
        with pytest.raises((InvalidEncoding, ProofError)):
            a.receive_shares([0, 3], flip(msg, bit))
    # The statement: the bases (deck ciphertexts' a) and the prover's key.
    keys = KeyPair.generate(seeded(b"x"))
    ctx = CTX.with_step("share")
    bases = [base_mult(Scalar.from_int(5)), base_mult(Scalar.from_int(6))]
    shares, proof = prove_shares(ctx, keys, [0, 1], bases, seeded(b"y"))
    for index in range(2):
        for bit in range(256):
            try:
                moved = Point.from_bytes(flip(bases[index].raw, bit))
            except InvalidEncoding:
                continue
            changed = list(bases)
            changed[index] = moved
            with pytest.raises(ProofError):
                verify_shares(ctx, keys.public, [0, 1], changed, shares, proof)
    with pytest.raises(ProofError):
        verify_shares(ctx, base_mult(Scalar.from_int(9)), [0, 1], bases, shares, proof)
    a.receive_shares([0, 3], msg)


def test_every_bit_of_a_disclosed_key_matters() -> None:
    a, b = shuffled(2)
    secret = b.disclose_key()
    for bit in range(256):
        with pytest.raises((InvalidEncoding, DeckError)):
            a.receive_disclosed_key(flip(secret, bit))
    a.receive_disclosed_key(secret)


# ------------------------------------------------------------------ proofs moved to another context
MOVES = [
    {"session_id": b"another-session-0123456789"},
    {"round": 3},
    {"step": "other"},
    {"prover": 1},
    {"version": 2},
]


def _moved(ctx: ProofContext, change: dict[str, object]) -> ProofContext:
    fields: dict[str, object] = {
        "version": ctx.version,
        "session_id": ctx.session_id,
        "round": ctx.round,
        "step": ctx.step,
        "prover": ctx.prover,
    }
    fields.update(change)
    return ProofContext(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("change", MOVES)
def test_proofs_moved_to_another_context_fail(change: dict[str, object]) -> None:
    keys = KeyPair.generate(seeded(b"m"))
    kctx = CTX.with_step("key")
    kproof = prove_key(kctx, keys, seeded(b"1"))
    verify_key(kctx, keys.public, kproof)
    with pytest.raises(ProofError):
        verify_key(_moved(kctx, change), keys.public, kproof)

    inputs = start_deck(keys.public, 3)
    outputs, witness = shuffle(keys.public, inputs, seeded(b"2"))
    sproof = prove_shuffle(CTX, keys.public, inputs, outputs, witness, seeded(b"3"))
    with pytest.raises(ProofError):
        verify_shuffle(_moved(CTX, change), keys.public, inputs, outputs, sproof)

    dctx = CTX.with_step("share")
    bases = [outputs[0].a]
    shares, dproof = prove_shares(dctx, keys, [0], bases, seeded(b"4"))
    verify_shares(dctx, keys.public, [0], bases, shares, dproof)
    with pytest.raises(ProofError):
        verify_shares(_moved(dctx, change), keys.public, [0], bases, shares, dproof)


def test_messages_replayed_into_another_session_or_round_fail() -> None:
    a, b = parties(3)
    a2, b2 = parties(3, session=b"another-session-0123456789")
    a3, b3 = parties(3, round_=9)
    for victim in (b2, b3):
        with pytest.raises(ProofError):
            victim.receive_key(a.key_message(b""))
    # A shuffle from one round replayed in another round with the same keys cannot pass either:
    # the decks differ (fresh keys) and the context differs.
    ka, kb = a.key_message(b""), b.key_message(b"")
    a.receive_key(kb)
    b.receive_key(ka)
    s1 = a.shuffle_message(b"")
    for x, y in ((a2, b2), (a3, b3)):
        kx, ky = x.key_message(b""), y.key_message(b"")
        x.receive_key(ky)
        y.receive_key(kx)
        with pytest.raises((ProofError, InvalidEncoding)):
            y.receive_shuffle(s1)


# ------------------------------------------------------------------ cheating shufflers
def _setting(n: int) -> tuple[Point, tuple[Ciphertext, ...]]:
    keys = KeyPair.generate(seeded(b"cheat-key"))
    return keys.public, start_deck(keys.public, n)


def _cards(pk_secret: Scalar, deck: tuple[Ciphertext, ...], n: int) -> list[int]:
    return [card_of(combine(ct, [decryption_share(pk_secret, ct)]), n) for ct in deck]


@pytest.mark.parametrize("n", [4, 48])
def test_a_shuffle_that_duplicates_a_card_cannot_pass(n: int) -> None:
    keys = KeyPair.generate(seeded(b"cheat-key"))
    pk, inputs = keys.public, start_deck(keys.public, n)
    rng = seeded(b"dup")
    outputs, witness = shuffle(pk, inputs, rng)
    # Output 0 now holds a re-randomised copy of output 1's card (card of output 0 dropped).
    forged = (rerandomize(pk, outputs[1], Scalar.random(rng)), *outputs[1:])
    assert len(set(_cards(keys.secret, forged, n))) == n - 1
    with pytest.raises(ProofError):
        verify_shuffle(CTX, pk, inputs, forged, prove_shuffle(CTX, pk, inputs, forged, witness, rng))


def test_a_shuffle_that_replaces_or_reuses_a_ciphertext_cannot_pass() -> None:
    n = 5
    pk, inputs = _setting(n)
    rng = seeded(b"replace")
    outputs, witness = shuffle(pk, inputs, rng)
    replaced = (*outputs[:-1], encrypt(pk, card_point(40), Scalar.random(rng)))
    reused = (*outputs[:-1], outputs[0])
    unrandomised = tuple(inputs[witness.permutation[i]] for i in range(n))
    for forged in (replaced, reused):
        with pytest.raises(ProofError):
            verify_shuffle(CTX, pk, inputs, forged, prove_shuffle(CTX, pk, inputs, forged, witness, rng))
    # Passing the inputs through without re-randomising is no shuffle the witness explains.
    with pytest.raises(ProofError):
        verify_shuffle(
            CTX, pk, inputs, unrandomised, prove_shuffle(CTX, pk, inputs, unrandomised, witness, rng)
        )
    # The honest proof of the real outputs does not carry over to the forged ones.
    honest = prove_shuffle(CTX, pk, inputs, outputs, witness, rng)
    verify_shuffle(CTX, pk, inputs, outputs, honest)
    for forged in (replaced, reused, unrandomised):
        with pytest.raises(ProofError):
            verify_shuffle(CTX, pk, inputs, forged, honest)


@pytest.mark.parametrize("kind", ["replace", "duplicate"])
def test_cheating_prover_with_a_permutation_of_a_different_multiset(kind: str) -> None:
    """The cheater secretly swaps input 0 for another card, shuffles that multiset honestly and
    builds a perfectly honest proof for it. The proof is valid for the multiset it was built on,
    and fails for the real inputs, whatever witness or transcript it uses."""
    n = 6
    keys = KeyPair.generate(seeded(b"cheat-key"))
    pk, inputs = keys.public, start_deck(keys.public, n)
    rng = seeded(b"multiset" + kind.encode())
    substitute = (
        encrypt(pk, card_point(30), Scalar.random(rng))
        if kind == "replace"
        else rerandomize(pk, inputs[1], Scalar.random(rng))
    )
    other_inputs = (substitute, *inputs[1:])
    outputs, witness = shuffle(pk, other_inputs, rng)
    proof = prove_shuffle(CTX, pk, other_inputs, outputs, witness, rng)
    verify_shuffle(CTX, pk, other_inputs, outputs, proof)  # sound for what it claims
    assert sorted(_cards(keys.secret, outputs, 48)) != sorted(_cards(keys.secret, inputs, 48))
    with pytest.raises(ProofError):
        verify_shuffle(CTX, pk, inputs, outputs, proof)
    # Re-proving against the real inputs with the same permutation and randomness fails too,
    # as does every other permutation of the same randomness.
    with pytest.raises(ProofError):
        verify_shuffle(CTX, pk, inputs, outputs, prove_shuffle(CTX, pk, inputs, outputs, witness, rng))
    psi = list(witness.permutation)
    for k in range(1, n):
        psi2 = tuple(psi[k:] + psi[:k])
        fake = ShuffleWitness(psi2, witness.randomness)
        with pytest.raises(ProofError):
            verify_shuffle(CTX, pk, inputs, outputs, prove_shuffle(CTX, pk, inputs, outputs, fake, rng))


def test_a_cheating_first_shuffler_is_caught_by_the_deck() -> None:
    """A party sends a deck with a duplicated card and an honest-looking proof: refused, no state change."""
    a, b = keyed(4)
    rng = seeded(b"deck-cheat")
    inputs = start_deck(a.joint_key, 4)
    outputs, witness = shuffle(a.joint_key, inputs, rng)
    forged = (outputs[0], outputs[1], outputs[2], rerandomize(a.joint_key, outputs[0], Scalar.random(rng)))
    proof = prove_shuffle(CTX.with_step("shuffle"), a.joint_key, inputs, forged, witness, rng)
    with pytest.raises(ProofError):
        b.receive_shuffle(encode_deck(forged) + proof.to_bytes())
    assert not b.shuffled
    b.receive_shuffle(a.shuffle_message(b""))  # the honest one still goes through afterwards


# ------------------------------------------------------------------ rogue keys
def test_a_rogue_key_without_a_valid_proof_is_refused() -> None:
    a, b = parties(4)
    ka = a.key_message(b"")
    pk_a = Point.from_bytes(ka[:32])
    x = Scalar.from_int(1234567)
    rogue = base_mult(x) - pk_a  # pk_B = X - pk_A: the joint key would be X, known to B alone
    assert joint_key([pk_a, rogue]) == base_mult(x)
    ctx_b = ProofContext(1, SESSION, 2, "key", 1)
    attempts = [
        rogue.raw + ka[32:],  # A's proof
        rogue.raw + prove_key(ctx_b, KeyPair.from_secret(x), seeded(b"r")).to_bytes(),  # proof for X
        rogue.raw + bytes(64),
        rogue.raw + KeyProof(Scalar.from_int(1), Scalar.from_int(2)).to_bytes(),
    ]
    # A Schnorr simulation (pick c, s, then T = s*G - c*pk) fails because c must be H(..., T).
    c, s = Scalar.from_int(77), Scalar.from_int(88)
    attempts.append(rogue.raw + KeyProof(c, s).to_bytes())
    for data in attempts:
        with pytest.raises(ProofError):
            a.receive_key(data)
    assert a._joint is None  # nothing was accepted
    a.receive_key(b.key_message(b""))


# ------------------------------------------------------------------ malformed points wherever received
@pytest.mark.parametrize("bad", bad_points(), ids=lambda b: b.hex()[:10])
def test_bad_points_are_refused_in_every_message(bad: bytes) -> None:
    a, b = parties(2)
    ka = a.key_message(b"")
    with pytest.raises(InvalidEncoding):
        b.receive_key(bad + ka[32:])
    a.receive_key(b.key_message(b""))
    b.receive_key(ka)
    msg = a.shuffle_message(b"")
    # an output point, a permutation commitment, a chain commitment
    for offset in (0, 32, 64 * 2 + 32, 64 * 2 + 32 + 2 * 32):
        with pytest.raises(InvalidEncoding):
            b.receive_shuffle(msg[:offset] + bad + msg[offset + 32 :])
    b.receive_shuffle(msg)
    a.receive_shuffle(b.shuffle_message(b""))
    shares = b.share_message([0, 1], b"")
    for offset in (0, 32):
        with pytest.raises(InvalidEncoding):
            a.receive_shares([0, 1], shares[:offset] + bad + shares[offset + 32 :])
    with pytest.raises(InvalidEncoding):
        decode_shares(bad + shares[32:], 2)


def test_out_of_range_scalars_are_refused_in_proofs() -> None:
    a, b = keyed(2)
    msg = a.shuffle_message(b"")
    big = (2**256 - 1).to_bytes(32, "little")
    proof_start = 2 * 64
    scalar_start = proof_start + 32 + 4 * 32
    for offset in (proof_start, scalar_start, len(msg) - 32):
        with pytest.raises(InvalidEncoding) as info:
            b.receive_shuffle(msg[:offset] + big + msg[offset + 32 :])
        assert info.value.reason == "invalid_scalar"
    with pytest.raises(InvalidEncoding):
        ShuffleProof.from_bytes(msg[proof_start:] + b"\x00", 2)


def test_observer_enforces_order_and_parties() -> None:
    a, b = parties(3, first=1)
    kw = {"n": 3, "version": 1, "session_id": SESSION, "round": 2, "first_shuffler": 1}
    o = DeckObserver(**kw)  # type: ignore[arg-type]
    ka, kb = a.key_message(b""), b.key_message(b"")
    with pytest.raises(ProofError):
        o.receive_key(1, ka)  # a's key claimed as party 1's
    o.receive_key(0, ka)
    o.receive_key(1, kb)
    a.receive_key(kb)
    b.receive_key(ka)
    s_b = b.shuffle_message(b"")
    with pytest.raises(DeckError):
        o.receive_shuffle(0, s_b)  # party 1 shuffles first here
    with pytest.raises(DeckError):
        o.receive_shuffle(2, s_b)
    o.receive_shuffle(1, s_b)
    a.receive_shuffle(s_b)
    o.receive_shuffle(0, a.shuffle_message(b""))
    with pytest.raises(ProofError):
        o.receive_shares(1, [0], a.share_message([0], b""))  # a's shares claimed as b's


def test_garbage_only_ever_raises_the_package_error() -> None:
    a, b = parties(3)
    rnd = random.Random(7)
    for size in (0, 1, 95, 96, 97, 200):
        data = rnd.randbytes(size)
        with pytest.raises(MentalPokerError):
            b.receive_key(data)
    b.receive_key(a.key_message(b""))
    a.receive_key(b.key_message(b""))
    for size in (0, 63, 736, 737):
        with pytest.raises(MentalPokerError):
            b.receive_shuffle(rnd.randbytes(size))


def test_every_bit_of_the_context_matters() -> None:
    """Bit flips of version, session id, round, step and prover, for a key, share and shuffle proof."""
    keys = KeyPair.generate(seeded(b"ctx"))
    base = ProofContext(version=1, session_id=SESSION, round=2, step="key", prover=0)
    kproof = prove_key(base, keys, seeded(b"k"))
    bases = [base_mult(Scalar.from_int(11))]
    shares, dproof = prove_shares(base.with_step("share"), keys, [0], bases, seeded(b"d"))
    inputs = start_deck(keys.public, 2)
    outputs, witness = shuffle(keys.public, inputs, seeded(b"s"))
    sctx = base.with_step("shuffle")
    sproof = prove_shuffle(sctx, keys.public, inputs, outputs, witness, seeded(b"p"))

    def variants(ctx: ProofContext) -> list[ProofContext]:
        out = [_moved(ctx, {"version": ctx.version ^ (1 << b)}) for b in range(64)]
        out += [_moved(ctx, {"round": ctx.round ^ (1 << b)}) for b in range(64)]
        out += [_moved(ctx, {"session_id": flip(ctx.session_id, b)}) for b in range(len(ctx.session_id) * 8)]
        out += [_moved(ctx, {"prover": 1 - ctx.prover})]
        for b in range(len(ctx.step) * 8):
            try:
                step = flip(ctx.step.encode(), b).decode("utf-8")
            except UnicodeDecodeError:
                continue
            out.append(_moved(ctx, {"step": step}))
        return out

    for ctx in variants(base):
        with pytest.raises(ProofError):
            verify_key(ctx, keys.public, kproof)
    for ctx in variants(base.with_step("share")):
        with pytest.raises(ProofError):
            verify_shares(ctx, keys.public, [0], bases, shares, dproof)
    for ctx in variants(sctx)[::7]:  # a spread of them: each costs a whole shuffle verification
        with pytest.raises(ProofError):
            verify_shuffle(ctx, keys.public, inputs, outputs, sproof)


def test_every_bit_of_the_share_positions_matters() -> None:
    keys = KeyPair.generate(seeded(b"pos"))
    ctx = CTX.with_step("share")
    bases = [base_mult(Scalar.from_int(3)), base_mult(Scalar.from_int(4))]
    positions = [5, 40]
    shares, proof = prove_shares(ctx, keys, positions, bases, seeded(b"w"))
    for index in range(2):
        for bit in range(16):
            moved = list(positions)
            moved[index] ^= 1 << bit
            with pytest.raises(ProofError):
                verify_shares(ctx, keys.public, moved, bases, shares, proof)


# ------------------------------------------------------------------ batched share proof: compensating shares
@pytest.mark.parametrize("weight", [1, 2, 2**127 + 11])
def test_compensating_wrong_shares_cannot_pass_one_batched_proof(weight: int) -> None:
    """d1' = d1 + X and d2' = d2 - weight*X keep weight*d1' + d2' = x*(weight*a1 + a2): a batch
    checked only through a combination with predictable (or no) weights would accept them, and
    the peer would decrypt two wrong cards. The proof is an AND of k + 1 equal-log statements,
    each commitment recomputed and hashed, so every prover strategy below fails."""
    from mentalpoker.dleq import SharesProof, _challenge, encode_shares

    keys = KeyPair.generate(seeded(b"comp-key"))
    ctx = CTX.with_step("share").with_prover(1)
    positions = [3, 9]
    a1, a2 = base_mult(Scalar.from_int(1001)), base_mult(Scalar.from_int(2002))
    honest, honest_proof = prove_shares(ctx, keys, positions, [a1, a2], seeded(b"w"))
    verify_shares(ctx, keys.public, positions, [a1, a2], honest, honest_proof)
    x_offset = base_mult(Scalar.from_int(424242))
    z = Scalar.from_int(weight)
    forged = (honest[0] + x_offset, honest[1] - x_offset.mul(z))
    # Non-vacuous: the weighted aggregate a naive batch would check holds for the forged shares.
    assert forged[0].mul(z) + forged[1] == (a1.mul(z) + a2).mul(keys.secret)
    assert forged != honest

    attempts: list[SharesProof] = [honest_proof]
    w = Scalar.random(seeded(b"w2"))
    # A prover with the secret who commits honestly and hashes the forged statement.
    c = _challenge(ctx, keys.public, positions, [a1, a2], list(forged), [base_mult(w), a1.mul(w), a2.mul(w)])
    attempts.append(SharesProof(c, w + c * keys.secret))
    # A prover who proves the aggregate (A = z*a1 + a2, D = z*d1' + d2') and sends it as the batch proof.
    agg_a, agg_d = a1.mul(z) + a2, forged[0].mul(z) + forged[1]
    c = _challenge(ctx, keys.public, [0], [agg_a], [agg_d], [base_mult(w), agg_a.mul(w)])
    attempts.append(SharesProof(c, w + c * keys.secret))
    for proof in attempts:
        with pytest.raises(ProofError):
            verify_shares(ctx, keys.public, positions, [a1, a2], forged, proof)

    # Through the deck: the peer's compensated shares of two positions are refused, state unchanged.
    a, b = shuffled(4)
    msg = b.share_message([0, 1], b"")
    d1, d2 = Point.from_bytes(msg[:32]), Point.from_bytes(msg[32:64])
    bad = encode_shares((d1 + x_offset, d2 - x_offset.mul(z)), SharesProof.from_bytes(msg[64:]))
    with pytest.raises(ProofError):
        a.receive_shares([0, 1], bad)
    assert not a.known(0) and not a.known(1)
    a.receive_shares([0, 1], msg)


# ------------------------------------------------------------------ repeated randomness
def _extract(c1: bytes, s1: bytes, c2: bytes, s2: bytes) -> Scalar:
    """x from two Schnorr-type responses with the same nonce: (s1 - s2) / (c1 - c2)."""
    from mentalpoker.group import L

    num = int.from_bytes(s1, "little") - int.from_bytes(s2, "little")
    den = int.from_bytes(c1, "little") - int.from_bytes(c2, "little")
    return Scalar.from_int(num * pow(den % L, -1, L))


def test_a_repeated_random_source_does_not_leak_the_round_secret() -> None:
    """A party restored twice from one saved state with the same seeded source (or a cloned
    machine) draws the same random bytes for two different share messages. With w taken from the
    source alone, the two responses give x = (s1 - s2)/(c1 - c2) and the peer reads every card;
    a hedged nonce (spec/crypto.md §3.4) differs because the statements differ."""
    a, b = shuffled(6)
    state = b.to_state()
    first = DeckParty.from_state(state)
    second = DeckParty.from_state(state)
    m1, m2 = first.share_message([0], b""), second.share_message([1], b"")
    a.receive_shares([0], m1)
    a.receive_shares([1], m2)
    guess = _extract(m1[32:64], m1[64:], m2[32:64], m2[64:])
    assert base_mult(guess) != b.public_key
    # The same for the key proof of one key in two contexts.
    keys = KeyPair.generate(seeded(b"reuse"))
    p1 = prove_key(CTX.with_step("key"), keys, seeded(b"same")).to_bytes()
    p2 = prove_key(CTX.with_step("key").with_prover(1), keys, seeded(b"same")).to_bytes()
    assert base_mult(_extract(p1[:32], p1[32:], p2[:32], p2[32:])) != keys.public
    # Still deterministic for one statement and one source (vectors, replay after a crash).
    assert prove_key(CTX.with_step("key"), keys, seeded(b"same")).to_bytes() == p1
