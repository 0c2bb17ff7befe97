"""Pairing two seats through the relay again, after a relay restart or a crashed process.

The relay client resumes a dropped connection by itself while the relay still holds the room.
It cannot when the relay restarted (rooms and buffers are gone) or when our own process crashed
(the resume token and counters died with it). Then both seats meet again through the public
lobby: the host (seat 0) opens a public room whose meta carries a tag, the joiner (seat 1) looks
for the newest room with that tag and joins it. The tag is a hash of a string both seats share
(the match's rendezvous id), so it tells a lobby reader nothing; a stranger who joins the room
first gains nothing either (frames are end-to-end sealed and signed), it only delays the pair.

``RelayRendezvous`` is a ``Connector`` for ``ReliableLink``: each call returns a freshly paired
transport, closing the previous one (which closes its room, so the other seat pairs again too).
"""

from __future__ import annotations

import asyncio
import contextlib

from koikoi_p2p.net.relay_client import RelayClient, RelayError, list_rooms
from koikoi_p2p.protocol.statement import sha256
from koikoi_p2p.protocol.transport import Transport

META_KEY = "rejoin"


def rendezvous_tag(rendezvous: str) -> str:
    """The lobby tag of a rendezvous id: 32 hex characters (fits the relay's meta limits)."""
    return sha256(b"koikoi-p2p/faults/v1/rejoin\x00" + rendezvous.encode()).hex()[:32]


class RelayRendezvous:
    """Connector: pair ``seat`` with the other seat of the same rendezvous id on the relay."""

    def __init__(self, url: str, seat: int, rendezvous: str, *, pair_timeout_s: float = 30.0,
                 poll_s: float = 0.1, first: RelayClient | None = None) -> None:
        if seat not in (0, 1) or not rendezvous:
            raise ValueError("a seat (0 or 1) and a non-empty rendezvous id are needed")
        self.url = url
        self.seat = seat
        self.tag = rendezvous_tag(rendezvous)
        self.pair_timeout_s = pair_timeout_s
        self.poll_s = poll_s
        self._first = first
        self._client: RelayClient | None = first
        self.pairings = 0

    async def __call__(self) -> Transport:
        if self._first is not None:
            first, self._first = self._first, None
            self.pairings += 1
            return first
        await self.close()
        client = await (self._host() if self.seat == 0 else self._join())
        self._client = client
        self.pairings += 1
        return client

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 2.0)

    async def _host(self) -> RelayClient:
        client = await RelayClient.create(self.url, public=True, meta={META_KEY: self.tag})
        try:
            await client.wait_for_peer(timeout=self.pair_timeout_s)
        except BaseException:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 2.0)
            raise
        return client

    async def _join(self) -> RelayClient:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.pair_timeout_s
        while True:
            for room in await list_rooms(self.url):   # newest first
                meta = room.get("meta")
                code = room.get("code")
                if isinstance(meta, dict) and meta.get(META_KEY) == self.tag and isinstance(code, str):
                    try:
                        return await RelayClient.join(self.url, code)
                    except RelayError as exc:
                        if exc.reason not in ("room_full", "room_not_found", "room_closed"):
                            raise
            if loop.time() > deadline:
                raise RelayError("rejoin_timeout", "the other seat did not open a room in time")
            await asyncio.sleep(self.poll_s)


__all__ = ["META_KEY", "RelayRendezvous", "rendezvous_tag"]
