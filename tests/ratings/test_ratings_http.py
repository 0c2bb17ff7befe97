"""The service over real HTTP on loopback: on its own port, and sharing a relay's port."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.ratings import client
from koikoi_p2p.ratings.app import MAX_BODY, RatingsApp, claims
from koikoi_p2p.ratings.board import recompute
from koikoi_p2p.ratings.http import serve_http
from koikoi_p2p.ratings.service import RatingService
from koikoi_p2p.ratings.store import open_store
from koikoi_relay.divert import Diversion
from koikoi_relay.server import RelayServer
from tests.ratings.support import signed

ALICE, BOB, CAROL = Identity.generate(), Identity.generate(), Identity.generate()


async def raw_http(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return answer


@contextlib.asynccontextmanager
async def standalone(folder: Path) -> AsyncIterator[str]:
    """``koikoi ratings serve`` in this process: the service on a free loopback port."""
    app = RatingsApp(RatingService(open_store(f"sqlite:///{folder / 'r.sqlite3'}")))
    server = await serve_http(app.handle_raw, "127.0.0.1", 0, max_body=MAX_BODY)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.close()
        await server.wait_closed()
        app.service.close()


def served(test: Callable[[str], Awaitable[None]]) -> Callable[[Path], None]:
    """Run an async test body against a fresh standalone service."""

    def wrapper(tmp_path: Path) -> None:
        async def body() -> None:
            async with standalone(tmp_path) as url:
                await test(url)

        asyncio.run(body())

    wrapper.__name__, wrapper.__doc__ = test.__name__, test.__doc__
    return wrapper


@served
async def test_submit_read_export_and_recompute_over_http(url: str) -> None:
    first = signed(ALICE, BOB, winner=0, names=("Alice", "<b>Bob</b>"))
    answer = await asyncio.to_thread(client.submit_result, url, first)
    assert answer.status == 200 and answer.body["counted"] is True and answer.body["seq"] == 1
    again = await asyncio.to_thread(client.submit_result, url, first)
    assert again.status == 200 and again.body["counted"] is False and again.body["seq"] == 1
    await asyncio.to_thread(
        client.submit_result, url, signed(BOB, CAROL, winner=None, names=("<b>Bob</b>", ""))
    )
    board = (await asyncio.to_thread(client.leaderboard, url)).body
    assert board["results"] == 2
    players = board["players"]
    assert isinstance(players, list) and [p["rank"] for p in players] == [1, 2, 3]
    assert {p["name"] for p in players} == {"Alice", "<b>Bob</b>", ""}
    bob = await asyncio.to_thread(client.history, url, BOB.fingerprint())
    history = bob.body["history"]
    assert isinstance(history, list) and [h["outcome"] for h in history] == ["loss", "draw"]
    export = (await asyncio.to_thread(client.export, url)).body
    assert recompute(export).board == board
    assert json.loads(json.dumps(board)) == board  # floats survive JSON exactly


@served
async def test_refusals_over_http_name_their_reason(url: str) -> None:
    unrated = await asyncio.to_thread(client.submit_result, url, signed(ALICE, BOB, rated=False))
    assert unrated.status == 422 and unrated.body["reason"] == "unrated"
    garbage = await asyncio.to_thread(client.submit_result, url, b"not a result")
    assert garbage.status == 400 and garbage.body["reason"] == "not_a_result"
    session = b"\x07" * 32
    await asyncio.to_thread(client.submit_result, url, signed(ALICE, BOB, session=session, winner=0))
    replay = await asyncio.to_thread(client.submit_result, url, signed(ALICE, BOB, session=session, winner=1))
    assert replay.status == 409 and replay.body["reason"] == "replayed"
    unknown = await asyncio.to_thread(client.history, url, "aaaa-aaaa-aaaa-aaaa")
    assert unknown.status == 404 and unknown.body["reason"] == "unknown_player"
    board = (await asyncio.to_thread(client.leaderboard, url)).body
    assert board["results"] == 1


@served
async def test_html_pages_escape_names(url: str) -> None:
    port = int(url.rsplit(":", 1)[1])
    await asyncio.to_thread(
        client.submit_result, url, signed(ALICE, BOB, names=("<script>alert(1)</script>", "a&b\"'"))
    )
    page = (await raw_http(port, b"GET /ratings.html HTTP/1.1\r\nHost: x\r\n\r\n")).decode()
    assert page.startswith("HTTP/1.1 200") and "text/html" in page
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "a&amp;b&quot;&#x27;" in page and "Content-Security-Policy: default-src 'none'" in page
    player = (
        await raw_http(port, f"GET /ratings/{BOB.fingerprint()}.html HTTP/1.1\r\n\r\n".encode())
    ).decode()
    assert player.startswith("HTTP/1.1 200") and "<script>alert" not in player


@served
async def test_bad_http_is_answered_and_costs_nothing(url: str) -> None:
    port = int(url.rsplit(":", 1)[1])
    assert (
        await raw_http(port, b"POST /ratings/results HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")
    ).startswith(b"HTTP/1.1 411")
    big = f"POST /ratings/results HTTP/1.1\r\nContent-Length: {MAX_BODY + 1}\r\n\r\n".encode()
    assert (await raw_http(port, big)).startswith(b"HTTP/1.1 413")
    assert (await raw_http(port, b"DELETE /ratings HTTP/1.1\r\n\r\n")).startswith(b"HTTP/1.1 405")
    assert (await raw_http(port, b"GET /nothing HTTP/1.1\r\n\r\n")).startswith(b"HTTP/1.1 404")
    assert (await raw_http(port, b"nonsense\r\n\r\n")).startswith(b"HTTP/1.1 400")
    options = await raw_http(port, b"OPTIONS /ratings/results HTTP/1.1\r\n\r\n")
    assert options.startswith(b"HTTP/1.1 204") and b"Access-Control-Allow-Methods" in options


def test_the_relay_shares_its_port_with_the_service(tmp_path: Path) -> None:
    asyncio.run(relay_sharing(tmp_path))


async def relay_sharing(tmp_path: Path) -> None:
    """GET /healthz and /metrics, the websocket and other paths stay the relay's; /ratings... is the
    service's, POST included."""
    from koikoi_p2p.net.relay_client import RelayClient

    app = RatingsApp(RatingService(open_store(f"sqlite:///{tmp_path / 'r.sqlite3'}")))
    async with RelayServer(divert=Diversion(app.handle_raw, claims, MAX_BODY)) as relay:
        url = f"http://127.0.0.1:{relay.port}"
        health = await raw_http(relay.port, b"GET /healthz HTTP/1.1\r\n\r\n")
        assert health.startswith(b"HTTP/1.1 200") and health.endswith(b"ok\n")
        metrics = await raw_http(relay.port, b"GET /metrics HTTP/1.1\r\n\r\n")
        assert b"relay_connections" in metrics or b"# TYPE" in metrics
        answer = await asyncio.to_thread(
            client.submit_result, f"ws://127.0.0.1:{relay.port}/v1", signed(ALICE, BOB)
        )
        assert answer.status == 200 and answer.body["counted"] is True
        board = (await asyncio.to_thread(client.leaderboard, url)).body
        assert board["results"] == 1
        host = await RelayClient.create(f"ws://127.0.0.1:{relay.port}/v1")
        assert len(host.code) == 6
        await host.close()
        assert (await raw_http(relay.port, b"GET /elsewhere HTTP/1.1\r\n\r\n")).startswith(b"HTTP/1.1 404")
    app.service.close()


def test_a_service_of_its_own_bounds_its_open_connections(tmp_path: Path) -> None:
    async def body() -> None:
        app = RatingsApp(RatingService(open_store(f"sqlite:///{tmp_path / 'r.sqlite3'}")))
        server = await serve_http(app.handle_raw, "127.0.0.1", 0, max_body=MAX_BODY, max_connections=1)
        port = server.sockets[0].getsockname()[1]
        try:
            _, idle = await asyncio.open_connection("127.0.0.1", port)   # holds the only place
            await asyncio.sleep(0.1)
            assert (await raw_http(port, b"GET /ratings HTTP/1.1\r\n\r\n")).startswith(b"HTTP/1.1 503")
            idle.close()
            await asyncio.sleep(0.1)
            assert (await raw_http(port, b"GET /ratings HTTP/1.1\r\n\r\n")).startswith(b"HTTP/1.1 200")
        finally:
            server.close()
            await server.wait_closed()
            app.service.close()

    asyncio.run(body())
