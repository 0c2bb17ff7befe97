"""Helpers for the CLI end-to-end tests (no tests here): a relay on port 0, the koikoi script."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

SCRIPT = Path(sys.executable).parent / "koikoi"


def env_for(home: Path, **extra: str) -> dict[str, str]:
    # These players chose "no display name" already, so koikoi host/join at a terminal do not ask
    # (the first-run question is tested in tests/ratings/test_ratings_cli.py).
    name = home / "config" / "name.txt"
    if not name.exists():
        name.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        name.write_text("\n", encoding="utf-8")
    env = dict(os.environ)
    env["KOIKOI_HOME"] = str(home)
    env.pop("KOIKOI_RELAY", None)
    env.pop("KOIKOI_PASSWORD", None)
    env["NO_COLOR"] = "1"
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def relay_command() -> list[str]:
    """The relay as a person starts it: ``koikoi relay``."""
    return [str(SCRIPT), "relay"]


@contextlib.contextmanager
def relay_process(tmp: Path, *extra: str) -> Iterator[str]:
    """A relay on 127.0.0.1 with an OS-chosen port; yields its URL and stops it afterwards."""
    proc = subprocess.Popen(
        [*relay_command(), "--host", "127.0.0.1", "--port", "0", "--log-level", "warning", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env_for(tmp),
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "listening on" in line, line
        yield line.split("listening on", 1)[1].strip()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
