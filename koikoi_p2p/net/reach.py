"""Whether our own relay answers: an abandonment claim waits for it (spec/protocol.md §12.4).

A waiting side that cannot reach the relay cannot tell a peer that left from a relay that is
down, and the peer, behind the same relay, could not send either. Claiming then would write an
abandonment that the peer's own account contradicts as soon as the relay is back. So the
deadline of the other seat's message does not run out while the connector's last attempts to
reach the relay all failed, and once the relay answers again the claim waits
``min(deadline, RELAY_GRACE_S)`` more: time for both links to pair again and re-send.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

RELAY_GRACE_S = 20.0

# RelayError reasons that mean the relay was not reached at all (nothing of a room was asked).
UNREACHED = frozenset({"unreachable", "dropped", "closed", "relay_full", "handshakes_busy",
                       "source_handshakes", "source_connections", "bad_certificate"})


class RelayReach:
    """The connector's record: since when the relay failed every attempt (``down_since``), and
    when it last answered again after such an outage (``up_since``)."""

    __slots__ = ("_clock", "down_since", "up_since")

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.down_since: float | None = None
        self.up_since = clock()

    def reached(self) -> None:
        """The relay answered (a room was made, joined or listed, or it refused a room request)."""
        if self.down_since is not None:
            self.down_since = None
            self.up_since = self._clock()

    def missed(self) -> None:
        """An attempt did not reach the relay (no connection, or it refused the connection)."""
        if self.down_since is None:
            self.down_since = self._clock()

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def hold(self, deadline: float) -> float:
        """Seconds a claim whose deadline has passed must still wait (0: none; inf: the relay is
        down)."""
        if self.down_since is not None:
            return math.inf
        return max(0.0, self.up_since + min(float(deadline), RELAY_GRACE_S) - self._clock())


__all__ = ["RELAY_GRACE_S", "UNREACHED", "RelayReach"]
