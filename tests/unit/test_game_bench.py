"""``koikoi bench match`` runs and reports its four lines (no timing is asserted)."""

from __future__ import annotations

import argparse

from koikoi_p2p.bench import match


def test_bench_match_reports_wall_share_and_bytes() -> None:
    args = argparse.Namespace(rounds=1, repeat=1, seed=3, rules="nintendo", json=True)
    lines = {m.name: m for m in match.run(args)}
    assert set(lines) == {"match.1_rounds", "match.group_share", "match.bytes_per_round", "match.round_trips"}
    trips = lines["match.round_trips"]
    assert trips.median_s > 5 and trips.floor_s > 0 and "per deal setup" in trips.note
    wall = lines["match.1_rounds"]
    assert wall.median_s > 0 and wall.floor_s > 0
    share = lines["match.group_share"]
    assert 0 < share.median_s and share.floor_s == 0.8
    traffic = lines["match.bytes_per_round"]
    assert 10_000 < traffic.median_s < 60_000 and traffic.floor_s == 40_000
