"""Holes 4, 7 and 8 of issue 25, each reproduced as the outside review found it and now refused
or bounded (spec/ratings.md §6.1, §7.5; spec/relay.md §9). Costs are measured in CPU seconds of
the server process and in counts, never in wall-clock time.

- 4: a slowly paced 8 MiB request for the rating paths, sent to the relay's port, was read there
  quadratically (1.4-1.6 s of CPU) outside every limit of the relay.
- 7: 256 idle sockets made the service answer everyone 503.
- 8: an abandonment claim sent again was replayed in full each time, and nine at once from one
  client made the next honest claim fail with 503.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from koikoi_p2p.ratings import checks
from koikoi_p2p.ratings import service as service_module
from koikoi_p2p.ratings.errors import Refused
from koikoi_p2p.ratings.service import RatingService
from koikoi_p2p.ratings.store import open_store
from tests.ratings.test_ratings_abandonment import Played, _play, claim_file
from tests.ratings.test_ratings_restart import ROOT, start_service, stop

MIB = 1024 * 1024
ATTACKER = "127.0.0.2"      # Linux routes all of 127/8 to the loopback: a second client address


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def relay_with_ratings(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """``koikoi relay --port 0 --ratings DB`` as its own process; yields it and the relay's port."""
    env = {**os.environ, "KOIKOI_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "koikoi_p2p", "relay", "--port", "0", "--ratings",
               f"sqlite:///{tmp_path / 'r.sqlite3'}", "--log-level", "warning"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("relay listening on ws://"), line
        yield process, int(line.split()[3].rsplit(":", 1)[1].split("/")[0])
    finally:
        stop(process)


async def _collect(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes (what came before a reset included)."""
    got = b""
    with contextlib.suppress(ConnectionError):
        while piece := await reader.read(65536):
            got += piece
    return got


async def paced_post(port: int, path: str, size: int, *, chunk: int = 64 * 1024, pause: float = 0.002,
                     source: str = "127.0.0.1") -> bytes:
    """POST ``size`` bytes in ``chunk``-sized pieces with a pause between them; the answer (b""
    when the server closed the connection without one). Stops sending once the server answered."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    answer = asyncio.ensure_future(_collect(reader))
    try:
        writer.write(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n"
                     f"Content-Length: {size}\r\n\r\n".encode())
        sent = 0
        with contextlib.suppress(ConnectionError):
            while sent < size and not answer.done():
                writer.write(b"\0" * min(chunk, size - sent))
                await writer.drain()
                sent += chunk
                if pause:
                    await asyncio.sleep(pause)
        return await asyncio.wait_for(answer, 60)
    finally:
        writer.close()


def test_hole_4_the_relay_port_reads_no_request_body(tmp_path: Path) -> None:
    """A paced 8 MiB POST for the rating paths costs the relay's process next to nothing: the
    relay's port is websockets', which takes no body (the service has a port of its own)."""
    with relay_with_ratings(tmp_path) as (process, port):
        before = cpu_seconds(process.pid)
        asyncio.run(paced_post(port, "/ratings/abandonments", 8 * MIB, chunk=4096, pause=0.0005))
        spent = cpu_seconds(process.pid) - before
    # Before the fix: 1.4-1.7 s (the request was buffered and searched again at every piece).
    assert spent < 0.3, f"the relay's process spent {spent:.2f} s of CPU on one request"


def test_hole_4_the_service_reads_a_paced_body_in_linear_time(tmp_path: Path) -> None:
    """aiohttp reads the same paced 8 MiB body at about the cost of the same bytes sent at once."""
    process, url = start_service(f"sqlite:///{tmp_path / 'r.sqlite3'}", tmp_path)
    port = int(url.rsplit(":", 1)[1])
    try:
        async def measure(pause: float, chunk: int) -> tuple[float, bytes]:
            before = cpu_seconds(process.pid)
            answer = await paced_post(port, "/ratings/abandonments", 8 * MIB, chunk=chunk, pause=pause)
            return cpu_seconds(process.pid) - before, answer

        at_once, answer = asyncio.run(measure(0, 8 * MIB))
        assert b'"not_a_claim"' in answer
        paced, answer = asyncio.run(measure(0.001, 16 * 1024))
        assert b'"not_a_claim"' in answer
    finally:
        stop(process)
    assert paced < 3 * at_once + 0.2, f"paced {paced:.2f} s of CPU, at once {at_once:.2f} s"


async def _open_idle(port: int, count: int, source: str) -> list[asyncio.StreamWriter]:
    writers = []
    for _ in range(count):
        _, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        writers.append(writer)
    return writers


async def _get(port: int, path: str = "/ratings", source: str = "127.0.0.1") -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    try:
        with contextlib.suppress(ConnectionError):      # a dropped connection: reset, no answer
            await writer.drain()
        return await asyncio.wait_for(_collect(reader), 30)
    finally:
        writer.close()


def test_hole_7_idle_sockets_of_one_address_do_not_shut_others_out(tmp_path: Path) -> None:
    """300 idle sockets from one address: the service still answers another address 200 (before
    the fix: 503 for everyone, for 30 s at a time)."""
    process, url = start_service(f"sqlite:///{tmp_path / 'r.sqlite3'}", tmp_path)
    port = int(url.rsplit(":", 1)[1])

    async def body() -> tuple[bytes, bytes, bytes]:
        idle = await _open_idle(port, 300, ATTACKER) + await _open_idle(port, 16, "127.0.0.3")
        try:
            await asyncio.sleep(0.3)
            return await _get(port), await _get(port, source=ATTACKER), await _get(port, source="127.0.0.3")
        finally:
            for writer in idle:
                writer.close()

    try:
        honest, theirs, over = asyncio.run(body())
    finally:
        stop(process)
    assert honest.startswith(b"HTTP/1.1 200"), honest[:200]
    # Over its cap: 503, or dropped unanswered when far over (its idle sockets expire meanwhile).
    assert theirs == b"" or theirs.startswith(b"HTTP/1.1 503"), theirs[:200]
    assert over.startswith(b"HTTP/1.1 503") and b"too_many_connections" in over, over[:200]


def test_hole_7_a_slow_head_and_a_slow_body_are_cut_off(tmp_path: Path) -> None:
    """The head has a deadline from the connection's start, a body a minimum rate."""
    from koikoi_p2p.ratings.app import RatingsServer
    from koikoi_p2p.ratings.limits import ServeLimits

    async def body() -> None:
        service = RatingService(open_store(f"sqlite:///{tmp_path / 'r.sqlite3'}"))
        server = RatingsServer(service, ServeLimits(head_timeout=0.5, min_body_rate=10_000, body_grace=0.5))
        await server.start("127.0.0.1", 0)
        try:
            # Idle, and a head trickling in a byte at a time: both closed, unanswered.
            idle_reader, idle = await asyncio.open_connection("127.0.0.1", server.port)
            slow_reader, slow = await asyncio.open_connection("127.0.0.1", server.port)
            for byte in b"GET /ratings HTTP/1.1\r\nHost: x\r\n":
                slow.write(bytes([byte]))
                with contextlib.suppress(ConnectionError):
                    await slow.drain()
                if slow_reader.at_eof():
                    break
                await asyncio.sleep(0.05)
            assert await asyncio.wait_for(idle_reader.read(), 10) == b""
            assert await asyncio.wait_for(slow_reader.read(), 10) == b""
            idle.close()
            slow.close()
            assert server.counts["head_timeout"] == 2
            # 20,000 bytes may take 0.5 + 20,000 / 10,000 s; sent at 1,000 bytes a second: 408.
            answer = await paced_post(server.port, "/ratings/results", 20_000, chunk=100, pause=0.1)
            assert answer.startswith(b"HTTP/1.1 408") and b"too_slow" in answer, answer[:300]
            assert (await _get(server.port)).startswith(b"HTTP/1.1 200")
        finally:
            await server.close()
            service.close()

    asyncio.run(body())


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return asyncio.run(_play(tmp_path_factory.mktemp("hostile"), True))


def _claims(game: Played, count: int, *, truthful: bool) -> list[bytes]:
    """``count`` distinct claim files whose replay is long (cut late in the match)."""
    found: list[bytes] = []
    for n in range(len(game.transcript.envelopes) - 1, 2, -1):
        with contextlib.suppress(AssertionError):     # no seat is awaited at that cut
            found.append(claim_file(game, n, truthful=truthful))
        if len(found) == count:
            return found
    raise AssertionError("not enough cuts")


def test_hole_8_a_claim_sent_again_is_not_replayed_again(
    game: Played, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recorded claim, and a refused one, sent again: answered without another replay (before
    the fix: a full replay every time)."""
    replays: list[int] = []
    real = checks.check_abandonment

    def counting(data: bytes) -> object:
        replays.append(len(data))
        return real(data)

    monkeypatch.setattr(service_module, "check_abandonment", counting)
    recorded, refused = _claims(game, 1, truthful=True)[0], _claims(game, 1, truthful=False)[0]

    async def body() -> None:
        service = RatingService(open_store(f"sqlite:///{tmp_path / 'r.sqlite3'}"))
        try:
            for _ in range(4):
                with pytest.raises(Refused) as caught:
                    await service.submit_abandonment(refused)
                assert caught.value.reason == "claim_not_upheld"
            first = await service.submit_abandonment(recorded)
            assert first["counted"] is True
            for _ in range(4):
                again = await service.submit_abandonment(recorded)
                assert again["counted"] is False and again["seq"] == first["seq"]
        finally:
            service.close()

    asyncio.run(body())
    assert len(replays) == 2, f"{len(replays)} replays for 2 distinct files sent 5 and 4 times"


async def _post(port: int, path: str, data: bytes, source: str) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(), 120)
    finally:
        writer.close()


def test_hole_8_nine_claims_from_one_address_leave_room_for_an_honest_one(
    game: Played, tmp_path: Path
) -> None:
    """Nine long claims at once from one address: most are refused at once (429), and an honest
    claim from another address is checked (before the fix: 503 busy)."""
    process, url = start_service(f"sqlite:///{tmp_path / 'r.sqlite3'}", tmp_path)
    port = int(url.rsplit(":", 1)[1])
    flood, honest = _claims(game, 9, truthful=False), _claims(game, 1, truthful=True)[0]

    async def body() -> tuple[list[bytes], bytes]:
        attack = [asyncio.ensure_future(_post(port, "/ratings/abandonments", data, ATTACKER))
                  for data in flood]
        await asyncio.sleep(0.5)
        mine = await _post(port, "/ratings/abandonments", honest, "127.0.0.1")
        return list(await asyncio.gather(*attack)), mine

    try:
        theirs, mine = asyncio.run(body())
    finally:
        stop(process)
    status = mine.split(b" ", 2)[1]
    assert status in (b"200", b"202"), mine[:300]
    refused = [a for a in theirs if a.startswith(b"HTTP/1.1 429") and b"too_many_claims" in a]
    assert len(refused) == 7, [a[:60] for a in theirs]
