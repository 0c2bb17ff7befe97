"""Errors of the peer protocol, split by whose fault they are (spec/protocol.md §2.4).

``LocalMisuse`` means our own caller did something wrong (a bug on this side); ``RemoteViolation``
means the peer or the relay deviated, and carries the evidence that shows it.
"""

from __future__ import annotations

from collections.abc import Mapping


class ProtocolError(Exception):
    """Base of every protocol error; ``reason`` is a stable machine-readable word."""

    reason: str
    message: str

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


class LocalMisuse(ProtocolError):
    """Our own caller used the API wrongly (wrong state, bad argument, value not encodable)."""


class RemoteViolation(ProtocolError):
    """The peer (or the relay between us) deviated from the protocol.

    ``evidence`` holds plain msgpack-able data that shows it: typically the offending ``frame``,
    and when it could be opened the signed ``envelope`` bytes and ``signature``.
    """

    evidence: dict[str, object]

    def __init__(self, reason: str, message: str = "",
                 evidence: Mapping[str, object] | None = None) -> None:
        super().__init__(reason, message)
        self.evidence = dict(evidence or {})
