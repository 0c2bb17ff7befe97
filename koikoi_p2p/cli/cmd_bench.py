"""``koikoi bench WHAT [--json]``: speed measured against a floor or baseline of the same run.

Each benchmark is a module ``koikoi_p2p.bench.<what>`` with ``run(args) -> list[Measurement]``
and optionally ``add_arguments(parser)`` for its own options. Heavy work (servers, processes,
matches) happens only inside ``run``, so building the parser stays cheap.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from koikoi_p2p.bench.report import render

BENCHMARKS: dict[str, str] = {
    "crypto": "the 48-card shuffle, its proof and verification, DLEQ shares, a round setup",
    "rules": "random full rounds per second through the rules engine",
    "relay": "relay throughput and memory per connection against a minimal forwarder",
    "match": "a 12-round selfplay match in memory: time in group operations, bytes per round",
    "audit": "koikoi verify of a 12-round transcript against version 1's verifier, and its floor",
    "ai": "the strong computer player against the random one over nintendo matches",
    "soak": "selfplay matches through the relay and a chaos proxy with random kills",
    "ratings": "rated selfplay matches through a relay serving ratings: every result counted once, "
               "the leaderboard equal to a recomputation of the export",
    "latency": "round trips, decision-to-screen time and per-envelope overhead of the crash-safe path "
               "through a relay and a delay proxy",
    "differential": "Python against JavaScript seats in seeded matches (presets, switch sets, levels, "
                    "forced rare deals), every transcript judged by both auditors: disagreements and "
                    "failed matches (not in CI)",
    "waits": "the waits a player feels in browser practice (Start to the first hand, a deal's summary "
             "to the next hand) and the bytes the crash-safe journal writes per match at 6 and 12 rounds",
}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure speed against a floor or baseline measured in the same run",
        description="Run one benchmark. Results are ratios against a floor or baseline of the same run.",
    )
    bench_sub = parser.add_subparsers(dest="bench", metavar="WHAT")
    for name, text in BENCHMARKS.items():
        sub = bench_sub.add_parser(name, help=text, description=text)
        sub.add_argument("--json", action="store_true", help="print a JSON list of measurements")
        module = importlib.import_module(f"koikoi_p2p.bench.{name}")
        add_arguments = getattr(module, "add_arguments", None)
        if add_arguments is not None:
            add_arguments(sub)
        sub.set_defaults(handler=_runner(module))
    parser.set_defaults(handler=lambda args: (parser.print_help(), 2)[1])


def _runner(module: Any) -> Any:
    def handler(args: argparse.Namespace) -> int:
        measurements = module.run(args)
        print(render(measurements, args.json))
        return 0

    return handler
