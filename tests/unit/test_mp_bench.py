"""``koikoi bench crypto`` runs and reports floors counted from real group operations."""

from __future__ import annotations

import argparse

from koikoi_p2p.bench import crypto


def test_bench_crypto_reports_every_step_with_a_positive_floor() -> None:
    results = crypto.run(argparse.Namespace(repeat=1, cards=24, json=True))
    names = [m.name for m in results]
    assert names == [
        "shuffle_prove_24",
        "shuffle_verify_24",
        "dleq_prove_1",
        "dleq_verify_1",
        "dleq_prove_8",
        "dleq_verify_8",
        "round_setup",
        "round_audit",
        "round_audit_recheck",
        "round_traffic",
    ]
    for m in results:
        assert m.floor_s > 0 and m.median_s > 0
        assert abs(m.ratio - m.median_s / m.floor_s) < 1e-9
    traffic = results[-1]
    assert traffic.unit == "bytes" and traffic.floor_s == 40_000


def test_the_floor_is_the_fastest_unit_sample_of_the_window() -> None:
    """Interleaved: one unit sample after each run; the floor cannot exceed what any run needs."""
    calls: list[str] = []

    def step() -> None:
        calls.append("step")

    def unit() -> None:
        calls.append("unit")

    median, floor = crypto.interleaved(step, {"op": 2, "unused": 0}, {"op": unit}, runs=3)
    assert calls[0] == "step" and calls.count("step") == 3
    assert calls[1:21] == ["unit"] * 20 and calls[21] == "step"   # a unit batch after each run
    assert median >= 0 and floor > 0
