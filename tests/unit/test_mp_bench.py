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
