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


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_host_timeout_under_ten_seconds_is_a_usage_error(tmp_path: Path, lang: str) -> None:
    """`koikoi host --timeout` is also the joiner's time to read the terms (spec/game.md §7.1): under
    10 s (the browser's least) it is refused in words, in the screens' language, before anything
    is printed or any relay is tried (it took 1 s)."""
    env = {**os.environ, "KOIKOI_HOME": str(tmp_path / "home")}
    # (0.5 too: it got argparse's untranslated "between 1 and 86400", against the help's 10 (review).)
    for given in ("9.5", "0.5"):
        done = subprocess.run([sys.executable, "-m", "koikoi_p2p.cli.main", "host", "--relay", "ws://127.0.0.1:9",
                               "--timeout", given, "--lang", lang],
                              capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
        assert done.returncode == 2, done
        assert done.stdout == "" and f"--timeout {given}" in done.stderr and "10" in done.stderr, done.stderr
        if lang == "en":
            assert "at least 10 seconds" in done.stderr
        else:
            assert "seconds" not in done.stderr and "秒" in done.stderr, done.stderr
