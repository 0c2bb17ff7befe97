"""A party restored twice from one saved state, shown two different inputs (issue 11, hole 1).

A crash-safe peer rebuilds itself by replaying its log with the randomness it saved, so two
restores of one state (two ``koikoi resume`` runs, a restored backup, a cloned machine) start from
the same random bytes. An opponent that shows each copy a different first shuffle then receives
two honest shuffles. If the permutation and the re-randomisers come from the saved byte stream
alone, the two outputs differ at position i by exactly the difference the attacker put into input
psi(i), so the attacker reads the honest permutation off public values and knows every card.
Version 1 fell to this (the test of that commit shows it); the hedged draws of version 2
(spec/crypto.md §3.5) make the two copies' shuffles independent.
"""

from __future__ import annotations

from mentalpoker.context import ProofContext
from mentalpoker.deck import DeckParty
from mentalpoker.elgamal import Ciphertext, decode_deck, encode_deck, rerandomize
from mentalpoker.group import Scalar, base_mult
from mentalpoker.shuffle import ShuffleWitness, prove_shuffle, shuffle
from tests.mp_support import seed_of, seeded

N = 12
SESSION = b"restore-attack-session-0001"
SETUP = {"n": N, "version": 2, "session_id": SESSION, "round": 3, "first_shuffler": 0}


def _honest_copy() -> DeckParty:
    """The honest second shuffler as a restore rebuilds it: the same saved random source."""
    return DeckParty(me=1, seed=seed_of(b"saved state of the honest peer"), **SETUP)  # type: ignore[arg-type]


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
    ctx = ProofContext(version=2, session_id=SESSION, round=3, step="shuffle", prover=0)
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


def _two_restores_after_different_first_shuffles(
    bindings: tuple[bytes, bytes],
) -> tuple[tuple[DeckParty, DeckParty], bytes, bytes, tuple[int, ...], list[Scalar]]:
    """The attack: both copies get the same round key, then different (valid) first shuffles,
    then each makes its honest shuffle. Returns the copies, their shuffles, pi and the deltas."""
    attacker = DeckParty(me=0, seed=seed_of(b"attacker keys"), **SETUP)  # type: ignore[arg-type]
    copies = (_honest_copy(), _honest_copy())
    for copy in copies:
        copy.receive_key(attacker.key_message(b""))
    honest_keys = {copy.key_message(b"head after the attacker's key") for copy in copies}
    assert len(honest_keys) == 1          # one key message: the copies agree up to here
    attacker.receive_key(honest_keys.pop())
    first, second, pi, deltas = _attacker_shuffles(attacker.joint_key, attacker._current_deck())
    copies[0].receive_shuffle(first)
    copies[1].receive_shuffle(second)
    d2, d2_other = copies[0].shuffle_message(bindings[0]), copies[1].shuffle_message(bindings[1])
    copies[0].receive_disclosed_key(attacker.disclose_key())
    return copies, d2, d2_other, pi, deltas


def test_the_attack_reads_the_deck_when_both_copies_draw_the_same_bytes() -> None:
    """The control: with the permutation and re-randomisers from one saved stream (what the
    version 1 deck did), the two honest outputs give away psi and with it every card."""
    attacker = DeckParty(me=0, seed=seed_of(b"attacker keys"), **SETUP)  # type: ignore[arg-type]
    honest = _honest_copy()
    honest.receive_key(attacker.key_message(b""))
    attacker.receive_key(honest.key_message(b""))
    first, second, _pi, deltas = _attacker_shuffles(attacker.joint_key, attacker._current_deck())
    pk = attacker.joint_key
    made = [shuffle(pk, decode_deck(msg[: 64 * N], N), seeded(b"the saved stream"))
            for msg in (first, second)]
    # Output i holds input psi(i) of the first shuffle, which holds starting card pi(psi(i)):
    # knowing psi, the attacker knows every card.
    assert _recover(encode_deck(made[0][0]), encode_deck(made[1][0]), deltas) == made[0][1].permutation


def test_two_restores_shown_different_first_shuffles_learn_nothing() -> None:
    """Hedged (spec/crypto.md §3.5): each copy's permutation and re-randomisers depend on the deck
    it was shown, so the two outputs are unrelated and the attack finds no permutation; and this
    holds even when the caller's binding is the same for both (the statement is in the hedge)."""
    for bindings in ((b"head A", b"head B"), (b"same head", b"same head")):
        copies, d2, d2_other, _pi, deltas = _two_restores_after_different_first_shuffles(bindings)
        assert _recover(d2, d2_other, deltas) is None
        # The copy that plays on has an order unrelated to a guess from the attack.
        order = copies[0].audit()
        assert sorted(order) == list(range(N))


def test_identical_inputs_replay_identically() -> None:
    """A crash-safe replay of the same inputs must send the same bytes again (spec/protocol.md
    §12): the hedge is a function of the seed and the inputs only."""
    runs = []
    for _ in range(2):
        attacker = DeckParty(me=0, seed=seed_of(b"attacker keys"), **SETUP)  # type: ignore[arg-type]
        honest = _honest_copy()
        honest.receive_key(attacker.key_message(b""))
        key = honest.key_message(b"h1")
        attacker.receive_key(key)
        honest.receive_shuffle(attacker.shuffle_message(b""))
        deck = honest.shuffle_message(b"h2")
        shares = honest.share_message([0, 3], b"h3")
        runs.append((key, deck, shares))
    assert runs[0] == runs[1]
    # One different input anywhere gives a different round key.
    other = _honest_copy()
    other.receive_key(DeckParty(me=0, seed=seed_of(b"attacker keys"), **SETUP).key_message(b""))  # type: ignore[arg-type]
    assert other.key_message(b"another head") != runs[0][0]


def test_a_game_peer_restored_twice_draws_its_round_keys_from_what_it_received() -> None:
    """Through the game peer: the joiner starts from one state (the same seed) in three matches;
    the host of the second one has another seed, so its first round key differs. Every round key
    the joiner makes after that message differs too (the deck's binding is the chain head), and
    the first match played again gives the joiner's very same messages (the replay a crash-safe
    peer relies on)."""
    from koikoi_p2p.protocol import messages as m
    from tests.protocol.game_support import make_pair, run

    def play(host_seed: bytes | None) -> tuple[list[tuple[int, bytes]], int, list[bytes]]:
        pair = make_pair(rounds=1, seed=5)
        if host_seed is not None:
            pair.peers[0].seed = host_seed
        run(pair)
        assert pair.errors == [None, None]
        envelopes = pair.peers[1].transcript
        first_host_key = next(env.seq for env in envelopes if env.type == m.KEY and env.sender == 0)
        keys = [(env.seq, env.body["key"][:32]) for env in envelopes  # type: ignore[index]
                if env.type == m.KEY and env.sender == 1]
        return keys, first_host_key, [env.raw for env in envelopes if env.sender == 1]

    keys_a, diverged, mine_a = play(None)
    keys_b, diverged_b, _ = play(seed_of(b"the other future"))
    keys_again, _, mine_again = play(None)
    assert diverged == diverged_b
    later = [(a, b) for (seq, a), (_, b) in zip(keys_a, keys_b, strict=False) if seq > diverged]
    assert later and all(a != b for a, b in later)
    assert keys_again == keys_a and mine_again == mine_a
