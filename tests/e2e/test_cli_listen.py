"""A server command that cannot listen says so in one line and exits 1, never with a traceback: its
port taken by another program, a host name that does not resolve; a port outside 0..65535 is a
command-line error (exit 2). `koikoi relay`, `koikoi ratings serve` and `koikoi web` alike."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def taken() -> Iterator[int]:
    """A loopback port another program listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


def _koikoi(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KOIKOI_HOME": str(tmp_path / "home"), "PYTHONUNBUFFERED": "1"}
    return subprocess.run([sys.executable, "-m", "koikoi_p2p.cli.main", *args], capture_output=True,
                          text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("command", [
    ["relay", "--port", "{port}"],
    ["relay", "--port", "0", "--ratings", "default", "--ratings-port", "{port}"],
    ["ratings", "serve", "--port", "{port}"],
    ["web", "--port", "{port}"],
])
def test_a_port_in_use_is_one_clear_line(tmp_path: Path, taken: int, command: list[str]) -> None:
    done = _koikoi(tmp_path, *(part.format(port=taken) for part in command))
    assert done.returncode == 1, done
    assert "Traceback" not in done.stderr, done.stderr
    assert "cannot listen" in done.stderr and "address already in use" in done.stderr
    assert str(taken) in done.stderr
    if "--ratings-port" in command:
        # The port of the service beside the relay, and the flag that moves it (terminal QA).
        assert "the rating service beside the relay cannot listen" in done.stderr
        assert "(choose its port with --ratings-port)" in done.stderr


def test_a_host_that_does_not_resolve(tmp_path: Path) -> None:
    done = _koikoi(tmp_path, "relay", "--host", "nowhere.invalid", "--port", "0")   # RFC 6761
    assert done.returncode == 1, done
    assert "Traceback" not in done.stderr and "does not resolve" in done.stderr


@pytest.mark.parametrize("command", [["relay", "--port"], ["relay", "--port", "0", "--ratings-port"],
                                     ["ratings", "serve", "--port"], ["web", "--port"]])
@pytest.mark.parametrize("port", ["70000", "-1", "http"])
def test_a_port_outside_the_range_is_a_command_line_error(tmp_path: Path, command: list[str],
                                                          port: str) -> None:
    done = _koikoi(tmp_path, *command, port)
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr and "--port" in done.stderr
