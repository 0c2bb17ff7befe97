"""kill -9 of the service while submissions are in flight (spec/ratings.md §5.3): after a restart
every result that was answered "counted" is there, none is there twice, and the standings equal
a recomputation of the export. On both backends, with the real `koikoi ratings serve` process."""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.ratings import client
from koikoi_p2p.ratings.board import recompute
from koikoi_p2p.ratings.checks import check_result
from tests.ratings.support import signed

PLAYERS = [Identity.generate() for _ in range(6)]
ROOT = Path(__file__).resolve().parents[2]


def start_service(db: str, home: Path) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "KOIKOI_HOME": str(home), "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable,
        "-m",
        "koikoi_p2p",
        "ratings",
        "serve",
        "--db",
        db,
        "--port",
        "0",
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("ratings listening on http://"), line
    return process, line.split()[3].removesuffix("/ratings")


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        process.wait(timeout=30)


def test_kill_9_mid_submission_loses_nothing_and_counts_nothing_twice(store_url: str, tmp_path: Path) -> None:
    results = [
        signed(PLAYERS[i % 6], PLAYERS[(i % 6 + 1 + i % 5) % 6], winner=None if i % 7 == 0 else i % 2)
        for i in range(80)
    ]
    sessions = [check_result(r).session for r in results]
    service, url = start_service(store_url, tmp_path)
    counted_before_kill: set[bytes] = set()
    answered = threading.Event()
    lock = threading.Lock()

    def submit(index: int) -> None:
        try:
            answer = client.submit_result(url, results[index], patience=0)
        except client.ServiceUnreachable:
            return
        if answer.status == 200 and answer.body.get("counted") is True:
            with lock:
                counted_before_kill.add(sessions[index])
                if len(counted_before_kill) >= 25:
                    answered.set()

    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            futures = [pool.submit(submit, i) for i in range(len(results))]
            answered.wait(timeout=120)
            os.kill(service.pid, signal.SIGKILL)
            service.wait(timeout=30)
            for future in futures:
                future.result()
        assert 25 <= len(counted_before_kill) < len(results)  # the kill came mid-stream
    finally:
        stop(service)

    service, url = start_service(store_url, tmp_path)
    try:
        export = client.export(url).body
        entries = export["results"]
        assert isinstance(entries, list)
        stored = {check_result(base64.b64decode(entry["result"])).session for entry in entries}
        assert counted_before_kill <= stored  # nothing answered "counted" was lost
        assert len(stored) == len(entries)  # and nothing counted twice
        again = [client.submit_result(url, data) for data in results]
        assert all(a.status == 200 for a in again)
        assert {s for s, a in zip(sessions, again, strict=True) if a.body["counted"] is False} == stored
        board = client.leaderboard(url).body
        assert board["results"] == len(results)
        assert recompute(client.export(url).body).board == board
    finally:
        stop(service)
