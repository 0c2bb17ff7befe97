"""Pairing two seats through the relay again, after a relay restart or a crashed process.

The relay client resumes a dropped connection by itself while the relay still holds the room.
It cannot when the relay restarted (rooms and buffers are gone) or when our own process crashed
(the resume token and counters died with it). Then both seats meet again in a *rejoin room*: the
host (seat 0) opens a room whose meta carries a tag, the joiner (seat 1) asks the relay for the
rooms with that tag and joins the newest. The relay never lists a rejoin room in the public
lobby; it answers only a request naming the exact tag (spec/relay.md §4). The tag is a hash of
the match's rendezvous id and, once both seats hold the session (the peer signed an envelope of
it), of the session id, which no one outside the two seats and the relay learns (spec/protocol.md
§12.2). A stranger who still joins first gains nothing: frames are end-to-end sealed and signed,
the driver drops and counts what does not authenticate, and the link pairs with the real peer
again when it shows up; the stranger only delays the pair.

``RelayRendezvous`` is a ``Connector`` for ``ReliableLink``: each call returns a freshly paired
transport, closing the previous one (which closes its room, so the other seat pairs again too).
"""

from __future__ import annotations

import asyncio
import contextlib

from koikoi_p2p.net.reach import UNREACHED, RelayReach
from koikoi_p2p.net.relay_client import RelayClient, RelayError, list_rooms
from koikoi_p2p.protocol.statement import sha256
from koikoi_p2p.protocol.transport import Transport

META_KEY = "rejoin"
# The joiner's pause between two looks at the lobby: two tags a look stay under the relay's
# default rate of new connections per address (spec/relay.md §7.1), so a long wait is not refused.
POLL_S = 0.6
LABEL = b"koikoi-p2p/faults/v2/rejoin\x00"


def rendezvous_tag(rendezvous: str, session_id: bytes = b"") -> str:
    """The rejoin tag: 32 hex characters (fits the relay's meta limits)."""
    data = LABEL + rendezvous.encode()
    if session_id:
        data += b"\x00" + session_id
    return sha256(data).hex()[:32]


class RelayRendezvous:
    """Connector: pair ``seat`` with the other seat of the same rendezvous id on the relay."""

    def __init__(self, url: str, seat: int, rendezvous: str, *, pair_timeout_s: float = 30.0,
                 poll_s: float = POLL_S, first: RelayClient | None = None) -> None:
        if seat not in (0, 1) or not rendezvous:
            raise ValueError("a seat (0 or 1) and a non-empty rendezvous id are needed")
        self.url = url
        self.seat = seat
        self.rendezvous = rendezvous
        self.tag = rendezvous_tag(rendezvous)
        self.fallback: str | None = None    # seat 1: the tag of a host that is not bound yet
        self.pair_timeout_s = pair_timeout_s
        self.poll_s = poll_s
        self._first = first
        self._client: RelayClient | None = first
        self.pairings = 0
        self.reach = RelayReach()   # whether the relay answers (abandonment claims wait for it, §12.4)
        self._answered = False      # some request of the current attempt had an answer

    def bind(self, session_id: bytes) -> None:
        """Both seats hold this session: derive the tag from it from now on. The joiner still
        looks for the unbound tag too, since the host binds only once it has the joiner's first
        envelope."""
        tag = rendezvous_tag(self.rendezvous, session_id)
        if tag != self.tag:
            self.fallback = self.tag if self.seat == 1 else None
            self.tag = tag

    def peer_bound(self) -> None:
        """The other seat holds the session too (we accepted an envelope of it chained after one
        of ours): it only ever opens rooms with the bound tag now, so the joiner stops looking for
        the unbound one, which anyone who knows the rendezvous id can put on a room
        (spec/protocol.md §12.2)."""
        self.fallback = None

    async def __call__(self) -> Transport:
        if self._first is not None:
            first, self._first = self._first, None
            self.pairings += 1
            return first
        await self.close()
        self._answered = False
        try:
            client = await (self._host() if self.seat == 0 else self._join())
        except RelayError as exc:
            if exc.reason in UNREACHED and not self._answered:
                self.reach.missed()
            else:
                self.reach.reached()      # the relay answered: no peer yet, a room gone, ...
            raise
        except TimeoutError:
            self.reach.reached()          # the host's room stood open and nobody came
            raise
        except OSError:
            if not self._answered:
                self.reach.missed()
            raise
        self.reach.reached()
        self._client = client
        self.pairings += 1
        return client

    def claim_hold(self, deadline: float, waited: float) -> float:
        """Seconds an abandonment claim whose deadline passed must still wait for the relay
        (spec/protocol.md §12.4): the paired connection resuming counts as the relay down."""
        client = self._client
        if client is not None:
            if client.resuming:
                self.reach.missed()
            else:
                self.reach.reached()
        return self.reach.hold(deadline, waited)

    def relay_down(self) -> bool:
        """Whether our relay does not answer now, for a screen (it changes no record): the paired
        connection resuming, or, while pairing again, the last attempt reaching nothing (§12.4)."""
        client = self._client
        if client is not None and client.closed_reason is None:
            return client.resuming
        return self.reach.down

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 2.0)

    async def _host(self) -> RelayClient:
        client = await RelayClient.create(self.url, public=True, meta={META_KEY: self.tag})
        self._answered = True
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
            for tag in (self.tag, self.fallback):
                if tag is None:
                    continue
                rooms = await list_rooms(self.url, rejoin=tag)      # newest first
                self._answered = True
                self.reach.reached()
                for room in rooms:
                    meta = room.get("meta")
                    code = room.get("code")
                    if isinstance(meta, dict) and meta.get(META_KEY) == tag and isinstance(code, str):
                        try:
                            return await RelayClient.join(self.url, code)
                        except RelayError as exc:
                            if exc.reason not in ("room_full", "room_not_found", "room_closed"):
                                raise
            if loop.time() > deadline:
                raise RelayError("rejoin_timeout", "the other seat did not open a room in time")
            await asyncio.sleep(self.poll_s)


__all__ = ["META_KEY", "RelayRendezvous", "rendezvous_tag"]
