"""Two ``koikoi selfplay --relay`` peers finish a match through a real relay process."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_selfplay_match_through_the_relay_process() -> None:
    relay = subprocess.Popen(
        [sys.executable, "-m", "koikoi_relay", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )
    try:
        assert relay.stdout is not None
        line = relay.stdout.readline()
        url = line.split(" on ", 1)[1].strip()
        assert url.startswith("ws://127.0.0.1:") and url.endswith("/v1")
        done = subprocess.run(
            [sys.executable, "-m", "koikoi_p2p", "selfplay", "--rounds", "2", "--seed", "11", "--relay", url,
             "--json"],
            cwd=ROOT, capture_output=True, text=True, timeout=240,
        )
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout)
        assert summary["ok"] is True and summary["failure"] is None
        assert summary["identical_transcripts"] is True
        assert len(summary["rounds"]) >= 1
    finally:
        relay.send_signal(signal.SIGTERM)
        _, stderr = relay.communicate(timeout=20)
    assert relay.returncode == 0
    assert "event=room_created" in stderr and "event=room_joined" in stderr
