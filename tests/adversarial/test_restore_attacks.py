"""A party restored twice from one saved state, shown two different inputs (issue 11, hole 1).

A crash-safe peer rebuilds itself by replaying its log with the randomness it saved, so two
restores of one state (two ``koikoi resume`` runs, a restored backup, a cloned machine) start from
the same random bytes. An opponent that shows each copy a different first shuffle then receives
two honest shuffles. If the permutation and the re-randomisers come from the saved byte stream
alone, the two outputs differ at position i by exactly the difference the attacker put into input
psi(i), so the attacker reads the honest permutation off public values and knows every card.
"""

from __future__ import annotations

from mentalpoker.context import ProofContext
from mentalpoker.deck import DeckParty
from mentalpoker.elgamal import Ciphertext, decode_deck, encode_deck, rerandomize
from mentalpoker.group import Scalar, base_mult
from mentalpoker.shuffle import ShuffleWitness, prove_shuffle, shuffle
from tests.mp_support import seeded

N = 12
SESSION = b"restore-attack-session-0001"
SETUP = {"n": N, "version": 1, "session_id": SESSION, "round": 3, "first_shuffler": 0}


def _honest_copy() -> DeckParty:
    """The honest second shuffler as a restore rebuilds it: the same saved random source."""
    return DeckParty(me=1, rng=seeded(b"saved state of the honest peer"), **SETUP)  # type: ignore[arg-type]


def _attacker_shuffles(
    pk_joint: object, start: tuple[Ciphertext, ...]
) -> tuple[bytes, bytes, tuple[int, ...], list[Scalar]]:
    """Two valid first shuffles with one permutation; the second re-randomises input j by a
    known delta_j more. Returns both messages, the permutation and the deltas."""
    from mentalpoker.group import Point

    assert isinstance(pk_joint, Point)
    outputs, witness = shuffle(pk_joint, start, seeded(b"attacker"))
    deltas = [Scalar.from_int(1000 + j) for j in range(N)]
    shifted = tuple(rerandomize(pk_joint, outputs[j], deltas[j]) for j in range(N))
    witness2 = ShuffleWitness(witness.permutation,
                              tuple(r + d for r, d in zip(witness.randomness, deltas, strict=True)))
    ctx = ProofContext(version=1, session_id=SESSION, round=3, step="shuffle", prover=0)
    first = encode_deck(outputs) + prove_shuffle(ctx, pk_joint, start, outputs, witness,
                                                 seeded(b"p1")).to_bytes()
    second = encode_deck(shifted) + prove_shuffle(ctx, pk_joint, start, shifted, witness2,
                                                  seeded(b"p2")).to_bytes()
    return first, second, witness.permutation, deltas


def _recover(d2: bytes, d2_other: bytes, deltas: list[Scalar]) -> tuple[int, ...] | None:
    """The honest permutation from two honest outputs, or None when they do not give it away."""
    table = {base_mult(delta).raw: j for j, delta in enumerate(deltas)}
    a, b = decode_deck(d2[: 64 * N], N), decode_deck(d2_other[: 64 * N], N)
    psi = []
    for i in range(N):
        j = table.get((b[i].a - a[i].a).raw)
        if j is None:
            return None
        psi.append(j)
    return tuple(psi)


def test_two_restores_shown_different_first_shuffles_reveal_the_deck() -> None:
    attacker = DeckParty(me=0, rng=seeded(b"attacker keys"), **SETUP)  # type: ignore[arg-type]
    copies = (_honest_copy(), _honest_copy())
    for copy in copies:
        copy.receive_key(attacker.key_message())
    honest_keys = {copy.key_message() for copy in copies}
    assert len(honest_keys) == 1          # one key message: the copies agree up to here
    attacker.receive_key(honest_keys.pop())
    start = attacker._decks[0]
    first, second, pi, deltas = _attacker_shuffles(attacker.joint_key, start)
    copies[0].receive_shuffle(first)
    copies[1].receive_shuffle(second)
    d2, d2_other = copies[0].shuffle_message(), copies[1].shuffle_message()
    psi = _recover(d2, d2_other, deltas)
    # Today: the attacker knows the whole final order before a single share is sent.
    assert psi is not None
    predicted = tuple(pi[psi[i]] for i in range(N))
    # Check it against the real order: the first copy plays on and both keys are disclosed.
    copies[0].receive_disclosed_key(attacker.disclose_key())
    assert copies[0].audit() == predicted
