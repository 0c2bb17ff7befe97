"""A real PostgreSQL server for the tests: initdb in a temporary folder, the server on a free
loopback port, stopped by its pid. As root (CI) the server runs as the unprivileged `postgres`
user that Debian's package creates, since PostgreSQL refuses to run as root."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

PACKAGE = "postgresql"


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _missing(reason: str) -> None:
    message = f"PostgreSQL tests need the Debian package `{PACKAGE}` ({reason})"
    if os.environ.get("CI") == "true":
        pytest.fail(message + ": .ci/run installs it", pytrace=False)
    pytest.skip(message)


class PostgresServer:
    def __init__(self, root: Path, port: int, process: subprocess.Popen[bytes],
                 start: Callable[[], subprocess.Popen[bytes]] | None = None) -> None:
        self.root, self.port, self.process = root, port, process
        self._start = start
        self._databases = 0

    def restart(self) -> None:
        """Stop the server ("fast" shutdown, as `pg_ctl stop -m fast`) and start it again on the
        same data folder and port; returns once it takes connections."""
        self.stop_fast()
        self.start_again()

    def stop_fast(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=60)

    def start_again(self) -> None:
        assert self._start is not None
        self.process = self._start()
        _wait_ready(self, self.root / "server.log")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://koikoi@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        import psycopg

        self._databases += 1
        name = f"ratings_{os.getpid()}_{self._databases}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.process.poll() is None:
            # "immediate" shutdown: no shutdown checkpoint, whose fsync of every database the tests
            # made costs tens of seconds on a busy disk; the data folder is deleted next anyway.
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


@contextlib.contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    bindir = _bindir()
    if bindir is None:
        _missing("initdb was not found")
    assert bindir is not None
    # As root, the server runs as the `postgres` user (None: as ourselves).
    uid: int | None = None
    gid: int | None = None
    extra_groups: list[int] | None = None
    if os.geteuid() == 0:
        try:
            entry = pwd.getpwnam("postgres")
        except KeyError:
            _missing("there is no `postgres` user to run the server as")
        uid, gid, extra_groups = entry.pw_uid, entry.pw_gid, []
    root = Path(tempfile.mkdtemp(prefix="koikoi-pg-"))
    if uid is not None and gid is not None:
        os.chown(root, uid, gid)
    data, log = root / "data", root / "server.log"
    subprocess.run(
        [
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "koikoi",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-locale",
            "--no-sync",
        ],
        check=True,
        capture_output=True,
        cwd=root,
        user=uid,
        group=gid,
        extra_groups=extra_groups,
    )
    port = _free_port()

    def start() -> subprocess.Popen[bytes]:
        with open(log, "ab") as out:
            return subprocess.Popen(
                [
                    str(bindir / "postgres"),
                    "-D",
                    str(data),
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "-k",
                    str(root),
                    "-c",
                    "fsync=on",
                    "-c",
                    "max_connections=60",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=root,
                user=uid,
                group=gid,
                extra_groups=extra_groups,
            )

    process = start()
    server = PostgresServer(root, port, process, start)
    try:
        _wait_ready(server, log)
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


def _wait_ready(server: PostgresServer, log: Path) -> None:
    import psycopg

    deadline = time.monotonic() + 60
    while True:
        if server.process.poll() is not None:
            raise RuntimeError("postgres exited: " + log.read_text(errors="replace")[-2000:])
        try:
            with psycopg.connect(server.url(), connect_timeout=2):
                return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
