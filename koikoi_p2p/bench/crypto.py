"""``koikoi bench crypto``: the 48-card deck against its floor of group operations.

For each step the floor is the number of libsodium group operations the step performs (counted
through ``mentalpoker.group.counting_operations`` in a separate, untimed run) times the unit cost
of each operation on the raw bindings. The two are measured interleaved: each timed run of the
step is followed by a sample of every unit cost it needs, so a load change on a shared machine
weighs on both alike. The median is that of the step's runs; the floor uses the fastest sample of
each unit cost seen in the same window, a true lower bound of any run (every run performs those
operations), so the ratio median / floor cannot drop below 1 by drift. It bounds the overhead of
everything that is not group arithmetic (hashing, encoding, Python).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from koikoi_p2p.bench.report import Measurement, median_seconds

TRAFFIC_BUDGET = 40_000
PLAYS_PER_ROUND = 16  # each player plays 8 hand cards; each play reveals one stock card


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per step (median)")
    parser.add_argument("--cards", type=int, default=48, help="deck size (at least 24, for the deal)")


def _unit_sample(fn: Callable[[], object], loops: int = 20) -> float:
    """Seconds per call over one short batch (one sample of a unit cost)."""
    start = time.perf_counter()
    for _ in range(loops):
        fn()
    return (time.perf_counter() - start) / loops


def interleaved(step: Callable[[], object], counts: dict[str, int], samples: dict[str, Callable[[], object]],
                runs: int) -> tuple[float, float]:
    """(median seconds of ``step``, its floor): each run of the step is followed by one sample of
    each unit cost it needs; the floor takes each unit's fastest sample of the window."""
    needed = {name: count for name, count in counts.items() if count}
    best = dict.fromkeys(needed, float("inf"))
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
        for name in needed:
            best[name] = min(best[name], _unit_sample(samples[name]))
    floor = sum(count * best[name] for name, count in needed.items())
    return statistics.median(times), floor


