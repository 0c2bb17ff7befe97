"""The audit's one error type: what failed, and where."""

from __future__ import annotations


class AuditError(Exception):
    """A file or result that does not verify; ``reason`` is machine-readable, ``index`` the
    failing envelope's seq when there is one."""

    def __init__(self, reason: str, message: str = "", index: int | None = None) -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message
        self.index = index
