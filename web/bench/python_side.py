"""The Python half of web/bin/bench.js: the same three measurements on the Python `mentalpoker`
package, one sample per request, so the two implementations are measured interleaved in one run.

Reads lines "prove", "verify", "deal" or "opening" on standard input and answers each with the seconds one
run took. prove and verify use the proof-level API; deal is one deck of game version 2 between two
DeckParty objects (keys, both shuffles, the opening's two share groups per party, the cards each
party sees), as web/bin/bench.js does it with its Deck; opening is that last part alone (the
decks are prepared before the clock starts).
"""

from __future__ import annotations

import sys
import time

from mentalpoker.context import ProofContext
from mentalpoker.deck import DeckParty
from mentalpoker.elgamal import KeyPair, joint_key, start_deck
from mentalpoker.shuffle import prove_shuffle, shuffle, verify_shuffle

N = 48
SESSION = b"koikoi-p2p bench session id 0001"
FIELD = (2, 3, 8, 9, 14, 15, 20, 21)
HANDS = ((4, 5, 10, 11, 16, 17, 22, 23), (0, 1, 6, 7, 12, 13, 18, 19))


def ctx(step: str, prover: int) -> ProofContext:
    return ProofContext(2, SESSION, 1, step, prover)


def shuffled_pair() -> list[DeckParty]:
    """Two parties of one deck of game version 2: keys exchanged, both shuffles made and verified."""
    parties = [DeckParty(me=me, n=N, version=2, session_id=SESSION, round=1, first_shuffler=1)
               for me in (0, 1)]
    binding = bytes(32)
    keys = [p.key_message(binding) for p in parties]
    for k in (0, 1):
        parties[1 - k].receive_key(keys[k])
    for k in (1, 0):
        parties[1 - k].receive_shuffle(parties[k].shuffle_message(binding))
    return parties


def opening(parties: list[DeckParty]) -> None:
    """The opening (spec/game.md §5.4): both parties' shares of the field and the other's hand."""
    binding = bytes(32)
    for k in (0, 1):
        for positions in (FIELD, HANDS[1 - k]):
            parties[1 - k].receive_shares(positions, parties[k].share_message(positions, binding))
    for k in (0, 1):
        for position in (*FIELD, *HANDS[k]):
            parties[k].card_at(position)


def main() -> None:
    keys = [KeyPair.generate(), KeyPair.generate()]
    pk = joint_key([k.public for k in keys])
    inputs = start_deck(pk, N)
    outputs, witness = shuffle(pk, inputs, None)
    proof = prove_shuffle(ctx("shuffle", 0), pk, inputs, outputs, witness)
    for line in sys.stdin:
        what = line.strip()
        prepared = shuffled_pair() if what == "opening" else None
        t0 = time.perf_counter()
        if what == "prove":
            prove_shuffle(ctx("shuffle", 0), pk, inputs, outputs, witness)
        elif what == "verify":
            verify_shuffle(ctx("shuffle", 0), pk, inputs, outputs, proof)
        elif what == "deal":
            opening(shuffled_pair())
        elif what == "opening" and prepared is not None:
            opening(prepared)
        else:
            break
        print(f"{time.perf_counter() - t0:.6f}", flush=True)


if __name__ == "__main__":
    main()
