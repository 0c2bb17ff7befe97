"""``koikoi bench match``: a 12-round selfplay match in memory, both seats in this process.

Four lines: the wall time of the whole match (median of ``--repeat`` runs) against its floor of
group operations (every libsodium group operation of the same seeded match, counted in a separate
run through ``mentalpoker.group.counting_operations``, times its unit cost measured in this run);
the share of the match's time spent in group operations (floor / wall, target at least 0.80); and
the bytes on the wire per round (every game frame of its deals, shuffles, shares, moves, results
and the AEAD/signature overhead; a redeal is charged to its round) against the 40 KB budget;
and the sequential round trips of the match, counted on its transcript by
``koikoi_p2p.protocol.trips`` (changes of sender, with the per-phase figures), against 130 per
12 rounds (issue 12).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Callable

from koikoi_p2p.bench.report import Measurement

TRAFFIC_BUDGET = 40_000
GROUP_SHARE_TARGET = 0.80
ROUND_TRIP_BUDGET_12 = 130       # issue 12: sequential round trips of a 12-round match


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rounds", type=int, default=12, help="rounds of the match (default 12)")
    parser.add_argument("--repeat", type=int, default=3, help="timed matches (median)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the match (same in every run)")
    parser.add_argument("--rules", default="nintendo", help="rule preset")


def _unit_costs(samples: dict[str, Callable[[], object]], loops: int = 400) -> dict[str, float]:
    costs = {}
    for name, fn in samples.items():
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(loops):
                fn()
            runs.append((time.perf_counter() - start) / loops)
        costs[name] = statistics.median(runs)
    return costs


def _bytes_per_deal(transcript: bytes) -> list[int]:
    """Wire bytes of each deal's game frames (index 0: the terms and the first-dealer draw)."""
    from koikoi_p2p.protocol.transcript import decode_transcript
    from koikoi_p2p.protocol.trips import bytes_per_deal

    return bytes_per_deal(decode_transcript(transcript).envelopes)


def run(args: argparse.Namespace) -> list[Measurement]:
    from koikoi_p2p.net.selfplay import selfplay
    from mentalpoker import group

    rounds = int(getattr(args, "rounds", 12))
    repeat = max(1, int(getattr(args, "repeat", 3)))
    seed = int(getattr(args, "seed", 2024))
    rules = str(getattr(args, "rules", "nintendo"))

    def play() -> bytes:
        played = asyncio.run(selfplay(rounds=rounds, seed=seed, rules=rules))
        for outcome in played.outcomes:
            if outcome.failure is not None:
                raise SystemExit(f"koikoi bench match: the match failed: {outcome.failure.reason}")
        return played.transcripts[0]

    transcript = play()  # warm caches (card points, generators) outside the timing
    with group.counting_operations() as counts:
        play()
    samples = group.primitive_samples()
    before = _unit_costs(samples)
    walls = []
    for _ in range(repeat):
        start = time.perf_counter()
        play()
        walls.append(time.perf_counter() - start)
    wall = statistics.median(walls)
    # Unit costs measured on both sides of the timed runs, so a load change on a shared machine
    # weighs on the floor as it does on the wall time.
    after = _unit_costs(samples)
    units = {name: (before[name] + after[name]) / 2 for name in before}
    floor = sum(counts[name] * units[name] for name in counts)
    share = floor / wall
    from koikoi_p2p.protocol.trips import transcript_trips

    trips = transcript_trips(transcript)
    trip_budget = ROUND_TRIP_BUDGET_12 * rounds / 12 if rounds else ROUND_TRIP_BUDGET_12
    per_deal = _bytes_per_deal(transcript)
    deals = len(per_deal) - 1          # the first span is the first-dealer draw (with the terms)
    play_deals = per_deal[1:] or per_deal
    # Per round played: a redeal's traffic is charged to the round it repeats.
    mean_bytes = sum(play_deals) / max(1, rounds)
    return [
        Measurement(name=f"match.{rounds}_rounds", median_s=wall, floor_s=floor, ratio=wall / floor,
                    note=f"wall time of the whole match vs its group operations; {deals} deals, "
                         f"{sum(counts.values())} group operations"),
        Measurement(name="match.group_share", median_s=share, floor_s=GROUP_SHARE_TARGET,
                    ratio=share / GROUP_SHARE_TARGET, unit="share",
                    note=f"share of the match's time in group operations (target >= {GROUP_SHARE_TARGET})"),
        Measurement(name="match.bytes_per_round", median_s=mean_bytes, floor_s=TRAFFIC_BUDGET,
                    ratio=mean_bytes / TRAFFIC_BUDGET, unit="bytes",
                    note=f"wire bytes per round ({deals} deals, max {max(play_deals)} per deal; "
                         f"first-dealer draw {per_deal[0]} once) vs the {TRAFFIC_BUDGET}-byte budget"),
        # Counted on the transcript (changes of sender / 2, spec/game.md §5.8), not timed.
        Measurement(name="match.round_trips", median_s=trips.round_trips, floor_s=trip_budget,
                    ratio=trips.round_trips / trip_budget, unit="round trips",
                    note=f"sequential round trips of the match vs {trip_budget:g} (130 per 12 rounds): "
                         f"start {trips.by_phase['start'] / 2:g}, per deal setup {trips.per_setup():.2f} "
                         f"(max {max(trips.setups, default=0) / 2:g}), per closing {trips.per_closing():.2f} "
                         f"(max {max(trips.closings, default=0) / 2:g}), per turn {trips.per_turn():.2f}; "
                         f"{trips.envelopes} envelopes"),
    ]
