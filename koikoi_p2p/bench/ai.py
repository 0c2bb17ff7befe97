"""``koikoi bench ai``: the strong computer player against the random one, over whole matches.

Played through the rules engine alone (no crypto): this measures the player, not the protocol.
The baseline of the same run is random against random, whose win rate sits near one half; the
strong player's target is a win rate of at least 0.8 (draws count as not won).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from koikoi_p2p.ai.arena import play_local_match
from koikoi_p2p.ai.strategy import RandomPlayer, Strategy
from koikoi_p2p.ai.strong import StrongPlayer
from koikoi_p2p.bench.report import Measurement
from koikoi_p2p.rules.profile import preset

TARGET = 0.8


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--matches", type=int, default=200, help="matches per pairing (default 200)")
    parser.add_argument("--rules", default="nintendo", help="rule preset (default nintendo)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deals and the players")


def _series(
    make: Callable[[int], tuple[Strategy, Strategy]], matches: int, rules: str, seed: int
) -> tuple[float, float, float]:
    """(win rate of the first player, draw rate, seconds per match); it sits in both seats in turn."""
    profile = preset(rules)
    rng = random.Random(seed)  # noqa: S311 - simulated deals, nothing secret
    wins = draws = 0
    start = time.perf_counter()
    for i in range(matches):
        first, second = make(i)
        seat = i % 2
        players = (first, second) if seat == 0 else (second, first)
        record = play_local_match(profile, players, rng)
        if record.winner == seat:
            wins += 1
        elif record.winner is None:
            draws += 1
    elapsed = time.perf_counter() - start
    return wins / matches, draws / matches, elapsed / matches


def run(args: argparse.Namespace) -> list[Measurement]:
    matches = max(1, int(getattr(args, "matches", 200)))
    rules = str(getattr(args, "rules", "nintendo"))
    seed = int(getattr(args, "seed", 2026))
    profile = preset(rules)
    strong, strong_draws, strong_s = _series(
        lambda i: (StrongPlayer(profile, seed=seed + i), RandomPlayer(seed + 100_000 + i)),
        matches, rules, seed,
    )
    base, base_draws, base_s = _series(
        lambda i: (RandomPlayer(seed + 200_000 + i), RandomPlayer(seed + 300_000 + i)), matches, rules, seed
    )
    verdict = "meets" if strong >= TARGET else "MISSES"
    return [
        Measurement(
            name="strong_vs_random_win_rate",
            median_s=strong,
            floor_s=base,
            ratio=strong / base if base else float("inf"),
            unit="win_rate",
            note=(
                f"{matches} {rules} matches, seats alternate; draws {strong_draws:.3f}; floor = random vs "
                f"random win rate {base:.3f} (draws {base_draws:.3f}); target >= {TARGET} ({verdict})"
            ),
        ),
        Measurement(
            name="match_seconds_strong_vs_random",
            median_s=strong_s,
            floor_s=base_s,
            ratio=strong_s / base_s if base_s else float("inf"),
            unit="s",
            note="mean seconds per whole match; floor = random vs random",
        ),
    ]
