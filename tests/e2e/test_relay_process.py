"""The relay as a real process (``python -m koikoi_relay`` and ``koikoi relay``): clients, ops, SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from koikoi_p2p.net.relay_client import RelayClient, RelayClosed, list_rooms
from tests.e2e.test_relay_support import Raw, run

ROOT = Path(__file__).resolve().parents[2]
MARKER = b"SECRET-PAYLOAD-7f3a"


def _start(command: list[str]) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("relay listening on ws://127.0.0.1:"), line
    port = int(line.rsplit(":", 1)[1].split("/")[0])
    return proc, port


@pytest.fixture
def relay_process() -> Iterator[tuple[subprocess.Popen[str], int]]:
    proc, port = _start([sys.executable, "-m", "koikoi_relay", "--port", "0", "--log-level", "debug"])
    try:
        yield proc, port
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=10)


async def _http_get(port: int, path: str) -> tuple[int, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    length = next(int(h.split(b":")[1]) for h in lines if h.lower().startswith(b"content-length"))
    body = await reader.readexactly(length)
    writer.close()
    return int(head.split()[1]), body.decode()


def test_relay_process_end_to_end_and_graceful_sigterm(
    relay_process: tuple[subprocess.Popen[str], int],
) -> None:
    proc, port = relay_process
    address = f"ws://127.0.0.1:{port}/v1"
    tokens: list[bytes] = []
    codes: list[str] = []

    async def body() -> None:
        host = await RelayClient.create(address, public=True, meta={"rules": "nintendo", "password": True})
        tokens.append(host.resume_token)
        codes.append(host.code)
        assert [r["code"] for r in await list_rooms(address)] == [host.code]
        guest = await RelayClient.join(address, host.code)
        await host.wait_for_peer(5)
        for i in range(100):
            await host.send(MARKER + b"%d" % i)
            if i == 40:
                guest._ws.transport.abort()  # type: ignore[union-attr]
        assert [await guest.recv() for _ in range(100)] == [MARKER + b"%d" % i for i in range(100)]
        assert guest.reconnects == 1
        assert await _http_get(port, "/healthz") == (200, "ok\n")
        status, metrics = await _http_get(port, "/metrics")
        assert status == 200
        assert "relay_frames_forwarded_total 100" in metrics and "relay_resumes_total 1" in metrics
        third = await Raw.connect(address)
        await third.send("join", code=host.code)
        assert (await third.expect("error"))["reason"] == "room_full"
        proc.send_signal(signal.SIGTERM)
        assert (await third.expect("shutdown"))["type"] == "shutdown"
        assert await third.closed() == 1001
        for client in (host, guest):
            with pytest.raises(RelayClosed) as ended:
                await client.recv()
            assert ended.value.reason == "shutdown"

    run(body)
    _, stderr = proc.communicate(timeout=10)
    assert proc.returncode == 0
    assert "event=relay_stopped" in stderr and "event=resumed" in stderr and "event=room_created" in stderr
    # Logs never carry payloads, tokens, room codes or lobby metadata.
    assert MARKER.decode() not in stderr and "nintendo" not in stderr
    assert not any(token.hex() in stderr for token in tokens)
    assert codes and not any(code in stderr for code in codes)


def test_koikoi_relay_command_serves_health() -> None:
    command = [sys.executable, "-m", "koikoi_p2p", "relay", "--port", "0", "--max-connections", "5"]
    proc, port = _start(command)
    try:
        assert run_get(port, "/healthz") == (200, "ok\n")
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=10)
        assert proc.returncode == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)


def run_get(port: int, path: str) -> tuple[int, str]:
    result: list[tuple[int, str]] = []

    async def body() -> None:
        result.append(await _http_get(port, path))

    run(body)
    return result[0]


def test_relay_restart_makes_resume_fail_with_a_typed_error() -> None:
    proc, port = _start([sys.executable, "-m", "koikoi_relay", "--port", "0"])
    second: subprocess.Popen[str] | None = None
    try:
        address = f"ws://127.0.0.1:{port}/v1"

        async def body() -> None:
            nonlocal second
            host = await RelayClient.create(address)
            guest = await RelayClient.join(address, host.code)
            await host.wait_for_peer(5)
            proc.kill()  # a crash: no shutdown notice, state lost
            proc.communicate(timeout=10)
            second, again = _start([sys.executable, "-m", "koikoi_relay", "--port", str(port)])
            assert again == port
            for client in (host, guest):
                with pytest.raises(RelayClosed) as failed:
                    await asyncio.wait_for(client.recv(), 20)
                assert failed.value.reason == "resume_failed"
                with pytest.raises(RelayClosed):
                    await client.send(b"too late")

        run(body)
    finally:
        for p in (proc, second):
            if p is not None and p.poll() is None:
                p.kill()
                p.communicate(timeout=10)
