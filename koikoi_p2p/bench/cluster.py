"""A relay cluster on this machine for benchmarks and tests: a real ``redis-server`` and relay nodes.

``RedisProcess`` starts the Debian ``redis-server`` on a loopback port with persistence off
(``--save '' --appendonly no``) and kills it by its pid; ``start_node`` starts one relay node
(``python -m koikoi_relay --redis URL``) on a loopback port. Nothing here talks to any other host.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

REDIS_PACKAGE = "redis-server"   # the Debian package that has the binary
BANNER = "relay listening on ws://"


def redis_server_binary() -> str | None:
    return shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def redis_ping(port: int, timeout: float = 0.5) -> bool:
    """Whether a Redis answers PING on this loopback port (plain RESP over a socket)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class RedisProcess:
    """``redis-server`` as a child process on a fixed loopback port, so it can be killed and restarted."""

    def __init__(self, port: int = 0) -> None:
        binary = redis_server_binary()
        if binary is None:
            raise RuntimeError(f"redis-server is not installed (Debian package {REDIS_PACKAGE})")
        self.binary = binary
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.restarts = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, timeout: float = 15.0, own_session: bool = False) -> None:
        """``own_session``: in a session of its own (see koikoi_p2p.bench.hostile)."""
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                   "--appendonly", "no", "--daemonize", "no", "--logfile", "", "--loglevel", "warning",
                   "--databases", "1"]
        deadline = time.monotonic() + timeout
        while True:
            self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,  # noqa: S603
                                         stdin=subprocess.DEVNULL, start_new_session=own_session)
            while time.monotonic() < deadline and self.proc.poll() is None:
                if redis_ping(self.port):
                    return
                time.sleep(0.02)
            self.proc.kill()
            self.proc.wait()
            if time.monotonic() >= deadline:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.2)   # the port of a killed server may take a moment to free

    def kill(self) -> None:
        """SIGKILL: everything in it is lost (persistence is off)."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        self.kill()
        self.restarts += 1
        self.start()

    def __enter__(self) -> RedisProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


def node_command(redis_url: str, port: int = 0, *extra: str, prefix: str = "koikoi:") -> list[str]:
    return [sys.executable, "-m", "koikoi_relay", "--port", str(port), "--redis", redis_url,
            "--redis-prefix", prefix, *extra]


def start_node(redis_url: str, port: int = 0, *extra: str, prefix: str = "koikoi:",
               stderr: int | None = subprocess.DEVNULL, own_session: bool = False,
               ) -> tuple[subprocess.Popen[str], int]:
    """One relay node process; returns it and its port once it listens (``own_session``: in a
    session of its own)."""
    proc = subprocess.Popen(  # noqa: S603
        node_command(redis_url, port, *extra, prefix=prefix), stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL, stderr=stderr, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=own_session)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if BANNER not in line:
        proc.kill()
        proc.wait()
        raise RuntimeError(f"the relay node did not start: {line!r}")
    return proc, int(line.rsplit(":", 1)[1].split("/")[0])


def stop(proc: subprocess.Popen[str], timeout: float = 15.0) -> None:
    """SIGTERM (a graceful relay shutdown), SIGKILL if it does not end in time."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    with contextlib.suppress(Exception):
        if proc.stdout is not None:
            proc.stdout.close()
