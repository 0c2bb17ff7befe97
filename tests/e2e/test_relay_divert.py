"""The relay's port shared with another service of the same process (koikoi_relay/divert.py,
spec/relay.md §9): the service gets the requests for its paths whole, bodies included; the
relay keeps its own."""

from __future__ import annotations

import asyncio

from koikoi_p2p.net.relay_client import RelayClient
from koikoi_relay.divert import Diversion
from koikoi_relay.server import RelayServer

seen: list[bytes] = []


async def echo(raw: bytes) -> bytes:
    seen.append(raw)
    body = b"service saw " + str(len(raw)).encode()
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body)


def service_paths(path: str) -> bool:
    return path.startswith("/svc")


async def ask(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return answer


def test_the_service_gets_its_paths_and_the_relay_keeps_the_rest() -> None:
    async def body() -> None:
        web = {"/": (200, [("Content-Type", "text/html")], b"<p>app</p>")}
        async with RelayServer(http=web.get, divert=Diversion(echo, service_paths, max_body=1000)) as relay:
            port = relay.port
            post = b"POST /svc/x?a=1 HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello world"
            answer = await ask(port, post)
            assert answer.endswith(b"service saw %d" % len(post)) and seen[-1] == post
            # The request may come in pieces: the service still gets it whole.
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            for piece in (b"POST /svc", b" HTTP/1.1\r\nContent-Le", b"ngth: 3\r\n\r\nab", b"c"):
                writer.write(piece)
                await writer.drain()
                await asyncio.sleep(0.05)
            assert (await asyncio.wait_for(reader.read(), 10)).startswith(b"HTTP/1.1 200")
            writer.close()
            assert seen[-1].endswith(b"\r\n\r\nabc")
            assert (await ask(port, b"GET /healthz HTTP/1.1\r\n\r\n")).endswith(b"ok\n")
            assert b"# TYPE" in await ask(port, b"GET /metrics HTTP/1.1\r\n\r\n")
            assert (await ask(port, b"GET / HTTP/1.1\r\n\r\n")).endswith(b"<p>app</p>")
            assert (await ask(port, b"GET /other HTTP/1.1\r\n\r\n")).startswith(b"HTTP/1.1 404")
            chunked = b"POST /svc HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
            assert (await ask(port, chunked)).startswith(b"HTTP/1.1 411")
            too_big = b"POST /svc HTTP/1.1\r\nContent-Length: 5000\r\n\r\n"
            assert (await ask(port, too_big)).startswith(b"HTTP/1.1 413")
            count = len(seen)
            host = await RelayClient.create(f"ws://127.0.0.1:{port}/v1")   # the websocket is untouched
            guest = await RelayClient.join(f"ws://127.0.0.1:{port}/v1", host.code)
            await host.wait_for_peer(timeout=10)
            await host.send(b"frame")
            assert await asyncio.wait_for(guest.recv(), 10) == b"frame"
            await host.close()
            await guest.close()
            assert len(seen) == count

    asyncio.run(body())
