"""The Python half of web/bin/bench.js: the same three measurements on the Python `mentalpoker`
package, one sample per request, so the two implementations are measured interleaved in one run.

Reads lines "prove", "verify" or "deal" on standard input and answers each with the seconds one
run took. Uses only the proof-level API (keys, shuffle, prove_shuffle, verify_shuffle), which the
deck protocol composes the same way in both implementations.
"""

from __future__ import annotations

import sys
import time

from mentalpoker.context import ProofContext
from mentalpoker.elgamal import KeyPair, joint_key, start_deck
from mentalpoker.keyproof import prove_key, verify_key
from mentalpoker.shuffle import prove_shuffle, shuffle, verify_shuffle

N = 48
SESSION = b"koikoi-p2p bench session id 0001"


def ctx(step: str, prover: int) -> ProofContext:
    return ProofContext(1, SESSION, 1, step, prover)


def deal() -> None:
    """Both keys proved and verified, both shuffles proved and verified by the other party."""
    keys = [KeyPair.generate(), KeyPair.generate()]
    for k in (0, 1):
        verify_key(ctx("key", k), keys[k].public, prove_key(ctx("key", k), keys[k]))
    pk = joint_key([keys[0].public, keys[1].public])
    deck = start_deck(pk, N)
    for k in (0, 1):
        out, witness = shuffle(pk, deck, None)
        proof = prove_shuffle(ctx("shuffle", k), pk, deck, out, witness)
        verify_shuffle(ctx("shuffle", k), pk, deck, out, proof)
        deck = out


def main() -> None:
    keys = [KeyPair.generate(), KeyPair.generate()]
    pk = joint_key([k.public for k in keys])
    inputs = start_deck(pk, N)
    outputs, witness = shuffle(pk, inputs, None)
    proof = prove_shuffle(ctx("shuffle", 0), pk, inputs, outputs, witness)
    for line in sys.stdin:
        what = line.strip()
        t0 = time.perf_counter()
        if what == "prove":
            prove_shuffle(ctx("shuffle", 0), pk, inputs, outputs, witness)
        elif what == "verify":
            verify_shuffle(ctx("shuffle", 0), pk, inputs, outputs, proof)
        elif what == "deal":
            deal()
        else:
            break
        print(f"{time.perf_counter() - t0:.6f}", flush=True)


if __name__ == "__main__":
    main()
