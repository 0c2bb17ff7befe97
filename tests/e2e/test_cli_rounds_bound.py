"""`--rounds` beyond what the rules take (an integer switch is at most 10,000) is a command-line
error (exit 2) for every command that takes it, not a traceback out of the rules."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("command", ["practice", "selfplay", "host"])
@pytest.mark.parametrize("rounds", ["10001", "0"])
def test_rounds_out_of_range_is_a_usage_error(tmp_path: Path, command: str, rounds: str) -> None:
    env = {**os.environ, "KOIKOI_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-m", "koikoi_p2p.cli.main", command, "--rounds", rounds],
                          capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr and "--rounds" in done.stderr, done.stderr
