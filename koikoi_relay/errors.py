"""Error reasons and websocket close codes of the relay protocol (spec/relay.md §6)."""

from __future__ import annotations

from enum import IntEnum


class RelayProtocolError(Exception):
    """A client message the relay refuses; ``reason`` is the machine-readable error sent back."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


class MessageError(RelayProtocolError):
    """A websocket message that is no valid control message (bad msgpack, shape, type or field)."""


class CloseCode(IntEnum):
    """Close codes the relay sends; the 4xxx range is private to this protocol."""

    NORMAL = 1000            # the client left
    GOING_AWAY = 1001        # the relay is shutting down
    TRY_AGAIN_LATER = 1013   # total connection limit reached
    REJECTED = 4001          # the host rejected this joiner (its handshake failed)
    ROOM_CLOSED = 4002       # the other peer left or never came back within the grace period
    IDLE = 4003              # idle connection or idle room expired
    RATE_LIMITED = 4004      # frames or bytes per second exceeded; resume after a pause
    POLICY = 4005            # too many errors, too many failed joins
    REPLACED = 4006          # a newer connection resumed this seat
    RESUME_FAILED = 4007     # unknown token, or the missed frames are no longer buffered
