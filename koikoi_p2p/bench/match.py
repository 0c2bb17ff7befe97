"""``koikoi bench match``: a 12-round selfplay match in memory, both seats in this process.

Three lines: the wall time of the whole match (median of ``--repeat`` runs) against its floor of
group operations (every libsodium group operation of the same seeded match, counted in a separate
run through ``mentalpoker.group.counting_operations``, times its unit cost measured in this run);
the share of the match's time spent in group operations (floor / wall, target at least 0.80); and
the bytes on the wire per round (every game frame of its deals, shuffles, shares, moves, results
and the AEAD/signature overhead; a redeal is charged to its round) against the 40 KB budget.
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
    """Wire bytes of each deal's game frames (deal 0, the first-dealer draw, included as its own)."""
    from koikoi_p2p.protocol import messages as m
    from koikoi_p2p.protocol.channel import HEADER_SIZE
    from koikoi_p2p.protocol.primitives import AEAD_TAG
    from koikoi_p2p.protocol.transcript import decode_transcript

    deals: list[int] = []
    current = 0
    previous = ""
    for env in decode_transcript(transcript).envelopes:
        if env.type == m.KEY and previous != m.KEY and deals is not None:
            deals.append(current)   # a new deal starts: close the previous span
            current = 0
        current += HEADER_SIZE + AEAD_TAG + len(env.signature) + len(env.raw)
        previous = env.type
    deals.append(current)
    # The first span is the terms; fold it into the first deal, then drop nothing else.
    if len(deals) > 1:
        deals[1] += deals[0]
        deals = deals[1:]
    return deals


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
    ]
