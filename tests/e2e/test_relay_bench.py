"""The relay benchmark runs end to end on a tiny scale (numbers are reported, never asserted)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from koikoi_p2p.bench.relay import run


def test_bench_relay_tiny_run() -> None:
    args = argparse.Namespace(quick=True, duration=0.3, connections=40, rooms="1,3", json=True)
    results = run(args)
    assert [m.name for m in results] == [
        "relay_frames_per_s_1_rooms", "relay_cpu_us_per_frame_1_rooms", "relay_user_cpu_us_per_frame_1_rooms",
        "relay_frames_per_s_3_rooms", "relay_cpu_us_per_frame_3_rooms", "relay_user_cpu_us_per_frame_3_rooms",
        "relay_rss_per_idle_conn_40",
    ]
    for m in (results[0], results[3]):
        assert m.median_s > 0 and m.floor_s > 0 and m.ratio > 0


def test_bench_relay_cluster_tiny_run(redis_url: str) -> None:
    """``--cluster 1,2``: the cluster lines come beside the relay's (each starts its own redis-server)."""
    args = argparse.Namespace(quick=True, duration=0.3, connections=20, rooms="2", json=True, cluster="1,2")
    results = {m.name: m for m in run(args)}
    for name in ("relay_latency_s_2_rooms", "cluster1_latency_s_2_rooms", "cluster2_latency_s_2_rooms",
                 "cluster1_frames_per_s_2_rooms", "cluster2_cpu_us_per_frame_2_rooms"):
        assert results[name].median_s > 0 and results[name].floor_s > 0, name


def test_bench_relay_hostile_code_path() -> None:
    """``--hostile`` on a token scale: honest pairs time round trips while every kind of attacker
    runs once (one address each); the figures are the bench's, only their shape is checked here."""
    from koikoi_p2p.bench.hostile import measure

    calm = measure(False, 2, False, 1.0)
    under = measure(False, 2, True, 2.0, small=True)
    for result in (calm, under):
        assert result["count"] > 0 and result["p99"] >= result["p50"] > 0
        assert result["rss"] > 0 and result["broken"] == 0 and result["cpu"] >= 0
    assert under["attack"]["ready"] >= 1 and under["buffered"] > 0
    assert under["held"] >= under["buffered"] and under["inbound"] >= 0 and under["relay_rss"] > 0


def test_bench_relay_hostile_runs_the_attacks_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """KOIKOI_BENCH_ATTACKS picks attacks to see what each costs alone; a misspelt one is refused,
    not read as "none" (a run without attackers would pass for a hostile one)."""
    from koikoi_p2p.bench.hostile import ATTACKS, ATTACKS_ENV, attacks_wanted

    monkeypatch.delenv(ATTACKS_ENV, raising=False)
    assert attacks_wanted() == ATTACKS
    monkeypatch.setenv(ATTACKS_ENV, "storm, lobby")
    assert attacks_wanted() == {"storm", "lobby"}
    for wrong in ("buffer", ",", "storm,flood"):
        monkeypatch.setenv(ATTACKS_ENV, wrong)
        with pytest.raises(ValueError, match="unknown attack"):
            attacks_wanted()


def test_bench_relay_hostile_places_redis_where_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """By default a cluster's Redis shares the nodes' CPUs; ``redis-apart`` puts it on the clients'
    half; ``shared`` pins nothing; a misspelt placement is refused, not read as the default."""
    from koikoi_p2p.bench import hostile

    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3})  # the os hostile.placement reads
    monkeypatch.delenv(hostile.PLACEMENT_ENV, raising=False)
    assert hostile.placement() == ({0, 1}, {2, 3}, {0, 1})
    monkeypatch.setenv(hostile.PLACEMENT_ENV, "redis-apart")
    assert hostile.placement() == ({0, 1}, {2, 3}, {2, 3})
    monkeypatch.setenv(hostile.PLACEMENT_ENV, "shared")
    assert hostile.placement() is None
    monkeypatch.setenv(hostile.PLACEMENT_ENV, "apart")
    with pytest.raises(ValueError, match="unknown placement"):
        hostile.placement()


def test_bench_relay_hostile_runs_redis_before_its_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cluster's Redis runs REDIS_NICE less nice than its nodes, itself and its session's group (the
    share deploy/ gives it); where the system refuses (no CAP_SYS_NICE) nothing changes and the
    report says so."""
    from koikoi_p2p.bench import hostile

    monkeypatch.delenv(hostile.PRIORITY_ENV, raising=False)
    own = os.getpriority(os.PRIO_PROCESS, 0)   # the child starts at this test's own nice value
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    group = Path(f"/proc/{child.pid}/autogroup")
    try:
        assert hostile._prioritise(child.pid) is True          # the nodes: left as they are
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == own
        if hostile._prioritise(child.pid, hostile.REDIS_NICE):
            assert os.getpriority(os.PRIO_PROCESS, child.pid) == hostile.REDIS_NICE
            if group.exists():
                assert group.read_text().split()[-1] == str(hostile.REDIS_NICE)
            monkeypatch.setenv(hostile.PRIORITY_ENV, "-18")   # with the relay's own nice: at most -20
            assert hostile._prioritise(child.pid, hostile.REDIS_NICE) is True
            assert os.getpriority(os.PRIO_PROCESS, child.pid) == -20
        else:
            assert os.geteuid() != 0 or os.environ.get("CI") != "true", "CI runs as root: Redis first"
        # A group that refuses the value (out of range) is reported, not taken as done.
        assert hostile._group_nice(child.pid, 100) is (not group.exists())
    finally:
        child.kill()
        child.wait()
    every = hostile.redis_said({False: [{"redis_first": True}], True: [{"redis_first": True}]})
    assert "as deploy/ runs it" in every and "not as" not in every
    said = hostile.redis_said({False: [{"redis_first": True}], True: [{"redis_first": False}]})
    assert "1 of 2 runs" in said and "not as deploy/ runs it" in said


def test_bench_relay_hostile_counts_the_budget_as_the_nodes_do() -> None:
    """spec/relay.md §13.6: a node's budget counts its own connections and the other nodes' bytes in
    flight, not their connections; the bench compares the node that counts the most."""
    from koikoi_p2p.bench.hostile import budget_count

    assert budget_count([(5000, 4000)]) == 5000            # one relay: all it holds
    # node 0 holds 3,000 of which 1,000 in flight; node 1 4,000 of which 3,000 in flight
    assert budget_count([(3000, 1000), (4000, 3000)]) == max(3000 + 3000, 4000 + 1000)


def test_bench_relay_hostile_reads_the_relays_pause_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With KOIKOI_RELAY_PAUSES the relay records its collector passes and late ticks
    (koikoi_relay/pauses.py) and the bench says what of them fell in its window."""
    from koikoi_p2p.bench.hostile import PAUSES_ENV, measure

    monkeypatch.setenv(PAUSES_ENV, str(tmp_path))
    monkeypatch.setenv("KOIKOI_RELAY_PAUSES_OBJECTS", "1")
    result = measure(False, 2, True, 2.0, small=True)
    found = result["pauses"]
    assert set(found["gc"]) == {"0", "1", "2"} and found["slow"] >= 1
    assert len(found["objects"]) == 3 and sum(found["objects"]) > 0
    records = [json.loads(line) for path in tmp_path.glob("relay-*.jsonl") for line in path.open()]
    assert "summary" in records[-1]
