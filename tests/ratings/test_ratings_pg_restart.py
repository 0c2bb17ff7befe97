"""PostgreSQL restarted under a running service (spec/ratings.md §5.5): while it is down every
request is answered 503 `store_unavailable` and `/healthz` fails; once it is back the service
serves again, without a restart of its own."""

from __future__ import annotations

import asyncio

from koikoi_p2p.protocol.identity import Identity
from koikoi_p2p.ratings import client
from koikoi_p2p.ratings.app import RatingsServer
from koikoi_p2p.ratings.service import RatingService
from koikoi_p2p.ratings.store import open_store
from tests.ratings.postgres import postgres_server
from tests.ratings.support import signed

A, B = Identity.generate(), Identity.generate()


def _get(url: str) -> client.Answer:
    return client._request(url)


def _submit(url: str, data: bytes) -> client.Answer:
    return client._request(url + "/ratings/results", data=data)


def test_the_service_recovers_after_postgresql_restarts() -> None:
    with postgres_server() as server:   # its own: the test stops and starts it
        service = RatingService(open_store(server.new_database()), workers=2)

        async def run() -> None:
            ratings = RatingsServer(service)
            await ratings.start()
            url = f"http://127.0.0.1:{ratings.port}"
            try:
                first = await asyncio.to_thread(_submit, url, signed(A, B, winner=0))
                assert first.ok and first.body["counted"] is True, first
                assert (await asyncio.to_thread(_get, url + "/healthz")).status == 200

                await asyncio.to_thread(server.stop_fast)
                down = await asyncio.to_thread(_get, url + "/ratings")
                assert (down.status, down.body["reason"]) == (503, "store_unavailable"), down
                health = await asyncio.to_thread(_get, url + "/healthz")
                assert health.status == 503, health
                refused = await asyncio.to_thread(_submit, url, signed(A, B, winner=1))
                assert (refused.status, refused.body["reason"]) == (503, "store_unavailable"), refused

                await asyncio.to_thread(server.start_again)
                assert (await asyncio.to_thread(_get, url + "/healthz")).status == 200
                board = await asyncio.to_thread(_get, url + "/ratings")
                assert board.ok and board.body["results"] == 1, board
                again = await asyncio.to_thread(_submit, url, signed(A, B, winner=1))
                assert again.ok and again.body["counted"] is True, again
            finally:
                await ratings.close()

        try:
            asyncio.run(run())
        finally:
            service.close()
