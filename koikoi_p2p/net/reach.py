"""Whether our own relay answers: an abandonment claim waits for it (spec/protocol.md §12.4).

A waiting side that cannot reach the relay cannot tell a peer that left from a relay that is
down, and the peer, behind the same relay, could not send either. Claiming then would write an
abandonment that the peer's own account contradicts as soon as the relay is back. So the
deadline of the other seat's message does not run out while the relay is unreachable (the
connector's attempts since the relay last answered all failed, or the paired connection is
resuming), and once the relay answers again the claim waits ``min(deadline, RELAY_GRACE_S)``
more: time for both links to pair again and re-send. The hold ends ``RELAY_HOLD_MAX_S`` past
the deadline whatever the relay does, so a relay that refuses only the waiting seat cannot keep
it from ever claiming.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

RELAY_GRACE_S = 20.0
RELAY_HOLD_MAX_S = 600.0

# RelayError reasons that mean no relay served us: nothing listens, the connection closed before
# any reply, or the relay says it cannot serve rooms at all (its storage is unreachable, it is
# shutting down). A refusal that concerns us (a full or busy relay, a rate limit) is an answer:
# a relay is there, and it is up.
UNREACHED = frozenset({"unreachable", "closed", "relay_unavailable", "shutdown"})


class RelayReach:
    """The connector's record: since when the relay failed every attempt (``down_since``), and
    when it last answered again after such an outage (``up_since``)."""

    __slots__ = ("_clock", "down_since", "up_since")

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.down_since: float | None = None
        self.up_since = -math.inf       # no outage yet: nothing to wait for

    def reached(self) -> None:
        """The relay answered (a room made, joined or listed, a request refused with a reason)."""
        if self.down_since is not None:
            self.down_since = None
            self.up_since = self._clock()

    def missed(self) -> None:
        """An attempt did not reach the relay, or the paired connection is resuming."""
        if self.down_since is None:
            self.down_since = self._clock()

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def hold(self, deadline: float, waited: float) -> float:
        """Seconds a claim must still wait once ``waited`` (seconds since the wait began) passed
        ``deadline``: 0 for none; while the relay is down, until the next look."""
        cap = float(deadline) + RELAY_HOLD_MAX_S - waited
        if cap <= 0:
            return 0.0
        if self.down_since is not None:
            return cap
        return max(0.0, min(cap, self.up_since + min(float(deadline), RELAY_GRACE_S) - self._clock()))


__all__ = ["RELAY_GRACE_S", "RELAY_HOLD_MAX_S", "UNREACHED", "RelayReach"]
