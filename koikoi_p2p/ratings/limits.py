"""The rating service's serving limits and its TLS files (spec/ratings.md §7.5): plain values,
light to import (the command line reads their defaults for its options)."""

from __future__ import annotations

import logging
import ssl
from dataclasses import dataclass, field

log = logging.getLogger("koikoi.ratings")


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


@dataclass(frozen=True, slots=True)
class TlsFiles:
    """A certificate chain and its key (PEM files): ``koikoi ratings serve --tls-cert --tls-key``."""

    cert: str
    key: str

    def context(self) -> ssl.SSLContext:
        """A server context holding the files' certificate (TLS 1.2 or later)."""
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.load_cert_chain(self.cert, self.key)
        return context

    def reload(self, context: ssl.SSLContext) -> bool:
        """Load the files again into ``context`` (on SIGHUP): new connections get the new
        certificate, open ones keep theirs. A file that does not load leaves the old certificate
        in place (and is logged)."""
        try:
            context.load_cert_chain(self.cert, self.key)
        except (OSError, ssl.SSLError) as exc:
            log.error("certificate not reloaded, the old one stays: %s", exc)
            return False
        log.info("certificate reloaded from %s", self.cert)
        return True
