"""When the relay probes a seat with an unsolicited ``sync`` (spec/relay.md §5.5 rule 4).

A seat whose oldest unacknowledged frame did not move over a whole sweep may have lost the tail of
its stream, and a ``sync`` repairs that. A seat that stays stuck is not repaired by more of them:
it is not acknowledging (a person deciding while the client holds back its acknowledgements, or a
peer that never will), and each probe makes an honest client resend what it holds. So the probes
of a stuck seat back off (after 2, 4, 8 and 16 sweeps, then every 32), and one sweep sends at most
``PER_SWEEP``: a thousand seats that never acknowledge cost the relay a thousand sends in one turn
of its event loop every second (40 ms, every honest frame behind them), measured under the hostile
bench before this bound.
"""

from __future__ import annotations

from typing import Protocol

GAP_MAX = 32      # sweeps between two probes of a seat that stays stuck, at most
PER_SWEEP = 128   # probes one sweep sends at most; the seats beyond wait for the next sweep


class Probed(Protocol):
    """What the relay keeps per seat for its probes (a local ``Seat``, a cluster ``Member``)."""

    probe_mark: int   # the oldest unacknowledged seq at the last sweep, -1 if none
    probe_gap: int    # sweeps from the last probe to the next
    probe_wait: int   # sweeps still to wait before the next probe


class Sweep:
    """One sweep's probes: ``due`` says for each seat whether to send one now."""

    __slots__ = ("sent",)

    def __init__(self) -> None:
        self.sent = 0

    def due(self, seat: Probed, first: int, reachable: bool) -> bool:
        """Whether to probe ``seat`` now: ``first`` is its oldest unacknowledged seq (-1: none),
        ``reachable`` whether it has a connection that takes messages now."""
        if first < 0 or first != seat.probe_mark or not reachable:
            seat.probe_mark = first   # moved (or nothing to repair): a fresh start
            seat.probe_gap = 1
            seat.probe_wait = 0
            return False
        if seat.probe_wait > 0:
            seat.probe_wait -= 1
            return False
        if self.sent >= PER_SWEEP:
            return False   # due, and first at the next sweep
        self.sent += 1
        seat.probe_gap = min(2 * seat.probe_gap, GAP_MAX)
        seat.probe_wait = seat.probe_gap - 1
        return True
