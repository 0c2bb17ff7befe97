"""``koikoi bench audit`` runs, and its verifiers (threaded, one thread, version 1's) agree
(never a timed assertion)."""

from __future__ import annotations

import argparse
from pathlib import Path

from koikoi_p2p.bench.audit import run

VECTOR = Path(__file__).resolve().parents[2] / "spec/vectors/protocol/match_nintendo_seed1.transcript"


def test_bench_audit_on_the_recorded_match() -> None:
    rows = run(argparse.Namespace(transcript=str(VECTOR), repeat=1))
    names = [row.name for row in rows]
    assert names == ["verify_vs_v1", "verify_vs_v1_cpu", "verify_serial_vs_v1", "verify_serial_vs_v1_cpu",
                     "verify_floor", "v1_floor"]
    assert all(row.median_s > 0 and row.floor_s > 0 for row in rows)
    # The counts in the notes: the current verifier validates almost nothing twice.
    assert "validate" in rows[5].note and "mult" in rows[4].note
