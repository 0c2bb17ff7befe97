"""The service over real HTTP on loopback: on its own port, and sharing a relay's port."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.ratings import client
from koikoi_p2p.ratings.app import MAX_BODY, RatingsServer
from koikoi_p2p.ratings.board import recompute
from koikoi_p2p.ratings.limits import ServeLimits
from koikoi_p2p.ratings.service import RatingService
from koikoi_p2p.ratings.store import open_store
from tests.ratings.support import signed

ALICE, BOB, CAROL = Identity.generate(), Identity.generate(), Identity.generate()
GET_RATINGS = b"GET /ratings HTTP/1.1\r\nHost: x\r\n\r\n"


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
    service = RatingService(open_store(f"sqlite:///{folder / 'r.sqlite3'}"))
    server = RatingsServer(service)
    await server.start("127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        await server.close()
        service.close()


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
        await raw_http(port, f"GET /ratings/{BOB.fingerprint()}.html HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    ).decode()
    assert player.startswith("HTTP/1.1 200") and "<script>alert" not in player


@served
async def test_bad_http_is_answered_and_costs_nothing(url: str) -> None:
    port = int(url.rsplit(":", 1)[1])
    assert (
        await raw_http(port, b"POST /ratings/results HTTP/1.1\r\nHost: x\r\n"
                             b"Transfer-Encoding: chunked\r\n\r\n")
    ).startswith(b"HTTP/1.1 411")
    big = f"POST /ratings/results HTTP/1.1\r\nHost: x\r\nContent-Length: {MAX_BODY + 1}\r\n\r\n".encode()
    assert (await raw_http(port, big)).startswith(b"HTTP/1.1 413")
    assert (await raw_http(port, b"DELETE /ratings HTTP/1.1\r\nHost: x\r\n\r\n")).startswith(b"HTTP/1.1 405")
    assert (await raw_http(port, b"GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n")).startswith(b"HTTP/1.1 404")
    assert (await raw_http(port, b"nonsense\r\n\r\n")).split(b" ", 2)[1] == b"400"   # aiohttp says 1.0
    options = await raw_http(port, b"OPTIONS /ratings/results HTTP/1.1\r\nHost: x\r\n\r\n")
    assert options.startswith(b"HTTP/1.1 204") and b"Access-Control-Allow-Methods" in options


def test_a_service_of_its_own_bounds_its_open_connections(tmp_path: Path) -> None:
    async def body() -> None:
        service = RatingService(open_store(f"sqlite:///{tmp_path / 'r.sqlite3'}"))
        server = RatingsServer(service, ServeLimits(max_connections=1))
        await server.start("127.0.0.1", 0)
        port = server.port
        try:
            _, idle = await asyncio.open_connection("127.0.0.1", port)   # holds the only place
            await asyncio.sleep(0.1)
            assert (await raw_http(port, GET_RATINGS)).startswith(b"HTTP/1.1 503")
            idle.close()
            await asyncio.sleep(0.1)
            assert (await raw_http(port, GET_RATINGS)).startswith(b"HTTP/1.1 200")
        finally:
            await server.close()
            service.close()

    asyncio.run(body())


def test_a_relay_points_to_the_service_run_beside_it(tmp_path: Path) -> None:
    """``koikoi relay --web --ratings``: the service on its own port; the relay's port redirects the
    rating paths there (307, the host the client asked for), its app page may reach it, and
    clients find it with ``locate``. The relay's own paths stay the relay's. A relay with none
    answers that none is here."""
    from koikoi_p2p.net.relay_client import RelayClient
    from koikoi_relay.main import web_handler
    from koikoi_relay.server import RelayServer

    async def body() -> None:
        service = RatingService(open_store(f"sqlite:///{tmp_path / 'r.sqlite3'}"))
        ratings = RatingsServer(service)
        await ratings.start("127.0.0.1", 0)
        beside = f"http://127.0.0.1:{ratings.port}"
        try:
            async with RelayServer(http=web_handler(True, ratings.port)) as relay, \
                    RelayServer(http=web_handler(True)) as alone:
                asked = f"Host: 127.0.0.1:{relay.port}\r\n".encode()
                moved = await raw_http(relay.port, b"GET /ratings.html?x=1 HTTP/1.1\r\n" + asked + b"\r\n")
                assert moved.startswith(b"HTTP/1.1 307")
                assert f"\r\nLocation: {beside}/ratings.html?x=1\r\n".encode() in moved
                page = (await raw_http(relay.port, b"GET / HTTP/1.1\r\n" + asked + b"\r\n")).decode()
                assert page.startswith("HTTP/1.1 200") and f"connect-src 'self' {beside}\r\n" in page
                forged = await raw_http(relay.port, b"GET /ratings HTTP/1.1\r\nHost: a b;c\r\n\r\n")
                assert forged.startswith(b"HTTP/1.1 400")
                health = await raw_http(relay.port, b"GET /healthz HTTP/1.1\r\n" + asked + b"\r\n")
                assert health.startswith(b"HTTP/1.1 200") and health.endswith(b"ok\n")
                ws = f"ws://127.0.0.1:{relay.port}/v1"
                assert await asyncio.to_thread(client.locate, ws) == beside
                answer = await asyncio.to_thread(client.submit_result, beside, signed(ALICE, BOB))
                assert answer.status == 200 and answer.body["counted"] is True
                board = await asyncio.to_thread(client.leaderboard, ws)      # follows the redirect
                assert board.body["results"] == 1
                host = await RelayClient.create(ws)
                assert len(host.code) == 6
                await host.close()
                # A relay with no service beside it: its own URL, as before (spec/ratings.md §2.1).
                own = f"ws://127.0.0.1:{alone.port}/v1"
                assert await asyncio.to_thread(client.locate, own) == client.service_url(own)
                assert await asyncio.to_thread(client.find, own) is None
                # It says so when asked (no 404: the app's page asks before a leaderboard).
                none = await raw_http(alone.port, b"GET /ratings/service HTTP/1.1\r\nHost: x\r\n\r\n")
                assert none.startswith(b"HTTP/1.1 200") and none.endswith(b'{"ok": true, "service": null}')
                board_path = await raw_http(alone.port, b"GET /ratings HTTP/1.1\r\nHost: x\r\n\r\n")
                assert board_path.startswith(b"HTTP/1.1 404")
                plain = (await raw_http(alone.port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")).decode()
                assert "connect-src 'self'\r\n" in plain
        finally:
            await ratings.close()
            service.close()

    asyncio.run(body())
