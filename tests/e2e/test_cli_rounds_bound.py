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


@pytest.mark.parametrize("timeout", ["-1", "0", "soon"])
def test_a_lobby_timeout_that_is_no_time_is_a_usage_error(tmp_path: Path, timeout: str) -> None:
    """`koikoi lobby --timeout` takes 1 s to a day, like the other commands' times; a negative or
    zero one used to be tried and fail as an unreachable relay (exit 3)."""
    env = {**os.environ, "KOIKOI_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-m", "koikoi_p2p.cli.main", "lobby", "--timeout", timeout],
                          capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr and "--timeout" in done.stderr, done.stderr
