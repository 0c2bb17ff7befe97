"""Helpers for the JavaScript interop tests: node, the built web/ package, a relay process on a
free loopback port, and both peers as subprocesses."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WEB = REPO / "web"
NODE = shutil.which("node")


def require_node() -> str:
    """node and web/node_modules, or skip (fail under CI=true)."""
    if NODE is None or not (WEB / "node_modules").is_dir():
        why = "node and web/node_modules are needed (cd web && npm ci)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    return NODE


def start_relay(port: int = 0) -> tuple[subprocess.Popen[str], str]:
    """A relay process on 127.0.0.1 (port 0: a free one) and its URL once it listens."""
    proc = subprocess.Popen([sys.executable, "-m", "koikoi_relay", "--host", "127.0.0.1", "--port",
                             str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        m = re.search(r"relay listening on (ws://127\.0\.0\.1:\d+/v1)", proc.stdout.readline())
        if m:
            return proc, m.group(1)
    stop_process(proc)
    raise AssertionError("the relay did not start")


def stop_process(proc: subprocess.Popen[str]) -> None:
    """Stop a process we started, by its pid: terminate, then kill after 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def relay_process() -> Iterator[str]:
    """A real relay process on 127.0.0.1, port 0; yields its URL and stops it by pid."""
    proc, url = start_relay()
    try:
        yield url
    finally:
        stop_process(proc)


def js_peer(role: str, relay: str, *, code: str | None = None,
            extra: list[str] | None = None) -> subprocess.Popen[str]:
    # The flag directly: without it peer.js runs node again as a child, which a kill would orphan.
    args = [require_node(), "--experimental-websocket", str(WEB / "bin" / "peer.js"), role,
            *([code] if code else []), "--relay", relay, *(extra or [])]
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)


def py_peer(role: str, relay: str, *, code: str | None = None,
            extra: list[str] | None = None) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "tests.interop.py_peer", role, *([code] if code else []),
            "--relay", relay, *(extra or [])]
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)


def room_code(proc: subprocess.Popen[str]) -> str:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, f"the host printed nothing: {proc.stderr.read() if proc.stderr else ''}"
    code = json.loads(line)["code"]
    assert isinstance(code, str)
    return code


def outcome(proc: subprocess.Popen[str], timeout: float = 240) -> dict[str, object]:
    out, err = proc.communicate(timeout=timeout)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    assert lines, f"no outcome (exit {proc.returncode}): {err[-2000:]}"
    result = json.loads(lines[-1])
    assert isinstance(result, dict)
    result["stderr"] = err
    return result


def js_verdicts(paths: list[Path]) -> list[dict[str, object]]:
    """The JavaScript auditor's verdicts on many files, in one process."""
    out = subprocess.run([require_node(), str(WEB / "tools" / "audit_batch.js"), *map(str, paths)],
                         capture_output=True, text=True, check=True, cwd=REPO, timeout=600).stdout
    return [json.loads(line) for line in out.splitlines()]


def py_verdict(data: bytes) -> dict[str, object]:
    """The Python auditor's verdict in the same shape."""
    from koikoi_p2p.audit import AuditError, audit_bytes

    try:
        report = audit_bytes(data)
    except AuditError as exc:
        return {"ok": False, "reason": exc.reason, "index": exc.index}
    j = report.to_json()
    dev = j.get("deviation")
    if isinstance(dev, dict):
        return {"ok": bool(j["ok"]), "reason": dev["reason"], "index": dev["seq"], "seat": dev["seat"]}
    if j["ok"]:
        return {"ok": True, "reason": None, "index": None}
    return {"ok": False, "reason": "incomplete", "index": None}


DEAL_TYPES = {"key", "shuffle", "disclose", "round_sign"}


def py_trace(data: bytes) -> list[list[object]]:
    """The Python flow's public state after every envelope of a transcript, in the shape of
    web/tools/trace.js: [state, seat, type, seconds, deal, scores] (deal only for the types that
    name one), replayed as an observer with the round secrets the file discloses."""
    from koikoi_p2p.audit.core import Replayer, disclosed_keys
    from koikoi_p2p.protocol.transcript import decode_transcript

    transcript = decode_transcript(data)
    replayer = Replayer(transcript.session, disclosed_keys(transcript.envelopes))
    flow = replayer.flow
    trace: list[list[object]] = []
    for env in transcript.envelopes:
        replayer.feed(env)
        wait = flow.waiting_for()
        seat, msg_type, seconds = wait if wait is not None else (None, None, None)
        deal = flow.expect_deal if wait is not None and msg_type in DEAL_TYPES else None
        scores = list(flow.match.scores) if flow.match is not None else [0, 0]   # the tally (pool balances)
        trace.append([flow.phase.value, seat, msg_type, seconds, deal, scores])
    return trace


def js_traces(paths: list[Path]) -> list[list[list[object]]]:
    """web/tools/trace.js on many transcripts, in one process."""
    out = subprocess.run([require_node(), str(WEB / "tools" / "trace.js"), *map(str, paths)],
                         capture_output=True, text=True, check=True, cwd=REPO, timeout=600).stdout
    return [json.loads(line) for line in out.splitlines()]


def first_divergence(js: list[list[object]], py: list[list[object]]) -> tuple[int, object, object] | None:
    """The first envelope after which the two flows' public states differ, or None."""
    for seq, (a, b) in enumerate(zip(js, py, strict=True)):
        if a != b:
            return seq, a, b
    return None