def run(args: argparse.Namespace) -> list[Measurement]:
    from mentalpoker import group
    from mentalpoker.context import ProofContext
    from mentalpoker.deck import DeckParty
    from mentalpoker.dleq import decode_shares, encode_shares, prove_shares, verify_shares
    from mentalpoker.elgamal import KeyPair, decode_deck, encode_deck, joint_key, start_deck
    from mentalpoker.shuffle import ShuffleProof, prove_shuffle, shuffle, verify_shuffle

    n = int(getattr(args, "cards", 48))
    if n < 24:
        raise SystemExit(
            "koikoi bench crypto: --cards must be at least 24 (16 hand cards and 8 on the field)"
        )
    repeat = max(1, int(getattr(args, "repeat", 7)))
    session = b"koikoi-bench-session-0001"
    samples = group.primitive_samples()

    def measure(name: str, fn: Callable[[], Any], note: str = "") -> Measurement:
        fn()  # warm caches (generators, card points) outside the timing
        with group.counting_operations() as counts:
            fn()
        probe = median_seconds(fn, 1)
        # Sub-millisecond steps get more runs, so one scheduling hiccup cannot move their median.
        median, floor = interleaved(fn, dict(counts), samples, repeat if probe > 0.005 else repeat * 25)
        return Measurement(name=name, median_s=median, floor_s=floor, ratio=median / floor, note=note)

    a, b = KeyPair.generate(), KeyPair.generate()
    pk = joint_key([a.public, b.public])
    deck = start_deck(pk, n)
    ctx = ProofContext(1, session, 1, "shuffle", 0)

    def shuffle_and_prove() -> bytes:
        outputs, witness = shuffle(pk, deck)
        return encode_deck(outputs) + prove_shuffle(ctx, pk, deck, outputs, witness).to_bytes()

    message = shuffle_and_prove()
    split = 64 * n

    def decode_and_verify() -> None:
        outputs = decode_deck(message[:split], n)
        verify_shuffle(ctx, pk, deck, outputs, ShuffleProof.from_bytes(message[split:], n))

    share_ctx = ProofContext(1, session, 1, "share", 0)
    results = [
        measure(f"shuffle_prove_{n}", shuffle_and_prove, f"{len(message)} bytes: deck + proof"),
        measure(f"shuffle_verify_{n}", decode_and_verify, "decode (validate every point) + verify"),
    ]
    for k in (1, 8):
        positions = list(range(k))
        bases = [deck[p].a for p in positions]
        shares, proof = prove_shares(share_ctx, a, positions, bases)
        share_bytes = encode_shares(shares, proof)

        def dleq_prove(positions: list[int] = positions, bases: list[group.Point] = bases) -> bytes:
            s, p = prove_shares(share_ctx, a, positions, bases)
            return encode_shares(s, p)

        def dleq_verify(
            positions: list[int] = positions, bases: list[group.Point] = bases, data: bytes = share_bytes
        ) -> None:
            s, p = decode_shares(data, len(positions))
            verify_shares(share_ctx, a.public, positions, bases, s, p)

        results.append(measure(f"dleq_prove_{k}", dleq_prove, f"{len(share_bytes)} bytes"))
        results.append(measure(f"dleq_verify_{k}", dleq_verify, "decode + verify"))

    traffic = [0]

    def round_setup() -> None:
        kw = {"n": n, "version": 2, "session_id": session, "round": 1, "first_shuffler": 0}
        pa, pb = DeckParty(me=0, **kw), DeckParty(me=1, **kw)  # type: ignore[arg-type]
        sent = 0
        ka, kb = pa.key_message(b""), pb.key_message(b"")
        pb.receive_key(ka)
        pa.receive_key(kb)
        s1 = pa.shuffle_message(b"")
        pb.receive_shuffle(s1)
        s2 = pb.shuffle_message(b"")
        pa.receive_shuffle(s2)
        sent += len(ka) + len(kb) + len(s1) + len(s2)
        hand_a, hand_b = list(range(8)), list(range(8, 16))
        field = list(range(16, 24))
        m = pb.share_message(hand_a, b"")
        pa.receive_shares(hand_a, m)
        m2 = pa.share_message(hand_b, b"")
        pb.receive_shares(hand_b, m2)
        fa, fb = pa.share_message(field, b""), pb.share_message(field, b"")
        pa.receive_shares(field, fb)
        pb.receive_shares(field, fa)
        sent += len(m) + len(m2) + len(fa) + len(fb)
        for p in hand_a + field:
            pa.card_at(p)
        for p in hand_b + field:
            pb.card_at(p)
        traffic[0] = sent

    setup = measure(
        "round_setup", round_setup, "2 key proofs, 2 shuffles+verifications, 16 private + 8 public"
    )
    results.append(setup)

    # End of round: a party's audit checks what it could not check on receipt (received shares
    # against the disclosed secret, the decryption of the whole deck); recheck=True verifies every
    # proof again (spec/crypto.md §8.5).
    kw = {"n": n, "version": 2, "session_id": session, "round": 1, "first_shuffler": 0}
    pa, pb = DeckParty(me=0, **kw), DeckParty(me=1, **kw)  # type: ignore[arg-type]
    pb.receive_key(pa.key_message(b""))
    pa.receive_key(pb.key_message(b""))
    pb.receive_shuffle(pa.shuffle_message(b""))
    pa.receive_shuffle(pb.shuffle_message(b""))
    revealed = list(range(8)) + list(range(16, 24))
    pa.receive_shares(revealed, pb.share_message(revealed, b""))
    pa.receive_disclosed_key(pb.disclose_key())
    results.append(
        measure("round_audit", pa.audit, f"decrypt {n} + check {len(revealed)} received shares")
    )
    results.append(
        measure(
            "round_audit_recheck",
            lambda: pa.audit(recheck=True),
            "every key, shuffle and share proof verified again, then the audit",
        )
    )
    # Whole-round crypto traffic: the setup above, then per play one own share (the played card)
    # and both shares of the drawn stock card, one message each, then both disclosed keys.
    per_play = 3 * (32 + 64)
    total = traffic[0] + PLAYS_PER_ROUND * per_play + 2 * 32
    results.append(
        Measurement(
            name="round_traffic",
            median_s=float(total),
            floor_s=float(TRAFFIC_BUDGET),
            ratio=total / TRAFFIC_BUDGET,
            unit="bytes",
            note=f"setup {traffic[0]} + {PLAYS_PER_ROUND} plays x {per_play} + keys 64",
        )
    )
    return results
