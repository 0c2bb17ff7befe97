"""The shape every transport between two peers has: ordered binary frames, an explicit end."""

from __future__ import annotations

import typing


class TransportClosed(Exception):
    """The transport ended: no more frames will come, none can be sent."""


class Transport(typing.Protocol):
    """Ordered, reliable delivery of opaque frames to one peer (relay client, in-memory pair)."""

    async def send(self, frame: bytes) -> None: ...

    async def recv(self) -> bytes:
        """The next frame from the peer; raises TransportClosed when there will be none."""
        ...

    async def close(self) -> None: ...
