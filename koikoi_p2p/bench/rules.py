"""``koikoi bench rules``: random full rounds per second through the rules engine, on one core.

A round here is the whole thing with every card known (viewer None): a shuffled deal, every
public and private reveal fed to the engine, uniformly random legal actions until the result,
scoring included. The floor is 2,000 rounds per second; the ratio is the measured rate over it
(above 1 meets the floor). One line over all presets in turn, then one per preset.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from koikoi_p2p.bench.report import Measurement
from koikoi_p2p.rules.profile import PRESETS, Profile
from koikoi_p2p.rules.round import RoundState
from koikoi_p2p.rules.simulate import play_round, random_chooser

FLOOR_PER_SECOND = 2000.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per timed batch (default 2000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed batches; the median is kept (default 5)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the simulated deals and moves")


def _batch(profiles: list[Profile], rounds: int, rng: random.Random) -> float:
    """Seconds per round over one batch of random full rounds (deal and shuffle included)."""
    choose = random_chooser(rng)
    start = time.perf_counter()
    for i in range(rounds):
        profile = profiles[i % len(profiles)]
        deck = list(range(48))
        rng.shuffle(deck)
        state = RoundState(profile=profile, dealer=i & 1, viewer=None, round_index=1, month=i % 12 + 1)
        play_round(state, deck, choose)
    return (time.perf_counter() - start) / rounds


def _measure(name: str, profiles: list[Profile], rounds: int, repeat: int, seed: int) -> Measurement:
    rng = random.Random(seed)  # noqa: S311 - simulated deals and moves, nothing secret
    _batch(profiles, max(1, rounds // 10), rng)  # warm-up
    per_round = statistics.median(_batch(profiles, rounds, rng) for _ in range(repeat))
    floor = 1.0 / FLOOR_PER_SECOND
    rate = 1.0 / per_round
    verdict = "meets" if rate >= FLOOR_PER_SECOND else "MISSES"
    return Measurement(
        name=name, median_s=per_round, floor_s=floor, ratio=floor / per_round, unit="s/round",
        note=f"{rate:,.0f} rounds/s on one core; floor {FLOOR_PER_SECOND:,.0f}/s ({verdict}); "
             f"median of {repeat} x {rounds} rounds",
    )


def run(args: argparse.Namespace) -> list[Measurement]:
    rounds = max(1, int(getattr(args, "rounds", 2000)))
    repeat = max(1, int(getattr(args, "repeat", 5)))
    seed = int(getattr(args, "seed", 2026))
    profiles = list(PRESETS.values())
    out = [_measure("random_rounds_all_presets", profiles, rounds, repeat, seed)]
    for name, profile in PRESETS.items():
        out.append(_measure(f"random_rounds_{name}", [profile], rounds, repeat, seed))
    return out
