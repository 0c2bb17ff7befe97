"""What the session needs from a connection: ordered binary frames both ways (spec/protocol.md §2.3).

The relay's websocket client and the in-memory pair both implement it. A transport promises
nothing about integrity: the channel above detects every drop, reorder, alteration or injection.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


class TransportClosed(Exception):
    """The connection is gone; no more frames will arrive."""


@runtime_checkable
class Transport(Protocol):
    async def send(self, frame: bytes) -> None:
        """Queue one binary frame for the peer."""

    async def recv(self) -> bytes:
        """The next frame from the peer; raises ``TransportClosed`` when the connection is gone."""

    async def close(self) -> None:
        """Close both directions; the peer's ``recv`` then raises ``TransportClosed``."""
