"""The relay cluster as real processes: redis-server and relay nodes, killed mid-match.

A selfplay match with its seats on two nodes verifies; a node killed with SIGKILL mid-deal
lets its seat resume on the other node with nothing lost or repeated (the soak's own
accounting: identical, verified, co-signed transcripts); Redis killed and restarted mid-match
ends in a completed match all the same (the rooms end with ``resume_gap`` and the peers' link
pairs them again); and ``koikoi bench soak --cluster 2`` classifies every match.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from koikoi_p2p.bench.cluster import RedisProcess, start_node, stop
from koikoi_p2p.bench.soak import ClusterProcesses, Fault, MatchRecord, SoakConfig, run_match, soak, summarize
from koikoi_p2p.net.chaos import ChaosConfig, ChaosProxy
from tests.conftest import need_redis_server
from tests.e2e.test_relay_limits import _http_get

ROOT = Path(__file__).resolve().parents[2]
CONFIG = SoakConfig(step_deadline=10, dead_after_s=1.5, resend_after_s=0.7, match_timeout_s=120)


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 300))


@pytest.fixture
def two_nodes(redis_process: RedisProcess) -> Iterator[list[int]]:
    nodes = [start_node(redis_process.url) for _ in range(2)]
    try:
        yield [port for _, port in nodes]
    finally:
        for proc, _ in nodes:
            stop(proc)


def test_selfplay_with_the_host_on_one_node_and_the_joiner_on_another(two_nodes: list[int],
                                                                      tmp_path: Path) -> None:
    transcript = tmp_path / "match.koikoi"
    done = subprocess.run(
        [sys.executable, "-m", "koikoi_p2p", "selfplay", "--rounds", "1", "--seed", "13", "--json",
         "--relay", f"ws://127.0.0.1:{two_nodes[0]}", "--join-relay", f"ws://127.0.0.1:{two_nodes[1]}",
         "--transcript", str(transcript)],
        cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["ok"] is True and summary["identical_transcripts"] is True
    verified = subprocess.run([sys.executable, "-m", "koikoi_p2p", "verify", str(transcript)],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr

    async def frames_on_each_node() -> None:
        for port in two_nodes:
            _, metrics = await _http_get(port, "/metrics")
            forwarded = next(line for line in metrics.splitlines()
                             if line.startswith("relay_frames_forwarded"))
            assert int(forwarded.split()[1]) > 0   # each node carried its own seat's frames

    run(frames_on_each_node())


async def _cluster_match(tmp: Path, fault: Fault) -> tuple[MatchRecord, ClusterProcesses, list[int]]:
    cluster = ClusterProcesses(2)
    await cluster.start()
    upstreams = cluster.urls
    proxies = [ChaosProxy(upstreams[i:] + upstreams[:i], ChaosConfig(), seed=i) for i in range(2)]
    resumes: list[int] = []
    try:
        for proxy in proxies:
            await proxy.start()
        record = await run_match(0, fault, url=[p.url + "/v1" for p in proxies], workdir=tmp, config=CONFIG,
                                 proxy=proxies, cluster=cluster, nodes=(0, 1))
        _, metrics = await _http_get(cluster.nodes[1].port, "/metrics")
        resumes.append(int(next(line for line in metrics.splitlines()
                                if line.startswith("relay_resumes_total")).split()[1]))
        return record, cluster, resumes
    finally:
        for proxy in proxies:
            await proxy.close()
        await cluster.close()


def test_a_node_killed_mid_deal_lets_the_host_resume_on_the_other_node(tmp_path: Path) -> None:
    need_redis_server()

    async def body() -> None:
        record, cluster, resumes = await _cluster_match(tmp_path, Fault(victim=0, node_kill_phase="drawing"))
        assert record.verdict == "completed", record.detail
        assert record.node_kills == 1 and cluster.node_kills == 1
        assert record.lost == 0 and record.messages > 0
        assert resumes[0] >= 1   # the host's seat came back on node 2, by its token

    run(body())


def test_redis_killed_and_restarted_mid_match_loses_nothing(tmp_path: Path) -> None:
    need_redis_server()

    async def body() -> None:
        record, cluster, _ = await _cluster_match(tmp_path, Fault(relay_restart_phase="playing"))
        assert record.verdict == "completed", record.detail
        assert record.relay_restarts == 1 and cluster.redis.restarts == 1
        assert record.lost == 0

    run(body())


def test_small_cluster_soak_with_node_kills(tmp_path: Path) -> None:
    need_redis_server()
    # A 20 s step deadline: after a Redis restart and a node kill under CI's load, one match's
    # seats once both gave up at 10 s, each still waiting for the other's re-sent message.
    config = dataclasses.replace(CONFIG, matches=4, concurrency=2, seed=5, cluster=2, node_kills=2,
                                 relay_restarts=1, max_seconds=300, step_deadline=20)

    async def body() -> None:
        records, figures = await soak(config, tmp_path)
        found = {m.name: m for m in summarize(records, figures, config.matches)}
        assert len(records) == 4
        assert found["soak_messages_lost"].median_s == 0
        assert found["soak_wrong_or_unfinished"].median_s == 0, found["soak_wrong_or_unfinished"]
        assert (found["soak_completed_cosigned"].median_s + found["soak_abandoned_classified"].median_s
                + found["soak_killed_before_signing"].median_s) == 4
        assert figures["node_kills"] == 2 and figures["relay_restarts"] == 1

    run(body())
