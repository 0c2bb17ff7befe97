"""The rating service's serving limits (spec/ratings.md §7.5): plain values,
light to import (the command line reads their defaults for its options)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ServeLimits:
    """What one client may hold of the service (spec/ratings.md §7.5); every field is an option of
    ``koikoi ratings serve``."""

    max_connections: int = 256            # open at once; beyond, 503 too_many_connections
    max_connections_per_address: int = 16  # open at once from one address; beyond, 503 likewise
    head_timeout: float = 10.0             # from accepting a connection to a whole request head
    min_body_rate: int = 32 * 1024         # bytes per second a body must average, after body_grace
    body_grace: float = 10.0
    handler_timeout: float = 30.0          # a handler not done by then: 503 timeout
    max_field_size: int = 8190             # one request line or header line (aiohttp's limit)
    max_body: int = 8 * 1024 * 1024       # the largest body of any path: an abandonment file (§6.1)
    # Addresses of proxies in front of the service: their connections are not capped per address,
    # and the last X-Forwarded-For address they add names the client (spec/ratings.md §7.5).
    trusted_proxies: frozenset[str] = field(default_factory=frozenset)

    def deadline(self, length: int) -> float:
        """How long a body of ``length`` bytes may take to arrive."""
        return self.body_grace + length / max(1, self.min_body_rate)
