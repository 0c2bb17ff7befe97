"""The Python half of web/bin/bench.js: the same three measurements on the Python `mentalpoker`
package, one sample per request, so the two implementations are measured interleaved in one run.

Reads lines "prove", "verify", "deal" or "opening" on standard input and answers each with the seconds one
run took. prove uses the proof-level API, verify decodes and verifies the shuffle message as a
receiving party does (verify_shuffle_message); deal is one deck of game version 2 between two
DeckParty objects (keys, both shuffles, the opening's two share groups per party, the cards each
party sees), as web/bin/bench.js does it with its Deck; opening is that last part alone (the
decks are prepared before the clock starts). "audit PATH" is `koikoi verify` of a transcript file
in this process (decode, then the replay; its verification spread over mentalpoker.parallel's
threads as `koikoi verify` spreads it); "audit_serial PATH" the same on one thread.

Besides samples: "selfplay ROUNDS SEED PATH" writes the transcript of a selfplay match (answers
"ok"); "counts WHAT" answers the libsodium operations one run performs, as JSON (counted on one
thread, mentalpoker.group.counting_operations); "units" answers the fastest unit cost of each
operation in seconds, as JSON.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from koikoi_p2p.audit.replay import audit_transcript
from koikoi_p2p.net.selfplay import selfplay
from koikoi_p2p.protocol.transcript import decode_transcript
from mentalpoker import group
from mentalpoker.context import ProofContext
from mentalpoker.deck import DeckParty
from mentalpoker.elgamal import KeyPair, encode_deck, joint_key, start_deck
from mentalpoker.parallel import serial
from mentalpoker.shuffle import prove_shuffle, shuffle, verify_shuffle_message

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


def audited_serially(data: bytes) -> object:
    """`koikoi verify` with every verification on the calling thread (KOIKOI_THREADS=1)."""
    with serial():
        return audit_transcript(decode_transcript(data))


def unit_costs() -> dict[str, float]:
    """Seconds per raw libsodium call, the fastest of several batches."""
    costs: dict[str, float] = {}
    for name, fn in group.primitive_samples().items():
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(100):
                fn()
            best = min(best, (time.perf_counter() - start) / 100)
        costs[name] = best
    return costs


def main() -> None:
    keys = [KeyPair.generate(), KeyPair.generate()]
    pk = joint_key([k.public for k in keys])
    inputs = start_deck(pk, N)
    outputs, witness = shuffle(pk, inputs, None)
    proof = prove_shuffle(ctx("shuffle", 0), pk, inputs, outputs, witness)
    message = encode_deck(outputs) + proof.to_bytes()
    files: dict[str, bytes] = {}

    def step(what: str) -> Callable[[], object] | None:
        if what == "prove":
            return lambda: prove_shuffle(ctx("shuffle", 0), pk, inputs, outputs, witness)
        if what == "verify":
            return lambda: verify_shuffle_message(ctx("shuffle", 0), pk, inputs, message)
        if what == "deal":
            return lambda: opening(shuffled_pair())
        if what.startswith(("audit ", "audit_serial ")):
            kind, path = what.split(" ", 1)
            data = files.setdefault(path, Path(path).read_bytes())
            if kind == "audit_serial":
                return lambda: audited_serially(data)
            return lambda: audit_transcript(decode_transcript(data))
        return None

    for line in sys.stdin:
        what = line.strip()
        if what.startswith("selfplay "):
            rounds, seed, path = what.split(" ", 3)[1:]
            played = asyncio.run(selfplay(rounds=int(rounds), seed=int(seed)))
            Path(path).write_bytes(played.transcripts[0])
            print("ok", flush=True)
            continue
        if what == "units":
            print(json.dumps(unit_costs()), flush=True)
            continue
        if what.startswith("counts "):
            fn = step(what[len("counts "):])
            if fn is None:
                break
            with group.counting_operations() as counts:
                fn()
            print(json.dumps({k: v for k, v in counts.items() if v}), flush=True)
            continue
        prepared = shuffled_pair() if what == "opening" else None
        fn = step(what)
        t0 = time.perf_counter()
        if prepared is not None:
            opening(prepared)
        elif fn is not None:
            fn()
        else:
            break
        print(f"{time.perf_counter() - t0:.6f}", flush=True)


if __name__ == "__main__":
    main()
