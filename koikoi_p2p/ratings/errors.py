"""The rating service's refusals and storage errors, each with a machine-readable reason."""

from __future__ import annotations


class Refused(Exception):
    """A submission the service will not count (spec/ratings.md §3). Nothing was changed.

    ``status`` is the HTTP status the service answers with: 400 for a file that is not a valid
    co-signed result, 409 for a session already counted with another outcome, 413 for a body over
    the size limit, 422 for a valid result the service does not rate.
    """

    def __init__(self, reason: str, message: str, status: int = 400) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message
        self.status = status

    def to_json(self) -> dict[str, object]:
        return {"ok": False, "reason": self.reason, "message": self.message}


class StoreError(Exception):
    """The database cannot be used (bad URL, newer schema, unreachable server)."""
